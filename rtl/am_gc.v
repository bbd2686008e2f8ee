// am_gc — the garbage collector of the actor unit: stop-the-world mark and
// sweep between two transactions (docs/gc.md).
//
// Owns: the collector's sequencer, its counters of the run in progress, and
// the bound of the root scan: 1 + the highest slot a SPAWN ever took.
// It borrows, while the dispatcher is in its GC state (and only then), the
// table's meta and state read ports, the meta write port, the free stack (as
// the mark stack, then rebuilt by the sweep) and the queue's read ports.
//
// Promises (the reference runtime's am_rt_gc_collect, host/am_gc.c, step by step):
// * Roots, in this order: every pinned live slot (slots 0 .. the highest
//   slot a SPAWN ever took), the fault handler word, every queued event
//   from head to tail (its target, then its message words below its
//   length). A word marks the actor it
//   refers to when it is a valid reference: slot inside the table, slot used
//   (below next) and live, generation equal. Marked slots are pushed on the
//   mark stack; popping one scans its state words below its state length.
// * Sweep, slots next-1 down to 0: live and marked -> mark cleared; live and
//   not marked -> reclaimed (live, pin and mark cleared, generation kept);
//   every slot not live afterwards is pushed on the (emptied) free stack, so
//   the lowest free slot is allocated first.
// * Mark bits are clear outside a collection (the sweep clears them; the
//   unit writes new meta words with mark = 0).
// * done_o pulses for one cycle at the end, with reclaimed_o valid; the
//   queue's read ports are back on head/current in that cycle.
// * Cycles, one pipelined pass per phase (docs/gc.md, its cycle table): the root
//   scan reads a slot while it decides the one before, 1 per slot below the
//   highest slot ever spawned + 1 (only a SPAWN pins, so no pinned slot lies
//   above it); each candidate word takes 2 (meta read, decision), while its
//   source -- the queue or the state RAM -- already reads the next word;
//   4 per queued event besides its message words, 2 per marked actor besides
//   its state words (3 when it has any); the sweep 1 per used slot.
`default_nettype none
`include "am_defs.vh"

module am_gc #(
  parameter integer SLOT_W      = 7,
  parameter integer TABLE_SLOTS = 128,
  parameter integer BEH_W       = 8,
  parameter integer META_W      = `AM_META_W,
  parameter integer QAW         = 6,
  parameter integer MSG_WORDS   = 8,
  parameter integer STATE_WORDS = 8,
  parameter integer HDR_W       = `AM_HDR_W
) (
  input  wire                  clk_i,
  input  wire                  rst_ni,
  input  wire                  start_i,     // the dispatcher waits in its GC state
  output wire                  done_o,
  output reg  [SLOT_W:0]       reclaimed_o,
  // a SPAWN writes its slot's meta word (pinned) in this cycle
  input  wire                  spawn_i,
  input  wire [SLOT_W-1:0]     spawn_slot_i,
  // table: meta
  input  wire [SLOT_W:0]       next_i,
  output reg  [SLOT_W-1:0]     meta_raddr_o,
  input  wire [META_W-1:0]     meta_rdata_i,
  input  wire                  meta_used_i,
  output reg                   meta_we_o,
  output reg  [META_W-1:0]     meta_wdata_o,
  output reg  [SLOT_W-1:0]     meta_waddr_o,
  // table: state
  output wire [SLOT_W+SIW-1:0] st_raddr_o,
  input  wire [31:0]           st_rdata_i,
  // table: the free stack, used as the mark stack
  output wire                  stk_clear_o,
  output reg                   stk_push_o,
  output wire                  stk_we_o,    // a push may happen: write the stack RAM
  output reg  [SLOT_W-1:0]     stk_push_slot_o,
  output wire                  stk_pop_o,
  input  wire [SLOT_W-1:0]     stk_top_i,
  input  wire                  stk_nonempty_i,
  input  wire                  stk_ready_i,
  // queue
  input  wire [QAW-1:0]        q_count_i,
  output wire                  q_sel_o,
  output wire [QAW-1:0]        q_off_o,
  output wire [MIW-1:0]        q_idx_o,
  input  wire [HDR_W-1:0]      q_hdr_i,
  input  wire [31:0]           q_data_i,
  // the fault handler root
  input  wire [31:0]           fh_i
);
  localparam integer SIW  = $clog2(STATE_WORDS);
  localparam integer MIW  = $clog2(MSG_WORDS);

  // G_PIN and G_SW are pipelined scans: each cycle reads slot s_q and
  // decides slot p_q, read the cycle before (G_PIN_RD / G_SW_RD prime them).
  // G_C_RD reads the candidate's meta word, G_C_EV decides it and takes the
  // next word of its source, which the source's RAM has been reading since
  // G_C_RD.
  localparam [3:0] G_IDLE = 4'd0, G_START = 4'd1, G_PIN_RD = 4'd2, G_PIN = 4'd3,
                   G_C_RD = 4'd4, G_C_EV = 4'd5, G_Q_HDR = 4'd6, G_Q_HDRW = 4'd7,
                   G_POP = 4'd8, G_T_META = 4'd9, G_T_ST0 = 4'd10, G_SW_RD = 4'd11,
                   G_SW = 4'd12, G_DONE = 4'd13;
  // where the candidate word came from (what follows its decision)
  localparam [1:0] SRC_FH = 2'd0, SRC_Q = 2'd1, SRC_ST = 2'd2;

  reg [3:0]        g_q;
  reg [1:0]        src_q;
  reg [SLOT_W-1:0] s_q, p_q, cur_q;
  reg [QAW-1:0]    e_q;
  reg [3:0]        i_q, n_q;
  reg [15:0]       cgen_q;     // the candidate word's generation and slot
  reg [SLOT_W-1:0] cslot_q;
  reg              cin_q;      // the candidate may be a reference (cand_in, registered)
  reg              cev_q;      // the cycle after a candidate's decision (G_C_EV) ...
  reg              cpush_q;    // ... which marked it: its mark and push land in this cycle
  reg [SLOT_W-1:0] cpslot_q;   // ... the candidate's slot
  reg              cfwd_q;     // the candidate read in that cycle is that slot: marked
  reg [SLOT_W-1:0] pin_top_q;  // the highest slot a SPAWN took (the console's: 0)

  // meta fields
  wire [15:0] m_gen  = meta_rdata_i[`AM_META_GEN_LSB +: `AM_META_GEN_W];
  wire        m_live = meta_rdata_i[`AM_META_LIVE];
  wire [3:0]  m_slen = meta_rdata_i[`AM_META_SLEN_LSB +: `AM_META_SLEN_W];
  wire        m_pin  = meta_rdata_i[`AM_META_PIN];
  wire        m_mark = meta_rdata_i[`AM_META_MARK];

  // A word may be a reference when its slot is inside the table and its
  // generation is not 0 (no slot ever has generation 0: semantics.md,
  // "Allocation"). The next candidate is judged as it is taken.
  function automatic cand_in(input [31:0] w);
    cand_in = (w[31:16] != 16'd0) && (w[15:SLOT_W] == 0) &&
              ({1'b0, w[SLOT_W-1:0]} < TABLE_SLOTS[SLOT_W:0]);
  endfunction
  wire [SLOT_W-1:0] c_slot = cslot_q;
  // The header as the unit packs it: {generation, slot, length}.
  wire [31:0] h_ref = {q_hdr_i[`AM_HDR_GEN_LSB +: `AM_HDR_GEN_W], {(16-SLOT_W){1'b0}}, q_hdr_i[`AM_HDR_SLOT_LSB +: `AM_HDR_SLOT_W]};
  wire c_mark = cin_q && meta_used_i && m_live && (m_gen == cgen_q) && !m_mark && !cfwd_q;

  // The root scan ends at pin_top, which stays below next: a SPAWN
  // allocates below next, and only between transactions, so no abort's
  // restore takes next back below it. (A slot it reads at or above next
  // would not be used, and is not marked.)
  wire            unused_next = next_i[SLOT_W];   // the sweep's first slot: next - 1, its low bits
  wire            pin_last = (p_q == pin_top_q);

  // The next candidate word: the fault handler's after the root scan, an
  // event's target from its header, else the next word of the source, read
  // since G_C_RD or G_T_META (the queue's or the state RAM's).
  wire        more  = (i_q != n_q);
  wire [31:0] src_w = (src_q == SRC_Q) ? q_data_i : st_rdata_i;
  wire [31:0] nxt_w = (g_q == G_PIN) ? fh_i : (g_q == G_Q_HDRW) ? h_ref : src_w;
  wire        load_c = ((g_q == G_PIN) && pin_last) || (g_q == G_Q_HDRW) || (g_q == G_T_ST0) ||
                       ((g_q == G_C_EV) && (src_q != SRC_FH) && more);

  // No write enable waits for a decision that runs from the meta RAM's
  // output (on the ECP5 those decisions were the critical paths):
  // * G_PIN and G_SW decide from a bit or two of the word read and act in
  //   the same cycle. They always write the meta word (back unchanged when
  //   nothing happens to the slot) and the slot into the stack RAM (one
  //   past its top, table: stk_we_i); only the data and the stack
  //   pointer's move depend on the word.
  // * A candidate's decision, a 16-bit generation compare, is the deepest
  //   (acting on it in the same cycle limited the ULX3S at 8 of 10 seeds).
  //   G_C_EV only registers it and reads the candidate's meta word again;
  //   the next cycle (cev_q) writes that word back with its mark and pushes
  //   the slot, from registers. A candidate read in that cycle (the next
  //   word) misses the mark not yet written, which cfwd_q adds. If that
  //   cycle is G_POP, the push and the pop cancel: G_POP takes the
  //   candidate's slot (bypass) and leaves the stack as it is. The push is
  //   known from a register, so the stack RAM is written (and its top
  //   re-read after) only when there is one.
  // ev: the meta word is written this cycle; stk_we_o: a slot may be pushed.
  wire ev     = (g_q == G_PIN) || (g_q == G_SW) || cev_q;
  wire bypass = (g_q == G_POP) && cev_q && cpush_q;
  assign stk_we_o    = (g_q == G_PIN) || (g_q == G_SW) || (cev_q && cpush_q);
  assign done_o      = (g_q == G_DONE);
  assign stk_clear_o = (g_q == G_START);
  assign stk_pop_o   = (g_q == G_POP) && !bypass && stk_nonempty_i && stk_ready_i;
  assign q_sel_o     = (src_q == SRC_Q);
  assign q_off_o     = e_q;
  assign q_idx_o     = i_q[MIW-1:0];
  assign st_raddr_o  = {cur_q, i_q[SIW-1:0]};

  always @(*) begin
    meta_raddr_o    = s_q;
    meta_we_o       = ev;
    meta_waddr_o    = p_q;
    meta_wdata_o    = meta_rdata_i;
    stk_push_o      = 1'b0;
    stk_push_slot_o = p_q;
    case (g_q)
      G_C_RD: meta_raddr_o = c_slot;
      G_POP:  meta_raddr_o = bypass ? cpslot_q : stk_top_i;
      G_PIN: if (meta_used_i && m_live && m_pin) begin
        meta_wdata_o[`AM_META_MARK] = 1'b1;
        stk_push_o = 1'b1;
      end
      G_C_EV: meta_raddr_o = c_slot;
      G_SW: begin
        if (m_live) begin
          meta_wdata_o[`AM_META_MARK] = 1'b0;
          if (!m_mark) begin
            meta_wdata_o[`AM_META_LIVE] = 1'b0;
            meta_wdata_o[`AM_META_PIN]  = 1'b0;
          end
        end
        stk_push_o = !(m_live && m_mark);
      end
      default: ;
    endcase
    if (cev_q) begin                  // the candidate decided the cycle before
      meta_waddr_o    = cpslot_q;
      meta_wdata_o[`AM_META_MARK] = m_mark || cpush_q;
      stk_push_slot_o = cpslot_q;
      stk_push_o      = cpush_q && !bypass;
    end
  end

  always @(posedge clk_i) begin
    cev_q  <= rst_ni && (g_q == G_C_EV);
    cfwd_q <= cev_q && cpush_q && (cpslot_q == c_slot);
    if (!rst_ni) begin
      g_q      <= G_IDLE;
      src_q    <= SRC_FH;
      pin_top_q <= {SLOT_W{1'b0}};
    end else begin
      if (spawn_i && spawn_slot_i > pin_top_q) pin_top_q <= spawn_slot_i;
      case (g_q)
        G_IDLE:   if (start_i) g_q <= G_START;
        G_START:  g_q <= G_PIN_RD;
        G_PIN_RD: g_q <= G_PIN;
        G_PIN:    if (pin_last) g_q <= G_C_RD;                 // then the handler word
        G_C_RD:   g_q <= G_C_EV;
        G_C_EV:   case (src_q)
                    SRC_FH:  g_q <= G_Q_HDR;
                    SRC_Q:   g_q <= more ? G_C_RD : G_Q_HDR;
                    default: g_q <= more ? G_C_RD : G_POP;
                  endcase
        G_Q_HDR:  g_q <= (e_q == q_count_i) ? G_POP : G_Q_HDRW;
        G_Q_HDRW: g_q <= G_C_RD;
        G_POP:    if (bypass) g_q <= G_T_META;
                  else if (!stk_nonempty_i) g_q <= G_SW_RD;
                  else if (stk_ready_i) g_q <= G_T_META;
        G_T_META: g_q <= (m_slen == 4'd0) ? G_POP : G_T_ST0;
        G_T_ST0:  g_q <= G_C_RD;
        G_SW_RD:  g_q <= G_SW;
        G_SW:     if (p_q == {SLOT_W{1'b0}}) g_q <= G_DONE;
        G_DONE:   g_q <= G_IDLE;
        default:  g_q <= G_IDLE;
      endcase
      case (g_q)
        G_START: src_q <= SRC_FH;
        G_C_EV:  if (src_q == SRC_FH) src_q <= SRC_Q;
        G_Q_HDR: if (e_q == q_count_i) src_q <= SRC_ST;
        default: ;
      endcase
    end
  end

  always @(posedge clk_i) begin
    if (load_c) begin
      {cgen_q, cslot_q} <= {nxt_w[31:16], nxt_w[SLOT_W-1:0]};
      cin_q <= cand_in(nxt_w);
    end
    case (g_q)
      G_START: begin
        s_q         <= {SLOT_W{1'b0}};
        reclaimed_o <= {(SLOT_W+1){1'b0}};
      end
      G_PIN_RD, G_PIN: begin
        p_q <= s_q;
        s_q <= s_q + 1'b1;
        e_q <= {QAW{1'b0}};
      end
      G_C_EV: begin
        cpush_q  <= c_mark;
        cpslot_q <= c_slot;
        if (src_q == SRC_Q && !more) e_q <= e_q + 1'b1;   // the event's last word: the next event
        if (load_c) i_q <= i_q + 1'b1;
      end
      G_Q_HDRW: begin
        // the event's target first; its word 0 is read from G_C_RD on
        n_q <= q_hdr_i[`AM_HDR_LEN_LSB +: `AM_HDR_LEN_W];
        i_q <= 4'd0;
      end
      G_POP: begin
        cur_q <= bypass ? cpslot_q : stk_top_i;
        i_q   <= 4'd0;                                         // word 0 is read in G_T_META
        if (!bypass && !stk_nonempty_i) s_q <= next_i[SLOT_W-1:0] - 1'b1; // next >= 1
      end
      G_T_META: n_q <= m_slen;
      G_T_ST0:  i_q <= 4'd1;
      G_SW_RD, G_SW: begin
        p_q <= s_q;
        s_q <= s_q - 1'b1;
        if (g_q == G_SW && m_live && !m_mark) reclaimed_o <= reclaimed_o + 1'b1;
      end
      default: ;
    endcase
  end
endmodule

`default_nettype wire
