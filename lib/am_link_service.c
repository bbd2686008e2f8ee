/*
 * am_link_service.c — the machine's side of the host link (see
 * am_link_service.h, docs/link.md).
 */
#include "am_link_service.h"

#define ST(name) (s->stats[AM_LINK_S_##name])

_Static_assert(AM_LINK_S_E_UNSUPPORTED - AM_LINK_S_E_NOT_EXPORTED ==
               AM_LINK_E_UNSUPPORTED - AM_LINK_E_NOT_EXPORTED, "an E_ counter per error code, in order");

void am_link_svc_init(am_link_svc *s, const am_link_ops *ops, void *user)
{
    uint8_t *p = (uint8_t *)s;
    for (uint32_t i = 0; i < sizeof *s; i++) p[i] = 0;
    s->ops = ops;
    s->user = user;
    am_link_rx_init(&s->rx, s->buf, sizeof s->buf);
}

void am_link_svc_stats(const am_link_svc *s, am_word *out)
{
    for (uint32_t i = 0; i < AM_LINK_NSERVICE_STATS_; i++) out[i] = s->stats[i];
    s->ops->counters(s->user, out + AM_LINK_NSERVICE_STATS_);
}

/* A service frame: [consumed, w0..w(n-1)]. Every one carries the consumed
 * count, so every answer is also a credit. */
static void answer(am_link_svc *s, uint32_t type, uint32_t seq, const am_word *w, uint32_t n)
{
    uint8_t f[AM_LINK_HDR + 4 * (1 + AM_LINK_NSTATS) + AM_LINK_CRC];
    am_link_put32(f + AM_LINK_HDR, ST(RX_BYTES));
    for (uint32_t i = 0; i < n; i++) am_link_put32(f + AM_LINK_HDR + 4 + 4 * i, w[i]);
    am_link_emit(f, type, seq, 4 + 4 * n, s->ops->put, s->user);
    s->reported = ST(RX_BYTES);
    ST(TX_FRAMES)++;
}

static void refuse(am_link_svc *s, uint32_t seq, uint32_t code, uint32_t detail)
{
    am_word w[2] = { code, detail };
    ST(REFUSED)++;
    s->stats[AM_LINK_S_E_NOT_EXPORTED + code - AM_LINK_E_NOT_EXPORTED]++;
    answer(s, AM_LINK_ERROR, seq, w, 2);
}

/* The actor exported under a name, as a host may see it: never the
 * console. Its messages are the program's exports and prints, so a host
 * that could send to it could rewrite the export table or print as the
 * machine; a program that exports it exports nothing under that name. */
static am_ref exported(const am_link_svc *s, uint32_t name)
{
    am_ref r = s->ops->exported(s->user, name);
    return r == AM_CONSOLE ? AM_NIL : r;
}

/* INJECT / ASK: [name, w0..w(n-1)]. */
static int deliver(am_link_svc *s, uint32_t type, uint32_t seq, const uint8_t *p, uint32_t len)
{
    uint32_t max = type == AM_LINK_ASK ? AM_MAX_MSG_WORDS - 1 : AM_MAX_MSG_WORDS;
    if (!s->ops->inject) return AM_LINK_E_UNSUPPORTED;   /* no program runs (the loader) */
    if (len < 4 || len % 4 != 0 || (len - 4) / 4 > max) return AM_LINK_E_BAD_LENGTH;
    uint32_t name = am_link_get32(p), n = 0;
    am_ref to = name < AM_EXPORT_MAX ? exported(s, name) : AM_NIL;
    if (to == AM_NIL) return AM_LINK_E_NOT_EXPORTED;
    am_word w[AM_MAX_MSG_WORDS];
    if (type == AM_LINK_ASK) {
        int r = s->ops->spawn_proxy(s->user, seq, &w[n++]);
        if (r != AM_LINK_OK) return r;
    }
    for (uint32_t i = 4; i < len; i += 4) w[n++] = am_link_get32(p + i);
    int r = s->ops->inject(s->user, to, n, w);
    if (r == AM_LINK_OK) ST(INJECTED)++;
    return r;
}

/* A request that changes the machine; AM_LINK_OK or an error code. */
static int carry_out(am_link_svc *s, uint32_t type, uint32_t seq, const uint8_t *p, uint32_t len,
                     uint32_t *detail)
{
    const am_link_ops *o = s->ops;
    switch (type) {
    case AM_LINK_INJECT:
    case AM_LINK_ASK:
        return deliver(s, type, seq, p, len);
    case AM_LINK_LOAD: {
        if (!o->load) return AM_LINK_E_UNSUPPORTED;
        if (len < 4) return AM_LINK_E_BAD_LENGTH;
        uint32_t off = am_link_get32(p);
        if (off != 0 && off != s->load_next) return AM_LINK_E_LOAD_ORDER;
        int r = o->load(s->user, off, p + 4, len - 4);
        if (r == AM_LINK_OK) s->load_next = off + len - 4;
        return r;
    }
    case AM_LINK_START: {
        if (!o->start) return AM_LINK_E_UNSUPPORTED;
        if (len != 4) return AM_LINK_E_BAD_LENGTH;
        uint32_t size = am_link_get32(p), next = s->load_next;
        s->load_next = 0;   /* whatever comes of it, the next image starts at 0 */
        if (size != next) return AM_LINK_E_LOAD_ORDER;
        int r = o->start(s->user, size, detail);
        if (r == AM_LINK_OK) ST(LOADED)++;
        return r;
    }
    case AM_LINK_SHUTDOWN:
        if (!o->shutdown) return AM_LINK_E_UNSUPPORTED;
        if (len != 0) return AM_LINK_E_BAD_LENGTH;
        return o->shutdown(s->user);
    default:
        return AM_LINK_E_UNKNOWN_TYPE;
    }
}

static void handle(am_link_svc *s)
{
    uint32_t type = am_link_rx_type(&s->rx), seq = am_link_rx_seq(&s->rx);
    const uint8_t *p = am_link_rx_payload(&s->rx);
    uint32_t len = am_link_rx_len(&s->rx);
    am_word w[1 + AM_LINK_NSTATS];

    switch (type) {
    case AM_LINK_HELLO:
    case AM_LINK_SYNC:
    case AM_LINK_STATS:
    case AM_LINK_EXPORTS_Q:
        if (len != 0) {
            refuse(s, seq, AM_LINK_E_BAD_LENGTH, 0);
            return;
        }
        ST(ANSWERED)++;
        if (type == AM_LINK_HELLO) {
            /* a new session: its sequence numbers are not the last one's */
            for (uint32_t i = 0; i < AM_LINK_WINDOW; i++) s->done_type[i] = 0;
            s->load_next = 0;
            w[0] = AM_LINK_VERSION;
            w[1] = AM_LINK_RX_FIFO;
            w[2] = AM_LINK_IN_MAX;
            w[3] = AM_LINK_WINDOW;
            w[4] = AM_EXPORT_MAX;
            answer(s, AM_LINK_HELLO_R, seq, w, 5);
        } else if (type == AM_LINK_SYNC) {
            answer(s, AM_LINK_CREDIT, seq, w, 0);
        } else if (type == AM_LINK_STATS) {
            am_link_svc_stats(s, w);
            answer(s, AM_LINK_STATS_R, seq, w, AM_LINK_NSTATS);
        } else {
            for (uint32_t i = 0; i < AM_EXPORT_MAX; i++) w[i] = exported(s, i);
            answer(s, AM_LINK_EXPORTS_R, seq, w, AM_EXPORT_MAX);
        }
        return;
    default:
        break;
    }
    /* a retry of a request carried out: its ACK again, nothing done twice
     * (the host has at most AM_LINK_WINDOW requests unanswered, and retries
     * one before it sends the WINDOW-th after it) */
    uint32_t k = seq % AM_LINK_WINDOW;
    if (s->done_type[k] == type && s->done_seq[k] == seq) {
        ST(DUPLICATE)++;
        answer(s, AM_LINK_ACK, seq, w, 0);
        return;
    }
    uint32_t detail = 0;
    int r = carry_out(s, type, seq, p, len, &detail);
    if (r != AM_LINK_OK) {
        refuse(s, seq, (uint32_t)r, detail);   /* not remembered: a retry is tried afresh */
        return;
    }
    s->done_seq[k] = (uint16_t)seq;
    s->done_type[k] = (uint8_t)type;
    ST(ACKED)++;
    answer(s, AM_LINK_ACK, seq, w, 0);
}

int am_link_svc_byte(am_link_svc *s, uint8_t b)
{
    uint32_t consumed = ++ST(RX_BYTES);
    int r = am_link_rx_byte(&s->rx, b);
    if (r != AM_LINK_RX_MORE) {
        ST(RX_FRAMES)++;
        switch (r) {
        case AM_LINK_RX_FRAME:     ST(RX_OK)++; handle(s); break;
        case AM_LINK_RX_CRC:       ST(RX_CRC)++; break;
        case AM_LINK_RX_MALFORMED: ST(RX_MALFORMED)++; break;
        default:                   ST(RX_OVERSIZE)++; break;
        }
    }
    if (consumed - s->reported >= AM_LINK_CREDIT_STEP) answer(s, AM_LINK_CREDIT, 0, 0, 0);
    return r != AM_LINK_RX_MORE;
}
