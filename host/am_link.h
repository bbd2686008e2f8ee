/*
 * am_link.h — the host's side of the link (docs/link.md): talk to a running
 * actor machine over a serial port (a board, or `am-run --link`'s
 * pseudo-terminal) or a Unix socket. Send messages to exported actors, ask
 * and get the reply, read the counters, load a program image, watch the
 * console.
 *
 * The library keeps the protocol's promises for its caller: it never has
 * more bytes in flight than the machine's receive FIFO (credits), at most
 * AM_LINK_WINDOW requests unanswered, retries a request that got no answer
 * with the same sequence number (the machine recognizes the retry and does
 * not carry it out twice), and resynchronizes its credit (SYNC) when the
 * line has been silent too long. Every call returns AM_LINK_OK or an error
 * code; am_link_strerror turns one into a sentence.
 */
#ifndef AM_LINK_H
#define AM_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "am_link_wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Errors of the host's side, after the machine's (AM_LINK_E_NOT_EXPORTED ..
 * AM_LINK_E_UNSUPPORTED, am_link_wire.h). */
enum am_link_host_error {
    AM_LINK_E_NO_DEVICE = 32,  /* no such port or socket */
    AM_LINK_E_IO,              /* the port could not be opened, read or written (an error
                                * other than AM_LINK_E_GONE) */
    AM_LINK_E_TIMEOUT,         /* no answer from the machine, retries included */
    AM_LINK_E_NO_REPLY,        /* the ask was taken; no reply came in time */
    AM_LINK_E_PROTOCOL,        /* an answer that does not fit the request */
    AM_LINK_E_ARG,             /* a bad argument: too many words, name out of range */
    AM_LINK_E_FILE,            /* an image file that cannot be read */
    AM_LINK_E_IN_USE,          /* another client has the port (or the target's socket) */
    AM_LINK_E_GONE,            /* the port was closed or hung up: the machine went away */
    AM_LINK_E_NOT_PORT,        /* am_link_open's path is no character device (a regular
                                * file, a socket): nothing is written to it */
    AM_LINK_E_NOT_SOCKET,      /* am_link_connect's path is no socket */
    AM_LINK_E_HOST_COUNT_
};
const char *am_link_strerror(int code);

typedef void (*am_link_text_fn)(void *user, const char *text, size_t n);
typedef void (*am_link_reply_fn)(void *user, uint32_t seq, uint32_t n, const am_word *w);

typedef struct am_link_opts {
    uint32_t baud;            /* a serial port's speed (default 115200; a pty ignores it) */
    uint32_t timeout_ms;      /* the wait for an answer, per attempt (default 1000) */
    uint32_t retries;         /* attempts after the first (default 3) */
    uint32_t wait_ms;         /* open: wait this long for the port to appear (default 0) */
    am_link_text_fn on_console;  /* console text from the machine (NULL: dropped) */
    am_link_reply_fn on_reply;   /* replies that match no ask of ours (NULL: dropped) */
    void *user;
    /* when not NULL, receives the link's counters (am_link_host_counters_get)
     * when it is closed, or when opening it failed after the port was open:
     * a session that does not start says whether garbage came back */
    struct am_link_host_counters *counters;
} am_link_opts;
void am_link_opts_default(am_link_opts *o);

typedef struct am_link am_link;

/* Open a serial port (raw, 8N1, the baud rate) -- or a pseudo-terminal --
 * and start a session (HELLO). The port is taken for this link alone (an
 * advisory lock, flock): while it is open, another open of the same port
 * fails with AM_LINK_E_IN_USE, since a line has one reader and a second
 * one would take the first's answers. What the port kept since the last
 * client is read first: its console text and replies go to the callbacks
 * (nothing the machine printed between two clients is lost), the rest,
 * another session's, is dropped. */
int am_link_open(const char *port, const am_link_opts *o, am_link **out);
/* The same over a Unix socket. A target that serves one host at a time
 * turns a second one away (ERROR BUSY with seq 0): AM_LINK_E_IN_USE. */
int am_link_connect(const char *path, const am_link_opts *o, am_link **out);
/* Close the link; a frame half read is read to its end first (up to the
 * timeout), so that the next client does not find half of it. */
void am_link_close(am_link *l);

/* Inject [w0..w(n-1)] (n <= 8) into the actor exported under name; returns
 * once the machine has taken it (ACK) or refused it (BUSY, NOT_EXPORTED,
 * ...). */
int am_link_send(am_link *l, uint32_t name, uint32_t n, const am_word *w);
/* Ask: inject [proxy, w0..w(n-1)] (n <= 7); the reply is the message the
 * proxy receives (at most timeout_ms after the machine took the ask). */
int am_link_ask(am_link *l, uint32_t name, uint32_t n, const am_word *w, uint32_t timeout_ms,
                am_word reply[AM_MAX_MSG_WORDS], uint32_t *reply_len);
/* count messages of n words each (msgs: count * n words) to name, as many
 * in flight as the window and the credit allow; a BUSY one is sent again
 * (same sequence number) until the machine takes it. AM_LINK_OK when all
 * were taken; *busy (may be NULL) counts the BUSY answers. */
int am_link_send_many(am_link *l, uint32_t name, uint32_t count, uint32_t n, const am_word *msgs,
                      uint32_t *busy);
/* The machine's counters: AM_LINK_NSTATS words (am_link_stat_name). */
int am_link_stats(am_link *l, am_word out[AM_LINK_NSTATS]);
/* The export table: the reference under each name (AM_NIL: none). */
int am_link_exports(am_link *l, am_ref out[AM_EXPORT_MAX]);
/* Load an image (docs/programs.md) and start it. A refusal of the image
 * (BAD_IMAGE) says why in *problem (AM_LINK_IMAGE_*; may be NULL). A good
 * image sets it to 0 -- or to AM_LINK_STARTED_NO_LINK when it runs without
 * the link (what the in-place loader loads: the HX8K's), which ends the
 * session: nothing answers any more, the program's console is plain text on
 * the line (at the link's baud). */
int am_link_load(am_link *l, const uint8_t *img, uint32_t n, uint32_t *problem);
/* Wait until the machine is idle -- nothing in its event queue and no
 * fault delivery waiting (STATS's QUEUED 0 in two answers in a row, with
 * no transaction between them: QUEUED does not count a waiting delivery),
 * so that nothing runs until a host sends something -- for
 * at most ms, its console text going to the callbacks meanwhile: after a
 * load, everything the new program prints on its own. AM_LINK_OK once
 * idle, AM_LINK_E_BUSY when still busy at the end, or the error of a
 * STATS. */
int am_link_wait_idle(am_link *l, uint32_t ms);
/* Read an image file: the build's .hex (a 32-bit word per line) or a raw
 * binary. *img is malloc'd. */
int am_link_read_image(const char *path, uint8_t **img, uint32_t *n);
/* Ask the target to stop (am-run; a board answers UNSUPPORTED). */
int am_link_shutdown(am_link *l);
/* Receive for ms milliseconds (0: until the connection ends): console text
 * and stray replies to the callbacks. */
int am_link_monitor(am_link *l, uint32_t ms);

/* ---- lower level: tools and tests -------------------------------------------- */
/* One request of any type with a payload of n bytes (n <= AM_LINK_IN_MAX),
 * retried as the others; the answer's type (ACK, ERROR, HELLO_R, ...) and
 * words, consumed first. seq: 0 takes the next sequence number, else that
 * one (a deliberate retry). For an ERROR the return value is its code. */
typedef struct am_link_answer {
    uint32_t type, seq, n;
    am_word w[1 + AM_LINK_NSTATS];
} am_link_answer;
int am_link_request(am_link *l, uint32_t type, const uint8_t *payload, uint32_t n, uint32_t seq,
                    am_link_answer *ans);
/* Bytes as they are, within the credit (garbage, broken frames). */
int am_link_write_raw(am_link *l, const uint8_t *p, size_t n);
/* Resynchronize the credit after bytes went by the library (SYNC). */
int am_link_sync(am_link *l);
/* The descriptor (for a test that writes around the library: am_link_sync
 * afterwards). */
int am_link_fd(const am_link *l);
/* A terminal as a serial line: raw, 8 bits, no parity, no flow control, the
 * baud rate (0: leave it; a pseudo-terminal has none). 0 or -1 (errno). */
int am_link_tty_raw(int fd, uint32_t baud);
/* Whether a serial port can be set to this baud rate (am_link_tty_raw's
 * table); list: the rates, for a message ("9600, 19200, ..."). */
int am_link_baud_ok(uint32_t baud);
const char *am_link_bauds(void);

typedef struct am_link_host_counters {
    uint64_t bytes_sent, frames_sent, retries, syncs;
    uint64_t frames_received, corrupted;  /* corrupted: failed CRC, broken, too long */
    uint64_t stray_replies;               /* replies that matched no ask */
    uint32_t max_in_flight;               /* most bytes not yet consumed by the machine */
} am_link_host_counters;
void am_link_host_counters_get(const am_link *l, am_link_host_counters *c);

#ifdef __cplusplus
}
#endif
#endif /* AM_LINK_H */
