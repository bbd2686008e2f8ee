/*
 * am_link.c — the host's side of the link (see am_link.h, docs/link.md).
 *
 * One engine under every call: requests sit in AM_LINK_WINDOW slots; a slot
 * is sent when the credit allows, waits for its answer, and is sent again
 * (same sequence number) when none comes in time. Credit is counted in the
 * host's own byte count: the machine reports the bytes it has consumed
 * (every service frame's first word), and `offset` maps its count to ours
 * -- set by the answer to a HELLO or SYNC, whose consumed count covers
 * exactly our bytes up to the end of that frame (bytes lost on the wire are
 * forgotten there too).
 */
/* termios, poll, sockets, clock_gettime: POSIX, not C11; the baud rates
 * above 38400 are Linux's */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include "am_link.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

enum { S_FREE, S_DUE, S_WAIT, S_REPLY, S_DONE };

typedef struct slot {
    int state;
    uint64_t order;            /* submission order: sent oldest first */
    uint32_t seq, type, n;
    uint8_t payload[AM_LINK_IN_MAX];
    uint32_t tries;            /* attempts so far: transmissions, and SYNCs for it */
    uint32_t copies, answers;  /* transmissions, and answers to them */
    uint64_t deadline;         /* ms: give up waiting (S_WAIT, S_REPLY) / credit (S_DUE) */
    uint64_t not_before;       /* ms: an S_DUE slot waits until then (busy back-off) */
    uint32_t reply_ms;         /* an ask: the reply's wait after its ACK */
    int retry_busy;            /* a BUSY answer sends it again (send_many) */
    uint32_t busy;             /* BUSY answers */
    int result;                /* AM_LINK_OK or an error code, when S_DONE */
    am_link_answer ans;
    uint32_t reply_n;
    am_word reply[AM_MAX_MSG_WORDS];
} slot;

#define SYNC_RING 4

struct am_link {
    int fd;
    int socket;                /* a Unix socket: send() without SIGPIPE */
    am_link_opts o;
    am_link_rx rx;
    uint8_t rxbuf[AM_LINK_HDR + AM_LINK_OUT_MAX + AM_LINK_CRC];
    uint32_t sent;             /* our bytes written */
    uint32_t credited;         /* ... of which the machine has consumed (known) */
    uint32_t offset;           /* the machine's consumed count - ours */
    int synced;
    uint32_t fifo, window;
    uint32_t next_seq;
    uint64_t next_order;
    slot slots[AM_LINK_WINDOW];
    /* the last HELLO/SYNC frames: seq and our count at their end */
    uint32_t sync_seq[SYNC_RING], sync_end[SYNC_RING];
    uint32_t sync_n;
    uint64_t sync_at;          /* ms when the last SYNC went out */
    int io_error;              /* 0, or the error the port gave: AM_LINK_E_GONE or _IO */
    int turned_away;           /* the target refused the connection: another host has it */
    int stale;                 /* taking what the port kept from before our session */
    am_link_host_counters c;
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

const char *am_link_strerror(int code)
{
    static const char *const host[] = {
        "no such device",
        "input/output error on the port",
        "no answer from the machine",
        "the machine took the ask but no reply came in time",
        "the machine answered something that does not fit the request",
        "bad argument",
        "cannot read the image file",
        "the port is in use by another client (one at a time per port)",
        "the machine went away: the port was closed or hung up",
        "not a serial port or a pseudo-terminal",
        "not a socket",
    };
    if (code >= AM_LINK_E_NO_DEVICE && code < AM_LINK_E_HOST_COUNT_)
        return host[code - AM_LINK_E_NO_DEVICE];
    return am_link_error_text((uint32_t)code);
}

void am_link_opts_default(am_link_opts *o)
{
    memset(o, 0, sizeof *o);
    o->baud = 115200;
    o->timeout_ms = 1000;
    o->retries = 3;
}

/* ---- the port -------------------------------------------------------------- */
/* A failed read or write: the other end closed or hung up (a target that
 * stopped, a pseudo-terminal whose server exited, an adapter unplugged) --
 * the machine went away -- or some other error of the port. */
static int port_failed(am_link *l, ssize_t k)
{
    l->io_error = k == 0 || errno == EIO || errno == EPIPE || errno == ECONNRESET ||
                  errno == ENODEV || errno == ENXIO ? AM_LINK_E_GONE : AM_LINK_E_IO;
    return l->io_error;
}
static int io_err(const am_link *l) { return l->io_error ? l->io_error : AM_LINK_E_IO; }

static const struct { uint32_t baud; speed_t c; } bauds[] = {
    { 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 }, { 57600, B57600 },
    { 115200, B115200 }, { 230400, B230400 }, { 460800, B460800 }, { 500000, B500000 },
    { 921600, B921600 }, { 1000000, B1000000 }, { 1500000, B1500000 },
    { 2000000, B2000000 }, { 3000000, B3000000 },
};

static speed_t baud_const(uint32_t baud)
{
    for (size_t i = 0; i < sizeof bauds / sizeof bauds[0]; i++)
        if (bauds[i].baud == baud) return bauds[i].c;
    return (speed_t)0;
}

int am_link_baud_ok(uint32_t baud) { return baud_const(baud) != (speed_t)0; }

const char *am_link_bauds(void)
{
    static char list[160];
    if (!list[0]) {
        size_t at = 0;
        for (size_t i = 0; i < sizeof bauds / sizeof bauds[0]; i++)
            at += (size_t)snprintf(list + at, sizeof list - at, "%s%lu", i ? ", " : "",
                                   (unsigned long)bauds[i].baud);
    }
    return list;
}

int am_link_tty_raw(int fd, uint32_t baud)
{
    struct termios tio;
    if (tcgetattr(fd, &tio) != 0) return -1;
    tio.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON |
                               IXOFF | IXANY);
    tio.c_oflag &= ~(tcflag_t)OPOST;
    tio.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    tio.c_cflag &= ~(tcflag_t)(CSIZE | PARENB | CSTOPB | CRTSCTS);
    tio.c_cflag |= CS8 | CREAD | CLOCAL;
    tio.c_cc[VMIN] = 1;
    tio.c_cc[VTIME] = 0;
    if (baud) {
        speed_t b = baud_const(baud);
        if (!b) { errno = EINVAL; return -1; }
        cfsetispeed(&tio, b);
        cfsetospeed(&tio, b);
    }
    return tcsetattr(fd, TCSANOW, &tio);
}

/* Write all n bytes (the credit was checked by the caller). */
static int write_all(am_link *l, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t k = l->socket ? send(l->fd, p, n, MSG_NOSIGNAL) : write(l->fd, p, n);
        if (k > 0) {
            p += k;
            n -= (size_t)k;
            l->sent += (uint32_t)k;
            l->c.bytes_sent += (uint64_t)k;
            continue;
        }
        if (k < 0 && errno == EINTR) continue;
        if (k < 0 && errno == EAGAIN) {
            struct pollfd pf = { l->fd, POLLOUT, 0 };
            if (poll(&pf, 1, (int)l->o.timeout_ms) > 0) continue;
            errno = EAGAIN;   /* a line that takes nothing: not gone */
        }
        return port_failed(l, -1);
    }
    uint32_t flight = l->sent - l->credited;
    if (l->synced && flight > l->c.max_in_flight) l->c.max_in_flight = flight;
    return AM_LINK_OK;
}

typedef struct wbuf { uint8_t b[AM_LINK_WIRE_MAX(AM_LINK_IN_MAX)]; uint32_t n; } wbuf;
static void wbuf_put(void *user, const uint8_t *p, uint32_t n)
{
    wbuf *w = user;
    memcpy(w->b + w->n, p, n);
    w->n += n;
}

static void encode(wbuf *w, uint32_t type, uint32_t seq, const uint8_t *payload, uint32_t n)
{
    uint8_t f[AM_LINK_HDR + AM_LINK_IN_MAX + AM_LINK_CRC];
    if (n) memcpy(f + AM_LINK_HDR, payload, n);
    w->n = 0;
    am_link_emit(f, type, seq, n, wbuf_put, w);
}

static uint32_t take_seq(am_link *l)
{
    uint32_t s = l->next_seq;
    l->next_seq = (l->next_seq + 1) & 0xffffu;
    if (l->next_seq == 0) l->next_seq = 1;   /* seq 0: unsolicited credit, console */
    return s;
}

/* A HELLO or SYNC: sent whatever the credit (it is small, and the answer
 * resets the count). */
static int send_sync(am_link *l, uint32_t type)
{
    wbuf w;
    uint32_t seq = take_seq(l);
    encode(&w, type, seq, NULL, 0);
    int r = write_all(l, w.b, w.n);
    uint32_t k = l->sync_n++ % SYNC_RING;
    l->sync_seq[k] = seq;
    l->sync_end[k] = l->sent;
    l->sync_at = now_ms();
    l->c.frames_sent++;
    if (type == AM_LINK_SYNC) l->c.syncs++;
    return r;
}

/* ---- receiving ------------------------------------------------------------ */
static slot *slot_of(am_link *l, uint32_t seq)
{
    for (uint32_t i = 0; i < AM_LINK_WINDOW; i++)
        if (l->slots[i].state != S_FREE && l->slots[i].state != S_DONE && l->slots[i].seq == seq)
            return &l->slots[i];
    return NULL;
}

static void finish(slot *s, int result)
{
    s->state = S_DONE;
    s->result = result;
}

static void on_frame(am_link *l)
{
    uint32_t type = am_link_rx_type(&l->rx), seq = am_link_rx_seq(&l->rx);
    uint32_t len = am_link_rx_len(&l->rx);
    const uint8_t *p = am_link_rx_payload(&l->rx);
    l->c.frames_received++;
    if (type == AM_LINK_CONSOLE) {
        if (l->o.on_console) l->o.on_console(l->o.user, (const char *)p, len);
        return;
    }
    am_word w[1 + AM_LINK_NSTATS];
    uint32_t n = len / 4;
    if (n > 1 + AM_LINK_NSTATS) n = 1 + AM_LINK_NSTATS;
    for (uint32_t i = 0; i < n; i++) w[i] = am_link_get32(p + 4 * i);
    if (type == AM_LINK_REPLY) {
        slot *s = slot_of(l, seq);
        if (s && s->type == AM_LINK_ASK && len % 4 == 0 && n <= AM_MAX_MSG_WORDS) {
            s->reply_n = n;
            memcpy(s->reply, w, n * sizeof *w);
            finish(s, AM_LINK_OK);
        } else {
            l->c.stray_replies++;
            if (l->o.on_reply) l->o.on_reply(l->o.user, seq, n, w);
        }
        return;
    }
    if (!(type & AM_LINK_FROM_MACHINE) || (type & AM_LINK_FROM_BEHAVIOR) || n == 0) return;
    /* a service frame: the credit first */
    for (uint32_t i = 0; i < SYNC_RING && i < l->sync_n; i++)
        if ((type == AM_LINK_HELLO_R || type == AM_LINK_CREDIT) && l->sync_seq[i] == seq) {
            if (type == AM_LINK_HELLO_R && !l->synced && n >= 6) {
                l->fifo = w[2];
                l->window = w[4] < AM_LINK_WINDOW ? w[4] : AM_LINK_WINDOW;
            }
            if (type == AM_LINK_HELLO_R || l->synced) {
                l->offset = w[0] - l->sync_end[i];
                l->credited = l->sync_end[i];
                l->synced = 1;
            }
            l->sync_seq[i] = 0x10000u;   /* used */
            return;
        }
    /* no request has seq 0: an ERROR with it refuses the connection itself
     * (a target that serves one host at a time, and has one) */
    if (type == AM_LINK_ERROR && seq == 0 && !l->synced && n >= 2 && w[1] == AM_LINK_E_BUSY) {
        l->turned_away = 1;
        return;
    }
    if (!l->synced) return;   /* a previous session's */
    uint32_t mine = w[0] - l->offset;
    if ((int32_t)(mine - l->credited) > 0 && (int32_t)(l->sent - mine) >= 0) l->credited = mine;
    if (seq == 0) return;     /* a credit of its own */
    slot *s = slot_of(l, seq);
    if (!s) return;
    s->answers++;
    s->ans.type = type;
    s->ans.seq = seq;
    s->ans.n = n;
    memcpy(s->ans.w, w, n * sizeof *w);
    if (type == AM_LINK_ERROR) {
        int code = n >= 2 && w[1] > 0 && w[1] < AM_LINK_E_COUNT_ ? (int)w[1] : AM_LINK_E_PROTOCOL;
        /* BUSY is the one answer that may differ between two copies of a
         * request: when a later copy is still out, its answer decides */
        if (code == AM_LINK_E_BUSY && s->answers < s->copies) return;
        if (code == AM_LINK_E_BUSY) s->busy++;
        if (code == AM_LINK_E_BUSY && s->retry_busy) {
            s->state = S_DUE;      /* the same seq again, after a pause */
            s->not_before = now_ms() + 2;
            s->deadline = s->not_before + l->o.timeout_ms;
            return;
        }
        finish(s, code);
    } else if (type == AM_LINK_ACK && s->type == AM_LINK_ASK) {
        if (s->state == S_WAIT) {
            s->state = S_REPLY;
            s->deadline = now_ms() + s->reply_ms;
        }
    } else {
        finish(s, AM_LINK_OK);
    }
}

/* Read what is there (waiting up to wait_ms for the first byte). */
static int receive(am_link *l, int wait_ms)
{
    struct pollfd pf = { l->fd, POLLIN, 0 };
    int r = poll(&pf, 1, wait_ms);
    if (r < 0 && errno != EINTR) return port_failed(l, -1);
    if (r <= 0) return AM_LINK_OK;
    uint8_t buf[4096];
    ssize_t k = read(l->fd, buf, sizeof buf);
    if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN)) return port_failed(l, k);
    for (ssize_t i = 0; i < k; i++) {
        int res = am_link_rx_byte(&l->rx, buf[i]);
        if (res == AM_LINK_RX_FRAME) on_frame(l);
        /* what the port kept may begin with the rest of a frame whose
         * start another client read: no sign of a bad line */
        else if (res != AM_LINK_RX_MORE && !l->stale) l->c.corrupted++;
    }
    return AM_LINK_OK;
}

/* What the port kept since the last client: output nobody was there to
 * read -- a loaded program's boot, the console line of a fault after a
 * send's ACK. Its console text and replies go to the callbacks (on_frame
 * before a session has started: console and replies through, every
 * service frame dropped, being another session's), so that no console
 * output is lost between two clients. Taken before our HELLO goes out, so
 * that no answer of before can be mistaken for its answer; bounded, for a
 * machine that keeps printing. */
static void take_stale(am_link *l)
{
    l->stale = 1;
    uint64_t until = now_ms() + 200;
    for (int k = 0; k < 64 && now_ms() < until; k++) {
        struct pollfd pf = { l->fd, POLLIN, 0 };
        if (poll(&pf, 1, 0) <= 0 || !(pf.revents & POLLIN)) break;
        if (receive(l, 0) != AM_LINK_OK) break;
    }
    l->stale = 0;
    l->io_error = 0;   /* a hang-up is the HELLO's to find */
}

/* ---- sending and waiting ------------------------------------------------------ */
static void transmit_due(am_link *l, uint64_t now)
{
    for (;;) {
        slot *best = NULL;
        for (uint32_t i = 0; i < AM_LINK_WINDOW; i++) {
            slot *s = &l->slots[i];
            if (s->state == S_DUE && now >= s->not_before && (!best || s->order < best->order)) best = s;
        }
        if (!best) return;
        wbuf w;
        encode(&w, best->type, best->seq, best->payload, best->n);
        if (!l->synced || l->sent + w.n - l->credited > l->fifo) return;   /* wait for credit */
        if (best->copies) l->c.retries++;
        best->tries++;
        best->copies++;
        if (write_all(l, w.b, w.n) != AM_LINK_OK) return;
        l->c.frames_sent++;
        best->state = S_WAIT;
        best->deadline = now + l->o.timeout_ms;
    }
}

static void check_deadlines(am_link *l, uint64_t now)
{
    int need_sync = 0;
    for (uint32_t i = 0; i < AM_LINK_WINDOW; i++) {
        slot *s = &l->slots[i];
        if ((s->state != S_DUE && s->state != S_WAIT && s->state != S_REPLY) || now < s->deadline)
            continue;
        if (s->state == S_REPLY) {
            finish(s, AM_LINK_E_NO_REPLY);
        } else if (s->tries > l->o.retries) {
            finish(s, AM_LINK_E_TIMEOUT);
        } else {
            /* no answer: send it again; if it is the credit that holds it
             * (bytes lost on the wire), resynchronize */
            if (s->state == S_DUE) {
                s->tries++;
                need_sync = 1;
            }
            s->state = S_DUE;
            s->not_before = 0;
            s->deadline = now + l->o.timeout_ms;
        }
    }
    if (need_sync && now >= l->sync_at + l->o.timeout_ms) send_sync(l, AM_LINK_SYNC);
}

/* One round: send what may go, wait up to until (ms), take what came. */
static int pump(am_link *l, uint64_t until)
{
    if (l->io_error) return l->io_error;
    uint64_t now = now_ms();
    transmit_due(l, now);
    uint64_t wake = until;
    for (uint32_t i = 0; i < AM_LINK_WINDOW; i++) {
        slot *s = &l->slots[i];
        if (s->state == S_DUE || s->state == S_WAIT || s->state == S_REPLY) {
            if (s->deadline < wake) wake = s->deadline;
            if (s->state == S_DUE && s->not_before > now && s->not_before < wake) wake = s->not_before;
        }
    }
    int r = receive(l, wake > now ? (int)(wake - now) : 0);
    now = now_ms();
    check_deadlines(l, now);
    transmit_due(l, now);
    return l->io_error ? l->io_error : r;
}

/* A free slot whose seq cannot be mistaken for an unanswered older one. */
static slot *submit(am_link *l, uint32_t type, const uint8_t *payload, uint32_t n, uint32_t seq)
{
    for (;;) {
        uint32_t s_seq = seq ? seq : l->next_seq;
        slot *free_ = NULL;
        int clash = 0, used = 0;
        for (uint32_t i = 0; i < AM_LINK_WINDOW; i++) {
            slot *s = &l->slots[i];
            if (s->state == S_FREE) { if (!free_) free_ = s; continue; }
            used++;
            if (s->state != S_DONE && s->seq % AM_LINK_WINDOW == s_seq % AM_LINK_WINDOW && s->seq != s_seq)
                clash = 1;
        }
        if (free_ && !clash && (uint32_t)used < l->window) {
            memset(free_, 0, sizeof *free_);
            free_->state = S_DUE;
            free_->order = l->next_order++;
            free_->seq = seq ? seq : take_seq(l);
            free_->type = type;
            free_->n = n;
            if (n) memcpy(free_->payload, payload, n);
            free_->deadline = now_ms() + l->o.timeout_ms;
            return free_;
        }
        if (pump(l, now_ms() + 50) != AM_LINK_OK) return NULL;
    }
}

static int wait_for(am_link *l, slot *s)
{
    while (s->state != S_DONE)
        if (pump(l, now_ms() + 100) != AM_LINK_OK) {
            s->state = S_FREE;
            return io_err(l);
        }
    s->state = S_FREE;
    return s->result;
}

/* ---- opening ------------------------------------------------------------------------ */
static int start(am_link *l)
{
    am_link_rx_init(&l->rx, l->rxbuf, sizeof l->rxbuf);
    l->fifo = AM_LINK_RX_FIFO;
    l->window = AM_LINK_WINDOW;
    l->next_seq = (uint32_t)(now_ms() ^ (uint64_t)getpid() * 2654435761u) & 0xffffu;
    if (l->next_seq == 0) l->next_seq = 1;
    if (!l->socket) take_stale(l);
    /* a lone delimiter ends whatever a previous host left half sent */
    static const uint8_t delim = 0;
    if (write_all(l, &delim, 1) != AM_LINK_OK) return io_err(l);
    for (uint32_t attempt = 0; attempt <= l->o.retries; attempt++) {
        if (send_sync(l, AM_LINK_HELLO) != AM_LINK_OK) return io_err(l);
        uint64_t until = now_ms() + l->o.timeout_ms;
        while (!l->synced && !l->turned_away && now_ms() < until) {
            int r = receive(l, (int)(until - now_ms()));
            if (r != AM_LINK_OK) return l->turned_away ? AM_LINK_E_IN_USE : r;
        }
        if (l->turned_away) return AM_LINK_E_IN_USE;
        if (l->synced) return AM_LINK_OK;
    }
    return AM_LINK_E_TIMEOUT;
}

static int made(am_link *l, int r, am_link **out)
{
    if (r != AM_LINK_OK) {
        if (l->o.counters) *l->o.counters = l->c;
        am_link_close(l);
        return r;
    }
    *out = l;
    return AM_LINK_OK;
}

/* Wait up to ms for path to exist (a target that is starting). */
static int appears(const char *path, uint32_t ms)
{
    uint64_t until = now_ms() + ms;
    struct stat st;
    while (stat(path, &st) != 0) {
        if (now_ms() >= until) return 0;
        struct timespec ts = { 0, 20 * 1000000 };
        nanosleep(&ts, NULL);
    }
    return 1;
}

static am_link *alloc_link(const am_link_opts *o)
{
    am_link *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    if (o) l->o = *o; else am_link_opts_default(&l->o);
    if (!l->o.timeout_ms) l->o.timeout_ms = 1000;
    l->fd = -1;
    return l;
}

int am_link_open(const char *port, const am_link_opts *o, am_link **out)
{
    *out = NULL;
    am_link *l = alloc_link(o);
    if (!l) return AM_LINK_E_IO;
    if (!appears(port, l->o.wait_ms)) return made(l, AM_LINK_E_NO_DEVICE, out);
    /* a serial port or a pseudo-terminal is a character device; anything
     * else (a regular file, a socket, a lock file) is refused before a
     * byte is written to it */
    struct stat st;
    if (stat(port, &st) == 0 && !S_ISCHR(st.st_mode)) return made(l, AM_LINK_E_NOT_PORT, out);
    l->fd = open(port, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (l->fd < 0) return made(l, errno == ENOENT ? AM_LINK_E_NO_DEVICE : AM_LINK_E_IO, out);
    /* A line has one reader: a second client would read the answers meant
     * for the first (and the first's retries would carry a request out
     * twice). So the port is ours alone while it is open -- taken before
     * anything is changed or sent on it. flock, not TIOCEXCL: the kernel
     * drops it when we exit however we exit, while TIOCEXCL stays on a
     * pseudo-terminal whose server holds its slave open (shutting every
     * later client out after a crash), and does not hold root back. A
     * port that cannot be locked at all (ENOLCK) is used unlocked. */
    if (flock(l->fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
        return made(l, AM_LINK_E_IN_USE, out);
    if (isatty(l->fd)) {
        if (am_link_tty_raw(l->fd, l->o.baud) != 0) return made(l, AM_LINK_E_IO, out);
        /* what a previous host wrote and the line has not taken goes; what
         * the machine sent and nobody read stays, for start (take_stale) */
        tcflush(l->fd, TCOFLUSH);
    }
    return made(l, start(l), out);
}

int am_link_connect(const char *path, const am_link_opts *o, am_link **out)
{
    *out = NULL;
    am_link *l = alloc_link(o);
    if (!l) return AM_LINK_E_IO;
    if (!appears(path, l->o.wait_ms)) return made(l, AM_LINK_E_NO_DEVICE, out);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISSOCK(st.st_mode)) return made(l, AM_LINK_E_NOT_SOCKET, out);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    if (strlen(path) >= sizeof a.sun_path) return made(l, AM_LINK_E_ARG, out);
    strcpy(a.sun_path, path);
    l->socket = 1;
    l->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (l->fd < 0 || connect(l->fd, (struct sockaddr *)&a, sizeof a) != 0)
        return made(l, errno == ENOENT ? AM_LINK_E_NO_DEVICE : AM_LINK_E_IO, out);
    fcntl(l->fd, F_SETFL, O_NONBLOCK);
    return made(l, start(l), out);
}

void am_link_close(am_link *l)
{
    if (!l) return;
    /* a frame half read: its rest is read too, or the next client would
     * find half a frame and lose it (a console line) */
    uint64_t until = now_ms() + l->o.timeout_ms;
    while (l->fd >= 0 && !l->io_error && l->rx.started && now_ms() < until)
        if (receive(l, (int)(until - now_ms())) != AM_LINK_OK) break;
    if (l->o.counters) *l->o.counters = l->c;
    if (l->fd >= 0) close(l->fd);
    free(l);
}

/* ---- the calls ------------------------------------------------------------------ */
int am_link_request(am_link *l, uint32_t type, const uint8_t *payload, uint32_t n, uint32_t seq,
                    am_link_answer *ans)
{
    if (n > AM_LINK_IN_MAX) return AM_LINK_E_ARG;
    slot *s = submit(l, type, payload, n, seq);
    if (!s) return io_err(l);
    s->reply_ms = l->o.timeout_ms;
    int r = wait_for(l, s);
    if (ans) *ans = s->ans;
    return r;
}

static int words_request(am_link *l, uint32_t type, uint32_t name, uint32_t n, const am_word *w,
                         am_link_answer *ans)
{
    uint8_t p[4 + 4 * AM_MAX_MSG_WORDS];
    am_link_put32(p, name);
    for (uint32_t i = 0; i < n; i++) am_link_put32(p + 4 + 4 * i, w[i]);
    return am_link_request(l, type, p, 4 + 4 * n, 0, ans);
}

int am_link_send(am_link *l, uint32_t name, uint32_t n, const am_word *w)
{
    if (n > AM_MAX_MSG_WORDS) return AM_LINK_E_ARG;
    return words_request(l, AM_LINK_INJECT, name, n, w, NULL);
}

int am_link_ask(am_link *l, uint32_t name, uint32_t n, const am_word *w, uint32_t timeout_ms,
                am_word reply[AM_MAX_MSG_WORDS], uint32_t *reply_len)
{
    if (n > AM_MAX_MSG_WORDS - 1) return AM_LINK_E_ARG;
    uint8_t p[4 + 4 * AM_MAX_MSG_WORDS];
    am_link_put32(p, name);
    for (uint32_t i = 0; i < n; i++) am_link_put32(p + 4 + 4 * i, w[i]);
    slot *s = submit(l, AM_LINK_ASK, p, 4 + 4 * n, 0);
    if (!s) return io_err(l);
    s->reply_ms = timeout_ms ? timeout_ms : l->o.timeout_ms;
    int r = wait_for(l, s);
    if (r == AM_LINK_OK) {
        memcpy(reply, s->reply, s->reply_n * sizeof *reply);
        if (reply_len) *reply_len = s->reply_n;
    }
    return r;
}

int am_link_send_many(am_link *l, uint32_t name, uint32_t count, uint32_t n, const am_word *msgs,
                      uint32_t *busy)
{
    if (n > AM_MAX_MSG_WORDS) return AM_LINK_E_ARG;
    uint32_t next = 0, done = 0, nbusy = 0;
    int err = AM_LINK_OK;
    while (done < count) {
        /* start as many as may be unanswered */
        while (next < count && err == AM_LINK_OK) {
            int room = 0;
            for (uint32_t i = 0; i < AM_LINK_WINDOW; i++) room += l->slots[i].state == S_FREE;
            uint32_t used = AM_LINK_WINDOW - (uint32_t)room;
            if (used >= l->window) break;
            uint8_t p[4 + 4 * AM_MAX_MSG_WORDS];
            am_link_put32(p, name);
            for (uint32_t i = 0; i < n; i++) am_link_put32(p + 4 + 4 * i, msgs[next * n + i]);
            slot *s = submit(l, AM_LINK_INJECT, p, 4 + 4 * n, 0);
            if (!s) return io_err(l);
            s->retry_busy = 1;
            next++;
            transmit_due(l, now_ms());
        }
        if (pump(l, now_ms() + 100) != AM_LINK_OK) return io_err(l);
        for (uint32_t i = 0; i < AM_LINK_WINDOW; i++) {
            slot *s = &l->slots[i];
            if (s->state != S_DONE) continue;
            nbusy += s->busy;
            if (s->result != AM_LINK_OK && err == AM_LINK_OK) err = s->result;
            s->state = S_FREE;
            done++;
        }
        if (err != AM_LINK_OK && next == done) break;   /* the ones in flight have ended */
        if (err != AM_LINK_OK) count = next;             /* start no more */
    }
    for (uint32_t i = 0; i < AM_LINK_WINDOW; i++)
        if (l->slots[i].state == S_DUE || l->slots[i].state == S_WAIT) nbusy += l->slots[i].busy;
    if (busy) *busy = nbusy;
    return err;
}

static int answer_words(am_link *l, uint32_t type, uint32_t want_type, uint32_t words, am_word *out)
{
    am_link_answer a;
    int r = am_link_request(l, type, NULL, 0, 0, &a);
    if (r != AM_LINK_OK) return r;
    if (a.type != want_type || a.n < 1 + words) return AM_LINK_E_PROTOCOL;
    memcpy(out, a.w + 1, words * sizeof *out);
    return AM_LINK_OK;
}

int am_link_stats(am_link *l, am_word out[AM_LINK_NSTATS])
{
    return answer_words(l, AM_LINK_STATS, AM_LINK_STATS_R, AM_LINK_NSTATS, out);
}

int am_link_exports(am_link *l, am_ref out[AM_EXPORT_MAX])
{
    return answer_words(l, AM_LINK_EXPORTS_Q, AM_LINK_EXPORTS_R, AM_EXPORT_MAX, out);
}

int am_link_shutdown(am_link *l)
{
    return am_link_request(l, AM_LINK_SHUTDOWN, NULL, 0, 0, NULL);
}

/* Chunks one at a time: the machine takes them only in order, and a lost
 * one is simply sent again. */
#define AM_LINK_START_MS 10000u
int am_link_load(am_link *l, const uint8_t *img, uint32_t n, uint32_t *problem)
{
    if (problem) *problem = 0;
    uint8_t p[4 + AM_LINK_LOAD_CHUNK];
    for (uint32_t off = 0; off < n; off += AM_LINK_LOAD_CHUNK) {
        uint32_t k = n - off < AM_LINK_LOAD_CHUNK ? n - off : AM_LINK_LOAD_CHUNK;
        am_link_put32(p, off);
        memcpy(p + 4, img + off, k);
        int r = am_link_request(l, AM_LINK_LOAD, p, 4 + k, 0, NULL);
        if (r != AM_LINK_OK) return r;
    }
    am_link_put32(p, n);
    am_link_answer a;
    /* START's answer comes after the machine has checked the whole image
     * (its CRC-32 on a soft core: ~42 cycles a byte) */
    uint32_t t = l->o.timeout_ms;
    if (l->o.timeout_ms < AM_LINK_START_MS) l->o.timeout_ms = AM_LINK_START_MS;
    int r = am_link_request(l, AM_LINK_START, p, 4, 0, &a);
    l->o.timeout_ms = t;
    if (r == AM_LINK_E_BAD_IMAGE && problem && a.n >= 3) *problem = a.w[2];
    /* the in-place loader's image runs without the link: nothing answers
     * from now on, its console is plain text */
    if (r == AM_LINK_OK && a.n >= 2 && a.w[1] == AM_LINK_STARTED_NO_LINK) {
        if (problem) *problem = AM_LINK_STARTED_NO_LINK;
        return r;
    }
    /* a machine that reboots into the image starts its count of consumed
     * bytes afresh: the credit is mapped again */
    if (r == AM_LINK_OK) r = am_link_sync(l);
    return r;
}

int am_link_wait_idle(am_link *l, uint32_t ms)
{
    uint64_t until = now_ms() + ms;
    int quiet = 0;         /* the last answer said QUEUED 0 */
    am_word dispatches = 0;
    for (;;) {
        am_word s[AM_LINK_NSTATS];
        int r = am_link_stats(l, s);
        if (r != AM_LINK_OK) return r;
        /* STATS is answered between transactions, after the bytes of the
         * last one. QUEUED counts the event queue, not a fault delivery
         * waiting for its transaction (the failed event's entry is held
         * outside the count): a STATS taken between an abort and its
         * delivery says 0 while the delivery -- the console's fault line,
         * by default -- is still to run. The machine dispatches between
         * two of its turns, and the next STATS comes in a later turn: so
         * idle is QUEUED 0 in two answers in a row with no transaction
         * between them. Then nothing more runs, and everything the program
         * printed has arrived before this answer. */
        if (s[AM_LINK_S_QUEUED] == 0 && quiet && s[AM_LINK_S_DISPATCHES] == dispatches) return AM_LINK_OK;
        quiet = s[AM_LINK_S_QUEUED] == 0;
        dispatches = s[AM_LINK_S_DISPATCHES];
        if (now_ms() >= until) return AM_LINK_E_BUSY;
        if (quiet) continue;   /* asked again at once */
        r = am_link_monitor(l, 50);
        if (r != AM_LINK_OK) return r;
    }
}

int am_link_read_image(const char *path, uint8_t **img, uint32_t *n)
{
    *img = NULL;
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return AM_LINK_E_FILE;
    size_t cap = 1u << 16, len = 0;
    uint8_t *b = malloc(cap);
    size_t pl = strlen(path);
    int hex = pl > 4 && strcmp(path + pl - 4, ".hex") == 0;
    int r = AM_LINK_OK;
    if (hex) {
        char line[64];
        while (b && fgets(line, sizeof line, f)) {
            char *end;
            if (line[0] == '\n' || line[0] == '\0') continue;
            unsigned long w = strtoul(line, &end, 16);
            if (end == line || (*end != '\n' && *end != '\0' && *end != '\r') || w > 0xfffffffful) {
                r = AM_LINK_E_FILE;
                break;
            }
            if (len + 4 > cap) {
                uint8_t *nb = realloc(b, cap *= 2);
                if (!nb) { free(b); b = NULL; break; }
                b = nb;
            }
            am_link_put32(b + len, (uint32_t)w);
            len += 4;
        }
    } else {
        size_t k;
        while (b && (k = fread(b + len, 1, cap - len, f)) > 0) {
            len += k;
            if (len == cap) {
                uint8_t *nb = realloc(b, cap *= 2);
                if (!nb) { free(b); b = NULL; break; }
                b = nb;
            }
        }
    }
    if (ferror(f) || !b || len > UINT32_MAX) r = AM_LINK_E_FILE;
    fclose(f);
    if (r != AM_LINK_OK) {
        free(b);
        return r;
    }
    *img = b;
    *n = (uint32_t)len;
    return AM_LINK_OK;
}

int am_link_monitor(am_link *l, uint32_t ms)
{
    uint64_t until = ms ? now_ms() + ms : UINT64_MAX;
    while (now_ms() < until) {
        int r = pump(l, ms ? until : now_ms() + 1000);
        if (r != AM_LINK_OK) return ms ? r : AM_LINK_OK;   /* monitoring until it ends */
    }
    return AM_LINK_OK;
}

int am_link_write_raw(am_link *l, const uint8_t *p, size_t n)
{
    while (n) {
        uint32_t room = l->fifo - (l->sent - l->credited);
        if (l->synced && room > 0) {
            size_t k = n < room ? n : room;
            int r = write_all(l, p, k);
            if (r != AM_LINK_OK) return r;
            p += k;
            n -= k;
            continue;
        }
        uint64_t until = now_ms() + l->o.timeout_ms;
        uint32_t before = l->credited;
        while (l->credited == before && now_ms() < until)
            if (receive(l, (int)(until - now_ms())) != AM_LINK_OK) return io_err(l);
        if (l->credited == before && am_link_sync(l) != AM_LINK_OK) return AM_LINK_E_TIMEOUT;
    }
    return AM_LINK_OK;
}

int am_link_sync(am_link *l)
{
    for (uint32_t attempt = 0; attempt <= l->o.retries; attempt++) {
        uint32_t n0 = l->sync_n;
        if (send_sync(l, AM_LINK_SYNC) != AM_LINK_OK) return io_err(l);
        uint32_t k = n0 % SYNC_RING;
        uint64_t until = now_ms() + l->o.timeout_ms;
        while (l->sync_seq[k] != 0x10000u && now_ms() < until)
            if (receive(l, (int)(until - now_ms())) != AM_LINK_OK) return io_err(l);
        if (l->sync_seq[k] == 0x10000u) return AM_LINK_OK;
    }
    return AM_LINK_E_TIMEOUT;
}

int am_link_fd(const am_link *l) { return l->fd; }

void am_link_host_counters_get(const am_link *l, am_link_host_counters *c) { *c = l->c; }
