/*
 * am_link_target.h — the reference runtime as a target of the host link
 * (docs/link.md): a runtime running a program, with the link service
 * (lib/am_link_service.h) bound to it and run between its transactions --
 * what the firmware does on the machine, with the same protocol, FIFO size
 * and frames. `am-run --link PATH` serves it on a pseudo-terminal.
 *
 * The binding (the service's ops over am_rt): inject = am_inject, the ask's
 * proxy = am_spawn + am_unpin, exports = the console's state (am_peek),
 * counters = am_get_counters, loading = an image checked against the
 * program sets the runner was linked with (am_progset.h) and run on a fresh
 * runtime.
 */
#ifndef AM_LINK_TARGET_H
#define AM_LINK_TARGET_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "am_link_service.h"
#include "am_progset.h"
#include "am_rt.h"

typedef struct am_link_target am_link_target;

typedef struct am_link_target_cfg {
    /* the runtime's bounds, watchdog, trace and fault callback; the target
     * sets link, behaviors and on_output itself */
    am_config rt;
    const am_progset *set;   /* the program: its set, boot behavior and word */
    am_beh boot;
    am_word arg;             /* the boot message: [] when 0, else [arg] */
    uint32_t image_max;      /* the largest image a load may bring (0: the SoC's RAM) */
    am_output_fn out;        /* every byte for the host: frames from behaviors and service */
    void *out_user;
    FILE *log;               /* a line per program loaded, or NULL */
} am_link_target_cfg;

/* Make the runtime, boot the program. AM_E_* from am_rt_new / am_spawn. */
am_status am_link_target_new(const am_link_target_cfg *cfg, am_link_target **out);
void am_link_target_free(am_link_target *t);

/* Bytes from the host, consumed at once (call between transactions). */
void am_link_target_rx(am_link_target *t, const uint8_t *p, size_t n);
/* Bytes that found the receive FIFO full (counted as FIFO_LOST). */
void am_link_target_lost(am_link_target *t, size_t n);
/* One transaction; AM_E_EMPTY when there is nothing to dispatch. */
am_status am_link_target_step(am_link_target *t);
/* A SHUTDOWN was acknowledged: stop serving. */
int am_link_target_done(const am_link_target *t);
/* The runtime now running (a load replaces it) and its program set. */
am_rt *am_link_target_rt(am_link_target *t);
const am_progset *am_link_target_set(const am_link_target *t);
/* The counters as STATS_R carries them (AM_LINK_NSTATS words). */
void am_link_target_stats(const am_link_target *t, am_word *out);

/* ---- serving on a file descriptor (am-run --link) ---------------------------- */
typedef struct am_link_io {
    int fd;          /* the connection: the pty's master, an accepted socket, -1 */
    int listen_fd;   /* a listening Unix socket, or -1 */
    int slave_fd;    /* the pty's slave, held open so that clients come and go */
    char *path;      /* the symlink or socket, removed by am_link_io_close */
    int lock_fd;     /* PATH.lock, held (flock) while we serve path */
    char *lock_path;
    int stalled;     /* the host stopped reading: output is dropped */
    uint64_t dropped;/* output bytes nobody read */
} am_link_io;

/* A pseudo-terminal whose slave is linked at path (raw mode); or, with
 * socket set, a Unix socket listening at path. 0, or -1 with a message in
 * err. One server per path: it holds path.lock (flock, the server's pid in
 * it) while it serves, and a path whose lock a running server holds is
 * refused; an existing symlink or socket at path whose lock nobody holds
 * is a dead server's and is replaced, nothing else. */
int am_link_io_open(am_link_io *io, const char *path, int socket, char *err, size_t errn);
void am_link_io_close(am_link_io *io);
/* An am_output_fn over io (user = io): a host that stops reading for a
 * second loses output, as a UART's bytes go on when nobody listens. */
void am_link_io_out(void *user, const char *p, size_t n);

/* Serve t on io until a SHUTDOWN, or *stop becomes non-zero (a signal).
 * At each transaction boundary it takes what the host sent, up to the
 * receive FIFO's AM_LINK_RX_FIFO bytes (the rest is lost, as on a board:
 * only a host that ignores the credit sends more), then dispatches one
 * event; an idle machine waits for bytes. 0, or -1 on an I/O error. */
int am_link_serve(am_link_target *t, am_link_io *io, volatile sig_atomic_t *stop);

#endif /* AM_LINK_TARGET_H */
