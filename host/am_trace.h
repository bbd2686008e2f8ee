/*
 * am_trace.h — formatting of trace lines (docs/trace-format.md).
 *
 * A line is built in a fixed buffer and written with one fwrite, so a trace
 * is byte-for-byte reproducible and cheap when on; the runtime does not call
 * any of this when tracing is off. The lockstep checker (sim/) formats the
 * hardware's transactions with the same functions, so the two sides' lines
 * compare as strings.
 */
#ifndef AM_TRACE_H
#define AM_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "am.h"

#define AM_TRACE_LINE_MAX 2048

typedef struct am_trace_buf {
    char text[AM_TRACE_LINE_MAX];
    size_t n;
} am_trace_buf;

/* beh == 0xffffffff prints as "b-" (DEAD_TARGET: the behavior is unknown). */
void am_trace_begin(am_trace_buf *b, uint64_t seq, int committed, am_ref target,
                    am_beh beh, uint32_t len, const am_word *msg);
void am_trace_new(am_trace_buf *b, am_ref ref, am_beh beh, uint32_t n, const am_word *st);
void am_trace_send(am_trace_buf *b, am_ref target, uint32_t n, const am_word *msg);
void am_trace_become(am_trace_buf *b, am_beh beh, uint32_t n, const am_word *st);
/* " | state I W": am_set_state staged word I = W (after the BECOME, if any;
 * one per word, in word order) */
void am_trace_state(am_trace_buf *b, uint32_t i, am_word w);
void am_trace_handler(am_trace_buf *b, am_ref handler);
/* " | fault CAUSE CODE op OP VALUE": the cause, the am_fail code, the
 * operation that failed and the offending value (docs/trace-format.md). */
void am_trace_fault(am_trace_buf *b, uint32_t cause, am_word code, uint32_t op, am_word value);
/* A garbage collection, between transaction seq and seq + 1: the whole line
 * "SEQ G gc reclaimed R live L free F", with " on-demand" when a CREATE (or
 * host am_spawn) that found no free slot asked for it (docs/gc.md); not
 * terminated: call am_trace_end. */
void am_trace_gc(am_trace_buf *b, uint64_t seq, uint32_t reclaimed, uint32_t live, uint32_t free_slots,
                 int on_demand);
/* Terminate the line; write it to f when f is not NULL. */
void am_trace_end(am_trace_buf *b, FILE *f);

#endif /* AM_TRACE_H */
