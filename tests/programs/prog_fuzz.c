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
 * on their own as floods grow. Every message carries a hop budget, so every
 * program ends.
 *
 * Two extensions, each drawn per seed from a second hash of the seed (a seed
 * that draws neither runs the program it ran before them, word for word):
 *
 * * ballast (1 seed in 4): before the nodes start, the boot actor (pinned)
 *   builds a chain of 88..120 sinks that its state keeps reachable, four
 *   CREATEs a transaction (MAX_CREATES exactly), so the nodes run in the
 *   last 6..38 slots: the low-water trigger fires and disarms, CREATEs find
 *   the table full with garbage in it (collections on demand, in fault
 *   deliveries too) and without (TABLE_FULL).
 * * handlers (1 seed in 2): the nodes are FUZZ_NODE_H, the same behavior
 *   with more to do. Fault records mix into their decisions (am_fault, as
 *   the hardware's F_* registers give it), and one time in 8 a node installs
 *   a fault handler: itself or a node it knows (deliveries then run node
 *   code: they send, create, fail -- a failed delivery is not delivered
 *   again -- and abort QUEUE_FULL), AM_NIL, the console, its own slot's next
 *   generation (dead: deliveries abort DEAD_TARGET, until the slot is
 *   reused at that generation and its occupant becomes the handler), a slot
 *   outside the table (BAD_REF, op SET_HANDLER), a hidden reference (below),
 *   or two in a row (the last wins). A node hides a reference (XORed, so
 *   the collector does not see it) in state word 7 and later sends to it or
 *   installs it: after the actor was reclaimed, and its slot maybe reused, a
 *   stale reference (BAD_REF, DEAD_TARGET); half the references it hides
 *   are to a sink it creates for them, garbage at once. Two more ways to
 *   fail: BECOME an unknown behavior, CREATE with 9 state words.
 *
 * FUZZ: [seed] (the boot message; am-sim/am-run --arg SEED) creates four
 * nodes and starts them (with ballast: [seed, left, chain] to itself until
 * the chain is built). Only 32-bit unsigned arithmetic: host and RISC-V
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

/* the extensions' draw for a seed, apart from the program's own */
static uint32_t fuzz_modes(uint32_t seed)
{
    return xorshift(seed * 0x2545f491u + 0x6a09e667u);
}

/* a reference hidden from the collector: its generation field becomes
 * 0xa5a5 ^ gen, which no actor reaches in a fuzz program */
#define FUZZ_HIDE 0xa5a50000u

static void fuzz_node(am_ctx *ctx, int more)
{
    am_beh me = am_my_behavior(ctx);   /* FUZZ_NODE or FUZZ_NODE_H: kept by CREATE/BECOME */
    uint32_t ttl = am_msg(ctx, 0);
    uint32_t r = xorshift(am_state(ctx, 0) ^ (ttl * 0x85ebca6bu) ^ am_msg(ctx, 3));
    am_fault_info fi;
    if (more && am_fault(ctx, &fi))     /* a delivery: decide by its record too */
        r = xorshift(r ^ fi.cause ^ (fi.code * 0x27d4eb2fu) ^ fi.target ^ (fi.beh << 7)
                     ^ (fi.op << 24) ^ (fi.value * 0x165667b1u));
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
        refs[n] = AM_CREATE(ctx, me, r, am_self(ctx), pick(r >> 8, refs, n));
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
        AM_BECOME(ctx, me, r, pick(r, refs, n), pick(r >> 5, refs, n),
                  am_state(ctx, 3), pick(r >> 10, refs, n), am_state(ctx, 5) + 1);
    }
    /* single state words: 1 in 4, after a BECOME or not, past it too */
    if (((r >> 19) & 3u) == 0) {
        r = xorshift(r);
        am_set_state(ctx, 0, r);
        am_set_state(ctx, 1 + (r >> 8) % 7u, pick(r >> 12, refs, n));
    }

    if (more) {
        uint32_t x = xorshift(r ^ 0x68e31da4u);
        am_ref hidden = am_state(ctx, 7) ? am_state(ctx, 7) ^ FUZZ_HIDE : AM_NIL;
        /* 1 in 8: a message to the hidden reference, stale or not */
        if ((x & 7u) == 0 && hidden && ttl > 0)
            AM_SEND(ctx, hidden, ttl - 1, am_self(ctx), AM_NIL, x);
        /* 1 in 8: hide a reference -- half the time to a sink created
         * for it, garbage at once; else keep the one hidden through a
         * BECOME (which clears word 7), so that it can go stale */
        if (((x >> 3) & 7u) == 0)
            am_set_state(ctx, 7, ((x >> 13) & 1u ? am_create(ctx, AM_BEH_SINK, 0, 0)
                                                 : pick(x >> 16, refs, n)) ^ FUZZ_HIDE);
        else if (hidden)
            am_set_state(ctx, 7, hidden ^ FUZZ_HIDE);
        /* 1 in 8: a new fault handler */
        if (((x >> 6) & 7u) == 0) {
            switch ((x >> 9) & 7u) {
            case 0: case 1: am_set_fault_handler(ctx, pick(x >> 16, refs, n)); break;
            case 2: am_set_fault_handler(ctx, AM_NIL); break;
            case 3: am_set_fault_handler(ctx, AM_CONSOLE); break;
            case 4: am_set_fault_handler(ctx, am_self(ctx) + 0x00010000u); break;
            case 5: am_set_fault_handler(ctx, (x & 0xffff0000u) | 0xfff0u | (x & 15u)); break;
            case 6: am_set_fault_handler(ctx, hidden); break;
            default:
                am_set_fault_handler(ctx, am_self(ctx));
                am_set_fault_handler(ctx, pick(x >> 16, refs, n));
                break;
            }
        }
    }

    /* fail after staging, 1 time in 8, in one of 13 ways (15 with more) */
    if (((r >> 20) & 7u) == 0) {
        am_word nine[9] = { 0 };
        switch ((r >> 23) % (more ? 15u : 13u)) {
        case 13: am_become(ctx, 0xffffu, 0, 0); break;
        case 14: am_create(ctx, me, 9, nine); break;
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
        default: am_become(ctx, me, 9, nine); break;
        }
    }
}

void prog_fuzz_node(am_ctx *ctx) { fuzz_node(ctx, 0); }
void prog_fuzz_node_h(am_ctx *ctx) { fuzz_node(ctx, 1); }

void prog_fuzz(am_ctx *ctx)
{
    uint32_t seed = am_msg(ctx, 0);
    uint32_t modes = fuzz_modes(seed);
    uint32_t ballast = (modes & 3u) == 0 ? 88u + (modes >> 2) % 33u : 0u;
    am_beh node = (modes >> 8) & 1u ? AMB_PROG_FUZZ_NODE_H : AMB_PROG_FUZZ_NODE;
    if (ballast) {
        /* [seed] starts the chain, [seed, left, chain] goes on with it */
        uint32_t left = am_msg_len(ctx) == 1 ? ballast : am_msg(ctx, 1);
        am_ref chain = am_msg(ctx, 2);
        if (left > 0) {
            for (uint32_t i = 0; i < 4 && left > 0; i++, left--)
                chain = AM_CREATE(ctx, AM_BEH_SINK, chain);
            AM_BECOME(ctx, AMB_PROG_FUZZ, chain);   /* pinned: the chain stays reachable */
            AM_SEND(ctx, am_self(ctx), seed, left, chain);
            return;
        }
    }
    uint32_t r = xorshift(seed * 0x9e3779b9u + 1u);
    uint32_t ttl = 4u + r % 5u;                 /* 4..8 hops */
    am_ref nodes[4];
    for (uint32_t i = 0; i < 4; i++) {
        r = xorshift(r);
        nodes[i] = AM_CREATE(ctx, node, r, i ? nodes[i - 1] : AM_NIL,
                             i > 1 ? nodes[0] : AM_NIL);
    }
    for (uint32_t i = 0; i < 4; i++) {
        r = xorshift(r);
        AM_SEND(ctx, nodes[i], ttl, nodes[(i + 1) % 4], nodes[r % 4], r);
    }
}
