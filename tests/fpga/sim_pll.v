// sim_pll — simulation stand-ins for the FPGA PLL primitives (yosys' own
// models are empty blackboxes): the output clock is the input clock and LOCK
// is high. Only the board tops use them; cycle counts are what matter in
// simulation, not the frequency. Used by tests/fpga/tb_board.v.
`default_nettype none

module SB_PLL40_PAD #(
  parameter FEEDBACK_PATH = "SIMPLE", parameter DELAY_ADJUSTMENT_MODE_FEEDBACK = "FIXED",
  parameter DELAY_ADJUSTMENT_MODE_RELATIVE = "FIXED", parameter SHIFTREG_DIV_MODE = 1'b0,
  parameter FDA_FEEDBACK = 4'b0, parameter FDA_RELATIVE = 4'b0, parameter PLLOUT_SELECT = "GENCLK",
  parameter DIVR = 4'b0, parameter DIVF = 7'b0, parameter DIVQ = 3'b0, parameter FILTER_RANGE = 3'b0,
  parameter ENABLE_ICEGATE = 1'b0, parameter TEST_MODE = 1'b0, parameter EXTERNAL_DIVIDE_FACTOR = 1
) (
  input  wire PACKAGEPIN, output wire PLLOUTCORE, output wire PLLOUTGLOBAL,
  input  wire EXTFEEDBACK, input wire [7:0] DYNAMICDELAY, output wire LOCK,
  input  wire BYPASS, input wire RESETB, input wire LATCHINPUTVALUE,
  output wire SDO, input wire SDI, input wire SCLK
);
  assign PLLOUTCORE = PACKAGEPIN;
  assign PLLOUTGLOBAL = PACKAGEPIN;
  assign LOCK = 1'b1;
  assign SDO = 1'b0;
endmodule

module SB_PLL40_CORE #(
  parameter FEEDBACK_PATH = "SIMPLE", parameter DELAY_ADJUSTMENT_MODE_FEEDBACK = "FIXED",
  parameter DELAY_ADJUSTMENT_MODE_RELATIVE = "FIXED", parameter SHIFTREG_DIV_MODE = 1'b0,
  parameter FDA_FEEDBACK = 4'b0, parameter FDA_RELATIVE = 4'b0, parameter PLLOUT_SELECT = "GENCLK",
  parameter DIVR = 4'b0, parameter DIVF = 7'b0, parameter DIVQ = 3'b0, parameter FILTER_RANGE = 3'b0,
  parameter ENABLE_ICEGATE = 1'b0, parameter TEST_MODE = 1'b0, parameter EXTERNAL_DIVIDE_FACTOR = 1
) (
  input  wire REFERENCECLK, output wire PLLOUTCORE, output wire PLLOUTGLOBAL,
  input  wire EXTFEEDBACK, input wire [7:0] DYNAMICDELAY, output wire LOCK,
  input  wire BYPASS, input wire RESETB, input wire LATCHINPUTVALUE,
  output wire SDO, input wire SDI, input wire SCLK
);
  assign PLLOUTCORE = REFERENCECLK;
  assign PLLOUTGLOBAL = REFERENCECLK;
  assign LOCK = 1'b1;
  assign SDO = 1'b0;
endmodule

`default_nettype wire
