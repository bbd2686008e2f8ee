// am_event_queue — the event FIFO of the actor unit.
//
// Owns: the message-word RAM (2^QAW entries x MSG_WORDS words x 32 bit),
// the header RAM (per entry: target generation, target slot, length), the
// head / tail / current-entry pointers and the queue high-water mark.
//
// Promises:
// * Capacity QUEUE_DEPTH = 2^QAW - 1 queued events. The entry of the event
//   being dispatched (cur_o) is never reused while it is current: the
//   current event's words are read straight from its physical entry.
// * Writers stage into the entries *beyond* the committed tail (wr_off_i /
//   hw_off_i are offsets from the tail): nothing written there is visible
//   (count, hdr_o) until commit_i advances the tail by commit_n_i, so a
//   commit is O(1) and an abort is free (just do not commit). The caller
//   must only stage into free entries (offset < QUEUE_DEPTH - count) and
//   only commit what fits (count + n <= QUEUE_DEPTH).
// * hdr_o is the header of the head entry, read every cycle (one cycle of
//   latency after head or the RAM changed): while a transaction runs, that
//   of the event after it -- or, when the queue is empty, of the first send
//   it stages (the caller fetches it as the transaction ends). rd_data_o is word rd_idx_i of the current entry, one cycle
//   after rd_idx_i.
// * hwm_o is the largest count ever seen right after a commit.
// * gc_i (the collector, between transactions): hdr_o and rd_data_o read
//   entry head + gc_off_i (word gc_idx_i) instead, one cycle later.
// * unpop_i (a transaction retried after a collection, docs/gc.md): the
//   current entry becomes the head again (head = cur_o), words untouched --
//   staging never writes it, so it is queued as it was before its pop.
//   The count must stay below 2^QAW with it: the unit refuses an INJECT
//   that would leave no room for a held entry (a fault delivery waiting
//   between transactions: am_dispatch's q_held_o), since a full count
//   would wrap to 0.
`default_nettype none

module am_event_queue #(
  parameter integer QAW       = 6,   // log2 of the physical entries
  parameter integer MSG_WORDS = 8,   // words per entry (power of two, 2..8)
  parameter integer HDR_W     = 27,  // header width (caller's packing)
  parameter integer TRACE     = 0    // 1: expose the current entry's words
) (
  input  wire                      clk_i,
  input  wire                      rst_ni,
  // staging writes, relative to the committed tail
  input  wire                      wr_we_i,
  input  wire [QAW-1:0]            wr_off_i,
  input  wire [MIW-1:0]            wr_idx_i,
  input  wire [31:0]               wr_data_i,
  input  wire                      hw_we_i,
  input  wire [QAW-1:0]            hw_off_i,
  input  wire [HDR_W-1:0]          hw_data_i,
  // commit n staged entries (tail += n) / pop the head into "current"
  input  wire                      commit_i,
  input  wire [QAW-1:0]            commit_n_i,
  input  wire                      pop_i,
  input  wire                      unpop_i,     // the current entry back to the head
  // the collector's reads
  input  wire                      gc_i,
  input  wire [QAW-1:0]            gc_off_i,
  input  wire [MIW-1:0]            gc_idx_i,
  // reads
  output reg  [HDR_W-1:0]          hdr_o,
  input  wire [MIW-1:0]            rd_idx_i,
  output reg  [31:0]               rd_data_o,
  output wire [QAW-1:0]            count_o,
  output wire                      empty_o,
  output wire                      full_o,
  output reg  [QAW-1:0]            hwm_o,
  output reg  [QAW-1:0]            cur_o,
  output wire [32*MSG_WORDS-1:0]   tr_words_o
);
  localparam integer MIW   = $clog2(MSG_WORDS);
  localparam integer DEPTH = (1 << QAW) - 1;

  // no_rw_check: a word is never read in the cycle it is written (staging
  // writes go beyond the tail, reads come from the current/head entries);
  // the header of an empty queue's head may be, but hdr_o is re-read every
  // cycle and only used by FETCH, never in the cycle after such a write.
  (* ram_style = "block", no_rw_check *) reg [31:0]      msg_q [0:(1<<(QAW+MIW))-1];
  (* ram_style = "block", no_rw_check *) reg [HDR_W-1:0] hdr_q [0:(1<<QAW)-1];

  reg [QAW-1:0] head_q, tail_q;
  wire [QAW-1:0] count = tail_q - head_q;
  wire [QAW-1:0] count_after = count + commit_n_i;

  assign count_o = count;
  assign empty_o = (tail_q == head_q);   // = (count == 0), without the subtraction
  assign full_o  = (count == DEPTH[QAW-1:0]);

  // Pointers: one register group.
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      head_q <= {QAW{1'b0}};
      tail_q <= {QAW{1'b0}};
      cur_o  <= {QAW{1'b0}};
      hwm_o  <= {QAW{1'b0}};
    end else begin
      if (commit_i) begin
        tail_q <= tail_q + commit_n_i;
        if (count_after > hwm_o) hwm_o <= count_after;
      end
      if (pop_i) begin
        cur_o  <= head_q;
        head_q <= head_q + 1'b1;
      end
      if (unpop_i) head_q <= cur_o;
    end
  end

  // Inferred block RAMs: one write port and one registered read port each.
  wire [QAW-1:0] wr_ent = tail_q + wr_off_i;
  wire [QAW-1:0] hw_ent = tail_q + hw_off_i;
  wire [QAW-1:0] gc_ent = head_q + gc_off_i;
  wire [QAW-1:0] rd_ent = gc_i ? gc_ent : cur_o;
  wire [MIW-1:0] rd_w   = gc_i ? gc_idx_i : rd_idx_i;
  always @(posedge clk_i) begin
    if (wr_we_i) msg_q[{wr_ent, wr_idx_i}] <= wr_data_i;
    rd_data_o <= msg_q[{rd_ent, rd_w}];
  end
  always @(posedge clk_i) begin
    if (hw_we_i) hdr_q[hw_ent] <= hw_data_i;
    hdr_o <= hdr_q[gc_i ? gc_ent : head_q];
  end

  generate
    if (TRACE != 0) begin : g_trace
      genvar i;
      for (i = 0; i < MSG_WORDS; i = i + 1) begin : g_w
        assign tr_words_o[32*i +: 32] = msg_q[{cur_o, i[MIW-1:0]}];
      end
    end else begin : g_notrace
      assign tr_words_o = {32*MSG_WORDS{1'b0}};
    end
  endgenerate
endmodule

`default_nettype wire
