/*
 * prog_first_fault.c -- the first fault wins over what the hardware's
 * behavior does after it (docs/semantics.md, "Fault records"; docs/faults.md,
 * "First fault wins"): a staging fault (a forged SEND, a 5th CREATE, a SEND
 * of 9 words, a SEND to AM_NIL, a BECOME of an unknown behavior), then an
 * ebreak, a store to a static variable (the stack guard's STACK if it came
 * first), an illegal instruction, a misaligned load, a load from nothing
 * (TRAP_BUS), or a store and am_fail: the record keeps the first fault's
 * cause, op and value on the SoC as on the host, where the behavior stops
 * at the first fault. tests/sim/first-fault.expected is the output.
 */
#include "am.h"
#include "behaviors.h"

static am_word g_counter;      /* a behavior must not write it: on the SoC a store to it is STACK */

enum { V_NONE, V_REF_EBREAK, V_REF_STATIC, V_CREATES_ILLEGAL, V_LONG_MISALIGNED,
       V_REF_BUS, V_BEH_STATIC, V_COUNT };

void prog_ff_victim(am_ctx *ctx)
{
    am_word op = am_msg(ctx, 0);
    am_word nine[9] = { 0 };
    if (op == V_NONE) return;
    AM_SEND(ctx, am_self(ctx), V_NONE);
    switch (op) {
    case V_REF_EBREAK:
        AM_SEND(ctx, 0x12345678u, 1);
#if defined(__riscv)
        __asm__ volatile("ebreak");
#endif
        break;
    case V_REF_STATIC:
        AM_SEND(ctx, 0x12345678u, 2);
        *(volatile am_word *)&g_counter = 1;
        break;
    case V_CREATES_ILLEGAL:
        for (int i = 0; i < 5; i++) AM_CREATE(ctx, AM_BEH_SINK, 0);
#if defined(__riscv)
        __asm__ volatile(".word 0x00000000");
#endif
        break;
    case V_LONG_MISALIGNED:
        am_send(ctx, am_self(ctx), 9, nine);
#if defined(__riscv)
        { uint32_t v, a = 0x100; __asm__ volatile("lw %0, 2(%1)" : "=r"(v) : "r"(a) : "memory"); (void)v; }
#endif
        break;
    case V_REF_BUS:
        AM_SEND(ctx, AM_NIL, 3);
#if defined(__riscv)
        { uint32_t v, a = 0x40000000; __asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(a) : "memory"); (void)v; }
#endif
        break;
    case V_BEH_STATIC:
        am_become(ctx, 0x1000u, 0, 0);
        *(volatile am_word *)&g_counter = 2;
        am_fail(ctx, 0x55);
    default: return;
    }
}

void prog_first_fault(am_ctx *ctx)
{
    am_word step = am_state(ctx, 0);
    am_ref victim = am_state(ctx, 1);
    if (step == 0) victim = AM_CREATE(ctx, AMB_PROG_FF_VICTIM, 0);
    if (step + 1 == V_COUNT) { am_print(ctx, "first-fault: done\n"); return; }
    AM_SEND(ctx, victim, step + 1);
    am_print(ctx, "first-fault: op ");
    am_print_uint(ctx, step + 1);
    am_print(ctx, "\n");
    AM_SEND(ctx, am_self(ctx), 0);
    AM_BECOME(ctx, AMB_PROG_FIRST_FAULT, step + 1, victim);
}
