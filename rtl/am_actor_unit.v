// am_actor_unit — the actor unit: event queue, actor table, transaction
// staging and dispatch behind a PicoRV32 native memory interface.
//
// Owns: nothing of its own -- it connects one module per concern:
//   am_unit_bus     the bus handshake (busy flag, mem_ready_o) and the
//                   address decode
//   am_unit_regs    CTRL, BEH_COUNT and the read-back (am_unit_rdata)
//   am_unit_ext     the argument checks, the checked operations' later
//                   cycles, SPAWN / INJECT / FREE (am_unit_hdr: the queue's
//                   header port)
//   am_unit_dp      the dispatch point: commit, next behavior
//   am_unit_fwd     FORWARD: the send words set since the last send, the
//                   copy from the message being handled
//   am_unit_con     the console's state length, for reads between
//                   transactions (the export table)
//   am_unit_wdog    the watchdog, the stack guard's abort
//   am_unit_fault   FAULT_HANDLER, SET_HANDLER, the fault record, LAST_CAUSE
//   am_unit_gctrig  GC_LOW, GC_PERIOD's count and the collector's trigger
//   am_unit_stats   the statistics counters
//   am_unit_trace   the trace port (TRACE=1)
//   am_event_queue, am_actor_table, am_txn, am_dispatch, am_gc: the queue,
//   the table, the staging, the sequencer and the collector;
// and one am_reg2x16 that holds two registers of two of them (GC_PERIOD and
// the checked reference's generation: one DSP block on the iCEBreaker). The
// table's and the queue's ports are shared: the collector's while it runs,
// the sequencer's while it owns them, the bus's otherwise -- the
// connections below say so.
//
// Promises:
// * docs/semantics.md, exactly: check order and first fault wins (am_txn),
//   deterministic allocation with abort restore (am_actor_table), FIFO
//   dispatch order, atomic O(1) commit of the staged sends (am_event_queue).
// * Bus: one access at a time; mem_addr_i[9:2] selects a 32-bit register,
//   the caller decodes the unit's base address into mem_valid_i. An access
//   announced a cycle ahead (a write: wr_next_i; a read: rd_la_i, la_a_i)
//   completes in the cycle it is presented unless the unit is busy; a read
//   not announced completes one cycle later. mem_rdata_o is 0 but in the
//   cycle a read completes (the SoC ORs its slaves' read data). mem_ready_o
//   is a register (docs/actor-unit.md, "Ports and their timing"). While the
//   unit is busy (dispatching, finishing a transaction, resolving a
//   reference or allocation check — always a bounded number of cycles)
//   every access waits with mem_ready_o low (am_unit_bus).
// * TRACE=1 adds the trace port (simulation); TRACE=0 ties it to zero.
// * The same RTL on every board: where a board needs another primitive, its
//   file list replaces a generic module by its own of the same name and
//   ports (fpga.mk: <board>_RTL, <board>_RTL_OUT) -- the iCEBreaker's
//   am_reg2x16 and am_down_counter in DSP blocks, the ULX3S's read data and
//   header port through multiplexers -- with the same behavior, cycle for
//   cycle.
`default_nettype none
`include "am_defs.vh"

module am_actor_unit #(
  parameter integer TABLE_SLOTS     = `AM_DEFAULT_TABLE_SLOTS, // actor slots (slot 0 = console)
  parameter integer QUEUE_AW        = `AM_DEFAULT_QUEUE_AW,  // 2^QUEUE_AW physical queue entries
  parameter integer MSG_WORDS       = `AM_DEFAULT_MSG_WORDS,  // 2, 4 or 8
  parameter integer STATE_WORDS     = `AM_DEFAULT_STATE_WORDS,  // 2, 4 or 8
  parameter integer MAX_SENDS       = `AM_DEFAULT_MAX_SENDS,  // per transaction, 1..15
  parameter integer MAX_CREATES     = `AM_DEFAULT_MAX_CREATES,  // per transaction, 2..15
  parameter integer BEH_W           = `AM_DEFAULT_BEH_W,   // behavior id bits (BEH_COUNT <= 2^BEH_W)
  parameter integer BEH_COUNT_RESET = `AM_DEFAULT_BEH_COUNT_RESET,  // built-in behaviors valid from reset
  parameter integer TRACE           = 0,
  // watchdog budget bits: a WATCHDOG write of 2^WD_W or more sets the
  // largest budget, 2^WD_W - 1 (small FPGA builds: 20, the firmware's
  // 1,000,000 cycles fit)
  parameter integer WD_W            = `AM_DEFAULT_WD_W,
  // 1: the statistics counters (CYCLES, SEQ/DISPATCHES, COMMITS,
  // ABORTS/FAULTS, QUEUE_HWM, LIVE, the GC counters); 0: they read 0 and
  // cost no logic (small FPGA builds)
  parameter integer STATS           = 1
) (
  input  wire                    clk_i,
  input  wire                    rst_ni,
  // PicoRV32 native memory interface (already decoded to this unit)
  input  wire                    mem_valid_i,
  output wire                    mem_ready_o,
  input  wire [31:0]             mem_addr_i,
  input  wire [31:0]             mem_wdata_i,
  input  wire [3:0]              mem_wstrb_i,
  output wire [31:0]             mem_rdata_o,
  // the look-ahead: a write to the unit is presented in the next cycle
  // (PicoRV32's mem_la_write decoded, or this cycle's write continuing);
  // ready_d_o is mem_ready_o's value in the next cycle (the SoC registers
  // its bus ready from it)
  input  wire                    wr_next_i,
  // the core announces an access (la_i) at la_a_i (mem_addr[9:2] of the
  // look-ahead); rd_la_i: it is a read of the unit, which may complete
  // without a wait state (am_unit_bus)
  input  wire                    la_i,
  input  wire                    rd_la_i,
  input  wire [7:0]              la_a_i,
  output wire                    ready_d_o,
  // watchdog: high from a watchdog abort until the firmware acknowledges it
  // (write WATCHDOG); the SoC restarts the core when it rises
  output wire                    wd_irq_o,
  // the SoC's stack guard stopped a store this cycle: the open transaction
  // aborts with STACK and the unit holds as after a watchdog abort
  input  wire                    stack_i,
  // the dispatch point (am_unit_dp): a fetch of DISPATCH presented next
  // cycle (the SoC's look-ahead, as wr_next_i) and, in the cycle it is
  // presented, whether it is an instruction fetch; dp_acc_o: it is accepted
  // (the SoC completes it next cycle). The answer: dp_rd_o, the SoC's fetch
  // of the third word completes next cycle (or when it comes), with the
  // dispatch table's entry dp_idx_o or, with dp_retry_o (a dead event), a
  // jump to DISPATCH again. The entry
  // the SoC's RAM reads meanwhile: dp_wait_o (a fetch waits), dp_sel_beh_o
  // / dp_sel_dev_o (which entry, from the sequencer's state alone) and
  // dp_beh_o (the behavior field as the actor table's read gives it,
  // before the target's check). dev_i: a device asks for the firmware
  // between transactions; restart_i: the SoC restarts the core
  input  wire                    dp_next_i,
  input  wire                    dp_instr_i,
  input  wire                    dev_i,
  input  wire                    restart_i,
  output wire                    dp_rd_o,
  output wire                    dp_acc_o,
  output wire                    dp_retry_o,
  output wire                    dp_wait_o,
  output wire                    dp_sel_beh_o,
  output wire                    dp_sel_dev_o,
  output wire [BEH_W+1:0]        dp_idx_o,
  output wire [BEH_W-1:0]        dp_beh_o,
  // trace port (TRACE=1)
  output wire                    trace_valid_o,
  output wire [3:0]              trace_kind_o,
  output wire [31:0]             trace_seq_o,
  output wire [31:0]             trace_ref_o,
  output wire [31:0]             trace_beh_o,
  output wire [3:0]              trace_len_o,
  output wire [32*8-1:0]         trace_words_o,
  output wire [4:0]              trace_cause_o,
  output wire [31:0]             trace_code_o,
  output wire [3:0]              trace_op_o,
  output wire [31:0]             trace_value_o
);
  localparam integer SLOT_W = $clog2(TABLE_SLOTS);
  localparam [4:0]   F_BAD_REF = `AM_FAULT_BAD_REF;
  localparam integer HDR_W  = `AM_HDR_W;
  localparam integer META_W = `AM_META_W;
  localparam integer MIW    = $clog2(MSG_WORDS);
  localparam integer SIW    = $clog2(STATE_WORDS);
  localparam integer SW     = $clog2(MAX_SENDS + 1);
  localparam integer CW     = $clog2(MAX_CREATES + 1);
  localparam [15:0]  GC_PERIOD_RESET = `AM_DEFAULT_GC_PERIOD;

  wire [7:0] a   = mem_addr_i[9:2];
  wire [7:0] ra;   // the register a read starts on (the look-ahead's, or the bus')
  wire [3:0] a_n = a[3:0];

  // ---------------------------------------------------------------- wires
  // am_unit_bus
  wire                wr_acc, wr_do, rd_acc, busy_d;
  // am_unit_dp: the dispatch point commits as a COMMIT write would
  wire                dp_commit, dp_demand, d_nothing, d_quick;
  wire                a_send, a_fwd, a_create, a_become, a_abort, a_set_fh, w_fwd_from;
  wire                w_send_w, w_bec_w, bw_we, w_new_st, w_create, w_become, w_inject, w_spawn;
  wire                w_unpin, unpin_ok, w_collect;
  wire                w_commit, w_abort, w_free, w_ctrl, w_behcnt, w_wdog, w_fh, w_gc_low;
  wire                w_gc_period, w_set_fh;
  // am_unit_regs
  wire                run_q;
  wire [BEH_W:0]      beh_count_q;
  // am_unit_ext
  wire                w_inrange, w_beh_ok, commit_ok, p_ref_ok, spawn_go, pending, pend_d;
  wire                t_send, t_create, t_spawn, inject_ok, free_ok;
  wire [SLOT_W-1:0]   p_slot_q;
  wire [BEH_W-1:0]    p_beh_q;
  wire [3:0]          p_n_q;
  wire [15:0]         p_new_gen;
  wire [2:0]          ext_q;
  wire [16+SLOT_W-1:0] new_ref_q;
  wire                q_wr_we, hw_we, q_commit, b_meta_we, b_st_we;
  wire [QUEUE_AW-1:0] q_off, hw_off, q_commit_n;
  wire [HDR_W-1:0]    hw_data;
  wire [SLOT_W-1:0]   b_meta_raddr;
  wire [META_W-1:0]   b_meta_wdata;
  // the am_reg2x16 of two modules
  wire [15:0]         p_gen_q, gc_period_q;
  // am_unit_wdog
  wire                wd_fire, wd_hold_q, wd_hold_d, wd_over_d;
  wire [4:0]          wd_cause;
  wire                wd_over_fire;      // the watchdog's own fire (the bus predicts it)
  wire [WD_W-1:0]     wd_budget_q;
  // am_unit_fault
  wire [31:0]         fh_q, f_code, f_target, f_beh;
  wire                fh_set, set_fh_go, set_fh_bad, abort_code;
  wire [4:0]          end_cause, last_cause_q, f_cause;
  wire [3:0]          end_op, f_op;
  wire [31:0]         f_value;
  // am_unit_gctrig
  wire                gc_due, gc_due_commit, gc_en;
  wire [SLOT_W:0]     gc_low_q;
  // am_unit_stats
  wire [31:0]         cycles_q, commits_q, aborts_q, gc_runs_q, gc_recl_q, gc_cycles_q, gc_pause_max_q;
  wire [SLOT_W:0]     live_q, gc_live_after, gc_live_max_q;
  // am_event_queue
  wire [QUEUE_AW-1:0] q_count, q_hwm, q_cur;
  wire                q_empty, q_full;
  wire                d_q_held;   // a waiting delivery's entry, outside the queue's count
  wire [HDR_W-1:0]    q_hdr;
  wire [31:0]         q_rdata;
  wire [32*MSG_WORDS-1:0] q_trw;
  // am_actor_table
  wire [META_W-1:0]   meta_rdata;
  wire                meta_used;
  wire [31:0]         st_rdata;
  wire [SLOT_W-1:0]   peek_slot;
  wire                peek_fresh, peek_ok, tbl_ready, t_ready_d;
  wire [31:0]         bw_rdata;
  wire [SLOT_W:0]     t_next, t_free_n, t_free_snap;
  // am_txn
  wire [4:0]          cause;
  wire [2:0]          txn_op;
  wire [SW-1:0]       nsends;
  wire [CW-1:0]       ncreates;
  wire [$clog2(MAX_CREATES)-1:0] cre_idx;
  wire [SLOT_W-1:0]   cre_slot;
  wire                become, become_set;
  wire [BEH_W-1:0]    become_beh;
  wire [3:0]          become_n, blen;
  wire [STATE_WORDS-1:0] dirty;
  // am_unit_fwd
  wire                q_room, f_busy, f_busy_d, f_we, f_cw, f_done;
  wire [MIW-1:0]      f_rd_idx, f_widx;
  wire [QUEUE_AW-1:0] f_off;
  wire [31:0]         f_wdata;
  wire                pend_all = pending || f_busy;    // a checked operation or a FORWARD's copy
  wire                send_go, create_go, become_go;
  // am_dispatch
  wire                d_owns, d_open, d_idle, d_disp, d_chk_ok, d_dead, d_end, d_commit;
  wire                d_fault, d_gc, d_gc_demand, d_gc_coll, d_coll_go, d_coll, d_retry, d_unpop;
  wire                d_txn_end = d_end && !d_retry;   // a transaction ends (a retry is none)
  wire                d_open_d, d_owns_d, d_checked;
  wire [BEH_W-1:0]    d_chk_beh, d_chk_mbeh, d_beh;
  wire [31:0]         d_seq;
  wire [SLOT_W-1:0]   d_self_slot;
  wire [15:0]         d_self_gen;
  wire [3:0]          d_len, d_slen;
  wire                d_pop, d_snap, d_restore, d_txn_clear;
  wire [SLOT_W-1:0]   d_meta_raddr, d_meta_waddr;
  wire                d_meta_we, d_st_we;
  wire [META_W-1:0]   d_meta_wdata;
  wire [SLOT_W+SIW-1:0] d_st_waddr;
  wire [31:0]         d_st_wdata;
  wire                bw_rd;
  wire [SIW-1:0]      bw_ridx;
  // am_gc
  wire                g_done, g_meta_we, g_push, g_stk_we, g_pop, g_clear, g_qsel;
  wire [SLOT_W:0]     g_reclaimed;
  wire [SLOT_W-1:0]   g_meta_raddr, g_meta_waddr, g_push_slot;
  wire [META_W-1:0]   g_meta_wdata;
  wire [SLOT_W+SIW-1:0] g_st_raddr;
  wire [QUEUE_AW-1:0] g_qoff;
  wire [MIW-1:0]      g_qidx;

  wire [31:0] self_ref = {d_self_gen, {(16-SLOT_W){1'b0}}, d_self_slot};

  // ---------------------------------------------------------------- the bus, the registers
  // (no access is in progress in a look-ahead cycle: PicoRV32 announces
  // one only from its idle memory state, without mem_valid. So an access in
  // progress, a register, selects -- not la_i, which comes late, through
  // the core's mem_la_read and its reset -- and the look-ahead's address
  // is taken in every other cycle, where no read starts but a fast one)
  assign ra = mem_valid_i ? a : la_a_i;
  generate
    if (TRACE != 0) begin : g_la_check
      always @(posedge clk_i) begin
        if (rst_ni && la_i && mem_valid_i) begin
          $display("am_actor_unit: an access announced (la_i) while one is in progress");
          $stop;
        end
      end
    end else begin : g_no_la_check
      wire unused_la = la_i;   // (only the check reads it)
    end
  endgenerate

  am_unit_bus #(.STATE_WORDS(STATE_WORDS), .TRACE(TRACE)) u_bus (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .mem_valid_i(mem_valid_i), .mem_wstrb_i(mem_wstrb_i), .a_i(a), .wr_next_i(wr_next_i), .rd_la_i(rd_la_i),
    .mem_ready_o(mem_ready_o), .ready_d_o(ready_d_o),
    .wr_acc_o(wr_acc), .wr_do_o(wr_do), .rd_acc_o(rd_acc),
    .owns_d_i(d_owns_d), .open_d_i(d_open_d),
    .pend_d_i(pend_d || f_busy_d || d_coll_go), .tbl_ready_d_i(t_ready_d),
    .wd_hold_d_i(wd_hold_d), .wd_over_d_i(wd_over_d), .busy_d_o(busy_d),
    .owns_i(d_owns), .open_i(d_open), .checked_i(d_checked),
    .pending_i(pend_all || d_coll), .tbl_ready_i(tbl_ready),
    .wd_hold_i(wd_hold_q), .wd_fire_i(wd_over_fire),
    .a_send_o(a_send), .a_fwd_o(a_fwd), .a_create_o(a_create), .a_become_o(a_become),
    .a_abort_o(a_abort), .a_set_fh_o(a_set_fh),
    .w_send_w_o(w_send_w), .w_bec_w_o(w_bec_w), .bw_we_o(bw_we), .w_new_st_o(w_new_st),
    .w_create_o(w_create), .w_become_o(w_become), .w_inject_o(w_inject), .w_spawn_o(w_spawn),
    .w_commit_o(w_commit), .w_abort_o(w_abort), .w_free_o(w_free), .w_unpin_o(w_unpin), .w_collect_o(w_collect), .w_ctrl_o(w_ctrl),
    .w_behcnt_o(w_behcnt), .w_wdog_o(w_wdog), .w_fh_o(w_fh), .w_gc_low_o(w_gc_low),
    .w_gc_period_o(w_gc_period), .w_set_fh_o(w_set_fh), .w_fwd_from_o(w_fwd_from));

  // The dispatch point: a `ret` to DISPATCH commits, and is answered with
  // the next behavior (am_unit_dp).
  wire c_commit = w_commit || dp_commit;   // a COMMIT write or the dispatch point
  am_unit_dp #(.BEH_W(BEH_W)) u_dp (
    .clk_i(clk_i), .rst_ni(rst_ni), .restart_i(restart_i),
    .dp_next_i(dp_next_i), .dp_instr_i(dp_instr_i), .busy_d_i(busy_d),
    .open_i(d_open), .wd_hold_i(wd_hold_q), .disp_i(d_disp), .chk_ok_i(d_chk_ok),
    .chk_beh_i(d_chk_mbeh), .idle_i(d_idle), .nothing_i(d_nothing), .dev_i(dev_i),
    .acc_o(dp_acc_o), .commit_o(dp_commit), .demand_o(dp_demand), .rd_o(dp_rd_o), .retry_o(dp_retry_o), .wait_o(dp_wait_o),
    .sel_beh_o(dp_sel_beh_o), .sel_dev_o(dp_sel_dev_o), .idx_o(dp_idx_o));
  assign dp_beh_o = d_chk_mbeh;

  am_unit_regs #(.SLOT_W(SLOT_W), .QUEUE_AW(QUEUE_AW), .BEH_W(BEH_W),
                 .BEH_COUNT_RESET(BEH_COUNT_RESET), .WD_W(WD_W), .STATS(STATS)) u_regs (
    .clk_i(clk_i), .rst_ni(rst_ni), .a_i(ra), .wdata_i(mem_wdata_i[BEH_W:0]),
    .w_ctrl_i(w_ctrl), .w_behcnt_i(w_behcnt),
    .run_o(run_q), .beh_count_o(beh_count_q),
    .open_i(d_open), .self_ref_i(self_ref), .beh_i(d_beh), .len_i(d_len), .slen_i(d_slen),
    .con_slen_i(con_slen),
    .seq_i(d_seq), .cause_i(cause), .q_empty_i(q_empty), .q_count_i(q_count), .q_hwm_i(q_hwm),
    .free_n_i(t_free_n), .ext_i(ext_q), .new_ref_i(new_ref_q),
    .wd_hold_i(wd_hold_q), .wd_budget_i(wd_budget_q),
    .fh_i(fh_q), .last_cause_i(last_cause_q), .f_cause_i(f_cause), .f_code_i(f_code),
    .f_target_i(f_target), .f_beh_i(f_beh), .f_op_i(f_op), .f_value_i(f_value),
    .gc_low_i(gc_low_q), .gc_period_i(gc_period_q),
    .cycles_i(cycles_q), .commits_i(commits_q), .aborts_i(aborts_q), .live_i(live_q),
    .gc_runs_i(gc_runs_q), .gc_recl_i(gc_recl_q), .gc_cycles_i(gc_cycles_q),
    .gc_pause_max_i(gc_pause_max_q), .gc_live_max_i(gc_live_max_q),
    .rd_acc_i(rd_acc), .q_rdata_i(q_rdata), .st_rdata_i(st_rdata), .rdata_o(mem_rdata_o));

  // ---------------------------------------------------------------- operations
  am_unit_ext #(.TABLE_SLOTS(TABLE_SLOTS), .QUEUE_AW(QUEUE_AW), .MSG_WORDS(MSG_WORDS),
                .STATE_WORDS(STATE_WORDS), .MAX_SENDS(MAX_SENDS), .BEH_W(BEH_W), .TRACE(TRACE),
                .SLOT_W(SLOT_W), .META_W(META_W), .HDR_W(HDR_W), .SW(SW)) u_ext (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(d_txn_clear), .a_i(a), .wdata_i(mem_wdata_i), .wr_acc_i(wr_acc),
    .w_send_w_i(w_send_w), .w_new_st_i(w_new_st), .w_create_i(w_create), .w_inject_i(w_inject),
    .w_spawn_i(w_spawn), .w_free_i(w_free), .w_unpin_i(w_unpin), .w_collect_i(w_collect), .w_commit_i(c_commit),
    .beh_count_i(beh_count_q), .idle_i(d_idle),
    .send_go_i(send_go), .create_go_i(create_go), .nsends_i(nsends), .cause_i(cause),
    .q_count_i(q_count), .q_full_i(q_full), .q_held_i(d_q_held),
    .peek_slot_i(peek_slot), .peek_fresh_i(peek_fresh), .peek_ok_i(peek_ok),
    .meta_rdata_i(meta_rdata), .meta_used_i(meta_used), .p_gen_i(p_gen_q),
    .w_inrange_o(w_inrange), .w_beh_ok_o(w_beh_ok), .commit_ok_o(commit_ok), .q_room_o(q_room),
    .p_ref_ok_o(p_ref_ok),
    .spawn_go_o(spawn_go), .pending_o(pending), .pend_d_o(pend_d),
    .t_send_o(t_send), .t_create_o(t_create), .t_spawn_o(t_spawn),
    .inject_ok_o(inject_ok), .free_ok_o(free_ok), .unpin_ok_o(unpin_ok),
    .p_slot_o(p_slot_q), .p_beh_o(p_beh_q), .p_n_o(p_n_q), .p_new_gen_o(p_new_gen),
    .ext_o(ext_q), .new_ref_o(new_ref_q),
    .q_wr_we_o(q_wr_we), .q_off_o(q_off), .hw_we_o(hw_we), .hw_off_o(hw_off), .hw_data_o(hw_data),
    .q_commit_o(q_commit), .q_commit_n_o(q_commit_n),
    .meta_raddr_o(b_meta_raddr), .meta_we_o(b_meta_we), .meta_wdata_o(b_meta_wdata),
    .st_we_o(b_st_we),
    .bw_we_i(bw_we), .owns_i(d_owns), .gc_i(d_gc));

  // FORWARD: a send whose words the unit copies from the message
  am_unit_fwd #(.QUEUE_AW(QUEUE_AW), .MSG_WORDS(MSG_WORDS)) u_fwd (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(d_txn_clear),
    .w_send_w_i(w_send_w && d_open && ({1'b0, a[2:0]} < MSG_WORDS[3:0])), .widx_i(a[MIW-1:0]),
    .w_from_i(w_fwd_from && d_open), .from_i(mem_wdata_i[4:0]),
    .send_go_i(send_go), .fwd_i(a_fwd), .n_i(a_n), .off_i(q_off), .room_i(q_room), .len_i(d_len),
    .ref_ok_i(p_ref_ok),
    .busy_o(f_busy), .busy_d_o(f_busy_d), .rd_idx_o(f_rd_idx), .q_rdata_i(q_rdata),
    .we_o(f_we), .off_o(f_off), .widx_o(f_widx), .wdata_o(f_wdata), .cw_o(f_cw), .done_o(f_done));

  // The checked reference's generation (am_unit_ext: every write's, for the
  // check in the next cycle) and GC_PERIOD (am_unit_gctrig) in one
  // am_reg2x16: on the iCEBreaker, one DSP block for both.
  am_reg2x16 #(.LO_RESET(GC_PERIOD_RESET)) u_gen_period (.clk_i(clk_i), .rst_ni(rst_ni),
    .hi_en_i(wr_acc),      .hi_d_i(mem_wdata_i[31:16]), .hi_q_o(p_gen_q),
    .lo_en_i(w_gc_period), .lo_d_i(mem_wdata_i[15:0]),  .lo_q_o(gc_period_q));

  // ---------------------------------------------------------------- watchdog, faults
  am_unit_wdog #(.WD_W(WD_W)) u_wdog (
    .clk_i(clk_i), .rst_ni(rst_ni), .open_i(d_open), .stack_i(stack_i), .w_wdog_i(w_wdog),
    .wdata_i(mem_wdata_i), .fire_o(wd_fire), .cause_o(wd_cause), .over_fire_o(wd_over_fire), .hold_o(wd_hold_q),
    .irq_o(wd_irq_o), .hold_d_o(wd_hold_d), .over_d_o(wd_over_d), .budget_o(wd_budget_q));

  am_unit_fault #(.SLOT_W(SLOT_W), .BEH_W(BEH_W), .TRACE(TRACE)) u_fault (
    .clk_i(clk_i), .rst_ni(rst_ni), .wdata_i(mem_wdata_i), .a_n_i(a_n), .wr_do_i(wr_do),
    .w_fh_i(w_fh), .a_set_fh_i(a_set_fh), .w_set_fh_i(w_set_fh), .w_abort_i(w_abort),
    .w_inrange_i(w_inrange), .cause_i(cause), .op_i(txn_op),
    .open_i(d_open), .fault_i(d_fault), .end_i(d_end), .commit_i(d_commit), .dead_i(d_dead),
    .beh_i(d_beh), .target_i(self_ref),
    .fh_o(fh_q), .fh_set_o(fh_set), .set_fh_go_o(set_fh_go), .set_fh_bad_o(set_fh_bad),
    .abort_code_o(abort_code), .end_cause_o(end_cause), .end_op_o(end_op),
    .last_cause_o(last_cause_q),
    .f_cause_o(f_cause), .f_code_o(f_code), .f_target_o(f_target), .f_beh_o(f_beh),
    .f_op_o(f_op), .f_value_o(f_value));

  // ---------------------------------------------------------------- collector trigger, statistics
  am_unit_gctrig #(.SLOT_W(SLOT_W), .MAX_CREATES(MAX_CREATES), .PERIOD_RESET(GC_PERIOD_RESET)) u_gctrig (
    .clk_i(clk_i), .rst_ni(rst_ni), .wdata_i(mem_wdata_i[15:0]),
    .w_gc_low_i(w_gc_low), .w_gc_period_i(w_gc_period), .period_i(gc_period_q),
    .free_n_i(t_free_n), .free_snap_i(t_free_snap), .live_after_i(gc_live_after),
    .restore_i(d_restore), .snap_i(d_snap),
    .chg_i((w_create && d_open) || w_spawn || g_pop || free_ok || g_stk_we || d_restore || g_clear),
    .done_i(g_done), .due_o(gc_due), .due_commit_o(gc_due_commit), .en_o(gc_en), .low_o(gc_low_q));

  am_unit_stats #(.SLOT_W(SLOT_W), .MAX_CREATES(MAX_CREATES), .STATS(STATS), .CW(CW)) u_stats (
    .clk_i(clk_i), .rst_ni(rst_ni), .end_i(d_txn_end), .commit_i(d_commit), .ncreates_i(ncreates),
    .spawn_i(t_spawn), .free_i(free_ok), .gc_i(d_gc), .gc_done_i(g_done),
    .reclaimed_i(g_reclaimed),
    .cycles_o(cycles_q), .commits_o(commits_q), .aborts_o(aborts_q), .live_o(live_q),
    .live_after_o(gc_live_after), .gc_runs_o(gc_runs_q), .gc_recl_o(gc_recl_q),
    .gc_cycles_o(gc_cycles_q), .gc_pause_max_o(gc_pause_max_q), .gc_live_max_o(gc_live_max_q));

  // ---------------------------------------------------------------- queue, table, staging, sequencer, collector
  am_event_queue #(.QAW(QUEUE_AW), .MSG_WORDS(MSG_WORDS), .HDR_W(HDR_W), .TRACE(TRACE)) u_queue (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .wr_we_i(q_wr_we || f_we), .wr_off_i(f_busy ? f_off : q_off),
    .wr_idx_i(f_busy ? f_widx : a[MIW-1:0]), .wr_data_i(f_busy ? f_wdata : mem_wdata_i),
    .hw_we_i(hw_we), .hw_off_i(hw_off), .hw_data_i(hw_data),
    .commit_i(q_commit), .commit_n_i(q_commit_n), .pop_i(d_pop), .unpop_i(d_unpop),
    .gc_i(g_qsel), .gc_off_i(g_qoff), .gc_idx_i(g_qidx),
    .hdr_o(q_hdr), .rd_idx_i(f_busy ? f_rd_idx : ra[MIW-1:0]), .rd_data_o(q_rdata),
    .count_o(q_count), .empty_o(q_empty), .full_o(q_full), .hwm_o(q_hwm), .cur_o(q_cur),
    .tr_words_o(q_trw));

  wire                t_meta_we    = d_gc ? g_meta_we : d_owns ? d_meta_we : b_meta_we;
  wire [SLOT_W-1:0]   t_meta_waddr = d_gc ? g_meta_waddr : d_owns ? d_meta_waddr : p_slot_q;
  wire [META_W-1:0]   t_meta_wdata = d_gc ? g_meta_wdata : d_owns ? d_meta_wdata : b_meta_wdata;
  // the console's state length, for its window between transactions
  wire [3:0]          con_slen;
  am_unit_con #(.SLOT_W(SLOT_W), .BEH_W(BEH_W), .META_W(META_W)) u_con (
    .clk_i(clk_i), .rst_ni(rst_ni), .meta_we_i(t_meta_we), .meta_waddr_i(t_meta_waddr),
    .meta_wdata_i(t_meta_wdata), .len_o(con_slen));

  am_actor_table #(.SLOT_W(SLOT_W), .TABLE_SLOTS(TABLE_SLOTS), .STATE_WORDS(STATE_WORDS),
                   .BEH_W(BEH_W)) u_table (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .meta_raddr_i(d_gc ? g_meta_raddr : (d_owns || d_quick) ? d_meta_raddr : b_meta_raddr),
    .meta_rdata_o(meta_rdata), .meta_used_o(meta_used),
    .meta_we_i(t_meta_we), .meta_waddr_i(t_meta_waddr), .meta_wdata_i(t_meta_wdata),
    // a STATE read: self's word, or between transactions the console's
    .st_raddr_i(d_gc ? g_st_raddr : {d_open ? d_self_slot : {SLOT_W{1'b0}}, ra[SIW-1:0]}),
    .st_rdata_o(st_rdata),
    .st_we_i(d_owns ? d_st_we : b_st_we),
    .st_waddr_i(d_owns ? d_st_waddr : {peek_slot, a[SIW-1:0]}),
    .st_wdata_i(d_owns ? d_st_wdata : mem_wdata_i),
    .peek_slot_o(peek_slot), .peek_fresh_o(peek_fresh), .peek_ok_o(peek_ok), .ready_o(tbl_ready), .ready_d_o(t_ready_d),
    .alloc_i(create_go || spawn_go || g_pop), .snap_i(d_snap), .restore_i(d_restore),
    .free_i(free_ok || g_push), .alloc_may_i((w_create && d_open) || w_spawn || g_pop),
    .free_may_i(free_ok || g_stk_we), .stk_we_i(free_ok || g_stk_we), .free_slot_i(d_gc ? g_push_slot : p_slot_q),
    .clear_i(g_clear), .bw_we_i(bw_we), .bw_widx_i(a[SIW-1:0]), .bw_wdata_i(mem_wdata_i),
    .bw_rd_i(bw_rd), .bw_ridx_i(bw_ridx), .bw_rdata_o(bw_rdata),
    .next_o(t_next), .free_o(t_free_n), .free_snap_o(t_free_snap));

  am_txn #(.MSG_WORDS(MSG_WORDS), .STATE_WORDS(STATE_WORDS), .MAX_SENDS(MAX_SENDS),
           .MAX_CREATES(MAX_CREATES), .SLOT_W(SLOT_W), .BEH_W(BEH_W)) u_txn (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(d_txn_clear), .stb_i(wr_do),
    .send_i(a_send), .send_n_i(a_n), .send_go_o(send_go),
    .ref_chk_i(t_send), .ref_ok_i(p_ref_ok),
    .create_i(a_create), .create_n_i(a_n), .create_beh_ok_i(w_beh_ok), .alloc_ok_i(peek_ok),
    .create_slot_i(peek_slot), .create_go_o(create_go),
    .become_i(a_become), .become_n_i(a_n), .become_beh_ok_i(w_beh_ok),
    .become_beh_i(mem_wdata_i[BEH_W-1:0]), .become_go_o(become_go),
    .bword_i(bw_we && d_open), .bword_idx_i(a[SIW-1:0]),
    .bfail_i(a_abort || set_fh_bad), .bfail_cause_i(set_fh_bad ? F_BAD_REF[3:0] : a_n), .bfail_fh_i(set_fh_bad),
    .afail_i(wd_fire), .afail_cause_i(wd_cause),
    .commit_i(c_commit), .qfull_i(!commit_ok),
    .cause_o(cause), .op_o(txn_op), .nsends_o(nsends), .ncreates_o(ncreates), .cre_idx_i(cre_idx),
    .cre_slot_o(cre_slot), .become_o(become), .become_set_o(become_set), .become_beh_o(become_beh),
    .become_n_o(become_n), .dirty_o(dirty), .blen_o(blen));

  am_dispatch #(.SLOT_W(SLOT_W), .BEH_W(BEH_W), .META_W(META_W), .HDR_W(HDR_W),
                .STATE_WORDS(STATE_WORDS), .MAX_CREATES(MAX_CREATES)) u_dispatch (
    .clk_i(clk_i), .rst_ni(rst_ni), .run_i(run_q && !wd_hold_q), .hold_i(pend_all),
    .demand_i(dp_demand), .nothing_o(d_nothing), .sends_i(nsends != {SW{1'b0}}), .quick_o(d_quick),
    .fh_set_i(fh_set), .fh_slot_i(fh_q[SLOT_W-1:0]), .fh_gen_i(fh_q[31:16]),
    .fault_q_o(d_fault),
    .gc_due_i(gc_due), .gc_due_commit_i(gc_due_commit), .gc_done_i(g_done), .gc_en_i(gc_en), .table_full_i(cause == 5'd8),
    .gc_o(d_gc), .gc_demand_o(d_gc_demand), .retry_o(d_retry), .q_unpop_o(d_unpop), .q_held_o(d_q_held),
    .collect_i(w_collect), .unroot_i(unpin_ok || free_ok), .coll_go_o(d_coll_go), .coll_o(d_coll), .gc_coll_o(d_gc_coll),
    .q_empty_i(q_empty), .q_hdr_i(q_hdr), .q_pop_o(d_pop),
    .meta_rdata_i(meta_rdata), .meta_used_i(meta_used),
    .meta_raddr_o(d_meta_raddr), .meta_we_o(d_meta_we), .meta_waddr_o(d_meta_waddr),
    .meta_wdata_o(d_meta_wdata), .st_we_o(d_st_we), .st_waddr_o(d_st_waddr), .st_wdata_o(d_st_wdata),
    .alloc_snap_o(d_snap), .alloc_restore_o(d_restore),
    .commit_i(c_commit && commit_ok), .dp_commit_i(dp_commit && commit_ok),
    .abort_i(w_abort || (c_commit && !commit_ok) || wd_fire),
    .ncreates_i(ncreates), .cre_idx_o(cre_idx), .cre_slot_i(cre_slot),
    .become_i(become), .become_set_i(become_set), .become_beh_i(become_beh), .become_n_i(become_n),
    .dirty_i(dirty), .blen_i(blen),
    .bw_rd_o(bw_rd), .bw_ridx_o(bw_ridx), .bw_rdata_i(bw_rdata), .txn_clear_o(d_txn_clear),
    .owns_o(d_owns), .open_o(d_open), .idle_o(d_idle), .seq_o(d_seq),
    .self_slot_o(d_self_slot), .self_gen_o(d_self_gen), .beh_o(d_beh), .len_o(d_len),
    .slen_o(d_slen), .disp_o(d_disp), .chk_ok_o(d_chk_ok), .chk_beh_o(d_chk_beh), .chk_mbeh_o(d_chk_mbeh),
    .dead_o(d_dead), .end_o(d_end), .commit_q_o(d_commit),
    .open_d_o(d_open_d), .owns_d_o(d_owns_d), .checked_o(d_checked));

  am_gc #(.SLOT_W(SLOT_W), .TABLE_SLOTS(TABLE_SLOTS), .BEH_W(BEH_W), .META_W(META_W),
          .QAW(QUEUE_AW), .MSG_WORDS(MSG_WORDS), .STATE_WORDS(STATE_WORDS), .HDR_W(HDR_W)) u_gc (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(d_gc), .done_o(g_done),
    .reclaimed_o(g_reclaimed), .spawn_i(t_spawn), .spawn_slot_i(p_slot_q), .next_i(t_next),
    .meta_raddr_o(g_meta_raddr), .meta_rdata_i(meta_rdata), .meta_used_i(meta_used),
    .meta_we_o(g_meta_we), .meta_wdata_o(g_meta_wdata), .meta_waddr_o(g_meta_waddr),
    .st_raddr_o(g_st_raddr), .st_rdata_i(st_rdata),
    .stk_clear_o(g_clear), .stk_push_o(g_push), .stk_we_o(g_stk_we), .stk_push_slot_o(g_push_slot),
    .stk_pop_o(g_pop),
    .stk_top_i(peek_slot), .stk_nonempty_i(!peek_fresh), .stk_ready_i(tbl_ready),
    .q_count_i(q_count), .q_sel_o(g_qsel), .q_off_o(g_qoff), .q_idx_o(g_qidx),
    .q_hdr_i(q_hdr), .q_data_i(q_rdata), .fh_i(fh_q));

  // ---------------------------------------------------------------- trace port
  am_unit_trace #(.SLOT_W(SLOT_W), .BEH_W(BEH_W), .MSG_WORDS(MSG_WORDS), .TRACE(TRACE)) u_trace (
    .clk_i(clk_i), .rst_ni(rst_ni), .a_n_i(a_n), .wdata_i(mem_wdata_i), .wr_acc_i(wr_acc),
    .w_send_w_i(w_send_w), .w_new_st_i(w_new_st), .w_bec_w_i(w_bec_w), .w_become_i(w_become),
    .become_go_i(become_go), .abort_code_i(abort_code), .set_fh_go_i(set_fh_go), .bw_we_i(bw_we),
    .f_busy_i(f_busy), .f_cw_i(f_cw), .f_widx_i(f_widx), .f_wdata_i(f_wdata), .f_done_i(f_done),
    .t_send_i(t_send), .p_ref_ok_i(p_ref_ok), .inject_ok_i(inject_ok), .t_create_i(t_create),
    .t_spawn_i(t_spawn), .free_ok_i(free_ok), .unpin_ok_i(unpin_ok), .p_slot_i(p_slot_q), .p_beh_i(p_beh_q),
    .p_n_i(p_n_q), .p_new_gen_i(p_new_gen),
    .disp_i(d_disp), .end_i(d_txn_end), .commit_i(d_commit), .end_cause_i(end_cause), .end_op_i(end_op),
    .open_i(d_open), .cause_i(cause), .seq_i(d_seq),
    .self_ref_i(self_ref), .chk_beh_i(d_chk_beh), .beh_i(d_beh), .len_i(d_len), .q_words_i(q_trw),
    .gc_done_i(g_done), .gc_demand_i(d_gc_demand), .gc_coll_i(d_gc_coll), .reclaimed_i(g_reclaimed), .live_after_i(gc_live_after),
    .free_n_i(t_free_n),
    .trace_valid_o(trace_valid_o), .trace_kind_o(trace_kind_o), .trace_seq_o(trace_seq_o),
    .trace_ref_o(trace_ref_o), .trace_beh_o(trace_beh_o), .trace_len_o(trace_len_o),
    .trace_words_o(trace_words_o), .trace_cause_o(trace_cause_o), .trace_code_o(trace_code_o),
    .trace_op_o(trace_op_o), .trace_value_o(trace_value_o));
endmodule

`default_nettype wire
