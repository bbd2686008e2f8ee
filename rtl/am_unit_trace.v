// am_unit_trace — the trace port: one record per cycle at most, everything
// the co-simulation compares with the reference runtime (docs/actor-unit.md,
// "Trace port"; docs/trace-format.md).
//
// Owns: with TRACE=1, copies of the last SEND_W, NEW_STATE and BECOME_W
// words (the RAMs hold them where the bus cannot read them back), the last
// written reference (p_ref_q), the transaction's FAIL code (tr_code_q) and
// its offending value (tr_val_q, tr_n_q).
//
// Promises:
// * The record is combinational, valid in the cycle trace_valid_o is high:
//   GC at a collection's end (GC_DEMAND: on demand, for a retried
//   transaction; GC_COLLECT: COLLECT's; docs/gc.md); DISPATCH (CHECK),
//   COMMIT / ABORT (END); an accepted SEND (after its reference check; a
//   FORWARD's at the end of its copy, am_unit_fwd, with the words copied),
//   INJECT (its third cycle, the check passed), CREATE / SPAWN (their second
//   cycle), BECOME (its write), STATE (a state word's write, before the
//   transaction's first fault), FREE and UNPIN (their third cycle, the check
//   passed), SET_HANDLER (its write) -- at most one per cycle, in that order.
// * Words at or beyond the record's length are 0. The FAIL code of an
//   ABORT record is the transaction's (fault deliveries too: unlike
//   F_CODE's register, tr_code_q is written in a delivery). So are its
//   operation (end_op_i) and offending value: by the rule of F_VALUE
//   (am_unit_fault), from tr_val_q / tr_n_q, which take every write of
//   the transaction until its first fault, deliveries too.
// * TRACE=0: every output is 0, and the module is empty.
`default_nettype none
`include "am_defs.vh"

module am_unit_trace #(
  parameter integer SLOT_W    = 7,
  parameter integer BEH_W     = 8,
  parameter integer MSG_WORDS = 8,
  parameter integer TRACE     = 0
) (
  input  wire                   clk_i,
  input  wire                   rst_ni,
  // the bus
  input  wire [3:0]             a_n_i,        // mem_addr[5:2]: word index / count
  input  wire [31:0]            wdata_i,
  input  wire                   wr_acc_i,     // a write completes
  input  wire                   w_send_w_i,   // ... into SEND_W[i],
  input  wire                   w_new_st_i,   // NEW_STATE[i],
  input  wire                   w_bec_w_i,    // BECOME_W[i],
  input  wire                   w_become_i,   // BECOME[n]
  input  wire                   become_go_i,  // ... accepted (am_txn)
  input  wire                   abort_code_i, // an ABORT whose code is the FAIL code (am_unit_fault)
  input  wire                   set_fh_go_i,  // SET_HANDLER accepted
  input  wire                   bw_we_i,      // a state word written (BECOME_W[i], i < STATE_WORDS)
  // a FORWARD's copy (am_unit_fwd): running (its SEND's check cycle is
  // not the record), a word copied, its last step
  input  wire                   f_busy_i,
  input  wire                   f_cw_i,
  input  wire [MIW-1:0]         f_widx_i,
  input  wire [31:0]            f_wdata_i,
  input  wire                   f_done_i,
  // the checked operations (am_unit_ext)
  input  wire                   t_send_i,
  input  wire                   p_ref_ok_i,
  input  wire                   inject_ok_i,
  input  wire                   t_create_i,
  input  wire                   t_spawn_i,
  input  wire                   free_ok_i,
  input  wire                   unpin_ok_i,
  input  wire [SLOT_W-1:0]      p_slot_i,
  input  wire [BEH_W-1:0]       p_beh_i,
  input  wire [3:0]             p_n_i,
  input  wire [15:0]            p_new_gen_i,
  // the sequencer (am_dispatch) and the queue
  input  wire                   disp_i,
  input  wire                   end_i,
  input  wire                   commit_i,
  input  wire [4:0]             end_cause_i,
  input  wire [3:0]             end_op_i,     // the fault's operation (am_unit_fault)
  input  wire                   open_i,       // a transaction is open
  input  wire [4:0]             cause_i,      // ... its fault so far (am_txn)
  input  wire [31:0]            seq_i,
  input  wire [31:0]            self_ref_i,
  input  wire [BEH_W-1:0]       chk_beh_i,
  input  wire [BEH_W-1:0]       beh_i,
  input  wire [3:0]             len_i,
  input  wire [32*MSG_WORDS-1:0] q_words_i,   // the current entry's message words
  // the collector
  input  wire                   gc_done_i,
  input  wire                   gc_demand_i,  // ... ran on demand
  input  wire                   gc_coll_i,    // ... ran for COLLECT, between transactions
  input  wire [SLOT_W:0]        reclaimed_i,
  input  wire [SLOT_W:0]        live_after_i,
  input  wire [SLOT_W:0]        free_n_i,
  // the port
  output wire                   trace_valid_o,
  output wire [3:0]             trace_kind_o,
  output wire [31:0]            trace_seq_o,
  output wire [31:0]            trace_ref_o,
  output wire [31:0]            trace_beh_o,
  output wire [3:0]             trace_len_o,
  output wire [32*8-1:0]        trace_words_o,
  output wire [4:0]             trace_cause_o,
  output wire [31:0]            trace_code_o,
  output wire [3:0]             trace_op_o,
  output wire [31:0]            trace_value_o
);
  localparam integer MIW = $clog2(MSG_WORDS);
  generate
    if (TRACE != 0) begin : g_trace
      reg [31:0] sw_sh [0:7];   // last SEND_W words
      reg [31:0] ns_sh [0:7];   // last NEW_STATE words
      reg [31:0] bw_sh [0:7];   // last BECOME_W words
      reg [31:0] p_ref_q;
      reg [31:0] tr_code_q;     // the FAIL code of this transaction, deliveries too
      reg [31:0] tr_val_q;      // the last write's data and length before its first fault
      reg [3:0]  tr_n_q;
      always @(posedge clk_i) begin
        if (wr_acc_i && open_i && cause_i == 5'd0) begin
          tr_val_q <= wdata_i;
          tr_n_q   <= a_n_i;
        end
      end
      wire ab      = end_i && !commit_i;
      wire has_val = end_op_i != 4'd0 && end_op_i < 4'd6;              // SEND .. ABORT
      wire is_len  = end_cause_i == 5'd4 || end_cause_i == 5'd5;       // MSG_ / STATE_TOO_LONG
      always @(posedge clk_i) begin
        if (!rst_ni || end_i) tr_code_q <= 32'd0;
        else if (abort_code_i) tr_code_q <= wdata_i;
      end
      always @(posedge clk_i) begin
        if (w_send_w_i) sw_sh[a_n_i[2:0]] <= wdata_i;
        if (f_cw_i)     sw_sh[f_widx_i] <= f_wdata_i;
        if (w_new_st_i) ns_sh[a_n_i[2:0]] <= wdata_i;
        if (w_bec_w_i)  bw_sh[a_n_i[2:0]] <= wdata_i;
        if (wr_acc_i)   p_ref_q <= wdata_i;
      end
      reg        v;
      reg [3:0]  k, len;
      reg [31:0] rf, bf;
      reg [32*8-1:0] wds;
      integer i;
      always @(*) begin
        v = 1'b1; k = 4'd0; rf = 32'd0; bf = 32'd0; len = 4'd0; wds = {32*8{1'b0}};
        if (gc_done_i) begin
          k = gc_coll_i ? `AM_TRACE_GC_COLLECT : gc_demand_i ? `AM_TRACE_GC_DEMAND : `AM_TRACE_GC; rf[SLOT_W:0] = reclaimed_i; bf[SLOT_W:0] = live_after_i;
        end else if (disp_i || end_i) begin
          k = disp_i ? `AM_TRACE_DISPATCH : (commit_i ? `AM_TRACE_COMMIT : `AM_TRACE_ABORT);
          rf = self_ref_i; len = len_i;
          bf[BEH_W-1:0] = disp_i ? chk_beh_i : beh_i;
          for (i = 0; i < MSG_WORDS; i = i + 1) wds[32*i +: 32] = q_words_i[32*i +: 32];
        end else if ((t_send_i && p_ref_ok_i && !f_busy_i) || f_done_i) begin
          k = `AM_TRACE_SEND; rf = p_ref_q; len = p_n_i;
          for (i = 0; i < 8; i = i + 1)   // (a FORWARD's last word is being copied now)
            wds[32*i +: 32] = (f_cw_i && {29'd0, f_widx_i} == i) ? f_wdata_i : sw_sh[i];
        end else if (inject_ok_i) begin
          k = `AM_TRACE_INJECT; rf = p_ref_q; len = p_n_i;
          for (i = 0; i < 8; i = i + 1) wds[32*i +: 32] = sw_sh[i];
        end else if (t_create_i || t_spawn_i) begin
          k = t_create_i ? `AM_TRACE_CREATE : `AM_TRACE_SPAWN; len = p_n_i; bf[BEH_W-1:0] = p_beh_i;
          rf = {p_new_gen_i, {(16-SLOT_W){1'b0}}, p_slot_i};
          for (i = 0; i < 8; i = i + 1) wds[32*i +: 32] = ns_sh[i];
        end else if (w_become_i && become_go_i) begin
          k = `AM_TRACE_BECOME; len = a_n_i; bf[BEH_W-1:0] = wdata_i[BEH_W-1:0];
          for (i = 0; i < 8; i = i + 1) wds[32*i +: 32] = bw_sh[i];
        end else if (bw_we_i && open_i && cause_i == 5'd0) begin
          k = `AM_TRACE_STATE; len = a_n_i & 4'd7; wds[31:0] = wdata_i;
        end else if (free_ok_i || unpin_ok_i) begin
          k = free_ok_i ? `AM_TRACE_FREE : `AM_TRACE_UNPIN; rf = p_ref_q;
        end else if (set_fh_go_i) begin
          k = `AM_TRACE_HANDLER; rf = wdata_i;
        end else begin
          v = 1'b0;
        end
        for (i = 0; i < 8; i = i + 1)
          if (i >= len && k != `AM_TRACE_STATE) wds[32*i +: 32] = 32'd0;
      end
      assign trace_valid_o = v;
      assign trace_kind_o  = k;
      assign trace_seq_o   = seq_i;
      assign trace_ref_o   = rf;
      assign trace_beh_o   = bf;
      assign trace_len_o   = len;
      assign trace_words_o = wds;
      assign trace_cause_o = ab ? end_cause_i : 5'd0;
      assign trace_op_o    = ab ? end_op_i : 4'd0;
      assign trace_value_o = !(ab && has_val) ? 32'd0 : is_len ? {28'd0, tr_n_q} : tr_val_q;
      assign trace_code_o  = gc_done_i ? {{(31-SLOT_W){1'b0}}, free_n_i} :   // GC: free slots after
                             (end_i && !commit_i && end_cause_i == `AM_FAULT_FAIL) ? tr_code_q : 32'd0;
    end else begin : g_notrace
      wire unused_trace_only = ^{clk_i, rst_ni, a_n_i, wdata_i, wr_acc_i, w_send_w_i, w_new_st_i,
                                 w_bec_w_i, w_become_i, become_go_i, abort_code_i, set_fh_go_i,
                                 bw_we_i, f_busy_i, f_cw_i, f_widx_i, f_wdata_i, f_done_i,
                                 t_send_i, p_ref_ok_i, inject_ok_i, t_create_i, t_spawn_i,
                                 free_ok_i, unpin_ok_i, p_slot_i, p_beh_i, p_n_i, p_new_gen_i, disp_i, end_i,
                                 commit_i, end_cause_i, end_op_i, open_i, cause_i, seq_i, self_ref_i, chk_beh_i, beh_i, len_i,
                                 q_words_i, gc_done_i, gc_demand_i, gc_coll_i, reclaimed_i, live_after_i, free_n_i};
      assign trace_valid_o = 1'b0;
      assign trace_kind_o  = 4'd0;
      assign trace_seq_o   = 32'd0;
      assign trace_ref_o   = 32'd0;
      assign trace_beh_o   = 32'd0;
      assign trace_len_o   = 4'd0;
      assign trace_words_o = {32*8{1'b0}};
      assign trace_cause_o = 5'd0;
      assign trace_code_o  = 32'd0;
      assign trace_op_o    = 4'd0;
      assign trace_value_o = 32'd0;
    end
  endgenerate
endmodule

`default_nettype wire
