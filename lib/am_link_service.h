/*
 * am_link_service.h — the machine's side of the host link (docs/link.md): a
 * byte-driven state machine that takes the bytes a host sent, drops broken
 * frames, answers retries from memory, grants credit, looks names up in the
 * export table, and carries out requests through a small table of
 * operations that a binding supplies (the reference runtime's:
 * host/am_link_target.c; the firmware's: over the actor unit's registers).
 *
 * Target-independent C, no allocation: one am_link_svc (a few hundred
 * bytes) per link. It runs between transactions only: the binding feeds it
 * the bytes its receive FIFO holds (am_link_svc_byte), at any pace it likes
 * -- all of them, or up to one frame per transaction boundary.
 */
#ifndef AM_LINK_SERVICE_H
#define AM_LINK_SERVICE_H

#include "am_link_wire.h"

/* What a binding supplies. Each operation runs between two transactions and
 * returns AM_LINK_OK or an error code (am_link_wire.h) and changes nothing
 * when it fails. */
typedef struct am_link_ops {
    /* bytes to the host: the UART (the same wire behaviors' frames use) */
    am_link_put_fn put;
    /* append the event [w0..w(n-1)] for actor `to` (1 <= n <= 8): OK, BUSY
     * (the queue is full), NOT_EXPORTED (`to` is not a live actor),
     * BAD_LENGTH (more words than the machine's messages hold). NULL: no
     * program runs (the resident loader): SEND and ASK are UNSUPPORTED,
     * and spawn_proxy is never called */
    int (*inject)(void *user, am_ref to, uint32_t n, const am_word *w);
    /* make an ask's proxy live: behavior AM_BEH_ASK, state [0, seq], NOT a
     * root of the collector (spawn, then unpin): OK or BUSY (no free slot) */
    int (*spawn_proxy)(void *user, uint32_t seq, am_ref *proxy);
    /* the console's state word `name` (< AM_EXPORT_MAX): the reference
     * exported under it, AM_NIL if none */
    am_ref (*exported)(void *user, uint32_t name);
    /* the machine's counters, AM_LINK_NMACHINE_STATS words in the order of
     * AM_LINK_MACHINE_LIST */
    void (*counters)(void *user, am_word *out);
    /* Loading (NULL: the target answers UNSUPPORTED). load: n bytes of an
     * image at offset (the service sends them in order, from 0): OK or
     * TOO_BIG. start: the whole image (size bytes) is there: check it and,
     * if good, run it in place of the running program (a fresh machine):
     * OK, TOO_BIG or BAD_IMAGE with *problem (AM_LINK_IMAGE_*). */
    int (*load)(void *user, uint32_t offset, const uint8_t *p, uint32_t n);
    int (*start)(void *user, uint32_t size, uint32_t *problem);
    /* stop serving once this request's ACK is out (NULL: UNSUPPORTED) */
    int (*shutdown)(void *user);
} am_link_ops;

typedef struct am_link_svc {
    const am_link_ops *ops;
    void *user;
    am_link_rx rx;
    uint8_t buf[AM_LINK_HDR + AM_LINK_IN_MAX + AM_LINK_CRC];
    uint32_t reported;                  /* the consumed count last sent to the host */
    uint32_t load_next;                 /* the image offset expected next */
    uint16_t done_seq[AM_LINK_WINDOW];  /* acknowledged requests, by seq % WINDOW */
    uint8_t done_type[AM_LINK_WINDOW];  /* ... their type (0: none) */
    am_word stats[AM_LINK_NSERVICE_STATS_];
} am_link_svc;

void am_link_svc_init(am_link_svc *s, const am_link_ops *ops, void *user);

/* One byte from the host, consumed. Returns 1 when it ended a frame (which
 * has then been answered, carried out or dropped), else 0. */
int am_link_svc_byte(am_link_svc *s, uint8_t b);

/* All counters as STATS_R carries them (AM_LINK_NSTATS words). */
void am_link_svc_stats(const am_link_svc *s, am_word *out);

#endif /* AM_LINK_SERVICE_H */
