// am_gc — the garbage collector of the actor unit: stop-the-world mark and
// sweep between two transactions (docs/gc.md).
//
// Owns: the collector's sequencer and its counters of the run in progress.
// It borrows, while the dispatcher is in its GC state (and only then), the
// table's meta and state read ports, the meta write port, the free stack (as
// the mark stack, then rebuilt by the sweep) and the queue's read ports.
//
// Promises (the reference runtime's gc_collect, host/am_rt.c, step by step):
// * Roots, in this order: every pinned live slot (slots 0 .. next-1), the
//   fault handler word, every queued event from head to tail (its target,
//   then its message words below its length). A word marks the actor it
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
// * Cycles: 2 per used slot for the pinned-root scan and again for the
//   sweep, 2 per candidate word plus 2 per queued event, 2 per state word
//   read, 2 per marked actor (see docs/gc.md for the measured figures).
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

  localparam [4:0] G_IDLE = 5'd0, G_PIN_RD = 5'd1, G_PIN_EV = 5'd2, G_C_RD = 5'd3,
                   G_C_EV = 5'd4, G_Q_HDR = 5'd5, G_Q_HDRW = 5'd6, G_Q_MSG = 5'd7,
                   G_Q_MSGW = 5'd8, G_POP = 5'd9, G_T_METAW = 5'd10, G_T_ST = 5'd11,
                   G_T_STW = 5'd12, G_SW_RD = 5'd13, G_SW_EV = 5'd14, G_DONE = 5'd15,
                   G_START = 5'd16;

  reg [4:0]        g_q, ret_q;
  reg [SLOT_W-1:0] s_q, cur_q;
  reg [QAW-1:0]    e_q;
  reg [3:0]        i_q, n_q;
  reg [31:0]       cand_q;

  // meta fields
  wire [15:0] m_gen  = meta_rdata_i[`AM_META_GEN_LSB +: `AM_META_GEN_W];
  wire        m_live = meta_rdata_i[`AM_META_LIVE];
  wire [3:0]  m_slen = meta_rdata_i[`AM_META_SLEN_LSB +: `AM_META_SLEN_W];
  wire        m_pin  = meta_rdata_i[`AM_META_PIN];
  wire        m_mark = meta_rdata_i[`AM_META_MARK];

  // the candidate word: a reference to a slot inside the table?
  wire [SLOT_W-1:0] c_slot = cand_q[SLOT_W-1:0];
  wire c_inrange = (cand_q[15:SLOT_W] == 0) && ({1'b0, c_slot} < TABLE_SLOTS[SLOT_W:0]);
  wire c_mark    = meta_used_i && m_live && (m_gen == cand_q[31:16]) && !m_mark;

  wire [SLOT_W:0] s_next = {1'b0, s_q} + 1'b1;

  // The write enables depend on the state alone: in the three states that
  // may mark, reclaim or push, the meta word is always written (back
  // unchanged when nothing happens to it) and the pushed slot always
  // written into the stack RAM (one past its top, table: stk_we_i); only
  // the data and the stack pointer's move depend on the meta word read.
  // (On the ECP5 the decision, from the meta RAM's output, was the critical
  // path when it also drove the write enables.)
  wire ev = (g_q == G_PIN_EV) || (g_q == G_C_EV) || (g_q == G_SW_EV);
  assign stk_we_o    = ev;
  assign done_o      = (g_q == G_DONE);
  assign stk_clear_o = (g_q == G_START);
  assign stk_pop_o   = (g_q == G_POP) && stk_nonempty_i && stk_ready_i;
  assign q_sel_o     = (g_q == G_Q_HDR) || (g_q == G_Q_MSG);
  assign q_off_o     = e_q;
  assign q_idx_o     = i_q[MIW-1:0];
  assign st_raddr_o  = {cur_q, i_q[SIW-1:0]};

  always @(*) begin
    meta_raddr_o    = s_q;
    meta_we_o       = ev;
    meta_waddr_o    = s_q;
    meta_wdata_o    = meta_rdata_i;
    stk_push_o      = 1'b0;
    stk_push_slot_o = s_q;
    case (g_q)
      G_C_RD: meta_raddr_o = c_slot;
      G_POP:  meta_raddr_o = stk_top_i;
      G_PIN_EV: if (m_live && m_pin) begin
        meta_wdata_o[`AM_META_MARK] = 1'b1;
        stk_push_o = 1'b1;
      end
      G_C_EV: begin
        meta_waddr_o    = c_slot;
        stk_push_slot_o = c_slot;
        if (c_mark) begin
          meta_wdata_o[`AM_META_MARK] = 1'b1;
          stk_push_o = 1'b1;
        end
      end
      G_SW_EV: begin
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
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      g_q <= G_IDLE;
    end else begin
      case (g_q)
        G_IDLE:   if (start_i) g_q <= G_START;
        G_START:  g_q <= G_PIN_RD;
        G_PIN_RD: g_q <= G_PIN_EV;
        G_PIN_EV: g_q <= (s_next == next_i) ? G_C_RD : G_PIN_RD;   // then the handler word
        G_C_RD:   g_q <= c_inrange ? G_C_EV : ret_q;
        G_C_EV:   g_q <= ret_q;
        G_Q_HDR:  g_q <= (e_q == q_count_i) ? G_POP : G_Q_HDRW;
        G_Q_HDRW: g_q <= G_C_RD;
        G_Q_MSG:  g_q <= (i_q == n_q) ? G_Q_HDR : G_Q_MSGW;
        G_Q_MSGW: g_q <= G_C_RD;
        G_POP:    if (!stk_nonempty_i) g_q <= G_SW_RD;
                  else if (stk_ready_i) g_q <= G_T_METAW;
        G_T_METAW: g_q <= G_T_ST;
        G_T_ST:   g_q <= (i_q == n_q) ? G_POP : G_T_STW;
        G_T_STW:  g_q <= G_C_RD;
        G_SW_RD:  g_q <= G_SW_EV;
        G_SW_EV:  g_q <= (s_q == {SLOT_W{1'b0}}) ? G_DONE : G_SW_RD;
        G_DONE:   g_q <= G_IDLE;
        default:  g_q <= G_IDLE;
      endcase
    end
  end

  // The header as the unit packs it: {generation, slot, length}.
  wire [31:0] h_ref = {q_hdr_i[`AM_HDR_GEN_LSB +: `AM_HDR_GEN_W], {(16-SLOT_W){1'b0}}, q_hdr_i[`AM_HDR_SLOT_LSB +: `AM_HDR_SLOT_W]};

  always @(posedge clk_i) begin
    case (g_q)
      G_START: begin
        s_q         <= {SLOT_W{1'b0}};
        reclaimed_o <= {(SLOT_W+1){1'b0}};
      end
      G_PIN_EV: begin
        s_q <= s_next[SLOT_W-1:0];
        if (s_next == next_i) begin
          cand_q <= fh_i;
          ret_q  <= G_Q_HDR;
          e_q    <= {QAW{1'b0}};
        end
      end
      G_Q_MSG: if (i_q == n_q) e_q <= e_q + 1'b1;
      G_Q_HDRW: begin
        cand_q <= h_ref;
        n_q    <= q_hdr_i[`AM_HDR_LEN_LSB +: `AM_HDR_LEN_W];
        i_q    <= 4'd0;
        ret_q  <= G_Q_MSG;
      end
      G_Q_MSGW: begin
        cand_q <= q_data_i;
        i_q    <= i_q + 1'b1;
      end
      G_POP: begin
        cur_q <= stk_top_i;
        if (!stk_nonempty_i) s_q <= next_i[SLOT_W-1:0] - 1'b1;   // next >= 1
      end
      G_T_METAW: begin
        n_q   <= m_slen;
        i_q   <= 4'd0;
        ret_q <= G_T_ST;
      end
      G_T_STW: begin
        cand_q <= st_rdata_i;
        i_q    <= i_q + 1'b1;
      end
      G_SW_EV: begin
        s_q <= s_q - 1'b1;
        if (m_live && !m_mark) reclaimed_o <= reclaimed_o + 1'b1;
      end
      default: ;
    endcase
  end
endmodule

`default_nettype wire
