/*
 * fw_main.c — boot, the dispatch table, the idle and device routines, the
 * trap handler and the built-in behaviors of the firmware (docs/firmware.md).
 *
 * Boot: tell the SoC where the dispatch table is and the unit how many
 * behaviors exist,
 * SPAWN the boot actor (behavior SYS.BOOT_BEH, or the image header's when
 * that is 0; empty state), INJECT one message to it ([] or [SYS.BOOT_ARG]
 * when that is not 0) and start dispatching -- the same steps am-run and the
 * lockstep checker take on the reference runtime.
 *
 * Dispatching is the hardware's: fw_loop (crt0.S) jumps to the dispatch
 * point with the return address there too, and every fetch of it -- every
 * behavior's `ret` -- commits and is answered with a jump to the next
 * behavior (rtl/am_unit_dp.v). Faults of the staging rules are the
 * unit's business; a trap inside a behavior restarts the core (the SoC does
 * it, crt0.S), which calls fw_trap() to abort and goes back to DISPATCH on a
 * fresh stack.
 */
#include "am_console.h"
#include "fw.h"

void fw_putc(char c) { UART(UART_TXDATA) = (uint8_t)c; }

void fw_puts(const char *s)
{
    while (*s) fw_putc(*s++);
}

/* The end-of-run report, read by the simulation testbench (SYS.REPORT):
 * a marker, then the unit's counters in a fixed order. */
static void report(void)
{
    static const uint32_t regs[] = { AU_CYCLES, AU_DISPATCHES, AU_COMMITS, AU_ABORTS,
                                     AU_FAULTS, AU_QUEUE_HWM, AU_LIVE, AU_GC_RUNS,
                                     AU_GC_RECLAIMED, AU_GC_CYCLES, AU_GC_MAX_PAUSE,
                                     AU_GC_LIVE_MAX };
    SYS(SYS_REPORT) = 0x52505430u;   /* "RPT0" */
    for (uint32_t i = 0; i < sizeof regs / sizeof regs[0]; i++)
        SYS(SYS_REPORT) = AU(regs[i]);
}

void fw_halt(uint32_t code)
{
    report();
    for (;;) SYS(SYS_HALT) = code;
}

/* The IDLE entry: nothing to dispatch -- the queue drained. The run ends,
 * unless the host link is on: then the machine waits for the host (a
 * request makes the next events). (A watchdog abort restarts the core at
 * once, so the dispatch point is never answered while the unit holds for
 * its acknowledgement.) */
void fw_idle(am_ctx *ctx)
{
    (void)ctx;
#if FW_LINK
    if (fw_link_on) {
        fw_link_idle();
        return;
    }
#endif
    fw_halt(FW_HALT_OK);
}

/* The DEVICE entry: a device enabled in SYS.DEVICES asks for the firmware,
 * between two transactions (no transaction is open; INJECT and SPAWN work).
 * fw_device_fn serves it; without one, the devices are turned off, so an
 * unserved request cannot come back at every dispatch. */
void (*fw_device_fn)(void);
void fw_device(am_ctx *ctx)
{
    (void)ctx;
    if (fw_device_fn) fw_device_fn();
    else SYS(SYS_DEVICES) = 0;
}

void fw_main(void)
{
    /* the dispatch table (fw_table.c): written once, so no behavior can
     * redirect a dispatch */
    SYS(SYS_DISPATCH) = (uint32_t)(uintptr_t)fw_behaviors;
#if FW_LINK
    if (SYS(SYS_LINK) & SYS_LINK_ON) fw_link_init();   /* .bss is still writable */
#endif
    /* the stack guard: from now on a store below the end of .bss faults
     * STACK, whatever runs; written once, so no behavior can lower it */
    SYS(SYS_STACK_LIMIT) = fw_image_header[FW_HDR_BSS_END];
    /* ... and from a program's behavior a store at or above the stack's
     * top: the host link's state and load buffer, which the firmware
     * trusts (rtl/am_soc.v, "privilege") */
    SYS(SYS_STACK_TOP) = fw_image_header[FW_HDR_STACK_TOP];
    AU(AU_BEH_COUNT) = fw_nbehaviors;
    AU(AU_WATCHDOG) = FW_WATCHDOG_CYCLES;
    uint32_t gc = SYS(SYS_GC_CONFIG);      /* the testbench's collector settings */
    if (gc & SYS_GC_CONFIG_SET) {
        AU(AU_GC_LOW) = (gc & SYS_GC_CONFIG_LOW) >> SYS_GC_CONFIG_LOW_LSB;
        AU(AU_GC_PERIOD) = (gc & SYS_GC_CONFIG_PERIOD) >> SYS_GC_CONFIG_PERIOD_LSB;
    }
    /* SYS.BOOT_BEH 0 (the console, never a boot behavior): the image's own
     * boot behavior, from its header (crt0.S) */
    am_beh boot_beh = SYS(SYS_BOOT_BEH);
    uint32_t arg = SYS(SYS_BOOT_ARG);
    /* an image loaded over the link boots its own boot behavior with [] */
    if (SYS(SYS_RESTART) & SYS_RESTART_LOADED) boot_beh = arg = 0;
    if (boot_beh == 0) boot_beh = fw_image_header[FW_HDR_BOOT];
    AU(AU_SPAWN_N(0)) = boot_beh;
    am_ref boot = AU(AU_NEW_REF);
    if (AU(AU_EXT_STATUS) != 0 || boot == AM_NIL) {
        fw_puts("firmware: cannot spawn the boot actor\n");
        fw_halt(FW_HALT_BOOT_FAILED);
    }
    AU(AU_MSG_W(0)) = arg;
    AU(AU_INJECT_N(arg ? 1 : 0)) = boot;
    if (AU(AU_EXT_STATUS) != 0) {
        fw_puts("firmware: cannot inject the boot message\n");
        fw_halt(FW_HALT_BOOT_FAILED);
    }
    AU(AU_CTRL) = AU_CTRL_RUN;
    fw_loop();
}

/* What a trapping instruction was. PicoRV32 (no interrupts) stops on an
 * illegal instruction, ebreak, ecall, a misaligned load or store, and a
 * jump or taken branch to a misaligned address -- nothing else. So a valid
 * load, store, jump or branch that trapped was misaligned; ebreak is
 * TRAP_EBREAK; everything else that is not a valid instruction (ecall
 * included) TRAP_ILLEGAL; a valid instruction of any other kind cannot
 * trap (TRAP_NONE). */
#define INSN_EBREAK 0x00100073u
#define TRAP_NONE   0u
static uint32_t trap_kind(uint32_t insn)
{
    uint32_t f3 = (insn >> 12) & 7u, f7 = insn >> 25;
    switch (insn & 0x7fu) {
    case 0x03: return (f3 != 3 && f3 < 6) ? AM_FAULT_TRAP_MISALIGNED : AM_FAULT_TRAP_ILLEGAL;
    case 0x23: return f3 < 3 ? AM_FAULT_TRAP_MISALIGNED : AM_FAULT_TRAP_ILLEGAL;
    case 0x6f: return AM_FAULT_TRAP_MISALIGNED;                                   /* JAL */
    case 0x67: return f3 == 0 ? AM_FAULT_TRAP_MISALIGNED : AM_FAULT_TRAP_ILLEGAL; /* JALR */
    case 0x63: return (f3 != 2 && f3 != 3) ? AM_FAULT_TRAP_MISALIGNED : AM_FAULT_TRAP_ILLEGAL;
    case 0x37: case 0x17: return TRAP_NONE;                                       /* LUI, AUIPC */
    case 0x13:                                                                    /* OP-IMM */
        if (f3 == 1) return f7 == 0 ? TRAP_NONE : AM_FAULT_TRAP_ILLEGAL;
        if (f3 == 5) return (f7 & ~0x20u) == 0 ? TRAP_NONE : AM_FAULT_TRAP_ILLEGAL;
        return TRAP_NONE;
    case 0x33:                                                                    /* OP */
        if (f7 == 0 || (f7 == 0x20 && (f3 == 0 || f3 == 5))) return TRAP_NONE;
#if defined(__riscv_mul)
        if (f7 == 1) return TRAP_NONE;                                            /* M */
#endif
        return AM_FAULT_TRAP_ILLEGAL;
    default:
        return insn == INSN_EBREAK ? AM_FAULT_TRAP_EBREAK : AM_FAULT_TRAP_ILLEGAL;
    }
}

static int is_branch(uint32_t insn)
{
    return (insn & 0x7fu) == 0x63 && trap_kind(insn) == AM_FAULT_TRAP_MISALIGNED;
}

/* The cause of a trap, from SYS.RESTART and RESTART_PC (rtl/am_soc.v,
 * "restart"): pc is the core's last instruction fetch. If it did not follow
 * the fetch before it, it was the target of a jump or taken branch to a
 * misaligned address. Else the instruction before it trapped -- unless that
 * one cannot trap and the one before is a conditional branch: then the
 * branch was taken to a misaligned address just past pc (its prefetched
 * successor and the rounded target are both in sequence). */
static uint32_t trap_cause(uint32_t why, uint32_t pc)
{
    if (!(why & SYS_RESTART_SEQ)) return AM_FAULT_TRAP_MISALIGNED;
    if (!(why & SYS_RESTART_IN_RAM) || pc < 4)
        return AM_FAULT_TRAP_ILLEGAL;                /* executing outside RAM */
    pc -= 4;
    uint32_t kind = trap_kind(*(volatile uint32_t *)pc);
    if (kind == TRAP_NONE && pc >= 4 && is_branch(*(volatile uint32_t *)(pc - 4)))
        return AM_FAULT_TRAP_MISALIGNED;
    return kind == TRAP_NONE ? AM_FAULT_TRAP_ILLEGAL : kind;
}

void fw_trap(uint32_t why, uint32_t pc)
{
    /* A watchdog or stack-guard abort: the unit has already aborted the
     * transaction (cause WATCHDOG or STACK, or an earlier fault's) and holds
     * until this acknowledgement; the behavior that ran is abandoned. Checked first,
     * whatever restarted the core: a trap racing the watchdog finds the
     * transaction gone. */
    uint32_t st = AU(AU_STATUS);
    if (st & AU_STATUS_WD_HOLD) {
        AU(AU_WATCHDOG) = FW_WATCHDOG_CYCLES;
        return;
    }
    uint32_t kind = why & SYS_RESTART_KIND;
    if (kind == SYS_RESTART_KIND_WATCHDOG) return;   /* acknowledged at an earlier restart */
    /* The stack guard stopped a store while no transaction was open (in one,
     * the unit aborted it with STACK and holds: handled above) */
    if (why & SYS_RESTART_STACK) {
        fw_puts("firmware: a store below the stack outside a behavior\n");
        fw_halt(FW_HALT_PANIC);
    }

    /* A behavior runs exactly while a transaction is open (between the SELF
     * read and the COMMIT): a trap anywhere else is a firmware bug. */
    if (!(st & AU_STATUS_EVENT)) {
        fw_puts("firmware: trap outside a behavior\n");
        fw_halt(FW_HALT_PANIC);
    }
    uint32_t cause = kind == SYS_RESTART_KIND_TRAP ? trap_cause(why, pc) : AM_FAULT_TRAP_BUS;
    AU(AU_ABORT_C(cause)) = 0;
}

/* ---- built-in behaviors (ids 0..2), as the host runtime has them ---------- */

/* The host link is on (docs/link.md): console output and ask replies leave
 * as frames. Set at boot (fw_link_init, from SYS.LINK), never by traffic.
 * An image built with FW_LINK=0 (a board with no room for the link) has no
 * framing code and ignores it. */
#define LINK_ON (FW_LINK && fw_link_on != 0)
uint32_t fw_link_on;

static __attribute__((noinline)) void fw_put(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    while (n--) fw_putc((char)*p++);
}

/* The shared console (lib/am_console.c): the same bytes as the host's. */
void fw_console_beh(am_ctx *ctx) { am_console_run(ctx, LINK_ON, fw_put, 0); }

void fw_sink_beh(am_ctx *ctx) { (void)ctx; }

/* On the host this is also the one-shot customer of am_ask; here it is the
 * link's ask proxy (state [0, seq]), which frames its message back when the
 * link is on, and, like every ASK actor, becomes a sink. */
void fw_ask_beh(am_ctx *ctx)
{
    am_link_proxy_run(ctx, LINK_ON, fw_put, 0);
    am_become(ctx, AM_BEH_SINK, 0, 0);
}
