// am_unit_ext — the operations the bus starts on the queue and the table:
// the argument checks, the checked operations' later cycles, and the
// external operations SPAWN, INJECT, FREE and UNPIN.
//
// Owns: the checked operation in flight (p_op_q: SEND, CREATE, SPAWN,
// INJECT / INJECT2, FREE / FREE2, which UNPIN shares: p_unpin_q) and what
// its first cycle registered
// (slot, in-range, fresh, behavior, word count; the reference's generation
// is held outside, in the am_reg2x16 it shares with GC_PERIOD); the result
// of INJECT's and FREE's reference check (p_ok_q); EXT_STATUS (ext_o) and
// NEW_REF (new_ref_o); and the bus's side of the queue's and the table's
// write ports.
//
// Promises:
// * Argument checks, in the cycle of the write: a reference's slot is
//   inside the table (w_inrange_o), a behavior below BEH_COUNT
//   (w_beh_ok_o), a word count within MSG_WORDS / STATE_WORDS; a SEND
//   stages an entry only if one more fits the queue (queued + staged <
//   QUEUE_DEPTH), and a COMMIT commits only if there is no fault and the
//   staged sends fit (commit_ok_o). An INJECT is QUEUE_FULL also at
//   QUEUE_DEPTH - 1 queued while a fault delivery holds its entry outside
//   the count (q_held_i): a collection puts that entry back at the head.
// * SEND, CREATE and SPAWN take a second cycle: the target's meta word is
//   read in the first (SEND's reference: p_ref_ok_o; live or created in
//   this transaction, generation equal), CREATE's and SPAWN's slot is the
//   allocator's (peek_slot_i), which writes the new meta word in the second
//   (generation + 1, or 1 for a never-used slot; pending for CREATE, live
//   and pinned for SPAWN).
// * INJECT and FREE take a third: the second checks the reference into
//   p_ok_q (FREE: live and not the console), the third acts on it from
//   registers -- INJECT commits its queue entry (n = 1), FREE writes the
//   slot's meta word (dead, not pinned, its generation kept) and pushes it
//   on the free stack. (From the meta RAM's output through the generation
//   compare straight into those was the ECP5's critical path; the external
//   operations run only while dispatch is stopped, so the extra cycle
//   costs no dispatch anything.)
// * UNPIN takes FREE's three cycles and its check (live, not the console);
//   the second also takes the slot's behavior and state length into
//   p_beh_o / p_n_o, and the third rewrites its meta word with them: live,
//   its generation, not pinned (unmarked: no collection runs between
//   transactions) -- the actor stays as it was, only no longer a root.
// * SPAWN, INJECT, FREE, UNPIN and COLLECT act only between transactions
//   (the sequencer idle: no transaction open, none being dispatched, which
//   starts only while the core waits at the dispatch point, never during
//   its access); else EXT_STATUS is BUSY. So the firmware uses them at boot (RUN = 0)
//   and from the dispatch point's DEVICE entry (am_unit_dp). EXT_STATUS: the first cycle sets the simple errors (BUSY,
//   BAD_ARG, QUEUE_FULL, TABLE_FULL), the last OK or BAD_REF. NEW_REF: the
//   new reference of an accepted CREATE or SPAWN, 0 after a refused one.
// * pend_d_o is high when a checked operation runs in the next cycle
//   (pending_o then): the unit is busy.
// * TRACE=1 checks every cycle that an INJECT finds no send staged and that
//   a BECOME_W write (the table's BECOME buffer, through the meta write
//   port) never meets a meta write.
`default_nettype none
`include "am_defs.vh"

module am_unit_ext #(
  parameter integer TABLE_SLOTS = 128,
  parameter integer QUEUE_AW    = 6,
  parameter integer MSG_WORDS   = 8,
  parameter integer STATE_WORDS = 8,
  parameter integer MAX_SENDS   = 8,
  parameter integer BEH_W       = 8,
  parameter integer TRACE       = 0,
  // derived (the unit passes them)
  parameter integer SLOT_W      = $clog2(TABLE_SLOTS),
  parameter integer META_W      = `AM_META_W,
  parameter integer HDR_W       = `AM_HDR_W,
  parameter integer SW          = $clog2(MAX_SENDS + 1)
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire                 clear_i,      // the transaction ends (am_dispatch)
  // the bus
  input  wire [7:0]           a_i,          // mem_addr[9:2]
  input  wire [31:0]          wdata_i,
  input  wire                 wr_acc_i,     // a write completes
  input  wire                 w_send_w_i,   // am_unit_bus' strobes
  input  wire                 w_new_st_i,
  input  wire                 w_create_i,
  input  wire                 w_inject_i,
  input  wire                 w_spawn_i,
  input  wire                 w_free_i,
  input  wire                 w_unpin_i,    // UNPIN: FREE's cycles and check
  input  wire                 w_collect_i,  // COLLECT: only its EXT_STATUS here (am_dispatch runs it)
  input  wire                 w_commit_i,
  input  wire [BEH_W:0]       beh_count_i,  // BEH_COUNT
  input  wire                 idle_i,       // am_dispatch: the sequencer is idle
  // the transaction (am_txn)
  input  wire                 send_go_i,
  input  wire                 create_go_i,
  input  wire [SW-1:0]        nsends_i,
  input  wire [4:0]           cause_i,
  // the queue and the table
  input  wire [QUEUE_AW-1:0]  q_count_i,
  input  wire                 q_full_i,
  input  wire                 q_held_i,     // a waiting delivery's entry, outside q_count_i
  input  wire [SLOT_W-1:0]    peek_slot_i,
  input  wire                 peek_fresh_i,
  input  wire                 peek_ok_i,
  input  wire [META_W-1:0]    meta_rdata_i, // the meta word read
  input  wire                 meta_used_i,
  input  wire [15:0]          p_gen_i,      // the reference's generation, registered at wr_acc_i
  // checks
  output wire                 w_inrange_o,
  output wire                 w_beh_ok_o,
  output wire                 commit_ok_o,
  output wire                 q_room_o,     // one more staged send fits the queue
  output wire                 p_ref_ok_o,   // SEND's second cycle: the reference is good
  // the operation in flight
  output wire                 spawn_go_o,   // SPAWN's first cycle, it allocates
  output wire                 pending_o,
  output wire                 pend_d_o,
  output wire                 t_send_o,     // second cycles
  output wire                 t_create_o,
  output wire                 t_spawn_o,
  output wire                 inject_ok_o,  // third cycles whose check passed
  output wire                 free_ok_o,
  output wire                 unpin_ok_o,
  output reg  [SLOT_W-1:0]    p_slot_o,
  output reg  [BEH_W-1:0]     p_beh_o,
  output reg  [3:0]           p_n_o,
  output wire [15:0]          p_new_gen_o,  // CREATE's / SPAWN's new generation
  output reg  [2:0]           ext_o,        // EXT_STATUS
  output reg  [16+SLOT_W-1:0] new_ref_o,    // NEW_REF, {generation, slot}
  // the bus's side of the queue's ports
  output wire                 q_wr_we_o,    // a SEND_W word into the staged entry
  output wire [QUEUE_AW-1:0]  q_off_o,      // the staged entry: past the tail by the sends staged
  output wire                 hw_we_o,      // a header
  output wire [QUEUE_AW-1:0]  hw_off_o,
  output wire [HDR_W-1:0]     hw_data_o,
  output wire                 q_commit_o,
  output wire [QUEUE_AW-1:0]  q_commit_n_o,
  // ... and of the table's
  output wire [SLOT_W-1:0]    meta_raddr_o,
  output wire                 meta_we_o,    // at p_slot_o
  output reg  [META_W-1:0]    meta_wdata_o,
  output wire                 st_we_o,      // a NEW_STATE word, at the slot CREATE / SPAWN takes
  // the TRACE=1 check of the meta write port
  input  wire                 bw_we_i,
  input  wire                 owns_i,
  input  wire                 gc_i
);
  localparam integer QDEPTH = (1 << QUEUE_AW) - 1;

  // ext status codes
  localparam [2:0] E_OK = 3'd0, E_BUSY = 3'd1, E_TABLE_FULL = 3'd2, E_QUEUE_FULL = 3'd3,
                   E_BAD_REF = 3'd4, E_BAD_ARG = 3'd5;
  // pending (second-cycle) operations; INJECT and FREE have a third cycle,
  // P_INJECT2 / P_FREE2, that acts on the check the second made
  localparam [2:0] P_NONE = 3'd0, P_SEND = 3'd1, P_CREATE = 3'd2, P_INJECT = 3'd3,
                   P_SPAWN = 3'd4, P_FREE = 3'd5, P_INJECT2 = 3'd6, P_FREE2 = 3'd7;

  wire [7:0] a   = a_i;
  wire [3:0] a_n = a[3:0];

  reg  [2:0]       p_op_q;
  reg              p_inrange_q, p_fresh_q;
  reg              p_ok_q;         // INJECT / FREE: the reference passed its check
  reg              p_unpin_q;      // the FREE in flight is an UNPIN

  // ---------------------------------------------------------------- argument checks
  wire [SLOT_W-1:0] w_slot    = wdata_i[SLOT_W-1:0];
  assign w_inrange_o = (wdata_i[15:SLOT_W] == 0) && ({1'b0, w_slot} < TABLE_SLOTS[SLOT_W:0]);
  assign w_beh_ok_o  = (wdata_i[31:BEH_W] == 0) &&
                       ({1'b0, wdata_i[BEH_W-1:0]} < beh_count_i);
  wire              w_msg_ok  = (a_n <= MSG_WORDS[3:0]);
  wire              w_st_ok   = (a_n <= STATE_WORDS[3:0]);
  wire [QUEUE_AW-1:0] nsends_q = {{(QUEUE_AW-SW){1'b0}}, nsends_i};
  wire [QUEUE_AW:0] q_used    = {1'b0, q_count_i} + {1'b0, nsends_q};
  wire              q_room    = (q_used < QDEPTH[QUEUE_AW:0]);        // one more staged send fits
  assign q_room_o = q_room;
  // The staged sends fit the queue unless one was staged without room: while
  // a transaction runs the queue's count does not change (pops happen at
  // FETCH, INJECT only while the sequencer is idle) and the staged count
  // only grows, so the sum passes the depth exactly when a send is staged at
  // it. Kept in a register, the commit's check (and QUICK behind it) does
  // not wait for the count's adders (the iCE40's critical path).
  reg over_q;
  always @(posedge clk_i) begin
    if (!rst_ni || clear_i)       over_q <= 1'b0;
    else if (send_go_i && !q_room) over_q <= 1'b1;
  end
  assign commit_ok_o = (cause_i == 5'd0) && !over_q;

  wire ext_free  = idle_i;                           // external operations allowed
  // the queue as INJECT sees it: a waiting delivery's entry takes a place
  // (commits never meet a held entry: the delivery is dispatched first)
  wire q_full_inj = q_full_i || (q_held_i && q_count_i == QDEPTH[QUEUE_AW-1:0] - 1'b1);
  wire inject_go = w_inject_i && ext_free && w_msg_ok && !q_full_inj;
  assign spawn_go_o = w_spawn_i && ext_free && w_beh_ok_o && w_st_ok && peek_ok_i;
  wire free_go   = (w_free_i || w_unpin_i) && ext_free;

  // ---------------------------------------------------------------- later cycles
  // reference and generation from the meta word read in the first cycle
  wire [15:0] m_gen   = meta_rdata_i[`AM_META_GEN_LSB +: `AM_META_GEN_W];
  wire unused_meta = ^meta_rdata_i[META_W-1:`AM_META_PIN];   // pin, mark: UNPIN rewrites them
  wire        m_live  = meta_rdata_i[`AM_META_LIVE];
  wire        m_pend  = meta_rdata_i[`AM_META_PEND];
  assign p_ref_ok_o  = p_inrange_q && meta_used_i && (m_live || m_pend) && (m_gen == p_gen_i);
  wire        p_live_ok = p_inrange_q && meta_used_i && m_live && (m_gen == p_gen_i);
  assign p_new_gen_o = p_fresh_q ? 16'd1 : ((m_gen == 16'hFFFF) ? 16'd1 : m_gen + 1'b1);
  assign t_send_o    = (p_op_q == P_SEND);
  assign t_create_o  = (p_op_q == P_CREATE);
  wire        t_inject  = (p_op_q == P_INJECT);
  assign t_spawn_o   = (p_op_q == P_SPAWN);
  wire        t_free    = (p_op_q == P_FREE);
  wire        t_inject2 = (p_op_q == P_INJECT2);
  wire        t_free2   = (p_op_q == P_FREE2);
  assign inject_ok_o = t_inject2 && p_ok_q;
  assign free_ok_o   = t_free2 && p_ok_q && !p_unpin_q;
  assign unpin_ok_o  = t_free2 && p_ok_q && p_unpin_q;
  assign pending_o   = (p_op_q != P_NONE);
  assign pend_d_o    = send_go_i || create_go_i || inject_go || spawn_go_o || free_go ||
                       t_inject || t_free;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      p_op_q <= P_NONE;
    end else begin
      p_op_q <= send_go_i   ? P_SEND   :
                create_go_i ? P_CREATE :
                inject_go   ? P_INJECT :
                spawn_go_o  ? P_SPAWN  :
                free_go     ? P_FREE   :
                t_inject    ? P_INJECT2 :
                t_free      ? P_FREE2  : P_NONE;
    end
  end
  always @(posedge clk_i) begin
    if (wr_acc_i) begin
      p_slot_o    <= (create_go_i || spawn_go_o) ? peek_slot_i : w_slot;
      p_inrange_q <= w_inrange_o;
      p_fresh_q   <= peek_fresh_i;
      p_beh_o     <= wdata_i[BEH_W-1:0];
      p_n_o       <= a_n;
      p_unpin_q   <= w_unpin_i;
    end
    if (t_free && p_unpin_q) begin   // what UNPIN keeps
      p_beh_o <= meta_rdata_i[`AM_META_BEH_LSB +: `AM_META_BEH_W];
      p_n_o   <= meta_rdata_i[`AM_META_SLEN_LSB +: `AM_META_SLEN_W];
    end
    p_ok_q <= p_live_ok && (t_inject || (p_slot_o != {SLOT_W{1'b0}}));   // not the console
  end

  // ---------------------------------------------------------------- EXT_STATUS, NEW_REF
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      ext_o     <= E_OK;
      new_ref_o <= {(16+SLOT_W){1'b0}};
    end else begin
      // the first cycle decides the simple errors
      if (w_inject_i || w_spawn_i || w_free_i || w_unpin_i) begin
        if (!ext_free)                            ext_o <= E_BUSY;
        else if (w_inject_i && !w_msg_ok)         ext_o <= E_BAD_ARG;
        else if (w_inject_i && q_full_inj)        ext_o <= E_QUEUE_FULL;
        else if (w_spawn_i && !(w_beh_ok_o && w_st_ok)) ext_o <= E_BAD_ARG;
        else if (w_spawn_i && !peek_ok_i)         ext_o <= E_TABLE_FULL;
      end
      if (w_collect_i)          ext_o <= ext_free ? E_OK : E_BUSY;
      if (t_inject2 || t_free2) ext_o <= p_ok_q ? E_OK : E_BAD_REF;
      if (t_spawn_o)            ext_o <= E_OK;
      if (w_create_i && !create_go_i) new_ref_o <= {(16+SLOT_W){1'b0}};
      if (w_spawn_i && !spawn_go_o)   new_ref_o <= {(16+SLOT_W){1'b0}};
      if (t_create_o || t_spawn_o)    new_ref_o <= {p_new_gen_o, p_slot_o};
    end
  end

  // ---------------------------------------------------------------- the queue's ports
  assign q_off_o      = nsends_q;
  assign q_wr_we_o    = w_send_w_i && q_room && ({1'b0, a[2:0]} < MSG_WORDS[3:0]);
  assign q_commit_o   = (w_commit_i && commit_ok_o) || inject_ok_o;
  assign q_commit_n_o = inject_ok_o ? {{(QUEUE_AW-1){1'b0}}, 1'b1} : nsends_q;
  am_unit_hdr #(.QUEUE_AW(QUEUE_AW), .SLOT_W(SLOT_W), .HDR_W(HDR_W)) u_hdr (
    .send_go_i(send_go_i), .q_room_i(q_room), .inject_go_i(inject_go), .t_inject_i(t_inject),
    .nsends_i(nsends_q), .gen_i(wdata_i[31:16]), .slot_i(w_slot), .n_i(a_n),
    .p_gen_i(p_gen_i), .p_slot_i(p_slot_o), .p_n_i(p_n_o),
    .we_o(hw_we_o), .off_o(hw_off_o), .data_o(hw_data_o));

  // ---------------------------------------------------------------- the table's ports
  // the meta word read in the first cycle: CREATE's / SPAWN's new slot, or
  // the reference's
  assign meta_raddr_o = (`AM_AU_CREATE_AT(a) || `AM_AU_BECOME_AT(a) || `AM_AU_SPAWN_AT(a)) ? peek_slot_i : w_slot;
  assign meta_we_o    = t_create_o || t_spawn_o || (t_free2 && p_ok_q);
  always @(*) begin
    meta_wdata_o = {META_W{1'b0}};
    meta_wdata_o[`AM_META_SLEN_LSB +: `AM_META_SLEN_W] = p_n_o;
    meta_wdata_o[`AM_META_BEH_LSB +: `AM_META_BEH_W]   = p_beh_o;
    meta_wdata_o[`AM_META_PIN]                        = t_spawn_o;    // a spawned actor is a root
    meta_wdata_o[`AM_META_PEND]                       = t_create_o;   // pending until commit
    meta_wdata_o[`AM_META_LIVE]                       = t_spawn_o || t_free2 && p_unpin_q;  // live at once, or kept
    meta_wdata_o[`AM_META_GEN_LSB +: `AM_META_GEN_W]   = p_new_gen_o;
    // FREE (written only when its check passed): dead, not pinned, its
    // generation kept -- the reference's, equal to the stored one; the
    // behavior and state length fields of a dead slot are never read
    // UNPIN keeps the same generation, and the behavior and state length
    // its second cycle read
    if (t_free2) meta_wdata_o[`AM_META_GEN_LSB +: `AM_META_GEN_W] = p_gen_i;
  end
  // NEW_STATE words go into the slot CREATE / SPAWN will take, before it
  assign st_we_o = w_new_st_i && peek_ok_i && ({1'b0, a[2:0]} < STATE_WORDS[3:0]);

  generate
    if (TRACE != 0) begin : g_check
      always @(posedge clk_i) begin
        if (rst_ni && inject_go && nsends_i != {SW{1'b0}}) begin
          $display("am_unit_ext: an INJECT with %0d sends staged", nsends_i);
          $stop;
        end
        if (rst_ni && bw_we_i && (meta_we_o || owns_i || gc_i)) begin
          $display("am_unit_ext: a BECOME_W write and a meta write in one cycle");
          $stop;
        end
      end
    end else begin : g_no_check
      wire unused_check_only = ^{bw_we_i, owns_i, gc_i};
    end
  endgenerate
endmodule

`default_nettype wire
