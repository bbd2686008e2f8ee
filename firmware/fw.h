/*
 * fw.h — the firmware's internal interfaces: the actor unit's and the SoC's
 * registers (docs/actor-unit.md, docs/architecture.md), the behavior table,
 * the built-in behaviors and the entry points shared with crt0.S.
 */
#ifndef FW_H
#define FW_H

#include <stdint.h>

#include "am.h"
#include "am_iface.h"

/* ---- memory map and registers: include/am_iface.def (am_iface.h: AU_*,
 * UART_*, SYS_* offsets, <REG>_<FIELD> masks) ------------------------------ */
#define FW_REG(base, off) (*(volatile uint32_t *)((base) + (off)))
#define AU(off)   FW_REG(AU_BASE, off)
#define UART(off) FW_REG(UART_BASE, off)
#define SYS(off)  FW_REG(SYS_BASE, off)

/* the n-th word of an array register */
#define AU_MSG_W(i)      (AU_MSG + 4u * (i))   /* R: message word; W: SEND_W[i] */
#define AU_STATE_W(i)    (AU_STATE + 4u * (i)) /* R: state word;   W: BECOME_W[i] */
#define AU_NEW_STATE_W(i) (AU_NEW_STATE + 4u * (i))
#define AU_SEND_N(n)     (AU_SEND + 4u * (n))
#define AU_CREATE_N(n)   (AU_CREATE + 4u * (n))
#define AU_BECOME_N(n)   (AU_BECOME + 4u * (n))
#define AU_FORWARD_N(n)  (AU_FORWARD + 4u * (n))
#define AU_INJECT_N(n)   (AU_INJECT + 4u * (n))
#define AU_SPAWN_N(n)    (AU_SPAWN + 4u * (n))
#define AU_ABORT_C(c)    (AU_ABORT + 4u * (c))

/* Cycles a behavior may run before the unit aborts it (WATCHDOG). Generous:
 * on a board the console alone may wait ~70,000 cycles for the UART (and
 * am-sim refuses a link so slow that a console line would not fit). */
#ifndef FW_WATCHDOG_CYCLES
#define FW_WATCHDOG_CYCLES ((uint32_t)AM_DEFAULT_WATCHDOG_CYCLES)
#endif
#define AU_WORDS       AM_DEFAULT_MSG_WORDS   /* MSG_WORDS = STATE_WORDS of the unit */
#define AU_LEN_MAX     15u    /* largest length the address can encode */

/* The image header (crt0.S, docs/programs.md): word indices. */
extern const uint32_t fw_image_header[];
#define FW_HDR_BOOT    6u
#define FW_HDR_STACK_TOP 8u /* the stack's top: the host link's areas above it */
#define FW_HDR_BSS_END 9u   /* the stack has RAM from here to the top */

/* halt codes */
#define FW_HALT_OK          0u
#define FW_HALT_BOOT_FAILED 1u
#define FW_HALT_PANIC       2u   /* a trap outside any behavior */
#define FW_HALT_STOPPED     3u   /* the host link's SHUTDOWN stopped a running machine */

/* ---- behaviors -------------------------------------------------------------- */
/* The dispatch table (fw_table.c, the boards' generated ones): the
 * functions the dispatch point jumps to (rtl/am_unit_dp.v) -- the DEVICE
 * and IDLE routines, then the behaviors by id. SYS.DISPATCH points at
 * behavior 0, fw_behaviors; IDLE is entry -1, DEVICE -2. Read-only data. */
extern const am_behavior_fn fw_dispatch[];
/* Defines the dispatch table, in the section firmware/link.ld aligns. */
#define FW_DISPATCH_TABLE \
    const am_behavior_fn fw_dispatch[] __attribute__((section(".rodata.am_dispatch")))
#define fw_behaviors (fw_dispatch + 2)
/* The table's first five entries: DEVICE, IDLE and the built-in behaviors
 * (ids 0..2). They are the firmware's code, which runs with its rights
 * (rtl/am_soc.v, "privilege"), so the table names their entries in crt0.S
 * (fw_*_entry: a fresh stack, and back to the dispatch point by fw_loop,
 * never by a return address a behavior could have left), not the C
 * functions themselves. */
#define FW_DISPATCH_ENTRIES \
    fw_device_entry, fw_idle_entry, fw_console_entry, fw_sink_entry, fw_ask_entry,
void fw_device_entry(am_ctx *ctx);
void fw_idle_entry(am_ctx *ctx);
void fw_console_entry(am_ctx *ctx);
void fw_sink_entry(am_ctx *ctx);
void fw_ask_entry(am_ctx *ctx);
extern const uint32_t fw_nbehaviors;
void fw_idle(am_ctx *ctx);
void fw_device(am_ctx *ctx);
extern void (*fw_device_fn)(void);   /* serves the DEVICE entry (fw_main.c) */
/* Ends the translation unit of a dispatch table: its behaviors' count. */
#define FW_TABLE_END(tab) const uint32_t fw_nbehaviors = sizeof tab / sizeof tab[0] - 2
void fw_console_beh(am_ctx *ctx);
void fw_sink_beh(am_ctx *ctx);
void fw_ask_beh(am_ctx *ctx);
/* The host link (fw_link.c, docs/link.md). An image built with FW_LINK=0 (a
 * board with no room for it) has no framing code and no service. */
#ifndef FW_LINK
#define FW_LINK 1
#endif
extern uint32_t fw_link_on;                  /* the host link is on (set at boot) */
void fw_link_init(void);                     /* at boot, when SYS.LINK.ON */
void fw_link_idle(void);                     /* the IDLE entry while the link is on */

/* ---- entry points ------------------------------------------------------------- */
void fw_main(void);
void fw_loop(void) __attribute__((noreturn));      /* crt0: to the dispatch point */
void fw_restart(void) __attribute__((noreturn));   /* crt0: fresh stack, fw_loop */
void fw_trap(uint32_t why, uint32_t pc);           /* crt0 calls it after a restart */
void fw_putc(char c);
void fw_puts(const char *s);
void fw_halt(uint32_t code) __attribute__((noreturn));

#endif /* FW_H */
