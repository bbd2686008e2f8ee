/*
 * fuzz_link.c — seeded random traffic on the host link (docs/link.md),
 * against `am-run --link` or the simulated SoC, `am-sim --link` (whose
 * lockstep checker compares every transaction with the reference runtime).
 *
 *   fuzz_link TARGET IMAGE WORKDIR FIRST_SEED COUNT [--ops N] [-v]
 *
 * TARGET is am-run or am-sim (by its name); IMAGE the link programs' image
 * (tests/link/prog's fw.hex: loaded over the link now and then). Each seed
 * runs in a child process of its own, bounded in time: a fresh target
 * running link-echo (0 echo, 1 counter, 2 slow), then N operations drawn
 * from the seed, interleaved: sends and asks to exported and unexported
 * names with 0..9 words (references of the exports, the console's, garbage),
 * asks whose replies come late (sent as raw frames: their REPLY arrives as a
 * stray, possibly in a later session), stats, exports, bursts that fill the
 * event queue (BUSY), garbage bytes, corrupted frames (flipped bits, cuts,
 * bytes dropped or doubled), valid frames the library does not track, a
 * retry by hand (DUPLICATE), bad lengths, unknown types, a burst ignoring the
 * credit, reconnects (some in mid-frame), a load of the image, idle checks.
 *
 * Half the seeds are "clean": every word a behavior uses as a target is a
 * known reference, so the program's effects are predicted -- the counters'
 * tallies, the fault lines, each ask's reply or its absence. The others are
 * "dirty": garbage words, the console's reference and its export messages
 * reach the actors as customers (the echo sends wherever its first word
 * says), so only the invariants are checked: at most one reply per ask and
 * none nobody asked for, the service's counters' sums, the target still
 * answering, no hang, and (am-sim) 0 divergences at shutdown.
 *
 * A failing seed prints its operations (the last ones) and the command that
 * runs it alone; --ops N shortens it.
 */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "am_link.h"
#include "link_accounts.h"
#include "link_raw.h"
#include "link_time.h"

enum { ECHO = 0, COUNTER = 1, SLOW = 2 };
#define QUEUE_DEPTH 63u
#define MARK 1000003u     /* the value a corrupted frame carries: never counted */

static const char *target_path, *image_path, *workdir;
static int sim, verbose;
static uint32_t seed, nops = 150;

/* ---- time, randomness ---------------------------------------------------------- */
static uint64_t rs;
static uint32_t rnd(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}
static uint32_t below(uint32_t n) { return n ? rnd() % n : 0; }
static int chance(uint32_t pct) { return below(100) < pct; }

/* ---- the log of operations, and failures --------------------------------------- */
#define OPLOG 40
static char oplog[OPLOG][200];
static uint32_t nlogged, op_index, ops_done;
static int failures;
static void note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *d = oplog[nlogged++ % OPLOG];
    int k = snprintf(d, 200, "#%u ", op_index);
    vsnprintf(d + k, (size_t)(200 - k), fmt, ap);
    va_end(ap);
    if (verbose) fprintf(stderr, "  %s\n", d);
}
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL seed %u op %u: ", seed, op_index);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    failures++;
}
static void dump_log(void)
{
    uint32_t from = nlogged > OPLOG ? nlogged - OPLOG : 0;
    fprintf(stderr, "  the seed's last operations:\n");
    for (uint32_t i = from; i < nlogged; i++) fprintf(stderr, "    %s\n", oplog[i % OPLOG]);
}

/* ---- the target ------------------------------------------------------------------- */
static char port[512], logpath[600];
static pid_t target = -1;

static void start_target(void)
{
    snprintf(port, sizeof port, "%s/link%u", workdir, seed);
    snprintf(logpath, sizeof logpath, "%s/target%u.log", workdir, seed);
    unlink(port);
    target = fork();
    if (target == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        signal(SIGPIPE, SIG_DFL);
        int fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) { dup2(fd, 1); dup2(fd, 2); }
        if (sim)
            execl(target_path, target_path, "--link", port, "--link-div", "8", "--quiet",
                  "link-echo", (char *)NULL);
        else
            execl(target_path, target_path, "--link", port, "link-echo", (char *)NULL);
        _exit(127);
    }
}

/* wait up to ms for the target's exit; its status, or -1 (still running) */
static int reap(uint32_t ms)
{
    int st = 0;
    uint64_t until = now_ms() + ms;
    for (;;) {
        pid_t r = waitpid(target, &st, WNOHANG);
        if (r == target) { target = -1; return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st); }
        if (now_ms() >= until) return -1;
        sleep_ms(10);
    }
}

/* ---- what the seed expects ----------------------------------------------------------
 * Asks by seq (those the fuzzer tracks: raw asks; am_link_ask checks its own
 * reply at once). expect: 1 one reply, 0 none (the message fails), 2 any
 * (dirty words, or a load cut it short). */
typedef struct ask_rec {
    uint32_t seq, expect, got, n, check, op, resolved;
    am_word w[AM_MAX_MSG_WORDS];          /* the reply expected (check) */
    uint32_t gn;
    am_word gw[AM_MAX_MSG_WORDS];         /* the first reply that came */
} ask_rec;
#define MAX_ASKS 8192
static ask_rec asks[MAX_ASKS];
static uint32_t nasks;
static uint8_t seq_used[65536];

static int dirty;                 /* this seed's words may be anything */
static am_ref ex[AM_EXPORT_MAX];  /* the exports at the start (or after a load) */
static am_word tally_msgs[3], tally_sum[3];   /* counter and slow, as predicted */
static uint32_t faults_expected, faults_seen, boots_seen, console_frames;
static uint32_t strays, stray_unknown;
static int uncertain;             /* a request timed out: its outcome is not known */
static int loaded;                /* a load happened: late replies before it may not come */
static int credit_ignored;        /* FIFO_LOST may be nonzero */

static void on_console(void *user, const char *text, size_t n)
{
    (void)user;
    console_frames++;
    if (n >= 7 && memcmp(text, "fault: ", 7) == 0) faults_seen++;
    if (n >= 10 && memcmp(text, "link-echo:", 10) == 0) boots_seen++;
}

/* a reply against what its ask expects, once both are known */
static void judge(ask_rec *a)
{
    if (!a->resolved || !a->got) return;
    if (a->got > 1) { fail("%u replies for the ask of seq %u (op %u)", a->got, a->seq, a->op); return; }
    if (a->expect == 0) { fail("a reply for the ask of seq %u (op %u), refused or whose message fails", a->seq, a->op); return; }
    if (!a->check || a->expect != 1) return;
    if (a->gn != a->n) { fail("ask seq %u (op %u): the reply has %u words, expected %u", a->seq, a->op, a->gn, a->n); return; }
    for (uint32_t i = 0; i < a->n; i++)
        if (a->gw[i] != a->w[i]) {
            fail("ask seq %u (op %u): reply word %u is 0x%x, expected 0x%x", a->seq, a->op, i, a->gw[i], a->w[i]);
            return;
        }
}

static void on_reply(void *user, uint32_t seq, uint32_t n, const am_word *w)
{
    (void)user;
    strays++;
    ask_rec *a = NULL;
    for (uint32_t i = nasks; i-- > 0;)
        if (asks[i].seq == seq) { a = &asks[i]; break; }
    if (!a) {
        stray_unknown++;
        fail("a reply with seq %u, which no ask of ours had (%u words)", seq, n);
        return;
    }
    if (a->got++ == 0) {
        a->gn = n < AM_MAX_MSG_WORDS ? n : AM_MAX_MSG_WORDS;
        memcpy(a->gw, w, a->gn * sizeof *w);
    }
    judge(a);
}

/* ---- the link ------------------------------------------------------------------------ */
static am_link *L;
static uint32_t raw_seq;          /* the next seq of a frame the library does not track */
static uint32_t timeout_ms;

static uint32_t fresh_seq(void)
{
    for (;;) {
        raw_seq = (raw_seq + 1) & 0xffffu;
        if (raw_seq && !seq_used[raw_seq]) break;
    }
    seq_used[raw_seq] = 1;
    return raw_seq;
}

static int open_link(void)
{
    am_link_opts o;
    am_link_opts_default(&o);
    o.wait_ms = 20000;
    /* the simulator answers between transactions: a slow one's 300,000
     * cycles take a while in simulation */
    timeout_ms = sim ? (chance(50) ? 3000 : 6000) : (chance(30) ? 150 : 1000);
    o.timeout_ms = timeout_ms;
    o.retries = 3;
    o.on_console = on_console;
    o.on_reply = on_reply;
    int r = am_link_open(port, &o, &L);
    if (r != AM_LINK_OK) {
        fail("open %s: %s", port, am_link_strerror(r));
        L = NULL;
        return -1;
    }
    /* the library's seqs: learned from a request of its own; the fuzzer's
     * raw frames take seqs half the space away */
    am_link_answer a;
    r = am_link_request(L, AM_LINK_STATS, NULL, 0, 0, &a);
    if (r != AM_LINK_OK) { fail("the first STATS: %s", am_link_strerror(r)); return -1; }
    for (uint32_t k = 0; k < 2048; k++) seq_used[(a.seq + k) & 0xffffu] = 1;   /* the library's */
    raw_seq = (a.seq + 0x8000u) & 0xffffu;
    return 0;
}

static void close_link(void)
{
    if (L) am_link_close(L);
    L = NULL;
}

static int get_stats(am_word s[AM_LINK_NSTATS])
{
    int r = am_link_stats(L, s);
    if (r != AM_LINK_OK) {
        fail("stats: %s", am_link_strerror(r));
        return -1;
    }
    if (!link_accounted(s)) fail("stats: the counters do not add up");
    if (s[AM_LINK_S_QUEUED] > QUEUE_DEPTH) fail("stats: QUEUED %u > %u", s[AM_LINK_S_QUEUED], QUEUE_DEPTH);
    if (!credit_ignored && s[AM_LINK_S_FIFO_LOST] != 0)
        fail("stats: FIFO_LOST %u, but the credit was kept", s[AM_LINK_S_FIFO_LOST]);
    return 0;
}

/* what a request's result means for the model: known, or not (TIMEOUT) */
static int outcome_known(int r, const char *what)
{
    if (r == AM_LINK_E_TIMEOUT) {
        note("%s: TIMEOUT (outcome unknown)", what);
        if (!sim) fail("%s: no answer from am-run (retries included)", what);
        uncertain = 1;
        return 0;
    }
    if (r == AM_LINK_E_GONE || r == AM_LINK_E_IO) fail("%s: %s", what, am_link_strerror(r));
    return 1;
}

/* ---- the program's model (clean seeds) ------------------------------------------------
 * deliver: what a message to an actor does, as link_prog.c does it: the
 * echo sends [w1..] to w0 (nothing for AM_NIL), the counters add w1 and
 * answer w0. A clean message never names a target the model does not know. */
static int name_of(am_ref r)
{
    for (int i = 0; i < 3; i++)
        if (ex[i] == r && r != AM_NIL) return i;
    return -1;
}
static void deliver(int to, uint32_t n, const am_word *w)
{
    if (to == ECHO) {
        if (n == 0) { faults_expected++; return; }
        if (w[0] == AM_NIL) return;
        deliver(name_of(w[0]), n - 1, w + 1);
    } else if (to == COUNTER || to == SLOW) {
        if (n < 2 || n > (to == COUNTER ? 2u : 8u)) { faults_expected++; return; }
        tally_msgs[to]++;
        tally_sum[to] += w[1];
        /* clean customers of a counter are AM_NIL (or the proxy of an ask) */
    }
}

/* a clean message of n words for name (n chosen by the caller): the
 * echo's first word a known reference or AM_NIL, the counters' AM_NIL */
static void clean_words(int name, uint32_t n, am_word *w)
{
    for (uint32_t i = 0; i < n; i++) w[i] = rnd() % 1000;
    if (n == 0) return;
    if (name == COUNTER || name == SLOW) { w[0] = AM_NIL; return; }
    if (name != ECHO) return;
    /* echo: forward to someone, or to nobody */
    uint32_t k = below(10);
    if (k < 3) { w[0] = AM_NIL; return; }
    int next = k < 6 ? COUNTER : k < 8 ? ECHO : (sim && !chance(20)) ? COUNTER : SLOW;
    w[0] = ex[next];
    clean_words(next, n - 1, w + 1);
}

/* dirty words: garbage, exported references and their neighbours, the
 * console, the console's export message, small numbers */
static am_word dirty_word(void)
{
    switch (below(9)) {
    case 0: return rnd();
    case 1: return AM_NIL;
    case 2: return ex[below(3)];
    case 3: return ex[below(3)] + below(5) - 2;
    case 4: return ex[below(3)] + 0x10000u * (below(3) + 1);
    case 5: return AM_CONSOLE;
    case 6: return below(3) == 0 ? AM_CON_EXPORT : below(10);
    case 7: return 0xffffffffu;
    default: return rnd() % 1000;
    }
}

/* ---- operations ----------------------------------------------------------------------- */
static uint32_t pick_name(void)
{
    uint32_t k = below(100);
    if (k < 40) return ECHO;
    if (k < 75) return COUNTER;
    if (k < 85) return (sim && !chance(30)) ? COUNTER : SLOW;
    if (k < 97) return 3 + below(5);   /* 3 holds the console: not exported either */
    return chance(50) ? 8 + below(100) : ex[below(3)];   /* out of range, a reference as a name */
}

static void words_for(uint32_t name, uint32_t n, am_word *w)
{
    if (dirty) for (uint32_t i = 0; i < n; i++) w[i] = dirty_word();
    else clean_words((int)name, n, w);
}

static void op_send(void)
{
    uint32_t name = pick_name(), n;
    am_word w[AM_MAX_MSG_WORDS];
    if (name == COUNTER) n = chance(85) ? 2 : below(9);
    else if (name == SLOW) n = 2 + below(7), n = chance(10) ? below(2) : n;
    else n = chance(10) ? 0 : 1 + below(8);
    words_for(name, n, w);
    int r = am_link_send(L, name, n, w);
    note("send name %u, %u words [0x%x 0x%x ...]: %s", name, n, n ? w[0] : 0, n > 1 ? w[1] : 0,
         r ? am_link_strerror(r) : "ok");
    if (!outcome_known(r, "send")) return;
    if (name >= 3 || (dirty && ex[name] == AM_NIL)) {
        if (r != AM_LINK_E_NOT_EXPORTED && !dirty) fail("send to name %u: %s, expected not exported", name, am_link_strerror(r));
        return;
    }
    if (r == AM_LINK_E_BUSY) return;
    if (r != AM_LINK_OK) {
        if (!dirty) fail("send to name %u: %s", name, am_link_strerror(r));
        return;
    }
    if (!dirty) deliver((int)name, n, w);
}

/* an ask the fuzzer tracks by seq: a raw frame (the library does not know
 * its seq: its ACK is dropped, its REPLY comes to on_reply whenever it
 * comes, in this session or a later one); what became of it, from the
 * counters around it. 1 injected, 0 refused, -1 not known. */
static int raw_ask(uint32_t name, uint32_t n, const am_word *w, uint32_t expect, int check,
                   const am_word *rw, uint32_t rn)
{
    am_word s0[AM_LINK_NSTATS], s1[AM_LINK_NSTATS];
    if (get_stats(s0) || nasks == MAX_ASKS) return -1;
    uint32_t seq = fresh_seq();
    ask_rec *a = &asks[nasks++];   /* before the STATS: its reply may come first */
    memset(a, 0, sizeof *a);
    a->seq = seq;
    a->op = op_index;
    a->expect = expect;
    a->check = (uint32_t)check;
    a->n = rn;
    if (rn) memcpy(a->w, rw, rn * sizeof *rw);
    uint8_t f[AM_LINK_HDR + 4 * 9 + AM_LINK_CRC];
    am_link_put32(f + AM_LINK_HDR, name);
    for (uint32_t i = 0; i < n; i++) am_link_put32(f + AM_LINK_HDR + 4 + 4 * i, w[i]);
    wire wb = { .n = 0 };
    wb.b[wb.n++] = 0;
    am_link_emit(f, AM_LINK_ASK, seq, 4 + 4 * n, wire_put, &wb);
    int r = am_link_write_raw(L, wb.b, wb.n);
    if (r != AM_LINK_OK) { fail("raw ask: %s", am_link_strerror(r)); return -1; }
    if (get_stats(s1)) return -1;
    uint32_t inj = s1[AM_LINK_S_INJECTED] - s0[AM_LINK_S_INJECTED];
    uint32_t busy = s1[AM_LINK_S_E_BUSY] - s0[AM_LINK_S_E_BUSY];
    uint32_t notex = s1[AM_LINK_S_E_NOT_EXPORTED] - s0[AM_LINK_S_E_NOT_EXPORTED];
    uint32_t badlen = s1[AM_LINK_S_E_BAD_LENGTH] - s0[AM_LINK_S_E_BAD_LENGTH];
    note("raw ask seq %u name %u, %u words: injected %u busy %u not-exported %u bad-length %u", seq, name, n,
         inj, busy, notex, badlen);
    if (inj + busy + notex + badlen != 1) {
        fail("raw ask seq %u: the counters moved by injected %u busy %u not-exported %u bad-length %u", seq,
             inj, busy, notex, badlen);
        return -1;
    }
    if (!inj) a->expect = 0;
    a->resolved = 1;
    judge(a);
    if (!dirty) {
        int want_notex = name >= 3, want_badlen = n > 7;
        if (want_badlen ? !badlen : want_notex ? !notex : !(inj || busy))
            fail("raw ask seq %u to name %u, %u words: injected %u busy %u not-exported %u bad-length %u", seq,
                 name, n, inj, busy, notex, badlen);
    }
    return (int)inj;
}

static void op_ask(void)
{
    uint32_t name = pick_name(), n;
    am_word w[AM_MAX_MSG_WORDS];
    if (name == COUNTER) n = chance(85) ? 1 : below(8);
    else if (name == SLOW) n = chance(10) ? 0 : 1 + below(7);
    else n = below(8);
    for (uint32_t i = 0; i < AM_MAX_MSG_WORDS; i++)
        w[i] = dirty ? dirty_word() : (name == COUNTER || name == SLOW) ? rnd() % 1000 : rnd();
    /* what the model says: a reply (its words, for the echo), or a fault */
    uint32_t expect = 1, rn = 0;
    int check = 0;
    am_word rw[AM_MAX_MSG_WORDS];
    if (name == ECHO) { check = 1; rn = n; memcpy(rw, w, n * sizeof *w); }
    else if (name == COUNTER) expect = n == 1;
    else if (name == SLOW) expect = n >= 1;
    if (dirty) expect = 2;
    int raw = dirty || expect != 1 || name >= 3 || chance(25);
    if (raw && chance(5)) n = 8;   /* too long for an ask: BAD_LENGTH */
    if (raw) {
        int r = raw_ask(name, n, w, expect, check, rw, rn);
        if (r == 1 && !dirty) {
            /* the message is [proxy, w...]: the counters count w0 or fail */
            if (name == COUNTER && n == 1) { tally_msgs[1]++; tally_sum[1] += w[0]; }
            else if (name == SLOW && n >= 1) { tally_msgs[2]++; tally_sum[2] += w[0]; }
            else if (name != ECHO) faults_expected++;
        }
        if (r < 0 && !dirty) uncertain = 1;
        return;
    }
    am_word r[AM_MAX_MSG_WORDS];
    uint32_t got = 0;
    int rc = am_link_ask(L, name, n, w, sim ? 30000 : 5000, r, &got);
    note("ask name %u, %u words: %s (%u words back)", name, n, rc ? am_link_strerror(rc) : "ok", got);
    if (!outcome_known(rc, "ask")) return;
    if (rc == AM_LINK_E_BUSY) return;
    if (rc != AM_LINK_OK) { fail("ask name %u, %u words: %s", name, n, am_link_strerror(rc)); return; }
    if (name == ECHO) {
        if (got != n) fail("echo ask: %u words back, expected %u", got, n);
        else
            for (uint32_t i = 0; i < n; i++)
                if (r[i] != w[i]) { fail("echo ask: word %u is 0x%x, expected 0x%x", i, r[i], w[i]); break; }
    } else {
        tally_msgs[name]++;
        tally_sum[name] += w[0];
        /* the reply counts what came before it: at most the model's tally
         * (sends the echo forwards may still be on their way) */
        if (got != 2 || r[0] > tally_msgs[name] || r[0] == 0)
            fail("ask name %u: reply [%u %u], the model's tally is [%u %u]", name, got ? r[0] : 0,
                 got > 1 ? r[1] : 0, tally_msgs[name], tally_sum[name]);
    }
}

static void op_exports(void)
{
    am_ref e[AM_EXPORT_MAX];
    int r = am_link_exports(L, e);
    note("exports: %s [0x%x 0x%x 0x%x 0x%x]", r ? am_link_strerror(r) : "ok", e[0], e[1], e[2], e[3]);
    if (r != AM_LINK_OK) { fail("exports: %s", am_link_strerror(r)); return; }
    for (uint32_t i = 0; i < AM_EXPORT_MAX; i++)
        if (e[i] == AM_CONSOLE) fail("exports lists the console under name %u", i);
    if (dirty) return;
    for (uint32_t i = 0; i < AM_EXPORT_MAX; i++)
        if (e[i] != (i < 3 ? ex[i] : AM_NIL)) fail("exports: name %u is 0x%x, expected 0x%x", i, e[i], i < 3 ? ex[i] : 0);
}

static void op_burst(void)
{
    uint32_t name = COUNTER, count = 10 + below(sim ? 150 : 390), n = 2;
    if (!sim && chance(40)) name = SLOW, n = 2 + below(7);
    if (sim && chance(5)) name = SLOW, count = 1 + below(4), n = 2;
    /* messages that fail: fault deliveries while the link fills the queue */
    int failing = chance(25);
    if (failing) name = chance(50) ? ECHO : COUNTER, n = name == ECHO ? 0 : 3;
    static am_word m[8 * 400];
    am_word sum = 0;
    for (uint32_t i = 0; i < count; i++) {
        for (uint32_t j = 0; j < n; j++) m[i * n + j] = dirty ? dirty_word() : rnd() % 1000;
        if (!dirty && n) m[i * n] = AM_NIL;
        if (n > 1) sum += m[i * n + 1];
    }
    uint32_t busy = 0;
    int r = am_link_send_many(L, name, count, n, m, &busy);
    note("burst %u x %u words to %u%s: %s, %u busy", count, n, name, failing ? " (failing)" : "", r ? am_link_strerror(r) : "ok", busy);
    if (!outcome_known(r, "burst")) return;
    if (r != AM_LINK_OK) {
        if (!dirty || r != AM_LINK_E_NOT_EXPORTED) fail("burst: %s", am_link_strerror(r));
        if (!dirty) uncertain = 1;
        return;
    }
    if (dirty) return;
    if (failing) faults_expected += count;
    else { tally_msgs[name] += count; tally_sum[name] += sum; }
}

static void op_garbage(void)
{
    static uint8_t g[1024];
    uint32_t n = 1 + below(chance(20) ? 1000 : 200);
    for (uint32_t i = 0; i < n; i++) { uint32_t x = rnd(); g[i] = (uint8_t)(x % 13 == 0 ? 0 : x >> 8); }
    int delim = chance(92);
    if (delim) g[n++] = 0;
    int r = am_link_write_raw(L, g, n);
    note("garbage %u bytes%s: %s", n, delim ? " and a delimiter" : ", no delimiter", r ? am_link_strerror(r) : "ok");
    if (r != AM_LINK_OK) fail("garbage: %s", am_link_strerror(r));
}

/* a frame that would count MARK (or ask with it), broken on its way */
static void op_corrupt(void)
{
    uint32_t seq = fresh_seq();
    int ask = chance(40);
    am_word v[3] = { COUNTER, AM_NIL, MARK };
    uint8_t f[AM_LINK_HDR + 12 + AM_LINK_CRC];
    for (int i = 0; i < 3; i++) am_link_put32(f + AM_LINK_HDR + 4 * i, v[i]);
    wire good = { .n = 0 };
    am_link_emit(f, ask ? AM_LINK_ASK : AM_LINK_INJECT, seq, ask ? 8 : 12, wire_put, &good);
    uint8_t m[128];
    uint32_t n = good.n - 1;   /* without its delimiter */
    memcpy(m, good.b, n);
    const char *how;
    switch (below(5)) {
    case 0: {
        uint32_t k = 1 + below(3);
        for (uint32_t i = 0; i < k; i++) m[below(n)] ^= (uint8_t)(1u << below(8));
        how = "bits flipped";
        break;
    }
    case 1: n = 1 + below(n - 1); how = "cut"; break;
    case 2: { uint32_t at = below(n); memmove(m + at, m + at + 1, n - at - 1); n--; how = "a byte dropped"; break; }
    case 3: { uint32_t at = below(n); memmove(m + at + 1, m + at, n - at); n++; how = "a byte doubled"; break; }
    default: { uint32_t at = below(n); m[at] = (uint8_t)(rnd() | 1); how = "a byte replaced"; break; }
    }
    /* a frame whose mutation left it intact (a byte replaced by itself) is no corruption */
    if (n == good.n - 1 && memcmp(m, good.b, n) == 0) m[0] ^= 0x40;
    m[n++] = 0;
    int r = am_link_write_raw(L, m, n);
    note("corrupt %s seq %u, %s: %s", ask ? "ask" : "inject", seq, how, r ? am_link_strerror(r) : "ok");
    if (r != AM_LINK_OK) fail("corrupt: %s", am_link_strerror(r));
    if (ask && nasks < MAX_ASKS) {   /* it must never be answered */
        ask_rec *a = &asks[nasks++];
        memset(a, 0, sizeof *a);
        a->seq = seq;
        a->expect = 0;
        a->op = op_index;
        a->resolved = 1;
    }
}

/* a good frame the library does not track: answered (or refused), changes nothing */
static void op_raw_valid(void)
{
    static const uint32_t types[] = { AM_LINK_STATS, AM_LINK_EXPORTS_Q, AM_LINK_SYNC, AM_LINK_HELLO,
                                      0x0a, 0x7e, AM_LINK_ACK, AM_LINK_REPLY, AM_LINK_CONSOLE };
    uint32_t type = types[below(sizeof types / sizeof types[0])];
    uint8_t f[AM_LINK_HDR + 16 + AM_LINK_CRC] = { 0 };
    uint32_t n = chance(20) ? 4 * below(4) : 0;
    wire w = { .n = 0 };
    w.b[w.n++] = 0;
    am_link_emit(f, type, fresh_seq(), n, wire_put, &w);
    int r = am_link_write_raw(L, w.b, w.n);
    note("raw frame type 0x%x, %u payload bytes: %s", type, n, r ? am_link_strerror(r) : "ok");
    if (r != AM_LINK_OK) fail("raw frame: %s", am_link_strerror(r));
}

/* a retry by hand: the same INJECT twice with one seq; counted once */
static void op_duplicate(void)
{
    uint32_t seq = fresh_seq();
    am_word v = rnd() % 1000;
    uint8_t p[12];
    am_link_put32(p, COUNTER);
    am_link_put32(p + 4, AM_NIL);
    am_link_put32(p + 8, v);
    am_link_answer a1, a2;
    int r1 = am_link_request(L, AM_LINK_INJECT, p, 12, seq, &a1);
    int r2 = am_link_request(L, AM_LINK_INJECT, p, 12, seq, &a2);
    note("duplicate seq %u: %s, then %s", seq, r1 ? am_link_strerror(r1) : "ok", r2 ? am_link_strerror(r2) : "ok");
    if (!outcome_known(r1, "duplicate") || !outcome_known(r2, "duplicate")) return;
    if (dirty) return;
    if (r1 == AM_LINK_OK && r2 != AM_LINK_OK) fail("duplicate seq %u: the retry of an acknowledged inject: %s", seq, am_link_strerror(r2));
    if ((r1 != AM_LINK_OK && r1 != AM_LINK_E_BUSY) || (r2 != AM_LINK_OK && r2 != AM_LINK_E_BUSY))
        fail("duplicate seq %u: %s / %s", seq, am_link_strerror(r1), am_link_strerror(r2));
    if ((r1 == AM_LINK_OK || r2 == AM_LINK_OK) && !dirty) { tally_msgs[COUNTER]++; tally_sum[COUNTER] += v; }
}

static void op_bad_request(void)
{
    uint8_t p[64];
    for (int i = 0; i < 64; i++) p[i] = (uint8_t)rnd();
    am_link_put32(p, below(3));
    static const struct { uint32_t type, n; int code; } c[] = {
        { AM_LINK_INJECT, 40, AM_LINK_E_BAD_LENGTH }, { AM_LINK_INJECT, 3, AM_LINK_E_BAD_LENGTH },
        { AM_LINK_INJECT, 6, AM_LINK_E_BAD_LENGTH },  { AM_LINK_ASK, 36, AM_LINK_E_BAD_LENGTH },
        { AM_LINK_ASK, 2, AM_LINK_E_BAD_LENGTH },     { AM_LINK_STATS, 4, AM_LINK_E_BAD_LENGTH },
        { AM_LINK_EXPORTS_Q, 1, AM_LINK_E_BAD_LENGTH }, { AM_LINK_SYNC, 8, AM_LINK_E_BAD_LENGTH },
        { AM_LINK_SHUTDOWN, 4, AM_LINK_E_BAD_LENGTH }, { AM_LINK_START, 3, AM_LINK_E_BAD_LENGTH },
        { AM_LINK_START, 4, AM_LINK_E_LOAD_ORDER },   { AM_LINK_LOAD, 2, AM_LINK_E_BAD_LENGTH },
        { 0x0b, 0, AM_LINK_E_UNKNOWN_TYPE },          { 0x40, 8, AM_LINK_E_UNKNOWN_TYPE },
        { 0x83, 0, AM_LINK_E_UNKNOWN_TYPE },          { 0xff, 64, AM_LINK_E_UNKNOWN_TYPE },
    };
    uint32_t k = below(sizeof c / sizeof c[0]);
    if (c[k].type == AM_LINK_START) am_link_put32(p, 1u + below(1000));   /* START with no image loaded */
    int r = am_link_request(L, c[k].type, p, c[k].n, 0, NULL);
    note("request type 0x%x, %u bytes: %s", c[k].type, c[k].n, r ? am_link_strerror(r) : "ok");
    if (!outcome_known(r, "request")) return;
    if (r != c[k].code) fail("request type 0x%x, %u bytes: %s, expected %s", c[k].type, c[k].n,
                             am_link_strerror(r), am_link_strerror(c[k].code));
}

/* a burst written past the library, whatever the credit: garbage and good
 * STATS frames; then a SYNC */
static void op_ignore_credit(void)
{
    static uint8_t b[3000];
    uint32_t n = 0, total = 600 + below(sim ? 900 : 2200);
    while (n + 40 < total) {
        if (chance(50)) {
            uint8_t f[AM_LINK_HDR + AM_LINK_CRC];
            wire w = { .n = 0 };
            am_link_emit(f, AM_LINK_STATS, fresh_seq(), 0, wire_put, &w);
            memcpy(b + n, w.b, w.n);
            n += w.n;
        } else {
            uint32_t k = 1 + below(30);
            for (uint32_t i = 0; i < k; i++) b[n++] = (uint8_t)(rnd() | 1);
            b[n++] = 0;
        }
    }
    credit_ignored = 1;
    uint32_t wrote = write_all(am_link_fd(L), b, n);
    int r = am_link_sync(L);
    note("ignoring the credit: %u bytes written at once, then SYNC: %s", wrote, r ? am_link_strerror(r) : "ok");
    if (wrote != n || r != AM_LINK_OK) fail("a burst ignoring the credit: %u of %u bytes, SYNC %s", wrote, n, am_link_strerror(r));
}

static void op_reconnect(void)
{
    int half = chance(40);
    if (half) {
        /* a good frame cut short: the next host's first delimiter ends it */
        uint8_t f[AM_LINK_HDR + 12 + AM_LINK_CRC];
        am_word v[3] = { COUNTER, AM_NIL, MARK };
        for (int i = 0; i < 3; i++) am_link_put32(f + AM_LINK_HDR + 4 * i, v[i]);
        wire w = { .n = 0 };
        am_link_emit(f, AM_LINK_INJECT, fresh_seq(), 12, wire_put, &w);
        uint32_t cut = 1 + below(w.n - 2);
        if (am_link_write_raw(L, w.b, cut) != AM_LINK_OK) fail("reconnect: the half frame");
    }
    close_link();
    note("reconnect%s", half ? " (in mid-frame)" : "");
    if (chance(30)) sleep_ms(below(300));
    open_link();
}

/* idle, then the counters' tallies against the model */
static void op_idle_check(int final)
{
    int r = am_link_wait_idle(L, sim ? 60000 : 10000);
    note("wait idle: %s", r ? am_link_strerror(r) : "ok");
    if (r != AM_LINK_OK) { fail("wait idle: %s", am_link_strerror(r)); return; }
    am_word s[AM_LINK_NSTATS];
    if (get_stats(s)) return;
    if (s[AM_LINK_S_QUEUED] != 0) fail("idle, but QUEUED %u", s[AM_LINK_S_QUEUED]);
    /* idle: nothing runs until the host sends something, and everything
     * printed has arrived (docs/link.md, load; am_link_wait_idle) */
    uint32_t c0 = console_frames, st0 = strays;
    if (am_link_monitor(L, sim ? 300 : 100) != AM_LINK_OK) fail("monitor");
    if (console_frames != c0 || strays != st0)
        fail("idle (QUEUED 0), yet %u console frames and %u replies came after", console_frames - c0, strays - st0);
    if (dirty || uncertain) return;
    for (int name = COUNTER; name <= SLOW; name++) {
        am_word z = 0, rw[AM_MAX_MSG_WORDS];
        uint32_t n = 0;
        int rc = am_link_ask(L, (uint32_t)name, 1, &z, sim ? 30000 : 5000, rw, &n);
        if (!outcome_known(rc, "tally")) return;
        if (rc == AM_LINK_E_BUSY) continue;
        if (rc != AM_LINK_OK || n != 2) { fail("tally of %d: %s, %u words", name, am_link_strerror(rc), n); continue; }
        tally_msgs[name]++;
        note("tally of %d: [%u %u], model [%u %u]", name, rw[0], rw[1], tally_msgs[name], tally_sum[name]);
        if (rw[0] != tally_msgs[name] || rw[1] != tally_sum[name])
            fail("%s %d's tally is [%u %u], the model's [%u %u]%s", final ? "at the end," : "idle:", name, rw[0],
                 rw[1], tally_msgs[name], tally_sum[name], "");
    }
    /* the fault lines of failed messages: printed by now */
    if (am_link_monitor(L, 100) != AM_LINK_OK) fail("monitor");
    if (faults_seen != faults_expected)
        fail("%u fault lines on the console, the model expects %u", faults_seen, faults_expected);
}

static void op_load(void)
{
    uint8_t *img;
    uint32_t n, problem = 0;
    if (am_link_read_image(image_path, &img, &n) != AM_LINK_OK) { fail("read %s", image_path); return; }
    /* the current program's fault lines and replies first: nothing is
     * promised for what is still queued at the load */
    op_idle_check(0);
    int r = am_link_load(L, img, n, &problem);
    free(img);
    note("load %s: %s", image_path, r ? am_link_strerror(r) : "ok");
    if (r != AM_LINK_OK) { fail("load: %s (problem %u)", am_link_strerror(r), problem); return; }
    loaded = 1;
    for (uint32_t i = 0; i < nasks; i++)
        if (asks[i].expect == 1 && !asks[i].got) asks[i].expect = 2;   /* its proxy is gone */
    r = am_link_wait_idle(L, sim ? 60000 : 10000);
    if (r != AM_LINK_OK) fail("after the load, wait idle: %s", am_link_strerror(r));
    if (am_link_exports(L, ex) != AM_LINK_OK) fail("exports after the load");
    memset(tally_msgs, 0, sizeof tally_msgs);
    memset(tally_sum, 0, sizeof tally_sum);
    faults_expected = faults_seen;
}

/* ---- one seed ---------------------------------------------------------------------------- */
static int run_seed(void)
{
    rs = (uint64_t)seed * 0x2545f4914f6cdd1dull + 1;
    dirty = (rnd() & 1) == 1;
    int may_load = chance(25);
    start_target();
    if (open_link()) return 1;
    if (am_link_exports(L, ex) != AM_LINK_OK) { fail("exports"); return 1; }
    if (!ex[0] || !ex[1] || !ex[2]) fail("link-echo's exports are not there at the first answer");
    note("seed %u: %s, %u operations, timeout %u ms", seed, dirty ? "dirty" : "clean", nops, timeout_ms);
    for (op_index = 1; op_index <= nops && L; op_index++) {
        uint32_t k = below(1000);
        if (k < 230) op_send();
        else if (k < 430) op_ask();
        else if (k < 480) op_exports();
        else if (k < 530) { am_word s[AM_LINK_NSTATS]; get_stats(s); note("stats"); }
        else if (k < 580) op_burst();
        else if (k < 660) op_garbage();
        else if (k < 740) op_corrupt();
        else if (k < 790) op_raw_valid();
        else if (k < 830) op_duplicate();
        else if (k < 880) op_bad_request();
        else if (k < 890) op_ignore_credit();
        else if (k < 940) op_reconnect();
        else if (k < 970) op_idle_check(0);
        else if (k < 975 && may_load && !loaded) op_load();
        else op_ask();
        ops_done = op_index;
        if (failures) break;
    }
    if (!failures && L) {
        op_index = 0;
        op_idle_check(1);
        if (am_link_monitor(L, sim ? 500 : 200) != AM_LINK_OK) fail("the last monitor");
        for (uint32_t i = 0; i < nasks; i++) {
            ask_rec *a = &asks[i];
            if (a->expect == 1 && a->got != 1)
                fail("the ask of seq %u (op %u) got %u replies, expected 1", a->seq, a->op, a->got);
            if (a->expect == 0 && a->got != 0)
                fail("the ask of seq %u (op %u) got %u replies, expected none", a->seq, a->op, a->got);
        }
        am_word s[AM_LINK_NSTATS];
        if (get_stats(s) == 0 && s[AM_LINK_S_QUEUED] != 0) fail("at the end QUEUED %u", s[AM_LINK_S_QUEUED]);
        if (boots_seen != 1u + (uint32_t)loaded) fail("the boot's console line came %u times", boots_seen);
        int r = am_link_shutdown(L);
        if (r != AM_LINK_OK) fail("shutdown: %s", am_link_strerror(r));
    }
    close_link();
    int st = reap(failures ? 0 : 15000);
    if (st < 0) {
        if (!failures) fail("the target did not exit after SHUTDOWN");
        kill(target, SIGTERM);   /* the simulator reports where it was */
        st = reap(10000);
        if (st < 0) { kill(target, SIGKILL); reap(5000); }
    } else if (st != 0) fail("the target exited %d", st);
    if (sim) {
        char cmd[800], line[400] = "";
        snprintf(cmd, sizeof cmd, "grep -E '^\\[.*\\] link: .*divergence' '%s' | tail -n 1", logpath);
        FILE *p = popen(cmd, "r");
        if (p) { if (!fgets(line, sizeof line, p)) line[0] = 0; pclose(p); }
        if (!strstr(line, ", 0 divergences\n")) {
            fail("am-sim's last link line: %s", line[0] ? line : "(none)");
            snprintf(cmd, sizeof cmd, "tail -n 25 '%s' >&2", logpath);
            if (system(cmd) != 0) {}
        }
    }
    printf("seed %u: %s, %u ops, %u asks tracked, %u stray replies, %u fault lines, %u console frames%s%s: %s\n",
           seed, dirty ? "dirty" : "clean", ops_done, nasks, strays, faults_seen,
           console_frames, loaded ? ", loaded" : "", uncertain ? ", a timeout" : "", failures ? "FAIL" : "ok");
    if (failures) dump_log();
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: fuzz_link TARGET IMAGE WORKDIR FIRST_SEED COUNT [--ops N] [-v]\n");
        return 2;
    }
    target_path = argv[1];
    image_path = argv[2];
    workdir = argv[3];
    uint32_t first = (uint32_t)strtoul(argv[4], NULL, 0), count = (uint32_t)strtoul(argv[5], NULL, 0);
    for (int i = 6; i < argc; i++) {
        if (!strcmp(argv[i], "--ops") && i + 1 < argc) nops = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-v")) verbose = 1;
    }
    sim = strstr(target_path, "am-sim") != NULL;
    signal(SIGPIPE, SIG_IGN);
    mkdir(workdir, 0755);
    uint32_t passed = 0, failed = 0;
    for (uint32_t s = first; s < first + count; s++) {
        fflush(stdout);
        fflush(stderr);
        pid_t c = fork();
        if (c == 0) {
            seed = s;
            int rc = run_seed();
            fflush(stdout);
            _exit(rc);
        }
        /* a seed is bounded: 40 s on am-run, 600 s on the simulator */
        uint64_t until = now_ms() + (sim ? 600000u : 40000u) + nops * (sim ? 2000u : 100u);
        int st = 0;
        pid_t r;
        while ((r = waitpid(c, &st, WNOHANG)) == 0 && now_ms() < until) sleep_ms(20);
        if (r == 0) {
            printf("seed %u: HANG (no end within its time): FAIL\n", s);
            kill(c, SIGTERM);   /* its target gets SIGTERM too (PDEATHSIG) */
            sleep_ms(2000);
            kill(c, SIGKILL);
            waitpid(c, &st, 0);
            failed++;
        } else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) passed++;
        else {
            failed++;
            printf("  rerun: %s %s %s %s %u 1 --ops %u -v\n", argv[0], target_path, image_path, workdir, s, nops);
        }
    }
    printf("link-fuzz%s: %u passed, %u failed\n", sim ? "-sim" : "", passed, failed);
    return failed ? 1 : 0;
}
