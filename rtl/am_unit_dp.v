// am_unit_dp — the dispatch point: where the core asks for its next
// behavior, and gets it as a jump.
//
// The firmware never loops over events. Every behavior is entered with its
// return address at the dispatch point, 0x000F_FFF8 (DISPATCH_PC in
// include/am_iface.def), so its `ret` fetches an instruction from
// there. That fetch is the dispatch point: it ends the open transaction as
// a COMMIT write would, the sequencer dispatches the next event, and the SoC
// completes it with `auipc ra, 0` and the next word with `lui sp,
// STACK_TOP`; the core's fetch of the third word (1 MiB) gets the answer,
// the word of the firmware's dispatch table (in RAM) for the event's
// behavior -- a `jal x0` to that behavior's function. The core runs it with
// ra at the dispatch point, and so on: no firmware runs between two
// transactions (docs/firmware.md, "The dispatch point"). This module sees
// the first fetch; the others are the SoC's (rtl/am_soc.v), which completes
// the third once rd_o has read the answer.
//
// Owns: the dispatch point's accept (acc_q, like the bus's registered write
// accept), the waiting fetch (pend_q), the cycle in which the answered fetch
// completes (done_q) and whether the last answer was the device entry
// (served_q).
//
// Promises:
// * A fetch of DISPATCH is accepted (acc_o) in its first cycle in which the
//   unit is not busy (the same rule as a write: a staging operation in
//   flight finishes first); the SoC completes it in the next cycle. If a
//   transaction is open and no watchdog hold is on, the accept commits it
//   (commit_o: as a COMMIT write; a recorded fault or a full queue makes it
//   an abort, exactly as for COMMIT).
// * While an accepted fetch waits (pend_q), the sequencer may dispatch
//   (demand_o, from the accepting cycle on); it dispatches only then, so
//   nothing starts behind the
//   firmware's back between transactions. Fault deliveries, collections on
//   demand and periodic collections all happen inside one wait; the fetch
//   is answered once (the SoC's fetch of the third word takes it), with one of
//   (rd_o, idx_o, retry_o):
//     - in CHECK, the behavior id of the transaction about to open if its
//       target is live (the transaction is open from the next cycle on);
//       else RETRY (retry_o, idx_o = -1): the event is dead, the sequencer
//       goes on without a transaction, and the SoC answers with a jump to
//       DISPATCH itself -- the core fetches it again, a new accept. CHECK answers in either case, so the answer (and the
//       fetch's ready behind it) does not wait for the target's check,
//       which on the ECP5 and the iCE40 did not fit the cycle behind the
//       actor table's read; a dead event (a message to a collected actor)
//       costs the core's jump and a fetch;
//     - DEVICE (-2): a device asks for the firmware (dev_i) and the last
//       answer was not DEVICE -- the sequencer stays idle, the firmware's
//       device routine runs between transactions and returns to DISPATCH;
//       so a device gets its turn at most once per dispatch and never
//       starves the actors;
//     - IDLE (-1): the sequencer is idle with nothing to dispatch (queue
//       empty, no fault delivery pending, or dispatching stopped).
//   rd_o is high for one cycle: the SoC reads the entry then, and the
//   answer's fetch completes in the next (or when it comes).
// * A data access of DISPATCH is not this module's: the SoC makes it a bus
//   error (dp_instr_i low: never accepted).
// Cycles (measured by the unit bench, make rtl-test): the fetch completes
// in its 3rd cycle after a commit without creates or BECOME whose next
// event is queued (accept, commit and END+FETCH: am_dispatch's QUICK; CHECK
// and the table read; completion), and in its 4th from idle; after CREATEs
// or a BECOME in its 4th + ncreates + 1 + n + 1 (n: the BECOME's length).
`default_nettype none

module am_unit_dp #(
  parameter integer BEH_W = 8
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             restart_i,   // the SoC restarts the core: a waiting fetch is gone
  input  wire             dp_next_i,   // a fetch of DISPATCH is presented next cycle (or goes on)
  input  wire             dp_instr_i,  // the access presented is an instruction fetch
  input  wire             busy_d_i,    // am_unit_bus: the unit is busy next cycle
  input  wire             open_i,      // am_dispatch: a transaction is open
  input  wire             wd_hold_i,   // am_unit_wdog: a watchdog hold (no commit then)
  input  wire             disp_i,      // am_dispatch: CHECK ...
  input  wire             chk_ok_i,    // ... with a live target ...
  input  wire [BEH_W-1:0] chk_beh_i,   // ... of this behavior
  input  wire             idle_i,      // am_dispatch: the sequencer is idle ...
  input  wire             nothing_i,   // ... with nothing to dispatch
  input  wire             dev_i,       // a device asks for the firmware
  output wire             acc_o,       // the fetch is accepted (the SoC completes it next cycle)
  output wire             commit_o,
  output wire             demand_o,
  output wire             rd_o,
  output wire             retry_o,     // ... the answer is RETRY (with rd_o)
  output wire             wait_o,      // a fetch waits (pend_q): the core announces no other access
  output wire             sel_beh_o,   // an answer now would be a behavior's (CHECK: idx_o >= 0) ...
  output wire             sel_dev_o,   // ... else DEVICE's, else IDLE's -- none waits for the check
  output wire [BEH_W+1:0] idx_o        // two's complement: a behavior id, -1 IDLE, -2 DEVICE
);
  localparam [BEH_W+1:0] IDX_IDLE = {(BEH_W+2){1'b1}}, IDX_DEVICE = {{(BEH_W+1){1'b1}}, 1'b0};

  reg acc_q, pend_q, done_q, served_q;
  wire accept   = acc_q && dp_instr_i && !pend_q && !done_q;
  wire dev_take = dev_i && !served_q;
  wire ans_beh  = disp_i && chk_ok_i;
  wire ans_dev  = idle_i && dev_take;
  assign acc_o    = accept;
  assign commit_o = accept && open_i && !wd_hold_i;
  assign demand_o = (pend_q || accept) && !dev_take;   // (from the accept on: QUICK commits)
  assign rd_o     = pend_q && (disp_i || ans_dev || (idle_i && nothing_i));
  assign retry_o  = disp_i && !chk_ok_i;
  assign wait_o   = pend_q;
  assign sel_beh_o = disp_i;     // (CHECK and IDLE exclude each other)
  assign sel_dev_o = dev_take;
  assign idx_o    = ans_beh ? {2'b00, chk_beh_i} : ans_dev ? IDX_DEVICE : IDX_IDLE;

  always @(posedge clk_i) begin
    if (!rst_ni || restart_i) begin
      acc_q    <= 1'b0;
      pend_q   <= 1'b0;
      done_q   <= 1'b0;
      served_q <= 1'b0;
    end else begin
      acc_q  <= dp_next_i && !busy_d_i;
      done_q <= rd_o;
      if (accept) pend_q <= 1'b1;
      else if (rd_o) pend_q <= 1'b0;
      if (rd_o) served_q <= ans_dev;
    end
  end
endmodule

`default_nettype wire
