/*
 * test_link_target.c — the reference runtime's link target
 * (host/am_link_target.c), fed bytes directly: the hold after a boot
 * (docs/link.md, "When the link answers"). A host's first frame, given
 * before any transaction has run, is answered with the boot's exports in
 * place, and the machine has run no more than the rule says. Uses
 * tests/link/prog's link-echo, whose boot queues busy work ahead of its
 * exports.
 */
#include "am_link_target.h"
#include "am_link_wire.h"
#include "am_progset.h"
#include "behaviors.h"
#include "t.h"

static char out[1 << 16];
static size_t nout;
static void on_out(void *user, const char *p, size_t n)
{
    (void)user;
    if (nout + n > sizeof out) n = sizeof out - nout;
    memcpy(out + nout, p, n);
    nout += n;
}

static uint8_t req[64];
static uint32_t nreq;
static void put_req(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    memcpy(req + nreq, p, n);
    nreq += n;
}

/* Frame a request with no payload and give it to the target. */
static void request(am_link_target *t, uint32_t type, uint32_t seq)
{
    uint8_t f[AM_LINK_HDR + AM_LINK_CRC];
    nreq = 0;
    am_link_emit(f, type, seq, 0, put_req, NULL);
    am_link_target_rx(t, req, nreq);
}

/* The words of the machine's frame of type type answering seq: its count,
 * or -1 if there is none (or the output is not frames). */
static int answer(uint32_t type, uint32_t seq, am_word *w, uint32_t max)
{
    static uint8_t buf[AM_LINK_HDR + AM_LINK_OUT_MAX + AM_LINK_CRC];
    am_link_rx rx;
    am_link_rx_init(&rx, buf, sizeof buf);
    int found = -1;
    for (size_t i = 0; i < nout; i++) {
        int r = am_link_rx_byte(&rx, (uint8_t)out[i]);
        if (r == AM_LINK_RX_MORE) continue;
        if (r != AM_LINK_RX_FRAME) return -1;
        if (am_link_rx_type(&rx) != type || am_link_rx_seq(&rx) != seq) continue;
        uint32_t n = am_link_rx_len(&rx) / 4;
        if (n > max) n = max;
        for (uint32_t k = 0; k < n; k++) w[k] = am_link_get32(am_link_rx_payload(&rx) + 4 * k);
        found = (int)n;
    }
    return found;
}

static am_link_target *boot_link_echo(void)
{
    am_link_target_cfg c;
    memset(&c, 0, sizeof c);
    am_config_default(&c.rt);
    c.set = am_progsets[0];
    c.boot = AMB_LINK_SERVICE;
    c.out = on_out;
    nout = 0;
    am_link_target *t = NULL;
    if (am_link_target_new(&c, &t) != AM_OK) return NULL;
    return t;
}

/* The first frame, before any transaction: the exports are there. */
TEST(exports_at_the_first_answer)
{
    am_link_target *t = boot_link_echo();
    CHECK(t != NULL);
    am_counters c;
    am_get_counters(am_link_target_rt(t), &c);
    CHECK_EQ(c.dispatches, 0);
    request(t, AM_LINK_HELLO, 1);
    request(t, AM_LINK_EXPORTS_Q, 2);
    am_word w[1 + AM_EXPORT_MAX];
    CHECK_EQ(answer(AM_LINK_EXPORTS_R, 2, w, 1 + AM_EXPORT_MAX), 1 + AM_EXPORT_MAX);
    for (uint32_t i = 0; i < 3; i++) CHECK(w[1 + i] != AM_NIL);   /* echo, counter, slow */
    /* (name 3 holds the console: never a host's, so not listed) */
    for (uint32_t i = 3; i < AM_EXPORT_MAX; i++) CHECK_EQ(w[1 + i], AM_NIL);
    /* what ran: the boot and the 8 messages it sent (2 to the busy worker,
     * 4 exports, 2 lines of text), and nothing is left */
    am_get_counters(am_link_target_rt(t), &c);
    CHECK_EQ(c.dispatches, 9);
    CHECK_EQ(c.queue_len, 0);
    am_link_target_free(t);
}

/* The hold comes once per boot: the second frame is taken at once, while
 * the host's own message is still queued. */
TEST(the_hold_is_once_per_boot)
{
    am_link_target *t = boot_link_echo();
    CHECK(t != NULL);
    request(t, AM_LINK_HELLO, 1);
    am_counters c0, c1;
    am_get_counters(am_link_target_rt(t), &c0);
    uint8_t p[4 + 8];
    am_link_put32(p, 0);                 /* name 0, the echo */
    am_link_put32(p + 4, AM_NIL);        /* [no customer, 7] */
    am_link_put32(p + 8, 7);
    uint8_t f[AM_LINK_HDR + sizeof p + AM_LINK_CRC];
    memcpy(f + AM_LINK_HDR, p, sizeof p);
    nreq = 0;
    am_link_emit(f, AM_LINK_INJECT, 3, sizeof p, put_req, NULL);
    am_link_target_rx(t, req, nreq);
    am_word w[2];
    CHECK_EQ(answer(AM_LINK_ACK, 3, w, 2), 1);
    am_get_counters(am_link_target_rt(t), &c1);
    CHECK_EQ(c1.dispatches, c0.dispatches);
    CHECK_EQ(c1.queue_len, 1);
    CHECK_EQ(am_link_target_step(t), AM_OK);
    CHECK_EQ(am_link_target_step(t), AM_E_EMPTY);
    am_link_target_free(t);
}

T_MAIN("host-link-target")
