/*
 * sem_print.c — the folder's one console helper: a tagged line of words,
 * which the expected outputs (tests/sim/NAME.expected) compare on both sides.
 */
#include "sem_print.h"

void sem_hexline(am_ctx *ctx, am_word tag, uint32_t n, const am_word *w)
{
    char line[5 + 2 + 9 * 9 + 2];
    uint32_t k = 0;
    for (uint32_t i = 0; i < 4; i++) line[k++] = (char)(tag >> (8 * i));
    line[k++] = ' ';
    line[k++] = '[';
    for (uint32_t i = 0; i < n; i++) {
        if (i) line[k++] = ' ';
        for (int b = 7; b >= 0; b--) line[k++] = "0123456789abcdef"[w[i] >> (4 * b) & 15];
    }
    line[k++] = ']';
    line[k++] = '\n';
    line[k] = 0;
    am_print(ctx, line);
}
