// tb_board — runs a board build as the board would: its oscillator on the
// clock pin, nothing on RX, a UART receiver on TX. The iCEBreaker
// (rtl/boards/am_icebreaker.v) by default, used twice by `make postsynth`
// with the same firmware: on the RTL and on the yosys netlist (synth_ice40 +
// write_verilog, simulated with yosys' ice40 cells_sim.v; the HX8K's with
// BOARD_HX8K: make postsynth PS_BOARD=hx8k); with BOARD_HX8K
// or BOARD_ULX3S defined, the RTL of that board's top (`make board-sim`).
// Each console must equal the host runtime's output.
//
// With TB_LINK defined (make board-sim ... LINK=1) the link is on and the
// image is the board's loader: it stops once the loader has spoken and the
// UART has been idle for two characters' time.
// Writes every received byte to +out=FILE; stops when a halt LED lights
// (green: halted OK, red: error code) and the UART has been idle
// for two characters' time, or fails after +max_cycles=N.
// Parameters: UART_DIV (cycles per bit, as the board computes it); with
// POSTSYNTH defined the DUT is the netlist (no parameters), else the RTL top
// with the board's parameters passed through (fpga.mk passes every one the
// board's <board>_SOC lists; RAM_WORDS reaches the HX8K and ULX3S tops).
`timescale 1ns/1ps
`default_nettype none

module tb_board;
  parameter integer UART_DIV    = 104;
`ifndef POSTSYNTH
  parameter integer CLK_HZ      = 12000000;
  parameter [31:0]  BOOT_BEH    = 0;
  parameter         FIRMWARE    = "";
  parameter integer TABLE_SLOTS = 32;
  parameter integer QAW         = 5;
  parameter [0:0]   ENABLE_MUL  = 0;
  parameter [0:0]   ENABLE_DIV  = 0;
  parameter [0:0]   TWO_STAGE_SHIFT = 0;
  parameter integer STATS       = 0;
  parameter integer WD_W        = 32;
  parameter integer RAM_WORDS   = 16384;
`endif

  reg  clk = 1'b0;
  wire tx, ledr_n, ledg_n;
  always #10 clk = !clk;   // the period is irrelevant: the PLL model passes it through

// the HX8K and ULX3S tops take the same parameters
`define TB_BOARD_PARAMS .CLK_HZ(CLK_HZ), .BOOT_BEH(BOOT_BEH), .FIRMWARE(FIRMWARE), \
  .TABLE_SLOTS(TABLE_SLOTS), .QAW(QAW), .ENABLE_MUL(ENABLE_MUL), .ENABLE_DIV(ENABLE_DIV), \
  .TWO_STAGE_SHIFT(TWO_STAGE_SHIFT), \
  .STATS(STATS), .WD_W(WD_W), .RAM_WORDS(RAM_WORDS)

`ifdef BOARD_HX8K
  wire [7:0] led;           // LED[0] halted OK, LED[1] halted with an error
`ifdef POSTSYNTH
  am_hx8k dut (.CLK(clk), .RX(1'b1), .TX(tx), .LED(led));
`else
  am_hx8k #(`TB_BOARD_PARAMS) dut (.CLK(clk), .RX(1'b1), .TX(tx), .LED(led));
`endif
  assign ledg_n = !led[0];
  assign ledr_n = !led[1];
`elsif POSTSYNTH
  am_icebreaker dut (.CLK(clk), .RX(1'b1), .TX(tx), .BTN_N(1'b1), .LEDR_N(ledr_n), .LEDG_N(ledg_n));
`elsif BOARD_ULX3S
  wire [7:0] led;           // led[0] halted OK, led[1] halted with an error
  am_ulx3s #(`TB_BOARD_PARAMS) dut (.clk_25mhz(clk), .ftdi_txd(1'b1), .ftdi_rxd(tx), .btn(1'b1), .led(led), .wifi_gpio0());
  assign ledg_n = !led[0];
  assign ledr_n = !led[1];
`else
  am_icebreaker #(
    .CLK_HZ(CLK_HZ), .BOOT_BEH(BOOT_BEH), .FIRMWARE(FIRMWARE), .TABLE_SLOTS(TABLE_SLOTS),
    .QAW(QAW), .ENABLE_MUL(ENABLE_MUL), .ENABLE_DIV(ENABLE_DIV), .TWO_STAGE_SHIFT(TWO_STAGE_SHIFT),
    .STATS(STATS), .WD_W(WD_W)
  ) dut (.CLK(clk), .RX(1'b1), .TX(tx), .BTN_N(1'b1), .LEDR_N(ledr_n), .LEDG_N(ledg_n));
`endif

`ifdef TB_LINK
  // LINK=1 (make board-sim ... LINK=1): the SoC with the link on, as the
  // build's chparam sets it (fpga.mk <board>_CHPARAM), and the image the
  // board's loader: it speaks once, then waits for the host.
  defparam dut.board.LINK_CFG = 32'd1;
`endif

  integer fd, cycles = 0, idle = 0, nbytes = 0, max_cycles;
  reg [255*8:0] out;
  // UART receiver: 8N1, sampled mid-bit, counting clock cycles.
  integer rx_cnt = 0, rx_bit = 0;
  reg     rx_busy = 1'b0;
  reg [7:0] rx_byte = 8'd0;

  initial begin
    if (!$value$plusargs("out=%s", out)) out = "tb_board.out";
    if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 5000000;
    fd = $fopen(out, "w");
  end

  always @(posedge clk) begin
    cycles <= cycles + 1;
    if (!rx_busy) begin
      idle <= idle + 1;
      if (tx === 1'b0) begin        // start bit
        rx_busy <= 1'b1;
        rx_cnt  <= UART_DIV + UART_DIV / 2 - 1;
        rx_bit  <= 0;
      end
    end else begin
      idle <= 0;
      if (rx_cnt != 0) rx_cnt <= rx_cnt - 1;
      else if (rx_bit < 8) begin
        rx_byte <= {tx, rx_byte[7:1]};
        rx_bit  <= rx_bit + 1;
        rx_cnt  <= UART_DIV - 1;
      end else begin                // stop bit
        if (tx !== 1'b1) begin
          $display("tb_board: FAIL framing error after %0d bytes", nbytes); $finish;
        end
        $fwrite(fd, "%c", rx_byte);
        nbytes  <= nbytes + 1;
        rx_busy <= 1'b0;
      end
    end
`ifdef TB_LINK
    if (nbytes > 0 && idle > 20 * UART_DIV) begin
      $fclose(fd);
      $display("tb_board: the loader spoke %0d bytes after %0d cycles and waits", nbytes, cycles);
      $finish;
    end
`endif
    if ((ledg_n === 1'b0 || ledr_n === 1'b0) && idle > 20 * UART_DIV) begin
      $fclose(fd);
      $display("tb_board: %s after %0d cycles, %0d console bytes",
               ledg_n === 1'b0 ? "halted OK" : "halted with an ERROR (red LED)", cycles, nbytes);
      $finish;
    end
    if (cycles >= max_cycles) begin
      $fclose(fd);
      $display("tb_board: FAIL no halt within %0d cycles (%0d console bytes)", max_cycles, nbytes);
      $finish;
    end
  end
endmodule

`default_nettype wire
