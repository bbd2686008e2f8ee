// am_unit_gctrig — when the collector runs: the trigger am_dispatch checks
// where a dispatch would FETCH.
//
// Owns: GC_LOW (low_q) and the count of dispatches left in the period
// (am_down_counter u_left). GC_PERIOD itself is held outside, in the
// am_reg2x16 it shares with the checked reference's generation (one DSP
// block on the iCEBreaker).
//
// Promises:
// * due_o: fewer than GC_LOW free slots -- after an abort, as the allocator
//   is being restored (free_snap_i), else now (free_n_i) -- or GC_PERIOD
//   dispatches since the last collection; GC_LOW = 0 / GC_PERIOD = 0 turn
//   either off. GC_LOW is MAX_CREATES after reset, GC_PERIOD PERIOD_RESET.
// * The period is counted down (one per FETCH or REDIR, snap_i; it stops
//   at 0) and reloaded by a collection's end and by a GC_PERIOD write,
//   which so starts the count again: the trigger tests it for zero, no
//   comparator.
// * Both "few free" compares run from registers, in parallel with the
//   sequencer's state; the state only picks one (restore_i) -- off the
//   iCE40's critical path, which ran state -> restore -> compare -> next
//   state.
`default_nettype none

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
  input  wire            restore_i,      // am_dispatch: it is (an abort's END)
  input  wire            snap_i,         // ... a dispatch (FETCH, REDIR)
  input  wire            done_i,         // am_gc: a collection ends
  output wire            due_o,
  output reg  [SLOT_W:0] low_o           // GC_LOW
);
  wire [15:0] left;

  am_down_counter #(.W(16), .RESET(PERIOD_RESET)) u_left (.clk_i(clk_i), .rst_ni(rst_ni),
    .load_i(done_i || w_gc_period_i), .dec_i(snap_i && (left != 16'd0)),
    .d_i(w_gc_period_i ? wdata_i : period_i), .q_o(left));

  wire low_snap = (free_snap_i < low_o);
  wire low_now  = (free_n_i < low_o);
  assign due_o = (restore_i ? low_snap : low_now) || ((period_i != 16'd0) && (left == 16'd0));

  always @(posedge clk_i) begin
    if (!rst_ni)         low_o <= MAX_CREATES[SLOT_W:0];
    else if (w_gc_low_i) low_o <= wdata_i[SLOT_W:0];
  end
endmodule

`default_nettype wire
