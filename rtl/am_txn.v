// am_txn — transaction staging bookkeeping and the fault rule.
//
// Owns: the per-transaction counters (sends, creates), the list of slots
// created by this transaction, the staged BECOME (behavior, length; its
// words live in the actor table's BECOME buffer), and the transaction's
// fault cause and the operation that raised it (op_o).
//
// Promises (docs/semantics.md, "One transaction per dispatch"):
// * Checks run in the contract's order:
//   CREATE: BAD_BEHAVIOR, STATE_TOO_LONG, TOO_MANY_CREATES, TABLE_FULL;
//   SEND:   MSG_TOO_LONG, TOO_MANY_SENDS, then BAD_REF (resolved one cycle
//           later through ref_chk_i / ref_ok_i by the caller);
//   BECOME: BAD_BEHAVIOR, STATE_TOO_LONG (last BECOME wins);
//   a state word (BECOME_W[i], am_set_state): none (i < STATE_WORDS: the
//   bus drops the others).
// * Self's next state: become_o says one is staged -- by BECOME[n]
//   (become_set_o, behavior and n) or by state words alone --; dirty_o the
//   words written since the last BECOME[n] (its own n words among them: the
//   firmware writes them before it, and a BECOME[n] forgets the words at or
//   past n), blen_o the next state's length so far (n, or the highest word
//   written + 1, whichever is more). am_dispatch's BEC writes the dirty
//   words, zeroes the others at or past the old length (without a BECOME:
//   self's), keeps the rest.
//   FAIL and the firmware's aborts via bfail_i, the unit's own (the
//   watchdog) via afail_i; QUEUE_FULL via qfull_i when a commit is asked
//   (commit_i: a COMMIT write, or the dispatch point, which is no bus write).
// * The first fault wins: once cause_o != 0, no operation is accepted
//   (the *_go_o outputs stay low) and the cause never changes until clear_i.
// * op_o, written with the cause, names the operation that raised it
//   (docs/semantics.md, "Fault records"): 1 SEND (its checks, BAD_REF in
//   its second cycle), 2 CREATE, 3 BECOME, 4 SET_HANDLER (bfail_fh_i),
//   5 ABORT (the firmware's ABORT[c]: FAIL, a trap), 6 COMMIT (QUEUE_FULL),
//   7 RUN (the unit's own abort: afail_i); 0 while there is no fault.
// * Bus operations (send_i, create_i, become_i, bfail_i) are
//   decoded from the address alone and take effect only with stb_i (the bus
//   write is accepted this cycle): the strobe, which depends on the bus
//   handshake, meets the decoded checks at the last gate. ref_chk_i (an
//   older SEND's second cycle) and afail_i (the watchdog) never coincide
//   with stb_i (the unit is busy in those cycles); they take priority.
// * The BECOME words are staged in a buffer of their own (am_actor_table,
//   bw_*) so that self's state as of dispatch stays untouched until the
//   commit copies them.
`default_nettype none
`include "am_defs.vh"

module am_txn #(
  parameter integer MSG_WORDS   = 8,
  parameter integer STATE_WORDS = 8,
  parameter integer MAX_SENDS   = 8,
  parameter integer MAX_CREATES = 4,
  parameter integer SLOT_W      = 7,
  parameter integer BEH_W       = 8
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire                 clear_i,
  input  wire                 stb_i,       // a bus write takes effect this cycle
  // SEND
  input  wire                 send_i,
  input  wire [3:0]           send_n_i,
  output wire                 send_go_o,
  input  wire                 ref_chk_i,
  input  wire                 ref_ok_i,
  // CREATE
  input  wire                 create_i,
  input  wire [3:0]           create_n_i,
  input  wire                 create_beh_ok_i,
  input  wire                 alloc_ok_i,
  input  wire [SLOT_W-1:0]    create_slot_i,
  output wire                 create_go_o,
  // BECOME
  input  wire                 become_i,
  input  wire [3:0]           become_n_i,
  input  wire                 become_beh_ok_i,
  input  wire [BEH_W-1:0]     become_beh_i,
  output wire                 become_go_o,
  input  wire                 bword_i,     // a state word is written (BECOME_W[i], i < STATE_WORDS) ...
  input  wire [SIW-1:0]       bword_idx_i, // ... word i
  // aborts: by a bus write (ABORT, a bad SET_HANDLER), by the unit itself
  // (the watchdog), and QUEUE_FULL at COMMIT
  input  wire                 bfail_i,
  input  wire [3:0]           bfail_cause_i,
  input  wire                 bfail_fh_i,  // ... the bus failure is a refused SET_HANDLER
  input  wire                 afail_i,
  input  wire [4:0]           afail_cause_i,
  input  wire                 commit_i,    // a commit is asked ...
  input  wire                 qfull_i,     // ... and the staged sends do not fit
  // state
  output reg  [4:0]           cause_o,
  output reg  [2:0]           op_o,
  output reg  [SW-1:0]        nsends_o,
  output reg  [CW-1:0]        ncreates_o,
  input  wire [CIW-1:0]       cre_idx_i,
  output wire [SLOT_W-1:0]    cre_slot_o,
  output wire                 become_o,
  output reg                  become_set_o,
  output reg  [BEH_W-1:0]     become_beh_o,
  output reg  [3:0]           become_n_o,
  output reg  [STATE_WORDS-1:0] dirty_o,
  output reg  [3:0]           blen_o
);
  localparam integer SIW = $clog2(STATE_WORDS);
  localparam integer SW  = $clog2(MAX_SENDS + 1);
  localparam integer CW  = $clog2(MAX_CREATES + 1);
  localparam integer CIW = $clog2(MAX_CREATES);

  localparam [4:0] F_FAIL = `AM_FAULT_FAIL, F_BAD_REF = `AM_FAULT_BAD_REF,
                   F_BAD_BEH = `AM_FAULT_BAD_BEHAVIOR, F_MSG_LONG = `AM_FAULT_MSG_TOO_LONG,
                   F_STATE_LONG = `AM_FAULT_STATE_TOO_LONG, F_MANY_SENDS = `AM_FAULT_TOO_MANY_SENDS,
                   F_MANY_CREATES = `AM_FAULT_TOO_MANY_CREATES, F_TABLE_FULL = `AM_FAULT_TABLE_FULL,
                   F_QUEUE_FULL = `AM_FAULT_QUEUE_FULL;

  wire ok = (cause_o == `AM_FAULT_NONE);

  wire send_long    = (send_n_i > MSG_WORDS[3:0]);
  wire send_many    = (nsends_o == MAX_SENDS[SW-1:0]);
  wire create_long  = (create_n_i > STATE_WORDS[3:0]);
  wire create_many  = (ncreates_o == MAX_CREATES[CW-1:0]);
  wire become_long  = (become_n_i > STATE_WORDS[3:0]);

  assign send_go_o   = ok && stb_i && send_i && !send_long && !send_many;
  assign create_go_o = ok && stb_i && create_i && create_beh_ok_i && !create_long && !create_many &&
                       alloc_ok_i;
  assign become_go_o = ok && stb_i && become_i && become_beh_ok_i && !become_long;

  // The cause the bus operation presented would record (0 = none), from the
  // address decode and the checks alone.
  reg [4:0] bfault;
  always @(*) begin
    bfault = 5'd0;
    if (send_i) begin
      if (send_long)      bfault = F_MSG_LONG;
      else if (send_many) bfault = F_MANY_SENDS;
    end else if (create_i) begin
      if (!create_beh_ok_i)  bfault = F_BAD_BEH;
      else if (create_long)  bfault = F_STATE_LONG;
      else if (create_many)  bfault = F_MANY_CREATES;
      else if (!alloc_ok_i)  bfault = F_TABLE_FULL;
    end else if (become_i) begin
      if (!become_beh_ok_i)  bfault = F_BAD_BEH;
      else if (become_long)  bfault = F_STATE_LONG;
    end else if (bfail_i) begin
      bfault = (bfail_cause_i == 4'd0) ? F_FAIL : {1'b0, bfail_cause_i};
    end
  end
  // This cycle's fault (0 = none).
  wire qfull = commit_i && qfull_i;
  wire [4:0] fault = (ref_chk_i && !ref_ok_i) ? F_BAD_REF :
                     afail_i                 ? afail_cause_i :
                     qfull                   ? F_QUEUE_FULL :
                     stb_i                   ? bfault : 5'd0;
  // ... and its operation (recorded only with a fault, so the bus cases
  // need no check of their own)
  localparam [2:0] O_SEND = 3'd1, O_CREATE = 3'd2, O_BECOME = 3'd3, O_SET_HANDLER = 3'd4,
                   O_ABORT = 3'd5, O_COMMIT = 3'd6, O_RUN = 3'd7;
  wire [2:0] fault_op = (ref_chk_i && !ref_ok_i) ? O_SEND :
                        afail_i  ? O_RUN :
                        qfull    ? O_COMMIT :
                        send_i   ? O_SEND :
                        create_i ? O_CREATE :
                        become_i ? O_BECOME :
                        bfail_i  ? (bfail_fh_i ? O_SET_HANDLER : O_ABORT) : O_COMMIT;

  assign become_o = become_set_o || (dirty_o != {STATE_WORDS{1'b0}});
  integer k;

  reg [SLOT_W-1:0] cre_q [0:MAX_CREATES-1];
  assign cre_slot_o = cre_q[cre_idx_i];

  always @(posedge clk_i) begin
    if (!rst_ni || clear_i) begin
      cause_o      <= 5'd0;
      op_o         <= 3'd0;
      nsends_o     <= {SW{1'b0}};
      ncreates_o   <= {CW{1'b0}};
      become_set_o <= 1'b0;
      become_beh_o <= {BEH_W{1'b0}};
      become_n_o   <= 4'd0;
      dirty_o      <= {STATE_WORDS{1'b0}};
      blen_o       <= 4'd0;
    end else begin
      if (ok && fault != 5'd0) begin
        cause_o <= fault;
        op_o    <= fault_op;
      end
      if (send_go_o) nsends_o <= nsends_o + 1'b1;
      if (create_go_o) ncreates_o <= ncreates_o + 1'b1;
      if (become_go_o) begin
        become_set_o <= 1'b1;
        become_beh_o <= become_beh_i;
        become_n_o   <= become_n_i;
        for (k = 0; k < STATE_WORDS; k = k + 1)
          if (k >= become_n_i) dirty_o[k] <= 1'b0;
        blen_o       <= become_n_i;
      end else if (bword_i && ok) begin
        dirty_o[bword_idx_i] <= 1'b1;
        if ({1'b0, bword_idx_i} >= blen_o) blen_o <= {1'b0, bword_idx_i} + 1'b1;
      end
    end
  end

  // Created-slot list (no reset needed: only entries < ncreates are used).
  always @(posedge clk_i) begin
    if (create_go_o) cre_q[ncreates_o[CIW-1:0]] <= create_slot_i;
  end
endmodule

`default_nettype wire
