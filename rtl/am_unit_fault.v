// am_unit_fault — the fault handler and the record of a failed event.
//
// Owns: FAULT_HANDLER (fh_o, and fh_set_o = fh_o != 0), the SET_HANDLER a
// transaction staged (sh_pend_q, and its value in am_reg2x16 u_sh_val), the
// FAIL code and offending value (am_reg2x16 u_code, and the length beside
// it, val_n_q), the fault record of the last failed event (f_cause_q,
// f_op_q, f_beh_q) and STATUS.LAST_CAUSE (last_cause_o).
//
// Promises:
// * FAULT_HANDLER is the console after reset (0x00010000); 0 = none. A
//   FAULT_HANDLER write sets it at once; SET_HANDLER (in a transaction
//   without a fault, its argument AM_NIL or a reference whose slot is
//   inside the table -- else the transaction faults with BAD_REF,
//   set_fh_bad_o) stages a new one, installed when the transaction commits
//   and dropped when it ends otherwise. fh_set_o is kept with it, so the
//   sequencer's paths see a register, not a 32-bit compare.
// * The fault record is latched at the end of an aborted transaction that
//   was not itself a fault delivery: cause (end_cause_o: DEAD_TARGET for a
//   dead target, else the transaction's), operation (end_op_o: DISPATCH,
//   8, for a dead target, else am_txn's op_i), behavior, target. F_CAUSE .. F_BEH,
//   F_OP and F_VALUE (f_*_o, as they read) show it while the fault
//   delivery is open, 0 otherwise.
// * F_VALUE, the offending value (docs/semantics.md, "Fault records"), and
//   F_CODE come from one register, u_code: it takes the data of every
//   write of a transaction that is not a fault delivery, until the
//   transaction's first fault (code_we), and val_n_q the write's length
//   (mem_addr[5:2]); so after the fault they hold the faulting write's --
//   SEND's BAD_REF included, which is found in the cycle after its write,
//   when no write can come -- and a delivery (whose own faults are not
//   delivered) leaves them alone while it reads them. F_VALUE reads the
//   length for MSG_TOO_LONG / STATE_TOO_LONG, the word for the other
//   faults of SEND, CREATE, BECOME, SET_HANDLER and ABORT, and 0 for
//   COMMIT, RUN and DISPATCH. F_CODE reads the word for FAIL (the
//   ABORT[0] / ABORT[1] store's code), else 0.
// * LAST_CAUSE: the cause of the last aborted transaction (deliveries too).
// * TRACE=1 checks fh_set_o against FAULT_HANDLER != 0 every cycle.
`default_nettype none
`include "am_defs.vh"

module am_unit_fault #(
  parameter integer SLOT_W = 7,
  parameter integer BEH_W  = 8,
  parameter integer TRACE  = 0
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire [31:0]      wdata_i,
  input  wire [3:0]       a_n_i,        // the address' word count / cause (mem_addr[5:2])
  input  wire             wr_do_i,      // a bus write takes effect
  input  wire             w_fh_i,       // a FAULT_HANDLER write
  input  wire             a_set_fh_i,   // SET_HANDLER addressed ...
  input  wire             w_set_fh_i,   // ... and written
  input  wire             w_abort_i,    // an ABORT write
  input  wire             w_inrange_i,  // the written reference's slot is inside the table
  input  wire [4:0]       cause_i,      // am_txn: the open transaction's fault
  input  wire [2:0]       op_i,         // ... and its operation
  input  wire             open_i,       // am_dispatch: a transaction is open,
  input  wire             fault_i,      // ... a fault delivery
  input  wire             end_i,        // ... the transaction ends,
  input  wire             commit_i,     // ... by a commit
  input  wire             dead_i,       // ... its target was dead
  input  wire [BEH_W-1:0] beh_i,        // ... its target's behavior
  input  wire [31:0]      target_i,     // ... its target (am_dispatch: for a dead one, the event's)
  output reg  [31:0]      fh_o,         // FAULT_HANDLER
  output reg              fh_set_o,     // ... != 0
  output wire             set_fh_go_o,  // SET_HANDLER accepted
  output wire             set_fh_bad_o, // ... refused: BAD_REF
  output wire             abort_code_o, // the first fault is FAIL: the written code is its code
  output wire [4:0]       end_cause_o,
  output wire [3:0]       end_op_o,
  output reg  [4:0]       last_cause_o,
  output wire [4:0]       f_cause_o,    // F_CAUSE .. F_BEH
  output wire [31:0]      f_code_o,
  output wire [31:0]      f_target_o,
  output wire [31:0]      f_beh_o,
  output wire [3:0]       f_op_o,       // F_OP
  output wire [31:0]      f_value_o     // F_VALUE
);
  reg              sh_pend_q;
  reg  [4:0]       f_cause_q;
  reg  [3:0]       f_op_q;       // 8: DISPATCH, the target was dead
  reg  [BEH_W-1:0] f_beh_q;
  reg  [15:0]      f_gen_q;
  reg  [SLOT_W-1:0] f_slot_q;
  reg  [3:0]       val_n_q;
  wire [15:0]      sh_gen, sh_lo;
  wire [31:0]      code_q;

  wire fh_arg_ok = (wdata_i == 32'd0) || w_inrange_i;   // AM_NIL or inside the table
  assign set_fh_go_o  = w_set_fh_i && (cause_i == 5'd0) && fh_arg_ok;
  assign set_fh_bad_o = a_set_fh_i && !fh_arg_ok;
  assign abort_code_o = w_abort_i && cause_i == 5'd0 && (a_n_i == 4'd1 || a_n_i == 4'd0);
  assign end_cause_o  = dead_i ? `AM_FAULT_DEAD_TARGET : cause_i;
  assign end_op_o     = dead_i ? 4'd8 : {1'b0, op_i};   // DISPATCH, else the staged op (enum am_fault_op)

  // the staged SET_HANDLER, {generation, slot}, and the FAIL code
  am_reg2x16 u_sh_val (.clk_i(clk_i), .rst_ni(rst_ni),
    .hi_en_i(set_fh_go_o), .hi_d_i(wdata_i[31:16]), .hi_q_o(sh_gen),
    .lo_en_i(set_fh_go_o), .lo_d_i({{(16-SLOT_W){1'b0}}, wdata_i[SLOT_W-1:0]}), .lo_q_o(sh_lo));
  wire [SLOT_W-1:0] sh_slot = sh_lo[SLOT_W-1:0];
  wire unused_sh_lo = ^sh_lo[15:SLOT_W];   // written 0
  wire code_we = wr_do_i && open_i && !fault_i && cause_i == 5'd0;
  am_reg2x16 u_code (.clk_i(clk_i), .rst_ni(rst_ni),
    .hi_en_i(code_we), .hi_d_i(wdata_i[31:16]), .hi_q_o(code_q[31:16]),
    .lo_en_i(code_we), .lo_d_i(wdata_i[15:0]),  .lo_q_o(code_q[15:0]));

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      fh_o      <= 32'h0001_0000;
      fh_set_o  <= 1'b1;
      sh_pend_q <= 1'b0;
    end else begin
      if (w_fh_i) begin
        fh_o     <= wdata_i;
        fh_set_o <= (wdata_i != 32'd0);
      end
      if (set_fh_go_o) sh_pend_q <= 1'b1;
      if (end_i) begin
        if (commit_i && sh_pend_q) begin
          fh_o     <= {sh_gen, {(16-SLOT_W){1'b0}}, sh_slot};
          fh_set_o <= ({sh_gen, sh_slot} != 0);
        end
        sh_pend_q <= 1'b0;
      end
    end
  end

  always @(posedge clk_i) begin
    if (end_i && !commit_i && !fault_i) begin
      f_cause_q <= end_cause_o;
      f_op_q    <= end_op_o;
      f_beh_q   <= beh_i;
      f_gen_q   <= target_i[31:16];
      f_slot_q  <= target_i[SLOT_W-1:0];
    end
  end

  always @(posedge clk_i) begin
    if (code_we) val_n_q <= a_n_i;
  end

  always @(posedge clk_i) begin
    if (!rst_ni)                 last_cause_o <= 5'd0;
    else if (end_i && !commit_i) last_cause_o <= end_cause_o;
  end

  // what F_CAUSE .. F_BEH read: the record while its delivery is open
  wire f_open = open_i && fault_i;
  assign f_cause_o  = f_open ? f_cause_q : 5'd0;
  assign f_code_o   = (f_open && f_cause_q == `AM_FAULT_FAIL) ? code_q : 32'd0;
  assign f_target_o = f_open ? {f_gen_q, {(16-SLOT_W){1'b0}}, f_slot_q} : 32'd0;
  assign f_beh_o    = !f_open ? 32'd0 : f_op_q[3] ? 32'hFFFF_FFFF : {{(32-BEH_W){1'b0}}, f_beh_q};
  assign f_op_o     = f_open ? f_op_q : 4'd0;
  wire f_has_val = f_open && f_op_q != 4'd0 && f_op_q < 4'd6;   // SEND .. ABORT
  wire f_len     = f_cause_q == `AM_FAULT_MSG_TOO_LONG || f_cause_q == `AM_FAULT_STATE_TOO_LONG;
  assign f_value_o  = !f_has_val ? 32'd0 : f_len ? {28'd0, val_n_q} : code_q;
  wire unused_target = ^target_i[15:SLOT_W];   // 0: a slot is SLOT_W bits

  generate
    if (TRACE != 0) begin : g_check
      always @(posedge clk_i) begin
        if (rst_ni && fh_set_o != (fh_o != 32'd0)) begin
          $display("am_unit_fault: fh_set_o = %0d, FAULT_HANDLER %08x", fh_set_o, fh_o);
          $stop;
        end
      end
    end
  endgenerate
endmodule

`default_nettype wire
