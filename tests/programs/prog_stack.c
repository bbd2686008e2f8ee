/*
 * prog_stack.c — behaviors that overflow the stack, the same code on both
 * targets. On the SoC the stack guard stops the first store below the
 * stack region (rtl/am_soc.v, SYS.STACK_LIMIT = the image's end of .bss)
 * and the transaction aborts with STACK before code or data change; in
 * lockstep the reference takes that verdict (the host's own stack is far
 * larger, so am-run alone commits these behaviors: the budget is the
 * image's, docs/programs.md).
 *
 * A frame larger than the RAM below it wraps below address 0 into the upper
 * half of the address space, where only the unit's 1 KiB window is mapped:
 * the guard stops its first store there too (STACK), and nothing of it
 * reaches the unit's registers.
 *
 * STACK: its boot message sends itself every step ([0] .. [4]) at once:
 *   0  a frame larger than the image's stack budget (STACK_BIG bytes)
 *   1  a recursion STACK_DEPTH calls deep (each call keeps a frame)
 *   2  a frame that wraps below address 0 by WRAP_BY bytes (on the host,
 *      a small frame: the host's stack is the host program's)
 *   3  a store 64 KiB below the unit's window, at the offset of its
 *      WATCHDOG register: STACK, no alias of the unit (on the host, the
 *      runtime's model of a trap: the host has no such address space, and
 *      in lockstep the hardware's verdict stands)
 *   4  prints that the machine went on
 */
#include "am.h"
#include "am_iface.h"
#include "behaviors.h"
#if !defined(__riscv)
#include "am_rt.h"      /* am_host_trap */
#endif

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

#define WRAP_BY 2048u   /* past the unit's window (the top 1 KiB) by another KiB */

/* On the SoC a frame of (this frame's address + WRAP_BY) bytes: its bottom
 * lies WRAP_BY bytes below address 0, and it is written from the bottom up.
 * On the host (addresses far above the SoC's RAM) a frame of 64 bytes. */
__attribute__((noinline)) static am_word wrapping_frame(void)
{
    volatile am_word here = 0;
    uintptr_t at = (uintptr_t)&here;
    uint32_t n = at < 0x10000000u ? (uint32_t)((at + WRAP_BY) / 4u) : 16u;
    volatile am_word frame[n];
    for (uint32_t i = 0; i < n; i++) frame[i] = i;
    return frame[n - 1] + here;
}

/* The unit's WATCHDOG register, 64 KiB below its window */
static void store_below_window(am_ctx *ctx)
{
#if defined(__riscv)
    (void)ctx;
    *(volatile am_word *)(uintptr_t)((uint32_t)AU_BASE - 0x10000u + AU_WATCHDOG) = 0;
#else
    am_host_trap(ctx, AM_FAULT_STACK);
#endif
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
        for (am_word step = 0; step <= 4; step++) AM_SEND(ctx, am_self(ctx), step);
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
    case 2:
        if (wrapping_frame() == 0) am_fail(ctx, 3);
        am_print(ctx, "stack: a wrapping frame committed\n");
        break;
    case 3:
        store_below_window(ctx);
        am_print(ctx, "stack: a store below the unit's window committed\n");
        break;
    default:
        am_print(ctx, "stack: the machine went on\n");
        break;
    }
}
