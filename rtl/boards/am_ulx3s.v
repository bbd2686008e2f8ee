// am_ulx3s — actormachine on the ULX3S (ECP5 LFE5U-12F/25F/45F/85F, CABGA381).
//
// Owns: the PLL (25 MHz oscillator -> CLK_HZ) and the pins (reset and SoC:
// rtl/boards/am_board_soc.v). The SoC
// runs at the simulation's defaults (64 KiB RAM with the full firmware, the
// actor unit's default size, RV32IM) and one demo: SYS.BOOT_BEH = BOOT_BEH.
// Console: UART 115200 8N1 through the FT231X (/dev/ttyUSB0). RAM:
// rtl/am_ram.v (block RAM). docs/fpga.md has the pinout and the numbers.
//
// Pins: clk_25mhz G2, ftdi_txd M1 (from the FTDI), ftdi_rxd L4 (to the FTDI),
// btn[0] D6 (PWR button, active low: reset), led[7:0] H3 E1 E2 D1 D2 C1 C2 B2
// (led[0] halted OK, led[1] halted with an error code -- a trap outside any
// behavior ends in one --, led[7] out of reset), wifi_gpio0 L2 held high (keeps the ESP32 from
// resetting the board).
`default_nettype none
`include "am_defs.vh"   // the board's sizes: include/am_iface.def

module am_ulx3s #(
  parameter integer CLK_HZ      = 50000000,   // PLL output (what PLL_* give)
  parameter integer BAUD        = 115200,
  parameter integer RAM_WORDS   = 16384,
  parameter [31:0]  BOOT_BEH    = 32'd0,
  parameter [31:0]  BOOT_ARG    = 32'd0,
  parameter         FIRMWARE    = "",
  parameter integer TABLE_SLOTS = `AM_BOARD_ULX3S_TABLE_SLOTS,
  parameter integer QAW         = `AM_BOARD_ULX3S_QAW,
  parameter integer STATS       = `AM_BOARD_ULX3S_STATS,   // statistics counters (docs/actor-unit.md)
  parameter integer WD_W        = `AM_BOARD_ULX3S_WD_W,   // watchdog budget bits
  parameter [0:0]   ENABLE_MUL  = `AM_BOARD_ULX3S_ENABLE_MUL,
  parameter [0:0]   ENABLE_DIV  = `AM_BOARD_ULX3S_ENABLE_DIV,
  parameter [0:0]   TWO_STAGE_SHIFT = `AM_BOARD_ULX3S_TWO_STAGE_SHIFT,
  // SYS.LINK: 1, the host link on at BAUD (fpga.mk's LINK=1, docs/link.md);
  // 0, the console prints text
  parameter [31:0]  LINK_CFG    = 32'd0,
  // EHXPLLL: f = 25 MHz * CLKFB_DIV / CLKI_DIV, VCO = f * CLKOP_DIV in 400..800 MHz
  parameter integer PLL_CLKI_DIV  = 1,
  parameter integer PLL_CLKFB_DIV = 2,
  parameter integer PLL_CLKOP_DIV = 12
) (
  input  wire       clk_25mhz,
  input  wire       ftdi_txd,
  output wire       ftdi_rxd,
  input  wire [0:0] btn,
  output wire [7:0] led,
  output wire       wifi_gpio0
);
  wire clk, lock;
  (* ICP_CURRENT="12" *) (* LPF_RESISTOR="8" *) (* MFG_ENABLE_FILTEROPAMP="1" *) (* MFG_GMCREF_SEL="2" *)
  EHXPLLL #(
    .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"),
    .DPHASE_SOURCE("DISABLED"), .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"),
    .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"),
    .CLKI_DIV(PLL_CLKI_DIV), .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(PLL_CLKOP_DIV),
    .CLKOP_CPHASE(PLL_CLKOP_DIV / 2 - 1), .CLKOP_FPHASE(0), .FEEDBK_PATH("CLKOP"),
    .CLKFB_DIV(PLL_CLKFB_DIV)
  ) pll (
    .RST(1'b0), .STDBY(1'b0), .CLKI(clk_25mhz), .CLKOP(clk), .CLKFB(clk), .CLKINTFB(),
    .PHASESEL0(1'b0), .PHASESEL1(1'b0), .PHASEDIR(1'b1), .PHASESTEP(1'b1),
    .PHASELOADREG(1'b1), .PLLWAKESYNC(1'b0), .ENCLKOP(1'b0), .LOCK(lock));

  wire rst_n, ok, err;
  am_board_soc #(
    .CLK_HZ(CLK_HZ), .BAUD(BAUD), .RAM_WORDS(RAM_WORDS), .FIRMWARE(FIRMWARE), .BOOT_BEH(BOOT_BEH),
    .BOOT_ARG(BOOT_ARG), .TABLE_SLOTS(TABLE_SLOTS), .QAW(QAW), .STATS(STATS), .WD_W(WD_W),
    .ENABLE_MUL(ENABLE_MUL), .ENABLE_DIV(ENABLE_DIV), .TWO_STAGE_SHIFT(TWO_STAGE_SHIFT),
    .LINK_CFG(LINK_CFG)
  ) board (
    .clk_i(clk), .lock_i(lock), .btn_ni(btn[0]), .rx_i(ftdi_txd), .tx_o(ftdi_rxd), .rst_no(rst_n),
    .ok_o(ok), .err_o(err));

  assign led = {rst_n, 5'd0, err, ok};
  assign wifi_gpio0 = 1'b1;
endmodule

`default_nettype wire
