/*
 * fw_inplace.c — the in-place loader: what a board boots whose RAM holds one
 * image and no room for the link's code beside it (the iCE40-HX8K's 8 KiB;
 * docs/link.md, "Loading"). Built with FW_INPLACE=1 into an image of its own
 * (firmware/fw.mk): word 0 jumps to the loader, which lies at the top of RAM
 * (firmware/inplace.ld); everything below it is free for the image it
 * receives.
 *
 * It serves the loading half of the link's protocol: the same frames and
 * answers as the link service (lib/am_link_service.c), whose code with its
 * operations (~4 KB) would leave the image too little RAM. What it shares:
 * the wire's definitions, the receiving decoder (am_link_rx_byte) and the
 * CRC, bit at a time (AM_LINK_CRC_SMALL; lib/am_link_wire.c), and the rule
 * for a good image (fw_image_check, as the link's loader). Its own: the
 * request handling below, and an encoder for its frames, all shorter than
 * a COBS block (112 bytes less than the general am_link_emit):
 *
 *   HELLO, SYNC, STATS, EXPORTS   answered (nothing exported; the machine's
 *                                 counters 0 but FIFO_LOST: no program runs)
 *   LOAD                          written in place, straight to its address
 *   START                         the image checked where it lies, then run
 *   SEND, ASK                     UNSUPPORTED, after a console line that says
 *                                 the machine waits for an image
 *   SHUTDOWN                      where SYS.LINK.STOP allows it (the simulator)
 *
 * Word 0 -- the jump that brings a restart back here -- is the one word of
 * the image not written at once: the loader keeps it until START, puts it in
 * place for the check and takes it back out if the image is refused. So a
 * restart of the core (a trap; or a reset, on a board with a button) during
 * a load, or after a refused image, finds the loader again, never half an
 * image.
 *
 * A good image's ACK carries a second word, AM_LINK_STARTED_NO_LINK: the
 * program runs without the link (its console is plain text, at the link's
 * baud), so the host sends no SYNC after it. The program runs until the
 * board is reconfigured, which boots this loader again (the HX8K has no
 * reset button).
 *
 * Duplicates: the host loads one chunk at a time (am_link_load), so the
 * loader remembers only the last request it carried out; its retry gets the
 * ACK again and nothing is written twice out of order.
 */
#include "fw.h"
#include "fw_image.h"

#if FW_INPLACE

/* inplace.ld: the RAM's first word, the loader's first byte (the largest
 * image), the top of the RAM (what an image's stack may use) */
extern uint32_t __ram[];
extern uint8_t __load_max[], __ram_top[];
#define LOAD_MAX ((uint32_t)(uintptr_t)__load_max)
#define RAM_TOP ((uint32_t)(uintptr_t)__ram_top)
#define WORD0 (*(volatile uint32_t *)__ram)

_Static_assert(AM_LINK_S_RX_MALFORMED == AM_LINK_S_RX_CRC + AM_LINK_RX_MALFORMED - AM_LINK_RX_CRC &&
               AM_LINK_S_RX_OVERSIZE == AM_LINK_S_RX_CRC + AM_LINK_RX_OVERSIZE - AM_LINK_RX_CRC,
               "a drop counter per receive result, in order");

#define IN_BYTES (AM_LINK_HDR + AM_LINK_IN_MAX + AM_LINK_CRC)
#define OUT_BYTES (AM_LINK_HDR + 4u * (1u + AM_LINK_NSTATS) + AM_LINK_CRC)
/* every frame the loader sends is one COBS block: no 0xFF code */
_Static_assert(OUT_BYTES < 254u, "the loader's frames are shorter than a COBS block");

/* The frames as words: a frame's header is one word, so its payload's words
 * are aligned (the core is little-endian, as the wire's words). */
static struct {
    uint32_t in[IN_BYTES / 4];       /* the frame being received, decoded */
    uint32_t out[OUT_BYTES / 4];     /* the frame being sent */
    am_link_rx rx;                   /* the shared decoder, into in */
    uint32_t jump0;                  /* word 0 as the loader found it: the jump here */
    uint32_t word0;                  /* the image's word 0, held until START */
    uint32_t next;                   /* the image offset expected next */
    uint32_t reported;               /* the consumed count last sent */
    uint32_t last;                   /* the last request carried out: seq << 8 | type (0: none) */
    am_word st[AM_LINK_NSERVICE_STATS_];
} L;

#define ST(name) (L.st[AM_LINK_S_##name])
/* word i of the answer being built (after the consumed count) */
#define OUT(i) (L.out[2u + (i)])

static void put(uint32_t b)
{
    UART(UART_TXDATA) = b;
}

/* Send L.out as a frame of n payload bytes: header, CRC, COBS (one block
 * per 0x00: no frame here reaches 254 bytes, so no 0xFF block), the
 * delimiter. */
static void emit(uint32_t type, uint32_t seq, uint32_t n)
{
    uint8_t *f = (uint8_t *)L.out;
    L.out[0] = type | seq << 16;
    n += AM_LINK_HDR;
    am_link_put32(f + n, am_crc32(0, f, n));
    n += AM_LINK_CRC;
    for (uint32_t i = 0;; i++) {
        uint32_t j = i;
        while (j < n && f[j]) j++;
        put(j - i + 1);
        for (; i < j; i++) put(f[i]);
        if (j == n) break;
    }
    put(0);
}

/* A service frame [consumed, the n words set with OUT]. */
static void answer(uint32_t type, uint32_t seq, uint32_t n)
{
    L.out[1] = L.reported = ST(RX_BYTES);
    emit(type, seq, 4u + 4u * n);
    ST(TX_FRAMES)++;
}

static void refuse(uint32_t seq, uint32_t code, uint32_t detail)
{
    ST(REFUSED)++;
    L.st[AM_LINK_S_E_NOT_EXPORTED + code - AM_LINK_E_NOT_EXPORTED]++;
    OUT(0) = code;
    OUT(1) = detail;
    answer(AM_LINK_ERROR, seq, 2);
}

/* the loader's word to the host, as a program's console output would be */
static void say_waiting(void)
{
    static const char text[] = "loader: no program; waiting for an image (am-link load, make load)\n";
    for (uint32_t i = 0; i < sizeof text - 1; i++) ((uint8_t *)L.out)[AM_LINK_HDR + i] = (uint8_t)text[i];
    emit(AM_LINK_CONSOLE, 0, sizeof text - 1);   /* console output: not the service's TX_FRAMES */
}

/* LOAD [offset, bytes]: L.in[1] the offset, the bytes from L.in[2] */
static int load(uint32_t len)
{
    if (len < 4) return AM_LINK_E_BAD_LENGTH;
    uint32_t off = L.in[1], n = len - 4;
    if (off != 0 && off != L.next) return AM_LINK_E_LOAD_ORDER;
    if (off > LOAD_MAX || n > LOAD_MAX - off) return AM_LINK_E_TOO_BIG;
    /* an image whose header says it is bigger is refused at once */
    if (off == 0 && n >= 12 && L.in[3] == AM_IMAGE_MAGIC && L.in[4] > LOAD_MAX) return AM_LINK_E_TOO_BIG;
    const uint8_t *p = (const uint8_t *)&L.in[2];
    for (uint32_t i = 0; i < n; i++, off++) {
        if (off < 4) ((uint8_t *)&L.word0)[off] = p[i];
        else ((uint8_t *)__ram)[off] = p[i];
    }
    L.next = off;
    return AM_LINK_OK;
}

/* START [size]: the image where it lies, its word 0 put back, checked as
 * every loader checks one (fw_image_check) -- or word 0 taken out again. */
static int start(uint32_t len, uint32_t *problem)
{
    if (len != 4) return AM_LINK_E_BAD_LENGTH;
    uint32_t size = L.in[1], next = L.next;
    L.next = 0;   /* whatever comes of it, the next image starts at 0 */
    if (size != next) return AM_LINK_E_LOAD_ORDER;
    WORD0 = L.word0;
    int r = fw_image_check((const uint8_t *)__ram, size, LOAD_MAX, RAM_TOP, problem);
    if (r != AM_LINK_OK) WORD0 = L.jump0;
    return r;
}

/* A good frame of len payload bytes in L.in. */
static void handle(uint32_t len)
{
    uint32_t type = L.in[0] & 0xFFu, seq = L.in[0] >> 16, detail = 0, n = 0;
    int r;

    if (type == AM_LINK_HELLO || type == AM_LINK_SYNC || type == AM_LINK_STATS || type == AM_LINK_EXPORTS_Q) {
        if (len != 0) {
            refuse(seq, AM_LINK_E_BAD_LENGTH, 0);
            return;
        }
        ST(ANSWERED)++;
        if (type == AM_LINK_HELLO) {
            /* window 1: the loader remembers only its last request (L.last),
             * so a host must not have a second one unanswered -- a retry of
             * an older one would be carried out again */
            static const uint32_t hello[5] = { AM_LINK_VERSION, AM_LINK_RX_FIFO, AM_LINK_IN_MAX,
                                               1, AM_EXPORT_MAX };
            L.next = L.last = 0;
            for (; n < 5; n++) OUT(n) = hello[n];
            type = AM_LINK_HELLO_R;
        } else if (type == AM_LINK_SYNC) {
            type = AM_LINK_CREDIT;
        } else if (type == AM_LINK_STATS) {
            /* the service's counters, then the machine's: no program runs,
             * so all 0 but the FIFO's lost bytes */
            for (; n < AM_LINK_NSTATS; n++) OUT(n) = n < AM_LINK_NSERVICE_STATS_ ? L.st[n] : 0;
            OUT(n - 1) = (UART(UART_RXFIFO) & UART_RXFIFO_LOST) >> 16;
            type = AM_LINK_STATS_R;
        } else {
            for (; n < AM_EXPORT_MAX; n++) OUT(n) = AM_NIL;   /* nothing exported */
            type = AM_LINK_EXPORTS_R;
        }
        answer(type, seq, n);
        return;
    }
    if ((seq << 8 | type) == L.last) {
        ST(DUPLICATE)++;
        answer(AM_LINK_ACK, seq, 0);
        return;
    }
    if (type == AM_LINK_INJECT || type == AM_LINK_ASK) {
        say_waiting();
        r = AM_LINK_E_UNSUPPORTED;
    } else if (type == AM_LINK_LOAD) {
        r = load(len);
    } else if (type == AM_LINK_START) {
        r = start(len, &detail);
    } else if (type == AM_LINK_SHUTDOWN) {
        r = len != 0 ? AM_LINK_E_BAD_LENGTH
            : (SYS(SYS_LINK) & SYS_LINK_STOP) ? AM_LINK_OK : AM_LINK_E_UNSUPPORTED;
    } else {
        r = AM_LINK_E_UNKNOWN_TYPE;
    }
    if (r != AM_LINK_OK) {
        refuse(seq, (uint32_t)r, detail);
        return;
    }
    L.last = seq << 8 | type;
    ST(ACKED)++;
    if (type == AM_LINK_START) {
        ST(LOADED)++;
        OUT(0) = AM_LINK_STARTED_NO_LINK;
        n = 1;
    }
    answer(AM_LINK_ACK, seq, n);
    if (type == AM_LINK_START || type == AM_LINK_SHUTDOWN) {
        while (UART(UART_STATUS) & 1u) {}   /* the ACK out on the line */
        if (type == AM_LINK_SHUTDOWN) for (;;) SYS(SYS_HALT) = FW_HALT_STOPPED;
        SYS(SYS_REBOOT) = 0;   /* the image at 0 boots, RESTART.LOADED */
        for (;;) {}
    }
}

/* One byte from the host, decoded by the shared codec (am_link_rx_byte);
 * at the delimiter the frame is counted once and handled or dropped. */
static void byte(uint32_t b)
{
    int r = am_link_rx_byte(&L.rx, (uint8_t)b);
    if (r == AM_LINK_RX_MORE) return;
    ST(RX_FRAMES)++;
    if (r == AM_LINK_RX_FRAME) {
        ST(RX_OK)++;
        handle(am_link_rx_len(&L.rx));
    } else {
        L.st[AM_LINK_S_RX_CRC + (uint32_t)(r - AM_LINK_RX_CRC)]++;
    }
}

/* Power-on and every restart (inplace.S): the loader afresh. */
void fw_inplace_main(void)
{
    uint32_t cfg = SYS(SYS_LINK);
    if (cfg & SYS_LINK_DIV) UART(UART_DIV) = (cfg & SYS_LINK_DIV) >> SYS_LINK_DIV_LSB;
    L.jump0 = WORD0;
    am_link_rx_init(&L.rx, (uint8_t *)L.in, sizeof L.in);
    say_waiting();
    for (;;) {
        uint32_t b = UART(UART_RXDATA);
        if (!(b & 0x100u)) continue;
        ST(RX_BYTES)++;   /* consumed: the answers to its frame count it */
        byte(b & 0xFFu);
        if (ST(RX_BYTES) - L.reported >= AM_LINK_CREDIT_STEP) answer(AM_LINK_CREDIT, 0, 0);
    }
}

#endif /* FW_INPLACE */
