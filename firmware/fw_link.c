/*
 * fw_link.c — the firmware's binding of the host link's service
 * (lib/am_link_service.h, docs/link.md): the service's operations over the
 * actor unit's registers and the UART, fed from the UART's receive FIFO at
 * the dispatch point's DEVICE entry, and the loader.
 *
 * Where it runs: between two transactions only -- the DEVICE entry (a byte
 * waits in the FIFO: SYS.DEVICES.RX), and the IDLE entry while the link is
 * on. No transaction is open then, so INJECT, SPAWN, UNPIN and the console's
 * state words through STATE (its export table) are the unit's between-
 * transaction operations, each a trace record the simulator's lockstep
 * checker replays on the reference runtime at the same boundary. No
 * watchdog runs here: a turn takes at most two frames, and the unit
 * dispatches an event before the next turn, so behaviors and the host take
 * turns.
 *
 * Its state lives in the link area at the top of RAM (firmware/link.ld),
 * above the stack guard's limit: .bss is read-only after boot for all code.
 *
 * The loader: LOAD chunks go to the load buffer (below the link area);
 * START checks the image there (magic, size, CRC-32, boot behavior, the RAM
 * it needs) and, once its ACK has left, the machine reboots into it: the
 * copy routine (crt0.S) is put into the link area with the image's address
 * and size, SYS.REBOOT restarts the core there with the stack guard off, it
 * copies the image to 0 and reboots again; the new image boots as at
 * power-on (RESTART.LOADED: its own boot behavior). Until a good image is
 * complete, the running program is untouched.
 */
#include "am_link_service.h"
#include "fw.h"
#include "fw_image.h"

#if FW_LINK

/* What one DEVICE turn takes from the FIFO at most: two frames, so that a
 * host faster than the actors fills the event queue (one event is
 * dispatched between two turns) and is answered BUSY, never starves them;
 * and FW_LINK_TURN bytes, so that garbage cannot hold the core either. */
#define FW_LINK_TURN 160u
#define FW_LINK_TURN_FRAMES 2u
/* the link area (firmware/link.ld, fw.mk's FW_LINK_AREA) */
#define FW_LINK_AREA_BYTES 512u

extern const uint32_t fw_copy_stub[], fw_copy_stub_end[];

typedef struct fw_link_state {
    am_link_svc svc;
    uint32_t reboot;        /* an image of this many bytes is to run: reboot once the ACK is out */
    uint32_t stop;          /* SHUTDOWN: halt once the ACK is out */
    uint32_t hold_rounds;   /* the boot's hold (link_held): rounds left to start */
    uint32_t hold_turns;    /* ... and DEVICE turns left to pass in this round */
    uint32_t stub[32];      /* the image's address and size, then the copy routine */
} fw_link_state;
_Static_assert(sizeof(fw_link_state) <= FW_LINK_AREA_BYTES, "the link's state fits its area (fw.mk FW_LINK_AREA)");

/* the link area is word-aligned (link.ld): declared so, the compiler reaches
 * the state's words with one load or store each, not four byte accesses */
extern fw_link_state __link_area[];
extern char __load_buf[], __load_max[];
#define LS (&__link_area[0])
#define LOAD_MAX ((uint32_t)(uintptr_t)__load_max)

static void op_put(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    while (n--) UART(UART_TXDATA) = *p++;
}

/* EXT_STATUS: 0 OK, 1 BUSY, 2 TABLE_FULL, 3 QUEUE_FULL, 4 BAD_REF, 5 BAD_ARG */
static int op_inject(void *user, am_ref to, uint32_t n, const am_word *w)
{
    (void)user;
    for (uint32_t i = 0; i < n; i++) AU(AU_MSG_W(i)) = w[i];
    AU(AU_INJECT_N(n)) = to;
    switch (AU(AU_EXT_STATUS)) {
    case 0:  return AM_LINK_OK;
    case 4:  return AM_LINK_E_NOT_EXPORTED;   /* not a live actor */
    case 5:  return AM_LINK_E_BAD_LENGTH;
    default: return AM_LINK_E_BUSY;           /* the queue is full */
    }
}

/* The ask's proxy: spawned (live at once) and unpinned, so that nothing but
 * the request keeps it alive -- as am_spawn + am_unpin on the host. A SPAWN
 * that finds no slot collects (COLLECT: the unit runs a collection if a
 * transaction or UNPIN came since the last one; the bus waits for it) and
 * tries once more, as am_spawn does: garbage never makes an ask BUSY. */
static am_ref spawn_proxy(uint32_t seq)
{
    AU(AU_NEW_STATE_W(0)) = 0;
    AU(AU_NEW_STATE_W(1)) = seq;
    AU(AU_SPAWN_N(2)) = AM_BEH_ASK;
    return AU(AU_EXT_STATUS) == 0 ? AU(AU_NEW_REF) : AM_NIL;
}

static int op_spawn_proxy(void *user, uint32_t seq, am_ref *proxy)
{
    (void)user;
    am_ref r = spawn_proxy(seq);
    if (r == AM_NIL && AU(AU_EXT_STATUS) == 2) {   /* TABLE_FULL */
        AU(AU_COLLECT) = 1;
        r = spawn_proxy(seq);
    }
    if (r == AM_NIL) return AM_LINK_E_BUSY;
    AU(AU_UNPIN) = r;
    *proxy = r;
    return AM_LINK_OK;
}

/* Between transactions STATE reads the console's state: the export table. */
static am_ref op_exported(void *user, uint32_t name)
{
    (void)user;
    return name < AM_EXPORT_MAX ? AU(AU_STATE_W(name)) : AM_NIL;
}

static void op_counters(void *user, am_word *out)
{
    (void)user;
    static const uint16_t regs[] = { AU_DISPATCHES, AU_COMMITS, AU_ABORTS, AU_QUEUED,
                                     AU_QUEUE_HWM, AU_LIVE, AU_GC_RUNS, AU_GC_RECLAIMED };
    uint32_t i = 0;
    for (; i < sizeof regs / sizeof regs[0]; i++) out[i] = AU(regs[i]);
    out[i] = (UART(UART_RXFIFO) & UART_RXFIFO_LOST) >> 16;   /* FIFO_LOST */
}

static int op_load(void *user, uint32_t off, const uint8_t *p, uint32_t n)
{
    (void)user;
    if (off > LOAD_MAX || n > LOAD_MAX - off) return AM_LINK_E_TOO_BIG;
    /* an image whose header says it is bigger is refused at once */
    if (off == 0 && n >= 12 && am_link_get32(p + 4) == AM_IMAGE_MAGIC && am_link_get32(p + 8) > LOAD_MAX)
        return AM_LINK_E_TOO_BIG;
    uint8_t *d = (uint8_t *)__load_buf + off;
    while (n--) *d++ = *p++;
    return AM_LINK_OK;
}

/* A good image (fw_image_check: this RAM's size) runs once START's ACK has
 * left. */
static int op_start(void *user, uint32_t size, uint32_t *problem)
{
    (void)user;
    int r = fw_image_check((const uint8_t *)__load_buf, size, LOAD_MAX, SYS(SYS_RAM_BYTES), problem);
    if (r == AM_LINK_OK) LS->reboot = size;
    return r;
}

static int op_shutdown(void *user)
{
    (void)user;
    LS->stop = 1;
    return AM_LINK_OK;
}

static const am_link_ops ops_run = { op_put, op_inject, op_spawn_proxy, op_exported, op_counters,
                                     op_load, op_start, 0 };
/* the simulator (SYS.LINK.STOP): SHUTDOWN ends the run */
static const am_link_ops ops_stop = { op_put, op_inject, op_spawn_proxy, op_exported, op_counters,
                                      op_load, op_start, op_shutdown };

static void tx_drain(void)
{
    while (UART(UART_STATUS) & 1u) {}
}

/* The received image replaces the running program (see the head). */
static void reboot_into_image(uint32_t size)
{
    uint32_t n = (uint32_t)(fw_copy_stub_end - fw_copy_stub);
    LS->stub[0] = (uint32_t)(uintptr_t)__load_buf;
    LS->stub[1] = size;
    for (uint32_t i = 0; i < n && i + 2 < sizeof LS->stub / 4; i++) LS->stub[i + 2] = fw_copy_stub[i];
    tx_drain();
    SYS(SYS_REBOOT) = (uint32_t)(uintptr_t)&LS->stub[2];
    for (;;) {}
}

/* After a boot the link reads no byte before the boot message and every
 * message the boot turn sent have been delivered (docs/link.md, "When the
 * link answers"): the boot's exports are in place at the first answer.
 * The firmware sees no turn end, and without STATS no dispatch count, so it
 * passes DEVICE turns instead: after one the unit answers the dispatch
 * point with something else -- an event (popped, dead or not), a fault
 * delivery of the event before it (at most one per popped event), or IDLE
 * (the queue is empty) -- so 2 x QUEUED passed turns deliver at least the
 * QUEUED events queued at the start. Two such rounds: the first turn can
 * come before the boot's dispatch (a byte already waiting), and then the
 * first round delivers the boot message, the second what it sent.
 * Bounded: at most 4 x the queue's capacity turns; an empty queue ends it. */
static int link_held(void)
{
    for (;;) {
        if (LS->hold_turns) {
            LS->hold_turns--;
            return 1;
        }
        if (!LS->hold_rounds) return 0;
        LS->hold_rounds--;
        LS->hold_turns = 2u * AU(AU_QUEUED);
    }
}

/* The DEVICE entry: bytes from the FIFO into the service. A START or a
 * SHUTDOWN ends the turn: nothing after them is taken by this program. */
static void fw_link_device(void)
{
    if (link_held()) return;
    uint32_t frames = 0;
    for (uint32_t k = 0; k < FW_LINK_TURN && frames < FW_LINK_TURN_FRAMES && !LS->reboot && !LS->stop;
         k++) {
        uint32_t b = UART(UART_RXDATA);
        if (!(b & 0x100u)) break;
        frames += (uint32_t)am_link_svc_byte(&LS->svc, (uint8_t)b);
    }
    if (LS->reboot) reboot_into_image(LS->reboot);
    if (LS->stop) {
        tx_drain();
        fw_halt(FW_HALT_STOPPED);
    }
}

/* The IDLE entry with the link on: nothing to dispatch until the host
 * sends something; the dispatch point then answers DEVICE. */
void fw_link_idle(void)
{
    while (!(UART(UART_STATUS) & 2u)) {}
}

/* The UART at the link's divider and the service started: with the
 * binding stop where SHUTDOWN may stop the machine (SYS.LINK.STOP: the
 * simulator), else run. */
static void link_start(const am_link_ops *run, const am_link_ops *stop)
{
    uint32_t cfg = SYS(SYS_LINK);
    if (cfg & SYS_LINK_DIV) UART(UART_DIV) = (cfg & SYS_LINK_DIV) >> SYS_LINK_DIV_LSB;
    LS->reboot = LS->stop = LS->hold_rounds = LS->hold_turns = 0;
    am_link_svc_init(&LS->svc, (cfg & SYS_LINK_STOP) ? stop : run, 0);
}

void fw_link_init(void)
{
    fw_link_on = 1;
    link_start(&ops_run, &ops_stop);
    LS->hold_rounds = 2;
    fw_device_fn = fw_link_device;
    SYS(SYS_DEVICES) = SYS_DEVICES_RX;
}

/* ---- the resident loader (FW_LOADER) ----------------------------------------
 * An image of its own for a board whose boot RAM cannot hold the actor
 * kernel and the link's code together (the iCEBreaker's 8 KiB of block RAM
 * that the bitstream initializes; the rest of its RAM is SPRAM, which comes
 * up empty). No program runs: the service answers HELLO, SYNC, STATS and
 * EXPORTS (none), takes LOAD and START as the running firmware does, and
 * refuses SEND and ASK with UNSUPPORTED -- and it says so, in one CONSOLE
 * frame at boot and again before each refusal ("loader: no program ..."),
 * until a good image arrives; then the machine reboots into that image,
 * which has the link. crt0.S's power-on path calls fw_main; a restart
 * (fw_trap) starts the loader again. */
#if FW_LOADER
static am_ref op_none_exported(void *user, uint32_t name)
{
    (void)user; (void)name;
    return AM_NIL;
}

static void op_none_counters(void *user, am_word *out)
{
    (void)user;
    for (uint32_t i = 0; i + 1 < AM_LINK_NMACHINE_STATS; i++) out[i] = 0;
    out[AM_LINK_NMACHINE_STATS - 1] = (UART(UART_RXFIFO) & UART_RXFIFO_LOST) >> 16;   /* FIFO_LOST */
}

/* no inject: SEND and ASK are UNSUPPORTED (lib/am_link_service.h) */
static const am_link_ops ops_loader = { op_put, 0, 0, op_none_exported, op_none_counters,
                                        op_load, op_start, 0 };
/* the simulator (SYS.LINK.STOP): SHUTDOWN ends the run */
static const am_link_ops ops_loader_stop = { op_put, 0, 0, op_none_exported, op_none_counters,
                                             op_load, op_start, op_shutdown };

/* the loader's word to the host: a CONSOLE frame, as a program's console
 * output would be */
static void say_waiting(void)
{
    static const char text[] = "loader: no program; waiting for an image (am-link load, make load)\n";
    uint8_t f[AM_LINK_HDR + sizeof text + AM_LINK_CRC];
    uint32_t n = sizeof text - 1;
    for (uint32_t i = 0; i < n; i++) f[AM_LINK_HDR + i] = (uint8_t)text[i];
    am_link_emit(f, AM_LINK_CONSOLE, 0, n, op_put, 0);
}

void fw_main(void)
{
    link_start(&ops_loader, &ops_loader_stop);
    say_waiting();
    for (;;) {
        uint32_t b = UART(UART_RXDATA);
        if (!(b & 0x100u)) continue;
        /* A SEND or an ASK ends here and will be refused: the line goes
         * before the refusal, so that the am-link waiting for that answer
         * prints it (bytes after the answer it may never read). */
        const am_link_rx *rx = &LS->svc.rx;
        if ((b & 0xFFu) == 0 && rx->len >= AM_LINK_HDR &&
            (rx->buf[0] == AM_LINK_INJECT || rx->buf[0] == AM_LINK_ASK))
            say_waiting();
        am_link_svc_byte(&LS->svc, (uint8_t)b);
        if (LS->reboot) reboot_into_image(LS->reboot);
        if (LS->stop) {
            tx_drain();
            for (;;) SYS(SYS_HALT) = FW_HALT_STOPPED;
        }
    }
}

void fw_trap(uint32_t why, uint32_t pc)
{
    (void)why; (void)pc;
    fw_main();
}
#endif /* FW_LOADER */

#endif /* FW_LINK */
