/*
 * am_link_target.c — the reference runtime as a link target (see
 * am_link_target.h, docs/link.md).
 */
/* posix_openpt, symlink, sockets, poll: POSIX, not C11; flock: BSD's */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include "am_link_target.h"

#include "am_link.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

struct am_link_target {
    am_link_target_cfg cfg;
    am_rt *rt;
    const am_progset *set;
    am_link_ops ops;
    am_link_svc svc;
    uint8_t *image;
    int shutdown;
    int held;           /* a boot since the last byte taken: hold_boot first */
    uint64_t lost;
};

/* ---- the runtime's callbacks: the target's output, the caller's faults and trace */
static void rt_output(void *user, const char *p, size_t n)
{
    am_link_target *t = user;
    t->cfg.out(t->cfg.out_user, p, n);
}
static void rt_fault(void *user, const am_fault_record *r)
{
    am_link_target *t = user;
    if (t->cfg.rt.on_fault) t->cfg.rt.on_fault(t->cfg.rt.user, r);
}
static void rt_trace(void *user, const char *line, size_t n)
{
    am_link_target *t = user;
    if (t->cfg.rt.on_trace) t->cfg.rt.on_trace(t->cfg.rt.user, line, n);
}

/* A fresh runtime running boot of set: spawn it, send it [] or [arg]. */
static am_status boot(am_link_target *t, const am_progset *set, am_beh beh, am_word arg, am_rt **out)
{
    am_config c = t->cfg.rt;
    c.behaviors = set->behaviors;
    c.nbehaviors = set->nbehaviors;
    c.link = 1;
    c.on_output = rt_output;
    c.on_fault = rt_fault;
    c.on_trace = t->cfg.rt.on_trace ? rt_trace : NULL;
    c.user = t;
    am_rt *rt;
    am_ref b;
    am_status s = am_rt_new(&c, &rt);
    if (s != AM_OK) return s;
    s = am_spawn(rt, beh, 0, NULL, &b);
    if (s == AM_OK) s = am_inject(rt, b, arg ? 1 : 0, &arg);
    if (s != AM_OK) {
        am_rt_free(rt);
        return s;
    }
    *out = rt;
    return AM_OK;
}

/* ---- the service's operations over am_rt ------------------------------------ */
static void op_put(void *user, const uint8_t *p, uint32_t n)
{
    am_link_target *t = user;
    t->cfg.out(t->cfg.out_user, (const char *)p, n);
}

static int op_inject(void *user, am_ref to, uint32_t n, const am_word *w)
{
    am_link_target *t = user;
    switch (am_inject(t->rt, to, n, w)) {
    case AM_OK:           return AM_LINK_OK;
    case AM_E_QUEUE_FULL: return AM_LINK_E_BUSY;
    case AM_E_TOO_LONG:   return AM_LINK_E_BAD_LENGTH;
    default:              return AM_LINK_E_NOT_EXPORTED;   /* not a live actor */
    }
}

static int op_spawn_proxy(void *user, uint32_t seq, am_ref *proxy)
{
    am_link_target *t = user;
    const am_word st[2] = { 0, seq };
    if (am_spawn(t->rt, AM_BEH_ASK, 2, st, proxy) != AM_OK) return AM_LINK_E_BUSY;
    am_unpin(t->rt, *proxy);   /* the collector takes it if nobody answers */
    return AM_LINK_OK;
}

static am_ref op_exported(void *user, uint32_t name)
{
    am_link_target *t = user;
    am_word st[AM_MAX_STATE_WORDS];
    if (am_peek(t->rt, AM_CONSOLE, NULL, st) != AM_OK || name >= AM_EXPORT_MAX) return AM_NIL;
    return st[name];
}

static void op_counters(void *user, am_word *out)
{
    am_link_target *t = user;
    am_counters c;
    am_get_counters(t->rt, &c);
#define M(name) out[AM_LINK_S_##name - AM_LINK_NSERVICE_STATS_]
    M(DISPATCHES) = (am_word)c.dispatches;
    M(COMMITS) = (am_word)c.commits;
    M(ABORTS) = (am_word)c.aborts;
    M(QUEUED) = c.queue_len;
    M(QUEUE_HWM) = c.queue_high_water;
    M(LIVE) = c.live;
    M(GC_RUNS) = (am_word)c.gc_runs;
    M(GC_RECLAIMED) = (am_word)c.gc_reclaimed;
    M(FIFO_LOST) = (am_word)t->lost;
#undef M
}

static int op_load(void *user, uint32_t off, const uint8_t *p, uint32_t n)
{
    am_link_target *t = user;
    if (off > t->cfg.image_max || n > t->cfg.image_max - off) return AM_LINK_E_TOO_BIG;
    memcpy(t->image + off, p, n);
    return AM_LINK_OK;
}

/* A good image whose behavior table is one of the runner's program sets
 * (the same names in the same order, and the same sources) replaces the
 * running program: a fresh runtime boots the image's boot behavior. The
 * behaviors that run are the runner's host-side copies, as in lockstep. */
static int op_start(void *user, uint32_t size, uint32_t *problem)
{
    am_link_target *t = user;
    am_image_info info;
    int r = am_image_check(t->image, size, t->cfg.image_max, &info, problem);
    if (r != AM_LINK_OK) return r;
    const am_progset *set = NULL;
    for (const am_progset *const *s = am_progsets; *s && !set; s++)
        if ((*s)->nbehaviors == info.nbehaviors &&
            am_behavior_table_hash((*s)->behaviors, (*s)->nbehaviors) == info.table_hash)
            set = *s;
    *problem = !set ? AM_LINK_IMAGE_TABLE
             : set->src_hash != info.src_hash ? AM_LINK_IMAGE_SOURCES
             : info.boot < AM_BEH_FIRST_USER || info.boot >= set->nbehaviors ? AM_LINK_IMAGE_BOOT
             : 0;
    if (*problem) return AM_LINK_E_BAD_IMAGE;
    am_rt *rt;
    if (boot(t, set, info.boot, 0, &rt) != AM_OK) {
        *problem = AM_LINK_IMAGE_BOOT;
        return AM_LINK_E_BAD_IMAGE;
    }
    am_rt_free(t->rt);
    t->rt = rt;
    t->set = set;
    t->held = 1;
    if (t->cfg.log) {
        fprintf(t->cfg.log, "am-run: loaded a %u-byte image over the link (table %08x of %s): "
                "a fresh machine runs boot behavior %u %s\n", (unsigned)size,
                (unsigned)info.table_hash, set->folder, (unsigned)info.boot,
                set->behaviors[info.boot].name);
        fflush(t->cfg.log);
    }
    return AM_LINK_OK;
}

static int op_shutdown(void *user)
{
    ((am_link_target *)user)->shutdown = 1;
    return AM_LINK_OK;
}

/* ---- the target ------------------------------------------------------------------ */
am_status am_link_target_new(const am_link_target_cfg *cfg, am_link_target **out)
{
    *out = NULL;
    am_link_target *t = calloc(1, sizeof *t);
    if (!t) return AM_E_NOMEM;
    t->cfg = *cfg;
    if (!t->cfg.image_max) t->cfg.image_max = 4u * AM_DEFAULT_RAM_WORDS;
    t->image = malloc(t->cfg.image_max);
    if (!t->image) {
        free(t);
        return AM_E_NOMEM;
    }
    am_status s = boot(t, cfg->set, cfg->boot, cfg->arg, &t->rt);
    if (s != AM_OK) {
        free(t->image);
        free(t);
        return s;
    }
    t->set = cfg->set;
    t->held = 1;
    t->ops = (am_link_ops){ op_put, op_inject, op_spawn_proxy, op_exported, op_counters,
                            op_load, op_start, op_shutdown };
    am_link_svc_init(&t->svc, &t->ops, t);
    *out = t;
    return AM_OK;
}

void am_link_target_free(am_link_target *t)
{
    if (!t) return;
    am_rt_free(t->rt);
    free(t->image);
    free(t);
}

/* After a boot the link takes no byte before the boot message and every
 * message the boot turn sent have been delivered (docs/link.md, "When the
 * link answers"), by the firmware's rule (firmware/fw_link.c, link_held):
 * two rounds of 2 x QUEUED turns, each ended early by an empty queue. */
static void hold_boot(am_link_target *t)
{
    t->held = 0;
    for (int round = 0; round < 2; round++) {
        am_counters c;
        am_get_counters(t->rt, &c);
        for (uint32_t i = 0; i < 2u * c.queue_len; i++)
            if (am_step(t->rt) == AM_E_EMPTY) return;
    }
}

void am_link_target_rx(am_link_target *t, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (t->held) hold_boot(t);
        am_link_svc_byte(&t->svc, p[i]);
    }
}

void am_link_target_lost(am_link_target *t, size_t n) { t->lost += n; }
am_status am_link_target_step(am_link_target *t) { return am_step(t->rt); }
int am_link_target_done(const am_link_target *t) { return t->shutdown; }
am_rt *am_link_target_rt(am_link_target *t) { return t->rt; }
const am_progset *am_link_target_set(const am_link_target *t) { return t->set; }
void am_link_target_stats(const am_link_target *t, am_word *out) { am_link_svc_stats(&t->svc, out); }

/* ---- serving on a pseudo-terminal or a socket -------------------------------------- */
static int fail(char *err, size_t errn, const char *what, const char *path)
{
    snprintf(err, errn, "%s %s: %s", what, path, strerror(errno));
    return -1;
}

/* path may be replaced if it is a symlink or a socket (a previous run's). */
static int clear_path(const char *path, char *err, size_t errn)
{
    struct stat st;
    if (lstat(path, &st) != 0) return 0;
    if (!S_ISLNK(st.st_mode) && !S_ISSOCK(st.st_mode)) {
        snprintf(err, errn, "%s exists and is not a link or a socket: not replaced", path);
        return -1;
    }
    if (unlink(path) != 0) return fail(err, errn, "cannot remove", path);
    return 0;
}

/* Whether a path is a running server's cannot be told from the path: a
 * dead server's symlink may point to a pseudo-terminal that now is someone
 * else's, and a socket file outlives its server. A lock can: path.lock,
 * held with flock for as long as the server runs, which the kernel drops
 * when it exits, however it exits. The lock file is removed at a clean
 * exit; one that is left is a dead server's, free to take. */
static int take_path(am_link_io *io, const char *path, char *err, size_t errn)
{
    size_t n = strlen(path) + sizeof ".lock";
    io->lock_path = malloc(n);
    if (!io->lock_path) {
        snprintf(err, errn, "out of memory");
        return -1;
    }
    snprintf(io->lock_path, n, "%s.lock", path);
    for (int attempt = 0; attempt < 10; attempt++) {
        int fd = open(io->lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0) return fail(err, errn, "cannot make the lock file", io->lock_path);
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int busy = errno == EWOULDBLOCK;
            char pid[24] = "";
            ssize_t k = busy ? pread(fd, pid, sizeof pid - 1, 0) : -1;
            pid[k > 0 ? k : 0] = '\0';
            pid[strcspn(pid, "\n")] = '\0';
            if (!busy) fail(err, errn, "cannot lock", io->lock_path);
            else
                snprintf(err, errn, "%s is served by another running am-run or am-sim (pid %s, which "
                         "holds %s): stop it first, or choose another path", path,
                         pid[0] ? pid : "?", io->lock_path);
            close(fd);
            free(io->lock_path);
            io->lock_path = NULL;
            return -1;
        }
        /* a server that was leaving may have removed the file we opened:
         * then the lock is on nothing, and the file is made again */
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(io->lock_path, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            char pid[24];
            int k = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
            if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)k, 0) != k) {}   /* only for messages */
            io->lock_fd = fd;
            return 0;
        }
        close(fd);
    }
    snprintf(err, errn, "cannot take the lock %s: it keeps being removed", io->lock_path);
    free(io->lock_path);
    io->lock_path = NULL;
    return -1;
}

int am_link_io_open(am_link_io *io, const char *path, int socket_, char *err, size_t errn)
{
    memset(io, 0, sizeof *io);
    io->fd = io->listen_fd = io->slave_fd = io->lock_fd = -1;
    if (take_path(io, path, err, errn)) return -1;
    if (clear_path(path, err, errn)) {
        am_link_io_close(io);
        return -1;
    }
    if (socket_) {
        struct sockaddr_un a = { .sun_family = AF_UNIX };
        if (strlen(path) >= sizeof a.sun_path) {
            snprintf(err, errn, "socket path %s is too long", path);
            return -1;
        }
        strcpy(a.sun_path, path);
        io->listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (io->listen_fd < 0 || bind(io->listen_fd, (struct sockaddr *)&a, sizeof a) != 0 ||
            listen(io->listen_fd, 1) != 0 || fcntl(io->listen_fd, F_SETFL, O_NONBLOCK) != 0) {
            fail(err, errn, "cannot listen on", path);
            am_link_io_close(io);
            return -1;
        }
    } else {
        const char *slave;
        io->fd = posix_openpt(O_RDWR | O_NOCTTY);
        if (io->fd < 0 || grantpt(io->fd) != 0 || unlockpt(io->fd) != 0 ||
            !(slave = ptsname(io->fd)) || (io->slave_fd = open(slave, O_RDWR | O_NOCTTY)) < 0) {
            fail(err, errn, "cannot make a pseudo-terminal for", path);
            am_link_io_close(io);
            return -1;
        }
        /* raw both ways, as a serial port: no echo, no line editing, no
         * newline translation (clients set it again; it stays while we hold
         * the slave) */
        if (am_link_tty_raw(io->slave_fd, 0) != 0 || fcntl(io->fd, F_SETFL, O_NONBLOCK) != 0 || symlink(slave, path) != 0) {
            fail(err, errn, "cannot link", path);
            am_link_io_close(io);
            return -1;
        }
    }
    io->path = strdup(path);
    return 0;
}

void am_link_io_close(am_link_io *io)
{
    /* let the host read the last answer (a SHUTDOWN's ACK) before the pty
     * hangs up: closing the master discards what its slave has not read
     * (which the kernel moves there a moment after our write) */
    for (int i = 0; i < 100 && io->slave_fd >= 0 && !io->stalled; i++) {
        struct timespec ts = { 0, 10 * 1000000 };
        nanosleep(&ts, NULL);
        int queued = 0;
        if (i >= 4 && (ioctl(io->slave_fd, FIONREAD, &queued) != 0 || queued == 0)) break;
    }
    if (io->fd >= 0) close(io->fd);
    if (io->listen_fd >= 0) close(io->listen_fd);
    if (io->slave_fd >= 0) close(io->slave_fd);
    if (io->path) unlink(io->path);
    /* the lock last: until it is gone, no other server takes the path */
    if (io->lock_path) unlink(io->lock_path);
    if (io->lock_fd >= 0) close(io->lock_fd);
    free(io->path);
    free(io->lock_path);
    io->fd = io->listen_fd = io->slave_fd = io->lock_fd = -1;
    io->path = NULL;
    io->lock_path = NULL;
}

void am_link_io_out(void *user, const char *p, size_t n)
{
    am_link_io *io = user;
    if (io->fd < 0) {                 /* a socket with no host on it */
        io->dropped += n;
        return;
    }
    while (n) {
        /* a socket whose host went away must not kill us with SIGPIPE */
        ssize_t k = io->listen_fd >= 0 ? send(io->fd, p, n, MSG_NOSIGNAL) : write(io->fd, p, n);
        if (k > 0) {
            p += k;
            n -= (size_t)k;
            io->stalled = 0;
            continue;
        }
        if (k < 0 && errno == EINTR) continue;
        if (k < 0 && errno == EAGAIN && !io->stalled) {
            struct pollfd pf = { io->fd, POLLOUT, 0 };
            if (poll(&pf, 1, 1000) > 0) continue;
            io->stalled = 1;
        }
        io->dropped += n;
        return;
    }
}

/* Up to n bytes that arrived, without waiting: the count, 0 when none, -1
 * when the connection ended or failed. */
static ssize_t take(am_link_io *io, uint8_t *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(io->fd, p + got, n - got);
        if (k > 0) { got += (size_t)k; continue; }
        if (k < 0 && errno == EINTR) continue;
        if (k < 0 && errno == EAGAIN) break;
        return got ? (ssize_t)got : -1;   /* EOF or an error */
    }
    return (ssize_t)got;
}

static void put_fd(void *user, const uint8_t *p, uint32_t n)
{
    if (send(*(int *)user, p, n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {}   /* it may be gone already */
}

/* A host that connects while another is connected: one host at a time, as
 * on a serial line, so it is told so -- an ERROR BUSY with seq 0, which no
 * request has (docs/link.md) -- and the connection is closed. What it sent
 * is read first: a socket closed with unread bytes is reset, and its peer
 * might lose the answer. */
static void turn_away(int fd)
{
    uint8_t f[AM_LINK_HDR + 12 + AM_LINK_CRC], junk[256];
    am_link_put32(f + AM_LINK_HDR, 0);
    am_link_put32(f + AM_LINK_HDR + 4, AM_LINK_E_BUSY);
    am_link_put32(f + AM_LINK_HDR + 8, 0);
    am_link_emit(f, AM_LINK_ERROR, 0, 12, put_fd, &fd);
    for (int i = 0; i < 5; i++) {
        struct pollfd pf = { fd, POLLIN, 0 };
        if (poll(&pf, 1, 20) <= 0 || recv(fd, junk, sizeof junk, MSG_DONTWAIT) <= 0) break;
    }
    close(fd);
}

int am_link_serve(am_link_target *t, am_link_io *io, volatile sig_atomic_t *stop)
{
    uint8_t fifo[AM_LINK_RX_FIFO], spill[4096];
    while (!*stop && !t->shutdown) {
        /* a socket: the next host -- but not while the one we have is
         * leaving: it hung up (before the newcomer connected, as a shell's
         * commands one after another do) and its last bytes are still to
         * be taken; the newcomer waits in the backlog meanwhile */
        while (io->listen_fd >= 0) {
            struct pollfd pf = { io->fd, 0, 0 };
            if (io->fd >= 0 && poll(&pf, 1, 0) > 0 && (pf.revents & (POLLHUP | POLLERR))) break;
            int fd = accept(io->listen_fd, NULL, NULL);
            if (fd < 0) break;
            if (io->fd >= 0) {
                turn_away(fd);
                continue;
            }
            io->fd = fd;
            fcntl(io->fd, F_SETFL, O_NONBLOCK);
            io->stalled = 0;
        }
        ssize_t n = io->fd >= 0 ? take(io, fifo, sizeof fifo) : 0;
        if (n == (ssize_t)sizeof fifo) {
            /* the FIFO is full: what else is there would have been lost */
            ssize_t k;
            while ((k = take(io, spill, sizeof spill)) > 0) am_link_target_lost(t, (size_t)k);
        }
        if (n > 0) am_link_target_rx(t, fifo, (size_t)n);
        if (n < 0) {
            if (io->listen_fd < 0) return -1;             /* the pty failed */
            close(io->fd);                                /* the host went away */
            io->fd = -1;
        }
        if (t->shutdown) break;
        if (am_link_target_step(t) == AM_E_EMPTY) {
            struct pollfd pf[2] = { { io->fd, POLLIN, 0 }, { io->listen_fd, POLLIN, 0 } };
            poll(pf, 2, 1000);   /* (a descriptor of -1 is not polled) */
        }
    }
    return 0;
}
