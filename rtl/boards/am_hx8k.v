// am_hx8k — actormachine on the iCE40-HX8K breakout board (HX8K-CT256).
//
// Owns: the PLL (12 MHz oscillator -> CLK_HZ) and the pins; the power-on reset
// and the SoC are rtl/boards/am_board_soc.v (the board has no button: reset =
// reconfigure). The SoC runs one demo
// (SYS.BOOT_BEH = BOOT_BEH). Console: UART 115200 8N1 on the FTDI's second
// channel (/dev/ttyUSB1). RAM: rtl/boards/am_ram_ice40.v, all block RAM
// (RAM_WORDS words holding code, data and stack). docs/fpga.md has the pinout
// and the numbers.
//
// Pins: CLK J3, RX B10 (from the FTDI), TX B12 (to the FTDI), LED[7:0] =
// D9..D2 (B5 B4 A2 A1 C5 C4 B3 C3): LED[0] halted OK, LED[1] halted with an
// error code (a trap outside any behavior ends in one), LED[7] out of
// reset.
`default_nettype none
`include "am_defs.vh"   // the board's sizes: include/am_iface.def

module am_hx8k #(
  parameter integer CLK_HZ      = 12000000,   // PLL output (what PLL_* give)
  parameter integer BAUD        = 115200,
  parameter integer RAM_WORDS   = 2048,
  parameter [31:0]  BOOT_BEH    = 32'd0,
  parameter [31:0]  BOOT_ARG    = 32'd0,
  parameter         FIRMWARE    = "",
  parameter integer TABLE_SLOTS = `AM_BOARD_HX8K_TABLE_SLOTS,
  parameter integer QAW         = `AM_BOARD_HX8K_QAW,
  parameter integer STATS       = `AM_BOARD_HX8K_STATS,   // statistics counters (docs/actor-unit.md)
  parameter integer WD_W        = `AM_BOARD_HX8K_WD_W,   // watchdog budget bits
  parameter [0:0]   ENABLE_MUL  = `AM_BOARD_HX8K_ENABLE_MUL,
  parameter [0:0]   ENABLE_DIV  = `AM_BOARD_HX8K_ENABLE_DIV,
  parameter [0:0]   TWO_STAGE_SHIFT = `AM_BOARD_HX8K_TWO_STAGE_SHIFT,
  parameter [0:0]   USE_PLL     = 1,
  parameter [3:0]   PLL_DIVR    = 4'd0,
  parameter [6:0]   PLL_DIVF    = 7'd63,
  parameter [2:0]   PLL_DIVQ    = 3'd5,
  parameter [2:0]   PLL_FILTER  = 3'd1
) (
  input  wire       CLK,
  input  wire       RX,
  output wire       TX,
  output wire [7:0] LED
);
  wire clk, lock;
  generate if (USE_PLL) begin : g_pll
    SB_PLL40_CORE #(
      .FEEDBACK_PATH("SIMPLE"), .DIVR(PLL_DIVR), .DIVF(PLL_DIVF), .DIVQ(PLL_DIVQ),
      .FILTER_RANGE(PLL_FILTER)
    ) pll (
      .REFERENCECLK(CLK), .PLLOUTGLOBAL(clk), .PLLOUTCORE(), .LOCK(lock),
      .RESETB(1'b1), .BYPASS(1'b0), .EXTFEEDBACK(1'b0), .DYNAMICDELAY(8'd0),
      .LATCHINPUTVALUE(1'b0), .SDI(1'b0), .SCLK(1'b0), .SDO());
  end else begin : g_nopll
    assign clk  = CLK;
    assign lock = 1'b1;
  end endgenerate

  wire rst_n, ok, err;
  am_board_soc #(
    .CLK_HZ(CLK_HZ), .BAUD(BAUD), .RAM_WORDS(RAM_WORDS), .FIRMWARE(FIRMWARE), .BOOT_BEH(BOOT_BEH),
    .BOOT_ARG(BOOT_ARG), .TABLE_SLOTS(TABLE_SLOTS), .QAW(QAW), .STATS(STATS), .WD_W(WD_W),
    .ENABLE_MUL(ENABLE_MUL), .ENABLE_DIV(ENABLE_DIV), .TWO_STAGE_SHIFT(TWO_STAGE_SHIFT)
  ) board (
    .clk_i(clk), .lock_i(lock), .btn_ni(1'b1), .rx_i(RX), .tx_o(TX), .rst_no(rst_n),
    .ok_o(ok), .err_o(err));

  assign LED = {rst_n, 5'd0, err, ok};
endmodule

`default_nettype wire
