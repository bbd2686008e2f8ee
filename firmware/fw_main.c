/*
 * fw_main.c — boot, the dispatch loop, the trap handler and the built-in
 * behaviors of the firmware (docs/firmware.md).
 *
 * Boot: tell the unit how many behaviors exist, SPAWN the boot actor
 * (behavior SYS.BOOT_BEH, empty state), INJECT one message to it ([] or
 * [SYS.BOOT_ARG] when that is not 0) and
 * start dispatching -- the same steps am-run and the lockstep checker take
 * on the reference runtime.
 *
 * The loop: read SELF (the read waits while the unit dispatches; 0 means the
 * queue drained), call the behavior, COMMIT. Faults of the staging rules are
 * the unit's business; traps inside a behavior come back through fw_trap(),
 * which aborts and resumes the loop on a fresh stack.
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

/* No event (SELF read 0): the run is over -- unless the watchdog holds
 * dispatch; then its interrupt, taken at once, acknowledges and we go on.
 * (Not reached in practice: the interrupt comes before the SELF read.)
 * Out of line, so the dispatch loop below stays as short as before. */
static void __attribute__((noinline, cold)) fw_no_event(void)
{
    if (!(AU(AU_STATUS) & AU_STATUS_WD_HOLD)) fw_halt(FW_HALT_OK);
}

void fw_loop(void)
{
    for (;;) {
        while (AU(AU_SELF) != AM_NIL) {     /* waits for the next event */
            am_beh beh = AU(AU_BEH);       /* < BEH_COUNT: checked by the unit */
            fw_behaviors[beh]((am_ctx *)0);
            AU(AU_COMMIT) = 0;
        }
        fw_no_event();
    }
}

void fw_main(void)
{
    AU(AU_BEH_COUNT) = fw_nbehaviors;
    AU(AU_WATCHDOG) = FW_WATCHDOG_CYCLES;
    uint32_t gc = SYS(SYS_GC_CONFIG);      /* the testbench's collector settings */
    if (gc >> 31) {
        AU(AU_GC_LOW) = (gc >> 16) & 0xffu;
        AU(AU_GC_PERIOD) = gc & 0xffffu;
    }
    AU(AU_SPAWN(0)) = SYS(SYS_BOOT_BEH);
    am_ref boot = AU(AU_NEW_REF);
    if (AU(AU_EXT_STATUS) != 0 || boot == AM_NIL) {
        fw_puts("firmware: cannot spawn the boot actor\n");
        fw_halt(FW_HALT_BOOT_FAILED);
    }
    uint32_t arg = SYS(SYS_BOOT_ARG);
    AU(AU_MSG(0)) = arg;
    AU(AU_INJECT(arg ? 1 : 0)) = boot;
    if (AU(AU_EXT_STATUS) != 0) {
        fw_puts("firmware: cannot inject the boot message\n");
        fw_halt(FW_HALT_BOOT_FAILED);
    }
    AU(AU_CTRL) = AU_CTRL_RUN;
    fw_loop();
}

/* IRQ bits as the SoC wires them (rtl/am_soc.v): 1 illegal instruction,
 * ebreak or ecall (PicoRV32); 2 misaligned access (PicoRV32); 3 bus error;
 * 4 the unit's watchdog. */
#define IRQ_ILLEGAL_OR_EBREAK (1u << 1)
#define IRQ_MISALIGNED        (1u << 2)
#define IRQ_BUS_ERROR         (1u << 3)
#define IRQ_WATCHDOG          (1u << 4)
#define INSN_EBREAK 0x00100073u

void fw_trap(uint32_t irqs, uint32_t pc)
{
    uint32_t cause;
    if (irqs & IRQ_WATCHDOG) {
        /* The unit has already aborted the transaction (cause WATCHDOG, or an
         * earlier fault's) and waits for this acknowledgement; we abandon the
         * behavior that was running. */
        AU(AU_WATCHDOG) = FW_WATCHDOG_CYCLES;
        return;
    }
    if (irqs & IRQ_BUS_ERROR)
        cause = AM_FAULT_TRAP_BUS;
    else if (irqs & IRQ_MISALIGNED)
        cause = AM_FAULT_TRAP_MISALIGNED;
    else if ((irqs & IRQ_ILLEGAL_OR_EBREAK) && (pc & 3u) == 0 && pc >= 4 &&
             pc <= SYS(SYS_RAM_BYTES) && *(volatile uint32_t *)(pc - 4) == INSN_EBREAK)
        cause = AM_FAULT_TRAP_EBREAK;
    else
        cause = AM_FAULT_TRAP_ILLEGAL;

    /* A behavior runs exactly while a transaction is open (between the SELF
     * read and the COMMIT): a trap anywhere else is a firmware bug. */
    uint32_t st = AU(AU_STATUS);
    if (!(st & AU_STATUS_EVENT)) {
        /* the watchdog aborted the transaction while this trap was on its
         * way: its interrupt (pending, taken after RETIRQ) acknowledges */
        if (st & AU_STATUS_WD_HOLD) return;
        fw_puts("firmware: trap outside a behavior\n");
        fw_halt(FW_HALT_PANIC);
    }
    AU(AU_ABORT(cause)) = 0;
}

/* ---- built-in behaviors (ids 0..2), as the host runtime has them ---------- */

void fw_console_beh(am_ctx *ctx)
{
    am_word msg[AU_WORDS];
    char buf[AM_CONSOLE_LINE_MAX];
    uint32_t len = am_msg_len(ctx);
    for (uint32_t i = 0; i < AU_WORDS; i++) msg[i] = am_msg(ctx, i);
    am_fault_info f;
    uint32_t n = am_fault(ctx, &f) ? am_console_format_fault(&f, len, msg, buf)
                                   : am_console_format(len, msg, buf);
    for (uint32_t i = 0; i < n; i++) fw_putc(buf[i]);
}

void fw_sink_beh(am_ctx *ctx) { (void)ctx; }

/* On the host this is the one-shot customer of am_ask; the firmware has no
 * asker, so it only does what the host's does to the actor: become a sink. */
void fw_ask_beh(am_ctx *ctx) { am_become(ctx, AM_BEH_SINK, 0, 0); }
