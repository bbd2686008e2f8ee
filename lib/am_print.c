/*
 * am_print.c — console output as SENDs to the console device actor.
 * Target-independent (no libc): compiled into host runtime and firmware.
 */
#include "am.h"

/* Up to 4 bytes of s as one word, little-endian: the count in *n. Constant
 * shifts only (a core with a one-bit shifter pays per bit shifted). */
static am_word pack4(const char *s, uint32_t *n)
{
    am_word w = 0;
    uint32_t k = 0;
    if (s[0]) {
        w = (uint8_t)s[0]; k = 1;
        if (s[1]) {
            w |= (am_word)(uint8_t)s[1] << 8; k = 2;
            if (s[2]) {
                w |= (am_word)(uint8_t)s[2] << 16; k = 3;
                if (s[3]) { w |= (am_word)(uint8_t)s[3] << 24; k = 4; }
            }
        }
    }
    *n = k;
    return w;
}

void am_print(am_ctx *ctx, const char *text)
{
    while (*text) {
        am_word w[1 + AM_CON_TEXT_MAX / 4];
        uint32_t n = 0, k = 4, nw = 1;
        while (n < AM_CON_TEXT_MAX && k == 4) {
            w[nw++] = pack4(text + n, &k);
            n += k;
        }
        if (k == 0) nw--;   /* the string ended on a word */
        w[0] = AM_CON_TEXT | (n << 8);
        am_send(ctx, AM_CONSOLE, nw, w);
        text += n;
    }
}

void am_print_int(am_ctx *ctx, int32_t v)   { AM_SEND(ctx, AM_CONSOLE, AM_CON_INT, (am_word)v); }
void am_print_uint(am_ctx *ctx, uint32_t v) { AM_SEND(ctx, AM_CONSOLE, AM_CON_UINT, v); }
void am_print_hex(am_ctx *ctx, uint32_t v)  { AM_SEND(ctx, AM_CONSOLE, AM_CON_HEX, v); }

void am_export(am_ctx *ctx, am_word name, am_ref ref) { AM_SEND(ctx, AM_CONSOLE, AM_CON_EXPORT, name, ref); }
