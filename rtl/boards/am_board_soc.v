// am_board_soc — the SoC as every board top runs it.
//
// Owns: the reset (am_board_reset), the SoC (rtl/am_soc.v) without its
// simulation-only ports, and the UART line held idle while in reset.
// Promises: tx_o is high (idle) until the SoC leaves reset -- the UART's
// flip-flops power up 0, which a terminal would take for a start bit;
// ok_o = halted with code 0 (the demo finished), err_o = halted with
// another code (a trap outside any behavior ends in one: the firmware's
// PANIC). The board top adds the PLL and maps these onto its pins and LEDs.
`default_nettype none
`include "am_defs.vh"

module am_board_soc #(
  parameter integer CLK_HZ      = 12000000,
  parameter integer BAUD        = 115200,
  parameter integer RAM_WORDS   = 16384,
  parameter         FIRMWARE    = "",
  parameter [31:0]  BOOT_BEH    = 32'd0,
  parameter [31:0]  BOOT_ARG    = 32'd0,
  parameter integer TABLE_SLOTS = 128,
  parameter integer QAW         = 6,
  parameter integer STATS       = 1,
  parameter integer WD_W        = 32,
  parameter [0:0]   ENABLE_MUL  = 1,
  parameter [0:0]   ENABLE_DIV  = 1,
  parameter [0:0]   TWO_STAGE_SHIFT = 1,
  // SYS.LINK: 0, no host link (the console prints text); 1, the link is on
  // at the UART's baud (docs/link.md: an image built with the link)
  parameter [31:0]  LINK_CFG    = 32'd0
) (
  input  wire clk_i,
  input  wire lock_i,     // PLL locked (1 when there is no PLL)
  input  wire btn_ni,     // reset button, active low (1 when there is none)
  input  wire rx_i,
  output wire tx_o,
  output wire rst_no,
  output wire ok_o,
  output wire err_o
);
  wire rst_n;
  am_board_reset rst (.clk_i(clk_i), .lock_i(lock_i), .btn_ni(btn_ni), .rst_no(rst_n));

  wire        halt, halt_ok, uart_tx;
  am_soc #(
    .RAM_WORDS(RAM_WORDS), .FIRMWARE(FIRMWARE), .UART_DIV((CLK_HZ + BAUD / 2) / BAUD),
    .UART_DIV_RW(0),
    .ENABLE_MUL(ENABLE_MUL), .ENABLE_DIV(ENABLE_DIV), .TABLE_SLOTS(TABLE_SLOTS),
    .QAW(QAW), .STATS(STATS), .WD_W(WD_W), .TRACE(0), .TWO_STAGE_SHIFT(TWO_STAGE_SHIFT),
    // the link's credit only where the link is on (its firmware has the
    // service); elsewhere received bytes past two are dropped and counted
    .RX_FIFO(LINK_CFG != 32'd0 ? `AM_DEFAULT_LINK_RX_FIFO : 2)
  ) soc (
    .clk_i(clk_i), .rst_ni(rst_n), .boot_beh_i(BOOT_BEH), .boot_arg_i(BOOT_ARG), .gc_cfg_i(32'd0),
    .link_cfg_i(LINK_CFG), .reboot_o(),
    .uart_tx_o(uart_tx), .uart_rx_i(rx_i), .halt_o(halt), .restart_o(),
    .halt_code_o(), .halt_ok_o(halt_ok),
    .report_strobe_o(), .report_word_o(), .con_strobe_o(), .con_byte_o(),
    .trace_valid_o(), .trace_kind_o(), .trace_seq_o(), .trace_ref_o(), .trace_beh_o(),
    .trace_len_o(), .trace_words_o(), .trace_cause_o(), .trace_code_o(), .trace_op_o(), .trace_value_o(),
    .dbg_au_valid_o(), .dbg_au_we_o(), .dbg_au_addr_o(), .dbg_dp_wait_o(), .dbg_dp_done_o());

  assign rst_no = rst_n;
  assign ok_o   = halt && halt_ok;
  assign err_o  = halt && !halt_ok;
  assign tx_o   = rst_n ? uart_tx : 1'b1;
endmodule

`default_nettype wire
