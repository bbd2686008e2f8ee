/*
 * am_gc.c — the reference runtime's collector (docs/gc.md): a stop-the-world
 * mark and sweep between transactions, the algorithm of rtl/am_gc.v, so that
 * the lockstep compares every collection. When it runs is the dispatch
 * loop's business (am_rt.c: gc_schedule, check_low_water, table_full_cause,
 * do_retry); this file is what a collection does.
 */
/* clock_gettime is POSIX, not C11 */
#define _XOPEN_SOURCE 700
#include "am_rt_impl.h"

#include <time.h>

/* ---- garbage collection (docs/gc.md) ----------------------------------------- */

/* gc_trace: records fetched ahead; a level scanned in slot order when the
 * table's used part is too large for the cache (GC_SORT_WORDS 64-slot
 * words, 384 KiB of records) and the level has at least one actor per
 * GC_LEVEL_SORT words */
#define GC_AHEAD 16
#define GC_SORT_WORDS 128
#define GC_LEVEL_SORT 16

/* The mark phase's working set, held in locals (registers) while it runs. */
typedef struct marker {
    uint32_t *keys;
    uint32_t *queue;                 /* gc_queue: every marked slot, in marking order */
    uint32_t n;                      /* slots in queue */
} marker;

/* Mark the live slot of ref (not marked yet) and queue it. The mark flips
 * GC_MARK in the slot's own word, so that "valid and not marked yet" is
 * one load and compare (keys[slot] == ref), and marks of different slots
 * never wait on each other (as they would on a shared bitmap word). */
INLINE void gc_mark_ref(marker *m, am_ref ref)
{
    m->keys[SLOT_OF(ref)] = ref ^ GC_MARK;
    m->queue[m->n++] = SLOT_OF(ref);
}

/* Mark the actor a word refers to, if it is a valid reference and not
 * marked yet. Any word may be a reference (conservative), but only a valid
 * one, generation included, keeps an actor alive. */
INLINE void gc_word(marker *m, am_word w)
{
    if (m->keys[SLOT_OF(w)] == w) gc_mark_ref(m, w);
}


/* State words past the actor's length are 0, never a reference. Most
 * state words are small numbers: a block of four with none above 0xffff is
 * skipped at once. */
INLINE void gc_scan4(marker *m, const am_word *w)
{
    if (((w[0] | w[1] | w[2] | w[3]) >> 16) == 0) return;
    gc_word(m, w[0]);
    gc_word(m, w[1]);
    gc_word(m, w[2]);
    gc_word(m, w[3]);
}

INLINE void gc_scan(marker *m, const actor *a)
{
    gc_scan4(m, &a->st[0]);
    gc_scan4(m, &a->st[4]);
}

/* An event's target and its message words (those past its length are 0);
 * a word below 0x10000 (generation 0) is never a reference. */
INLINE void gc_event(marker *m, const event *ev)
{
    gc_word(m, ev->target);
    for (uint32_t i = 0; i < ev->len; i++)
        if (ev->msg[i] >> 16) gc_word(m, ev->msg[i]);
}

/* Scan the state of every actor marked and not scanned yet, breadth first:
 * one level (the actors the previous level marked) after the other. In a
 * large table a large level is scanned in slot order, through a bitmap of
 * its slots, so that the records are read in the order of memory; else in
 * the order of the queue, each record fetched a few places ahead. Either
 * way every marked actor is scanned once. */
INLINE void gc_trace(am_rt *rt, marker *m)
{
    uint64_t *front = rt->gc_front;              /* clear between levels */
    uint32_t nwords = (rt->next + 63) / 64;
    for (uint32_t qh = 0; qh < m->n;) {
        uint32_t end = m->n;
        if (nwords >= GC_SORT_WORDS && (end - qh) * GC_LEVEL_SORT >= nwords) {
            for (; qh < end; qh++) front[m->queue[qh] >> 6] |= (uint64_t)1 << (m->queue[qh] & 63);
            for (uint32_t k = 0; k < nwords; k++) {
                for (uint64_t f = front[k]; f; f &= f - 1)
                    gc_scan(m, &rt->actors[k * 64 + (uint32_t)low_bit(f)]);
                front[k] = 0;
            }
        } else {
            for (; qh < end; qh++) {
                if (qh + GC_AHEAD < end) PREFETCH(&rt->actors[m->queue[qh + GC_AHEAD]]);
                gc_scan(m, &rt->actors[m->queue[qh]]);
            }
        }
    }
}

/* The bits set in x (without a library call or an instruction the
 * baseline target may lack). */
INLINE uint32_t bit_count32(uint32_t x)
{
    x -= (x >> 1) & 0x55555555u;
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

/* Reclaim the slots of one 64-slot word of the table that dead has set.
 * A live slot's word is its reference: flipping its low half makes it
 * dead, the generation kept. Actors created together usually die
 * together: where more than 8 of 32 neighbours die, the 32 words are
 * flipped without a branch per slot (written so that compilers make it a
 * few vector operations), else slot by slot. */
INLINE void gc_reclaim(uint32_t *keys, uint64_t dead)
{
    static const uint32_t bit[32] = {
        1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7,
        1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
        1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
        1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
    };
    for (uint32_t h = 0; h < 64; h += 32, keys += 32) {
        uint32_t d = (uint32_t)(dead >> h);
        if (bit_count32(d) > 8) {
            for (uint32_t j = 0; j < 32; j++)
                keys[j] ^= (0u - (uint32_t)((d & bit[j]) != 0)) & 0xffffu;
        } else {
            for (; d; d &= d - 1) keys[low_bit(d)] ^= 0xffffu;
        }
    }
}

/* Stop-the-world mark and sweep, between transactions, exactly as the
 * hardware's collector (rtl/am_gc.v) does it, so that the free stack comes
 * out in the same order:
 *   roots: the pinned actors, the fault handler, every queued event (target
 *   and message words below its length), a fault delivery not yet made (its
 *   message words and the failed event's target);
 *   trace: the state words of every marked actor;
 *   sweep: slots next-1 down to 0; a live unmarked actor is reclaimed (live
 *   cleared, generation kept), and every slot that is not live afterwards is
 *   pushed on a rebuilt free stack, so the lowest free slot is reused first.
 * The order in which actors are marked changes nothing (the marked set is
 * the same), so the mark goes breadth first, in the order of memory where
 * it can (gc_trace); the sweep goes 64 slots at a time through bitmaps of
 * the live and the marked slots and writes only the records it reclaims. */
static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

NOINLINE uint32_t am_rt_gc_collect(am_rt *rt, int on_demand)
{
    uint64_t t0 = mono_ns();
    marker m = { rt->keys, rt->gc_queue, 0 };
    for (uint32_t i = 0; i < rt->npinned; i++) {
        uint32_t slot = rt->pinned[i], key = m.keys[slot];
        if (SLOT_OF(key) == slot) gc_mark_ref(&m, key);   /* live, not marked yet */
    }
    gc_word(&m, rt->handler);
    event *ev = rt->head;
    for (uint32_t i = 0; i < rt->count; i++, ev = ring_next(rt, ev)) gc_event(&m, ev);
    if (rt->redirect) {               /* a delivery not made yet: its event, the failed target */
        gc_event(&m, &rt->redirect_ev);
        gc_word(&m, rt->cur_fault.target);
    }
    gc_trace(rt, &m);
    /* the marked slots, from the queue, as a bitmap (gc_front is clear
     * after gc_trace); their marks come off */
    uint64_t *keep_bits = rt->gc_front;
    for (uint32_t i = 0; i < m.n; i++) {
        uint32_t slot = m.queue[i];
        m.keys[slot] ^= GC_MARK;
        keep_bits[slot >> 6] |= (uint64_t)1 << (slot & 63);
    }
    for (uint32_t k = (rt->next + 63) / 64; k-- > 0;) {
        uint64_t keep = keep_bits[k];
        keep_bits[k] = 0;
        gc_reclaim(&rt->keys[k * 64], rt->live_bits[k] & ~keep);
        rt->live_bits[k] = keep;
    }
    /* Every marked slot was live, and they are all that stays live: the
     * rebuilt free stack is every other slot below next, lowest on top. */
    uint32_t reclaimed = rt->nlive - m.n;
    rt->free_count = rt->next - m.n;
    rt->free_cursor = 0;
    rt->nlive = m.n;
    uint32_t free_after = free_slots(rt);
    rt->gc_armed = free_after / 2 >= rt->gc_low;   /* free_after >= 2 * gc_low */
    rt->gc_seq = rt->seq;
    rt->gc_demand += (uint64_t)(on_demand != 0);
    rt->gc_runs++;
    rt->gc_reclaimed += reclaimed;
    rt->gc_live_last = rt->nlive;
    if (rt->nlive > rt->gc_live_max) rt->gc_live_max = rt->nlive;
    gc_schedule(rt);
    rt->gc_ns += mono_ns() - t0;
    if (rt->tracing) {
        am_trace_buf *b = &rt->tbuf;
        am_trace_gc(b, rt->seq, reclaimed, rt->nlive, free_after, on_demand);
        am_trace_end(b, rt->cfg.trace);
        if (rt->cfg.on_trace) rt->cfg.on_trace(rt->cfg.user, b->text, b->n);
    }
    return reclaimed;
}

uint32_t am_gc(am_rt *rt)
{
    if (rt->in_dispatch) return 0;
    return am_rt_gc_collect(rt, 0);
}

am_status am_collect_on_demand(am_rt *rt, uint32_t ncreates)
{
    if (rt->in_dispatch) return AM_E_REENTRANT;
    if (ncreates > rt->max_creates) return AM_E_CONFIG;
    am_rt_burn_slots(rt, ncreates);
    am_rt_gc_collect(rt, 1);
    return AM_OK;
}

