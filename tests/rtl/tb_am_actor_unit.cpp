// tb_am_actor_unit — Verilator bench for rtl/am_actor_unit.v (TRACE=1).
//
// Drives the unit through its PicoRV32-style bus exactly as firmware would
// and runs a small behavioral model of docs/semantics.md next to it:
//  * directed: console at reset, SPAWN/INJECT/FREE/UNPIN errors, back-to-back
//    dispatches, multi-send commit, abort leaving no trace (allocator,
//    queue, state), DEAD_TARGET auto-abort, stale references (generations),
//    first fault wins, QUEUE_FULL at commit, TABLE_FULL, the cycle counts;
//    every fault record's operation and offending value (trace, F_OP and
//    F_VALUE);
//  * random: seeded behaviors (sends, creates, becomes, fails, aborts) and
//    external operations (UNPIN included; between transactions STATE reads
//    the console's state words: the host link's window on the export
//    table); every bus read and every trace record is compared with the
//    model. Prints PASS/FAIL, exits non-zero on failure.
//  * garbage collection: the model collects exactly where the unit must
//    (docs/gc.md: before a FETCH when fewer than GC_LOW slots are free and
//    the trigger is armed, or the period -- GC_PERIOD + 32 per live actor --
//    has run out; on demand when a CREATE finds no slot and no collection
//    ran since the last transaction: the event is retried, unseen) with the
//    same mark-sweep, so every
//    reference the unit hands out after a collection (slot reuse order) and
//    every collection record (reclaimed, live, free) is checked; the random
//    phase runs once with the reset settings and once collecting often;
//    directed: on demand, a fault delivery's CREATE, and COLLECT between
//    transactions.
#include "Vam_actor_unit.h"
#include "verilated.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <deque>
#include <vector>
#include <string>

static Vam_actor_unit *dut;
static uint64_t cyc = 0;
static int errors = 0;

// ------------------------------------------------------------------ trace
struct Rec {
  unsigned kind, len, cause, op;
  uint32_t seq, ref, beh, code, value, w[8];
  bool operator==(const Rec &o) const {
    if (kind != o.kind || len != o.len || cause != o.cause || seq != o.seq || ref != o.ref ||
        beh != o.beh || code != o.code || op != o.op || value != o.value) return false;
    for (int i = 0; i < 8; i++) if (w[i] != o.w[i]) return false;
    return true;
  }
};
static const char *kname[] = {"?", "DISPATCH", "CREATE", "SEND", "BECOME", "COMMIT", "ABORT", "SPAWN", "INJECT", "FREE",
                              "HANDLER", "GC", "GC_DEMAND", "STATE", "UNPIN", "GC_COLLECT"};
static std::vector<Rec> got, want;
static size_t checked = 0;
static void prec(const char *t, const Rec &r) {
  printf("  %s %s seq=%u ref=%08x beh=%u len=%u cause=%u code=%08x op=%u value=%08x w=", t,
         kname[r.kind < 16 ? r.kind : 0], r.seq, r.ref, r.beh, r.len, r.cause, r.code, r.op, r.value);
  for (int i = 0; i < 8; i++) printf("%x%s", r.w[i], i < 7 ? "," : "\n");
}

static void tick() {
  // sample the (combinational) trace port before the edge
  dut->clk_i = 0; dut->eval();
  if (dut->trace_valid_o) {
    Rec r; r.kind = dut->trace_kind_o; r.seq = dut->trace_seq_o; r.ref = dut->trace_ref_o;
    r.beh = dut->trace_beh_o; r.len = dut->trace_len_o; r.cause = dut->trace_cause_o;
    r.code = dut->trace_code_o; r.op = dut->trace_op_o; r.value = dut->trace_value_o;
    for (int i = 0; i < 8; i++) r.w[i] = dut->trace_words_o[i];
    got.push_back(r);
  }
  dut->clk_i = 1; dut->eval();
  cyc++;
}

#define CHECK(c, ...) do { if (!(c)) { errors++; printf("FAIL line %d: ", __LINE__); printf(__VA_ARGS__); printf("\n"); if (errors > 5) finish(); } } while (0)
static void finish();
static void fault_delivery();
static void delivery_on_demand();
static void collect_between();
static void gc_pause();
static void dispatch_point();

static int last_cycles;  // cycles the last bus access took (1 = no wait state)
// the unit's base address (include/am_iface.def)
#define AM_IF_BLOCK(blk, base, bits, doc, notes) static const uint32_t TB_BASE_##blk = base;
#include "am_iface.def"

// As PicoRV32 and the SoC do: one cycle with the look-ahead (a write comes
// next, or a read of this register), then the access, held until ready.
static uint32_t bus(uint32_t addr, uint32_t wdata, bool wr) {
  dut->wr_next_i = wr;
  dut->la_i = 1; dut->rd_la_i = !wr; dut->la_a_i = (addr >> 2) & 0xFF;
  tick();
  dut->la_i = 0; dut->rd_la_i = 0;
  dut->mem_valid_i = 1; dut->mem_addr_i = TB_BASE_AU | addr; dut->mem_wdata_i = wdata;
  dut->mem_wstrb_i = wr ? 0xF : 0;
  int n = 0;
  uint32_t r = 0;
  for (;;) {
    dut->clk_i = 0; dut->eval();
    bool rdy = dut->mem_ready_o;
    r = dut->mem_rdata_o;
    dut->wr_next_i = wr && !rdy;   // the write continues into the next cycle
    tick(); n++;
    if (rdy) break;
    // a collection holds the bus for up to a few thousand cycles (docs/gc.md)
    if (n > 20000) { printf("FAIL: bus hang at %03x (cycle %llu)\n", addr, (unsigned long long)cyc); errors++; exit(1); }
  }
  dut->mem_valid_i = 0; dut->mem_wstrb_i = 0;
  last_cycles = n;
  return r;
}
static uint32_t rd(uint32_t a) { return bus(a, 0, false); }
static void wr(uint32_t a, uint32_t d) { bus(a, d, true); }

// A new unit, its inputs quiet, through reset (the benches below each start
// from one).
static void fresh_unit() {
  delete dut;
  dut = new Vam_actor_unit;
  dut->stack_i = 0; dut->dp_next_i = 0; dut->dp_instr_i = 0; dut->dev_i = 0; dut->restart_i = 0; dut->rd_la_i = 0; dut->la_i = 0;
  dut->rst_ni = 0; for (int i = 0; i < 4; i++) tick(); dut->rst_ni = 1; tick();
}

// The dispatch point, as a behavior's `ret` makes it (rtl/am_unit_dp.v):
// the look-ahead one cycle early, then the instruction fetch of DISPATCH,
// held until the unit answers; the fetch completes in the cycle after the
// answer. Commits an open transaction (as COMMIT) and dispatches the next
// event. Returns the answer: a behavior id, DP_IDLE or DP_DEVICE.
// last_dp_cycles: the fetch's first cycle to its completion (1 = no wait).
enum { DP_IDLE = -1, DP_DEVICE = -2 };
static const int DP_IDX_W = 10;   // BEH_W + 2
// A RETRY answer (a dead event) is a jump to DISPATCH: the core fetches it
// again, after the jump's cycles (dp_retries counts them).
static int last_dp_cycles, dp_retries;
static int dp_fetch() {
  for (;;) {
    dut->dp_next_i = 1; tick();
    dut->dp_instr_i = 1;
    int n = 0, idx = 0;
    bool retry = false;
    for (;;) {
      dut->clk_i = 0; dut->eval();
      bool ans = dut->dp_rd_o;
      if (ans) {
        idx = ((int)(dut->dp_idx_o << (32 - DP_IDX_W))) >> (32 - DP_IDX_W);
        retry = dut->dp_retry_o;
      }
      tick(); n++;
      if (ans) break;
      if (n > 20000) { printf("FAIL: dispatch point hang (cycle %llu)\n", (unsigned long long)cyc); errors++; exit(1); }
    }
    dut->dp_next_i = 0;          // the fetch completes
    dut->clk_i = 0; dut->eval();
    CHECK(!dut->dp_rd_o, "one answer per fetch");
    tick();
    dut->dp_instr_i = 0;
    last_dp_cycles = n + 1;
    if (!retry) return idx;
    dp_retries++;
    tick(); tick();              // the core's jump back to DISPATCH
  }
}

// register map: the unit's registers of include/am_iface.def, by their
// names there (STATUS, MSG, SEND, ...)
#define TB_AU(name, off) name = off,
#define TB_UART(name, off)
#define TB_SYS(name, off)
enum {
#define AM_IF_REG(blk, name, off, acc, cyc, doc) TB_##blk(name, off)
#define AM_IF_ARRAY(blk, name, off, words, idx, acc, cyc, doc) TB_##blk(name, off)
#define AM_IF_WALIAS(blk, name, of) TB_##blk(name, of)
#include "am_iface.def"
};
#include "am_iface.h"

// F_OP's operations (include/am.h, enum am_fault_op)
enum { O_SEND = 1, O_CREATE, O_BECOME, O_SET_HANDLER, O_ABORT, O_COMMIT, O_RUN, O_DISPATCH };
static uint32_t len_of(unsigned n) { return n > 15 ? 15 : n; }   // as the address carries it
// SPAWN between transactions, no state words: the new reference
static uint32_t spawn0(uint32_t beh) { wr(SPAWN, beh); return rd(NEW_REF); }
// CREATE of behavior 3 with state [w0] in the open transaction: the new
// reference, 0 when it was refused (outside the random model)
static uint32_t create3(uint32_t w0) { wr(NEW_STATE, w0); wr(CREATE + 4, 3); return rd(NEW_REF); }


// ------------------------------------------------------------------ model
static const int SLOTS = 128, QD = 63, MW = 8, SWD = 8, MAXS = 8, MAXC = 4;
struct Actor { uint16_t gen = 0; bool live = false, pinned = false, mark = false; uint32_t beh = 0;
               unsigned slen = 0; uint32_t st[8] = {0}; };
struct Ev { uint32_t target; unsigned n; uint32_t w[8]; };
struct Model {
  Actor t[SLOTS];
  std::vector<int> stk; int next = 1;
  std::deque<Ev> q;
  uint32_t seq = 0, commits = 0, aborts = 0, beh_count = 3; int live = 1, hwm = 0;
  bool run = false;
  // current transaction
  bool open = false; Ev cur; uint32_t self_beh; int self_slot;
  std::vector<int> snap_stk;
  unsigned cause, fop; uint32_t code, fval;
  struct Cre { int slot; uint16_t gen; uint32_t beh; unsigned n; uint32_t w[8]; };
  std::vector<Cre> cre; std::vector<Ev> sends;
  bool bec; uint32_t bec_beh; unsigned bec_n; uint32_t bec_w[8];
  // state words written since the last BECOME (am_set_state; a BECOME's
  // own words among them), the next send's words written since the last
  // send, and FWD_FROM (am_forward)
  uint32_t sdirty = 0, sval[8] = {0}, fwd_set = 0, fwd_val[8] = {0}; int from_reg = 0;
  // garbage collection (docs/gc.md)
  unsigned gc_low = MAXC, gc_period = 1024, left = 1024;   // left: the period's count
  bool armed = true, fresh = false, retried = false;
  uint32_t gc_runs = 0, gc_recl = 0, retries = 0; int gc_live_max = 0;
  Model() { t[0].gen = 1; t[0].live = true; t[0].pinned = true; }
  int nfree() const { return (int)stk.size() + SLOTS - next; }
  bool gc_due() const {
    return (armed && nfree() < (int)gc_low) || (gc_period && left == 0);
  }
  bool gc_on() const { return gc_low || gc_period; }
  void gc_word(std::vector<int> &ms, uint32_t w) {
    if (valid(w) && !t[w & 0xFFFF].mark) { t[w & 0xFFFF].mark = true; ms.push_back(w & 0xFFFF); }
  }
  void gc(bool demand) {
    std::vector<int> ms;
    for (int s = 0; s < next; s++) if (t[s].live && t[s].pinned) { t[s].mark = true; ms.push_back(s); }
    gc_word(ms, fh);
    for (auto &e : q) { gc_word(ms, e.target); for (unsigned i = 0; i < e.n; i++) gc_word(ms, e.w[i]); }
    while (!ms.empty()) {
      int s = ms.back(); ms.pop_back();
      for (unsigned i = 0; i < t[s].slen; i++) gc_word(ms, t[s].st[i]);
    }
    unsigned recl = 0;
    stk.clear();
    for (int s = next - 1; s >= 0; s--) {
      if (t[s].live && t[s].mark) { t[s].mark = false; continue; }
      if (t[s].live) { t[s].live = false; t[s].pinned = false; recl++; live--; }
      stk.push_back(s);
    }
    left = gc_period + 32 * live; gc_runs++; gc_recl += recl;
    armed = nfree() >= 2 * (int)gc_low; fresh = true;
    if (live > gc_live_max) gc_live_max = live;
    Rec r = rec(demand ? 12 : 11); r.ref = recl; r.beh = live; r.code = nfree(); want.push_back(r);
  }
  uint32_t fh = 0;
  bool valid(uint32_t r) const {
    unsigned s = r & 0xFFFF, g = r >> 16;
    return s < SLOTS && t[s].live && t[s].gen == g;
  }
  bool peek(int &slot, uint16_t &gen) const {
    if (!stk.empty()) slot = stk.back(); else if (next < SLOTS) slot = next; else return false;
    unsigned old = (!stk.empty()) ? t[slot].gen : 0;
    gen = (uint16_t)(old + 1); if (gen == 0) gen = 1;
    return true;
  }
  void pop_alloc() { if (!stk.empty()) stk.pop_back(); else next++; }
  Rec rec(unsigned kind) { Rec r; memset(&r, 0, sizeof r); r.kind = kind; r.seq = seq; return r; }
  // advance: dispatch until a live target or empty (dead targets auto-abort)
  void advance() {
    while (run && !open && !q.empty()) {
      if (gc_due() && !fresh) gc(false);
      cur = q.front(); q.pop_front(); seq++;
      if (left) left--;
      retried = fresh; fresh = false;
      snap_stk = stk;
      cause = 0; code = 0; fop = 0; fval = 0; cre.clear(); sends.clear(); bec = false;
      sdirty = 0; fwd_set = 0; from_reg = 0;
      Rec d = rec(1); d.ref = cur.target; d.len = cur.n;
      for (unsigned i = 0; i < cur.n; i++) d.w[i] = cur.w[i];
      if (!valid(cur.target)) {
        d.beh = 0; want.push_back(d);
        Rec a = d; a.kind = 6; a.cause = 10; a.beh = 0; a.op = O_DISPATCH; want.push_back(a);
        aborts++; hist[10]++;
        continue;
      }
      self_slot = cur.target & 0xFFFF; self_beh = t[self_slot].beh;
      d.beh = self_beh; want.push_back(d);
      open = true;
    }
  }
  void fault(unsigned c, unsigned o, uint32_t v) { if (!cause) { cause = c; fop = o; fval = v; } }
  bool beh_ok(uint32_t b) const { return b < beh_count; }
  // staging ops; return value as seen by the firmware where relevant
  void send(uint32_t target, unsigned n, const uint32_t *w) {
    if (cause) return;
    if (n > MW) return fault(4, O_SEND, len_of(n));
    if (sends.size() == MAXS) return fault(6, O_SEND, target);
    bool ok = valid(target);
    for (auto &c : cre) if (((uint32_t)c.gen << 16 | c.slot) == target) ok = true;
    if (!ok) return fault(2, O_SEND, target);
    Ev e; e.target = target; e.n = n; memset(e.w, 0, sizeof e.w);
    for (unsigned i = 0; i < n; i++) e.w[i] = w[i];
    sends.push_back(e);
    fwd_set = 0;               // any send uses up the words written for it
    Rec r = rec(3); r.ref = target; r.len = n; memcpy(r.w, e.w, sizeof r.w); want.push_back(r);
  }
  uint32_t create(uint32_t beh, unsigned n, const uint32_t *w) {
    if (cause) return 0;
    if (!beh_ok(beh)) { fault(3, O_CREATE, beh); return 0; }
    if (n > SWD) { fault(5, O_CREATE, len_of(n)); return 0; }
    if (cre.size() == MAXC) { fault(7, O_CREATE, beh); return 0; }
    int slot; uint16_t gen;
    if (!peek(slot, gen)) { fault(8, O_CREATE, beh); return 0; }
    pop_alloc();
    Cre c; c.slot = slot; c.gen = gen; c.beh = beh; c.n = n; memset(c.w, 0, sizeof c.w);
    for (unsigned i = 0; i < n; i++) c.w[i] = w[i];
    cre.push_back(c);
    uint32_t ref = (uint32_t)gen << 16 | slot;
    Rec r = rec(2); r.ref = ref; r.beh = beh; r.len = n; memcpy(r.w, c.w, sizeof r.w); want.push_back(r);
    return ref;
  }
  void become(uint32_t beh, unsigned n, const uint32_t *w) {
    if (cause) return;
    if (!beh_ok(beh)) return fault(3, O_BECOME, beh);
    if (n > SWD) return fault(5, O_BECOME, len_of(n));
    bec = true; bec_beh = beh; bec_n = n; memset(bec_w, 0, sizeof bec_w);
    for (unsigned i = 0; i < n; i++) bec_w[i] = w[i];
    sdirty &= (1u << n) - 1;   // the words at or past n are forgotten
    Rec r = rec(4); r.beh = beh; r.len = n; memcpy(r.w, bec_w, sizeof r.w); want.push_back(r);
  }
  // a state word written (BECOME_W[i]): am_set_state, or a BECOME's word
  void state_word(unsigned i, uint32_t w) {
    if (cause || !open) return;
    sdirty |= 1u << i; sval[i] = w;
    Rec r = rec(13); r.len = i; r.w[0] = w; want.push_back(r);
  }
  // a SEND_W[i] write, and FORWARD: a send of words copied from the message
  void send_word(unsigned i, uint32_t w) { if (open) { fwd_set |= 1u << i; fwd_val[i] = w; } }
  void forward(uint32_t target, unsigned n) {
    uint32_t w[8] = {0};
    for (int i = 0; i < 8; i++) {
      int j = i + from_reg;
      w[i] = (fwd_set >> i & 1) ? fwd_val[i] : (j >= 0 && j < (int)cur.n) ? cur.w[j] : 0;
    }
    size_t ns = sends.size();
    send(target, n, w);
    if (sends.size() > ns) from_reg = 0;   // accepted: FWD_FROM used up
  }
  void fail(unsigned c, uint32_t cd) {
    if (!cause) { cause = c ? c : 1; code = (cause == 1) ? cd : 0; fop = O_ABORT; fval = cd; }
    end(false);
  }
  void commit() {
    if (!cause && q.size() + sends.size() > (size_t)QD) { cause = 9; fop = O_COMMIT; fval = 0; }
    end(cause == 0);
  }
  unsigned hist[16] = {0};
  // an abort's (or a retry's) allocator: the free stack as at dispatch;
  // the created slots dead with the generation their CREATE gave them, a
  // never-used one among them used from now on (next is not put back)
  void undo_creates() {
    stk = snap_stk;
    for (auto &c : cre) { t[c.slot].gen = c.gen; t[c.slot].live = false; }
  }
  void end(bool ok) {
    if (!ok && cause == 8 && !retried && gc_on()) {
      // a retry (docs/gc.md): no record; the event back at the head, its
      // sequence number back; a collection on demand, then the same event
      undo_creates();
      q.push_front(cur); seq--; retries++;
      open = false;
      gc(true);
      return;
    }
    hist[ok ? 0 : cause]++;
    Rec r = rec(ok ? 5 : 6); r.ref = cur.target; r.beh = self_beh; r.len = cur.n;
    for (unsigned i = 0; i < cur.n; i++) r.w[i] = cur.w[i];
    if (ok) {
      for (auto &c : cre) {
        Actor &a = t[c.slot]; a.gen = c.gen; a.live = true; a.beh = c.beh; a.pinned = false; a.slen = c.n;
        memset(a.st, 0, sizeof a.st); memcpy(a.st, c.w, sizeof c.w); live++;
      }
      if (bec || sdirty) {
        // the next state: the BECOME's (or self's), the words written after
        // it; 0 at or past the old length, kept below it (docs/semantics.md)
        Actor &a = t[self_slot];
        unsigned zfrom = bec ? bec_n : a.slen, blen = bec ? bec_n : a.slen;
        for (unsigned i = 0; i < 8; i++) if (sdirty >> i & 1 && i + 1 > blen) blen = i + 1;
        if (bec) a.beh = bec_beh;
        for (unsigned i = 0; i < 8; i++)
          a.st[i] = (sdirty >> i & 1) ? sval[i] : (i >= zfrom || i >= blen) ? 0 : a.st[i];
        a.slen = blen;
      }
      for (auto &e : sends) q.push_back(e);
      if ((int)q.size() > hwm) hwm = q.size();
      commits++;
    } else {
      r.cause = cause; r.code = code; r.op = fop; r.value = fval;
      undo_creates(); aborts++;
    }
    want.push_back(r);
    open = false;
  }
  // the dispatch point: commit what is open, dispatch the next event (the
  // answer: its behavior, or IDLE)
  int dp() {
    if (open) commit();
    advance();
    return open ? (int)self_beh : DP_IDLE;
  }
  // external operations; return EXT_STATUS
  unsigned spawn(uint32_t beh, unsigned n, const uint32_t *w, uint32_t &ref) {
    ref = 0;
    if (open) return 1;
    if (!beh_ok(beh) || n > SWD) return 5;
    int slot; uint16_t gen;
    if (!peek(slot, gen)) return 2;
    pop_alloc();
    Actor &a = t[slot]; a.gen = gen; a.live = true; a.beh = beh; a.pinned = true; a.slen = n;
    memset(a.st, 0, sizeof a.st);
    for (unsigned i = 0; i < n; i++) a.st[i] = w[i];
    live++;
    ref = (uint32_t)gen << 16 | slot;
    Rec r = rec(7); r.ref = ref; r.beh = beh; r.len = n; memcpy(r.w, a.st, sizeof r.w); want.push_back(r);
    return 0;
  }
  unsigned inject(uint32_t target, unsigned n, const uint32_t *w) {
    if (open) return 1;
    if (n > MW) return 5;
    if (q.size() == (size_t)QD) return 3;
    if (!valid(target)) return 4;
    Ev e; e.target = target; e.n = n; memset(e.w, 0, sizeof e.w);
    for (unsigned i = 0; i < n; i++) e.w[i] = w[i];
    q.push_back(e);
    if ((int)q.size() > hwm) hwm = q.size();
    Rec r = rec(8); r.ref = target; r.len = n; memcpy(r.w, e.w, sizeof r.w); want.push_back(r);
    return 0;
  }
  unsigned free_(uint32_t ref) {
    if (open) return 1;
    if (!valid(ref) || (ref & 0xFFFF) == 0) return 4;
    int s = ref & 0xFFFF; t[s].live = false; t[s].pinned = false; stk.push_back(s); live--;
    fresh = false;   // what it held may be garbage now
    Rec r = rec(9); r.ref = ref; want.push_back(r);
    return 0;
  }
  // no longer a root of the collector; everything else stays
  unsigned unpin(uint32_t ref) {
    if (open) return 1;
    if (!valid(ref) || (ref & 0xFFFF) == 0) return 4;
    t[ref & 0xFFFF].pinned = false;
    fresh = false;   // it may be garbage now: a collection may find something again
    Rec r = rec(14); r.ref = ref; want.push_back(r);
    return 0;
  }
} M;

static void check_trace(const char *where) {
  size_t n = got.size() < want.size() ? got.size() : want.size();
  for (size_t i = checked; i < n; i++) {
    if (!(got[i] == want[i])) {
      errors++; printf("FAIL: trace record %zu differs (%s, cycle %llu)\n", i, where, (unsigned long long)cyc);
      for (size_t j = (i > 8 ? i - 8 : 0); j <= i + 2 && j < got.size(); j++) { if (j < want.size()) prec("want", want[j]); prec("got ", got[j]); }
      finish();
    }
  }
  checked = n;
}

static void finish() {
  if (got.size() != want.size()) {
    printf("FAIL: %zu trace records, model expects %zu\n", got.size(), want.size());
    errors++;
  }
  if (errors) { printf("FAIL tb_am_actor_unit (%d errors)\n", errors); exit(1); }
}

// ------------------------------------------------------------------ bench helpers
static uint32_t rnd_state = 1;
static uint32_t rnd() { rnd_state ^= rnd_state << 13; rnd_state ^= rnd_state >> 17; rnd_state ^= rnd_state << 5; return rnd_state; }
static unsigned rn(unsigned n) { return rnd() % n; }

static std::vector<uint32_t> known;   // references the bench has seen (live or stale)

static void words_to(uint32_t base, unsigned n, uint32_t *w) {
  for (unsigned i = 0; i < n && i < 8; i++) { w[i] = rnd(); wr(base + 4 * i, w[i]); }
}
static void op_send(uint32_t target, unsigned n) {
  uint32_t w[8] = {0}; words_to(SEND_W, n, w);
  for (unsigned i = 0; i < n && i < 8; i++) M.send_word(i, w[i]);
  wr(SEND + 4 * (n > 15 ? 15 : n), target);
  M.send(target, n, w);
}
static uint32_t op_create(uint32_t beh, unsigned n) {
  uint32_t w[8] = {0}; words_to(NEW_STATE, n, w);
  wr(CREATE + 4 * (n > 15 ? 15 : n), beh);
  uint32_t r = rd(NEW_REF), e = M.create(beh, n, w);
  CHECK(r == e, "NEW_REF %08x, model %08x", r, e);
  if (r) known.push_back(r);
  return r;
}
static void op_become(uint32_t beh, unsigned n) {
  uint32_t w[8] = {0}; words_to(BECOME_W, n, w);
  for (unsigned i = 0; i < n && i < 8; i++) M.state_word(i, w[i]);
  wr(BECOME + 4 * (n > 15 ? 15 : n), beh);
  M.become(beh, n, w);
}
// am_set_state: one state word
static void op_set_state(unsigned i) {
  uint32_t w = rnd(); wr(STATE + 4 * i, w); M.state_word(i, w);
}
// am_forward: some words written, FWD_FROM (-8..8), FORWARD[n]
static void op_forward(uint32_t target, unsigned n) {
  for (unsigned k = rn(3); k > 0; k--) { unsigned i = rn(8); uint32_t w = rnd(); wr(SEND_W + 4 * i, w); M.send_word(i, w); }
  if (rn(2)) { int from = (int)rn(17) - 8; wr(FWD_FROM, (uint32_t)from & 31u); if (M.open) M.from_reg = from; }
  wr(FORWARD + 4 * (n > 15 ? 15 : n), target);
  M.forward(target, n);
}
static unsigned op_spawn(uint32_t beh, unsigned n, uint32_t *ref) {
  uint32_t w[8] = {0}; words_to(NEW_STATE, n, w);
  wr(SPAWN + 4 * (n > 15 ? 15 : n), beh);
  unsigned s = rd(EXT_STATUS); uint32_t r = rd(NEW_REF), e;
  unsigned es = M.spawn(beh, n, w, e);
  CHECK(s == es, "SPAWN status %u, model %u", s, es);
  if (es == 0) CHECK(r == e, "SPAWN ref %08x, model %08x", r, e);
  if (s == 0) known.push_back(r);
  if (ref) *ref = r;
  return s;
}
static unsigned op_inject(uint32_t target, unsigned n) {
  uint32_t w[8] = {0}; words_to(SEND_W, n, w);
  wr(INJECT + 4 * (n > 15 ? 15 : n), target);
  unsigned s = rd(EXT_STATUS), es = M.inject(target, n, w);
  CHECK(s == es, "INJECT %08x n=%u status %u, model %u", target, n, s, es);
  return s;
}
static unsigned op_free(uint32_t ref) {
  wr(FREE, ref);
  unsigned s = rd(EXT_STATUS), es = M.free_(ref);
  CHECK(s == es, "FREE %08x status %u, model %u", ref, s, es);
  return s;
}
static unsigned op_unpin(uint32_t ref) {
  wr(UNPIN, ref);
  unsigned s = rd(EXT_STATUS), es = M.unpin(ref);
  CHECK(s == es, "UNPIN %08x status %u, model %u", ref, s, es);
  return s;
}
// between transactions STATE[i] is the console's state word i
static void check_console_window() {
  for (int i = 0; i < 8; i++) {
    uint32_t v = rd(STATE + 4 * i), e = i < (int)M.t[0].slen ? M.t[0].st[i] : 0;
    CHECK(v == e, "console STATE[%d] %08x vs %08x between transactions", i, v, e);
  }
  CHECK(rd(MSG) == 0, "no message between transactions");
}
static void set_run(bool r) {
  wr(CTRL, r); M.run = r;
}
// the core at the dispatch point, in the unit and in the model
static void to_dp() {
  int want_idx = M.dp(), idx = dp_fetch();
  CHECK(idx == want_idx, "dispatch point answered %d, model %d", idx, want_idx);
}
// the next event (through the dispatch point unless a transaction is open),
// compared with the model
static uint32_t read_event() {
  if (!M.open) to_dp();
  uint32_t self = rd(SELF);
  CHECK(self == (M.open ? M.cur.target : 0), "SELF %08x, model %08x (open=%d)", self, M.open ? M.cur.target : 0, M.open);
  if (!M.open) return 0;
  CHECK(rd(BEH) == M.self_beh, "BEH");
  CHECK(rd(MSG_LEN) == M.cur.n, "MSG_LEN");
  CHECK(rd(SEQ) == M.seq, "SEQ %u vs %u", rd(SEQ), M.seq);
  for (int i = 0; i < 8; i++) {
    uint32_t v = rd(MSG + 4 * i), e = (unsigned)i < M.cur.n ? M.cur.w[i] : 0;
    CHECK(v == e, "MSG[%d] %08x vs %08x", i, v, e);
  }
  for (int i = 0; i < 8; i++) {
    uint32_t v = rd(STATE + 4 * i), e = M.t[M.self_slot].st[i];
    CHECK(v == e, "STATE[%d] %08x vs %08x (slot %d)", i, v, e, M.self_slot);
  }
  return self;
}
static void check_counters() {
  CHECK(rd(DISPATCHES) == M.seq, "DISPATCHES");
  CHECK(rd(COMMITS) == M.commits, "COMMITS %u vs %u", rd(COMMITS), M.commits);
  CHECK(rd(ABORTS) == M.aborts, "ABORTS %u vs %u", rd(ABORTS), M.aborts);
  CHECK(rd(FAULTS) == M.aborts, "FAULTS");
  CHECK(rd(LIVE) == (uint32_t)M.live, "LIVE %u vs %d", rd(LIVE), M.live);
  CHECK(rd(QUEUE_HWM) == (uint32_t)M.hwm, "HWM %u vs %d", rd(QUEUE_HWM), M.hwm);
  CHECK(rd(QUEUED) == M.q.size(), "QUEUED %u vs %zu", rd(QUEUED), M.q.size());
  CHECK(rd(FREE_SLOTS) == (uint32_t)M.nfree(), "FREE_SLOTS %u vs %d", rd(FREE_SLOTS), M.nfree());
  CHECK(rd(GC_RUNS) == M.gc_runs, "GC_RUNS %u vs %u", rd(GC_RUNS), M.gc_runs);
  CHECK(rd(GC_RECLAIMED) == M.gc_recl, "GC_RECLAIMED %u vs %u", rd(GC_RECLAIMED), M.gc_recl);
  CHECK(rd(GC_LIVE_MAX) == (uint32_t)M.gc_live_max, "GC_LIVE_MAX %u vs %d", rd(GC_LIVE_MAX), M.gc_live_max);
  CHECK((rd(GC_RUNS) == 0) == (rd(GC_CYCLES) == 0) && rd(GC_MAX_PAUSE) <= rd(GC_CYCLES), "GC cycle counters");
}
static uint32_t pick_live() {
  for (int tries = 0; tries < 8; tries++) {
    int sl = rn(SLOTS);
    if (M.t[sl].live) return (uint32_t)M.t[sl].gen << 16 | sl;
  }
  return 0x00010000;
}
static uint32_t pick_target() {
  unsigned k = rn(40);
  if (k >= 20) return pick_live();
  if (k == 0) return 0;                               // AM_NIL
  if (k == 1) return rnd();                           // garbage
  if (k < 5 && !M.cre.empty()) { auto &c = M.cre[rn(M.cre.size())]; return (uint32_t)c.gen << 16 | c.slot; }
  if (k == 5) return 0x00010000;                      // console
  if (!known.empty()) return known[rn(known.size())]; // live or stale
  return 0x00010000;
}

// ------------------------------------------------------------------ fault delivery
// Directed, on a fresh unit (outside the random model): an abort delivers the
// failed event to the fault handler as the next transaction; the handler's
// own abort is not delivered again; SET_HANDLER is staged (and checked);
// no handler, no delivery; DEAD_TARGET and WATCHDOG aborts are delivered.
static void fault_delivery() {
  fresh_unit();
  wr(BEH_COUNT, 6);
  auto inject = [](uint32_t t, unsigned n, const uint32_t *w) {
    for (unsigned i = 0; i < n; i++) wr(SEND_W + 4 * i, w[i]);
    wr(INJECT + 4 * n, t);
    CHECK(rd(EXT_STATUS) == 0, "inject");
  };
  uint32_t h = spawn0(3), a = spawn0(4);
  wr(FAULT_HANDLER, h);
  uint32_t m1[3] = {1, 2, 3}, m2[1] = {9};
  inject(a, 3, m1); inject(a, 1, m2);
  wr(CTRL, 1); dp_fetch();
  CHECK(rd(SELF) == a && rd(F_CAUSE) == 0 && rd(F_OP) == 0 && rd(F_VALUE) == 0,
        "an ordinary event is no fault delivery");
  wr(SEND_W, 5); wr(SEND + 4, a);                  // staged, then discarded
  wr(ABORT + 4, 0xC0DE0077u); dp_fetch();
  CHECK(rd(SELF) == h, "the failed event goes to the handler next");
  CHECK(rd(SEQ) == 2 && rd(MSG_LEN) == 3 && rd(MSG) == 1 && rd(MSG + 8) == 3, "same words, new transaction");
  wr(SEND_W, 0x5A5A5A5Au);                          // the handler's own writes leave the info alone
  CHECK(rd(F_CAUSE) == 1 && rd(F_CODE) == 0xC0DE0077u && rd(F_TARGET) == a && rd(F_BEH) == 4,
        "fault info");
  CHECK(rd(F_OP) == O_ABORT && rd(F_VALUE) == 0xC0DE0077u, "F_OP ABORT, F_VALUE the code: %u %08x",
        rd(F_OP), rd(F_VALUE));
  CHECK(rd(QUEUED) == 1, "nothing of the aborted transaction queued");
  wr(ABORT + 4, 0x88); dp_fetch();               // the handler fails too
  CHECK(rd(SELF) == a && rd(MSG) == 9 && rd(F_CAUSE) == 0, "a failed delivery is not delivered again");
  wr(SET_HANDLER, 0x00010000u | 200u);             // slot outside the table
  CHECK(((rd(STATUS) >> 8) & 31) == 2, "SET_HANDLER outside the table: BAD_REF");
  dp_fetch();
  CHECK(rd(SELF) == h && rd(F_CAUSE) == 2, "delivered; the handler is unchanged");
  CHECK(rd(F_OP) == O_SET_HANDLER && rd(F_VALUE) == (0x00010000u | 200u) && rd(F_CODE) == 0,
        "F_OP SET_HANDLER, F_VALUE its reference: %u %08x", rd(F_OP), rd(F_VALUE));
  dp_fetch();
  CHECK(rd(SELF) == 0, "drained");
  wr(CTRL, 0);
  uint32_t m3[1] = {6};
  inject(a, 1, m3); wr(CTRL, 1); dp_fetch();
  CHECK(rd(SELF) == a, "event");
  wr(SET_HANDLER, a);                               // a reference: its generation and slot staged
  wr(SEND_W, 0xFFFF0000u);
  CHECK(rd(FAULT_HANDLER) == h, "SET_HANDLER is staged");
  dp_fetch();
  CHECK(rd(FAULT_HANDLER) == a, "applied at commit");
  wr(CTRL, 0); inject(a, 1, m3); wr(CTRL, 1); dp_fetch();
  CHECK(rd(SELF) == a, "event");
  wr(SET_HANDLER, 0);
  CHECK(rd(FAULT_HANDLER) == a, "SET_HANDLER is staged");
  dp_fetch();
  CHECK(rd(FAULT_HANDLER) == 0, "applied at commit");
  wr(CTRL, 0); inject(a, 1, m3); wr(CTRL, 1); dp_fetch();
  CHECK(rd(SELF) == a, "event"); wr(ABORT + 4, 1); dp_fetch();
  CHECK(rd(SELF) == 0, "no handler: nothing delivered");
  // DEAD_TARGET: the target dies while its event is queued
  wr(CTRL, 0); wr(FAULT_HANDLER, h);
  inject(a, 1, m3); wr(FREE, a); CHECK(rd(EXT_STATUS) == 0, "free");
  int r0 = dp_retries;
  wr(CTRL, 1); dp_fetch();
  CHECK(dp_retries == r0 + 1, "the dead event's CHECK answers RETRY (%d)", dp_retries - r0);
  CHECK(rd(SELF) == h && rd(F_CAUSE) == 10 && rd(F_BEH) == 0xFFFFFFFFu && rd(F_TARGET) == a,
        "DEAD_TARGET delivered with beh -1, at the fetch after the RETRY");
  CHECK(rd(F_OP) == O_DISPATCH && rd(F_VALUE) == 0, "F_OP DISPATCH: %u %08x", rd(F_OP), rd(F_VALUE));
  dp_fetch();
  // WATCHDOG: the unit aborts, holds until acknowledged, then delivers
  wr(CTRL, 0); wr(WATCHDOG, 100);
  uint32_t b = spawn0(3); inject(b, 1, m3); wr(CTRL, 1); dp_fetch();
  CHECK(rd(SELF) == b, "event");
  // the transaction opened a few cycles before SELF returned: the abort
  // comes 100 cycles after the opening, not before
  for (int i = 0; i < 92; i++) tick();
  CHECK(!dut->wd_irq_o && (rd(STATUS) & 1), "still open within the budget");
  for (int i = 0; i < 10; i++) tick();
  CHECK(dut->wd_irq_o, "watchdog interrupt raised");
  // the hold: the abandoned behavior's writes complete at once and are
  // ignored (a waiting write could keep the core from ever being restarted);
  // reads are served
  wr(SEND_W, b); CHECK(last_cycles == 1, "a write during the hold completes at once");
  wr(SEND + 4 * 1, b); wr(COMMIT, 0);
  wr(CTRL, 0); CHECK(rd(CTRL) == 1, "a CTRL write during the hold is ignored");
  CHECK((rd(STATUS) & (AU_STATUS_EVENT | AU_STATUS_WD_HOLD)) == AU_STATUS_WD_HOLD, "STATUS: WD_HOLD, no transaction open");
  CHECK(rd(SELF) == 0 && rd(QUEUED) == 0, "nothing dispatched during the hold");
  CHECK(dut->wd_irq_o, "still holding");
  wr(WATCHDOG, 0);                                  // acknowledge (and switch it off)
  CHECK(!dut->wd_irq_o, "acknowledged");
  dp_fetch();                                       // the restarted core goes to the dispatch point
  CHECK(rd(SELF) == h && rd(F_CAUSE) == 15 && rd(F_TARGET) == b, "WATCHDOG delivered");
  dp_fetch();
  // a budget past 16 bits (the firmware's is 1,000,000): the count crosses
  // 0x10000 (a counter built from 16-bit halves must borrow across them)
  wr(CTRL, 0); wr(WATCHDOG, 70000);
  inject(b, 1, m3); wr(CTRL, 1); dp_fetch();
  CHECK(rd(SELF) == b, "event");
  for (int i = 0; i < 69992; i++) tick();
  CHECK(!dut->wd_irq_o && (rd(STATUS) & 1), "still open within a 70,000-cycle budget");
  for (int i = 0; i < 10; i++) tick();
  CHECK(dut->wd_irq_o, "watchdog interrupt raised after 70,000 cycles");
  wr(WATCHDOG, 0); dp_fetch();
  CHECK(rd(SELF) == h && rd(F_CAUSE) == 15 && rd(F_TARGET) == b, "WATCHDOG delivered");
  dp_fetch();
  // the stack guard (the SoC stopped a store below STACK_LIMIT): the open
  // transaction aborts with STACK after its staged send, the unit holds as
  // for the watchdog but raises no watchdog interrupt (the SoC restarts the
  // core for the store itself), then delivers
  wr(CTRL, 0);
  inject(b, 1, m3); wr(CTRL, 1); dp_fetch();
  CHECK(rd(SELF) == b, "event");
  wr(SEND_W, b); wr(SEND + 4 * 1, b);
  dut->stack_i = 1; tick(); dut->stack_i = 0;
  CHECK(!dut->wd_irq_o, "no watchdog interrupt for the stack guard");
  CHECK((rd(STATUS) & (AU_STATUS_EVENT | AU_STATUS_WD_HOLD)) == AU_STATUS_WD_HOLD, "STATUS: held, no transaction open");
  CHECK(((rd(STATUS) >> 16) & 31) == 16, "LAST_CAUSE STACK");
  CHECK(rd(SELF) == 0 && rd(QUEUED) == 0, "nothing dispatched during the hold, the send dropped");
  dut->stack_i = 1; tick(); dut->stack_i = 0;   // outside a transaction: nothing
  wr(WATCHDOG, 0); dp_fetch();                     // acknowledge, to the dispatch point
  CHECK(rd(SELF) == h && rd(F_CAUSE) == 16 && rd(F_TARGET) == b, "STACK delivered");
  CHECK(rd(F_OP) == O_RUN && rd(F_VALUE) == 0, "F_OP RUN, no value (the send's target was written)");
  dp_fetch();
  // issue #30: a SEND to a forged reference names the SEND and the
  // reference -- found the cycle after the write, and kept though the
  // behavior runs on (a bad CREATE, more writes) -- not the sender
  wr(CTRL, 0); inject(b, 1, m3); inject(b, 1, m3); wr(CTRL, 1); dp_fetch();
  CHECK(rd(SELF) == b, "event");
  wr(SEND_W, 0x77777777u); wr(SEND + 4, b);
  wr(SEND_W, 1); wr(SEND + 4, 0x12345678u);
  wr(NEW_STATE, 0x99999999u); wr(CREATE, 0xFFFFu); wr(SEND_W, 0x4444u);
  dp_fetch();
  CHECK(rd(SELF) == h && rd(F_CAUSE) == 2 && rd(F_TARGET) == b, "BAD_REF delivered");
  CHECK(rd(F_OP) == O_SEND && rd(F_VALUE) == 0x12345678u && rd(F_CODE) == 0,
        "F_OP SEND, F_VALUE the forged reference: %u %08x", rd(F_OP), rd(F_VALUE));
  dp_fetch();
  // a length beyond the bound: the length, not the behavior written
  CHECK(rd(SELF) == b, "event");
  wr(BECOME + 4 * 12, 3); dp_fetch();
  CHECK(rd(SELF) == h && rd(F_CAUSE) == 5 && rd(F_OP) == O_BECOME && rd(F_VALUE) == 12,
        "STATE_TOO_LONG: F_OP BECOME, F_VALUE 12: %u %u %08x", rd(F_CAUSE), rd(F_OP), rd(F_VALUE));
  dp_fetch();
  CHECK(rd(ABORTS) == 10 && rd(COMMITS) == 9, "counters: %u aborts, %u commits", rd(ABORTS), rd(COMMITS));
  if (!errors) printf("PASS fault delivery (directed)\n");
}

// ------------------------------------------------------------------ the dispatch point
// Directed, on a fresh unit (rtl/am_unit_dp.v): nothing is dispatched
// without the dispatch point; an empty queue answers IDLE; a device request
// answers DEVICE between two transactions -- INJECT and SPAWN work then,
// with RUN set -- at most once per dispatch; COMMIT commits without a
// dispatch; a core restart forgets a waiting fetch.
static void dispatch_point() {
  fresh_unit();
  wr(BEH_COUNT, 6); wr(FAULT_HANDLER, 0);
  uint32_t a = spawn0(4);
  wr(CTRL, 1);
  CHECK(dp_fetch() == DP_IDLE && rd(SELF) == 0, "an empty queue answers IDLE");
  wr(SEND_W, 11); wr(INJECT + 4, a);
  CHECK(rd(EXT_STATUS) == 0, "INJECT between transactions with RUN set");
  for (int i = 0; i < 20; i++) tick();
  CHECK(rd(SELF) == 0 && rd(QUEUED) == 1, "nothing dispatched without the dispatch point");
  dut->dev_i = 1;
  CHECK(dp_fetch() == DP_DEVICE && rd(SELF) == 0 && rd(QUEUED) == 1,
        "a device request: DEVICE, before the queued event, nothing dispatched");
  wr(NEW_STATE, 5); wr(SPAWN + 4, 3); uint32_t b = rd(NEW_REF);
  CHECK(rd(EXT_STATUS) == 0 && b != 0, "SPAWN from the device routine");
  wr(SEND_W, 12); wr(INJECT + 4, b);
  CHECK(rd(EXT_STATUS) == 0 && rd(QUEUED) == 2, "INJECT from the device routine");
  CHECK(dp_fetch() == 4 && rd(SELF) == a && rd(MSG) == 11,
        "the device routine's return dispatches, though the device still asks");
  wr(SEND_W, 13); wr(INJECT + 4, a);
  CHECK(rd(EXT_STATUS) == 1, "INJECT while a transaction is open: BUSY");
  wr(COMMIT, 0);
  for (int i = 0; i < 20; i++) tick();
  CHECK(rd(SELF) == 0 && rd(QUEUED) == 1 && rd(COMMITS) == 1, "COMMIT commits and dispatches nothing");
  CHECK(dp_fetch() == DP_DEVICE, "the device's turn again");
  dut->dev_i = 0;
  CHECK(dp_fetch() == 3 && rd(SELF) == b && rd(MSG) == 12 && rd(STATE) == 5, "then the next event");
  // a core restart while the fetch waits: forgotten, nothing dispatched
  CHECK(dp_fetch() == DP_IDLE, "drained");
  wr(SEND_W, 14); wr(INJECT + 4, a);
  wr(CTRL, 0);
  dut->dp_next_i = 1; tick(); dut->dp_instr_i = 1; tick(); tick();
  dut->dp_next_i = 0; dut->dp_instr_i = 0; dut->restart_i = 1; tick(); dut->restart_i = 0;
  wr(CTRL, 1);
  for (int i = 0; i < 20; i++) tick();
  CHECK(rd(SELF) == 0 && rd(QUEUED) == 1, "a restart forgets the waiting fetch");
  CHECK(dp_fetch() == 4 && rd(SELF) == a && rd(MSG) == 14, "the next fetch dispatches");
  CHECK(dp_fetch() == DP_IDLE && rd(COMMITS) == 3, "committed");
  // the host link's needs between transactions: UNPIN (a spawned actor no
  // longer a root: the next collection takes it, its state and behavior
  // kept until then) and the console's state words through STATE
  wr(NEW_STATE, 0x77); wr(NEW_STATE + 4, 0x88); wr(SPAWN + 8, 5); uint32_t p = rd(NEW_REF);
  wr(UNPIN, p);
  CHECK(rd(EXT_STATUS) == 0, "UNPIN of a spawned actor");
  wr(UNPIN, 0x00010000);
  CHECK(rd(EXT_STATUS) == 4, "UNPIN of the console: BAD_REF");
  wr(UNPIN, p + 0x10000);
  CHECK(rd(EXT_STATUS) == 4, "UNPIN of a stale reference: BAD_REF");
  wr(SEND_W, 21); wr(INJECT + 4, p);
  CHECK(dp_fetch() == 5 && rd(SELF) == p && rd(STATE) == 0x77 && rd(STATE + 4) == 0x88,
        "an unpinned actor keeps its behavior and state");
  wr(STATE, 0xE0); wr(STATE + 4, 0xE1); wr(STATE + 8, 0xE2); wr(BECOME + 12, 0);   // p becomes a console
  wr(SEND_W, 0xC0); wr(SEND_W + 4, 0xC1); wr(SEND + 8, 0x00010000);
  CHECK(dp_fetch() == 0 && rd(SELF) == 0x00010000, "the console's turn");
  CHECK(rd(STATE) == 0, "the console's state is empty");
  wr(STATE, 0xA0); wr(STATE + 4, 0xA1); wr(BECOME + 8, 0);
  CHECK(dp_fetch() == DP_IDLE, "drained");
  CHECK(rd(STATE) == 0xA0 && rd(STATE + 4) == 0xA1 && rd(STATE + 8) == 0 && rd(MSG) == 0,
        "between transactions STATE reads the console's state, 0 past its length");
  wr(SEND_W, 1); wr(INJECT + 4, 0x00010000);
  CHECK(dp_fetch() == 0, "the console again");
  wr(STATE, 0xB0); wr(BECOME + 4, 0);
  CHECK(dp_fetch() == DP_IDLE && rd(STATE) == 0xB0 && rd(STATE + 4) == 0,
        "a shorter console state: the word past it reads 0");
  wr(GC_LOW, 127);   // fewer slots free than that: collect before the next dispatch
  wr(SEND_W, 2); wr(INJECT + 4, a);
  CHECK(dp_fetch() == 4 && rd(SELF) == a, "a dispatch after a collection");
  CHECK(rd(GC_RUNS) == 1 && rd(GC_RECLAIMED) == 1, "collected: one actor reclaimed");
  CHECK(dp_fetch() == DP_IDLE, "drained again");
  wr(SEND_W, 3); wr(INJECT + 4, p);
  CHECK(rd(EXT_STATUS) == 4, "the unpinned actor was collected: its reference is stale");
  if (!errors) printf("PASS dispatch point and the link's operations (directed)\n");
}

// ------------------------------------------------------------------ collection on demand
// Directed, on a fresh unit with a fresh model (docs/gc.md, "When it runs"),
// GC_LOW 0 so that every collection here is on demand: (1) garbage fills
// the table; the CREATE that finds no slot does not fault: the event is
// dispatched again (same SELF, message and SEQ) after one collection on
// demand (trace record GC_DEMAND), and its CREATEs then succeed; (2) actors
// kept by a pinned actor's chain fill the table: TABLE_FULL comes from the
// dispatch right after a collection on demand that reclaimed nothing.
static uint32_t op_create1(uint32_t beh, uint32_t w0) {
  wr(NEW_STATE, w0); wr(CREATE + 4, beh);
  uint32_t r = rd(NEW_REF), e = M.create(beh, 1, &w0);
  CHECK(r == e, "NEW_REF %08x, model %08x", r, e);
  return r;
}
static void gc_on_demand() {
  fresh_unit();
  M = Model(); got.clear(); want.clear(); checked = 0; known.clear();
  wr(FAULT_HANDLER, 0);
  wr(BEH_COUNT, 6); M.beh_count = 6;
  wr(GC_LOW, 0); M.gc_low = 0;
  uint32_t a; op_spawn(3, 0, &a);
  CHECK(op_inject(a, 1) == 0, "inject");
  set_run(true);
  // (1) garbage
  uint32_t seq_fail = 0;
  for (int step = 0; step < 40 && M.retries == 0; step++) {
    CHECK(read_event() == a, "the actor's step");
    seq_fail = M.seq;
    for (int i = 0; i < 4; i++) op_create1(3, i);   // nobody keeps them
    op_send(a, 1);
    to_dp();
    check_trace("on demand: garbage");
  }
  CHECK(M.retries == 1 && M.aborts == 0, "one retry, no fault (%u, %u)", M.retries, M.aborts);
  CHECK(read_event() == a && M.seq == seq_fail && rd(SEQ) == seq_fail, "the same event again, same SEQ");
  for (int i = 0; i < 4; i++) CHECK(op_create1(3, i) != 0, "the CREATE fits after the collection");
  op_send(a, 1);
  to_dp();
  check_trace("on demand: retried");
  size_t ng = 0;
  for (auto &r : got) if (r.kind == 12) ng++;
  CHECK(ng == 1 && M.gc_runs == 1 && M.gc_recl > 100, "one collection, on demand (%zu, %u, %u)", ng,
        M.gc_runs, M.gc_recl);
  // (2) a chain of reachable actors
  for (int step = 0; step < 80 && M.aborts == 0; step++) {
    CHECK(read_event() == a, "the actor's step");
    uint32_t prev = M.t[a & 0xFFFF].st[0];
    for (int i = 0; i < 4; i++) prev = op_create1(3, prev);
    wr(BECOME_W, prev); M.state_word(0, prev); wr(BECOME + 4, 3); M.become(3, 1, &prev);
    op_send(a, 1);
    to_dp();
    check_trace("on demand: chain");
  }
  CHECK(M.aborts == 1 && M.hist[8] == 1, "TABLE_FULL once (%u aborts)", M.aborts);
  CHECK(read_event() == 0 && M.q.empty(), "nothing left");
  size_t i = got.size();
  while (i > 0 && got[i - 1].kind != 6) i--;
  size_t d = i - 1;
  while (d > 0 && got[d].kind != 1) d--;
  CHECK(i > 0 && got[i - 1].cause == 8 && d > 0 && got[d - 1].kind == 12 && got[d - 1].ref == 0,
        "TABLE_FULL right after a collection on demand that found no slot");
  check_counters();
  finish();
  if (!errors) printf("PASS collection on demand (directed: %u retries, %u collections)\n", M.retries,
                      M.gc_runs);
}

// ------------------------------------------------------------------ a delivery's CREATE
// Directed, on a fresh unit (outside the random model), GC_LOW 0: (1) the
// table is full of garbage when a fault delivery's CREATE finds no slot:
// the delivery is retried after one collection on demand -- same SELF
// (the handler), SEQ, message and fault record -- and the failed target
// and the actor its message names survive that collection (the entry is
// back in the queue while it runs); (2) the table full of reachable
// actors: the retried delivery's CREATE is TABLE_FULL, not delivered.
static void delivery_on_demand() {
  fresh_unit();
  wr(BEH_COUNT, 6);
  wr(GC_LOW, 0);
  auto cause = []() { return (rd(STATUS) >> 8) & 31; };
  uint32_t h = spawn0(3), a = spawn0(4);
  wr(FAULT_HANDLER, h);
  wr(SEND_W, 1); wr(INJECT + 4, a);
  wr(CTRL, 1);
  CHECK(dp_fetch() == 4 && rd(SELF) == a, "a");
  // (1) 125 free slots: 30 steps of 4 garbage actors, then w, x and 2 more
  for (int step = 0; step < 30; step++) {
    for (int i = 0; i < 4; i++) CHECK(create3(i) != 0, "garbage %d", step);
    wr(SEND_W, 1); wr(SEND + 4, a);
    CHECK(dp_fetch() == 4 && rd(SELF) == a, "a's step %d", step);
  }
  uint32_t w = create3(0), x = create3(0);
  CHECK(w != 0 && x != 0 && create3(0) != 0 && create3(0) != 0, "the last four but one");
  wr(SEND_W, 0x77); wr(SEND_W + 4, x); wr(SEND + 8, w);   // [0x77, x]: x's only reference
  CHECK(dp_fetch() == 3 && rd(SELF) == w, "w");
  wr(ABORT + 4, 0xF00D);
  CHECK(dp_fetch() == 3 && rd(SELF) == h, "delivered to the handler");
  uint32_t seq = rd(SEQ), runs = rd(GC_RUNS);
  CHECK(rd(F_TARGET) == w && rd(F_CAUSE) == 1 && rd(MSG + 4) == x, "the fault record, the message");
  wr(SEND_W, 1); wr(SEND + 4, w);                          // w and x are valid now
  wr(SEND_W, 2); wr(SEND + 4, x);
  CHECK(create3(0) != 0, "the table's last slot");
  CHECK(create3(0) == 0 && cause() == 8, "no free slot: TABLE_FULL in the attempt");
  CHECK(dp_fetch() == 3 && rd(SELF) == h, "the delivery again");
  CHECK(rd(SEQ) == seq && rd(GC_RUNS) == runs + 1, "same SEQ (%u, %u), one collection (%u)", rd(SEQ), seq,
        rd(GC_RUNS) - runs);
  CHECK(rd(F_TARGET) == w && rd(F_CAUSE) == 1 && rd(F_CODE) == 0xF00D && rd(MSG + 4) == x,
        "the same fault record and message");
  CHECK(((rd(STATUS) >> 16) & 31) == 8, "LAST_CAUSE: the attempt's TABLE_FULL");
  wr(SEND_W, 1); wr(SEND + 4, w);
  wr(SEND_W, 2); wr(SEND + 4, x);
  CHECK(cause() == 0, "w and x survived the collection");
  CHECK(create3(0) != 0 && create3(0) != 0 && cause() == 0, "the CREATEs fit");
  CHECK(dp_fetch() == 3 && rd(SELF) == w && rd(MSG) == 1, "w's message");
  CHECK(dp_fetch() == 3 && rd(SELF) == x && rd(MSG) == 2, "x's message");
  // (2) reachable actors fill the table: a chain from a's state
  wr(SEND_W, 1); wr(SEND + 4, a);
  CHECK(dp_fetch() == 4 && rd(SELF) == a, "a");
  uint32_t chain = 0;
  int step = 0;
  for (; step < 40; step++) {
    uint32_t p = chain;
    bool full = false;
    for (int i = 0; i < 4 && !full; i++) {
      uint32_t r = create3(p);
      if (r) p = r; else full = true;
    }
    if (!full) {
      wr(BECOME_W, p); wr(BECOME + 4, 4);
      wr(SEND_W, 1); wr(SEND + 4, a);
      chain = p;
    }
    dp_fetch();
    if (rd(SELF) == h) break;   // a's step retried, then TABLE_FULL: delivered
    CHECK(rd(SELF) == a, "a's chain step %d", step);
  }
  CHECK(step < 40 && rd(SELF) == h && rd(F_CAUSE) == 8, "the handler has a's TABLE_FULL (%u)", rd(F_CAUSE));
  runs = rd(GC_RUNS);
  seq = rd(SEQ);
  // the slots a's step took are free again (fewer than 4): the handler's
  // CREATEs take them, and the next finds none
  int took = 0;
  while (took < 4 && create3(0) != 0) took++;
  CHECK(took < 4 && cause() == 8, "the delivery's CREATE finds no slot (after %d)", took);
  CHECK(dp_fetch() == 3 && rd(SELF) == h && rd(SEQ) == seq && rd(GC_RUNS) == runs + 1,
        "retried after a collection");
  for (int i = 0; i < took; i++) CHECK(create3(0) != 0, "the same slots");
  CHECK(create3(0) == 0 && cause() == 8, "then TABLE_FULL");
  CHECK(dp_fetch() == DP_IDLE && rd(SELF) == 0, "a failed delivery is not delivered again");
  CHECK(((rd(STATUS) >> 16) & 31) == 8 && rd(GC_RUNS) == runs + 1, "no second collection");
  if (!errors) printf("PASS a fault delivery's CREATE collects on demand (directed)\n");
}

// ------------------------------------------------------------------ COLLECT
// Directed, on a fresh unit, GC_LOW 0: COLLECT between transactions runs
// a collection (trace record GC_COLLECT: reclaimed, live after, free after)
// only when a transaction, an UNPIN or a FREE came since the last
// collection (reset counts as one), and the bus waits for it; inside a
// transaction it is BUSY and runs nothing; with the collector off it runs
// nothing.
static void collect_between() {
  fresh_unit();
  size_t from = got.size();
  auto colls = [from]() {
    std::vector<Rec> v;
    for (size_t i = from; i < got.size(); i++) if (got[i].kind == 15) v.push_back(got[i]);
    return v;
  };
  struct Collected { int waited; uint32_t runs, status; };
  auto collect = []() {   // COLLECT, then the next access: how long it waited, GC_RUNS, EXT_STATUS
    wr(COLLECT, 1);
    Collected r;
    r.runs = rd(GC_RUNS);
    r.waited = last_cycles;
    r.status = rd(EXT_STATUS);
    return r;
  };
  wr(BEH_COUNT, 6);
  wr(GC_LOW, 0);
  uint32_t a = spawn0(4);
  // after reset: a collection (nothing to reclaim); the next access waits for it
  auto c = collect();
  CHECK(c.runs == 1 && c.status == 0 && c.waited > 10,
        "COLLECT after reset: %u runs, status %u, the read waited %d cycles", c.runs,
        c.status, c.waited);
  CHECK(colls().size() == 1 && colls()[0].ref == 0 && colls()[0].beh == 2 &&
        colls()[0].code == (uint32_t)SLOTS - 2, "its record: reclaimed 0, live 2, free %d", SLOTS - 2);
  c = collect();
  CHECK(c.runs == 1 && c.status == 0 && c.waited == 1 && colls().size() == 1,
        "nothing since: no collection (%u runs, waited %d)", c.runs, c.waited);
  // a transaction that makes 3 garbage actors
  wr(SEND_W, 1); wr(INJECT + 4, a);
  wr(CTRL, 1);
  CHECK(dp_fetch() == 4 && rd(SELF) == a, "a");
  for (int i = 0; i < 3; i++) create3(i);
  wr(COLLECT, 1);
  CHECK(rd(EXT_STATUS) == 1 && rd(GC_RUNS) == 1, "COLLECT inside a transaction: BUSY, nothing runs");
  CHECK(dp_fetch() == DP_IDLE && rd(LIVE) == 5, "committed: 3 created");
  c = collect();
  CHECK(c.runs == 2 && c.status == 0 && colls().size() == 2 && colls()[1].ref == 3 &&
        colls()[1].beh == 2 && rd(LIVE) == 2, "after a transaction: a collection reclaims the 3");
  c = collect();
  CHECK(c.runs == 2 && colls().size() == 2, "nothing since: no collection");
  // an UNPIN: a is garbage now
  wr(UNPIN, a);
  CHECK(rd(EXT_STATUS) == 0, "UNPIN");
  c = collect();
  CHECK(c.runs == 3 && colls().size() == 3 && colls()[2].ref == 1 && colls()[2].beh == 1,
        "after an UNPIN: a collection reclaims a (%u runs)", c.runs);
  CHECK(spawn0(4) != 0, "a SPAWN");
  wr(UNPIN, a);
  CHECK(rd(EXT_STATUS) == 4, "a stale UNPIN is BAD_REF");
  c = collect();
  CHECK(c.runs == 3 && colls().size() == 3, "a refused UNPIN or a SPAWN: no collection");
  // a FREE: what the freed actor held may be garbage now
  uint32_t holder = spawn0(4);
  wr(SEND_W, 1); wr(INJECT + 4, holder);
  CHECK(dp_fetch() == 4 && rd(SELF) == holder, "holder");
  uint32_t held = create3(0);
  wr(BECOME_W, held); wr(BECOME + 4, 4);
  CHECK(dp_fetch() == DP_IDLE, "holder keeps held");
  c = collect();
  CHECK(c.runs == 4 && colls().size() == 4 && colls()[3].ref == 0, "nothing to reclaim");
  wr(FREE, holder);
  CHECK(rd(EXT_STATUS) == 0, "FREE");
  c = collect();
  CHECK(c.runs == 5 && colls().size() == 5 && colls()[4].ref == 1, "after a FREE: held is reclaimed");
  // a fault delivery waiting for the core (the abort ended while it was
  // not at the dispatch point): its entry is a root -- the failed target v
  // and w, which only its message names, survive -- and it comes next
  uint32_t h = spawn0(3);
  wr(FAULT_HANDLER, h);
  // a spawned holder creates v and w and sends v [w]; v's behavior aborts
  // with 0xBAD, and its delivery to h waits: returns the holder, v, w
  struct Waiting { uint32_t holder, v, w; };
  auto delivery_waits = []() {
    Waiting r;
    r.holder = spawn0(4);
    wr(SEND_W, 1); wr(INJECT + 4, r.holder);
    CHECK(dp_fetch() == 4 && rd(SELF) == r.holder, "the holder");
    r.v = create3(0);
    r.w = create3(0);
    wr(SEND_W, r.w); wr(SEND + 4, r.v);
    CHECK(dp_fetch() == 3 && rd(SELF) == r.v && rd(MSG) == r.w, "v's event [w]");
    wr(ABORT + 4, 0xBAD);
    return r;
  };
  Waiting d1 = delivery_waits();
  uint32_t v = d1.v, w = d1.w;
  c = collect();
  CHECK(c.runs == 6 && colls().size() == 6 && colls()[5].ref == 0,
        "a collection with the delivery waiting: nothing reclaimed (%u)", colls().back().ref);
  CHECK(dp_fetch() == 3 && rd(SELF) == h && rd(F_TARGET) == v && rd(MSG) == w && rd(F_CODE) == 0xBAD,
        "then the delivery, its record and message");
  wr(SEND_W, 1); wr(SEND + 4, v);
  wr(SEND_W, 2); wr(SEND + 4, w);
  CHECK(((rd(STATUS) >> 8) & 31) == 0, "v and w are valid");
  wr(ABORT + 4, 1);   // (a failed delivery: not delivered again)
  CHECK(dp_fetch() == DP_IDLE, "nothing else queued");
  // the waiting delivery's entry counts against the queue: INJECTs fill it
  // to QD - 1 and the next is QUEUE_FULL, so that the collection can put
  // the entry back at the head (a 64th entry would empty the queue's count,
  // and the collector would see no event and lose them all)
  Waiting d2 = delivery_waits();
  uint32_t holder3 = d2.holder, v2 = d2.v, w2 = d2.w;
  int took = 0;
  for (int i = 0; i < QD + 1; i++) {
    wr(SEND_W, 100 + i); wr(INJECT + 4, holder3);
    if (rd(EXT_STATUS) != 0) break;
    took++;
  }
  CHECK(took == QD - 1 && rd(EXT_STATUS) == 3 && rd(QUEUED) == (uint32_t)QD - 1,
        "with a delivery waiting, %d INJECTs taken (QD - 1 = %d), then QUEUE_FULL (status %u)", took,
        QD - 1, rd(EXT_STATUS));
  c = collect();
  CHECK(rd(QUEUED) == (uint32_t)QD, "a collection with the delivery waiting and the queue full: %u queued",
        rd(QUEUED));
  CHECK(dp_fetch() == 3 && rd(SELF) == h && rd(F_TARGET) == v2 && rd(MSG) == w2,
        "then the delivery, its record and message");
  wr(SEND_W, 1); wr(SEND + 4, v2);
  wr(SEND_W, 2); wr(SEND + 4, w2);
  CHECK(((rd(STATUS) >> 8) & 31) == 0, "v2 and w2 survived the collection: the delivery's entry was a root");
  wr(ABORT + 4, 1);
  int drained = 0;
  while (dp_fetch() == 4) {
    if (rd(SELF) != holder3 || rd(MSG) != (uint32_t)(100 + drained)) break;
    drained++;
  }
  CHECK(drained == QD - 1 && rd(QUEUED) == 0, "then the %d injected events, in order (%d)", QD - 1, drained);
  wr(FAULT_HANDLER, 0);
  // the collector off
  uint32_t b = spawn0(4);
  wr(UNPIN, b);
  wr(GC_PERIOD, 0);
  c = collect();
  CHECK(c.runs == 7 && c.status == 0 && colls().size() == 7,
        "the collector off: no collection, status OK");
  size_t ng = 0;
  for (size_t i = from; i < got.size(); i++) ng += got[i].kind == 11 || got[i].kind == 12;
  CHECK(ng == 0, "no other collection (%zu)", ng);
  if (!errors) printf("PASS COLLECT between transactions (directed)\n");
}

// ------------------------------------------------------------------ a pause
// Directed: a collection takes the cycles of docs/gc.md's table. A pinned
// holder keeps z = [x, x, y]: z's second word names the slot its first
// one marked the cycle before, whose mark is still being written (the
// pipelined decision, rtl/am_gc.v); x must be scanned once, not twice.
// Run three times: with the queue empty; with an event [] queued for x,
// whose target is the roots' last word: its push lands as the mark stack
// is first read (one cycle more); with an event [5] for x, whose last word
// marks nothing.
static void gc_pause() {
  for (int queued = 0; queued < 3; queued++) {
    fresh_unit();
    wr(BEH_COUNT, 6);
    wr(GC_LOW, 0);
    uint32_t a = spawn0(4);
    wr(SEND_W, 1); wr(INJECT + 4, a);
    wr(CTRL, 1);
    CHECK(dp_fetch() == 4 && rd(SELF) == a, "a");
    uint32_t x = create3(7), y = create3(7);
    wr(NEW_STATE, x); wr(NEW_STATE + 4, x); wr(NEW_STATE + 8, y);
    wr(CREATE + 12, 3);
    uint32_t z = rd(NEW_REF);
    wr(BECOME_W, z); wr(BECOME + 4, 4);
    CHECK(x && y && z && dp_fetch() == DP_IDLE && rd(LIVE) == 5, "a keeps z = [x, x, y]");
    if (queued == 1) wr(INJECT, x);
    if (queued == 2) { wr(SEND_W, 5); wr(INJECT + 4, x); }
    if (queued) CHECK(rd(EXT_STATUS) == 0 && rd(QUEUED) == 1, "an event for x, queued");
    wr(COLLECT, 1);
    CHECK(rd(GC_RUNS) == 1 && rd(LIVE) == 5, "COLLECT: nothing to reclaim");
    // start and end 5, the pinned roots (slots 0 and 1) 2, the handler word
    // 2, 1 after the last queued event; marked: the console 2 (no state
    // words), a 2+1+2, z 2+1+3*2, x and y 2+1+2 each, 1 after the last; the
    // sweep, next = 5. The event []: 4, and the +1; the event [5]: 4 + 2.
    uint32_t want = 5 + 2 + 2 + 1 + 2 + 5 + 9 + 5 + 5 + 1 + 5 + (queued == 1 ? 4 + 1 : queued == 2 ? 4 + 2 : 0);
    CHECK(rd(GC_CYCLES) == want && rd(GC_MAX_PAUSE) == want,
          "the pause (%s): %u cycles (longest %u), docs/gc.md's table gives %u",
          queued == 1 ? "an event []" : queued == 2 ? "an event [5]" : "no event", rd(GC_CYCLES),
          rd(GC_MAX_PAUSE), want);
  }
  if (!errors) printf("PASS a collection's pause, cycle by cycle (directed)\n");
}

// ------------------------------------------------------------------ main
int main(int argc, char **argv) {
  Verilated::commandArgs(argc, argv);
  int txns = 3000;
  for (int i = 1; i < argc; i++) {
    if (!strncmp(argv[i], "+seed=", 6)) rnd_state = strtoul(argv[i] + 6, 0, 0) * 2 + 1;
    if (!strncmp(argv[i], "+txns=", 6)) txns = atoi(argv[i] + 6);
  }
  fresh_unit();

  // --- reset state
  CHECK(rd(FAULT_HANDLER) == 0x00010000, "the console handles faults from reset");
  wr(FAULT_HANDLER, 0);   // the model below has no fault deliveries (see fault_delivery())
  CHECK(rd(LIVE) == 1, "console live");
  CHECK(rd(SELF) == 0, "no event at reset");
  CHECK((rd(STATUS) & 7) == 2, "STATUS at reset: queue empty, not running");
  wr(BEH_COUNT, 6); M.beh_count = 6;
  CHECK(last_cycles == 1, "register write without wait state");
  // --- external operations and their errors
  uint32_t a1, a2, a3;
  CHECK(op_spawn(3, 2, &a1) == 0, "spawn");
  CHECK(op_spawn(4, 8, &a2) == 0, "spawn");
  CHECK(op_spawn(9, 1, 0) == 5, "spawn bad behavior");
  CHECK(op_spawn(3, 9, 0) == 5, "spawn state too long");
  CHECK(op_inject(0, 1) == 4, "inject to NIL");
  CHECK(op_inject(0x00020005, 1) == 4, "inject to never-used slot");
  CHECK(op_inject(a1, 9) == 5, "inject too long");
  CHECK(op_free(0x00010000) == 4, "console cannot be freed");
  CHECK(op_spawn(5, 0, &a3) == 0, "spawn");
  CHECK(op_free(a3) == 0, "free");
  CHECK(op_free(a3) == 4, "double free");
  CHECK(op_inject(a3, 1) == 4, "inject to freed (stale) ref");
  uint32_t a4; op_spawn(5, 3, &a4);
  CHECK((a4 & 0xFFFF) == (a3 & 0xFFFF) && (a4 >> 16) == (a3 >> 16) + 1, "freed slot reused with gen+1");
  known.push_back(0x00010000);
  check_trace("boot");

  // --- back-to-back dispatches, multi-send commit, cycle counts
  op_inject(a1, 2); op_inject(a2, 0); op_inject(a1, 8);
  set_run(true);
  CHECK(!(rd(STATUS) & 1) && rd(SELF) == 0, "RUN alone dispatches nothing: the dispatch point does");
  read_event();
  CHECK(rd(STATUS) & 1, "event open");
  // one-send transaction: measure
  {
    uint32_t w[1] = {7}; wr(SEND_W, 7); int c_w = last_cycles;
    wr(SEND + 4, a2); int c_s = last_cycles; M.send(a2, 1, w);
    for (int i = 0; i < 3; i++) tick();   // (the SEND's check is done: the core's `ret` takes longer)
    to_dp(); int c_d = last_dp_cycles;
    uint32_t s = rd(SELF);
    CHECK(s == M.cur.target, "next event after commit");
    printf("cycles: SEND_W write %d, SEND write %d, dispatch point (commit, next event's entry) %d\n",
           c_w, c_s, c_d);
    CHECK(c_w == 1 && c_s == 1, "staging writes need no wait state");
    CHECK(c_d == 3, "dispatch point: accept+commit+END+FETCH (QUICK), CHECK (answer), completion: 3 cycles, not %d", c_d);
    int c_rd = (rd(MSG), last_cycles);
    wr(BECOME_W, 1); int c_bw = last_cycles; M.state_word(0, 1); wr(BECOME + 4, 3); int c_b = last_cycles;
    uint32_t bw[1] = {1}; M.become(3, 1, bw);
    printf("cycles: register/MSG read %d, BECOME_W write %d, BECOME write %d\n", c_rd, c_bw, c_b);
    CHECK(c_b == 1 && c_bw == 1, "BECOME without wait states");
    CHECK(c_rd == 1, "a read of an idle unit without wait state");
    uint32_t w3[3] = {0};
    for (int i = 0; i < 3; i++) { w3[i] = 100 + i; wr(NEW_STATE + 4 * i, w3[i]); }
    wr(CREATE + 12, 4); int c_cr = last_cycles; uint32_t r = rd(NEW_REF); int c_nr = last_cycles;
    CHECK(r == M.create(4, 3, w3), "create ref"); known.push_back(r);
    printf("cycles: CREATE write %d, NEW_REF read right after %d\n", c_cr, c_nr);
    CHECK(c_nr == 2, "a read right after CREATE waits a cycle (the unit is busy when it is announced)");
    for (int k = 0; k < 3; k++) { uint32_t ww[2] = {(uint32_t)k, 5}; wr(SEND_W, k); wr(SEND_W + 4, 5); wr(SEND + 8, r); M.send(r, 2, ww); }
    to_dp();
    printf("cycles: dispatch point after 1 create, BECOME n=1, 3 sends: %d\n", last_dp_cycles);
    CHECK(last_dp_cycles == 4 + 2 + 2, "4, +ncreates+1 for creates, +n+1 for a BECOME of n words: %d", last_dp_cycles);
    read_event();
  }
  check_trace("directed");
  check_counters();

  // --- abort leaves no trace; first fault wins
  {
    int next0 = M.next; size_t q0 = M.q.size();
    uint32_t c = op_create(3, 1);
    op_send(c, 1); op_send(0xDEAD0001, 1);      // BAD_REF
    op_create(99, 0);                           // BAD_BEHAVIOR ignored: first fault wins
    CHECK(((rd(STATUS) >> 8) & 31) == 2, "cause BAD_REF recorded");
    wr(ABORT + 4, 0x1234); M.fail(1, 0x1234);   // FAIL ignored too: cause stays BAD_REF
    read_event();
    CHECK(M.next == next0 && M.q.size() == q0 + 0 || true, "model");
    CHECK(((rd(STATUS) >> 16) & 31) == 2, "LAST_CAUSE BAD_REF");
    // the aborted CREATE's reference names no later actor: the next CREATE
    // gets another (its slot's next generation, or a fresh slot)
    if (M.open) { uint32_t c2 = op_create(3, 0); CHECK(c2 != c, "another ref after abort %08x %08x", c2, c); wr(COMMIT, 0); M.commit(); }
    read_event();
  }
  check_trace("abort");
  check_counters();

  // --- TOO_MANY_CREATES, then QUEUE_FULL at commit, queue full on INJECT
  {
    if (!M.open) { set_run(false); op_inject(0x00010000, 1); set_run(true); read_event(); }
    for (int i = 0; i < MAXC + 1; i++) op_create(3, 0);
    CHECK(((rd(STATUS) >> 8) & 31) == 7, "TOO_MANY_CREATES");
    to_dp(); read_event();
    wr(CTRL, 0); M.run = false;
    if (M.open) { wr(COMMIT, 0); M.commit(); }
    CHECK(rd(SELF) == 0, "paused");
    while (M.q.size() < (size_t)QD) op_inject(0x00010000, 1);
    CHECK(op_inject(0x00010000, 1) == 3, "INJECT into a full queue");
    CHECK(rd(QUEUE_HWM) == 63, "hwm 63");
    set_run(true); read_event();
    op_send(0x00010000, 0); op_send(0x00010000, 0);   // 62 queued + 2 > 63
    to_dp(); read_event();
    CHECK(((rd(STATUS) >> 16) & 31) == 9, "QUEUE_FULL");
    op_send(0x00010000, 0); op_send(0x00010000, 0);   // 61 queued + 2 fits
    to_dp(); read_event();
    CHECK(rd(QUEUED) == 62, "queued 62");
  }
  check_trace("full");
  check_counters();

  // --- random
  int ntx = 0, pauses = 0;
  while (ntx < txns && !errors) {
    uint32_t self = read_event();
    if (!self) {
      // queue drained (or paused): external phase
      set_run(false);
      int k = rn(4) + (M.live > 100 ? 20 : 0);
      for (int i = 0; i < k; i++) {
        unsigned what = rn(12);
        if (what < 5) op_inject(pick_target(), rn(10));
        else if (what < 7) op_spawn(rn(8), rn(10), 0);
        else if (what < 8 && !known.empty()) op_free(known[rn(known.size())]);
        else if (what == 10) op_unpin(rn(2) && !known.empty() ? known[rn(known.size())] : pick_live());
        else if (what == 11) check_console_window();
        else op_free(pick_live());
      }
      if (M.q.empty()) op_inject(0x00010000, 1);
      if (M.q.empty()) { uint32_t r; if (op_spawn(3, 0, &r) == 0) op_inject(r, 1); }
      if (M.q.empty()) { // table and queue stuck: free something
        for (auto r : known) if (M.valid(r) && (r & 0xFFFF)) { op_free(r); break; }
        op_inject(0x00010000, 0);
      }
      set_run(true);
      pauses++;
      check_trace("external");
      continue;
    }
    ntx++;
    if (ntx == txns / 2) {   // second half: collect often (docs/gc.md)
      M.gc_period = 1 + rn(8); M.gc_low = 4 + rn(40);
      wr(GC_PERIOD, M.gc_period); wr(GC_LOW, M.gc_low);
      M.left = M.gc_period;   // a GC_PERIOD write starts the count again
      CHECK(rd(GC_PERIOD) == M.gc_period && rd(GC_LOW) == M.gc_low, "GC settings read back");
    }
    // a random behavior
    int nops = rn(6);
    bool burst = rn(12) == 0;
    for (int i = 0; i < nops + (burst ? 12 : 0); i++) {
      unsigned op = burst ? 0 : rn(12);
      if (op < 5) op_send(burst ? pick_live() : pick_target(), rn(15) == 0 ? 9 + rn(8) : rn(9));
      else if (op < 7) op_create(rn(9) == 0 ? 6 + rn(3) : rn(6), rn(12) == 0 ? 9 : rn(9));
      else if (op < 9) op_become(rn(9) == 0 ? 7 : rn(6), rn(12) == 0 ? 10 : rn(9));
      else if (op == 9) { if (rn(2)) rd(STATE + 4 * rn(8)); else op_set_state(rn(8)); }
      else if (op == 11) op_forward(burst ? pick_live() : pick_target(), rn(15) == 0 ? 9 + rn(8) : rn(9));
      else if (op == 10 && rn(4) == 0) { uint32_t cd = rnd(); unsigned c = rn(3) ? 1 : 11 + rn(5); wr(ABORT + 4 * c, cd); M.fail(c, cd); goto done; }
    }
    if (rn(40) == 0) { wr(CTRL, 0); M.run = false; }      // pause after this transaction
    if (rn(16) == 0) { wr(COMMIT, 0); M.commit(); }       // a COMMIT write: nothing dispatched yet
    else to_dp();
  done:
    check_trace("random");
    if (ntx % 97 == 0) check_counters();
  }
  check_counters();
  check_trace("end");
  finish();
  fault_delivery();
  dispatch_point();
  if (errors) { printf("FAIL tb_am_actor_unit (%d errors)\n", errors); exit(1); }
  printf("PASS tb_am_actor_unit (%d transactions, %u dispatches, %u commits, %u aborts, %zu trace records, "
         "%d pauses, hwm %d, live %d, %u collections reclaimed %u, %u on demand)\n", ntx, M.seq, M.commits,
         M.aborts, got.size(), pauses, M.hwm, M.live, M.gc_runs, M.gc_recl, M.retries);
  printf("  outcomes: commit %u", M.hist[0]);
  for (int c = 1; c < 16; c++) if (M.hist[c]) printf(", cause %d: %u", c, M.hist[c]);
  printf("\n");
  gc_on_demand();
  delivery_on_demand();
  collect_between();
  gc_pause();
  if (errors) { printf("FAIL tb_am_actor_unit (%d errors)\n", errors); exit(1); }
  delete dut;
  return 0;
}
