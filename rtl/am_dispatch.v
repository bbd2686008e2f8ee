// am_dispatch — the dispatch / commit / abort sequencer.
//
// Owns: the unit's main state (IDLE, FETCH, REDIR, CHECK, RUN, CRE, BEC, END, GC), the
// current event's registers (seq, self, behavior id, message length, state
// length, dead-target flag) and the commit-or-abort decision of the
// transaction being finished.
//
// Promises:
// * Dispatch order is exactly queue order: FETCH pops the head entry (it
//   becomes the current entry; its words stay in place), CHECK validates
//   the target (slot used, live, generation equal) one cycle later.
//   A dead target ends at once in an abort (cause DEAD_TARGET, the behavior
//   never sees it); a live one opens the transaction (open_o, state RUN).
// * While open_o the bus side owns the RAM ports; in every other state but
//   IDLE this sequencer owns them (owns_o) and the bus must wait.
// * Finishing a transaction (commit_i / abort_i in RUN, or a dead target):
//   CRE walks the created slots (read-modify-write of their meta words:
//   commit -> live, abort -> dead with the generation the CREATE gave it;
//   not pending), BEC (commit
//   with a staged next state only: BECOME[n] and/or state words, am_txn)
//   writes self's state -- the staged words, 0 for the others at or past the
//   old length (BECOME: n), the rest kept -- and self's meta word, END restores the free stack (abort), pulses
//   end_o, clears the staging and goes straight to FETCH if there is work.
// * Fault delivery: an abort (of an event that was not itself a fault
//   delivery) with a fault handler set goes from END to REDIR instead: the
//   same queue entry -- its message words untouched -- is dispatched again,
//   as the next transaction, to the handler (fault_q_o high while it runs).
//   When dispatching is stopped (run_i low, e.g. a watchdog hold) the
//   delivery waits (redir_q) and goes first when it resumes.
// * Garbage collection: where a dispatch would FETCH (from IDLE or END) and
//   gc_due_i is high, the sequencer goes to GC instead and waits there for
//   the collector's gc_done_i; then it FETCHes (no second collection before
//   that dispatch). Never before a fault delivery (REDIR) but a retried
//   one's, never inside a transaction.
// * On demand (docs/gc.md): a transaction that ends on TABLE_FULL
//   (table_full_i), with the collector on (gc_en_i) and no collection since
//   the previous transaction (retried_q: latched at FETCH and REDIR) is
//   retried instead: END rolls it back as an abort but is no transaction
//   end (retry_o: no record, no counter, no delivery), puts the entry back
//   at the queue's head (q_unpop_o), takes its sequence number back and
//   goes to GC (gc_demand_o while it runs), then FETCHes the same event --
//   or, for a fault delivery, goes to REDIR again, which pops the entry
//   (redo_q): while the collector runs, the entry is a queued event, so
//   its message words and the failed target are roots. There a CREATE
//   that finds no slot is TABLE_FULL.
// * COLLECT (collect_i, a write between transactions): from IDLE, with the
//   collector on and no collection since the last dispatch, UNPIN or FREE
//   (gc_fresh_q; those clear it: unroot_i), the sequencer goes to GC
//   (gc_coll_o and gc_demand_o while it runs) and back to IDLE. The
//   bus waits from the write (coll_go_o) to the collection's end (owns_o),
//   so the firmware's next access -- a SPAWN that found no slot, again --
//   comes after it. Else COLLECT does nothing. A fault delivery waiting
//   for dispatch to resume (redir_q) has its entry put back at the queue's
//   head first, as a retried one's, and REDIR pops it again (redo_q): its
//   message words and the failed target are roots.
// * A dispatch starts only while the core waits at the dispatch point
//   (demand_i, am_unit_dp): from IDLE, and from a commit's END. A commit
//   without creates skips CRE, one without BECOME skips BEC, and its END
//   fetches the next event in the same cycle when one is queued and no
//   collection is due (END+FETCH): the queue's head header is read while the
//   transaction runs, and nothing END does touches what FETCH does.
// * Cycles (measured by the unit bench through the dispatch point, make
//   rtl-test): commit -> next transaction open = 3 + (ncreates ? ncreates +
//   1 : 0) + (BECOME ? n + 1 : 0); a dead target costs 3.
`default_nettype none
`include "am_defs.vh"

module am_dispatch #(
  parameter integer SLOT_W      = 7,
  parameter integer BEH_W       = 8,
  parameter integer META_W      = `AM_META_W,
  parameter integer HDR_W       = `AM_HDR_W,
  parameter integer STATE_WORDS = 8,
  parameter integer MAX_CREATES = 4
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,
  input  wire                  run_i,
  input  wire                  hold_i,      // bus-side check in flight
  input  wire                  demand_i,    // the core waits at the dispatch point (am_unit_dp)
  input  wire                  sends_i,     // the open transaction staged sends (am_txn)
  output wire                  quick_o,     // QUICK: RUN ends and fetches (the meta read is the sequencer's)
  output wire                  nothing_o,   // idle with nothing to dispatch
  // fault delivery: after an abort, the failed event goes to the fault
  // handler (if one is set and the event was not itself a fault delivery)
  input  wire                  fh_set_i,
  input  wire [SLOT_W-1:0]     fh_slot_i,
  input  wire [15:0]           fh_gen_i,
  output reg                   fault_q_o,   // the open event is a fault delivery
  // garbage collection
  input  wire                  gc_due_i,
  input  wire                  gc_due_commit_i, // ... may be, when the transaction ending commits (QUICK's test)
  input  wire                  gc_done_i,
  input  wire                  gc_en_i,     // the collector is on (GC_LOW or GC_PERIOD != 0)
  input  wire                  table_full_i,// the transaction's cause is TABLE_FULL
  output wire                  gc_o,        // in the GC state: the collector runs
  output reg                   gc_demand_o, // ... on demand (the last END was a retry)
  output wire                  retry_o,     // END of a retried attempt, no transaction end
  output wire                  q_unpop_o,
  output wire                  q_held_o,    // a waiting delivery holds its entry outside the queue's count
  input  wire                  collect_i,   // a COLLECT write (am_unit_bus)
  input  wire                  unroot_i,    // an UNPIN or FREE took effect: something may be garbage now
  output wire                  coll_go_o,   // COLLECT starts a collection: the bus waits
  output wire                  coll_o,      // ... (the cycle after, before GC: coll_q)
  output reg                   gc_coll_o,   // the collection running is COLLECT's
  // queue
  input  wire                  q_empty_i,
  input  wire [HDR_W-1:0]      q_hdr_i,
  output wire                  q_pop_o,
  // table
  input  wire [META_W-1:0]     meta_rdata_i,
  input  wire                  meta_used_i,
  output reg  [SLOT_W-1:0]     meta_raddr_o,
  output reg                   meta_we_o,
  output reg  [SLOT_W-1:0]     meta_waddr_o,
  output reg  [META_W-1:0]     meta_wdata_o,
  output wire                  st_we_o,
  output wire [SLOT_W+SIW-1:0] st_waddr_o,
  output wire [31:0]           st_wdata_o,
  output wire                  alloc_snap_o,
  output wire                  alloc_restore_o,
  // transaction staging
  input  wire                  commit_i,    // COMMIT accepted and it fits: commit
  input  wire                  dp_commit_i, // ... and it is the dispatch point's (QUICK's)
  input  wire                  abort_i,     // COMMIT that cannot commit, or ABORT
  input  wire [CW-1:0]         ncreates_i,
  output wire [CIW-1:0]        cre_idx_o,
  input  wire [SLOT_W-1:0]     cre_slot_i,
  input  wire                  become_i,    // a next state is staged (am_txn) ...
  input  wire                  become_set_i,// ... by BECOME[n]: behavior, n
  input  wire [BEH_W-1:0]      become_beh_i,
  input  wire [3:0]            become_n_i,
  input  wire [STATE_WORDS-1:0] dirty_i,    // ... the words written
  input  wire [3:0]            blen_i,      // ... its length so far
  output wire                  bw_rd_o,     // read the BECOME buffer (BEC)
  output wire [SIW-1:0]        bw_ridx_o,
  input  wire [31:0]           bw_rdata_i,
  output wire                  txn_clear_o,
  // status and the current event
  output wire                  owns_o,
  output wire                  open_o,
  output wire                  idle_o,
  output reg  [31:0]           seq_o,
  output reg  [SLOT_W-1:0]     self_slot_o,
  output reg  [15:0]           self_gen_o,
  output reg  [BEH_W-1:0]      beh_o,
  output reg  [3:0]            len_o,
  output reg  [3:0]            slen_o,
  output wire                  disp_o,      // CHECK: a dispatch happens
  output wire                  chk_ok_o,    // ... and its target is valid
  output wire [BEH_W-1:0]      chk_beh_o,   // ... whose behavior is this
  output wire [BEH_W-1:0]      chk_mbeh_o,  // the behavior field as read, ungated (valid with chk_ok_o)
  output reg                   dead_o,      // the current dispatch is dead
  output wire                  end_o,       // END: transaction finished
  output wire                  commit_q_o,  // ... by a commit (else abort)
  // next-cycle values of open_o and owns_o (the unit registers its
  // bus-busy flag from them)
  output wire                  open_d_o,
  output wire                  owns_d_o,
  output reg                   checked_o    // the last cycle was CHECK (the bus counted it busy)
);
  localparam integer SIW = $clog2(STATE_WORDS);
  localparam integer CW  = $clog2(MAX_CREATES + 1);
  localparam integer CIW = $clog2(MAX_CREATES);

  localparam [3:0] S_IDLE = 4'd0, S_FETCH = 4'd1, S_CHECK = 4'd2, S_RUN = 4'd3,
                   S_CRE = 4'd4, S_BEC = 4'd5, S_END = 4'd6, S_REDIR = 4'd7, S_GC = 4'd8;

  reg [3:0] state_q, state_d;
  reg [3:0] state_x;   // state_d with CHECK going to END: the check's one effect comes last
  reg       gc_fresh_q;    // collected since the last FETCH, REDIR, UNPIN or FREE
  reg       retried_q;     // a collection ran right before this dispatch
  reg       redo_q;        // a retried delivery's entry is back in the queue: REDIR pops it
  reg       coll_q;        // COLLECT was written: IDLE goes to GC
  reg       self_pin_q;    // self is pinned (kept by its BECOME)
  wire      gc_go = gc_due_i && !gc_fresh_q;
  wire [3:0] s_fetch = gc_go ? S_GC : S_FETCH;
  assign gc_o = (state_q == S_GC);
  reg [3:0] step_q;

  // A dispatch starts only while the core waits for it (demand_i).
  wire work = run_i && !q_empty_i && !hold_i && demand_i;
  // REDIR re-dispatches the current entry (not popped again) to the handler.
  reg  redir_q;
  wire go_redir   = run_i && !hold_i && demand_i;
  assign nothing_o = (state_q == S_IDLE) && !hold_i && !(run_i && (redir_q || !q_empty_i));
  wire redir_now  = redir_q && go_redir;
  // at END: a retry (on demand), else an abort goes to the fault handler
  reg  commit_q;   // the transaction that ends committed (the decision in RUN)
  wire retry      = !commit_q_o && table_full_i && !retried_q && gc_en_i;
  wire will_redir = !commit_q_o && !fault_q_o && fh_set_i && !retry;
  assign retry_o   = (state_q == S_END) && retry;
  wire coll_go     = collect_i && (state_q == S_IDLE) && gc_en_i && !gc_fresh_q;
  wire coll_unpop  = coll_go && redir_q && !redo_q;   // a waiting delivery's entry: a root
  assign q_unpop_o = retry_o || coll_unpop;
  // A delivery waiting between transactions keeps the failed event's entry
  // (the queue's cur_o) until it is dispatched or a collection puts the
  // entry back at the head (redo_q): until then the entry is not in the
  // queue's count, and an INJECT must leave room for it, or the unpop
  // would make the count wrap to 0.
  assign q_held_o  = redir_q && !redo_q;
  assign coll_go_o = coll_go;
  assign coll_o    = coll_q;

  // meta word fields
  wire [15:0] m_gen  = meta_rdata_i[`AM_META_GEN_LSB +: `AM_META_GEN_W];
  wire        m_live = meta_rdata_i[`AM_META_LIVE];
  wire [BEH_W-1:0] m_beh = meta_rdata_i[`AM_META_BEH_LSB +: `AM_META_BEH_W];
  wire [3:0]  m_slen = meta_rdata_i[`AM_META_SLEN_LSB +: `AM_META_SLEN_W];
  wire [15:0] h_gen  = q_hdr_i[`AM_HDR_GEN_LSB +: `AM_HDR_GEN_W];
  wire [SLOT_W-1:0] h_slot = q_hdr_i[`AM_HDR_SLOT_LSB +: `AM_HDR_SLOT_W];

  wire target_ok = meta_used_i && m_live && (m_gen == self_gen_o);

  // A commit's END fetches the next event in the same cycle when one is
  // queued and no collection is due (END+FETCH): nothing END does touches
  // what FETCH does (the queue's head header is read while the transaction
  // runs; FETCH's allocator snapshot equals END's state after a commit).
  // QUICK: a commit with nothing for CRE or BEC to do needs no END cycle of
  // its own either -- END+FETCH happens in the RUN cycle that commits, when
  // the core waits for the next event and it is queued or is this
  // transaction's first send (the queue commits and pops in one edge).
  // (Only the dispatch point's commit can come with demand_i: the core does
  // not write COMMIT while it waits there. So QUICK takes dp_commit_i, which
  // does not wait for the bus's address decode: on the HX8K the decode of a
  // COMMIT write in front of QUICK's logic was the critical path.)
  wire quick     = (state_q == S_RUN) && dp_commit_i && (ncreates_i == {CW{1'b0}}) && !become_i &&
                   run_i && !hold_i && demand_i && (!q_empty_i || sends_i) &&
                   !(gc_due_commit_i && !gc_fresh_q);
  wire ending    = (state_q == S_END) || quick;
  wire end_fetch = ((state_q == S_END) && commit_q_o && work && !gc_go) || quick;
  wire fetch     = (state_q == S_FETCH) || end_fetch;
  assign commit_q_o = quick || commit_q;
  assign quick_o    = quick;

  assign chk_ok_o        = target_ok;
  assign chk_beh_o       = target_ok ? m_beh : {BEH_W{1'b0}};
  assign chk_mbeh_o      = m_beh;
  assign owns_o          = (state_q != S_IDLE) && (state_q != S_RUN);
  assign open_o          = (state_q == S_RUN);
  assign idle_o          = (state_q == S_IDLE);
  // The bus's view of the next state: CHECK counts as going to END, whatever
  // its check says. The core waits at the dispatch point through CHECK, so a
  // busy cycle more holds nothing up, and the bus's busy flag (and the
  // dispatch point's accept behind it) does not wait for the target's check
  // (the ULX3S's critical path: the table's read, the check, the next state).
  wire [3:0] state_bus_d = state_x;
  always @(posedge clk_i) checked_o <= rst_ni && (state_q == S_CHECK);
  assign open_d_o        = (state_bus_d == S_RUN);
  assign owns_d_o        = (state_bus_d != S_IDLE) && (state_bus_d != S_RUN);
  assign q_pop_o         = fetch || (state_q == S_REDIR && redo_q);
  assign alloc_snap_o    = fetch || (state_q == S_REDIR);
  assign disp_o          = (state_q == S_CHECK);
  assign end_o           = ending;
  assign alloc_restore_o = end_o && !commit_q_o;
  assign txn_clear_o     = end_o;

  // CRE: step k reads created slot k and writes back slot k-1.
  wire cre_last = (step_q == {{(4-CW){1'b0}}, ncreates_i});
  assign cre_idx_o = step_q[CIW-1:0];
  // BEC: step i reads staged word i and writes word i-1 -- the staged word,
  // or 0 at or past the old length (zfrom), or nothing (kept). The next
  // state's length: BECOME's n and the words written after it, or without
  // a BECOME self's length and the words written.
  wire [3:0] zfrom = become_set_i ? become_n_i : slen_o;
  wire [3:0] blen  = (!become_set_i && slen_o > blen_i) ? slen_o : blen_i;
  wire bec_last = (step_q == blen);
  assign bw_rd_o    = (state_q == S_BEC);
  assign bw_ridx_o  = step_q[SIW-1:0];
  wire [3:0]     wi4 = step_q - 1'b1;
  wire [SIW-1:0] wi  = wi4[SIW-1:0];
  assign st_we_o    = (state_q == S_BEC) && (step_q != 4'd0) && (dirty_i[wi] || wi4 >= zfrom);
  assign st_waddr_o = {self_slot_o, wi};
  assign st_wdata_o = dirty_i[wi] ? bw_rdata_i : 32'd0;

  reg [SLOT_W-1:0] prev_slot_q;   // created slot read in the previous step

  always @(*) state_d = (state_q == S_CHECK && target_ok) ? S_RUN : state_x;
  always @(*) begin
    state_x = state_q;
    case (state_q)
      S_IDLE:  if (coll_q) state_x = S_GC; else if (redir_now) state_x = S_REDIR;
               else if (work) state_x = s_fetch;
      S_FETCH: state_x = S_CHECK;
      S_REDIR: state_x = S_CHECK;
      S_CHECK: state_x = S_END;     // (RUN if the target passes: state_d)
      // CRE walks the created slots, BEC copies a commit's BECOME: each only
      // when there is something to do
      S_RUN:   if (quick) state_x = S_CHECK;
               else if (commit_i || abort_i)
                 state_x = (ncreates_i != {CW{1'b0}}) ? S_CRE :
                           (commit_i && become_i) ? S_BEC : S_END;
      S_CRE:   if (cre_last) state_x = (commit_q_o && become_i) ? S_BEC : S_END;
      S_BEC:   if (bec_last) state_x = S_END;
      S_END:   state_x = retry ? S_GC : will_redir ? (go_redir ? S_REDIR : S_IDLE) :
                         end_fetch ? S_CHECK : (work ? s_fetch : S_IDLE);
      // (a retried delivery goes on from IDLE, which takes redir_q first)
      S_GC:    if (gc_done_i) state_x = (work && !redir_q) ? S_FETCH : S_IDLE;
      default: state_x = S_IDLE;
    endcase
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q    <= S_IDLE;
      step_q     <= 4'd0;
      seq_o      <= 32'd0;
      dead_o     <= 1'b0;
      commit_q   <= 1'b0;
      redir_q    <= 1'b0;
      fault_q_o  <= 1'b0;
      gc_fresh_q <= 1'b0;
      retried_q  <= 1'b0;
      redo_q     <= 1'b0;
      gc_demand_o <= 1'b0;
      coll_q     <= 1'b0;
      gc_coll_o  <= 1'b0;
    end else begin
      if (state_q == S_GC) gc_fresh_q <= 1'b1;
      if (fetch || state_q == S_REDIR || unroot_i) gc_fresh_q <= 1'b0;
      if (coll_go) coll_q <= 1'b1;
      if (coll_unpop) redo_q <= 1'b1;
      if (state_q == S_GC) coll_q <= 1'b0;
      if (coll_go) gc_coll_o <= 1'b1;
      if (coll_go) gc_demand_o <= 1'b1;
      if (gc_o && gc_done_i) begin   // the record is out: the next one is labelled anew
        gc_coll_o   <= 1'b0;
        gc_demand_o <= 1'b0;
      end
      if (fetch || state_q == S_REDIR) retried_q <= gc_fresh_q;
      if (ending) gc_demand_o <= retry;
      // deliver when dispatch resumes; a retried delivery after its collection
      if (ending) redir_q <= (will_redir && !go_redir) || (retry && fault_q_o);
      if (ending) redo_q <= retry && fault_q_o;
      if (state_q == S_REDIR) redir_q <= 1'b0;
      if (state_q == S_REDIR) redo_q <= 1'b0;
      if (fetch) fault_q_o <= 1'b0;
      if (state_q == S_REDIR) fault_q_o <= 1'b1;
      state_q <= state_d;
      // (state_x: CHECK leaves CHECK whatever its check says, so the table's
      // read stays out of step_q's logic -- the ULX3S's critical path)
      step_q  <= (state_x != state_q) ? 4'd0 : step_q + 1'b1;
      // +1 per dispatch; -1 at a retry's END: the attempt was no transaction
      if (fetch || state_q == S_REDIR || retry_o) seq_o <= seq_o + {{31{retry_o}}, 1'b1};
      if (fetch || state_q == S_REDIR) dead_o <= 1'b0;
      if (state_q == S_CHECK && !target_ok) begin
        dead_o     <= 1'b1;
        commit_q   <= 1'b0;
      end
      if (state_q == S_RUN) commit_q <= commit_i;
    end
  end

  // Current event registers (no reset: only read while open_o / after CHECK).
  always @(posedge clk_i) begin
    if (fetch) begin
      self_slot_o <= h_slot;
      self_gen_o  <= h_gen;
      len_o       <= q_hdr_i[`AM_HDR_LEN_LSB +: `AM_HDR_LEN_W];
    end
    if (state_q == S_REDIR) begin   // same entry, same message, new target
      self_slot_o <= fh_slot_i;
      self_gen_o  <= fh_gen_i;
    end
    if (state_q == S_CHECK) begin
      beh_o      <= chk_beh_o;
      slen_o     <= m_slen;
      self_pin_q <= meta_rdata_i[`AM_META_PIN];
    end
    if (state_q == S_CRE) prev_slot_q <= cre_slot_i;
  end

  // Meta port while the sequencer owns it.
  always @(*) begin
    meta_raddr_o = (fetch || state_q == S_END) ? h_slot : (state_q == S_REDIR) ? fh_slot_i : cre_slot_i;
    meta_we_o    = 1'b0;
    meta_waddr_o = prev_slot_q;
    meta_wdata_o = meta_rdata_i;
    if (state_q == S_CRE && step_q != 4'd0) begin
      meta_we_o = 1'b1;
      // clear pending; commit: live; abort: dead, keeping the generation the
      // CREATE gave it, so that its reference (a fault record can carry it)
      // never names the slot's next actor
      meta_wdata_o[`AM_META_PEND] = 1'b0;
      meta_wdata_o[`AM_META_LIVE] = commit_q_o;
    end
    if (state_q == S_BEC && bec_last) begin
      meta_we_o    = 1'b1;
      meta_waddr_o = self_slot_o;
      meta_wdata_o = {META_W{1'b0}};
      meta_wdata_o[`AM_META_SLEN_LSB +: `AM_META_SLEN_W] = blen;
      meta_wdata_o[`AM_META_BEH_LSB +: `AM_META_BEH_W]   = become_set_i ? become_beh_i : beh_o;
      meta_wdata_o[`AM_META_PIN]                        = self_pin_q;
      meta_wdata_o[`AM_META_LIVE]                       = 1'b1;
      meta_wdata_o[`AM_META_GEN_LSB +: `AM_META_GEN_W]   = self_gen_o;
    end
  end
endmodule

`default_nettype wire
