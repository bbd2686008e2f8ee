/*
 * am_trace.c — one line per transaction, fixed format (docs/trace-format.md).
 */
#include "am_trace.h"

static void put_c(am_trace_buf *b, char c)
{
    if (b->n + 1 < AM_TRACE_LINE_MAX) b->text[b->n++] = c;
}

static void put_s(am_trace_buf *b, const char *s)
{
    while (*s) put_c(b, *s++);
}

static void put_hex(am_trace_buf *b, uint32_t v)
{
    for (int i = 7; i >= 0; i--) put_c(b, "0123456789abcdef"[(v >> (4 * i)) & 15]);
}

static void put_dec(am_trace_buf *b, uint64_t v)
{
    char tmp[20];
    int n = 0;
    do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (n) put_c(b, tmp[--n]);
}

static void put_beh(am_trace_buf *b, am_beh beh)
{
    put_c(b, 'b');
    if (beh == 0xffffffffu) put_c(b, '-'); else put_dec(b, beh);
}

static void put_words(am_trace_buf *b, uint32_t n, const am_word *w)
{
    put_c(b, '[');
    for (uint32_t i = 0; i < n; i++) {
        if (i) put_c(b, ' ');
        put_hex(b, w[i]);
    }
    put_c(b, ']');
}

static void put_seq(am_trace_buf *b, uint64_t seq)
{
    char tmp[20];
    int n = 0;
    do { tmp[n++] = (char)('0' + seq % 10); seq /= 10; } while (seq);
    for (int i = n; i < 6; i++) put_c(b, '0');
    while (n) put_c(b, tmp[--n]);
}

void am_trace_begin(am_trace_buf *b, uint64_t seq, int committed, am_ref target,
                    am_beh beh, uint32_t len, const am_word *msg)
{
    b->n = 0;
    put_seq(b, seq);
    put_s(b, committed ? " C " : " A ");
    put_hex(b, target);
    put_c(b, ' ');
    put_beh(b, beh);
    put_c(b, ' ');
    put_words(b, len, msg);
}

void am_trace_new(am_trace_buf *b, am_ref ref, am_beh beh, uint32_t n, const am_word *st)
{
    put_s(b, " | new ");
    put_hex(b, ref);
    put_c(b, ' ');
    put_beh(b, beh);
    put_c(b, ' ');
    put_words(b, n, st);
}

void am_trace_send(am_trace_buf *b, am_ref target, uint32_t n, const am_word *msg)
{
    put_s(b, " | send ");
    put_hex(b, target);
    put_c(b, ' ');
    put_words(b, n, msg);
}

void am_trace_become(am_trace_buf *b, am_beh beh, uint32_t n, const am_word *st)
{
    put_s(b, " | become ");
    put_beh(b, beh);
    put_c(b, ' ');
    put_words(b, n, st);
}

void am_trace_state(am_trace_buf *b, uint32_t i, am_word w)
{
    put_s(b, " | state ");
    put_dec(b, i);
    put_c(b, ' ');
    put_hex(b, w);
}

void am_trace_handler(am_trace_buf *b, am_ref handler)
{
    put_s(b, " | handler ");
    put_hex(b, handler);
}

void am_trace_fault(am_trace_buf *b, uint32_t cause, am_word code, uint32_t op, am_word value)
{
    put_s(b, " | fault ");
    put_s(b, am_fault_name(cause));
    put_c(b, ' ');
    put_hex(b, code);
    put_s(b, " op ");
    put_s(b, am_fault_op_name(op));
    put_c(b, ' ');
    put_hex(b, value);
}

void am_trace_gc(am_trace_buf *b, uint64_t seq, uint32_t reclaimed, uint32_t live, uint32_t free_slots,
                 int on_demand)
{
    b->n = 0;
    put_seq(b, seq);
    put_s(b, " G gc reclaimed ");
    put_dec(b, reclaimed);
    put_s(b, " live ");
    put_dec(b, live);
    put_s(b, " free ");
    put_dec(b, free_slots);
    if (on_demand) put_s(b, " on-demand");
}

void am_trace_end(am_trace_buf *b, FILE *f)
{
    b->text[b->n++] = '\n';   /* put_c keeps one byte free for this */
    b->text[b->n] = '\0';
    if (f) fwrite(b->text, 1, b->n, f);
}
