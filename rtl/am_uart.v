// am_uart — 8N1 serial port for the console device and host links.
//
// Owns: a transmit shift register with a one-byte holding register, a
// receiver with a 2-flop synchroniser and mid-bit sampling, the receive
// FIFO (am_uart_rxfifo: RX_FIFO bytes, the host link's credit), and the
// framing error counter.
//
// Bus (word registers, byte offset on addr_i[4:2]):
//   0x00 TXDATA  W  byte to send. The write waits (ready_o low) while the
//                   holding register is full, so firmware never polls and no
//                   byte is ever dropped on transmit.
//   0x04 RXDATA  R  bit 8 = valid, bits 7:0 = the oldest received byte; a
//                   read with valid set consumes it.
//   0x08 STATUS  R  bit 0 tx busy, bit 1 rx valid, [15:8] framing errors
//                   (saturating), [23:16] bytes the FIFO dropped (saturating
//                   at 255; RXFIFO has them all).
//   0x0C DIV     RW clock cycles per bit (reset: DIV parameter). With DIV_RW = 0
//                   (the FPGA boards: the divider is the board's, fixed) it
//                   reads DIV and writes are ignored; the bit counters are
//                   then only as wide as DIV needs.
//   0x10 RXFIFO  R  [15:0] bytes readable in the FIFO, [31:16] bytes it
//                   dropped because it was full (saturating).
// Promises: a byte whose stop bit is 0 is not delivered but counted as a
// framing error; a byte arriving while the FIFO holds RX_FIFO bytes is not
// delivered but counted as dropped — both visible, never silently lost.
// rx_valid_o: the FIFO is not empty (the SoC's device request).
// tx_strobe_o/tx_byte_o pulse when a byte is accepted for transmission (the
// simulation testbench reads the console there). tx_full_d_o is the holding
// register's next state, so the SoC can compute its bus ready a cycle ahead.
`default_nettype none
`include "am_defs.vh"

module am_uart #(
  parameter integer DIV    = 104,  // cycles per bit at reset (12 MHz / 115200)
  parameter integer DIV_RW = 1,    // 0: DIV is fixed (writes to DIV are ignored)
  parameter integer RX_FIFO = `AM_DEFAULT_LINK_RX_FIFO   // receive FIFO bytes (a power of two)
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        valid_i,
  output wire        ready_o,
  output wire        tx_full_d_o,  // the holding register is full next cycle
  input  wire [4:2]  addr_i,
  input  wire [31:0] wdata_i,
  input  wire        we_i,
  output reg  [31:0] rdata_o,
  output wire        tx_o,
  input  wire        rx_i,
  output wire        tx_strobe_o,
  output wire [7:0]  tx_byte_o,
  output wire        rx_valid_o    // a received byte waits in the FIFO
);
  // bit timing: CW-bit counters count down from div - 1 to 0 (one bit time)
  localparam integer CW = DIV_RW != 0 ? 16 : (DIV < 4 ? 2 : $clog2(DIV));
  wire [15:0]   div;
  wire [CW-1:0] div_m1 = div[CW-1:0] - 1'b1;
  wire [16:0]   div_x  = {1'b0, div};
  wire unused_wdata = ^{wdata_i[31:16], div_x[0]};  // registers are at most 16 bits wide

  // ---- transmit -----------------------------------------------------------
  reg        hold_full_q;
  reg [7:0]  hold_q;
  reg [9:0]  tx_shift_q;   // stop, data, start (LSB first)
  reg [3:0]  tx_bits_q;    // bits left to shift out
  reg [CW-1:0] tx_cnt_q;
  reg        tx_q;

  wire wr_tx   = valid_i && we_i && addr_i == `AM_UART_TXDATA;
  wire tx_take = wr_tx && !hold_full_q;
  assign tx_full_d_o = rst_ni && (tx_take || (hold_full_q && tx_bits_q != 4'd0));
  assign tx_strobe_o = tx_take;
  assign tx_byte_o   = wdata_i[7:0];
  assign tx_o        = tx_q;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      hold_full_q <= 1'b0;
      hold_q      <= 8'd0;
      tx_shift_q  <= 10'h3ff;
      tx_bits_q   <= 4'd0;
      tx_cnt_q    <= {CW{1'b0}};
      tx_q        <= 1'b1;
    end else begin
      if (tx_take) begin
        hold_full_q <= 1'b1;
        hold_q      <= wdata_i[7:0];
      end
      if (tx_bits_q == 4'd0) begin
        tx_q <= 1'b1;
        if (hold_full_q) begin
          tx_shift_q  <= {1'b1, hold_q, 1'b0};
          tx_bits_q   <= 4'd10;
          tx_cnt_q    <= div_m1;
          hold_full_q <= 1'b0;
        end
      end else begin
        tx_q <= tx_shift_q[0];
        if (tx_cnt_q == {CW{1'b0}}) begin
          tx_cnt_q   <= div_m1;
          tx_shift_q <= {1'b1, tx_shift_q[9:1]};
          tx_bits_q  <= tx_bits_q - 4'd1;
        end else begin
          tx_cnt_q <= tx_cnt_q - 1'b1;
        end
      end
    end
  end

  // ---- receive ----------------------------------------------------------------
  reg [2:0]  rx_sync_q;
  reg        rx_busy_q;
  reg [CW-1:0] rx_cnt_q;
  reg [3:0]  rx_bit_q;     // 0 = start bit, 1..8 data, 9 stop
  reg [7:0]  rx_shift_q;
  reg [7:0]  frame_err_q;

  wire rx_s     = rx_sync_q[2];
  wire rd_rx    = valid_i && !we_i && addr_i == `AM_UART_RXDATA;
  // a byte whose stop bit is good goes into the FIFO
  wire rx_done  = rx_busy_q && rx_cnt_q == {CW{1'b0}} && rx_bit_q == 4'd9;
  wire rx_put   = rx_done && rx_s;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      rx_sync_q   <= 3'b111;
      rx_busy_q   <= 1'b0;
      rx_cnt_q    <= {CW{1'b0}};
      rx_bit_q    <= 4'd0;
      rx_shift_q  <= 8'd0;
      frame_err_q <= 8'd0;
    end else begin
      rx_sync_q <= {rx_sync_q[1:0], rx_i};
      if (!rx_busy_q) begin
        if (!rx_s) begin                    // falling edge: start bit
          rx_busy_q <= 1'b1;
          rx_cnt_q  <= div_x[CW:1];           // sample mid-bit
          rx_bit_q  <= 4'd0;
        end
      end else if (rx_cnt_q != {CW{1'b0}}) begin
        rx_cnt_q <= rx_cnt_q - 1'b1;
      end else begin
        rx_cnt_q <= div_m1;
        if (rx_bit_q == 4'd0) begin
          if (rx_s) rx_busy_q <= 1'b0;      // glitch, not a start bit
          else      rx_bit_q  <= 4'd1;
        end else if (rx_bit_q != 4'd9) begin
          rx_shift_q <= {rx_s, rx_shift_q[7:1]};
          rx_bit_q   <= rx_bit_q + 4'd1;
        end else begin
          rx_busy_q <= 1'b0;
          if (!rx_s && frame_err_q != 8'hff) frame_err_q <= frame_err_q + 8'd1;
        end
      end
    end
  end

  localparam integer FAW = $clog2(RX_FIFO);
  wire           rx_valid;
  wire [7:0]     rx_head;
  wire [FAW:0]   rx_level;
  wire [15:0]    rx_lost;
  am_uart_rxfifo #(.DEPTH(RX_FIFO)) u_rxfifo (
    .clk_i(clk_i), .rst_ni(rst_ni), .wr_i(rx_put), .wdata_i(rx_shift_q), .pop_i(rd_rx),
    .valid_o(rx_valid), .head_o(rx_head), .level_o(rx_level), .lost_o(rx_lost));
  assign rx_valid_o = rx_valid;
  wire [7:0]  lost8  = (rx_lost[15:8] != 8'd0) ? 8'hff : rx_lost[7:0];
  wire [15:0] level16 = {{(15-FAW){1'b0}}, rx_level};

  // ---- bus ---------------------------------------------------------------------
  generate
    if (DIV_RW != 0) begin : g_div_rw
      reg [15:0] div_q;
      always @(posedge clk_i) begin
        if (!rst_ni) div_q <= DIV[15:0];
        else if (valid_i && we_i && addr_i == `AM_UART_DIV)
          div_q <= (wdata_i[15:0] < 16'd2) ? 16'd2 : wdata_i[15:0];
      end
      assign div = div_q;
    end else begin : g_div_fixed
      assign div = DIV[15:0];
    end
  endgenerate

  always @(*) begin
    case (addr_i)
      `AM_UART_RXDATA: rdata_o = {23'd0, rx_valid, rx_head};
      `AM_UART_STATUS: rdata_o = {8'd0, lost8, frame_err_q, 6'd0, rx_valid,
                          hold_full_q || tx_bits_q != 4'd0};
      `AM_UART_DIV:    rdata_o = {16'd0, div};
      `AM_UART_RXFIFO: rdata_o = {rx_lost, level16};
      default: rdata_o = 32'd0;
    endcase
  end

  // A TXDATA write waits for the holding register; everything else is immediate.
  assign ready_o = valid_i && (!wr_tx || !hold_full_q);
endmodule

`default_nettype wire
