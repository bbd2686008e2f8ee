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

// ECP5 (the ULX3S top's parameters and ports)
module EHXPLLL #(
  parameter PLLRST_ENA = "DISABLED", parameter INTFB_WAKE = "DISABLED",
  parameter STDBY_ENABLE = "DISABLED", parameter DPHASE_SOURCE = "DISABLED",
  parameter OUTDIVIDER_MUXA = "DIVA", parameter OUTDIVIDER_MUXB = "DIVB",
  parameter OUTDIVIDER_MUXC = "DIVC", parameter OUTDIVIDER_MUXD = "DIVD",
  parameter integer CLKI_DIV = 1, parameter CLKOP_ENABLE = "ENABLED", parameter integer CLKOP_DIV = 8,
  parameter integer CLKOP_CPHASE = 0, parameter integer CLKOP_FPHASE = 0,
  parameter FEEDBK_PATH = "CLKOP", parameter integer CLKFB_DIV = 1
) (
  input  wire RST, input wire STDBY, input wire CLKI, output wire CLKOP, input wire CLKFB,
  output wire CLKINTFB, input wire PHASESEL0, input wire PHASESEL1, input wire PHASEDIR,
  input  wire PHASESTEP, input wire PHASELOADREG, input wire PLLWAKESYNC, input wire ENCLKOP,
  output wire LOCK
);
  assign CLKOP = CLKI;
  assign CLKINTFB = 1'b0;
  assign LOCK = 1'b1;
endmodule

`default_nettype wire
