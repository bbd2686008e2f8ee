// am_unit_wdog — the watchdog and the stack guard: a transaction open too
// long, or whose behavior stored below the stack, is aborted, and the unit
// holds until the firmware acknowledges.
//
// Owns: WATCHDOG (the budget, budget_q, and whether it is not 0, on_q), the
// count of the open transaction's cycles (am_down_counter u_rem), the
// over-budget flag (over_q), the hold (hold_q) and whether the stack guard
// caused it (stack_q: then no wd_irq, the SoC restarts the core already).
//
// Promises:
// * A transaction open for WATCHDOG cycles (0 = off) is aborted: fire_o is
//   high for one cycle (the unit gives am_txn the cause WATCHDOG, unless an
//   earlier fault was recorded, and am_dispatch the abort). Then hold_o is
//   high until a WATCHDOG write (the acknowledgement): the unit dispatches
//   nothing, and every other write completes at once and is ignored
//   (am_unit_bus) -- it comes from the abandoned behavior, which may be
//   spinning on the unit; a write that waited instead could keep a core
//   that serves the watchdog between instructions from ever getting there.
//   So a COMMIT racing the abort finds nothing to commit, and nothing the
//   behavior does after the abort reaches the unit.
// * The count is loaded with the budget in every cycle no transaction is
//   open and counts down while one is: after k open cycles it holds
//   budget - k. over_q = (budget != 0 && the transaction has been open for
//   budget cycles), made a cycle ahead from registers (count <= 1): no
//   compare on the bus path, and no comparator at all. So a WATCHDOG write
//   applies from the next transaction on (the firmware writes WATCHDOG only
//   outside transactions).
// * The stack guard (stack_i: the SoC stopped a store below STACK_LIMIT,
//   rtl/am_soc.v) aborts the open transaction the same way, with cause
//   STACK (cause_o), and holds the same way; irq_o (the SoC's watchdog
//   restart) rises only for the watchdog: the guard's store already
//   restarts the core as a bus error. Outside a transaction stack_i does
//   nothing here (the firmware sees the SoC's restart).
// * A WATCHDOG write of 2^WD_W or more sets the largest budget, 2^WD_W - 1.
// * hold_d_o and over_d_o are hold_o's and over_q's next values (the bus's
//   busy flag is computed from them).
`default_nettype none
`include "am_defs.vh"

module am_unit_wdog #(
  parameter integer WD_W = 32   // 2..32
) (
  input  wire            clk_i,
  input  wire            rst_ni,
  input  wire            open_i,     // a transaction is open
  input  wire            stack_i,    // the SoC's stack guard stopped a store
  input  wire            w_wdog_i,   // a WATCHDOG write
  input  wire [31:0]     wdata_i,
  output wire            fire_o,
  output wire [4:0]      cause_o,    // fire_o's: WATCHDOG (15) or STACK (16)
  output wire            over_fire_o,// fire_o of the watchdog alone (predicted a cycle
                                     // ahead by over_d_o; the guard's cannot be)
  output wire            hold_o,
  output wire            irq_o,      // the hold, when the watchdog made it
  output wire            hold_d_o,
  output wire            over_d_o,
  output wire [WD_W-1:0] budget_o
);
  reg  [WD_W-1:0] budget_q;
  reg             on_q;      // budget_q != 0
  reg             hold_q;
  reg             stack_q;
  reg             over_q;
  wire [WD_W-1:0] rem;
  // (bit 0 of the count feeds only its own decrement)
  wire            unused_rem0 = rem[0];

  am_down_counter #(.W(WD_W)) u_rem (.clk_i(clk_i), .rst_ni(rst_ni),
    .load_i(!open_i), .dec_i(1'b1), .d_i(budget_q), .q_o(rem));

  assign fire_o   = open_i && !hold_q && (over_q || stack_i);
  assign cause_o  = over_q ? `AM_FAULT_WATCHDOG : `AM_FAULT_STACK;
  assign over_fire_o = open_i && !hold_q && over_q;
  assign irq_o    = hold_q && !stack_q;
  assign over_d_o = open_i && on_q && (rem[WD_W-1:1] == 0);
  assign hold_d_o = w_wdog_i ? 1'b0 : (fire_o ? 1'b1 : hold_q);
  assign hold_o   = hold_q;
  assign budget_o = budget_q;

  // the budget written, saturated to WD_W bits
  wire [WD_W-1:0] wval;
  generate
    if (WD_W < 32) begin : g_sat
      assign wval = (wdata_i[31:WD_W] != 0) ? {WD_W{1'b1}} : wdata_i[WD_W-1:0];
    end else begin : g_full
      assign wval = wdata_i[WD_W-1:0];
    end
  endgenerate

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      budget_q <= {WD_W{1'b0}};
      on_q     <= 1'b0;
      hold_q   <= 1'b0;
      stack_q  <= 1'b0;
      over_q   <= 1'b0;
    end else begin
      over_q <= over_d_o;
      if (fire_o) hold_q <= 1'b1;   // (with the WATCHDOG write below: hold_d_o)
      if (fire_o) stack_q <= !over_q;
      if (w_wdog_i) begin
        budget_q <= wval;
        on_q     <= (wdata_i != 32'd0);
        hold_q   <= 1'b0;
      end
    end
  end
endmodule

`default_nettype wire
