/*
 * prog_qedge.c -- the queue's edge (program queue-edge): a root sends 8
 * level-1 nodes, each sends 8 level-2 ones. The 8th level-1 node finds 56 queued: its 7th send fills the
 * queue, its 8th does not fit (QUEUE_FULL at commit) -- unless an earlier
 * check fails first. What it does after its sends (--arg V):
 *   0 nothing (QUEUE_FULL)        1 am_fail (FAIL)
 *   2 a BECOME of an unknown behavior (BAD_BEHAVIOR)
 *   3 a handler outside the table (BAD_REF op SET_HANDLER)
 *   4 a 9th send to a forged reference (TOO_MANY_SENDS, value the reference)
 *   5 its 8th send is a FORWARD after am_send_word of every word (QUEUE_FULL)
 *   6 as 5, then am_fail (FAIL)
 * Every node checks that am_msg still reads its own message after each
 * send; every level-2 node checks its words. tests/sim/run.sh runs each V in
 * lockstep and on the host; tests/sim/queue-edge.expected is the output of
 * each (docs/semantics.md: QUEUE_FULL only at commit, after every staging
 * check).
 */
#include "am.h"
#include "behaviors.h"

static am_word word_of(am_word idx, uint32_t i) { return 0x100u * (i + 1) + idx; }

static void check_msg(am_ctx *ctx, const char *where)
{
    am_word idx = am_msg(ctx, 2);
    int bad = am_msg_len(ctx) != 8;
    for (uint32_t i = 3; i < 8; i++) bad |= am_msg(ctx, i) != word_of(idx, i);
    if (bad) { am_print(ctx, "queue-edge: CORRUPT message "); am_print(ctx, where); am_print(ctx, "\n"); }
}

void prog_qe_node(am_ctx *ctx)
{
    am_word level = am_msg(ctx, 0), v = am_msg(ctx, 1), idx = am_msg(ctx, 2);
    check_msg(ctx, "at entry");
    if (level >= 2) return;
    int last = level == 1 && idx % 8 == 7;
    uint32_t plain = last && v >= 5 ? 7 : 8;
    for (uint32_t k = 0; k < plain; k++) {
        am_word nidx = idx * 8 + k;
        am_word w[8] = { level + 1, v, nidx };
        for (uint32_t i = 3; i < 8; i++) w[i] = word_of(nidx, i);
        am_send(ctx, am_self(ctx), 8, w);
        check_msg(ctx, "after a send");
    }
    if (!last) return;
    if (v >= 5) {
        am_word nidx = idx * 8 + 7;
        am_send_word(ctx, 0, level + 1);
        am_send_word(ctx, 1, v);
        am_send_word(ctx, 2, nidx);
        for (uint32_t i = 3; i < 8; i++) am_send_word(ctx, i, word_of(nidx, i));
        check_msg(ctx, "after am_send_word");
        am_forward(ctx, am_self(ctx), 8, 0);
        check_msg(ctx, "after the forward");
    }
    switch (v) {
    case 1: case 6: am_fail(ctx, 0x42);
    case 2: am_become(ctx, 0x1000u, 0, 0); break;
    case 3: am_set_fault_handler(ctx, 0x00010080u); break;
    case 4: AM_SEND(ctx, 0x12345678u, 1); break;
    default: break;
    }
}

void prog_qedge(am_ctx *ctx)
{
    am_word v = am_msg_len(ctx) ? am_msg(ctx, 0) : 0;
    am_word w[8] = { 0, v, 0 };
    for (uint32_t i = 3; i < 8; i++) w[i] = word_of(0, i);
    am_send(ctx, AM_CREATE(ctx, AMB_PROG_QE_NODE, 0), 8, w);
}
