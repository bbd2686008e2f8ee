/*
 * prog_spleak.c — a behavior that leaves the stack pointer or the return
 * address somewhere else decides nothing for the next behavior
 * (docs/semantics.md, "The firmware's registers and devices"). The dispatch
 * point answers every behavior's return with `auipc ra, 0` and `lui sp,
 * STACK_TOP` before it jumps to the next (rtl/am_soc.v), so the next
 * actor's behavior runs on the stack's top and returns to the dispatch
 * point, whatever its predecessor left in sp and ra.
 *
 * SPLEAK (the boot) [mode], mode 0..5: creates a VICTIM, sends it [mode],
 * sends itself [mode + 1] while modes are left, and leaves -- on the RISC-V
 * core, by a jump to the dispatch point with sp or ra moved:
 *   0 sp above STACK_TOP (onto the host link's state: the victim's stores
 *     would abort with STACK), 1 sp misaligned (TRAP_MISALIGNED), 2 sp just
 *     above STACK_LIMIT (a deep frame would abort with STACK), 3 sp inside
 *     the actor unit's STATE window (the victim's stack stores would stage
 *     state words it never chose), 4 sp zero (wraps below address 0),
 *   5 ra at a gadget of this program (the victim's return would run it
 *     inside the victim's transaction: a print the victim never made).
 * VICTIM [mode]: works on its stack (a table filled and summed, through a
 * call that keeps a frame) and prints the mode and the sum. Both sides
 * commit the same transactions: every victim prints, none faults.
 */
#include "am.h"
#include "am_iface.h"   /* AM_DEFAULT_DISPATCH_PC, AU_BASE */
#include "behaviors.h"

#define SPLEAK_MODES 6u

#if defined(__riscv)
/* Where mode 5 points ra: were it run, the victim's transaction would print
 * this line, and go on at the dispatch point. */
static __attribute__((noinline, used)) void prog_spleak_gadget(void)
{
    am_print((am_ctx *)0, "spleak: GADGET RAN IN A VICTIM'S TRANSACTION\n");
    __asm__ volatile("li t0, %0\n"
                     "jr t0" : : "i"(AM_DEFAULT_DISPATCH_PC) : "memory");
    __builtin_unreachable();
}
#endif

static __attribute__((noinline)) am_word spleak_sum(volatile am_word *t, uint32_t n)
{
    am_word s = 0;
    for (uint32_t i = 0; i < n; i++) s += t[i] * (i + 1);
    return s;
}

void prog_spleak_victim(am_ctx *ctx)
{
    volatile am_word t[24];
    am_word mode = am_msg(ctx, 0);
    for (uint32_t i = 0; i < 24; i++) t[i] = mode + i;
    am_print(ctx, "spleak: victim ");
    am_print_uint(ctx, mode);
    am_print(ctx, " sum ");
    am_print_uint(ctx, spleak_sum(t, 24));
    am_print(ctx, "\n");
}

void prog_spleak(am_ctx *ctx)
{
    am_word mode = am_msg_len(ctx) ? am_msg(ctx, 0) : 0;
    if (mode >= SPLEAK_MODES) {
        am_print(ctx, "spleak: every victim ran\n");
        return;
    }
    am_ref v = AM_CREATE(ctx, AMB_PROG_SPLEAK_VICTIM, 0);
    AM_SEND(ctx, v, mode);
    AM_SEND(ctx, am_self(ctx), mode + 1);
#if defined(__riscv)
    extern char __stack_top[], __bss_end[];   /* firmware/link.ld */
    if (mode == 5)
        __asm__ volatile("mv ra, %0\n"
                         "li t0, %1\n"
                         "jr t0" : : "r"((uintptr_t)prog_spleak_gadget), "i"(AM_DEFAULT_DISPATCH_PC)
                         : "memory");
    uintptr_t sp = mode == 0 ? (uintptr_t)__stack_top + 64
                 : mode == 1 ? (uintptr_t)__stack_top - 62
                 : mode == 2 ? (uintptr_t)__bss_end + 8
                 : mode == 3 ? (uintptr_t)(AU_BASE + AU_STATE + 32)
                 : 0;
    __asm__ volatile("mv sp, %0\n"
                     "li t0, %1\n"
                     "jr t0" : : "r"(sp), "i"(AM_DEFAULT_DISPATCH_PC) : "memory");
    __builtin_unreachable();
#endif
}
