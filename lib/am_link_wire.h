/*
 * am_link_wire.h — the host link's wire format (docs/link.md): frames, their
 * types, error codes and counters, the CRC-32, the COBS framing, and the
 * frames that behaviors send (console output, ask replies).
 *
 * Target-independent C (no libc, no allocation, fixed buffers): compiled
 * into the reference runtime, the host client, and every firmware image, so
 * that the machine's and the reference runtime's frames are the same bytes.
 * The built-in behaviors that send frames (the console, the ask proxy) are
 * in am_console.h.
 *
 * A frame before framing:
 *
 *   type (1 byte) | flags (1 byte, 0) | seq (2 bytes LE) | payload | CRC-32 (4 bytes LE)
 *
 * the CRC (IEEE, as zlib) over everything before it. On the wire the frame is
 * COBS-encoded (no 0x00 inside) and followed by one 0x00, the delimiter: a
 * receiver that lost its place resynchronizes at the next 0x00.
 */
#ifndef AM_LINK_WIRE_H
#define AM_LINK_WIRE_H

#include <stdint.h>

#include "am.h"
#include "am_iface.h"

#define AM_LINK_VERSION 1u

/* The machine's receive FIFO in bytes (include/am_iface.def: the hardware
 * implements exactly this). The host never has more bytes in flight that
 * the machine has not consumed. */
#define AM_LINK_RX_FIFO AM_DEFAULT_LINK_RX_FIFO

#define AM_LINK_HDR      4u    /* type, flags, seq */
#define AM_LINK_CRC      4u
/* Payload bytes of a frame to the machine (an inject: name + 8 words = 36;
 * a load chunk: offset + AM_LINK_LOAD_CHUNK) and of a frame from it (a
 * console line, AM_CONSOLE_LINE_MAX). A longer frame is dropped whole. */
#define AM_LINK_IN_MAX   64u
#define AM_LINK_OUT_MAX  192u
#define AM_LINK_LOAD_CHUNK 60u
/* Bytes on the wire of a frame of n payload bytes, at most: COBS adds one
 * byte per 254 and one more, then the delimiter. */
#define AM_LINK_WIRE_MAX(n) ((n) + AM_LINK_HDR + AM_LINK_CRC + ((n) + 8u) / 254u + 2u)
/* Requests the host may have unanswered at once (the machine remembers the
 * last AM_LINK_WINDOW acknowledged sequence numbers). */
#define AM_LINK_WINDOW   16u
/* The service reports its consumed count at least every this many bytes. */
#define AM_LINK_CREDIT_STEP 128u
/* Names under which a program exports actors (am_export). */
#define AM_LINK_EXPORTS  AM_EXPORT_MAX

/* Frame types. Bit 7: from the machine; bit 6 as well: sent by a behavior
 * (inside a transaction, compared in lockstep); without it: by the link
 * service, between transactions. */
enum am_link_type {
    /* host -> machine: requests */
    AM_LINK_HELLO    = 0x01,  /* []: start a session -> HELLO_R */
    AM_LINK_INJECT   = 0x02,  /* [name, w0..w(n-1)], n <= 8 -> ACK | ERROR */
    AM_LINK_ASK      = 0x03,  /* [name, w0..w(n-1)], n <= 7 -> ACK | ERROR, then REPLY */
    AM_LINK_STATS    = 0x04,  /* [] -> STATS_R */
    AM_LINK_EXPORTS_Q = 0x05, /* [] -> EXPORTS_R */
    AM_LINK_LOAD     = 0x06,  /* [offset, bytes...] -> ACK | ERROR */
    AM_LINK_START    = 0x07,  /* [size] -> ACK | ERROR */
    AM_LINK_SYNC     = 0x08,  /* [] -> CREDIT (sent whatever the credit) */
    AM_LINK_SHUTDOWN = 0x09,  /* [] -> ACK | ERROR(UNSUPPORTED) */
    /* machine -> host, from the link service; the first payload word is
     * always the machine's consumed byte count (the credit) */
    AM_LINK_ACK      = 0x80,  /* [consumed] */
    AM_LINK_ERROR    = 0x81,  /* [consumed, code, detail] */
    AM_LINK_CREDIT   = 0x82,  /* [consumed] */
    AM_LINK_HELLO_R  = 0x83,  /* [consumed, version, fifo, in_max, window, exports] */
    AM_LINK_STATS_R  = 0x84,  /* [consumed, AM_LINK_NSTATS counters] */
    AM_LINK_EXPORTS_R = 0x85, /* [consumed, ref of name 0..AM_LINK_EXPORTS-1] */
    /* machine -> host, from behaviors */
    AM_LINK_CONSOLE  = 0xC0,  /* console text (seq 0) */
    AM_LINK_REPLY    = 0xC1,  /* [w0..w(n-1)]: an ask's reply, seq = the ask's */
};
/* START's ACK may carry a second word: AM_LINK_STARTED_NO_LINK when the
 * image started runs without the link (the in-place loader's boards: its
 * console is plain text, and nothing answers a SYNC). */
#define AM_LINK_STARTED_NO_LINK 1u
#define AM_LINK_FROM_MACHINE  0x80u
#define AM_LINK_FROM_BEHAVIOR 0x40u

/* Error codes (ERROR's code word). */
#define AM_LINK_ERROR_LIST(X) \
    X(NOT_EXPORTED, 1, "not exported: no live actor under that name") \
    X(BUSY,         2, "machine busy: its event queue (or actor table) is full, try again") \
    X(BAD_LENGTH,   3, "bad length for the frame type") \
    X(UNKNOWN_TYPE, 4, "unknown frame type") \
    X(BAD_IMAGE,    5, "bad image") \
    X(TOO_BIG,      6, "image too big for the machine") \
    X(LOAD_ORDER,   7, "image chunks out of order, or START before the whole image") \
    X(UNSUPPORTED,  8, "this machine does not do that")
enum am_link_error {
    AM_LINK_OK = 0,
#define AM_LINK_X_(name, value, doc) AM_LINK_E_##name = value,
    AM_LINK_ERROR_LIST(AM_LINK_X_)
#undef AM_LINK_X_
    AM_LINK_E_COUNT_
};

/* BAD_IMAGE's detail word: what was wrong. */
#define AM_LINK_IMAGE_LIST(X) \
    X(MAGIC,   1, "no image header (magic)") \
    X(SIZE,    2, "its size disagrees with its header") \
    X(CRC,     3, "CRC mismatch") \
    X(TABLE,   4, "its behavior table is not one this machine has") \
    X(SOURCES, 5, "built from other sources than this machine's copy of its behaviors") \
    X(BOOT,    6, "its boot behavior is not a program's behavior of its table") \
    X(IFACE,   7, "built for another SoC interface (include/am_iface.def): rebuild it from this machine's sources")
enum am_link_image_problem {
#define AM_LINK_X_(name, value, doc) AM_LINK_IMAGE_##name = value,
    AM_LINK_IMAGE_LIST(AM_LINK_X_)
#undef AM_LINK_X_
    AM_LINK_IMAGE_COUNT_
};

/* The link service's counters, STATS_R's words after consumed, in this
 * order. Every frame received is counted once in RX_FRAMES and once in
 * RX_OK, RX_CRC, RX_MALFORMED or RX_OVERSIZE; every RX_OK frame once in
 * ACKED, DUPLICATE, REFUSED or ANSWERED; every REFUSED one once in an E_
 * counter. */
#define AM_LINK_STAT_LIST(X) \
    X(RX_BYTES,        "bytes consumed") \
    X(RX_FRAMES,       "frames received (empty ones between two delimiters are not frames)") \
    X(RX_OK,           "frames with a good CRC") \
    X(RX_CRC,          "dropped: CRC mismatch") \
    X(RX_MALFORMED,    "dropped: broken COBS, or shorter than header + CRC") \
    X(RX_OVERSIZE,     "dropped: longer than a frame to the machine may be") \
    X(ACKED,           "requests carried out (ACK)") \
    X(DUPLICATE,       "retries of acknowledged requests: the ACK again, nothing done twice") \
    X(REFUSED,         "requests refused (ERROR)") \
    X(ANSWERED,        "HELLO, SYNC, STATS, EXPORTS answered") \
    X(E_NOT_EXPORTED,  "refused: not exported") \
    X(E_BUSY,          "refused: busy") \
    X(E_BAD_LENGTH,    "refused: bad length") \
    X(E_UNKNOWN_TYPE,  "refused: unknown type") \
    X(E_BAD_IMAGE,     "refused: bad image") \
    X(E_TOO_BIG,       "refused: image too big") \
    X(E_LOAD_ORDER,    "refused: chunk out of order") \
    X(E_UNSUPPORTED,   "refused: unsupported") \
    X(INJECTED,        "messages injected (INJECT and ASK)") \
    X(LOADED,          "images loaded and started") \
    X(TX_FRAMES,       "frames the service sent")
/* The machine's counters, after the service's (the binding reads them). */
#define AM_LINK_MACHINE_LIST(X) \
    X(DISPATCHES,   "transactions") \
    X(COMMITS,      "commits") \
    X(ABORTS,       "aborts") \
    X(QUEUED,       "events queued now") \
    X(QUEUE_HWM,    "most events queued") \
    X(LIVE,         "live actors") \
    X(GC_RUNS,      "collections") \
    X(GC_RECLAIMED, "actors reclaimed") \
    X(FIFO_LOST,    "bytes the receive FIFO could not take")
enum am_link_stat {
#define AM_LINK_X_(name, doc) AM_LINK_S_##name,
    AM_LINK_STAT_LIST(AM_LINK_X_)
    AM_LINK_NSERVICE_STATS_,
    AM_LINK_MACHINE_BEFORE_ = AM_LINK_NSERVICE_STATS_ - 1,
    AM_LINK_MACHINE_LIST(AM_LINK_X_)
#undef AM_LINK_X_
    AM_LINK_NSTATS
};
#define AM_LINK_NMACHINE_STATS (AM_LINK_NSTATS - AM_LINK_NSERVICE_STATS_)

/* Names for messages and tools: "NOT_EXPORTED", "RX_BYTES", ... ("?" when
 * out of range) and the error's sentence. */
const char *am_link_error_name(uint32_t code);
const char *am_link_error_text(uint32_t code);
const char *am_link_image_text(uint32_t detail);
const char *am_link_stat_name(uint32_t i);

/* ---- CRC-32 (IEEE 802.3, reflected, as zlib's crc32): chainable, start
 * with 0: am_crc32(am_crc32(0, a, n), b, m) == am_crc32(0, a ++ b, n + m) */
uint32_t am_crc32(uint32_t crc, const uint8_t *p, uint32_t n);

static inline uint32_t am_link_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void am_link_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

/* ---- sending: where the bytes go (a UART, a file, a buffer) --------------- */
typedef void (*am_link_put_fn)(void *user, const uint8_t *p, uint32_t n);

/* Send one frame. f holds the payload at f + AM_LINK_HDR (n bytes) and has
 * AM_LINK_CRC bytes of room after it; the header and the CRC are written in
 * place, then COBS and the delimiter go to put (at most
 * AM_LINK_WIRE_MAX(n) bytes, in a few calls). Returns the bytes sent. */
uint32_t am_link_emit(uint8_t *f, uint32_t type, uint32_t seq, uint32_t n, am_link_put_fn put,
                      void *user);

/* ---- receiving: one byte at a time ----------------------------------------- */
typedef struct am_link_rx {
    uint8_t *buf;        /* the decoded frame: header, payload, CRC */
    uint32_t cap;        /* bytes buf holds: AM_LINK_HDR + max payload + AM_LINK_CRC */
    uint32_t len;        /* decoded so far */
    uint32_t frame;      /* bytes of the frame last returned as AM_LINK_RX_FRAME */
    uint8_t left;        /* data bytes left in the current COBS block */
    uint8_t code;        /* the current block's code (0: none yet) */
    uint8_t over;        /* more than cap bytes: dropped at the delimiter */
    uint8_t started;     /* a non-zero byte since the last delimiter */
} am_link_rx;

enum am_link_rx_result {
    AM_LINK_RX_MORE = 0,    /* inside a frame, or an empty one (0x00 0x00) */
    AM_LINK_RX_FRAME,       /* a good frame: am_link_rx_type/seq/payload */
    AM_LINK_RX_CRC,         /* dropped: CRC mismatch */
    AM_LINK_RX_MALFORMED,   /* dropped: a COBS block cut short, or too short */
    AM_LINK_RX_OVERSIZE,    /* dropped: longer than cap */
};

void am_link_rx_init(am_link_rx *rx, uint8_t *buf, uint32_t cap);
int am_link_rx_byte(am_link_rx *rx, uint8_t b);
/* The frame last returned as AM_LINK_RX_FRAME (valid until the next byte). */
static inline uint32_t am_link_rx_type(const am_link_rx *rx) { return rx->buf[0]; }
static inline uint32_t am_link_rx_seq(const am_link_rx *rx) { return rx->buf[2] | (uint32_t)rx->buf[3] << 8; }
static inline const uint8_t *am_link_rx_payload(const am_link_rx *rx) { return rx->buf + AM_LINK_HDR; }
static inline uint32_t am_link_rx_len(const am_link_rx *rx) { return rx->frame - AM_LINK_HDR - AM_LINK_CRC; }

/* ---- images (docs/programs.md, "The image") --------------------------------- */
#define AM_IMAGE_MAGIC 0x31494D41u   /* "AMI1" */
#define AM_IMAGE_HDR_WORDS 12u
#define AM_IMAGE_IFACE_AT  44u       /* the interface's identity (AM_IF_ID) */
typedef struct am_image_info {
    uint32_t bytes, table_hash, nbehaviors, boot, src_hash;
} am_image_info;
/* Check an image's header, size, CRC and interface identity (AM_IFACE_ID,
 * include/am_iface.h): AM_LINK_OK, AM_LINK_E_TOO_BIG (more than max bytes)
 * or AM_LINK_E_BAD_IMAGE with *problem set (AM_LINK_IMAGE_*). The behavior
 * table is the caller's to match. */
int am_image_check(const uint8_t *img, uint32_t n, uint32_t max, am_image_info *info,
                   uint32_t *problem);

#endif /* AM_LINK_WIRE_H */
