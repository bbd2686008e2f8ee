/*
 * sem_print.h — the console helper of the folder's programs (sem_print.c).
 */
#ifndef SEM_PRINT_H
#define SEM_PRINT_H

#include "am.h"

/* "TTTT [w0 w1 ...]\n": tag's four bytes (least significant first), then
 * n words in hex (n <= 8). */
void sem_hexline(am_ctx *ctx, am_word tag, uint32_t n, const am_word *w);

#endif
