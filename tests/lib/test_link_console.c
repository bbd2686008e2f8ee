/*
 * test_link_console.c — the built-ins' side of the host link on the
 * reference runtime (docs/semantics.md, "Exports"; docs/link.md): the
 * export table as the console's state (valid, malformed, aborted and
 * withdrawn exports; exported actors survive collections), console output
 * framed with the link on (the same text as without), and the ask proxy's
 * REPLY frame. Uses tests/link/prog's behaviors.
 */
#include "lt.h"
#include "am_link_wire.h"

/* Decode lt_out as frames; concatenate the payloads of CONSOLE frames into
 * text, remember the last REPLY. Returns the number of frames, -1 if
 * anything in the output is not a good frame. */
static char text[LT_OUT_SIZE];
static size_t ntext;
static uint32_t reply_seq, reply_len, nreplies;
static am_word reply[AM_MAX_MSG_WORDS];

static int decode_output(void)
{
    static uint8_t buf[AM_LINK_HDR + AM_LINK_OUT_MAX + AM_LINK_CRC];
    am_link_rx rx;
    am_link_rx_init(&rx, buf, sizeof buf);
    int frames = 0;
    ntext = 0;
    nreplies = 0;
    for (size_t i = 0; i < lt_nout; i++) {
        int r = am_link_rx_byte(&rx, (uint8_t)lt_out[i]);
        if (r == AM_LINK_RX_MORE) continue;
        if (r != AM_LINK_RX_FRAME) return -1;
        frames++;
        uint32_t n = am_link_rx_len(&rx);
        if (am_link_rx_type(&rx) == AM_LINK_CONSOLE) {
            if (am_link_rx_seq(&rx) != 0 || n == 0) return -1;
            memcpy(text + ntext, am_link_rx_payload(&rx), n);
            ntext += n;
        } else if (am_link_rx_type(&rx) == AM_LINK_REPLY) {
            if (n % 4 != 0) return -1;
            reply_seq = am_link_rx_seq(&rx);
            reply_len = n / 4;
            for (uint32_t k = 0; k < reply_len; k++) reply[k] = am_link_get32(am_link_rx_payload(&rx) + 4 * k);
            nreplies++;
        } else {
            return -1;   /* behaviors send nothing else */
        }
    }
    text[ntext] = 0;
    return lt_nout && lt_out[lt_nout - 1] != 0 ? -1 : frames;
}

static am_rt *new_rt(int link)
{
    am_config cfg;
    am_config_default(&cfg);
    cfg.link = (uint32_t)link;
    return lt_new_cfg(&cfg);
}

static void console_table(am_rt *rt, am_word t[AM_MAX_STATE_WORDS])
{
    am_beh b;
    if (am_peek(rt, AM_CONSOLE, &b, t) != AM_OK || b != AM_BEH_CONSOLE) abort();
}

TEST(exports_are_the_console_state)
{
    am_rt *rt = new_rt(0);
    am_ref boot = LT_SPAWN0(rt, AMB_LINK_EXPORTS);
    LT_SEND(rt, boot, 0);
    /* run the boot and what it sent, short of the churn's collections */
    for (int i = 0; i < 8; i++) CHECK_EQ(am_step(rt), AM_OK);
    am_word t[AM_MAX_STATE_WORDS];
    console_table(rt, t);
    am_beh b;
    CHECK(t[0] != AM_NIL);
    CHECK_EQ(lt_peek(rt, t[0], NULL), AMB_LINK_ECHO);
    CHECK_EQ(lt_peek(rt, t[5], NULL), AMB_LINK_COUNTER);
    CHECK_EQ(t[1], AM_NIL);      /* the failing actor's export never happened */
    for (int i = 2; i < 8; i++) if (i != 5) CHECK_EQ(t[i], AM_NIL);
    /* the malformed ones printed the console's line, the abort its fault */
    CHECK(strstr(lt_out, "<console: bad message len=3 w0=00000005>") != NULL);
    CHECK(strstr(lt_out, "<console: bad message len=2 w0=00000005>") != NULL);
    am_ref echo = t[0], counter = t[5];
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK(strstr(lt_out, "link-exports: done\n") != NULL);
    am_counters c;
    am_get_counters(rt, &c);
    CHECK(c.gc_runs >= 2);
    /* the boot dropped both: the echo lives on as an export, the counter,
     * withdrawn half way, was reclaimed */
    CHECK_EQ(am_peek(rt, echo, &b, NULL), AM_OK);
    CHECK_EQ(am_peek(rt, counter, &b, NULL), AM_E_BAD_REF);
    console_table(rt, t);
    CHECK_EQ(t[0], echo);
    CHECK_EQ(t[5], AM_NIL);
    am_gc(rt);
    CHECK_EQ(am_peek(rt, echo, &b, NULL), AM_OK);
    lt_free(rt);
}

/* The console's state is as long as the last name in use. */
TEST(export_table_length)
{
    am_rt *rt = new_rt(0);
    am_ref a = LT_SPAWN0(rt, AMB_LINK_ECHO);
    LT_SEND(rt, AM_CONSOLE, AM_CON_EXPORT, 7, a);
    CHECK_EQ(lt_run(rt), AM_OK);
    am_word t[8];
    console_table(rt, t);
    CHECK_EQ(t[7], a);
    LT_SEND(rt, AM_CONSOLE, AM_CON_EXPORT, 7, AM_NIL);
    LT_SEND(rt, AM_CONSOLE, AM_CON_EXPORT, 2, a);
    CHECK_EQ(lt_run(rt), AM_OK);
    console_table(rt, t);
    CHECK_EQ(t[2], a);
    CHECK_EQ(t[7], AM_NIL);
    CHECK_EQ(lt_nout, 0);     /* valid exports print nothing */
    lt_free(rt);
}

/* A fault delivered to the console never exports, whatever the message. */
TEST(fault_delivery_never_exports)
{
    am_config cfg;
    am_config_default(&cfg);
    am_rt *rt = lt_new_cfg(&cfg);   /* the console is the fault handler */
    am_ref a = LT_SPAWN0(rt, AMB_LINK_ECHO);
    /* echo fails on an empty message; a COUNTER on a 3-word one */
    am_ref c = LT_SPAWN(rt, AMB_LINK_COUNTER, 0, 0);
    LT_SEND(rt, c, AM_CON_EXPORT, 3, a);
    CHECK_EQ(lt_run(rt), AM_OK);
    am_word t[8];
    console_table(rt, t);
    CHECK_EQ(t[3], AM_NIL);
    CHECK(strncmp(lt_out, "fault: FAIL", 11) == 0);
    lt_free(rt);
}

/* The same program with the link off and on: the framed console's text is
 * the plain console's output, frame by frame. */
TEST(console_frames_carry_the_same_text)
{
    static char plain[LT_OUT_SIZE];
    const am_beh progs[2] = { AMB_LINK_EXPORTS, AMB_LINK_SERVICE };
    for (int k = 0; k < 2; k++) {
        am_config cfg;
        am_config_default(&cfg);
        am_rt *rt = lt_new_cfg(&cfg);
        am_ref boot = LT_SPAWN0(rt, progs[k]);
        LT_SEND(rt, boot, 0);
        CHECK_EQ(lt_run(rt), AM_OK);
        memcpy(plain, lt_out, lt_nout + 1);
        size_t nplain = lt_nout;
        CHECK(nplain > 20);

        rt = new_rt(1);
        cfg.link = 1;
        boot = LT_SPAWN0(rt, progs[k]);
        LT_SEND(rt, boot, 0);
        CHECK_EQ(lt_run(rt), AM_OK);
        int frames = decode_output();
        CHECK(frames > 0);
        CHECK_EQ(ntext, nplain);
        CHECK(memcmp(text, plain, nplain) == 0);
        CHECK_EQ(nreplies, 0);
        lt_free(rt);
    }
}

/* The link's proxy: ASK with state [0, seq] frames its message back with
 * seq and becomes a sink; am_ask's customers (state [ticket]) are not
 * proxies; with the link off a proxy only becomes a sink. */
TEST(proxy_replies_once_with_its_seq)
{
    for (int link = 0; link < 2; link++) {
        am_rt *rt = new_rt(link);
        am_ref echo = LT_SPAWN0(rt, AMB_LINK_ECHO);
        am_ref proxy = LT_SPAWN(rt, AM_BEH_ASK, 0, 0xbeef);
        CHECK_EQ(am_unpin(rt, proxy), AM_OK);
        LT_SEND(rt, echo, proxy, 1, 0xffffffffu, 0, 42);
        CHECK_EQ(lt_run(rt), AM_OK);
        CHECK_EQ(lt_peek(rt, proxy, NULL), AM_BEH_SINK);
        if (link) {
            CHECK_EQ(decode_output(), 1);
            CHECK_EQ(nreplies, 1);
            CHECK_EQ(reply_seq, 0xbeef);
            CHECK_EQ(reply_len, 4);
            CHECK_EQ(reply[0], 1);
            CHECK_EQ(reply[1], 0xffffffffu);
            CHECK_EQ(reply[2], 0);
            CHECK_EQ(reply[3], 42);
        } else {
            CHECK_EQ(lt_nout, 0);
        }
        /* a second message to the (now) sink: nothing more */
        LT_SEND(rt, proxy, 5);
        size_t before = lt_nout;
        CHECK_EQ(lt_run(rt), AM_OK);
        CHECK_EQ(lt_nout, before);
        /* nobody holds it: the collector takes it */
        am_gc(rt);
        CHECK_EQ(lt_peek(rt, proxy, NULL), 0xffffffffu);
        /* am_ask still works next to the link's proxies */
        am_word r[8];
        uint32_t n;
        CHECK_EQ(LT_ASK(rt, echo, r, &n, 7, 8), AM_OK);
        CHECK_EQ(n, 2);
        CHECK_EQ(r[0], 7);
        CHECK_EQ(lt_nout, before);   /* an am_ask customer sends no frame */
        lt_free(rt);
    }
}

/* An empty reply is a frame with no payload. */
TEST(proxy_empty_reply)
{
    am_rt *rt = new_rt(1);
    am_ref echo = LT_SPAWN0(rt, AMB_LINK_ECHO);
    am_ref proxy = LT_SPAWN(rt, AM_BEH_ASK, 0, 3);
    LT_SEND(rt, echo, proxy);
    CHECK_EQ(lt_run(rt), AM_OK);
    CHECK_EQ(decode_output(), 1);
    CHECK_EQ(reply_seq, 3);
    CHECK_EQ(reply_len, 0);
    lt_free(rt);
}

T_MAIN("link-console")
