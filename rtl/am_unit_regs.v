// am_unit_regs — the actor unit's control registers and its read-back.
//
// Owns: CTRL (run_o) and BEH_COUNT (beh_count_o); the read-back: which value
// every register address reads (docs/actor-unit.md has the map), and the
// read data port (am_unit_rdata): MSG and STATE words are self's while a
// transaction is open, and between transactions no message and the
// console's state words (the window am_unit_con keeps the length of).
//
// Promises:
// * CTRL.RUN is 0 after reset, BEH_COUNT is BEH_COUNT_RESET; a write
//   (w_ctrl_i / w_behcnt_i) sets them at the next edge.
// * A read returns the addressed register's value as it was in the cycle
//   the read started (rd_acc_i), a cycle later; unmapped addresses read 0.
//   The other modules own the registers; this one only selects.
// * STATS=0: the statistics (SEQ/DISPATCHES, CYCLES, COMMITS, ABORTS/FAULTS,
//   QUEUE_HWM, LIVE, GC_RUNS .. GC_LIVE_MAX) read 0, so their counters have
//   no reader and cost nothing.
`default_nettype none
`include "am_defs.vh"

module am_unit_regs #(
  parameter integer SLOT_W          = 7,
  parameter integer QUEUE_AW        = 6,
  parameter integer BEH_W           = 8,
  parameter integer BEH_COUNT_RESET = 3,
  parameter integer WD_W            = 32,
  parameter integer STATS           = 1
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire [7:0]           a_i,          // mem_addr[9:2]
  input  wire [BEH_W:0]       wdata_i,      // the written value's low bits
  input  wire                 w_ctrl_i,
  input  wire                 w_behcnt_i,
  output reg                  run_o,        // CTRL.RUN
  output reg  [BEH_W:0]       beh_count_o,  // BEH_COUNT
  // what the other registers hold
  input  wire                 open_i,       // am_dispatch: a transaction is open
  input  wire [31:0]          self_ref_i,   // ... its target
  input  wire [BEH_W-1:0]     beh_i,        // ... the target's behavior
  input  wire [3:0]           len_i,        // ... the message length
  input  wire [3:0]           slen_i,       // ... self's state length
  input  wire [3:0]           con_slen_i,   // am_unit_con: the console's, between transactions
  input  wire [31:0]          seq_i,        // ... the sequence number
  input  wire [4:0]           cause_i,      // am_txn: the open transaction's fault
  input  wire                 q_empty_i,    // am_event_queue
  input  wire [QUEUE_AW-1:0]  q_count_i,
  input  wire [QUEUE_AW-1:0]  q_hwm_i,
  input  wire [SLOT_W:0]      free_n_i,     // am_actor_table: FREE_SLOTS
  input  wire [2:0]           ext_i,        // am_unit_ext: EXT_STATUS
  input  wire [16+SLOT_W-1:0] new_ref_i,    // ... NEW_REF, {generation, slot}
  input  wire                 wd_hold_i,    // am_unit_wdog
  input  wire [WD_W-1:0]      wd_budget_i,
  input  wire [31:0]          fh_i,         // am_unit_fault: FAULT_HANDLER
  input  wire [4:0]           last_cause_i,
  input  wire [4:0]           f_cause_i,    // ... F_CAUSE .. F_BEH as they read
  input  wire [31:0]          f_code_i,
  input  wire [31:0]          f_target_i,
  input  wire [31:0]          f_beh_i,
  input  wire [3:0]           f_op_i,       // ... F_OP, F_VALUE
  input  wire [31:0]          f_value_i,
  input  wire [SLOT_W:0]      gc_low_i,     // am_unit_gctrig: GC_LOW
  input  wire [15:0]          gc_period_i,  // GC_PERIOD
  input  wire [31:0]          cycles_i,     // am_unit_stats
  input  wire [31:0]          commits_i,
  input  wire [31:0]          aborts_i,
  input  wire [SLOT_W:0]      live_i,
  input  wire [31:0]          gc_runs_i,
  input  wire [31:0]          gc_recl_i,
  input  wire [31:0]          gc_cycles_i,
  input  wire [31:0]          gc_pause_max_i,
  input  wire [SLOT_W:0]      gc_live_max_i,
  // the read
  input  wire                 rd_acc_i,     // a read starts (am_unit_bus)
  input  wire [31:0]          q_rdata_i,    // a message word, the cycle after
  input  wire [31:0]          st_rdata_i,   // a state word, the cycle after
  output wire [31:0]          rdata_o
);
  wire [7:0] a = a_i;

  // ---------------------------------------------------------------- CTRL, BEH_COUNT
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      run_o       <= 1'b0;
      beh_count_o <= BEH_COUNT_RESET[BEH_W:0];
    end else begin
      if (w_ctrl_i)   run_o <= wdata_i[0];
      if (w_behcnt_i) beh_count_o <= wdata_i[BEH_W:0];
    end
  end

  // ---------------------------------------------------------------- read-back
  // STATUS and CTRL from their fields (include/am_iface.def), whole words
  // before the case: a case arm that sets single bits costs yosys ~15 LUTs
  reg [31:0] status_w, ctrl_w;
  always @(*) begin
    status_w = 32'd0;
    status_w[`AM_AU_STATUS_EVENT]       = open_i;
    status_w[`AM_AU_STATUS_QUEUE_EMPTY] = q_empty_i;
    status_w[`AM_AU_STATUS_RUN]         = run_o;
    status_w[`AM_AU_STATUS_FAULTED]     = open_i && (cause_i != `AM_FAULT_NONE);
    status_w[`AM_AU_STATUS_WD_HOLD]     = wd_hold_i;
    status_w[`AM_AU_STATUS_CAUSE]       = cause_i;
    status_w[`AM_AU_STATUS_LAST_CAUSE]  = last_cause_i;
    ctrl_w = 32'd0;
    ctrl_w[`AM_AU_CTRL_RUN] = run_o;
  end
  reg [31:0] rd_reg;
  always @(*) begin
    rd_reg = 32'd0;
    case (a)
      `AM_AU_STATUS: rd_reg = status_w;
      `AM_AU_WATCHDOG: rd_reg[WD_W-1:0] = wd_budget_i;
      `AM_AU_F_CAUSE: rd_reg[4:0] = f_cause_i;
      `AM_AU_F_CODE: rd_reg = f_code_i;
      `AM_AU_F_TARGET: rd_reg = f_target_i;
      `AM_AU_F_BEH: rd_reg = f_beh_i;
      `AM_AU_F_OP: rd_reg[3:0] = f_op_i;
      `AM_AU_F_VALUE: rd_reg = f_value_i;
      `AM_AU_FAULT_HANDLER: rd_reg = fh_i;
      `AM_AU_CTRL: rd_reg = ctrl_w;
      `AM_AU_BEH_COUNT: rd_reg[BEH_W:0] = beh_count_o;
      `AM_AU_EXT_STATUS: rd_reg = {29'd0, ext_i};
      `AM_AU_NEW_REF: rd_reg = {new_ref_i[15+SLOT_W:SLOT_W], {(16-SLOT_W){1'b0}}, new_ref_i[SLOT_W-1:0]};
      `AM_AU_QUEUED, `AM_AU_QUEUED2: rd_reg[QUEUE_AW-1:0] = q_count_i;
      `AM_AU_SELF: rd_reg = open_i ? self_ref_i : 32'd0;
      `AM_AU_BEH: rd_reg[BEH_W-1:0] = open_i ? beh_i : {BEH_W{1'b0}};
      `AM_AU_MSG_LEN: rd_reg[3:0] = open_i ? len_i : 4'd0;
      `AM_AU_SEQ, `AM_AU_DISPATCHES: rd_reg = (STATS != 0) ? seq_i : 32'd0;   // SEQ, DISPATCHES: a statistic
      `AM_AU_CYCLES: rd_reg = (STATS != 0) ? cycles_i : 32'd0;
      `AM_AU_COMMITS: rd_reg = (STATS != 0) ? commits_i : 32'd0;
      `AM_AU_ABORTS, `AM_AU_FAULTS: rd_reg = (STATS != 0) ? aborts_i : 32'd0;
      `AM_AU_QUEUE_HWM: if (STATS != 0) rd_reg[QUEUE_AW-1:0] = q_hwm_i;
      `AM_AU_LIVE: if (STATS != 0) rd_reg[SLOT_W:0] = live_i;
      `AM_AU_FREE_SLOTS: rd_reg[SLOT_W:0] = free_n_i;
      `AM_AU_GC_LOW: rd_reg[SLOT_W:0] = gc_low_i;
      `AM_AU_GC_PERIOD: rd_reg[15:0] = gc_period_i;
      `AM_AU_GC_RUNS: if (STATS != 0) rd_reg = gc_runs_i;
      `AM_AU_GC_RECLAIMED: if (STATS != 0) rd_reg = gc_recl_i;
      `AM_AU_GC_CYCLES: if (STATS != 0) rd_reg = gc_cycles_i;
      `AM_AU_GC_MAX_PAUSE: if (STATS != 0) rd_reg = gc_pause_max_i;
      `AM_AU_GC_LIVE_MAX: if (STATS != 0) rd_reg[SLOT_W:0] = gc_live_max_i;
      default: rd_reg = 32'd0;
    endcase
  end

  // MSG and STATE words: inside a transaction self's message and state;
  // between transactions no message and the console's state (am_unit_con)
  wire [3:0] r_len  = open_i ? len_i : 4'd0;
  wire [3:0] r_slen = open_i ? slen_i : con_slen_i;
  am_unit_rdata u_rdata (
    .clk_i(clk_i), .rd_acc_i(rd_acc_i), .a_i(a), .open_i(1'b1), .len_i(r_len), .slen_i(r_slen),
    .reg_i(rd_reg), .q_rdata_i(q_rdata_i), .st_rdata_i(st_rdata_i), .rdata_o(rdata_o));
endmodule

`default_nettype wire
