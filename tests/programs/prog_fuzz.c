/*
 * prog_fuzz.c — random actor programs from a seed (`make fuzz`, issue 8).
 *
 * One generic behavior, FUZZ_NODE, whose every decision comes from a
 * pseudo-random word kept in its state and mixed with the message: whether
 * and how many messages to send (fan-out, floods of 8), to whom (itself, the
 * peers it remembers, references received in the message, actors it just
 * created), whether to forward the message instead (am_forward: its words
 * shifted, some replaced), whether to create actors (which know their
 * creator: cycles), whether to BECOME (remembering new peers) or to set
 * single state words (am_set_state, past the length too), and whether to
 * fail after
 * staging all that -- by am_fail, a trap of each kind, a forged reference,
 * too many sends or creates, an unknown behavior, an oversized message or
 * state, a state or message word past the eighth. Queue-full aborts happen
 * on their own as floods grow (table-full ones do not: too few actors stay
 * reachable; `fill` covers them). Every message carries a hop budget, so every program ends.
 *
 * FUZZ: [seed] (the boot message; am-sim/am-run --arg SEED) creates four
 * nodes and starts them. Only 32-bit unsigned arithmetic: host and RISC-V
 * compute the same words, so one firmware image runs any number of programs.
 */
#include "am.h"
#include "behaviors.h"
#include "prog_trap.h"

/* node state: [rng, peer0, peer1, peer2, peer3, hops seen, 0, 0]
 * message:    [ttl, ref, ref, noise] */

static uint32_t xorshift(uint32_t x)
{
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x ? x : 0x9e3779b9u;
}

static am_ref pick(uint32_t r, const am_ref *refs, uint32_t n)
{
    return refs[r % n];
}

void prog_fuzz_node(am_ctx *ctx)
{
    uint32_t ttl = am_msg(ctx, 0);
    uint32_t r = xorshift(am_state(ctx, 0) ^ (ttl * 0x85ebca6bu) ^ am_msg(ctx, 3));
    am_ref refs[8];
    uint32_t n = 0;
    refs[n++] = am_self(ctx);
    for (uint32_t i = 1; i <= 4; i++)
        if (am_state(ctx, i)) refs[n++] = am_state(ctx, i);
    for (uint32_t i = 1; i <= 2; i++)
        if (am_msg(ctx, i)) refs[n++] = am_msg(ctx, i);

    /* create: 1 in 4, knowing its creator and one other reference */
    uint32_t ncreate = ((r >> 4) & 3u) == 0 ? 1u + ((r >> 6) & 1u) : 0u;
    for (uint32_t i = 0; i < ncreate && n < 8; i++) {
        r = xorshift(r);
        refs[n] = AM_CREATE(ctx, AMB_PROG_FUZZ_NODE, r, am_self(ctx), pick(r >> 8, refs, n));
        n++;
    }

    /* send: 0..3 messages, or a flood of 8 one time in 16 */
    if (ttl > 0) {
        uint32_t nsend = ((r >> 10) & 15u) == 0 ? 8u : (r >> 14) & 3u;
        for (uint32_t i = 0; i < nsend; i++) {
            r = xorshift(r);
            if (((r >> 24) & 3u) == 0) {
                /* the message on: ttl one less, words from `from` on (-2..5),
                 * sometimes a reference in word 1 */
                am_send_word(ctx, 0, ttl - 1);
                if ((r >> 26) & 1u) am_send_word(ctx, 1, pick(r >> 8, refs, n));
                am_forward(ctx, pick(r, refs, n), 1u + ((r >> 27) & 3u), (int32_t)((r >> 29) % 8u) - 2);
            } else {
                AM_SEND(ctx, pick(r, refs, n), ttl - 1, pick(r >> 8, refs, n),
                        pick(r >> 16, refs, n), r);
            }
        }
    }

    /* become: 1 in 2, remembering references from this message */
    if ((r >> 18) & 1u) {
        r = xorshift(r);
        AM_BECOME(ctx, AMB_PROG_FUZZ_NODE, r, pick(r, refs, n), pick(r >> 5, refs, n),
                  am_state(ctx, 3), pick(r >> 10, refs, n), am_state(ctx, 5) + 1);
    }
    /* single state words: 1 in 4, after a BECOME or not, past it too */
    if (((r >> 19) & 3u) == 0) {
        r = xorshift(r);
        am_set_state(ctx, 0, r);
        am_set_state(ctx, 1 + (r >> 8) % 7u, pick(r >> 12, refs, n));
    }

    /* fail after staging, 1 time in 8, in one of 13 ways */
    if (((r >> 20) & 7u) == 0) {
        am_word nine[9] = { 0 };
        switch ((r >> 23) % 13u) {
        case 11: am_set_state(ctx, 8, r); break;
        case 12: am_send_word(ctx, 8, r); break;
        case 0: am_fail(ctx, r); break;
        case 1: prog_trap(ctx, AM_FAULT_TRAP_ILLEGAL); break;
        case 2: prog_trap(ctx, AM_FAULT_TRAP_MISALIGNED); break;
        case 3: prog_trap(ctx, AM_FAULT_TRAP_BUS); break;
        case 4: prog_trap(ctx, AM_FAULT_TRAP_EBREAK); break;
        case 5: AM_SEND(ctx, am_self(ctx) + 0x00010000u, 0); break;   /* forged */
        case 6: for (uint32_t i = 0; i < 9; i++) AM_SEND(ctx, am_self(ctx), 0); break;
        case 7: for (uint32_t i = 0; i < 5; i++) am_create(ctx, AM_BEH_SINK, 0, 0); break;
        case 8: am_create(ctx, 0xffffu, 0, 0); break;
        case 9: am_send(ctx, am_self(ctx), 9, nine); break;
        default: am_become(ctx, AMB_PROG_FUZZ_NODE, 9, nine); break;
        }
    }
}

void prog_fuzz(am_ctx *ctx)
{
    uint32_t seed = am_msg(ctx, 0);
    uint32_t r = xorshift(seed * 0x9e3779b9u + 1u);
    uint32_t ttl = 4u + r % 5u;                 /* 4..8 hops */
    am_ref nodes[4];
    for (uint32_t i = 0; i < 4; i++) {
        r = xorshift(r);
        nodes[i] = AM_CREATE(ctx, AMB_PROG_FUZZ_NODE, r, i ? nodes[i - 1] : AM_NIL,
                             i > 1 ? nodes[0] : AM_NIL);
    }
    for (uint32_t i = 0; i < 4; i++) {
        r = xorshift(r);
        AM_SEND(ctx, nodes[i], ttl, nodes[(i + 1) % 4], nodes[r % 4], r);
    }
}
