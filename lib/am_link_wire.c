/*
 * am_link_wire.c — the link's wire format (see am_link_wire.h, docs/link.md).
 */
#include "am_link_wire.h"

static const struct { const char *name, *text; } errors[AM_LINK_E_COUNT_] = {
    { "OK", "ok" },
#define AM_LINK_X_(name, value, doc) [value] = { #name, doc },
    AM_LINK_ERROR_LIST(AM_LINK_X_)
#undef AM_LINK_X_
};

const char *am_link_error_name(uint32_t code) { return code < AM_LINK_E_COUNT_ ? errors[code].name : "?"; }
const char *am_link_error_text(uint32_t code)
{
    return code < AM_LINK_E_COUNT_ ? errors[code].text : "unknown error";
}

const char *am_link_image_text(uint32_t detail)
{
    static const char *const text[AM_LINK_IMAGE_COUNT_] = {
        "?",
#define AM_LINK_X_(name, value, doc) [value] = doc,
        AM_LINK_IMAGE_LIST(AM_LINK_X_)
#undef AM_LINK_X_
    };
    return detail < AM_LINK_IMAGE_COUNT_ ? text[detail] : "?";
}

const char *am_link_stat_name(uint32_t i)
{
    static const char *const names[AM_LINK_NSTATS] = {
#define AM_LINK_X_(name, doc) [AM_LINK_S_##name] = #name,
        AM_LINK_STAT_LIST(AM_LINK_X_)
        AM_LINK_MACHINE_LIST(AM_LINK_X_)
#undef AM_LINK_X_
    };
    return i < AM_LINK_NSTATS ? names[i] : "?";
}

/* Four bits at a time: a 64-byte table, two lookups a byte -- small enough
 * for the smallest board, fast enough for Mbaud lines on the soft core. */
uint32_t am_crc32(uint32_t crc, const uint8_t *p, uint32_t n)
{
    static const uint32_t t[16] = {
        0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
        0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
        0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu,
    };
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        crc = (crc >> 4) ^ t[crc & 15u];
        crc = (crc >> 4) ^ t[crc & 15u];
    }
    return ~crc;
}

uint32_t am_link_emit(uint8_t *f, uint32_t type, uint32_t seq, uint32_t n, am_link_put_fn put,
                      void *user)
{
    f[0] = (uint8_t)type;
    f[1] = 0;
    f[2] = (uint8_t)seq;
    f[3] = (uint8_t)(seq >> 8);
    n += AM_LINK_HDR;
    am_link_put32(f + n, am_crc32(0, f, n));
    n += AM_LINK_CRC;
    /* COBS: each block is a code byte c and c - 1 non-zero bytes; a block
     * shorter than 254 data bytes stands for its bytes and one 0x00 (the
     * last block's is the delimiter's), a full one (c = 0xFF) for its bytes
     * alone. */
    uint32_t start = 0, sent = 0;
    for (;;) {
        uint32_t j = start;
        while (j < n && j - start < 254u && f[j] != 0) j++;
        uint8_t code = (uint8_t)(j - start + 1);
        put(user, &code, 1);
        put(user, f + start, j - start);
        sent += j - start + 1;
        if (j == n) break;
        start = code == 0xFF ? j : j + 1;
    }
    static const uint8_t delim = 0;
    put(user, &delim, 1);
    return sent + 1;
}

void am_link_rx_init(am_link_rx *rx, uint8_t *buf, uint32_t cap)
{
    rx->buf = buf;
    rx->cap = cap;
    rx->len = 0;
    rx->frame = 0;
    rx->left = 0;
    rx->code = 0;
    rx->over = 0;
    rx->started = 0;
}

int am_link_rx_byte(am_link_rx *rx, uint8_t b)
{
    if (b != 0) {
        rx->started = 1;
        if (rx->left == 0) {
            /* a code byte: the block before it stood for a 0x00 too unless full */
            if (rx->code != 0 && rx->code != 0xFF) {
                if (rx->len < rx->cap) rx->buf[rx->len++] = 0;
                else rx->over = 1;
            }
            rx->code = b;
            rx->left = (uint8_t)(b - 1);
        } else {
            if (rx->len < rx->cap) rx->buf[rx->len++] = b;
            else rx->over = 1;
            rx->left--;
        }
        return AM_LINK_RX_MORE;
    }
    /* the delimiter */
    int r;
    if (!rx->started) r = AM_LINK_RX_MORE;
    else if (rx->over) r = AM_LINK_RX_OVERSIZE;
    else if (rx->left != 0 || rx->len < AM_LINK_HDR + AM_LINK_CRC) r = AM_LINK_RX_MALFORMED;
    else if (am_crc32(0, rx->buf, rx->len - AM_LINK_CRC) != am_link_get32(rx->buf + rx->len - AM_LINK_CRC))
        r = AM_LINK_RX_CRC;
    else r = AM_LINK_RX_FRAME;
    rx->frame = rx->len;
    rx->len = 0;
    rx->left = 0;
    rx->code = 0;
    rx->over = 0;
    rx->started = 0;
    return r;
}

int am_image_check(const uint8_t *img, uint32_t n, uint32_t max, am_image_info *info,
                   uint32_t *problem)
{
    *problem = 0;
    if (n > max) return AM_LINK_E_TOO_BIG;
    if (n < 4 * AM_IMAGE_HDR_WORDS || am_link_get32(img + 4) != AM_IMAGE_MAGIC) {
        *problem = AM_LINK_IMAGE_MAGIC;
        return AM_LINK_E_BAD_IMAGE;
    }
    if (am_link_get32(img + 8) != n || n % 4 != 0) {
        *problem = AM_LINK_IMAGE_SIZE;
        return AM_LINK_E_BAD_IMAGE;
    }
    /* the CRC is over the image with its own word as 0 */
    static const uint8_t zero[4] = { 0, 0, 0, 0 };
    uint32_t crc = am_crc32(am_crc32(am_crc32(0, img, 12), zero, 4), img + 16, n - 16);
    if (crc != am_link_get32(img + 12)) {
        *problem = AM_LINK_IMAGE_CRC;
        return AM_LINK_E_BAD_IMAGE;
    }
    info->bytes = n;
    info->table_hash = am_link_get32(img + 16);
    info->nbehaviors = am_link_get32(img + 20);
    info->boot = am_link_get32(img + 24);
    info->src_hash = am_link_get32(img + 40);
    return AM_LINK_OK;
}
