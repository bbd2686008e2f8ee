// am_unit_regs — the actor unit's control registers and its read-back.
//
// Owns: CTRL (run_q) and BEH_COUNT (beh_count_q); the read-back: which value
// every register address reads (docs/actor-unit.md has the map), and the
// read data port (am_unit_rdata).
//
// Promises:
// * CTRL.RUN is 0 after reset, BEH_COUNT is BEH_COUNT_RESET; a write
//   (w_ctrl_i / w_behcnt_i) sets them at the next edge. run_d_o is RUN's
//   value in the next cycle (the bus's busy flag is computed from it).
// * A read returns the addressed register's value as it was in the cycle
//   the read started (rd_acc_i), a cycle later; unmapped addresses read 0.
//   The other modules own the registers; this one only selects.
// * STATS=0: the statistics (SEQ/DISPATCHES, CYCLES, COMMITS, ABORTS/FAULTS,
//   QUEUE_HWM, LIVE, GC_RUNS .. GC_LIVE_MAX) read 0, so their counters have
//   no reader and cost nothing.
`default_nettype none

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
  output wire                 run_d_o,      // ... in the next cycle
  output reg  [BEH_W:0]       beh_count_o,  // BEH_COUNT
  // what the other registers hold
  input  wire                 open_i,       // am_dispatch: a transaction is open
  input  wire [31:0]          self_ref_i,   // ... its target
  input  wire [BEH_W-1:0]     beh_i,        // ... the target's behavior
  input  wire [3:0]           len_i,        // ... the message length
  input  wire [3:0]           slen_i,       // ... self's state length
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
  assign run_d_o = w_ctrl_i ? wdata_i[0] : run_o;
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
  reg [31:0] rd_reg;
  always @(*) begin
    rd_reg = 32'd0;
    case (a)
      8'h00: rd_reg = {11'd0, last_cause_i, 3'd0, cause_i, 3'd0, wd_hold_i, open_i && (cause_i != 5'd0),
                       run_o, q_empty_i, open_i};
      8'h07: rd_reg[WD_W-1:0] = wd_budget_i;
      8'h0C: rd_reg[4:0] = f_cause_i;                     // 0x030 F_CAUSE
      8'h0D: rd_reg = f_code_i;                           // 0x034 F_CODE
      8'h0E: rd_reg = f_target_i;                         // 0x038 F_TARGET
      8'h0F: rd_reg = f_beh_i;                            // 0x03C F_BEH
      8'hB3: rd_reg[3:0] = f_op_i;                        // 0x2CC F_OP
      8'hB4: rd_reg = f_value_i;                          // 0x2D0 F_VALUE
      8'hA8: rd_reg = fh_i;                               // 0x2A0 FAULT_HANDLER
      8'h01: rd_reg = {31'd0, run_o};
      8'h02: rd_reg[BEH_W:0] = beh_count_o;
      8'h03: rd_reg = {29'd0, ext_i};
      8'h04: rd_reg = {new_ref_i[15+SLOT_W:SLOT_W], {(16-SLOT_W){1'b0}}, new_ref_i[SLOT_W-1:0]};
      8'h06, 8'hA7: rd_reg[QUEUE_AW-1:0] = q_count_i;
      8'h08: rd_reg = open_i ? self_ref_i : 32'd0;
      8'h09: rd_reg[BEH_W-1:0] = open_i ? beh_i : {BEH_W{1'b0}};
      8'h0A: rd_reg[3:0] = open_i ? len_i : 4'd0;
      8'h0B, 8'hA1: rd_reg = (STATS != 0) ? seq_i : 32'd0;   // SEQ, DISPATCHES: a statistic
      8'hA0: rd_reg = (STATS != 0) ? cycles_i : 32'd0;
      8'hA2: rd_reg = (STATS != 0) ? commits_i : 32'd0;
      8'hA3, 8'hA4: rd_reg = (STATS != 0) ? aborts_i : 32'd0;
      8'hA5: if (STATS != 0) rd_reg[QUEUE_AW-1:0] = q_hwm_i;   // 0x294 QUEUE_HWM: a statistic
      8'hA6: if (STATS != 0) rd_reg[SLOT_W:0] = live_i;        // 0x298 LIVE: a statistic
      8'hAA: rd_reg[SLOT_W:0] = free_n_i;                  // 0x2A8 FREE_SLOTS
      8'hAC: rd_reg[SLOT_W:0] = gc_low_i;                  // 0x2B0 GC_LOW
      8'hAD: rd_reg[15:0] = gc_period_i;                   // 0x2B4 GC_PERIOD
      8'hAE: if (STATS != 0) rd_reg = gc_runs_i;           // 0x2B8 GC_RUNS
      8'hAF: if (STATS != 0) rd_reg = gc_recl_i;           // 0x2BC GC_RECLAIMED
      8'hB0: if (STATS != 0) rd_reg = gc_cycles_i;         // 0x2C0 GC_CYCLES
      8'hB1: if (STATS != 0) rd_reg = gc_pause_max_i;      // 0x2C4 GC_MAX_PAUSE
      8'hB2: if (STATS != 0) rd_reg[SLOT_W:0] = gc_live_max_i;   // 0x2C8 GC_LIVE_MAX
      default: rd_reg = 32'd0;
    endcase
  end

  am_unit_rdata u_rdata (
    .clk_i(clk_i), .rd_acc_i(rd_acc_i), .a_i(a), .open_i(open_i), .len_i(len_i), .slen_i(slen_i),
    .reg_i(rd_reg), .q_rdata_i(q_rdata_i), .st_rdata_i(st_rdata_i), .rdata_o(rdata_o));
endmodule

`default_nettype wire
