// am_unit_gctrig — when the collector runs: the trigger am_dispatch checks
// where a dispatch would FETCH (docs/gc.md, "When it runs").
//
// Owns: GC_LOW (low_o), whether its trigger is armed (armed_q), and the
// count of dispatches left in the period (am_down_counter u_left). GC_PERIOD
// itself is held outside, in the am_reg2x16 it shares with the checked
// reference's generation (one DSP block on the iCEBreaker).
//
// Promises:
// * due_o: fewer than GC_LOW free slots while armed -- after an abort, as
//   the allocator is being restored (free_snap_i), else now (free_n_i) --
//   or the period's count at 0 with GC_PERIOD != 0. GC_LOW is MAX_CREATES
//   after reset, GC_PERIOD PERIOD_RESET.
// * Armed after reset; a collection's end arms it iff it left at least
//   2 * GC_LOW slots free, so a table whose live actors leave fewer is not
//   collected before every dispatch (the collection on demand, am_dispatch,
//   still runs when a CREATE finds no slot).
// * The period is counted down (one per FETCH or REDIR, snap_i; it stops
//   at 0). A collection's end reloads it with GC_PERIOD + 2^GC_LIVE_SHIFT
//   (include/am_iface.def) x the live
//   actors it left (live_after_i): the next collection's work grows with
//   them, so the dispatches before it do too. A GC_PERIOD write loads the
//   written value, which so starts the count again. The trigger tests the
//   count for zero, no comparator.
// * en_o: the collector is on, GC_LOW != 0 or GC_PERIOD != 0 (else nothing
//   is collected, not even on demand).
// * Both "few free" compares run from registers, in parallel with the
//   sequencer's state; the state only picks one (restore_i) -- off the
//   iCE40's critical path, which ran state -> restore -> compare -> next
//   state.
// * due_commit_o (QUICK's test) is due_o's value as of the last cycle, or
//   1 when the free count or GC_LOW may have changed since (chg_i): never
//   0 when due_o is 1 at a commit, so QUICK never skips a collection; a
//   1 only sends the commit through END, which tests due_o itself.
`default_nettype none
`include "am_defs.vh"

module am_unit_gctrig #(
  parameter integer  SLOT_W       = 7,
  parameter integer  MAX_CREATES  = 4,
  parameter [15:0]   PERIOD_RESET = 16'd1024
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  input  wire [15:0]     wdata_i,        // the written value's low bits
  input  wire            w_gc_low_i,     // a GC_LOW write
  input  wire            w_gc_period_i,  // a GC_PERIOD write
  input  wire [15:0]     period_i,       // GC_PERIOD
  input  wire [SLOT_W:0] free_n_i,       // am_actor_table: free slots,
  input  wire [SLOT_W:0] free_snap_i,    // ... as the allocator is being restored
  input  wire [SLOT_W:0] live_after_i,   // am_unit_stats: live after the collection (with done_i)
  input  wire            restore_i,      // am_dispatch: it is (an abort's END)
  input  wire            chg_i,          // the free count may change this cycle (the allocator's
                                         // alloc / free may, restore, clear)
  input  wire            snap_i,         // ... a dispatch (FETCH, REDIR)
  input  wire            done_i,         // am_gc: a collection ends
  output wire            due_o,
  output wire            due_commit_o,   // QUICK's test: due_o may hold at this commit (from registers)
  output wire            en_o,
  output reg  [SLOT_W:0] low_o           // GC_LOW
);
  // the count: GC_PERIOD + live << GC_LIVE_SHIFT fits (16 bits + the table's
  // SLOT_W + 1 bits shifted)
  localparam integer SH = `AM_DEFAULT_GC_LIVE_SHIFT;
  localparam integer LV = SLOT_W + 1 + SH;
  localparam integer LW = ((LV > 16) ? LV : 16) + 1;
  wire [LW-1:0] left;
  wire [LW-1:0] reload = w_gc_period_i ? {{(LW-16){1'b0}}, wdata_i} :
                         {{(LW-16){1'b0}}, period_i} + {{(LW-LV){1'b0}}, live_after_i, {SH{1'b0}}};

  am_down_counter #(.W(LW), .RESET({{(LW-16){1'b0}}, PERIOD_RESET})) u_left (.clk_i(clk_i), .rst_ni(rst_ni),
    .load_i(done_i || w_gc_period_i), .dec_i(snap_i && (left != {LW{1'b0}})),
    .d_i(reload), .q_o(left));

  reg  armed_q;
  wire low_snap = (free_snap_i < low_o);
  wire low_now  = (free_n_i < low_o);
  wire period_out = (period_i != 16'd0) && (left == {LW{1'b0}});
  assign due_o        = (armed_q && (restore_i ? low_snap : low_now)) || period_out;
  // QUICK's test runs from registers: few free as of the last cycle, unless
  // the count or GC_LOW may have changed since -- then "maybe due", QUICK
  // is not taken, and the commit's END tests due_o, exactly. (With the
  // core, nothing allocates or frees in the cycle before a dispatch
  // point's commit. The compare in front of QUICK was the HX8K's critical
  // path; behind the allocator's decisions it was the iCEBreaker's.)
  reg lt_q, chg_q;
  always @(posedge clk_i) begin
    lt_q  <= low_now;
    chg_q <= !rst_ni || chg_i || w_gc_low_i;
  end
  assign due_commit_o = chg_q || (armed_q && lt_q) || period_out;
  assign en_o  = (low_o != {(SLOT_W+1){1'b0}}) || (period_i != 16'd0);

  always @(posedge clk_i) begin
    if (!rst_ni)         low_o <= MAX_CREATES[SLOT_W:0];
    else if (w_gc_low_i) low_o <= wdata_i[SLOT_W:0];
  end

  always @(posedge clk_i) begin
    if (!rst_ni)     armed_q <= 1'b1;
    else if (done_i) armed_q <= ({1'b0, free_n_i} >= {low_o, 1'b0});
  end
endmodule

`default_nettype wire
