// am_icebreaker — actormachine on the iCEBreaker (iCE40 UP5K-SG48).
//
// Owns: the PLL (12 MHz oscillator -> CLK_HZ) and the board pins; the reset
// and the SoC are rtl/boards/am_board_soc.v.
// The SoC (rtl/am_soc.v) runs one demo: SYS.BOOT_BEH = BOOT_BEH (fpga.mk
// takes the chosen program's boot id from its folder's manifest). The console
// (UART, 115200 8N1) goes to the FTDI's second channel (/dev/ttyUSB1).
// RAM: rtl/boards/am_ram_ice40.v (firmware image in block RAM, the rest of
// the 64 KiB in SPRAM). docs/fpga.md has the pinout and the numbers.
//
// Pins: CLK 35, RX 6 (from the FTDI), TX 9 (to the FTDI), BTN_N 10 (user
// button = reset), LEDR_N 11 (halted with an error code; a trap outside any
// behavior ends in one),
// LEDG_N 37 (halted OK: the demo finished).
`default_nettype none
`include "am_defs.vh"   // the board's sizes: include/am_iface.def

module am_icebreaker #(
  parameter integer CLK_HZ      = 24000000,   // PLL output (what PLL_* give)
  parameter integer BAUD        = 115200,
  parameter [31:0]  BOOT_BEH    = 32'd0,
  parameter [31:0]  BOOT_ARG    = 32'd0,      // 0: the boot message is empty
  parameter         FIRMWARE    = "",
  parameter integer TABLE_SLOTS = `AM_BOARD_ICEBREAKER_TABLE_SLOTS,
  parameter integer QAW         = `AM_BOARD_ICEBREAKER_QAW,
  parameter integer STATS       = `AM_BOARD_ICEBREAKER_STATS,   // statistics counters (docs/actor-unit.md)
  parameter integer WD_W        = `AM_BOARD_ICEBREAKER_WD_W,   // watchdog budget bits
  parameter [0:0]   ENABLE_MUL  = `AM_BOARD_ICEBREAKER_ENABLE_MUL,
  parameter [0:0]   ENABLE_DIV  = `AM_BOARD_ICEBREAKER_ENABLE_DIV,
  parameter [0:0]   TWO_STAGE_SHIFT = `AM_BOARD_ICEBREAKER_TWO_STAGE_SHIFT,  // 0: one-bit shifts (~50 LCs less)
  parameter [3:0]   PLL_DIVR    = 4'd0,       // icepll -i 12 -o 24
  parameter [6:0]   PLL_DIVF    = 7'd63,
  parameter [2:0]   PLL_DIVQ    = 3'd5,
  parameter [2:0]   PLL_FILTER  = 3'd1
) (
  input  wire CLK,
  input  wire RX,
  output wire TX,
  input  wire BTN_N,
  output wire LEDR_N,
  output wire LEDG_N
);
  wire clk, lock;
  SB_PLL40_PAD #(
    .FEEDBACK_PATH("SIMPLE"), .DIVR(PLL_DIVR), .DIVF(PLL_DIVF), .DIVQ(PLL_DIVQ),
    .FILTER_RANGE(PLL_FILTER)
  ) pll (
    .PACKAGEPIN(CLK), .PLLOUTGLOBAL(clk), .PLLOUTCORE(), .LOCK(lock),
    .RESETB(1'b1), .BYPASS(1'b0), .EXTFEEDBACK(1'b0), .DYNAMICDELAY(8'd0),
    .LATCHINPUTVALUE(1'b0), .SDI(1'b0), .SCLK(1'b0), .SDO());

  wire ok, err;
  am_board_soc #(
    .CLK_HZ(CLK_HZ), .BAUD(BAUD), .RAM_WORDS(16384), .FIRMWARE(FIRMWARE), .BOOT_BEH(BOOT_BEH),
    .BOOT_ARG(BOOT_ARG), .TABLE_SLOTS(TABLE_SLOTS), .QAW(QAW), .STATS(STATS), .WD_W(WD_W),
    .ENABLE_MUL(ENABLE_MUL), .ENABLE_DIV(ENABLE_DIV), .TWO_STAGE_SHIFT(TWO_STAGE_SHIFT)
  ) board (
    .clk_i(clk), .lock_i(lock), .btn_ni(BTN_N), .rx_i(RX), .tx_o(TX), .rst_no(),
    .ok_o(ok), .err_o(err));

  assign LEDG_N = !ok;
  assign LEDR_N = !err;
endmodule

`default_nettype wire
