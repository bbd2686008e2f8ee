// am_unit_fwd — FORWARD: a send whose words the unit copies from the
// message being handled (am_forward, include/am.h), so that passing words
// on costs the firmware one store instead of a load and a store per word.
//
// Owns: the words of the next send written since the last send (set_q, one
// bit per word: am_send_word), FWD_FROM (from_q) and the copy in flight:
// its step (c_q), length, offset, mask, the message's length, its staging
// entry (off_q), whether the queue had room for it and whether its
// reference passed (ok_q).
//
// Promises:
// * A FORWARD[n] write is a SEND[n] for every check and for the staging of
//   its entry (am_txn, am_unit_ext: the header, the count, the reference's
//   check in the next cycle). Its words: word i is SEND_W[i] if that was
//   written since the last send, else message word i + FWD_FROM of the
//   current event, or 0 where that is below 0 or not below its length --
//   exactly am_forward's rule.
// * The copy runs in the n + 1 cycles after the write (busy_o; busy_d_o a
//   cycle ahead, for the bus's busy flag): step c reads message word
//   c + from (the queue's read port, rd_idx_o) and writes word c - 1 of the
//   staging entry (we_o .. wdata_o) unless it was written by the bus; a
//   word outside the message is written 0 without a read. Nothing else uses
//   the queue's ports then: the unit is busy.
// * set_q clears when a send is staged (SEND or FORWARD) and when the
//   transaction ends; FWD_FROM after a FORWARD and when the transaction
//   ends.
// * done_o: the copy's last step, when its reference passed (ok): the trace
//   port's SEND record for a FORWARD comes then, with the words as copied
//   (am_unit_trace merges the last write), not in the cycle after the write.
`default_nettype none

module am_unit_fwd #(
  parameter integer QUEUE_AW  = 6,
  parameter integer MSG_WORDS = 8
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire                 clear_i,     // the transaction ends (am_dispatch)
  // the bus
  input  wire                 w_send_w_i,  // a SEND_W[i] write ...
  input  wire [MIW-1:0]       widx_i,      // ... of word i
  input  wire                 w_from_i,    // an FWD_FROM write ...
  input  wire [4:0]           from_i,      // ... of this
  // the send being staged (am_txn / am_unit_ext)
  input  wire                 send_go_i,   // a send is staged ...
  input  wire                 fwd_i,       // ... by FORWARD
  input  wire [3:0]           n_i,         // its length
  input  wire [QUEUE_AW-1:0]  off_i,       // its staging entry (sends staged before it)
  input  wire                 room_i,      // the queue has room for it
  input  wire [3:0]           len_i,       // the current message's length
  input  wire                 ref_ok_i,    // the cycle after: its reference passed
  // the queue's ports during the copy
  output wire                 busy_o,
  output wire                 busy_d_o,
  output wire [MIW-1:0]       rd_idx_o,
  input  wire [31:0]          q_rdata_i,
  output wire                 we_o,
  output wire [QUEUE_AW-1:0]  off_o,
  output wire [MIW-1:0]       widx_o,
  output wire [31:0]          wdata_o,
  output wire                 cw_o,        // a word is copied (we_o, had the queue room: the trace's copy)
  output wire                 done_o
);
  localparam integer MIW = $clog2(MSG_WORDS);

  reg [MSG_WORDS-1:0] set_q, mask_q;
  reg [4:0]           from_q, from_l_q;
  reg                 act_q, ok_q, room_q, in_q;
  reg [3:0]           c_q, n_q, len_q;
  reg [QUEUE_AW-1:0]  off_q;

  wire start = send_go_i && fwd_i;
  wire last  = act_q && (c_q == n_q);
  // message word c + from: in the message (0 <= j < len)?
  wire [5:0] j    = {2'b00, c_q} + {from_l_q[4], from_l_q};
  wire       in_j = !j[5] && (j[4:0] < {1'b0, len_q});

  assign busy_o   = act_q;
  assign busy_d_o = start || (act_q && !last);
  assign rd_idx_o = j[MIW-1:0];
  // step c writes word c - 1: the word read in the step before
  wire [MIW-1:0] wi = c_q[MIW-1:0] - 1'b1;   // (c_q <= MSG_WORDS: modulo is exact)
  assign cw_o    = act_q && (c_q != 4'd0) && !mask_q[wi];
  assign we_o    = cw_o && room_q;
  assign off_o   = off_q;
  assign widx_o  = wi;
  assign wdata_o = in_q ? q_rdata_i : 32'd0;
  assign done_o  = last && ((c_q == 4'd0) ? ref_ok_i : ok_q);

  always @(posedge clk_i) begin
    if (!rst_ni || clear_i) begin
      set_q  <= {MSG_WORDS{1'b0}};
      from_q <= 5'd0;
      act_q  <= 1'b0;
    end else begin
      if (send_go_i) set_q <= {MSG_WORDS{1'b0}};
      else if (w_send_w_i) set_q[widx_i] <= 1'b1;
      if (start) from_q <= 5'd0;
      else if (w_from_i) from_q <= from_i;
      if (start) act_q <= 1'b1;
      else if (last) act_q <= 1'b0;
    end
  end

  always @(posedge clk_i) begin
    if (start) begin
      c_q      <= 4'd0;
      n_q      <= n_i;
      len_q    <= len_i;
      from_l_q <= from_q;
      mask_q   <= set_q;
      off_q    <= off_i;
      room_q   <= room_i;
    end else if (act_q) begin
      c_q <= c_q + 1'b1;
    end
    if (act_q && c_q == 4'd0) ok_q <= ref_ok_i;   // the SEND's check, in the cycle after its write
    in_q <= in_j;                                  // for the write in the next step
  end
endmodule

`default_nettype wire
