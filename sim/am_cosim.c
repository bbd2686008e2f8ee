/*
 * am_cosim.c — the lockstep checker (see am_cosim.h, docs/cosim.md).
 *
 * Both sides are turned into trace lines by the same formatter
 * (host/am_trace.c) and compared as strings: a line carries everything the
 * contract makes observable (target, behavior, message, created references
 * with behavior and state, sends in order, the BECOME, fault cause and code).
 * Console output is compared after every transaction, byte for byte.
 */
#define _POSIX_C_SOURCE 200809L
#include "am_cosim.h"

#include <stdlib.h>
#include <string.h>

#include "am_link_wire.h"
#include "am_trace.h"

#define HISTORY 8
#define OUT_MAX (1u << 20)
#define PENDING_MAX 4096u

/* An event the hardware has committed (or the boot injected) and not yet
 * dispatched: the conservation model. */
typedef struct pending_event {
    am_ref target;
    uint32_t len;
    am_word msg[AM_MAX_MSG_WORDS];
} pending_event;

struct cosim {
    am_rt *rt;
    FILE *trace_out;
    char ref_line[AM_TRACE_LINE_MAX];
    size_t ref_line_n;
    int ref_line_ready;
    char ref_gc[AM_TRACE_LINE_MAX];   /* the reference's collection line, if any */
    char hw_gc[AM_TRACE_LINE_MAX];    /* the hardware's, since the last check */
    int hw_gc_demand;                 /* ... made on demand (a retried CREATE) */
    uint32_t hw_gc_creates;           /* ... after an attempt that made that many CREATEs */
    char history[HISTORY][AM_TRACE_LINE_MAX];
    uint64_t checked;
    char *ref_out, *hw_out;
    size_t ref_n, hw_n;
    int out_overflow;
    pending_event pending[PENDING_MAX];
    uint32_t p_head, p_count;
    am_ref handler;               /* the fault handler, as the model follows it */
    int delivery_due;             /* an aborted event awaits its fault delivery */
    pending_event delivery;
    uint64_t test_forget_seq;
    const am_behavior_desc *behaviors;   /* for the names in a divergence report */
    uint32_t nbehaviors;
    /* the host link: the hardware's UART stream cut into frames */
    int link;
    am_link_rx lrx;
    uint8_t lbuf[AM_LINK_HDR + AM_LINK_OUT_MAX + AM_LINK_CRC];
    uint8_t raw[2 * AM_LINK_WIRE_MAX(AM_LINK_OUT_MAX)];
    size_t raw_n;
    uint64_t frames_beh, frames_svc;
    /* the boot's SPAWN and INJECT (cosim_new made them) */
    am_ref boot_ref;
    am_beh boot_beh;
    am_word boot_arg;
    int boot_seen;          /* 0, 1 after its SPAWN, 2 after its INJECT */
};

static int pending_push(cosim *c, am_ref target, uint32_t len, const am_word *msg)
{
    if (c->p_count == PENDING_MAX) return -1;
    pending_event *e = &c->pending[(c->p_head + c->p_count++) % PENDING_MAX];
    e->target = target;
    e->len = len;
    for (uint32_t i = 0; i < AM_MAX_MSG_WORDS; i++) e->msg[i] = i < len ? msg[i] : 0;
    return 0;
}

static void format_event(char *buf, size_t n, am_ref target, uint32_t len, const am_word *msg)
{
    size_t k = (size_t)snprintf(buf, n, "event to %08x [", (unsigned)target);
    for (uint32_t i = 0; i < len && k + 10 < n; i++)
        k += (size_t)snprintf(buf + k, n - k, i ? " %08x" : "%08x", (unsigned)msg[i]);
    snprintf(buf + k, n - k, "]");
}

static void on_ref_trace(void *user, const char *line, size_t n)
{
    cosim *c = user;
    if (n >= sizeof c->ref_line) n = sizeof c->ref_line - 1;
    size_t d = 0;                                         /* the sequence number's digits */
    while (d < n && line[d] >= '0' && line[d] <= '9') d++;
    if (n - d > 6 && memcmp(line + d, " G gc ", 6) == 0) {   /* a collection, not a transaction */
        memcpy(c->ref_gc, line, n);
        c->ref_gc[n] = 0;
        return;
    }
    memcpy(c->ref_line, line, n);
    c->ref_line[n] = 0;
    c->ref_line_n = n;
    c->ref_line_ready = 1;
}

static void on_ref_output(void *user, const char *p, size_t n)
{
    cosim *c = user;
    if (c->ref_n + n >= OUT_MAX) { c->out_overflow = 1; return; }
    memcpy(c->ref_out + c->ref_n, p, n);
    c->ref_n += n;
    c->ref_out[c->ref_n] = 0;
}

static void on_ref_fault(void *user, const am_fault_record *r)
{
    (void)user; (void)r;   /* faults are part of the compared lines */
}

cosim *cosim_new(const am_config *cfg_in, am_beh boot, am_word arg, FILE *trace_out)
{
    cosim *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->ref_out = calloc(OUT_MAX, 1);
    c->hw_out = calloc(OUT_MAX, 1);
    am_config cfg = *cfg_in;
    c->behaviors = cfg.behaviors ? cfg.behaviors : am_std_behaviors;
    c->nbehaviors = cfg.behaviors ? cfg.nbehaviors : am_std_nbehaviors;
    cfg.on_trace = on_ref_trace;
    cfg.on_output = on_ref_output;
    cfg.on_fault = on_ref_fault;
    cfg.user = c;
    cfg.trace = NULL;
    c->trace_out = trace_out;
    am_ref b = AM_NIL;
    if (!c->ref_out || !c->hw_out || am_rt_new(&cfg, &c->rt) != AM_OK ||
        am_spawn(c->rt, boot, 0, NULL, &b) != AM_OK ||
        am_inject(c->rt, b, arg ? 1 : 0, &arg) != AM_OK) {
        cosim_free(c);
        return NULL;
    }
    pending_push(c, b, arg ? 1 : 0, &arg);
    c->handler = cfg.fault_handler;
    c->boot_ref = b;
    c->boot_beh = boot;
    c->boot_arg = arg;
    return c;
}

void cosim_free(cosim *c)
{
    if (!c) return;
    if (c->rt) am_rt_free(c->rt);
    free(c->ref_out);
    free(c->hw_out);
    free(c);
}

void cosim_txn_clear(cosim_txn *t) { memset(t, 0, sizeof *t); }

static void hw_out_put(cosim *c, const uint8_t *p, size_t n)
{
    if (c->hw_n + n >= OUT_MAX) { c->out_overflow = 1; return; }
    memcpy(c->hw_out + c->hw_n, p, n);
    c->hw_n += n;
    c->hw_out[c->hw_n] = 0;
}

void cosim_set_link(cosim *c)
{
    c->link = 1;
    am_link_rx_init(&c->lrx, c->lbuf, sizeof c->lbuf);
}

void cosim_uart_byte(cosim *c, uint8_t b)
{
    if (!c->link) {
        hw_out_put(c, &b, 1);
        return;
    }
    if (c->raw_n < sizeof c->raw) c->raw[c->raw_n] = b;
    c->raw_n++;
    int r = am_link_rx_byte(&c->lrx, b);
    if (b != 0) return;
    /* a frame ended: a behavior's is compared; the service's is left out;
     * anything else (broken, or too long) is compared, so that it shows */
    size_t n = c->raw_n < sizeof c->raw ? c->raw_n : sizeof c->raw;
    if (r == AM_LINK_RX_FRAME && !(am_link_rx_type(&c->lrx) & AM_LINK_FROM_BEHAVIOR)) {
        c->frames_svc++;
    } else {
        if (r == AM_LINK_RX_FRAME) c->frames_beh++;
        hw_out_put(c, c->raw, n);
    }
    c->raw_n = 0;
}

void cosim_link_frames(const cosim *c, uint64_t *behavior, uint64_t *service)
{
    *behavior = c->frames_beh;
    *service = c->frames_svc;
}

static void format_hw(const cosim_txn *t, am_trace_buf *b)
{
    am_trace_begin(b, t->seq, t->committed, t->target, t->beh, t->len, t->msg);
    if (t->committed) {
        for (uint32_t i = 0; i < t->ncreates; i++)
            am_trace_new(b, t->creates[i].ref, t->creates[i].beh, t->creates[i].n, t->creates[i].st);
        for (uint32_t i = 0; i < t->nsends; i++)
            am_trace_send(b, t->sends[i].target, t->sends[i].n, t->sends[i].msg);
        if (t->has_become)
            am_trace_become(b, t->become_beh, t->become_n, t->become_st);
        for (uint32_t i = 0; i < AM_MAX_STATE_WORDS; i++)
            if (t->state_set >> i & 1u) am_trace_state(b, i, t->state_v[i]);
        if (t->has_handler)
            am_trace_handler(b, t->handler);
    } else {
        am_trace_fault(b, t->cause, t->code, t->op, t->value);
    }
    am_trace_end(b, NULL);
}

/* The names of the behaviors a report's lines mention (" b<id>"), once each,
 * after the lines: the trace keeps ids so that both sides compare as text. */
static void legend(cosim *c, const char *const *lines, size_t nlines)
{
    static unsigned char seen[65536 / 8];
    memset(seen, 0, sizeof seen);
    int any = 0;
    for (size_t i = 0; i < nlines; i++)
        for (const char *p = lines[i]; (p = strstr(p, " b")) != NULL; p += 2) {
            char *end;
            unsigned long id = strtoul(p + 2, &end, 10);
            if (end == p + 2 || (*end != ' ' && *end != '\n' && *end) || id >= c->nbehaviors ||
                id >= 65536 || (seen[id / 8] >> (id % 8) & 1))
                continue;
            seen[id / 8] |= (unsigned char)(1u << (id % 8));
            fprintf(stderr, "%s b%lu = %s", any ? "," : "  behaviors:", id, c->behaviors[id].name);
            any = 1;
        }
    if (any) fputc('\n', stderr);
}

/* The divergence report. The expected side is the reference runtime's, or
 * the event-conservation model's when who_expects says so. */
static void report_from(cosim *c, uint64_t seq, const char *what, const char *who_expects,
                        const char *expected, const char *actual)
{
    fprintf(stderr, "\nLOCKSTEP DIVERGENCE at transaction %llu: %s\n",
            (unsigned long long)seq, what);
    char label[64];
    snprintf(label, sizeof label, "expected (%s):", who_expects);
    fprintf(stderr, "  %-30s %s", label, expected);
    if (!*expected || expected[strlen(expected) - 1] != '\n') fputc('\n', stderr);
    fprintf(stderr, "  %-30s %s", "actual   (hardware):", actual);
    if (!*actual || actual[strlen(actual) - 1] != '\n') fputc('\n', stderr);
    uint64_t n = c->checked < HISTORY ? c->checked : HISTORY;
    if (c->checked == 0) {
        fprintf(stderr, "  it is the first transaction: none matched before it.\n");
    } else {
        fprintf(stderr, "  %llu transactions matched before this one; the last %llu:\n",
                (unsigned long long)c->checked, (unsigned long long)n);
        for (uint64_t i = c->checked - n; i < c->checked; i++)
            fprintf(stderr, "    %s", c->history[i % HISTORY]);
    }
    const char *lines[HISTORY + 2];
    size_t nl = 0;
    lines[nl++] = expected;
    lines[nl++] = actual;
    for (uint64_t i = c->checked - n; i < c->checked; i++) lines[nl++] = c->history[i % HISTORY];
    legend(c, lines, nl);
}

static void report(cosim *c, uint64_t seq, const char *what, const char *expected, const char *actual)
{
    report_from(c, seq, what, "reference runtime", expected, actual);
}

static int compare_output(cosim *c, uint64_t seq)
{
    if (c->out_overflow) {
        fprintf(stderr, "cosim: console output above %u bytes; not compared\n", OUT_MAX);
        return -1;
    }
    if (c->hw_n == c->ref_n && memcmp(c->hw_out, c->ref_out, c->hw_n) == 0) return 0;
    size_t i = 0;
    while (i < c->hw_n && i < c->ref_n && c->hw_out[i] == c->ref_out[i]) i++;
    char e[96], a[96];
    snprintf(e, sizeof e, "console byte %zu onward: \"%.40s\"", i, c->ref_out + i);
    snprintf(a, sizeof a, "console byte %zu onward: \"%.40s\"", i, c->hw_out + i);
    report(c, seq, "console output differs", e, a);
    return -1;
}

/* Conservation, independent of the reference runtime: the hardware must
 * dispatch exactly the events it committed, each once, in commit order. */
static int check_conservation(cosim *c, const cosim_txn *hw, const char *line)
{
    char e[160], a[160];
    format_event(a, sizeof a, hw->target, hw->len, hw->msg);
    if (c->p_count == 0 && !c->delivery_due) {
        report_from(c, hw->seq, "an event was dispatched that nobody sent (duplicated or invented)",
                    "conservation", "(no undelivered event)", a);
        return -1;
    }
    int is_delivery = c->delivery_due;
    const pending_event *p = is_delivery ? &c->delivery : &c->pending[c->p_head];
    int same = p->target == hw->target && p->len == hw->len;
    for (uint32_t i = 0; same && i < p->len; i++) same = p->msg[i] == hw->msg[i];
    if (!same) {
        format_event(e, sizeof e, p->target, p->len, p->msg);
        report_from(c, hw->seq, "the oldest undelivered event was not the one dispatched (lost, "
                    "reordered or duplicated)", "conservation", e, a);
        return -1;
    }
    if (is_delivery) {
        c->delivery_due = 0;
    } else {
        c->p_head = (c->p_head + 1) % PENDING_MAX;
        c->p_count--;
    }
    /* an abort (not of a delivery) is delivered next to the fault handler,
     * same words; a committed SET_HANDLER changes the handler */
    if (!hw->committed && !is_delivery && c->handler != AM_NIL) {
        c->delivery_due = 1;
        c->delivery = *p;
        c->delivery.target = c->handler;
    }
    if (hw->committed && hw->has_handler) c->handler = hw->handler;
    if (hw->committed)
        for (uint32_t i = hw->seq == c->test_forget_seq ? 1 : 0; i < hw->nsends; i++)
            if (pending_push(c, hw->sends[i].target, hw->sends[i].n, hw->sends[i].msg)) {
                report(c, hw->seq, "more undelivered events than the checker can hold", "", line);
                return -1;
            }
    return 0;
}

void cosim_gc(cosim *c, uint64_t seq, uint32_t reclaimed, uint32_t live, uint32_t free_slots,
              int on_demand, uint32_t ncreates)
{
    c->hw_gc_creates = on_demand ? ncreates : 0;
    am_trace_buf b;
    am_trace_gc(&b, seq, reclaimed, live, free_slots, on_demand);
    am_trace_end(&b, NULL);
    memcpy(c->hw_gc, b.text, b.n + 1);
    c->hw_gc_demand = on_demand;
}

/* The reference's collection (ref_gc, or none) against the hardware's
 * (hw_gc, or none): equal, or a divergence reported as `what`. Both are
 * used up either way. */
static int compare_gc(cosim *c, uint64_t seq, const char *what)
{
    int differs = strcmp(c->ref_gc, c->hw_gc) != 0;
    if (differs)
        report(c, seq, what, c->ref_gc[0] ? c->ref_gc : "(no collection)\n",
               c->hw_gc[0] ? c->hw_gc : "(no collection)\n");
    else if (c->ref_gc[0] && c->trace_out)
        fputs(c->ref_gc, c->trace_out);
    c->ref_gc[0] = 0;
    c->hw_gc[0] = 0;
    c->hw_gc_demand = 0;
    return differs ? -1 : 0;
}

/* A hardware collection that an operation between transactions follows (or
 * COLLECT's, which nothing in a transaction asked for) is mirrored at once:
 * the reference collects as the hardware did -- on demand, or as its
 * trigger would before the next dispatch -- with the same roots (a retried
 * event is still queued on both sides; a retried delivery is pending with
 * its fault record), and the two records are compared. Left for the next
 * cosim_check, the operation would run on the reference before it. */
static int mirror_gc(cosim *c)
{
    if (!c->hw_gc[0]) return 0;
    c->ref_gc[0] = 0;
    if (c->hw_gc_demand) am_collect_on_demand(c->rt, c->hw_gc_creates);
    else am_gc(c->rt);
    am_counters k;
    am_get_counters(c->rt, &k);
    return compare_gc(c, k.seq, "garbage collection between transactions differs");
}

int cosim_collect(cosim *c, uint64_t seq, uint32_t reclaimed, uint32_t live, uint32_t free_slots)
{
    if (mirror_gc(c)) return -1;
    cosim_gc(c, seq, reclaimed, live, free_slots, 1, 0);
    return mirror_gc(c);
}

int cosim_check(cosim *c, const cosim_txn *hw)
{
    am_trace_buf b;
    format_hw(hw, &b);
    if (check_conservation(c, hw, b.text)) return -1;
    c->ref_line_ready = 0;
    c->ref_gc[0] = 0;
    /* The watchdog's budget is the core's cycles and the stack's is the
     * image's RAM: the host can judge neither, so a hardware WATCHDOG or
     * STACK abort is the verdict for the reference too (it dispatches the
     * same event and aborts it without running the behavior; everything
     * else is compared as usual). The reference's own watchdog still stops
     * a behavior the hardware committed but the host loops in. When the
     * hardware collected on demand first, the verdict is on the event's
     * second run: its first run's CREATE found no free slot, which the
     * reference, not running the behavior, cannot see -- it collects on
     * demand as the hardware did, and the collections are compared. */
    int verdict = !hw->committed && (hw->cause == AM_FAULT_WATCHDOG || hw->cause == AM_FAULT_STACK);
    if (verdict && c->hw_gc[0] && c->hw_gc_demand) am_collect_on_demand(c->rt, c->hw_gc_creates);
    am_status s = verdict ? am_step_abort(c->rt, hw->cause, hw->ncreates) : am_step(c->rt);
    if (s == AM_E_EMPTY) {
        report(c, hw->seq, "the hardware dispatched an event the reference does not have",
               "(queue empty)", b.text);
        return -1;
    }
    if (compare_gc(c, hw->seq, "garbage collection before this transaction differs")) return -1;
    if (!c->ref_line_ready || strcmp(c->ref_line, b.text) != 0) {
        report(c, hw->seq, "transaction differs", c->ref_line, b.text);
        return -1;
    }
    if (compare_output(c, hw->seq)) return -1;
    memcpy(c->history[c->checked % HISTORY], b.text, b.n + 1);
    c->checked++;
    if (c->trace_out) fputs(b.text, c->trace_out);
    return 0;
}

int cosim_finish(cosim *c)
{
    am_counters k;
    am_get_counters(c->rt, &k);
    if (c->hw_gc[0]) {
        report(c, k.seq + 1, "the hardware collected garbage and then halted without dispatching",
               "(no collection)", c->hw_gc);
        return -1;
    }
    if (c->delivery_due) {
        char e[200];
        format_event(e, sizeof e, c->delivery.target, c->delivery.len, c->delivery.msg);
        report_from(c, k.seq + 1, "a fault was never delivered to the fault handler", "conservation",
                    e, "(the hardware halted)");
        return -1;
    }
    if (c->p_count != 0) {
        char e[200];
        format_event(e, sizeof e, c->pending[c->p_head].target, c->pending[c->p_head].len,
                     c->pending[c->p_head].msg);
        report_from(c, k.seq + 1, "committed events were never dispatched (lost)", "conservation",
                    e, "(the hardware halted with an empty queue)");
        return -1;
    }
    if (k.queue_len != 0) {
        char e[64];
        snprintf(e, sizeof e, "%u more events to dispatch", (unsigned)k.queue_len);
        report(c, k.seq + 1, "the hardware stopped early", e, "(halted with an empty queue)");
        return -1;
    }
    return compare_output(c, k.seq);
}

static int ext_report(cosim *c, const char *what, const char *expected, const char *actual)
{
    am_counters k;
    am_get_counters(c->rt, &k);
    report(c, k.seq, what, expected, actual);
    return -1;
}

int cosim_ext(cosim *c, unsigned kind, am_ref ref, am_beh beh, uint32_t n, const am_word *w)
{
    char e[200], a[200];
    if (n > AM_MAX_MSG_WORDS) n = AM_MAX_MSG_WORDS;
    if (mirror_gc(c)) return -1;
    if (kind == AM_TRACE_SPAWN && c->boot_seen == 0) {
        c->boot_seen = 1;
        if (ref == c->boot_ref && beh == c->boot_beh && n == 0) return 0;
        snprintf(e, sizeof e, "boot spawn %08x b%u []", (unsigned)c->boot_ref, (unsigned)c->boot_beh);
        snprintf(a, sizeof a, "spawn %08x b%u (%u words)", (unsigned)ref, (unsigned)beh, (unsigned)n);
        return ext_report(c, "the boot's SPAWN differs", e, a);
    }
    if (kind == AM_TRACE_INJECT && c->boot_seen == 1) {
        c->boot_seen = 2;
        uint32_t bn = c->boot_arg ? 1 : 0;
        if (ref == c->boot_ref && n == bn && (!bn || w[0] == c->boot_arg)) return 0;
        format_event(e, sizeof e, c->boot_ref, bn, &c->boot_arg);
        format_event(a, sizeof a, ref, n, w);
        return ext_report(c, "the boot's INJECT differs", e, a);
    }
    am_status s;
    am_ref got = AM_NIL;
    switch (kind) {
    case AM_TRACE_SPAWN:
        s = am_spawn(c->rt, beh, n, w, &got);
        if (s == AM_OK && got == ref) return 0;
        snprintf(e, sizeof e, "spawn %08x (status %d)", (unsigned)got, (int)s);
        snprintf(a, sizeof a, "spawn %08x b%u", (unsigned)ref, (unsigned)beh);
        return ext_report(c, "a SPAWN between transactions differs", e, a);
    case AM_TRACE_INJECT:
        s = am_inject(c->rt, ref, n, w);
        format_event(a, sizeof a, ref, n, w);
        if (s != AM_OK) {
            snprintf(e, sizeof e, "the reference refuses it (status %d)", (int)s);
            return ext_report(c, "an INJECT between transactions differs", e, a);
        }
        if (pending_push(c, ref, n, w))
            return ext_report(c, "more undelivered events than the checker can hold", "", a);
        return 0;
    case AM_TRACE_UNPIN:
        s = am_unpin(c->rt, ref);
        if (s == AM_OK) return 0;
        snprintf(e, sizeof e, "the reference refuses it (status %d)", (int)s);
        snprintf(a, sizeof a, "unpin %08x", (unsigned)ref);
        return ext_report(c, "an UNPIN between transactions differs", e, a);
    default:
        snprintf(a, sizeof a, "trace record kind %u", kind);
        return ext_report(c, "an operation between transactions the checker does not replay",
                          "(SPAWN, INJECT or UNPIN)", a);
    }
}

int cosim_finish_stopped(cosim *c)
{
    am_counters k;
    am_get_counters(c->rt, &k);
    uint32_t undelivered = c->p_count + (c->delivery_due ? 1u : 0u);
    if (k.queue_len != undelivered) {
        char e[80], a[80];
        snprintf(e, sizeof e, "%u events to dispatch", (unsigned)k.queue_len);
        snprintf(a, sizeof a, "%u undelivered (conservation)", (unsigned)undelivered);
        report(c, k.seq + 1, "the machine stopped in another state than the reference", e, a);
        return -1;
    }
    return compare_output(c, k.seq);
}

void cosim_test_forget(cosim *c, uint64_t seq) { c->test_forget_seq = seq; }

uint64_t cosim_checked(const cosim *c) { return c->checked; }
const char *cosim_console(const cosim *c) { return c->hw_out; }
am_rt *cosim_ref(cosim *c) { return c->rt; }
