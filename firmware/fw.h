/*
 * fw.h — the firmware's internal interfaces: the actor unit's and the SoC's
 * registers (docs/actor-unit.md, docs/architecture.md), the behavior table,
 * the built-in behaviors and the entry points shared with crt0.S.
 */
#ifndef FW_H
#define FW_H

#include <stdint.h>

#include "am.h"

/* ---- memory map ----------------------------------------------------------- */
#define FW_AU_BASE   0x10000000u
#define FW_UART_BASE 0x20000000u
#define FW_SYS_BASE  0x30000000u

#define FW_REG(base, off) (*(volatile uint32_t *)((base) + (off)))
#define AU(off)   FW_REG(FW_AU_BASE, off)
#define UART(off) FW_REG(FW_UART_BASE, off)
#define SYS(off)  FW_REG(FW_SYS_BASE, off)

/* actor unit registers (offsets) */
#define AU_STATUS      0x000u
#define AU_CTRL        0x004u
#define AU_BEH_COUNT   0x008u
#define AU_EXT_STATUS  0x00Cu
#define AU_NEW_REF     0x010u
#define AU_WATCHDOG    0x01Cu   /* RW: cycle budget per transaction; a write acknowledges a watchdog abort */
#define AU_SELF        0x020u
#define AU_F_CAUSE     0x030u   /* fault info of a fault delivery (0: not one) */
#define AU_F_CODE      0x034u
#define AU_F_TARGET    0x038u
#define AU_F_BEH       0x03Cu
#define AU_F_OP        0x2CCu   /* ... the operation that failed (enum am_fault_op) */
#define AU_F_VALUE     0x2D0u   /* ... the offending value (docs/semantics.md) */
#define AU_BEH         0x024u
#define AU_MSG_LEN     0x028u
#define AU_SEQ         0x02Cu
#define AU_MSG(i)      (0x040u + 4u * (i))   /* R: message word; W: SEND_W[i] */
#define AU_STATE(i)    (0x060u + 4u * (i))   /* R: state word;   W: BECOME_W[i] */
#define AU_NEW_STATE(i) (0x080u + 4u * (i))
#define AU_SEND(n)     (0x0C0u + 4u * (n))
#define AU_CREATE(n)   (0x100u + 4u * (n))
#define AU_BECOME(n)   (0x140u + 4u * (n))
#define AU_INJECT(n)   (0x180u + 4u * (n))
#define AU_SPAWN(n)    (0x1C0u + 4u * (n))
#define AU_COMMIT      0x200u
#define AU_ABORT(c)    (0x240u + 4u * (c))
#define AU_CYCLES      0x280u
#define AU_DISPATCHES  0x284u
#define AU_COMMITS     0x288u
#define AU_ABORTS      0x28Cu
#define AU_FAULTS      0x290u
#define AU_QUEUE_HWM   0x294u
#define AU_LIVE        0x298u
#define AU_FAULT_HANDLER 0x2A0u /* RW: the fault handler (reset: the console) */
#define AU_FREE_SLOTS  0x2A8u   /* R: free actor slots */
#define AU_GC_LOW      0x2B0u   /* RW: collect when fewer slots are free (reset MAX_CREATES) */
#define AU_GC_PERIOD   0x2B4u   /* RW: collect every N dispatches (reset 1024; 0 off) */
#define AU_GC_RUNS     0x2B8u
#define AU_GC_RECLAIMED 0x2BCu
#define AU_GC_CYCLES   0x2C0u
#define AU_GC_MAX_PAUSE 0x2C4u
#define AU_GC_LIVE_MAX 0x2C8u
#define AU_SET_HANDLER 0x2A4u   /* W: stage a new fault handler */

#define AU_CTRL_RUN    1u
#define AU_STATUS_EVENT 1u    /* a transaction is open */
#define AU_STATUS_WD_HOLD 16u /* a watchdog abort awaits acknowledgement */

/* Cycles a behavior may run before the unit aborts it (WATCHDOG). Generous:
 * on a board the console alone may wait ~70,000 cycles for the UART. */
#ifndef FW_WATCHDOG_CYCLES
#define FW_WATCHDOG_CYCLES 1000000u
#endif
#define AU_WORDS       8u     /* MSG_WORDS = STATE_WORDS of the unit */
#define AU_LEN_MAX     15u    /* largest length the address can encode */

/* UART registers */
#define UART_TXDATA    0x0u

/* SYS registers */
#define SYS_BOOT_BEH   0x0u
#define SYS_HALT       0x4u
#define SYS_RAM_BYTES  0x8u
#define SYS_REPORT     0xCu   /* W: one word of the end-of-run report */
#define SYS_BOOT_ARG   0x10u  /* R: the boot message's word (0: empty message) */
#define SYS_GC_CONFIG  0x14u  /* R: bit 31: set GC_LOW = 23:16, GC_PERIOD = 15:0 */
#define SYS_RESTART    0x18u  /* R: why the core was restarted (crt0.S) */
#define SYS_RESTART_PC 0x1Cu  /* R: the core's last instruction fetch before it */
#define SYS_RESTART_KIND     3u   /* bits 1:0: */
#define SYS_RESTART_TRAP     1u   /* the core trapped */
#define SYS_RESTART_BUS      2u   /* a bus error */
#define SYS_RESTART_WATCHDOG 3u   /* the unit's watchdog aborted the transaction */
#define SYS_RESTART_SEQ      4u   /* that fetch followed the one before it (+4) */
#define SYS_RESTART_IN_RAM   8u   /* that fetch was in RAM */
#define SYS_RESTART_STACK   16u   /* the bus error was a store the stack guard stopped */
#define SYS_STACK_LIMIT 0x20u     /* W once: stores below it fault STACK (rtl/am_soc.v) */

/* The image header (crt0.S, docs/programs.md): word indices. */
extern const uint32_t fw_image_header[];
#define FW_HDR_BOOT    6u
#define FW_HDR_BSS_END 9u   /* the stack has RAM from here to the top */

/* halt codes */
#define FW_HALT_OK          0u
#define FW_HALT_BOOT_FAILED 1u
#define FW_HALT_PANIC       2u   /* a trap outside any behavior */

/* ---- behaviors -------------------------------------------------------------- */
extern const am_behavior_fn fw_behaviors[];
extern const uint32_t fw_nbehaviors;
void fw_console_beh(am_ctx *ctx);
void fw_sink_beh(am_ctx *ctx);
void fw_ask_beh(am_ctx *ctx);

/* ---- entry points ------------------------------------------------------------- */
void fw_main(void);
void fw_loop(void) __attribute__((noreturn));      /* the dispatch loop */
void fw_restart(void) __attribute__((noreturn));   /* crt0: fresh stack, fw_loop */
void fw_trap(uint32_t why, uint32_t pc);           /* crt0 calls it after a restart */
void fw_putc(char c);
void fw_puts(const char *s);
void fw_halt(uint32_t code) __attribute__((noreturn));

#endif /* FW_H */
