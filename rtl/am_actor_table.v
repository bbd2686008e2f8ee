// am_actor_table — actor metadata, actor state and the slot allocator.
//
// Owns: the meta RAM (per slot: generation, live, pending, behavior id,
// state length, pin, mark: include/am_iface.def's AM_IF_LAYOUT(META, ...)
// places them), the state RAM (STATE_WORDS x 32 bit per slot), the free
// stack RAM and the allocator registers (stack pointer sp, bump pointer
// next, and their transaction snapshot).
//
// Promises:
// * Reset makes slot 0 the console (gen 1, live, behavior 0, no state words)
//   by writing its meta word during reset, sp = 0, next = 1. No RAM needs
//   clearing: a slot >= next has never been used since reset, which the
//   table reports (meta_used_o = 0) together with the meta word, and the
//   caller treats such slots as dead and their previous generation as 0.
// * Allocation is deterministic: peek_slot_o is what alloc_i takes — the
//   top of the free stack if it is non-empty, else next. peek_fresh_o = 1
//   for a never-used slot. peek_ok_o = 0 when the table is full. After a
//   pop or restore the stack top is re-read from RAM (ready_o low for one
//   cycle); callers must not use peek_* while ready_o is low.
// * snap_i records sp; restore_i puts it back (abort). next is not put
//   back: a never-used slot an aborted CREATE took stays used, dead with the
//   generation it was given (am_dispatch writes its meta word), and the next
//   collection's sweep frees it -- so the aborted CREATE's reference never
//   names a later actor. free_snap_o, what restore_i gives back, loses each
//   never-used slot taken after the snap.
// * free_i pushes a slot on the free stack (the caller updates its meta).
//   The slot is written into the stack RAM by stk_we_i, not by free_i:
//   stk_we_i writes free_slot_i one past the top (where nothing live is)
//   and moves nothing, free_i then makes it the top. A caller raises
//   stk_we_i in every cycle that may push, from registers alone, so the
//   RAM's write enable waits for no decision (on the ECP5 the push
//   decisions run from the meta RAM's output, which was the critical path);
//   stk_we_i must be high whenever free_i is.
// * The collector (am_gc) borrows the free stack as its mark stack: clear_i
//   empties it, free_i pushes, alloc_i pops (only while it is non-empty);
//   its sweep then rebuilds it. free_o = stack entries + never-used slots,
//   kept in a register; free_snap_o is its value at the last snap_i (what
//   restore_i puts back).
// * Meta and state RAMs: one registered read port and one write port each;
//   read data appears the cycle after the address.
// * The BECOME buffer: the staged words of a transaction's BECOME live in
//   the meta RAM, past the slots (entries 2^SLOT_W + i; the meta RAM is
//   twice as deep, in the same block RAMs, and at least 32 bits wide), so
//   they cost no RAM of their own: bw_we_i writes word bw_widx_i through the
//   meta write port, bw_rd_i reads word bw_ridx_i through the meta read port
//   (bw_rdata_o the cycle after). The caller never writes both in one cycle
//   (the unit: BECOME_W is a bus write, a meta write from the bus side is
//   the second cycle of a checked operation, when the bus waits; the
//   sequencer reads the buffer only in its BEC state).
`default_nettype none
`include "am_defs.vh"

module am_actor_table #(
  parameter integer SLOT_W      = 7,   // log2 of TABLE_SLOTS
  parameter integer TABLE_SLOTS = 128, // <= 2^SLOT_W
  parameter integer STATE_WORDS = 8,   // power of two, 2..8
  parameter integer BEH_W       = 8,
  parameter integer META_W      = `AM_META_W   // the layout: include/am_iface.def
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  // meta RAM
  input  wire [SLOT_W-1:0]    meta_raddr_i,
  output wire [META_W-1:0]    meta_rdata_o,
  output wire                 meta_used_o,   // read slot < next (at read time)
  input  wire                 meta_we_i,
  input  wire [SLOT_W-1:0]    meta_waddr_i,
  input  wire [META_W-1:0]    meta_wdata_i,
  // state RAM
  input  wire [SLOT_W+SIW-1:0] st_raddr_i,
  output reg  [31:0]          st_rdata_o,
  input  wire                 st_we_i,
  input  wire [SLOT_W+SIW-1:0] st_waddr_i,
  input  wire [31:0]          st_wdata_i,
  // allocator
  output wire [SLOT_W-1:0]    peek_slot_o,
  output wire                 peek_fresh_o,
  output wire                 peek_ok_o,
  output wire                 ready_o,
  output wire                 ready_d_o,    // ready_o of the next cycle
  input  wire                 alloc_i,
  input  wire                 snap_i,
  input  wire                 restore_i,
  input  wire                 free_i,
  // an allocation / a free may happen this cycle (alloc_i / free_i imply
  // them): the ready flags are computed from these, so they do not wait for
  // the checks that decide alloc_i and free_i (the actor table's read, a
  // behavior id's compare); at worst ready comes a cycle late
  input  wire                 alloc_may_i,
  input  wire                 free_may_i,
  input  wire                 stk_we_i,
  input  wire [SLOT_W-1:0]    free_slot_i,
  input  wire                 clear_i,
  // the BECOME buffer (in the meta RAM)
  input  wire                 bw_we_i,
  input  wire [SIW-1:0]       bw_widx_i,
  input  wire [31:0]          bw_wdata_i,
  input  wire                 bw_rd_i,
  input  wire [SIW-1:0]       bw_ridx_i,
  output wire [31:0]          bw_rdata_o,
  output wire [SLOT_W:0]      next_o,
  output reg  [SLOT_W:0]      free_o,
  output reg  [SLOT_W:0]      free_snap_o
);
  localparam integer SIW = $clog2(STATE_WORDS);
  localparam integer MRW = META_W > 32 ? META_W : 32;   // meta RAM width

  (* ram_style = "block", no_rw_check *) reg [MRW-1:0]    meta_q [0:(2<<SLOT_W)-1];
  (* ram_style = "block", no_rw_check *) reg [31:0]       st_q   [0:(1<<(SLOT_W+SIW))-1];
  (* ram_style = "block", no_rw_check *) reg [SLOT_W-1:0] stk_q  [0:(1<<SLOT_W)-1];

  reg [SLOT_W:0] sp_q, next_q, snap_sp_q;
  reg [SLOT_W-1:0] top_q;
  reg              ready_q;    // ready_d_o, registered

  wire stk_nonempty = (sp_q != {(SLOT_W+1){1'b0}});
  assign peek_fresh_o = !stk_nonempty;
  assign peek_slot_o  = stk_nonempty ? top_q : next_q[SLOT_W-1:0];
  assign peek_ok_o    = stk_nonempty || (next_q < TABLE_SLOTS[SLOT_W:0]);
  assign ready_o      = ready_q;

  // sp may change this cycle; the stack may be non-empty next cycle (sp as
  // the block below updates it, with what may happen for what does: never
  // ready where the exact flags would not be)
  wire sp_change = restore_i || free_may_i || clear_i || (alloc_may_i && stk_nonempty);
  wire nonempty_d = restore_i  ? (snap_sp_q != {(SLOT_W+1){1'b0}}) :
                    clear_i    ? 1'b0 :
                    free_may_i ? 1'b1 :
                    (alloc_may_i && stk_nonempty) ? (sp_q != {{SLOT_W{1'b0}}, 1'b1}) : stk_nonempty;
  assign ready_d_o = !nonempty_d || !sp_change;
  assign next_o = next_q;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      sp_q        <= {(SLOT_W+1){1'b0}};
      next_q      <= {{SLOT_W{1'b0}}, 1'b1};
      snap_sp_q   <= {(SLOT_W+1){1'b0}};
      free_o      <= TABLE_SLOTS[SLOT_W:0] - 1'b1;
      free_snap_o <= TABLE_SLOTS[SLOT_W:0] - 1'b1;
    end else begin
      if (snap_i) begin
        snap_sp_q   <= sp_q;
        free_snap_o <= free_o;
      end else if (alloc_i && !stk_nonempty)
        free_snap_o <= free_snap_o - 1'b1;   // a never-used slot: not given back
      // free_o = sp + TABLE_SLOTS - next, kept in step
      if (restore_i) begin
        sp_q   <= snap_sp_q;
        free_o <= free_snap_o;
      end else if (clear_i) begin
        sp_q   <= {(SLOT_W+1){1'b0}};
        free_o <= TABLE_SLOTS[SLOT_W:0] - next_q;
      end else if (free_i) begin
        sp_q   <= sp_q + 1'b1;
        free_o <= free_o + 1'b1;
      end else if (alloc_i) begin
        if (stk_nonempty) sp_q <= sp_q - 1'b1;
        else              next_q <= next_q + 1'b1;
        free_o <= free_o - 1'b1;
      end
    end
  end

  // Free stack RAM; the top entry is re-read every cycle and is trusted one
  // full cycle after the last change of sp. A write goes one past the top
  // (never with a full stack, sp = 2^SLOT_W, whose index would wrap to 0).
  wire [SLOT_W-1:0] top_idx = sp_q[SLOT_W-1:0] - 1'b1;
  wire              stk_we  = stk_we_i && !sp_q[SLOT_W];
  always @(posedge clk_i) begin
    if (stk_we) stk_q[sp_q[SLOT_W-1:0]] <= free_slot_i;
    top_q <= stk_q[top_idx];
  end
  always @(posedge clk_i) begin
    if (!rst_ni) ready_q <= 1'b1;   // the stack is empty
    else         ready_q <= ready_d_o;
  end

  // Meta RAM (and the BECOME buffer past the slots); the console's meta
  // word is written during reset.
  // the console: pinned, live, generation 1
  localparam [META_W-1:0] CONSOLE_META = ({{(META_W-1){1'b0}}, 1'b1} << `AM_META_PIN) |
                                         ({{(META_W-1){1'b0}}, 1'b1} << `AM_META_LIVE) |
                                         ({{(META_W-1){1'b0}}, 1'b1} << `AM_META_GEN_LSB);
  wire                we_m    = !rst_ni || meta_we_i || bw_we_i;
  wire [SLOT_W:0]     waddr_m = !rst_ni ? {(SLOT_W+1){1'b0}} :
                                bw_we_i ? {1'b1, {(SLOT_W-SIW){1'b0}}, bw_widx_i} : {1'b0, meta_waddr_i};
  wire [MRW-1:0]      wdata_m = !rst_ni ? {{(MRW-META_W){1'b0}}, CONSOLE_META} :
                                bw_we_i ? {{(MRW-32){1'b0}}, bw_wdata_i} :
                                          {{(MRW-META_W){1'b0}}, meta_wdata_i};
  wire [SLOT_W:0]     raddr_m = bw_rd_i ? {1'b1, {(SLOT_W-SIW){1'b0}}, bw_ridx_i} : {1'b0, meta_raddr_i};
  reg  [MRW-1:0]      mrd_q;
  always @(posedge clk_i) begin
    if (we_m) meta_q[waddr_m] <= wdata_m;
    mrd_q <= meta_q[raddr_m];
  end
  assign meta_rdata_o = mrd_q[META_W-1:0];
  assign bw_rdata_o   = mrd_q[31:0];
  // "Used" compares the read's slot with next as they were at read time,
  // from registered copies, in the cycle the word comes out: so the compare
  // is not behind the read address's selection (the dispatcher's next-event
  // logic, the iCE40's critical path), and it runs beside the RAM's
  // clock-to-output.
  reg [SLOT_W-1:0] mraddr_q;
  reg [SLOT_W:0]   mnext_q;
  always @(posedge clk_i) begin
    mraddr_q <= meta_raddr_i;
    mnext_q  <= next_q;
  end
  assign meta_used_o = {1'b0, mraddr_q} < mnext_q;

  // State RAM.
  always @(posedge clk_i) begin
    if (st_we_i) st_q[st_waddr_i] <= st_wdata_i;
    st_rdata_o <= st_q[st_raddr_i];
  end
endmodule

`default_nettype wire
