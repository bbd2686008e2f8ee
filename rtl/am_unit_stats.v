// am_unit_stats — the statistics counters.
//
// Owns: CYCLES, COMMITS, ABORTS (= FAULTS), LIVE and the collector's
// GC_RUNS, GC_RECLAIMED, GC_CYCLES, GC_MAX_PAUSE (with the pause in
// progress) and GC_LIVE_MAX.
//
// Promises:
// * CYCLES counts every cycle after reset; COMMITS / ABORTS every
//   transaction that ends so (dead targets abort too); LIVE the live actors
//   with the console: +ncreates at a commit, +1 a SPAWN, -1 a FREE, and
//   what a collection leaves (live_after_o = LIVE - reclaimed, valid with
//   gc_done_i). The GC counters add up each collection at its end: runs,
//   reclaimed actors, its cycles; the longest and the most live actors
//   after one.
// * STATS=0: the counters stay at their reset values and am_unit_regs reads
//   them as 0, so synthesis keeps none of them (small FPGA builds); LIVE
//   still counts for the trace port's GC records (TRACE=1).
`default_nettype none

module am_unit_stats #(
  parameter integer SLOT_W      = 7,
  parameter integer MAX_CREATES = 4,
  parameter integer STATS       = 1,
  parameter integer CW          = $clog2(MAX_CREATES + 1)   // derived (the unit passes it)
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             end_i,        // am_dispatch: a transaction ends,
  input  wire             commit_i,     // ... by a commit
  input  wire [CW-1:0]    ncreates_i,   // am_txn: its creates
  input  wire             spawn_i,      // am_unit_ext: a SPAWN's second cycle
  input  wire             free_i,       // ... a FREE that frees
  input  wire             gc_i,         // am_dispatch: the collector runs
  input  wire             gc_done_i,    // am_gc: ... and ends,
  input  wire [SLOT_W:0]  reclaimed_i,  // ... having reclaimed so many
  output reg  [31:0]      cycles_o,
  output reg  [31:0]      commits_o,
  output reg  [31:0]      aborts_o,
  output reg  [SLOT_W:0]  live_o,
  output wire [SLOT_W:0]  live_after_o,
  output reg  [31:0]      gc_runs_o,
  output reg  [31:0]      gc_recl_o,
  output reg  [31:0]      gc_cycles_o,
  output reg  [31:0]      gc_pause_max_o,
  output reg  [SLOT_W:0]  gc_live_max_o
);
  reg [31:0] gc_pause_q;
  assign live_after_o = live_o - reclaimed_i;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      cycles_o  <= 32'd0;
      commits_o <= 32'd0;
      aborts_o  <= 32'd0;
      live_o    <= {{SLOT_W{1'b0}}, 1'b1};
    end else begin
      if (STATS != 0) cycles_o <= cycles_o + 1'b1;
      if (end_i && commit_i) begin
        if (STATS != 0) commits_o <= commits_o + 1'b1;
        live_o <= live_o + {{(SLOT_W+1-CW){1'b0}}, ncreates_i};
      end
      if (end_i && !commit_i && STATS != 0) aborts_o <= aborts_o + 1'b1;
      if (spawn_i)   live_o <= live_o + 1'b1;
      if (free_i)    live_o <= live_o - 1'b1;
      if (gc_done_i) live_o <= live_after_o;
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      gc_runs_o      <= 32'd0;
      gc_recl_o      <= 32'd0;
      gc_cycles_o    <= 32'd0;
      gc_pause_q     <= 32'd0;
      gc_pause_max_o <= 32'd0;
      gc_live_max_o  <= {(SLOT_W+1){1'b0}};
    end else if (STATS != 0) begin
      if (gc_i) begin
        gc_cycles_o <= gc_cycles_o + 1'b1;
        gc_pause_q  <= gc_pause_q + 1'b1;
      end
      if (gc_done_i) begin
        gc_runs_o  <= gc_runs_o + 1'b1;
        gc_recl_o  <= gc_recl_o + {{(31-SLOT_W){1'b0}}, reclaimed_i};
        gc_pause_q <= 32'd0;
        if (gc_pause_q + 1'b1 > gc_pause_max_o) gc_pause_max_o <= gc_pause_q + 1'b1;
        if (live_after_o > gc_live_max_o) gc_live_max_o <= live_after_o;
      end
    end
  end
endmodule

`default_nettype wire
