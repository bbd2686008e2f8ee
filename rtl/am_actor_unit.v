// am_actor_unit — the actor unit: event queue, actor table, transaction
// staging and dispatch behind a PicoRV32 native memory interface.
//
// Owns: the register block (docs/actor-unit.md has the map), the external
// operations (SPAWN, INJECT, FREE), the one-cycle reference/allocation
// checks, the counters, the collector's trigger and the trace port. The
// queue, table, staging, sequencer and collector are submodules
// (am_event_queue, am_actor_table, am_txn, am_dispatch, am_gc).
//
// Promises:
// * docs/semantics.md, exactly: check order and first fault wins (am_txn),
//   deterministic allocation with abort restore (am_actor_table), FIFO
//   dispatch order, atomic O(1) commit of the staged sends (am_event_queue).
// * Bus: one access at a time; mem_addr_i[9:2] selects a 32-bit register,
//   the caller decodes the unit's base address into mem_valid_i. Writes
//   complete in the cycle they are presented unless the unit is busy; reads
//   complete one cycle later; mem_rdata_o is 0 but in the cycle a read
//   completes (the SoC ORs its slaves' read data). mem_ready_o is a
//   register: the caller says a cycle ahead that a write comes
//   (wr_next_i), as PicoRV32's look-ahead bus does. While the unit is
//   busy (dispatching, finishing a transaction, resolving a reference or
//   allocation check — always a bounded number of cycles) every access
//   waits with mem_ready_o low.
// * TRACE=1 adds the trace port (simulation); TRACE=0 ties it to zero.
// * With the macro AM_DSP_REGS (the iCEBreaker build), six registers and
//   counters live in iCE40 UP5K DSP blocks instead of flip-flops
//   (rtl/boards/am_dsp_ice40.v; "registers in DSP blocks" at the end of this
//   file), with the same behavior, cycle for cycle.
// * With the macro AM_MUX_PORTS (the ULX3S build) the read data and the
//   queue's header port go through multiplexers, as before steps 28-29 of
//   docs/fpga.md (with them the ECP5 meets 60 MHz on every seed); the same
//   behavior, cycle for cycle, except that mem_rdata_o holds a register
//   read's value after the read.
`default_nettype none

module am_actor_unit #(
  parameter integer TABLE_SLOTS     = 128, // actor slots (slot 0 = console)
  parameter integer QUEUE_AW        = 6,   // 2^QUEUE_AW physical queue entries
  parameter integer MSG_WORDS       = 8,   // 2, 4 or 8
  parameter integer STATE_WORDS     = 8,   // 2, 4 or 8
  parameter integer MAX_SENDS       = 8,   // per transaction, 1..15
  parameter integer MAX_CREATES     = 4,   // per transaction, 2..15
  parameter integer BEH_W           = 8,   // behavior id bits (BEH_COUNT <= 2^BEH_W)
  parameter integer BEH_COUNT_RESET = 3,   // built-in behaviors valid from reset
  parameter integer TRACE           = 0,
  // watchdog budget bits: a WATCHDOG write of 2^WD_W or more sets the
  // largest budget, 2^WD_W - 1 (small FPGA builds: 20, the firmware's
  // 1,000,000 cycles fit)
  parameter integer WD_W            = 32,
  // 1: the statistics counters (CYCLES, SEQ/DISPATCHES, COMMITS,
  // ABORTS/FAULTS, QUEUE_HWM, LIVE, the GC counters); 0: they read 0 and
  // cost no logic (small FPGA builds)
  parameter integer STATS           = 1
) (
  input  wire                    clk_i,
  input  wire                    rst_ni,
  // PicoRV32 native memory interface (already decoded to this unit)
  input  wire                    mem_valid_i,
  output wire                    mem_ready_o,
  input  wire [31:0]             mem_addr_i,
  input  wire [31:0]             mem_wdata_i,
  input  wire [3:0]              mem_wstrb_i,
  output wire [31:0]             mem_rdata_o,
  // the look-ahead: a write to the unit is presented in the next cycle
  // (PicoRV32's mem_la_write decoded, or this cycle's write continuing);
  // ready_d_o is mem_ready_o's value in the next cycle (the SoC registers
  // its bus ready from it)
  input  wire                    wr_next_i,
  output wire                    ready_d_o,
  // watchdog: high from a watchdog abort until the firmware acknowledges it
  // (write WATCHDOG); the SoC restarts the core when it rises
  output wire                    wd_irq_o,
  // trace port (TRACE=1)
  output wire                    trace_valid_o,
  output wire [3:0]              trace_kind_o,
  output wire [31:0]             trace_seq_o,
  output wire [31:0]             trace_ref_o,
  output wire [31:0]             trace_beh_o,
  output wire [3:0]              trace_len_o,
  output wire [32*8-1:0]         trace_words_o,
  output wire [3:0]              trace_cause_o,
  output wire [31:0]             trace_code_o
);
  localparam integer SLOT_W = $clog2(TABLE_SLOTS);
  localparam integer QDEPTH = (1 << QUEUE_AW) - 1;
  localparam integer HDR_W  = 16 + SLOT_W + 4;
  localparam integer META_W = 24 + BEH_W;   // ..., slen, pin, mark
  localparam integer PIN    = 22 + BEH_W;
  localparam integer MIW    = $clog2(MSG_WORDS);
  localparam integer SIW    = $clog2(STATE_WORDS);
  localparam integer SW     = $clog2(MAX_SENDS + 1);
  localparam integer CW     = $clog2(MAX_CREATES + 1);

  // ext status codes
  localparam [2:0] E_OK = 3'd0, E_BUSY = 3'd1, E_TABLE_FULL = 3'd2, E_QUEUE_FULL = 3'd3,
                   E_BAD_REF = 3'd4, E_BAD_ARG = 3'd5;
  // pending (second-cycle) operations
  // (INJECT and FREE have a third cycle, P_INJECT2 / P_FREE2, that acts on
  // the check the second made)
  localparam [2:0] P_NONE = 3'd0, P_SEND = 3'd1, P_CREATE = 3'd2, P_INJECT = 3'd3,
                   P_SPAWN = 3'd4, P_FREE = 3'd5, P_INJECT2 = 3'd6, P_FREE2 = 3'd7;

  // ---------------------------------------------------------------- wires
  wire [QUEUE_AW-1:0] q_count, q_hwm, q_cur;
  wire                q_empty, q_full;
  wire [HDR_W-1:0]    q_hdr;
  wire [31:0]         q_rdata;
  wire [32*MSG_WORDS-1:0] q_trw;

  wire [META_W-1:0]   meta_rdata;
  wire                meta_used;
  wire [31:0]         st_rdata;
  wire [SLOT_W-1:0]   peek_slot;
  wire                peek_fresh, peek_ok, tbl_ready;

  wire [3:0]          cause;
  wire [SW-1:0]       nsends;
  wire [CW-1:0]       ncreates;
  wire [$clog2(MAX_CREATES)-1:0] cre_idx;
  wire [SLOT_W-1:0]   cre_slot;
  wire                become;
  wire [BEH_W-1:0]    become_beh;
  wire [3:0]          become_n;
  wire [31:0]         bw_rdata;
  wire [SIW-1:0]      bw_ridx;
  wire                bw_rd;
  wire                send_go, create_go, become_go;

  wire                d_owns, d_open, d_idle, d_disp, d_chk_ok, d_dead, d_end, d_commit;
  wire                d_fault, d_redir;
  wire                d_idle_d, d_open_d, d_owns_d, d_redir_d, q_empty_d, t_ready_d;
  wire [BEH_W-1:0]    d_chk_beh, d_beh;
  wire [31:0]         d_seq;
  wire [SLOT_W-1:0]   d_self_slot;
  wire [15:0]         d_self_gen;
  wire [3:0]          d_len, d_slen;
  wire                d_pop, d_snap, d_restore, d_txn_clear;
  wire [SLOT_W-1:0]   d_meta_raddr, d_meta_waddr;
  wire                d_meta_we, d_st_we;
  wire [META_W-1:0]   d_meta_wdata;
  wire [SLOT_W+SIW-1:0] d_st_waddr;
  wire [31:0]         d_st_wdata;

  // ---------------------------------------------------------------- registers
  reg                 run_q;
  reg [BEH_W:0]       beh_count_q;
  reg [2:0]           ext_q;
  reg [16+SLOT_W-1:0] new_ref_q;      // {gen, slot}
  reg [31:0]          cycles_q, commits_q, aborts_q;
  reg [SLOT_W:0]      live_q;
  reg [3:0]           last_cause_q;
  reg                 rd_ready_q;
  reg [31:0]          rdata_q;
`ifdef AM_MUX_PORTS
  reg [1:0]           rsel_q;         // 0 register, 1 message word, 2 state word
  reg                 rmask_q;        // word index below length
`endif
  // second cycle of a checked operation
  reg [2:0]           p_op_q;
`ifdef AM_DSP_REGS
  wire [15:0]         p_gen_q;        // registers in DSP blocks (the end of this file)
`else
  reg [15:0]          p_gen_q;
`endif
  reg [SLOT_W-1:0]    p_slot_q;
  reg                 p_inrange_q, p_fresh_q;
  reg                 p_ok_q;         // INJECT / FREE: the reference passed its check
  reg [BEH_W-1:0]     p_beh_q;
  reg [3:0]           p_n_q;

  // ---------------------------------------------------------------- bus
  wire       wr      = |mem_wstrb_i;
  wire [7:0] a       = mem_addr_i[9:2];
  wire [3:0] a_n     = a[3:0];
  wire       pending = (p_op_q != P_NONE);
  // Watchdog: a transaction open for WATCHDOG cycles (0 = off) is aborted by
  // the unit (cause WATCHDOG, unless an earlier fault was recorded). The unit
  // then holds, with wd_irq_o high, until the firmware acknowledges by
  // writing WATCHDOG: it dispatches nothing, and every other write completes
  // at once and is ignored -- it comes from the abandoned behavior, which may
  // be spinning on the unit (a write that waited instead could keep a core
  // that serves the watchdog between instructions from ever getting there).
  // Reads are served as usual. So a COMMIT
  // racing the abort finds nothing to commit, and nothing the behavior does
  // after the abort reaches the unit.
  // wd_rem_q counts down from the budget while a transaction is open (it is
  // reloaded while none is): after k open cycles it holds budget - k.
  // wd_over_q = (budget != 0 && the transaction has been open for budget
  // cycles), computed a cycle ahead from registers (wd_rem_q <= 1): no
  // compare on the bus path, and no comparator at all. A WATCHDOG write
  // applies from the next transaction on (the firmware writes WATCHDOG only
  // outside transactions).
`ifdef AM_DSP_REGS
  reg  [WD_W-1:0] wd_budget_q;
  wire [WD_W-1:0] wd_rem_q;
`else
  reg  [WD_W-1:0] wd_budget_q, wd_rem_q;
`endif
  reg         wd_hold_q;
  reg         wd_over_q;
  wire        wd_fire = d_open && !wd_hold_q && wd_over_q;
  wire        wd_addr = (a == 8'h07);                // 0x01C WATCHDOG
  assign wd_irq_o = wd_hold_q;

  // The unit is busy (every access waits) while the sequencer owns the
  // RAMs, a checked operation is in its second cycle, the allocator re-reads
  // its stack top, a dispatch is about to start, or the watchdog fires:
  //   busy_now = d_owns || pending || !tbl_ready ||
  //              (d_idle && run_q && !wd_hold_q && (!q_empty || d_redir)) ||
  //              wd_fire
  // These are functions of registers; busy_q holds them, computed a cycle
  // ahead from the next-state values, so the bus's ready signal depends on
  // no address bit: it is a couple of gates from the core's request (the
  // iCE40 critical path ran through this). With TRACE=1 (simulation) every
  // cycle checks busy_q against the direct formula.
  reg        busy_q;
  // wr_acc: a write completes (= mem_valid_i && wr && !busy_q, registered a
  // cycle ahead from wr_next_i and busy_d; TRACE=1 checks the equality);
  // wr_do: it takes effect (not during a watchdog hold, except the
  // acknowledgement). rd_acc: a read starts. mem_ready_o is two registers.
  reg        wr_acc_q;
  wire       wr_acc  = wr_acc_q;
  wire       wr_do   = wr_acc && (!wd_hold_q || wd_addr);
  wire       rd_acc  = mem_valid_i && !wr && !busy_q && !rd_ready_q;
  assign mem_ready_o = wr_acc || rd_ready_q;

  wire ext_free = d_idle && !run_q;                 // external operations allowed

  // operations decoded from the address alone (the checks use these; the
  // bus strobe wr_do is applied last)
  wire a_send    = (a[7:4] == 4'h3) && d_open;      // 0x0C0 SEND[n]
  wire a_create  = (a[7:4] == 4'h4) && d_open;      // 0x100 CREATE[n]
  wire a_become  = (a[7:4] == 4'h5) && d_open;      // 0x140 BECOME[n]
  wire a_commit  = (a == 8'h80) && d_open;          // 0x200 COMMIT
  wire a_abort   = (a[7:4] == 4'h9) && d_open;      // 0x240 ABORT[cause]
  wire a_set_fh  = (a == 8'hA9) && d_open;          // 0x2A4 SET_HANDLER (staged)
  wire w_send_w  = wr_do && (a[7:3] == 5'h02);     // 0x040 SEND_W[i]
  wire w_bec_w   = wr_do && (a[7:3] == 5'h03);     // 0x060 BECOME_W[i]
  wire bw_we     = w_bec_w && ({1'b0, a[2:0]} < STATE_WORDS[3:0]);   // into the table's buffer
  wire w_new_st  = wr_do && (a[7:3] == 5'h04);     // 0x080 NEW_STATE[i]
  wire w_create  = wr_do && a_create;
  wire w_become  = wr_do && a_become;
  wire w_inject  = wr_do && (a[7:4] == 4'h6);      // 0x180 INJECT[n]
  wire w_spawn   = wr_do && (a[7:4] == 4'h7);      // 0x1C0 SPAWN[n]
  wire w_commit  = wr_do && a_commit;
  wire w_abort   = wr_do && a_abort;
  wire w_free    = wr_do && (a == 8'h05);          // 0x014 FREE
  wire w_ctrl    = wr_do && (a == 8'h01);          // 0x004 CTRL
  wire w_behcnt  = wr_do && (a == 8'h02);          // 0x008 BEH_COUNT
  wire w_wdog    = wr_do && wd_addr;
  wire w_fh      = wr_do && (a == 8'hA8);          // 0x2A0 FAULT_HANDLER
  wire w_gc_low    = wr_do && (a == 8'hAC);        // 0x2B0 GC_LOW
  wire w_gc_period = wr_do && (a == 8'hAD);        // 0x2B4 GC_PERIOD
  wire w_set_fh  = wr_do && a_set_fh;
  // a handler is AM_NIL or a reference whose slot is inside the table
  wire fh_arg_ok = (mem_wdata_i == 32'd0) || w_inrange;
  wire set_fh_go = w_set_fh && (cause == 4'd0) && fh_arg_ok;
  wire a_set_fh_bad = a_set_fh && !fh_arg_ok;

  // argument checks
  wire [SLOT_W-1:0] w_slot   = mem_wdata_i[SLOT_W-1:0];
  wire              w_inrange = (mem_wdata_i[15:SLOT_W] == 0) && ({1'b0, w_slot} < TABLE_SLOTS[SLOT_W:0]);
  wire              w_beh_ok  = (mem_wdata_i[31:BEH_W] == 0) &&
                                ({1'b0, mem_wdata_i[BEH_W-1:0]} < beh_count_q);
  wire              w_msg_ok  = (a_n <= MSG_WORDS[3:0]);
  wire              w_st_ok   = (a_n <= STATE_WORDS[3:0]);
  wire [QUEUE_AW-1:0] nsends_q = {{(QUEUE_AW-SW){1'b0}}, nsends};
  wire [QUEUE_AW:0] q_used    = {1'b0, q_count} + {1'b0, nsends_q};
  wire              q_room    = (q_used < QDEPTH[QUEUE_AW:0]);        // one more staged send fits
  wire              commit_ok = (cause == 4'd0) && (q_used <= QDEPTH[QUEUE_AW:0]);

  wire inject_go = w_inject && ext_free && w_msg_ok && !q_full;
  wire spawn_go  = w_spawn && ext_free && w_beh_ok && w_st_ok && peek_ok;
  wire free_go   = w_free && ext_free;

  // second cycle: reference and generation from the meta word read last cycle
  wire [15:0] m_gen   = meta_rdata[15:0];
  wire        m_live  = meta_rdata[16];
  wire        m_pend  = meta_rdata[17];
  wire        p_ref_ok = p_inrange_q && meta_used && (m_live || m_pend) && (m_gen == p_gen_q);
  wire        p_live_ok = p_inrange_q && meta_used && m_live && (m_gen == p_gen_q);
  wire [15:0] p_new_gen = p_fresh_q ? 16'd1 : ((m_gen == 16'hFFFF) ? 16'd1 : m_gen + 1'b1);
  wire        t_send    = (p_op_q == P_SEND);
  wire        t_create  = (p_op_q == P_CREATE);
  wire        t_inject  = (p_op_q == P_INJECT);
  wire        t_spawn   = (p_op_q == P_SPAWN);
  wire        t_free    = (p_op_q == P_FREE);
  // INJECT and FREE check their reference in the second cycle (into p_ok_q)
  // and act on it in the third: what they change -- the queue's tail and
  // count, the meta word, the free stack, the counters -- is then driven
  // from registers. (From the meta RAM's output through the generation
  // compare straight into those was the ECP5's critical path; the external
  // operations run only while dispatch is stopped, so the extra cycle costs
  // no dispatch anything.)
  wire        t_inject2 = (p_op_q == P_INJECT2);
  wire        t_free2   = (p_op_q == P_FREE2);
  wire        inject_ok = t_inject2 && p_ok_q;
  wire        free_ok   = t_free2 && p_ok_q;

  reg [META_W-1:0] new_meta;
  always @(*) begin
    new_meta = {META_W{1'b0}};
    new_meta[18+BEH_W +: 4] = p_n_q;
    new_meta[18 +: BEH_W]   = p_beh_q;
    new_meta[PIN]           = t_spawn;    // a spawned actor is a root
    new_meta[17]            = t_create;   // pending until commit
    new_meta[16]            = t_spawn;    // live at once
    new_meta[15:0]          = p_new_gen;
    // FREE (written only when its check passed): dead, not pinned, its
    // generation kept -- the reference's, equal to the stored one; the
    // behavior and state length fields of a dead slot are never read
    if (t_free2) new_meta[15:0] = p_gen_q;
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      p_op_q <= P_NONE;
    end else begin
      p_op_q <= send_go   ? P_SEND   :
                create_go ? P_CREATE :
                inject_go ? P_INJECT :
                spawn_go  ? P_SPAWN  :
                free_go   ? P_FREE   :
                t_inject  ? P_INJECT2 :
                t_free    ? P_FREE2  : P_NONE;
    end
  end
  always @(posedge clk_i) begin
    if (wr_acc) begin
`ifndef AM_DSP_REGS
      p_gen_q     <= mem_wdata_i[31:16];
`endif
      p_slot_q    <= (create_go || spawn_go) ? peek_slot : w_slot;
      p_inrange_q <= w_inrange;
      p_fresh_q   <= peek_fresh;
      p_beh_q     <= mem_wdata_i[BEH_W-1:0];
      p_n_q       <= a_n;
    end
    p_ok_q <= p_live_ok && (t_inject || (p_slot_q != {SLOT_W{1'b0}}));   // not the console
  end

  // ---------------------------------------------------------------- submodules
  // A queue header is written from the bus: a SEND's one past the staged
  // sends, an INJECT's one past the tail (no transaction is open, so
  // nothing is staged: nsends is 0, checked with TRACE=1), in its first
  // cycle, whether or not its check passes: only the commit, in the
  // third, makes it an event. (Written from registers in the second
  // cycle, it took a 25-bit multiplexer: 64 iCE40 LCs on the iCEBreaker.)
`ifdef AM_MUX_PORTS
  // (the ULX3S build: INJECT writes its header in its second cycle, from
  // registers, as before steps 28-29 of docs/fpga.md)
  wire              hw_we   = (send_go && q_room) || t_inject;
  wire [QUEUE_AW-1:0] hw_off = t_inject ? {QUEUE_AW{1'b0}} : nsends_q;
  wire [HDR_W-1:0]  hw_data = t_inject ? {p_gen_q, p_slot_q, p_n_q}
                                       : {mem_wdata_i[31:16], w_slot, a_n};
`else
  wire              hw_we   = (send_go && q_room) || inject_go;
  wire [QUEUE_AW-1:0] hw_off = nsends_q;
  wire [HDR_W-1:0]  hw_data = {mem_wdata_i[31:16], w_slot, a_n};
`endif
  wire              q_commit   = (w_commit && commit_ok) || inject_ok;
  wire [QUEUE_AW-1:0] q_commit_n = inject_ok ? {{(QUEUE_AW-1){1'b0}}, 1'b1} : nsends_q;

  am_event_queue #(.QAW(QUEUE_AW), .MSG_WORDS(MSG_WORDS), .HDR_W(HDR_W), .TRACE(TRACE)) u_queue (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .wr_we_i(w_send_w && q_room && ({1'b0, a[2:0]} < MSG_WORDS[3:0])), .wr_off_i(nsends_q),
    .wr_idx_i(a[MIW-1:0]), .wr_data_i(mem_wdata_i),
    .hw_we_i(hw_we), .hw_off_i(hw_off), .hw_data_i(hw_data),
    .commit_i(q_commit), .commit_n_i(q_commit_n), .pop_i(d_pop), .cur_hdr_i(d_disp || d_open),
    .gc_i(g_qsel), .gc_off_i(g_qoff), .gc_idx_i(g_qidx),
    .hdr_o(q_hdr), .rd_idx_i(a[MIW-1:0]), .rd_data_o(q_rdata),
    .count_o(q_count), .empty_o(q_empty), .empty_d_o(q_empty_d), .full_o(q_full), .hwm_o(q_hwm), .cur_o(q_cur),
    .tr_words_o(q_trw));

  wire              b_meta_we    = t_create || t_spawn || free_ok;
  wire [SLOT_W-1:0] b_meta_raddr = (a[7:5] == 3'b010 || a[7:4] == 4'h7) ? peek_slot : w_slot;

  am_actor_table #(.SLOT_W(SLOT_W), .TABLE_SLOTS(TABLE_SLOTS), .STATE_WORDS(STATE_WORDS),
                   .META_W(META_W)) u_table (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .meta_raddr_i(d_gc ? g_meta_raddr : d_owns ? d_meta_raddr : b_meta_raddr),
    .meta_rdata_o(meta_rdata), .meta_used_o(meta_used),
    .meta_we_i(d_gc ? g_meta_we : d_owns ? d_meta_we : b_meta_we),
    .meta_waddr_i(d_gc ? g_meta_waddr : d_owns ? d_meta_waddr : p_slot_q),
    .meta_wdata_i(d_gc ? g_meta_wdata : d_owns ? d_meta_wdata : new_meta),
    .st_raddr_i(d_gc ? g_st_raddr : {d_self_slot, a[SIW-1:0]}), .st_rdata_o(st_rdata),
    .st_we_i(d_owns ? d_st_we : (w_new_st && peek_ok && ({1'b0, a[2:0]} < STATE_WORDS[3:0]))),
    .st_waddr_i(d_owns ? d_st_waddr : {peek_slot, a[SIW-1:0]}),
    .st_wdata_i(d_owns ? d_st_wdata : mem_wdata_i),
    .peek_slot_o(peek_slot), .peek_fresh_o(peek_fresh), .peek_ok_o(peek_ok), .ready_o(tbl_ready), .ready_d_o(t_ready_d),
    .alloc_i(create_go || spawn_go || g_pop), .snap_i(d_snap), .restore_i(d_restore),
    .free_i(free_ok || g_push), .stk_we_i(free_ok || g_stk_we), .free_slot_i(d_gc ? g_push_slot : p_slot_q),
    .clear_i(g_clear), .bw_we_i(bw_we), .bw_widx_i(a[SIW-1:0]), .bw_wdata_i(mem_wdata_i),
    .bw_rd_i(bw_rd), .bw_ridx_i(bw_ridx), .bw_rdata_o(bw_rdata),
    .next_o(t_next), .free_o(t_free_n), .free_snap_o(t_free_snap));

  am_txn #(.MSG_WORDS(MSG_WORDS), .STATE_WORDS(STATE_WORDS), .MAX_SENDS(MAX_SENDS),
           .MAX_CREATES(MAX_CREATES), .SLOT_W(SLOT_W), .BEH_W(BEH_W)) u_txn (
    .clk_i(clk_i), .rst_ni(rst_ni), .clear_i(d_txn_clear), .stb_i(wr_do),
    .send_i(a_send), .send_n_i(a_n), .send_go_o(send_go),
    .ref_chk_i(t_send), .ref_ok_i(p_ref_ok),
    .create_i(a_create), .create_n_i(a_n), .create_beh_ok_i(w_beh_ok), .alloc_ok_i(peek_ok),
    .create_slot_i(peek_slot), .create_go_o(create_go),
    .become_i(a_become), .become_n_i(a_n), .become_beh_ok_i(w_beh_ok),
    .become_beh_i(mem_wdata_i[BEH_W-1:0]), .become_go_o(become_go),
    .bfail_i(a_abort || a_set_fh_bad), .bfail_cause_i(a_set_fh_bad ? 4'd2 : a_n),
    .afail_i(wd_fire), .afail_cause_i(4'd15),
    .qfull_i(a_commit && !commit_ok),
    .cause_o(cause), .nsends_o(nsends), .ncreates_o(ncreates), .cre_idx_i(cre_idx),
    .cre_slot_o(cre_slot), .become_o(become), .become_beh_o(become_beh), .become_n_o(become_n));

  am_dispatch #(.SLOT_W(SLOT_W), .BEH_W(BEH_W), .META_W(META_W), .HDR_W(HDR_W),
                .STATE_WORDS(STATE_WORDS), .MAX_CREATES(MAX_CREATES)) u_dispatch (
    .clk_i(clk_i), .rst_ni(rst_ni), .run_i(run_q && !wd_hold_q), .hold_i(pending),
    .fh_set_i(fh_nz_q), .fh_slot_i(fh_q[SLOT_W-1:0]), .fh_gen_i(fh_q[31:16]),
    .fault_q_o(d_fault), .redir_o(d_redir),
    .gc_due_i(gc_due), .gc_done_i(g_done), .gc_o(d_gc),
    .q_empty_i(q_empty), .q_hdr_i(q_hdr), .q_pop_o(d_pop),
    .meta_rdata_i(meta_rdata), .meta_used_i(meta_used),
    .meta_raddr_o(d_meta_raddr), .meta_we_o(d_meta_we), .meta_waddr_o(d_meta_waddr),
    .meta_wdata_o(d_meta_wdata), .st_we_o(d_st_we), .st_waddr_o(d_st_waddr), .st_wdata_o(d_st_wdata),
    .alloc_snap_o(d_snap), .alloc_restore_o(d_restore),
    .commit_i(w_commit && commit_ok),
    .abort_i(w_abort || (w_commit && !commit_ok) || wd_fire),
    .ncreates_i(ncreates), .cre_idx_o(cre_idx), .cre_slot_i(cre_slot),
    .become_i(become), .become_beh_i(become_beh), .become_n_i(become_n),
    .bw_rd_o(bw_rd), .bw_ridx_o(bw_ridx), .bw_rdata_i(bw_rdata), .txn_clear_o(d_txn_clear),
    .owns_o(d_owns), .open_o(d_open), .idle_o(d_idle), .seq_o(d_seq),
    .self_slot_o(d_self_slot), .self_gen_o(d_self_gen), .beh_o(d_beh), .len_o(d_len),
    .slen_o(d_slen), .disp_o(d_disp), .chk_ok_o(d_chk_ok), .chk_beh_o(d_chk_beh),
    .dead_o(d_dead), .end_o(d_end), .commit_q_o(d_commit),
    .idle_d_o(d_idle_d), .open_d_o(d_open_d), .owns_d_o(d_owns_d), .redir_d_o(d_redir_d));

  wire [3:0] end_cause = d_dead ? 4'd10 : cause;

  // ---------------------------------------------------------------- garbage collection
  // Trigger (checked where a dispatch would FETCH): fewer than GC_LOW free
  // slots -- after an abort, the allocator as it is being restored -- or
  // GC_PERIOD dispatches since the last collection (0 turns either off).
  // The period is counted down (gc_left_q: reloaded by a collection and by
  // a GC_PERIOD write, which so starts the count again; stops at 0): the
  // trigger tests it for zero, no comparator.
  wire                d_gc, g_done, g_meta_we, g_push, g_stk_we, g_pop, g_clear, g_qsel;
  wire [SLOT_W:0]     t_next, t_free_n, t_free_snap, g_reclaimed;
  wire [SLOT_W-1:0]   g_meta_raddr, g_meta_waddr, g_push_slot;
  wire [META_W-1:0]   g_meta_wdata;
  wire [SLOT_W+SIW-1:0] g_st_raddr;
  wire [QUEUE_AW-1:0] g_qoff;
  wire [MIW-1:0]      g_qidx;
  reg  [SLOT_W:0]     gc_low_q, gc_live_max_q;
`ifdef AM_DSP_REGS
  wire [15:0]         gc_period_q, gc_left_q;
`else
  reg  [15:0]         gc_period_q, gc_left_q;
`endif
  reg  [31:0]         gc_runs_q, gc_recl_q, gc_cycles_q, gc_pause_q, gc_pause_max_q;
  // (both "few free" compares run from registers, in parallel with the
  // sequencer's state; the state only picks one -- off the iCE40's
  // critical path, which ran state -> restore -> compare -> next state)
  wire                low_snap = (t_free_snap < gc_low_q);
  wire                low_now  = (t_free_n < gc_low_q);
  wire                gc_due   = (d_restore ? low_snap : low_now) ||
                                 ((gc_period_q != 16'd0) && (gc_left_q == 16'd0));
  wire [SLOT_W:0]     gc_live_after = live_q - g_reclaimed;

  am_gc #(.SLOT_W(SLOT_W), .TABLE_SLOTS(TABLE_SLOTS), .BEH_W(BEH_W), .META_W(META_W),
          .QAW(QUEUE_AW), .MSG_WORDS(MSG_WORDS), .STATE_WORDS(STATE_WORDS), .HDR_W(HDR_W)) u_gc (
    .clk_i(clk_i), .rst_ni(rst_ni), .start_i(d_gc), .done_o(g_done),
    .reclaimed_o(g_reclaimed), .next_i(t_next),
    .meta_raddr_o(g_meta_raddr), .meta_rdata_i(meta_rdata), .meta_used_i(meta_used),
    .meta_we_o(g_meta_we), .meta_wdata_o(g_meta_wdata), .meta_waddr_o(g_meta_waddr),
    .st_raddr_o(g_st_raddr), .st_rdata_i(st_rdata),
    .stk_clear_o(g_clear), .stk_push_o(g_push), .stk_we_o(g_stk_we), .stk_push_slot_o(g_push_slot),
    .stk_pop_o(g_pop),
    .stk_top_i(peek_slot), .stk_nonempty_i(!peek_fresh), .stk_ready_i(tbl_ready),
    .q_count_i(q_count), .q_sel_o(g_qsel), .q_off_o(g_qoff), .q_idx_o(g_qidx),
    .q_hdr_i(q_hdr), .q_data_i(q_rdata), .fh_i(fh_q));

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      gc_low_q       <= MAX_CREATES[SLOT_W:0];
`ifndef AM_DSP_REGS
      gc_period_q    <= 16'd1024;
      gc_left_q      <= 16'd1024;
`endif
      gc_runs_q      <= 32'd0;
      gc_recl_q      <= 32'd0;
      gc_cycles_q    <= 32'd0;
      gc_pause_q     <= 32'd0;
      gc_pause_max_q <= 32'd0;
      gc_live_max_q  <= {(SLOT_W+1){1'b0}};
    end else begin
      if (w_gc_low)    gc_low_q <= mem_wdata_i[SLOT_W:0];
`ifndef AM_DSP_REGS
      if (d_snap && gc_left_q != 16'd0) gc_left_q <= gc_left_q - 1'b1;   // FETCH, REDIR
      if (g_done) gc_left_q <= gc_period_q;
      if (w_gc_period) begin
        gc_period_q <= mem_wdata_i[15:0];
        gc_left_q   <= mem_wdata_i[15:0];
      end
`endif
      if (STATS != 0) begin
        if (d_gc) begin
          gc_cycles_q <= gc_cycles_q + 1'b1;
          gc_pause_q  <= gc_pause_q + 1'b1;
        end
        if (g_done) begin
          gc_runs_q  <= gc_runs_q + 1'b1;
          gc_recl_q  <= gc_recl_q + {{(31-SLOT_W){1'b0}}, g_reclaimed};
          gc_pause_q <= 32'd0;
          if (gc_pause_q + 1'b1 > gc_pause_max_q) gc_pause_max_q <= gc_pause_q + 1'b1;
          if (gc_live_after > gc_live_max_q) gc_live_max_q <= gc_live_after;
        end
      end
    end
  end

  // ---------------------------------------------------------------- watchdog
  reg             wd_on_q;      // wd_budget_q != 0
`ifndef AM_DSP_REGS
  wire [WD_W-1:0] wd_rem_d  = d_open ? wd_rem_q - 1'b1 : wd_budget_q;
`endif
  wire            wd_over_d = d_open && wd_on_q && (wd_rem_q[WD_W-1:1] == 0);
  // the budget written, saturated to WD_W bits
  wire [WD_W-1:0] wd_wval;
  generate
    if (WD_W < 32) begin : g_wd_sat
      assign wd_wval = (mem_wdata_i[31:WD_W] != 0) ? {WD_W{1'b1}} : mem_wdata_i[WD_W-1:0];
    end else begin : g_wd_full
      assign wd_wval = mem_wdata_i[WD_W-1:0];
    end
  endgenerate
  wire        wd_hold_d   = w_wdog ? 1'b0 : (wd_fire ? 1'b1 : wd_hold_q);

  // ---------------------------------------------------------------- the busy flag, a cycle ahead
  wire run_d  = w_ctrl ? mem_wdata_i[0] : run_q;
  wire pend_d = send_go || create_go || inject_go || spawn_go || free_go || t_inject || t_free;
  wire busy_d = d_owns_d || pend_d || !t_ready_d ||
                (d_idle_d && run_d && !wd_hold_d && (!q_empty_d || d_redir_d)) ||
                (d_open_d && !wd_hold_d && wd_over_d);
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q   <= 1'b0;
      wr_acc_q <= 1'b0;
    end else begin
      busy_q   <= busy_d;
      wr_acc_q <= wr_next_i && !busy_d;
    end
  end
  assign ready_d_o = rd_acc || (wr_next_i && !busy_d);
  wire unused_redir = d_redir;   // read by the check below only (TRACE=1)
  generate
    if (TRACE != 0) begin : g_busy_check
      wire busy_now = d_owns || pending || !tbl_ready ||
                      (d_idle && run_q && !wd_hold_q && (!q_empty || d_redir)) || wd_fire;
      always @(posedge clk_i) begin
        if (rst_ni && busy_q != busy_now) begin
          $display("am_actor_unit: busy_q = %0d but the direct formula gives %0d", busy_q, busy_now);
          $stop;
        end
        if (rst_ni && inject_go && nsends != {SW{1'b0}}) begin
          $display("am_actor_unit: an INJECT with %0d sends staged", nsends);
          $stop;
        end
        if (rst_ni && bw_we && (b_meta_we || d_owns || d_gc)) begin
          $display("am_actor_unit: a BECOME_W write and a meta write in one cycle");
          $stop;
        end
        if (rst_ni && fh_nz_q != (fh_q != 32'd0)) begin
          $display("am_actor_unit: fh_nz_q = %0d, FAULT_HANDLER %08x", fh_nz_q, fh_q);
          $stop;
        end
        if (rst_ni && wr_acc_q != (mem_valid_i && wr && !busy_q)) begin
          $display("am_actor_unit: wr_acc_q = %0d, but valid %0d write %0d busy %0d (wr_next_i wrong?)",
                   wr_acc_q, mem_valid_i, wr, busy_q);
          $stop;
        end
      end
    end
  endgenerate
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      wd_budget_q <= {WD_W{1'b0}};
      wd_on_q     <= 1'b0;
`ifndef AM_DSP_REGS
      wd_rem_q    <= {WD_W{1'b0}};
`endif
      wd_hold_q   <= 1'b0;
      wd_over_q   <= 1'b0;
    end else begin
`ifndef AM_DSP_REGS
      wd_rem_q  <= wd_rem_d;
`endif
      wd_over_q <= wd_over_d;
      if (wd_fire) wd_hold_q <= 1'b1;
      if (w_wdog) begin
        wd_budget_q <= wd_wval;
        wd_on_q     <= (mem_wdata_i != 32'd0);
        wd_hold_q   <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- fault handler and fault info
  // FAULT_HANDLER: where aborted events are delivered (reset: the console;
  // 0 = nowhere). SET_HANDLER stages a new one, applied at commit (it is AM_NIL
  // or a reference inside the table, so {generation, slot} holds it). The
  // fault info of the failed event is latched at the end of its transaction
  // and read by the handler while the delivery is open: cause, behavior (or
  // dead), the target -- the header of the queue entry being delivered,
  // which the queue reads from CHECK on while the transaction is open (from
  // registered state: the next-state logic stays off the RAM's address) --,
  // and the FAIL code, which is abort_code_q itself: it is written by a
  // transaction's first fault when that is FAIL, never during a fault
  // delivery (whose own faults are not delivered), so it still holds the
  // failed event's code while its delivery runs.
`ifdef AM_DSP_REGS
  reg  [31:0] fh_q;
  wire [31:0] abort_code_q;
  wire [16+SLOT_W-1:0] sh_val_q;
`else
  reg  [31:0] fh_q, abort_code_q;
  reg  [16+SLOT_W-1:0] sh_val_q;
`endif
  reg         fh_nz_q;      // fh_q != 0, kept with it (off the dispatcher's paths)
  reg         sh_pend_q;
  reg  [3:0]  f_cause_q;
  reg  [BEH_W-1:0] f_beh_q;
  reg         f_dead_q;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      fh_q         <= 32'h0001_0000;
      fh_nz_q      <= 1'b1;
      sh_pend_q    <= 1'b0;
`ifndef AM_DSP_REGS
      sh_val_q     <= {(16+SLOT_W){1'b0}};
      abort_code_q <= 32'd0;
`endif
    end else begin
      if (w_fh) begin
        fh_q    <= mem_wdata_i;
        fh_nz_q <= (mem_wdata_i != 32'd0);
      end
      if (set_fh_go) begin
        sh_pend_q <= 1'b1;
`ifndef AM_DSP_REGS
        sh_val_q  <= {mem_wdata_i[31:16], mem_wdata_i[SLOT_W-1:0]};
`endif
      end
`ifndef AM_DSP_REGS
      if (w_abort_code && !d_fault) abort_code_q <= mem_wdata_i;
`endif
      if (d_end) begin
        if (d_commit && sh_pend_q) begin
          fh_q    <= {sh_val_q[16+SLOT_W-1:SLOT_W], {(16-SLOT_W){1'b0}}, sh_val_q[SLOT_W-1:0]};
          fh_nz_q <= (sh_val_q != 0);
        end
        sh_pend_q <= 1'b0;
      end
    end
  end
  // the first fault of a transaction is FAIL: its code (ABORT[FAIL] or ABORT[0])
  wire w_abort_code = w_abort && cause == 4'd0 && (a_n == 4'd1 || a_n == 4'd0);
  always @(posedge clk_i) begin
    if (d_end && !d_commit && !d_fault) begin
      f_cause_q  <= end_cause;
      f_beh_q    <= d_beh;
      f_dead_q   <= d_dead;
    end
  end
  wire f_open = d_open && d_fault;
  wire [31:0] f_target = {q_hdr[4+SLOT_W +: 16], {(16-SLOT_W){1'b0}}, q_hdr[4 +: SLOT_W]};

  // ---------------------------------------------------------------- control registers, counters
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      run_q        <= 1'b0;
      beh_count_q  <= BEH_COUNT_RESET[BEH_W:0];
      ext_q        <= E_OK;
      new_ref_q    <= {(16+SLOT_W){1'b0}};
      cycles_q     <= 32'd0;
      commits_q    <= 32'd0;
      aborts_q     <= 32'd0;
      live_q       <= {{SLOT_W{1'b0}}, 1'b1};
      last_cause_q <= 4'd0;
    end else begin
      if (STATS != 0) cycles_q <= cycles_q + 1'b1;
      if (w_ctrl)   run_q <= mem_wdata_i[0];
      if (w_behcnt) beh_count_q <= mem_wdata_i[BEH_W:0];
      // external operations: first cycle decides the simple errors
      if (w_inject || w_spawn || w_free) begin
        if (!ext_free)                         ext_q <= E_BUSY;
        else if (w_inject && !w_msg_ok)        ext_q <= E_BAD_ARG;
        else if (w_inject && q_full)           ext_q <= E_QUEUE_FULL;
        else if (w_spawn && !(w_beh_ok && w_st_ok)) ext_q <= E_BAD_ARG;
        else if (w_spawn && !peek_ok)          ext_q <= E_TABLE_FULL;
      end
      if (t_inject2 || t_free2) ext_q <= p_ok_q ? E_OK : E_BAD_REF;
      if (t_spawn)            ext_q <= E_OK;
      if (w_create && !create_go) new_ref_q <= {(16+SLOT_W){1'b0}};
      if (w_spawn && !spawn_go)   new_ref_q <= {(16+SLOT_W){1'b0}};
      if (t_create || t_spawn)    new_ref_q <= {p_new_gen, p_slot_q};
      if (d_end && d_commit) begin
        if (STATS != 0) commits_q <= commits_q + 1'b1;
        live_q    <= live_q + {{(SLOT_W+1-CW){1'b0}}, ncreates};
      end
      if (d_end && !d_commit) begin
        if (STATS != 0) aborts_q <= aborts_q + 1'b1;
        last_cause_q <= end_cause;
      end
      if (t_spawn) live_q <= live_q + 1'b1;
      if (free_ok) live_q <= live_q - 1'b1;
      if (g_done)  live_q <= gc_live_after;
    end
  end

  // ---------------------------------------------------------------- read data
  wire [31:0] self_ref = {d_self_gen, {(16-SLOT_W){1'b0}}, d_self_slot};
  reg  [31:0] rd_reg;
  always @(*) begin
    rd_reg = 32'd0;
    case (a)
      8'h00: rd_reg = {16'd0, last_cause_q, cause, 3'd0, wd_hold_q, d_open && (cause != 4'd0),
                       run_q, q_empty, d_open};
      8'h07: rd_reg[WD_W-1:0] = wd_budget_q;
      8'h0C: rd_reg[3:0] = f_open ? f_cause_q : 4'd0;     // 0x030 F_CAUSE
      8'h0D: rd_reg = (f_open && f_cause_q == 4'd1) ? abort_code_q : 32'd0;   // 0x034 F_CODE
      8'h0E: rd_reg = f_open ? f_target : 32'd0;          // 0x038 F_TARGET
      8'h0F: rd_reg = !f_open ? 32'd0 : f_dead_q ? 32'hFFFF_FFFF :            // 0x03C F_BEH
                      {{(32-BEH_W){1'b0}}, f_beh_q};
      8'hA8: rd_reg = fh_q;                               // 0x2A0 FAULT_HANDLER
      8'h01: rd_reg = {31'd0, run_q};
      8'h02: rd_reg[BEH_W:0] = beh_count_q;
      8'h03: rd_reg = {29'd0, ext_q};
      8'h04: rd_reg = {new_ref_q[15+SLOT_W:SLOT_W], {(16-SLOT_W){1'b0}}, new_ref_q[SLOT_W-1:0]};
      8'h06, 8'hA7: rd_reg[QUEUE_AW-1:0] = q_count;
      8'h08: rd_reg = d_open ? self_ref : 32'd0;
      8'h09: rd_reg[BEH_W-1:0] = d_open ? d_beh : {BEH_W{1'b0}};
      8'h0A: rd_reg[3:0] = d_open ? d_len : 4'd0;
      8'h0B, 8'hA1: rd_reg = (STATS != 0) ? d_seq : 32'd0;   // SEQ, DISPATCHES: a statistic
      8'hA0: rd_reg = (STATS != 0) ? cycles_q : 32'd0;
      8'hA2: rd_reg = (STATS != 0) ? commits_q : 32'd0;
      8'hA3, 8'hA4: rd_reg = (STATS != 0) ? aborts_q : 32'd0;
      8'hA5: if (STATS != 0) rd_reg[QUEUE_AW-1:0] = q_hwm;   // 0x294 QUEUE_HWM: a statistic
      8'hA6: if (STATS != 0) rd_reg[SLOT_W:0] = live_q;      // 0x298 LIVE: a statistic
      8'hAA: rd_reg[SLOT_W:0] = t_free_n;                  // 0x2A8 FREE_SLOTS
      8'hAC: rd_reg[SLOT_W:0] = gc_low_q;                  // 0x2B0 GC_LOW
      8'hAD: rd_reg[15:0] = gc_period_q;                   // 0x2B4 GC_PERIOD
      8'hAE: if (STATS != 0) rd_reg = gc_runs_q;           // 0x2B8 GC_RUNS
      8'hAF: if (STATS != 0) rd_reg = gc_recl_q;           // 0x2BC GC_RECLAIMED
      8'hB0: if (STATS != 0) rd_reg = gc_cycles_q;         // 0x2C0 GC_CYCLES
      8'hB1: if (STATS != 0) rd_reg = gc_pause_max_q;      // 0x2C4 GC_MAX_PAUSE
      8'hB2: if (STATS != 0) rd_reg[SLOT_W:0] = gc_live_max_q;   // 0x2C8 GC_LIVE_MAX
      default: rd_reg = 32'd0;
    endcase
  end

  always @(posedge clk_i) begin
    if (!rst_ni) rd_ready_q <= 1'b0;
    else         rd_ready_q <= rd_acc;
  end
`ifdef AM_MUX_PORTS
  // (the ULX3S build: the read data through two multiplexers, as before
  // step 28)
  always @(posedge clk_i) begin
    if (rd_acc) begin
      rdata_q <= rd_reg;
      rsel_q  <= (a[7:3] == 5'h02) ? 2'd1 : (a[7:3] == 5'h03) ? 2'd2 : 2'd0;
      rmask_q <= d_open && ((a[7:3] == 5'h02) ? ({1'b0, a[2:0]} < d_len)
                                              : ({1'b0, a[2:0]} < d_slen));
    end
  end
  assign mem_rdata_o = (rsel_q == 2'd1) ? (rmask_q ? q_rdata : 32'd0) :
                       (rsel_q == 2'd2) ? (rmask_q ? st_rdata : 32'd0) : rdata_q;
`else
  // The read data is 0 except in the cycle a read completes (rd_ready_q):
  // rdata_q holds a register's value, q_on_q / st_on_q say that a message
  // or state word below the length is read (from the queue's or the
  // table's RAM, whose outputs are valid then), each for that cycle only,
  // so the output is their OR and the SoC ORs it with its other slaves'
  // read data: no multiplexer on a select register, at either level
  // (-74 iCE40 LCs on the iCEBreaker against the two multiplexers).
  wire a_msg_w = (a[7:3] == 5'h02);                  // 0x040 MSG[i]
  wire a_st_w  = (a[7:3] == 5'h03);                  // 0x060 STATE[i]
  wire a_in    = d_open && ({1'b0, a[2:0]} < (a_msg_w ? d_len : d_slen));
  reg  q_on_q, st_on_q;
  always @(posedge clk_i) begin
    rdata_q <= (rd_acc && !a_msg_w && !a_st_w) ? rd_reg : 32'd0;
    q_on_q  <= rd_acc && a_msg_w && a_in;
    st_on_q <= rd_acc && a_st_w && a_in;
  end
  assign mem_rdata_o = (q_on_q ? q_rdata : 32'd0) | (st_on_q ? st_rdata : 32'd0) | rdata_q;
`endif

  // ---------------------------------------------------------------- registers in DSP blocks
  // With AM_DSP_REGS (the iCEBreaker): the FAIL code, the staged
  // SET_HANDLER, the checked reference's generation and GC_PERIOD are held
  // by three am_dsp_reg2x16, the collector's period count and the
  // watchdog's count by two am_dsp_down (rtl/boards/am_dsp_ice40.v), each
  // loaded with the same enable, data and reset as the flip-flops it
  // replaces. (A register loaded from the bus takes an iCE40 logic cell per
  // bit, its input being shared; a counter a cell per bit plus its logic.)
  // Two differences inside a reset, none after one of two cycles or more
  // (the boards' lasts 64 cycles): the DSP registers reset asynchronously
  // (rst_ni is a register: the first edge that sees it low resets them, as
  // a synchronous reset would), and the counters load in reset instead of
  // resetting -- the period count 1024; the watchdog count the budget, reset
  // to 0, as in every cycle no transaction is open (the dispatcher resets to
  // idle).
`ifdef AM_DSP_REGS
  wire        code_we = w_abort_code && !d_fault;
  wire [15:0] sh_val_lo;
  am_dsp_reg2x16 u_code (.clk_i(clk_i), .rst_ni(rst_ni),
    .hi_en_i(code_we), .hi_d_i(mem_wdata_i[31:16]), .hi_q_o(abort_code_q[31:16]),
    .lo_en_i(code_we), .lo_d_i(mem_wdata_i[15:0]),  .lo_q_o(abort_code_q[15:0]));
  am_dsp_reg2x16 u_sh_val (.clk_i(clk_i), .rst_ni(rst_ni),
    .hi_en_i(set_fh_go), .hi_d_i(mem_wdata_i[31:16]), .hi_q_o(sh_val_q[16+SLOT_W-1:SLOT_W]),
    .lo_en_i(set_fh_go), .lo_d_i({{(16-SLOT_W){1'b0}}, mem_wdata_i[SLOT_W-1:0]}), .lo_q_o(sh_val_lo));
  assign sh_val_q[SLOT_W-1:0] = sh_val_lo[SLOT_W-1:0];
  am_dsp_reg2x16 #(.LO_RESET(16'd1024)) u_gen_period (.clk_i(clk_i), .rst_ni(rst_ni),
    .hi_en_i(wr_acc),      .hi_d_i(mem_wdata_i[31:16]), .hi_q_o(p_gen_q),
    .lo_en_i(w_gc_period), .lo_d_i(mem_wdata_i[15:0]),  .lo_q_o(gc_period_q));
  am_dsp_down #(.W(16)) u_gc_left (.clk_i(clk_i),
    .load_i(!rst_ni || g_done || w_gc_period), .dec_i(d_snap && (gc_left_q != 16'd0)),
    .d_i(!rst_ni ? 16'd1024 : w_gc_period ? mem_wdata_i[15:0] : gc_period_q), .q_o(gc_left_q));
  am_dsp_down #(.W(WD_W)) u_wd_rem (.clk_i(clk_i),
    .load_i(!d_open), .dec_i(d_open), .d_i(wd_budget_q), .q_o(wd_rem_q));
  // (the count's bit 0 only feeds the flip-flops' decrement)
  wire unused_dsp = ^{sh_val_lo[15:SLOT_W], wd_rem_q[0]};
`endif

  // ---------------------------------------------------------------- trace port
  generate
    if (TRACE != 0) begin : g_trace
      reg [31:0] sw_sh [0:7];   // last SEND_W words
      reg [31:0] ns_sh [0:7];   // last NEW_STATE words
      reg [31:0] bw_sh [0:7];   // last BECOME_W words
      reg [31:0] p_ref_q;
      reg [31:0] tr_code_q;     // the FAIL code of this transaction, deliveries too
      always @(posedge clk_i) begin
        if (!rst_ni || d_end) tr_code_q <= 32'd0;
        else if (w_abort_code) tr_code_q <= mem_wdata_i;
      end
      always @(posedge clk_i) begin
        if (w_send_w) sw_sh[a[2:0]] <= mem_wdata_i;
        if (w_new_st) ns_sh[a[2:0]] <= mem_wdata_i;
        if (w_bec_w)  bw_sh[a[2:0]] <= mem_wdata_i;
        if (wr_acc)   p_ref_q <= mem_wdata_i;
      end
      reg        v;
      reg [3:0]  k, len;
      reg [31:0] rf, bf;
      reg [32*8-1:0] wds;
      integer i;
      always @(*) begin
        v = 1'b1; k = 4'd0; rf = 32'd0; bf = 32'd0; len = 4'd0; wds = {32*8{1'b0}};
        if (g_done) begin
          k = 4'd11; rf[SLOT_W:0] = g_reclaimed; bf[SLOT_W:0] = gc_live_after;
        end else if (d_disp || d_end) begin
          k = d_disp ? 4'd1 : (d_commit ? 4'd5 : 4'd6);
          rf = self_ref; len = d_len;
          bf[BEH_W-1:0] = d_disp ? d_chk_beh : d_beh;
          for (i = 0; i < MSG_WORDS; i = i + 1) wds[32*i +: 32] = q_trw[32*i +: 32];
        end else if (t_send && p_ref_ok) begin
          k = 4'd3; rf = p_ref_q; len = p_n_q;
          for (i = 0; i < 8; i = i + 1) wds[32*i +: 32] = sw_sh[i];
        end else if (inject_ok) begin
          k = 4'd8; rf = p_ref_q; len = p_n_q;
          for (i = 0; i < 8; i = i + 1) wds[32*i +: 32] = sw_sh[i];
        end else if (t_create || t_spawn) begin
          k = t_create ? 4'd2 : 4'd7; len = p_n_q; bf[BEH_W-1:0] = p_beh_q;
          rf = {p_new_gen, {(16-SLOT_W){1'b0}}, p_slot_q};
          for (i = 0; i < 8; i = i + 1) wds[32*i +: 32] = ns_sh[i];
        end else if (w_become && become_go) begin
          k = 4'd4; len = a_n; bf[BEH_W-1:0] = mem_wdata_i[BEH_W-1:0];
          for (i = 0; i < 8; i = i + 1) wds[32*i +: 32] = bw_sh[i];
        end else if (free_ok) begin
          k = 4'd9; rf = p_ref_q;
        end else if (set_fh_go) begin
          k = 4'd10; rf = mem_wdata_i;
        end else begin
          v = 1'b0;
        end
        for (i = 0; i < 8; i = i + 1)
          if (i >= len) wds[32*i +: 32] = 32'd0;
      end
      assign trace_valid_o = v;
      assign trace_kind_o  = k;
      assign trace_seq_o   = d_seq;
      assign trace_ref_o   = rf;
      assign trace_beh_o   = bf;
      assign trace_len_o   = len;
      assign trace_words_o = wds;
      assign trace_cause_o = (d_end && !d_commit) ? end_cause : 4'd0;
      assign trace_code_o  = g_done ? {{(31-SLOT_W){1'b0}}, t_free_n} :   // GC: free slots after
                             (d_end && !d_commit && end_cause == 4'd1) ? tr_code_q : 32'd0;
    end else begin : g_notrace
      wire unused_trace_only = w_become;   // the trace port's only reader
      assign trace_valid_o = 1'b0;
      assign trace_kind_o  = 4'd0;
      assign trace_seq_o   = 32'd0;
      assign trace_ref_o   = 32'd0;
      assign trace_beh_o   = 32'd0;
      assign trace_len_o   = 4'd0;
      assign trace_words_o = {32*8{1'b0}};
      assign trace_cause_o = 4'd0;
      assign trace_code_o  = 32'd0;
    end
  endgenerate
endmodule

`default_nettype wire
