// am_unit_bus — the actor unit's side of the bus: when an access completes,
// and which register or operation it addresses.
//
// Owns: the busy flag (busy_q), the registered write accept (wr_acc_q) and
// the read's wait state (rd_ready_q) -- together mem_ready_o and
// ready_d_o --, and the address decode: one strobe per register or
// operation a write addresses.
//
// Promises:
// * A write completes in the cycle it is presented unless the unit is busy.
//   A read completes in the cycle it is presented too when the unit is not
//   busy in the cycle before, the look-ahead cycle (rd_la_i): it starts then
//   (rd_acc_o, with the look-ahead's address) -- the core
//   announces no access while one is in progress, and no state a register
//   shows changes at the end of a cycle the unit is not busy in, but the
//   cycle counter, which a fast read of CYCLES sees one cycle early (and the
//   watchdog's abort, after which the core is restarted anyway). Otherwise
//   it starts in the cycle it is presented and completes in the next
//   (rd_ready_q). While busy every access waits with mem_ready_o low. (The
//   fast read looks at busy_q, a register, only: the look-ahead comes late
//   in the cycle, from the core's next-PC logic.)
// * The unit is busy while the sequencer owns the RAMs, a checked operation
//   is in its second or third cycle, the allocator re-reads its stack top,
//   or the watchdog fires:
//     busy = owns || pending || !tbl_ready || wd_fire
//   (A dispatch starts only while the core waits at the dispatch point,
//   am_unit_dp, so no access of the core ever meets one starting.)
//   busy_q holds it, computed a cycle ahead from the next-state values the
//   other modules give (*_d_i), so mem_ready_o depends on no address bit:
//   it is a couple of gates from the core's request (the iCE40's critical
//   path ran through it). The write accept is registered too: the caller
//   says a cycle ahead that a write comes (wr_next_i).
// * wr_do_o: a completed write takes effect -- always, except during a
//   watchdog hold, when only the acknowledgement (a WATCHDOG write) does;
//   every other write then completes at once and is ignored (it comes from
//   the abandoned behavior; am_unit_wdog).
// * a_*_o decode the address alone (and whether a transaction is open):
//   the operations' checks use them in the cycle of the write; w_*_o are
//   the same ANDed with wr_do_o.
// * TRACE=1 checks busy_q against the formula above, and wr_acc_q against
//   mem_valid_i && write && !busy_q, every cycle ($stop on a difference).
`default_nettype none
`include "am_defs.vh"

module am_unit_bus #(
  parameter integer STATE_WORDS = 8,
  parameter integer TRACE       = 0
) (
  input  wire       clk_i,
  input  wire       rst_ni,
  // the bus (the unit's register window: a_i = mem_addr_i[9:2])
  input  wire       mem_valid_i,
  input  wire [3:0] mem_wstrb_i,
  input  wire [7:0] a_i,
  input  wire       wr_next_i,
  input  wire       rd_la_i,      // a read of the unit is announced (the look-ahead cycle)
  output wire       mem_ready_o,
  output wire       ready_d_o,
  output wire       wr_acc_o,     // a write completes
  output wire       wr_do_o,      // ... and takes effect
  output wire       rd_acc_o,     // a read starts (in the look-ahead cycle: at the look-ahead's address)
  // what makes the unit busy in the next cycle
  input  wire       owns_d_i,     // am_dispatch
  input  wire       open_d_i,
  input  wire       pend_d_i,     // am_unit_ext: a checked operation continues
  input  wire       tbl_ready_d_i,
  input  wire       wd_hold_d_i,  // am_unit_wdog
  input  wire       wd_over_d_i,
  output wire       busy_d_o,     // (am_unit_dp accepts a dispatch point as a write)
  // ... and in this cycle (wd_hold_i also gates wr_do_o; the rest are for
  // the TRACE=1 check)
  input  wire       owns_i,
  input  wire       open_i,       // a transaction is open (the a_* decodes)
  input  wire       pending_i,
  input  wire       tbl_ready_i,
  input  wire       wd_hold_i,
  input  wire       wd_fire_i,
  input  wire       checked_i,    // am_dispatch: the last cycle was CHECK (counted as busy)
  // the decode
  output wire       a_send_o,     // 0x0C0 SEND[n], or 0x340 FORWARD[n] (a SEND to every check)
  output wire       a_fwd_o,      // ... FORWARD[n]
  output wire       a_create_o,   // 0x100 CREATE[n]
  output wire       a_become_o,   // 0x140 BECOME[n]
  output wire       a_abort_o,    // 0x240 ABORT[cause]
  output wire       a_set_fh_o,   // 0x2A4 SET_HANDLER
  output wire       w_send_w_o,   // 0x040 SEND_W[i]
  output wire       w_bec_w_o,    // 0x060 BECOME_W[i]
  output wire       bw_we_o,      // ... with i < STATE_WORDS: into the table's buffer
  output wire       w_new_st_o,   // 0x080 NEW_STATE[i]
  output wire       w_create_o,
  output wire       w_become_o,
  output wire       w_inject_o,   // 0x180 INJECT[n]
  output wire       w_spawn_o,    // 0x1C0 SPAWN[n]
  output wire       w_commit_o,
  output wire       w_abort_o,
  output wire       w_free_o,     // 0x014 FREE
  output wire       w_unpin_o,    // 0x2D8 UNPIN
  output wire       w_collect_o,  // 0x2DC COLLECT
  output wire       w_ctrl_o,     // 0x004 CTRL
  output wire       w_behcnt_o,   // 0x008 BEH_COUNT
  output wire       w_wdog_o,     // 0x01C WATCHDOG
  output wire       w_fh_o,       // 0x2A0 FAULT_HANDLER
  output wire       w_gc_low_o,   // 0x2B0 GC_LOW
  output wire       w_gc_period_o,// 0x2B4 GC_PERIOD
  output wire       w_set_fh_o,
  output wire       w_fwd_from_o  // 0x2D4 FWD_FROM
);
  wire       wr = |mem_wstrb_i;
  wire [7:0] a  = a_i;

  // ---------------------------------------------------------------- handshake
  reg busy_q, wr_acc_q, rd_ready_q;
  wire wd_addr = `AM_AU_WATCHDOG_AT(a);   // WATCHDOG: the one write a watchdog hold lets through
  wire busy_d = owns_d_i || pend_d_i || !tbl_ready_d_i ||
                (open_d_i && !wd_hold_d_i && wd_over_d_i);
  assign busy_d_o    = busy_d;
  assign wr_acc_o    = wr_acc_q;
  assign wr_do_o     = wr_acc_q && (!wd_hold_i || wd_addr);
  assign rd_acc_o    = (rd_la_i && !busy_q) || (mem_valid_i && !wr && !busy_q && !rd_ready_q);
  assign mem_ready_o = wr_acc_q || rd_ready_q;
  assign ready_d_o   = rd_acc_o || (wr_next_i && !busy_d);
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q     <= 1'b0;
      wr_acc_q   <= 1'b0;
      rd_ready_q <= 1'b0;
    end else begin
      busy_q     <= busy_d;
      wr_acc_q   <= wr_next_i && !busy_d;
      rd_ready_q <= rd_acc_o;
    end
  end

  // ---------------------------------------------------------------- decode
  assign a_send_o      = (`AM_AU_SEND_AT(a) || `AM_AU_FORWARD_AT(a)) && open_i;
  assign a_fwd_o       = `AM_AU_FORWARD_AT(a) && open_i;
  assign a_create_o    = `AM_AU_CREATE_AT(a) && open_i;
  assign a_become_o    = `AM_AU_BECOME_AT(a) && open_i;
  assign a_abort_o     = `AM_AU_ABORT_AT(a) && open_i;
  assign a_set_fh_o    = `AM_AU_SET_HANDLER_AT(a) && open_i;
  assign w_send_w_o    = wr_do_o && `AM_AU_SEND_W_AT(a);
  assign w_bec_w_o     = wr_do_o && `AM_AU_BECOME_W_AT(a);
  assign bw_we_o       = w_bec_w_o && ({1'b0, a[2:0]} < STATE_WORDS[3:0]);
  assign w_new_st_o    = wr_do_o && `AM_AU_NEW_STATE_AT(a);
  assign w_create_o    = wr_do_o && a_create_o;
  assign w_become_o    = wr_do_o && a_become_o;
  assign w_inject_o    = wr_do_o && `AM_AU_INJECT_AT(a);
  assign w_spawn_o     = wr_do_o && `AM_AU_SPAWN_AT(a);
  assign w_commit_o    = wr_do_o && `AM_AU_COMMIT_AT(a) && open_i;
  assign w_abort_o     = wr_do_o && a_abort_o;
  assign w_free_o      = wr_do_o && `AM_AU_FREE_AT(a);
  assign w_unpin_o     = wr_do_o && `AM_AU_UNPIN_AT(a);
  assign w_collect_o   = wr_do_o && `AM_AU_COLLECT_AT(a);
  assign w_ctrl_o      = wr_do_o && `AM_AU_CTRL_AT(a);
  assign w_behcnt_o    = wr_do_o && `AM_AU_BEH_COUNT_AT(a);
  assign w_wdog_o      = wr_do_o && wd_addr;
  assign w_fh_o        = wr_do_o && `AM_AU_FAULT_HANDLER_AT(a);
  assign w_gc_low_o    = wr_do_o && `AM_AU_GC_LOW_AT(a);
  assign w_gc_period_o = wr_do_o && `AM_AU_GC_PERIOD_AT(a);
  assign w_set_fh_o    = wr_do_o && a_set_fh_o;
  assign w_fwd_from_o  = wr_do_o && `AM_AU_FWD_FROM_AT(a);

  generate
    if (TRACE != 0) begin : g_check
      wire busy_now = owns_i || pending_i || !tbl_ready_i || wd_fire_i || checked_i;
      always @(posedge clk_i) begin
        if (rst_ni && busy_q != busy_now) begin
          $display("am_unit_bus: busy_q = %0d but the direct formula gives %0d", busy_q, busy_now);
          $stop;
        end
        if (rst_ni && wr_acc_q != (mem_valid_i && wr && !busy_q)) begin
          $display("am_unit_bus: wr_acc_q = %0d, but valid %0d write %0d busy %0d (wr_next_i wrong?)",
                   wr_acc_q, mem_valid_i, wr, busy_q);
          $stop;
        end
      end
    end else begin : g_no_check
      wire unused_check_only = ^{owns_i, pending_i, tbl_ready_i, wd_fire_i, checked_i};
    end
  endgenerate
endmodule

`default_nettype wire
