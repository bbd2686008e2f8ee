/*
 * test_link_wire.c — the link's wire format (lib/am_link_wire.c): CRC-32
 * against known values, COBS round trips at every length and block boundary,
 * every single-bit corruption, every truncation, oversized frames and
 * garbage detected, and the receiver resynchronized by the next delimiter;
 * the image check. The frames behaviors send are tested with the runtime in
 * test_link_console.c.
 */
#include "am_link_wire.h"
#include "t.h"

/* ---- a byte sink for am_link_emit ---------------------------------------- */
typedef struct sink {
    uint8_t b[4096];
    uint32_t n, calls;
} sink;

static void sink_put(void *user, const uint8_t *p, uint32_t n)
{
    sink *s = user;
    if (s->n + n > sizeof s->b) abort();
    memcpy(s->b + s->n, p, n);
    s->n += n;
    s->calls++;
}

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
    rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5;
    return rng;
}

/* Encode a frame of n payload bytes into s (cleared). */
static void encode(sink *s, uint32_t type, uint32_t seq, const uint8_t *payload, uint32_t n)
{
    uint8_t f[AM_LINK_HDR + 600 + AM_LINK_CRC];
    memcpy(f + AM_LINK_HDR, payload, n);
    s->n = 0;
    s->calls = 0;
    uint32_t sent = am_link_emit(f, type, seq, n, sink_put, s);
    if (sent != s->n) abort();
}

/* Feed bytes; returns the number of results other than MORE, the last of
 * them in *last. */
static int feed(am_link_rx *rx, const uint8_t *p, uint32_t n, int *last)
{
    int k = 0;
    for (uint32_t i = 0; i < n; i++) {
        int r = am_link_rx_byte(rx, p[i]);
        if (r != AM_LINK_RX_MORE) { k++; *last = r; }
    }
    return k;
}

TEST(crc32_known_values)
{
    CHECK_EQ(am_crc32(0, (const uint8_t *)"123456789", 9), 0xcbf43926u);
    CHECK_EQ(am_crc32(0, (const uint8_t *)"", 0), 0);
    CHECK_EQ(am_crc32(0, (const uint8_t *)"The quick brown fox jumps over the lazy dog", 43),
             0x414fa339u);
    /* chaining = one pass */
    CHECK_EQ(am_crc32(am_crc32(0, (const uint8_t *)"12345", 5), (const uint8_t *)"6789", 4),
             0xcbf43926u);
}

TEST(round_trip_every_length_and_pattern)
{
    static uint8_t buf[AM_LINK_HDR + 600 + AM_LINK_CRC];
    am_link_rx rx;
    am_link_rx_init(&rx, buf, sizeof buf);
    sink s;
    uint8_t p[600];
    for (int pattern = 0; pattern < 4; pattern++) {
        for (uint32_t n = 0; n <= 560; n++) {
            for (uint32_t i = 0; i < n; i++)
                p[i] = pattern == 0 ? 0 : pattern == 1 ? (uint8_t)(1 + i % 255)
                     : pattern == 2 ? 0xff : (uint8_t)rnd();
            uint32_t seq = rnd() & 0xffffu;
            encode(&s, 0x02, seq, p, n);
            CHECK(s.n <= AM_LINK_WIRE_MAX(n));
            for (uint32_t i = 0; i + 1 < s.n; i++) CHECK(s.b[i] != 0);
            CHECK_EQ(s.b[s.n - 1], 0);
            int last = -1;
            CHECK_EQ(feed(&rx, s.b, s.n, &last), 1);
            CHECK_EQ(last, AM_LINK_RX_FRAME);
            CHECK_EQ(am_link_rx_type(&rx), 0x02);
            CHECK_EQ(am_link_rx_seq(&rx), seq);
            CHECK_EQ(am_link_rx_len(&rx), n);
            CHECK(memcmp(am_link_rx_payload(&rx), p, n) == 0);
        }
    }
}

TEST(empty_frames_are_not_frames)
{
    uint8_t buf[80];
    am_link_rx rx;
    am_link_rx_init(&rx, buf, sizeof buf);
    for (int i = 0; i < 10; i++) CHECK_EQ(am_link_rx_byte(&rx, 0), AM_LINK_RX_MORE);
}

/* Every bit of every byte of an encoded frame flipped, one at a time: the
 * pieces between delimiters are each dropped (none passes as a frame), and
 * the next good frame comes through. */
TEST(every_single_bit_flip_is_detected)
{
    uint8_t buf[AM_LINK_HDR + AM_LINK_IN_MAX + AM_LINK_CRC];
    am_link_rx rx;
    am_link_rx_init(&rx, buf, sizeof buf);
    sink good, s;
    uint8_t p[36];
    for (int frame = 0; frame < 6; frame++) {
        uint32_t n = frame * 7;
        for (uint32_t i = 0; i < n; i++) p[i] = (uint8_t)(frame == 3 ? 0 : rnd());
        encode(&s, 0x02, 0x1234u + (uint32_t)frame, p, n);
        encode(&good, 0x04, 77, p, 0);
        for (uint32_t i = 0; i + 1 < s.n; i++) {
            for (int bit = 0; bit < 8; bit++) {
                uint8_t m[128];
                memcpy(m, s.b, s.n);
                m[i] ^= (uint8_t)(1u << bit);
                for (uint32_t k = 0; k < s.n; k++) {
                    int r = am_link_rx_byte(&rx, m[k]);
                    CHECK(r != AM_LINK_RX_FRAME);
                }
                int last = -1;
                CHECK_EQ(feed(&rx, good.b, good.n, &last), 1);
                CHECK_EQ(last, AM_LINK_RX_FRAME);
                CHECK_EQ(am_link_rx_seq(&rx), 77);
            }
        }
    }
}

/* Random bursts of 2..32 corrupted bits and random byte substitutions. */
TEST(random_corruptions_are_detected)
{
    uint8_t buf[AM_LINK_HDR + AM_LINK_IN_MAX + AM_LINK_CRC];
    am_link_rx rx;
    am_link_rx_init(&rx, buf, sizeof buf);
    sink s;
    uint8_t p[AM_LINK_IN_MAX];
    for (int t = 0; t < 20000; t++) {
        uint32_t n = rnd() % (AM_LINK_IN_MAX + 1);
        for (uint32_t i = 0; i < n; i++) p[i] = (uint8_t)rnd();
        encode(&s, 1 + rnd() % 9, rnd(), p, n);
        uint8_t m[128];
        memcpy(m, s.b, s.n);
        uint32_t body = s.n - 1;
        if (t % 2) {
            uint32_t len = 2 + rnd() % 31, at = rnd() % (8 * body);
            for (uint32_t b = 0; b < len && at + b < 8 * body; b++)
                if (b == 0 || b == len - 1 || rnd() % 2) m[(at + b) / 8] ^= (uint8_t)(1u << ((at + b) % 8));
        } else {
            uint32_t at = rnd() % body;
            m[at] = (uint8_t)(m[at] + 1 + rnd() % 255);
        }
        if (memcmp(m, s.b, s.n) == 0) continue;
        am_link_rx_init(&rx, buf, sizeof buf);
        for (uint32_t k = 0; k < s.n; k++) CHECK(am_link_rx_byte(&rx, m[k]) != AM_LINK_RX_FRAME);
    }
}

/* A frame cut anywhere and followed by a delimiter (a disconnect, a lost
 * tail) is dropped; the next frame comes through. */
TEST(every_truncation_is_dropped)
{
    uint8_t buf[AM_LINK_HDR + AM_LINK_IN_MAX + AM_LINK_CRC];
    am_link_rx rx;
    am_link_rx_init(&rx, buf, sizeof buf);
    sink s, good;
    uint8_t p[AM_LINK_IN_MAX];
    for (uint32_t i = 0; i < sizeof p; i++) p[i] = (uint8_t)(i * 37);
    encode(&s, 0x06, 9, p, sizeof p);
    encode(&good, 0x04, 10, p, 0);
    for (uint32_t cut = 1; cut + 1 < s.n; cut++) {
        int last = -1;
        CHECK_EQ(feed(&rx, s.b, cut, &last), 0);
        int r = am_link_rx_byte(&rx, 0);
        CHECK(r == AM_LINK_RX_MALFORMED || r == AM_LINK_RX_CRC);
        CHECK_EQ(feed(&rx, good.b, good.n, &last), 1);
        CHECK_EQ(last, AM_LINK_RX_FRAME);
    }
}

TEST(oversized_frames_are_dropped_whole)
{
    uint8_t buf[AM_LINK_HDR + AM_LINK_IN_MAX + AM_LINK_CRC];
    am_link_rx rx;
    am_link_rx_init(&rx, buf, sizeof buf);
    sink s, good;
    uint8_t p[600];
    for (uint32_t i = 0; i < sizeof p; i++) p[i] = (uint8_t)rnd();
    encode(&good, 0x04, 10, p, 0);
    for (uint32_t n = AM_LINK_IN_MAX + 1; n <= 560; n += 13) {
        encode(&s, 0x02, 1, p, n);
        int last = -1;
        CHECK_EQ(feed(&rx, s.b, s.n, &last), 1);
        CHECK_EQ(last, AM_LINK_RX_OVERSIZE);
        CHECK_EQ(feed(&rx, good.b, good.n, &last), 1);
        CHECK_EQ(last, AM_LINK_RX_FRAME);
    }
    /* the largest frame still taken */
    encode(&s, 0x02, 1, p, AM_LINK_IN_MAX);
    int last = -1;
    CHECK_EQ(feed(&rx, s.b, s.n, &last), 1);
    CHECK_EQ(last, AM_LINK_RX_FRAME);
    /* thousands of bytes without a delimiter: one oversized frame */
    for (int i = 0; i < 5000; i++) CHECK_EQ(am_link_rx_byte(&rx, (uint8_t)(1 + rnd() % 255)), AM_LINK_RX_MORE);
    CHECK_EQ(am_link_rx_byte(&rx, 0), AM_LINK_RX_OVERSIZE);
}

/* Random garbage, zeros included, never makes a frame, and the first good
 * frame after it (behind a delimiter of its own) comes through. */
TEST(garbage_then_resync)
{
    uint8_t buf[AM_LINK_HDR + AM_LINK_IN_MAX + AM_LINK_CRC];
    am_link_rx rx;
    am_link_rx_init(&rx, buf, sizeof buf);
    sink good;
    uint8_t p[8] = { 1, 2, 3, 0, 5, 6, 7, 8 };
    encode(&good, 0x02, 4242, p, sizeof p);
    int drops = 0;
    for (int round = 0; round < 200; round++) {
        uint32_t n = rnd() % 300;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = rnd();
            int res = am_link_rx_byte(&rx, (uint8_t)(r % 7 == 0 ? 0 : r >> 8));
            CHECK(res != AM_LINK_RX_FRAME);
            drops += res != AM_LINK_RX_MORE;
        }
        int last = -1;
        CHECK(am_link_rx_byte(&rx, 0) != AM_LINK_RX_FRAME);
        CHECK_EQ(feed(&rx, good.b, good.n, &last), 1);
        CHECK_EQ(last, AM_LINK_RX_FRAME);
        CHECK_EQ(am_link_rx_seq(&rx), 4242);
        CHECK_EQ(am_link_rx_len(&rx), sizeof p);
        CHECK(memcmp(am_link_rx_payload(&rx), p, sizeof p) == 0);
    }
    CHECK(drops > 100);
}

/* A synthetic image: header words as scripts/am_program.py writes them. */
static uint32_t make_image(uint8_t *img, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) img[i] = (uint8_t)(i * 7 + 1);
    am_link_put32(img + 4, AM_IMAGE_MAGIC);
    am_link_put32(img + 8, n);
    am_link_put32(img + 12, 0);
    am_link_put32(img + 16, 0xabcdef01u);
    am_link_put32(img + 20, 41);
    am_link_put32(img + 24, 17);
    am_link_put32(img + 40, 0x5eed5eedu);
    am_link_put32(img + AM_IMAGE_IFACE_AT, (uint32_t)AM_IFACE_ID);
    uint32_t crc = am_crc32(0, img, n);   /* with its own word 0 */
    am_link_put32(img + 12, crc);
    return crc;
}

TEST(image_check)
{
    static uint8_t img[4096];
    am_image_info info;
    uint32_t problem;
    make_image(img, 1024);
    CHECK_EQ(am_image_check(img, 1024, 4096, &info, &problem), AM_LINK_OK);
    CHECK_EQ(info.bytes, 1024);
    CHECK_EQ(info.table_hash, 0xabcdef01u);
    CHECK_EQ(info.nbehaviors, 41);
    CHECK_EQ(info.boot, 17);
    CHECK_EQ(info.src_hash, 0x5eed5eedu);
    CHECK_EQ(am_image_check(img, 1024, 1020, &info, &problem), AM_LINK_E_TOO_BIG);
    CHECK_EQ(am_image_check(img, 1020, 4096, &info, &problem), AM_LINK_E_BAD_IMAGE);
    CHECK_EQ(problem, AM_LINK_IMAGE_SIZE);
    CHECK_EQ(am_image_check(img, 40, 4096, &info, &problem), AM_LINK_E_BAD_IMAGE);
    CHECK_EQ(problem, AM_LINK_IMAGE_MAGIC);
    for (uint32_t i = 0; i < 1024; i++) {     /* any byte changed: refused */
        if (i >= 12 && i < 16) continue;     /* the CRC word itself: checked below */
        img[i] ^= 0x10;
        CHECK_EQ(am_image_check(img, 1024, 4096, &info, &problem), AM_LINK_E_BAD_IMAGE);
        CHECK(problem == AM_LINK_IMAGE_CRC || (i >= 4 && i < 12));
        img[i] ^= 0x10;
    }
    img[13] ^= 1;
    CHECK_EQ(am_image_check(img, 1024, 4096, &info, &problem), AM_LINK_E_BAD_IMAGE);
    CHECK_EQ(problem, AM_LINK_IMAGE_CRC);
    img[13] ^= 1;
}

/* An image of another interface, its CRC right: refused as that, after the
 * CRC and before anything the caller matches. An image with the eleven-word
 * header of before has its first instruction there. */
TEST(image_of_another_interface)
{
    static uint8_t img[1024];
    am_image_info info;
    uint32_t problem;
    make_image(img, sizeof img);
    am_link_put32(img + AM_IMAGE_IFACE_AT, (uint32_t)AM_IFACE_ID ^ 0x100u);
    am_link_put32(img + 12, 0);
    am_link_put32(img + 12, am_crc32(0, img, sizeof img));
    CHECK_EQ(am_image_check(img, sizeof img, 4096, &info, &problem), AM_LINK_E_BAD_IMAGE);
    CHECK_EQ(problem, AM_LINK_IMAGE_IFACE);
    am_link_put32(img + 12, 0x12345678u);   /* a damaged one is a damaged one first */
    CHECK_EQ(am_image_check(img, sizeof img, 4096, &info, &problem), AM_LINK_E_BAD_IMAGE);
    CHECK_EQ(problem, AM_LINK_IMAGE_CRC);
    make_image(img, sizeof img);
    CHECK_EQ(am_image_check(img, sizeof img, 4096, &info, &problem), AM_LINK_OK);
    CHECK(strstr(am_link_image_text(AM_LINK_IMAGE_IFACE), "another SoC interface") != NULL);
}

TEST(names)
{
    CHECK_STR(am_link_error_name(AM_LINK_E_NOT_EXPORTED), "NOT_EXPORTED");
    CHECK_STR(am_link_error_name(AM_LINK_E_UNSUPPORTED), "UNSUPPORTED");
    CHECK_STR(am_link_error_name(999), "?");
    CHECK_STR(am_link_stat_name(AM_LINK_S_RX_BYTES), "RX_BYTES");
    CHECK_STR(am_link_stat_name(AM_LINK_S_FIFO_LOST), "FIFO_LOST");
    CHECK_EQ(AM_LINK_NSTATS + 1 <= AM_LINK_OUT_MAX / 4, 1);   /* STATS_R fits a frame */
    CHECK_STR(am_link_image_text(AM_LINK_IMAGE_CRC), "CRC mismatch");
}

T_MAIN("link-wire")
