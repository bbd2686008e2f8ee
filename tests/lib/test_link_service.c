/*
 * test_link_service.c — the link service core (lib/am_link_service.c) over
 * a fake binding: every request type and its answer, every refusal with its
 * code, duplicates answered from memory (and forgotten by HELLO or after a
 * window), busy refusals retried afresh, credits in every answer and on
 * their own, over-credit counted, loading in order, and counters that
 * account for every frame. The binding over the reference runtime is tested
 * end to end by tests/link (make link-test).
 */
#include "am_link_service.h"
#include "link/link_accounts.h"
#include "t.h"

/* ---- the fake machine -------------------------------------------------- */
typedef struct fake {
    uint8_t out[65536];          /* what the service sent */
    uint32_t nout, taken;        /* taken: decoded by next_frame */
    am_ref exports[AM_EXPORT_MAX];
    uint32_t queue_room;         /* injects it takes before BUSY */
    uint32_t ninject;
    am_ref inj_to[256];
    uint32_t inj_n[256];
    am_word inj_w[256][AM_MAX_MSG_WORDS];
    uint32_t proxies, proxy_room;   /* proxy_room: spawns before BUSY */
    uint32_t proxy_seq[256];
    uint8_t image[4096];
    uint32_t loaded, started, start_result, start_problem;
    int shut;
} fake;

static fake F;

static void f_put(void *u, const uint8_t *p, uint32_t n)
{
    fake *f = u;
    if (f->nout + n > sizeof f->out) abort();
    memcpy(f->out + f->nout, p, n);
    f->nout += n;
}
static int f_inject(void *u, am_ref to, uint32_t n, const am_word *w)
{
    fake *f = u;
    if (f->queue_room == 0) return AM_LINK_E_BUSY;
    f->queue_room--;
    f->inj_to[f->ninject] = to;
    f->inj_n[f->ninject] = n;
    memcpy(f->inj_w[f->ninject], w, n * sizeof *w);
    f->ninject++;
    return AM_LINK_OK;
}
static int f_spawn(void *u, uint32_t seq, am_ref *proxy)
{
    fake *f = u;
    if (f->proxy_room == 0) return AM_LINK_E_BUSY;
    f->proxy_room--;
    f->proxy_seq[f->proxies] = seq;
    *proxy = 0x00070000u + 100 + f->proxies++;
    return AM_LINK_OK;
}
static am_ref f_exported(void *u, uint32_t name) { return ((fake *)u)->exports[name]; }
static void f_counters(void *u, am_word *out)
{
    (void)u;
    for (uint32_t i = 0; i < AM_LINK_NMACHINE_STATS; i++) out[i] = 1000 + i;
}
static int f_load(void *u, uint32_t off, const uint8_t *p, uint32_t n)
{
    fake *f = u;
    if (off + n > sizeof f->image) return AM_LINK_E_TOO_BIG;
    memcpy(f->image + off, p, n);
    f->loaded = off + n;
    return AM_LINK_OK;
}
static int f_start(void *u, uint32_t size, uint32_t *problem)
{
    fake *f = u;
    f->started = size;
    *problem = f->start_problem;
    return (int)f->start_result;
}
static int f_shutdown(void *u) { ((fake *)u)->shut = 1; return AM_LINK_OK; }

static const am_link_ops OPS = { f_put, f_inject, f_spawn, f_exported, f_counters,
                                 f_load, f_start, f_shutdown };
static const am_link_ops OPS_MIN = { f_put, f_inject, f_spawn, f_exported, f_counters,
                                     NULL, NULL, NULL };
static am_link_svc S;
static uint32_t sent;          /* bytes fed to the service */

static void setup(const am_link_ops *ops)
{
    memset(&F, 0, sizeof F);
    F.exports[0] = 0x00010005u;
    F.exports[3] = 0x00020009u;
    F.queue_room = 1000;
    F.proxy_room = 1000;
    am_link_svc_init(&S, ops, &F);
    sent = 0;
}

/* ---- talking to it --------------------------------------------------------- */
static void feed(const uint8_t *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) am_link_svc_byte(&S, p[i]);
    sent += n;
}

typedef struct wbuf { uint8_t b[1024]; uint32_t n; } wbuf;
static void w_put(void *u, const uint8_t *p, uint32_t n)
{
    wbuf *w = u;
    memcpy(w->b + w->n, p, n);
    w->n += n;
}

/* Send a frame with the given payload bytes. */
static void send_raw(uint32_t type, uint32_t seq, const uint8_t *p, uint32_t n)
{
    uint8_t f[AM_LINK_HDR + 600 + AM_LINK_CRC];
    memcpy(f + AM_LINK_HDR, p, n);
    wbuf w = { .n = 0 };
    am_link_emit(f, type, seq, n, w_put, &w);
    feed(w.b, w.n);
}

/* Send a frame of words. */
static void send_words(uint32_t type, uint32_t seq, uint32_t n, const am_word *w)
{
    uint8_t p[4 * 32];
    for (uint32_t i = 0; i < n; i++) am_link_put32(p + 4 * i, w[i]);
    send_raw(type, seq, p, 4 * n);
}
#define SEND(type, seq, ...) send_words((type), (seq), AM_NWORDS_(__VA_ARGS__), (const am_word[]){__VA_ARGS__})
#define SEND0(type, seq) send_words((type), (seq), 0, NULL)

/* The next frame the service sent: type, seq, payload words. */
typedef struct frame { uint32_t type, seq, n; am_word w[64]; } frame;
static int next_frame(frame *fr)
{
    static uint8_t buf[AM_LINK_HDR + AM_LINK_OUT_MAX + AM_LINK_CRC];
    am_link_rx rx;
    am_link_rx_init(&rx, buf, sizeof buf);
    while (F.taken < F.nout) {
        int r = am_link_rx_byte(&rx, F.out[F.taken++]);
        if (r == AM_LINK_RX_MORE) continue;
        if (r != AM_LINK_RX_FRAME) return -1;
        fr->type = am_link_rx_type(&rx);
        fr->seq = am_link_rx_seq(&rx);
        fr->n = am_link_rx_len(&rx) / 4;
        for (uint32_t i = 0; i < fr->n; i++) fr->w[i] = am_link_get32(am_link_rx_payload(&rx) + 4 * i);
        return 0;
    }
    return -1;
}
static int no_more_frames(void) { return F.taken == F.nout; }

static am_word stat(uint32_t i)
{
    am_word w[AM_LINK_NSTATS];
    am_link_svc_stats(&S, w);
    return w[i];
}

/* Every frame counted once, by outcome; every byte consumed. */
static int accounts(void)
{
    am_word s[AM_LINK_NSTATS];
    am_link_svc_stats(&S, s);
    return link_accounted(s) && s[AM_LINK_S_RX_BYTES] == sent;
}

/* ---- the tests ------------------------------------------------------------ */
TEST(hello_answers_the_session_parameters)
{
    setup(&OPS);
    feed((const uint8_t *)"\0", 1);      /* a leading delimiter is no frame */
    SEND0(AM_LINK_HELLO, 7);
    frame fr;
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_HELLO_R);
    CHECK_EQ(fr.seq, 7);
    CHECK_EQ(fr.n, 6);
    CHECK_EQ(fr.w[0], sent);             /* consumed: everything so far */
    CHECK_EQ(fr.w[1], AM_LINK_VERSION);
    CHECK_EQ(fr.w[2], 512);
    CHECK_EQ(fr.w[3], AM_LINK_IN_MAX);
    CHECK_EQ(fr.w[4], AM_LINK_WINDOW);
    CHECK_EQ(fr.w[5], AM_EXPORT_MAX);
    CHECK(no_more_frames());
    CHECK_EQ(stat(AM_LINK_S_ANSWERED), 1);
    CHECK(accounts());
}

TEST(inject_to_an_exported_actor)
{
    setup(&OPS);
    SEND(AM_LINK_INJECT, 1, 3, 10, 20, 30);
    SEND(AM_LINK_INJECT, 2, 0);                              /* an empty message */
    SEND(AM_LINK_INJECT, 3, 0, 1, 2, 3, 4, 5, 6, 7, 8);      /* eight words */
    frame fr;
    for (uint32_t seq = 1; seq <= 3; seq++) {
        CHECK_EQ(next_frame(&fr), 0);
        CHECK_EQ(fr.type, AM_LINK_ACK);
        CHECK_EQ(fr.seq, seq);
        CHECK_EQ(fr.n, 1);
    }
    CHECK_EQ(fr.w[0], sent);
    CHECK_EQ(F.ninject, 3);
    CHECK_EQ(F.inj_to[0], 0x00020009u);
    CHECK_EQ(F.inj_n[0], 3);
    CHECK_EQ(F.inj_w[0][2], 30);
    CHECK_EQ(F.inj_to[1], 0x00010005u);
    CHECK_EQ(F.inj_n[1], 0);
    CHECK_EQ(F.inj_n[2], 8);
    CHECK_EQ(F.inj_w[2][7], 8);
    CHECK_EQ(stat(AM_LINK_S_INJECTED), 3);
    CHECK_EQ(stat(AM_LINK_S_ACKED), 3);
    CHECK(accounts());
}

/* Names only: nothing exported under it, out of range, or a reference
 * passed as a name -- refused, nothing injected. */
TEST(not_exported_is_refused)
{
    setup(&OPS);
    const am_word names[] = { 1, 7, 8, 0x00010005u, 0x00010000u, 0xffffffffu };
    frame fr;
    for (uint32_t i = 0; i < 6; i++) {
        SEND(AM_LINK_INJECT, 10 + i, names[i], 1);
        SEND(AM_LINK_ASK, 20 + i, names[i], 1);
        for (int k = 0; k < 2; k++) {
            CHECK_EQ(next_frame(&fr), 0);
            CHECK_EQ(fr.type, AM_LINK_ERROR);
            CHECK_EQ(fr.seq, (k ? 20u : 10u) + i);
            CHECK_EQ(fr.w[1], AM_LINK_E_NOT_EXPORTED);
        }
    }
    CHECK_EQ(F.ninject, 0);
    CHECK_EQ(F.proxies, 0);
    CHECK_EQ(stat(AM_LINK_S_E_NOT_EXPORTED), 12);
    CHECK(accounts());
}

TEST(bad_lengths_are_refused)
{
    setup(&OPS);
    uint8_t p[64] = { 0 };
    const uint32_t inject_bad[] = { 0, 3, 5, 9, 38, 40 };
    frame fr;
    for (uint32_t i = 0; i < 6; i++) {
        send_raw(AM_LINK_INJECT, i, p, inject_bad[i]);
        CHECK_EQ(next_frame(&fr), 0);
        CHECK_EQ(fr.type, AM_LINK_ERROR);
        CHECK_EQ(fr.w[1], AM_LINK_E_BAD_LENGTH);
    }
    send_raw(AM_LINK_ASK, 50, p, 36);      /* name + 8 words: the proxy leaves room for 7 */
    send_raw(AM_LINK_STATS, 51, p, 4);
    send_raw(AM_LINK_HELLO, 52, p, 1);
    send_raw(AM_LINK_START, 53, p, 8);
    send_raw(AM_LINK_LOAD, 54, p, 3);
    send_raw(AM_LINK_SHUTDOWN, 55, p, 4);
    for (uint32_t seq = 50; seq <= 55; seq++) {
        CHECK_EQ(next_frame(&fr), 0);
        CHECK_EQ(fr.type, AM_LINK_ERROR);
        CHECK_EQ(fr.seq, seq);
        CHECK_EQ(fr.w[1], AM_LINK_E_BAD_LENGTH);
    }
    CHECK_EQ(F.ninject, 0);
    CHECK_EQ(F.proxies, 0);
    CHECK_EQ(F.shut, 0);
    send_raw(AM_LINK_ASK, 56, p, 32);      /* name + 7 words: fine */
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_ACK);
    CHECK_EQ(F.inj_n[0], 8);
    CHECK(accounts());
}

TEST(unknown_types_are_refused)
{
    setup(&OPS);
    const uint32_t types[] = { 0x00, 0x0a, 0x3f, 0x80, 0x81, 0xc0, 0xc1, 0xff };
    frame fr;
    for (uint32_t i = 0; i < 8; i++) {
        SEND(types[i], 100 + i, 0, 1);
        CHECK_EQ(next_frame(&fr), 0);
        CHECK_EQ(fr.type, AM_LINK_ERROR);
        CHECK_EQ(fr.seq, 100 + i);
        CHECK_EQ(fr.w[1], AM_LINK_E_UNKNOWN_TYPE);
    }
    CHECK_EQ(F.ninject, 0);
    CHECK_EQ(stat(AM_LINK_S_E_UNKNOWN_TYPE), 8);
    CHECK(accounts());
}

/* The ask: a proxy made with the ask's seq, [proxy, words] injected. */
TEST(ask_spawns_a_proxy_and_injects)
{
    setup(&OPS);
    SEND(AM_LINK_ASK, 0x1234, 0, 5, 6);
    frame fr;
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_ACK);
    CHECK_EQ(fr.seq, 0x1234);
    CHECK_EQ(F.proxies, 1);
    CHECK_EQ(F.proxy_seq[0], 0x1234);
    CHECK_EQ(F.inj_n[0], 3);
    CHECK_EQ(F.inj_w[0][0], 0x00070000u + 100);
    CHECK_EQ(F.inj_w[0][1], 5);
    CHECK_EQ(F.inj_w[0][2], 6);
    /* no slot for a proxy: busy, nothing injected */
    F.proxy_room = 0;
    SEND(AM_LINK_ASK, 0x1235, 0, 5);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_ERROR);
    CHECK_EQ(fr.w[1], AM_LINK_E_BUSY);
    CHECK_EQ(F.ninject, 1);
    CHECK(accounts());
}

/* Busy: refused and not remembered, so the retry (same seq) is carried out
 * once there is room; an acknowledged request's retry is answered from
 * memory and not carried out again. */
TEST(busy_then_retry_then_duplicate)
{
    setup(&OPS);
    F.queue_room = 0;
    SEND(AM_LINK_INJECT, 9, 0, 77);
    frame fr;
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_ERROR);
    CHECK_EQ(fr.seq, 9);
    CHECK_EQ(fr.w[1], AM_LINK_E_BUSY);
    CHECK_EQ(F.ninject, 0);
    F.queue_room = 1;
    SEND(AM_LINK_INJECT, 9, 0, 77);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_ACK);
    CHECK_EQ(F.ninject, 1);
    for (int i = 0; i < 3; i++) {        /* the ACK was lost: retries */
        SEND(AM_LINK_INJECT, 9, 0, 77);
        CHECK_EQ(next_frame(&fr), 0);
        CHECK_EQ(fr.type, AM_LINK_ACK);
        CHECK_EQ(fr.seq, 9);
    }
    CHECK_EQ(F.ninject, 1);
    CHECK_EQ(stat(AM_LINK_S_DUPLICATE), 3);
    CHECK_EQ(stat(AM_LINK_S_E_BUSY), 1);
    /* an ask's retry spawns no second proxy */
    SEND(AM_LINK_ASK, 10, 0, 1);
    F.queue_room = 5;
    SEND(AM_LINK_ASK, 10, 0, 1);     /* busy before: now carried out */
    SEND(AM_LINK_ASK, 10, 0, 1);     /* duplicate */
    CHECK_EQ(F.ninject, 2);
    CHECK_EQ(F.proxies, 2);          /* one wasted by the busy attempt, as documented */
    CHECK(accounts());
}

/* A seq is remembered until the window has moved past it; a HELLO forgets
 * them all; a retry must be of the same type. */
TEST(duplicates_window_and_hello)
{
    setup(&OPS);
    for (uint32_t seq = 1; seq <= AM_LINK_WINDOW; seq++) SEND(AM_LINK_INJECT, seq, 0, seq);
    SEND(AM_LINK_INJECT, 1, 0, 1);                         /* still remembered */
    CHECK_EQ(F.ninject, AM_LINK_WINDOW);
    SEND(AM_LINK_INJECT, AM_LINK_WINDOW + 1, 0, 99);       /* takes seq 1's place */
    SEND(AM_LINK_INJECT, 1, 0, 1);                         /* a new request now */
    CHECK_EQ(F.ninject, AM_LINK_WINDOW + 2);
    SEND(AM_LINK_ASK, 2, 0, 1);                            /* seq 2 but another type */
    CHECK_EQ(F.ninject, AM_LINK_WINDOW + 3);
    SEND(AM_LINK_INJECT, 3, 0, 3);                         /* remembered */
    CHECK_EQ(F.ninject, AM_LINK_WINDOW + 3);
    SEND0(AM_LINK_HELLO, 500);
    SEND(AM_LINK_INJECT, 3, 0, 3);                         /* a new session's seq 3 */
    CHECK_EQ(F.ninject, AM_LINK_WINDOW + 4);
    CHECK_EQ(stat(AM_LINK_S_DUPLICATE), 2);
    CHECK(accounts());
}

/* Broken frames: counted by kind, never answered (their seq cannot be
 * trusted), the next good frame answered. */
TEST(broken_frames_are_counted_not_answered)
{
    setup(&OPS);
    uint8_t f[AM_LINK_HDR + 16 + AM_LINK_CRC];
    wbuf w = { .n = 0 };
    am_word msg[2] = { 0, 5 };
    for (int i = 0; i < 2; i++) am_link_put32(f + AM_LINK_HDR + 4 * i, msg[i]);
    am_link_emit(f, AM_LINK_INJECT, 1, 8, w_put, &w);
    uint8_t bad[64];
    memcpy(bad, w.b, w.n);
    bad[3] ^= 0x40;                                   /* CRC */
    feed(bad, w.n);
    feed(w.b, 4);                                     /* truncated */
    feed((const uint8_t *)"\0", 1);
    uint8_t big[200];
    memset(big, 0x11, sizeof big);
    big[199] = 0;                                     /* oversized */
    feed(big, sizeof big);
    feed((const uint8_t *)"\x01\x01\x01\0", 4);       /* too short */
    frame fr;
    while (next_frame(&fr) == 0) CHECK_EQ(fr.type, AM_LINK_CREDIT);   /* nothing answered */
    CHECK_EQ(stat(AM_LINK_S_RX_CRC), 1);
    CHECK_EQ(stat(AM_LINK_S_RX_MALFORMED), 2);
    CHECK_EQ(stat(AM_LINK_S_RX_OVERSIZE), 1);
    CHECK_EQ(stat(AM_LINK_S_RX_FRAMES), 4);
    CHECK_EQ(F.ninject, 0);
    feed(w.b, w.n);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_ACK);
    CHECK_EQ(fr.w[0], sent);
    CHECK_EQ(F.ninject, 1);
    CHECK(accounts());
}

/* Credit: every answer carries the consumed count; without answers a
 * CREDIT frame goes out every AM_LINK_CREDIT_STEP bytes; SYNC asks for
 * one. */
TEST(credits)
{
    setup(&OPS);
    uint8_t junk[AM_LINK_CREDIT_STEP];
    memset(junk, 0x55, sizeof junk);
    feed(junk, AM_LINK_CREDIT_STEP - 1);
    CHECK_EQ(F.nout, 0);
    feed(junk, 1);
    frame fr;
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_CREDIT);
    CHECK_EQ(fr.seq, 0);
    CHECK_EQ(fr.w[0], AM_LINK_CREDIT_STEP);
    feed((const uint8_t *)"\0", 1);         /* the junk ends: one oversized frame */
    SEND0(AM_LINK_SYNC, 44);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_CREDIT);
    CHECK_EQ(fr.seq, 44);
    CHECK_EQ(fr.w[0], sent);
    CHECK(accounts());
}

TEST(stats_and_exports_answers)
{
    setup(&OPS);
    SEND(AM_LINK_INJECT, 1, 0, 5);
    SEND(AM_LINK_INJECT, 2, 6, 5);
    SEND0(AM_LINK_EXPORTS_Q, 3);
    SEND0(AM_LINK_STATS, 4);
    frame fr;
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_EXPORTS_R);
    CHECK_EQ(fr.seq, 3);
    CHECK_EQ(fr.n, 1 + AM_EXPORT_MAX);
    CHECK_EQ(fr.w[1], 0x00010005u);
    CHECK_EQ(fr.w[2], 0);
    CHECK_EQ(fr.w[4], 0x00020009u);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_STATS_R);
    CHECK_EQ(fr.n, 1 + AM_LINK_NSTATS);
    CHECK_EQ(fr.w[0], sent);
    CHECK_EQ(fr.w[1 + AM_LINK_S_RX_BYTES], sent);
    CHECK_EQ(fr.w[1 + AM_LINK_S_RX_FRAMES], 4);
    CHECK_EQ(fr.w[1 + AM_LINK_S_ACKED], 1);
    CHECK_EQ(fr.w[1 + AM_LINK_S_E_NOT_EXPORTED], 1);
    CHECK_EQ(fr.w[1 + AM_LINK_S_ANSWERED], 2);
    CHECK_EQ(fr.w[1 + AM_LINK_S_TX_FRAMES], 3);
    CHECK_EQ(fr.w[1 + AM_LINK_S_DISPATCHES], 1000);
    CHECK_EQ(fr.w[1 + AM_LINK_S_FIFO_LOST], 1000 + AM_LINK_NMACHINE_STATS - 1);
    CHECK(no_more_frames());
}

static void send_chunk(uint32_t seq, uint32_t off, const uint8_t *p, uint32_t n)
{
    uint8_t b[4 + AM_LINK_LOAD_CHUNK];
    am_link_put32(b, off);
    memcpy(b + 4, p, n);
    send_raw(AM_LINK_LOAD, seq, b, 4 + n);
}

TEST(loading_in_order)
{
    setup(&OPS);
    uint8_t img[300];
    for (uint32_t i = 0; i < sizeof img; i++) img[i] = (uint8_t)(i ^ 0x5a);
    frame fr;
    uint32_t seq = 1, off = 0;
    for (; off < sizeof img; off += AM_LINK_LOAD_CHUNK) {
        uint32_t n = sizeof img - off < AM_LINK_LOAD_CHUNK ? sizeof img - off : AM_LINK_LOAD_CHUNK;
        send_chunk(seq++, off, img + off, n);
        if (off == AM_LINK_LOAD_CHUNK) send_chunk(seq - 1, off, img + off, n);   /* a retry */
    }
    for (uint32_t i = 0; i < seq; i++) {
        CHECK_EQ(next_frame(&fr), 0);
        CHECK_EQ(fr.type, AM_LINK_ACK);
    }
    CHECK(memcmp(F.image, img, sizeof img) == 0);
    send_chunk(seq++, 120, img, 10);                        /* not the next offset */
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.w[1], AM_LINK_E_LOAD_ORDER);
    SEND(AM_LINK_START, seq++, 299);                        /* not what arrived */
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.w[1], AM_LINK_E_LOAD_ORDER);
    CHECK_EQ(F.started, 0);
    SEND(AM_LINK_START, seq++, 300);                        /* START forgot the image */
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.w[1], AM_LINK_E_LOAD_ORDER);
    /* again, and the target refuses the image */
    for (off = 0; off < sizeof img; off += 100) send_chunk(seq++, off, img + off, 100 > AM_LINK_LOAD_CHUNK ? AM_LINK_LOAD_CHUNK : 100);
    while (next_frame(&fr) == 0) {}
    send_chunk(seq++, 0, img, 50);
    send_chunk(seq++, 50, img + 50, 50);
    F.start_result = AM_LINK_E_BAD_IMAGE;
    F.start_problem = AM_LINK_IMAGE_CRC;
    SEND(AM_LINK_START, seq++, 100);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_ERROR);
    CHECK_EQ(fr.w[1], AM_LINK_E_BAD_IMAGE);
    CHECK_EQ(fr.w[2], AM_LINK_IMAGE_CRC);
    CHECK_EQ(F.started, 100);
    /* a good one */
    F.start_result = AM_LINK_OK;
    send_chunk(seq++, 0, img, 20);
    SEND(AM_LINK_START, seq, 20);
    SEND(AM_LINK_START, seq, 20);                           /* its retry */
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_ACK);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_ACK);
    CHECK_EQ(F.started, 20);
    CHECK_EQ(stat(AM_LINK_S_LOADED), 1);
    CHECK(accounts());
}

TEST(a_target_without_loading_or_shutdown)
{
    setup(&OPS_MIN);
    uint8_t b[8] = { 0 };
    send_raw(AM_LINK_LOAD, 1, b, 8);
    SEND(AM_LINK_START, 2, 4);
    SEND0(AM_LINK_SHUTDOWN, 3);
    frame fr;
    for (uint32_t seq = 1; seq <= 3; seq++) {
        CHECK_EQ(next_frame(&fr), 0);
        CHECK_EQ(fr.type, AM_LINK_ERROR);
        CHECK_EQ(fr.w[1], AM_LINK_E_UNSUPPORTED);
    }
    setup(&OPS);
    SEND0(AM_LINK_SHUTDOWN, 4);
    CHECK_EQ(next_frame(&fr), 0);
    CHECK_EQ(fr.type, AM_LINK_ACK);
    CHECK_EQ(F.shut, 1);
}

T_MAIN("link-service")
