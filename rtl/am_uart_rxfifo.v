// am_uart_rxfifo — the UART receiver's FIFO: what the host link's credit
// covers (docs/link.md, "Credit"). A behavior may run for the watchdog's
// whole budget while bytes keep arriving; the link service drains the FIFO
// between transactions.
//
// Owns: the byte RAM (DEPTH x 8, inferred block RAM: one iCE40 4-Kbit
// block for 512; flip-flops for 16 or fewer), its write and read pointers, the count of bytes held
// (used_q, for full), the count of bytes readable (avail_q), the head's
// read register and the count of bytes dropped because the FIFO was full.
//
// Promises:
// * A byte offered (wr_i) is stored unless DEPTH bytes are held; then it is
//   dropped and counted in lost_o (saturating at 0xFFFF). Nothing else ever
//   drops a byte: a host that keeps DEPTH bytes or fewer unconsumed loses
//   none (the credit rule).
// * valid_o / head_o: the oldest byte held, readable from the second cycle
//   after it was written (the RAM's read-during-write returns the old
//   word, so a byte is counted readable one cycle late). pop_i (only with
//   valid_o) consumes it; the next one is on head_o in the next cycle,
//   when there is one.
// * level_o: the bytes readable now.
`default_nettype none

module am_uart_rxfifo #(
  parameter integer DEPTH = 512,   // a power of two
  parameter integer AW    = $clog2(DEPTH)
) (
  input  wire          clk_i,
  input  wire          rst_ni,
  input  wire          wr_i,      // a received byte
  input  wire [7:0]    wdata_i,
  input  wire          pop_i,     // the head is read
  output wire          valid_o,
  output wire [7:0]    head_o,
  output wire [AW:0]   level_o,
  output reg  [15:0]   lost_o
);
  reg  [AW-1:0] wp_q, rp_q;
  reg  [AW:0]   used_q, avail_q;
  reg           wr_q;          // a byte was stored last cycle: readable from the next
  reg  [7:0]    head_q;

  wire          full   = (used_q == DEPTH[AW:0]);
  wire          wr_ok  = wr_i && !full;
  wire          pop    = pop_i && (avail_q != {(AW+1){1'b0}});
  wire [AW-1:0] rp_nxt = pop ? rp_q + 1'b1 : rp_q;

  // the bytes: a block RAM, or flip-flops for a FIFO of a few (a board
  // without the host link, am_board_soc)
  generate if (DEPTH > 16) begin : g_bram
    (* ram_style = "block", no_rw_check *) reg [7:0] mem_q [0:DEPTH-1];
    always @(posedge clk_i) begin
      if (wr_ok) mem_q[wp_q] <= wdata_i;
      head_q <= mem_q[rp_nxt];
    end
  end else begin : g_ff
    (* ram_style = "logic" *) reg [7:0] mem_q [0:DEPTH-1];
    always @(posedge clk_i) begin
      if (wr_ok) mem_q[wp_q] <= wdata_i;
      head_q <= mem_q[rp_nxt];
    end
  end endgenerate

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      wp_q    <= {AW{1'b0}};
      rp_q    <= {AW{1'b0}};
      used_q  <= {(AW+1){1'b0}};
      avail_q <= {(AW+1){1'b0}};
      wr_q    <= 1'b0;
      lost_o  <= 16'd0;
    end else begin
      wr_q <= wr_ok;
      if (wr_ok) wp_q <= wp_q + 1'b1;
      rp_q    <= rp_nxt;
      used_q  <= used_q + {{AW{1'b0}}, wr_ok} - {{AW{1'b0}}, pop};
      avail_q <= avail_q + {{AW{1'b0}}, wr_q} - {{AW{1'b0}}, pop};
      if (wr_i && full && lost_o != 16'hFFFF) lost_o <= lost_o + 16'd1;
    end
  end

  assign valid_o = (avail_q != {(AW+1){1'b0}});
  assign head_o  = head_q;
  assign level_o = avail_q;
endmodule

`default_nettype wire
