/*
 * prog_stack.c — behaviors that overflow the stack, the same code on both
 * targets. On the SoC the stack guard stops the first store below the
 * stack region (rtl/am_soc.v, SYS.STACK_LIMIT = the image's end of .bss)
 * and the transaction aborts with STACK before code or data change; in
 * lockstep the reference takes that verdict (the host's own stack is far
 * larger, so am-run alone commits these behaviors: the budget is the
 * image's, docs/programs.md).
 *
 * STACK: its boot message sends itself every step ([0] .. [2]) at once:
 *   0  a frame larger than the image's stack budget (STACK_BIG bytes)
 *   1  a recursion STACK_DEPTH calls deep (each call keeps a frame)
 *   2  prints that the machine went on
 */
#include "am.h"
#include "behaviors.h"

#define STACK_BIG   (56u * 1024u)   /* more than this image's budget (~46 KiB), less than
                                       the RAM (a frame past address 0 is TRAP_BUS) */
#define STACK_DEPTH 4000u           /* x >= 16 bytes a frame: more than 64 KiB */

__attribute__((noinline)) static am_word big_frame(am_word i)
{
    volatile unsigned char big[STACK_BIG];
    big[i % STACK_BIG] = (unsigned char)i;       /* stores at the bottom of the frame */
    big[0] = 1;
    return big[i % STACK_BIG];
}

__attribute__((noinline)) static am_word touch(volatile am_word *p) { return p[0] + p[3]; }

/* Each call keeps a 16-byte array on its stack that a function reads after
 * the inner call returns: the compiler can turn the recursion into neither
 * a loop nor a tail call. */
__attribute__((noinline)) static am_word deep(am_word n)
{
    volatile am_word frame[4] = { n, 0, 0, 1 };
    if (n == 0) return touch(frame);
    return deep(n - 1) + touch(frame);
}

void prog_stack(am_ctx *ctx)
{
    if (am_msg_len(ctx) == 0) {        /* boot: every step, in order */
        for (am_word step = 0; step <= 2; step++) AM_SEND(ctx, am_self(ctx), step);
        return;
    }
    switch (am_msg(ctx, 0)) {
    case 0:
        if (big_frame(am_msg(ctx, 0)) != 1) am_fail(ctx, 1);
        am_print(ctx, "stack: a large frame committed\n");
        break;
    case 1: {
        if (deep(STACK_DEPTH) == 0) am_fail(ctx, 2);
        am_print(ctx, "stack: a deep recursion committed\n");
        break;
    }
    default:
        am_print(ctx, "stack: the machine went on\n");
        break;
    }
}
