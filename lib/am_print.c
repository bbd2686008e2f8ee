/*
 * am_print.c — console output as SENDs to the console device actor.
 * Target-independent (no libc): compiled into host runtime and firmware.
 */
#include "am.h"

void am_print(am_ctx *ctx, const char *text)
{
    while (*text) {
        am_word w[1 + AM_CON_TEXT_MAX / 4] = {0};
        uint32_t n = 0;
        while (n < AM_CON_TEXT_MAX && text[n]) {
            w[1 + n / 4] |= (am_word)(uint8_t)text[n] << (8 * (n % 4));
            n++;
        }
        w[0] = AM_CON_TEXT | (n << 8);
        am_send(ctx, AM_CONSOLE, 1 + (n + 3) / 4, w);
        text += n;
    }
}

void am_print_int(am_ctx *ctx, int32_t v)   { AM_SEND(ctx, AM_CONSOLE, AM_CON_INT, (am_word)v); }
void am_print_uint(am_ctx *ctx, uint32_t v) { AM_SEND(ctx, AM_CONSOLE, AM_CON_UINT, v); }
void am_print_hex(am_ctx *ctx, uint32_t v)  { AM_SEND(ctx, AM_CONSOLE, AM_CON_HEX, v); }

void am_export(am_ctx *ctx, am_word name, am_ref ref) { AM_SEND(ctx, AM_CONSOLE, AM_CON_EXPORT, name, ref); }
