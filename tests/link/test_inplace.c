/*
 * test_inplace.c — the in-place loader (firmware/fw_inplace.c: what an HX8K
 * built with LINK=1 boots) on the simulated SoC, `am-sim --link --loader
 * inplace.hex`, through the host library: its answers to every request
 * type, its counters (every frame accounted for; a flood past the credit, a
 * disconnect in mid-frame), its refusals of bad loads
 * and bad images -- after each the loader stays and answers -- and at the
 * end a good image, which runs without the link in lockstep until it halts.
 *
 *   test_inplace AM_SIM INPLACE_HEX IMAGE_HEX MAX WORKDIR
 *
 * IMAGE_HEX: a one-program HX8K image (make load BOARD=hx8k builds one);
 * MAX: the largest image the loader takes (build/inplace/ARCH/inplace.max).
 * The cases run in order against one simulator run; each is bounded by an
 * alarm.
 */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "am_link.h"
#include "link_accounts.h"
#include "link_raw.h"
#include "link_time.h"
#include "t.h"

static const char *sim_path, *loader_path, *image_path, *workdir;
static uint32_t max_image;
static char port[512], logpath[600];
static pid_t target = -1;
static am_link *l;
static uint8_t *img;
static uint32_t img_n;
static am_link_opts opts;

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL link-inplace: a test ran out of time (60 s)\n"
                              "link-inplace: 0 passed, 1 failed\n";
    if (write(1, msg, sizeof msg - 1) < 0) {}
    if (target > 0) kill(target, SIGTERM);
    _exit(1);
}


/* Console text the loader sent. */
static char console[4096];
static size_t nconsole;
static void on_console(void *user, const char *text, size_t n)
{
    (void)user;
    if (nconsole + n >= sizeof console) n = sizeof console - 1 - nconsole;
    memcpy(console + nconsole, text, n);
    nconsole += n;
    console[nconsole] = 0;
}

static int stats(am_word s[AM_LINK_NSTATS])
{
    return am_link_stats(l, s) == AM_LINK_OK;
}

/* The image with word i set to v and its CRC made good again. */
static uint8_t *patched(uint32_t i, uint32_t v)
{
    uint8_t *p = malloc(img_n);
    memcpy(p, img, img_n);
    am_link_put32(p + 4 * i, v);
    am_link_put32(p + 12, 0);
    am_link_put32(p + 12, am_crc32(0, p, img_n));
    return p;
}

TEST(hello_stats_and_exports)
{
    alarm(60);
    snprintf(port, sizeof port, "%s/port", workdir);
    snprintf(logpath, sizeof logpath, "%s/target.log", workdir);
    unlink(port);
    target = fork();
    if (target == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        int fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) { dup2(fd, 1); dup2(fd, 2); }
        execl(sim_path, sim_path, "--link", port, "--link-div", "4", "--loader", loader_path, (char *)NULL);
        _exit(127);
    }
    am_link_opts_default(&opts);
    opts.wait_ms = 10000;
    opts.timeout_ms = 2000;
    opts.on_console = on_console;
    CHECK_EQ(am_link_open(port, &opts, &l), AM_LINK_OK);
    am_word s[AM_LINK_NSTATS];
    CHECK(stats(s));
    CHECK(link_accounted(s));
    CHECK(s[AM_LINK_S_ANSWERED] >= 1);                      /* the HELLO */
    for (uint32_t i = AM_LINK_NSERVICE_STATS_; i < AM_LINK_NSTATS; i++) CHECK_EQ(s[i], 0);   /* no program */
    am_ref e[AM_EXPORT_MAX];
    CHECK_EQ(am_link_exports(l, e), AM_LINK_OK);
    for (uint32_t i = 0; i < AM_EXPORT_MAX; i++) CHECK_EQ(e[i], AM_NIL);
}

/* No program runs: SEND and ASK refused, and the loader says why first. */
TEST(send_and_ask_are_unsupported)
{
    alarm(60);
    CHECK(l != NULL);
    nconsole = 0;
    am_word w[2] = { 1, 2 }, r[8];
    CHECK_EQ(am_link_send(l, 0, 2, w), AM_LINK_E_UNSUPPORTED);
    CHECK_EQ(am_link_ask(l, 0, 2, w, 500, r, NULL), AM_LINK_E_UNSUPPORTED);
    CHECK(strstr(console, "loader: no program; waiting for an image") != NULL);
}

TEST(bad_lengths_and_unknown_types)
{
    alarm(60);
    CHECK(l != NULL);
    uint8_t p[64] = { 0 };
    am_word a[AM_LINK_NSTATS], b[AM_LINK_NSTATS];
    CHECK(stats(a));
    CHECK_EQ(am_link_request(l, AM_LINK_STATS, p, 4, 0, NULL), AM_LINK_E_BAD_LENGTH);
    CHECK_EQ(am_link_request(l, AM_LINK_SHUTDOWN, p, 4, 0, NULL), AM_LINK_E_BAD_LENGTH);
    CHECK_EQ(am_link_request(l, AM_LINK_LOAD, p, 3, 0, NULL), AM_LINK_E_BAD_LENGTH);
    CHECK_EQ(am_link_request(l, AM_LINK_START, p, 0, 0, NULL), AM_LINK_E_BAD_LENGTH);
    const uint32_t types[] = { 0x0a, 0x33, 0x80, 0xc1 };
    for (uint32_t i = 0; i < 4; i++) CHECK_EQ(am_link_request(l, types[i], p, 8, 0, NULL), AM_LINK_E_UNKNOWN_TYPE);
    CHECK(stats(b));
    CHECK_EQ(b[AM_LINK_S_E_BAD_LENGTH] - a[AM_LINK_S_E_BAD_LENGTH], 4);
    CHECK_EQ(b[AM_LINK_S_E_UNKNOWN_TYPE] - a[AM_LINK_S_E_UNKNOWN_TYPE], 4);
    CHECK(link_accounted(b));
}

/* Random bytes with zeros among them: dropped, counted, the loader answers. */
TEST(garbage)
{
    alarm(60);
    CHECK(l != NULL);
    am_word a[AM_LINK_NSTATS], b[AM_LINK_NSTATS];
    CHECK(stats(a));
    uint8_t junk[400];
    uint32_t x = 7;
    for (uint32_t i = 0; i < sizeof junk; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        junk[i] = (uint8_t)(x % 11 == 0 ? 0 : x);
    }
    CHECK_EQ(am_link_write_raw(l, junk, sizeof junk), AM_LINK_OK);
    CHECK_EQ(am_link_write_raw(l, (const uint8_t *)"\0", 1), AM_LINK_OK);
    CHECK_EQ(am_link_sync(l), AM_LINK_OK);
    CHECK(stats(b));
    CHECK(b[AM_LINK_S_RX_CRC] + b[AM_LINK_S_RX_MALFORMED] + b[AM_LINK_S_RX_OVERSIZE] >
          a[AM_LINK_S_RX_CRC] + a[AM_LINK_S_RX_MALFORMED] + a[AM_LINK_S_RX_OVERSIZE]);
    CHECK_EQ(b[AM_LINK_S_ACKED], a[AM_LINK_S_ACKED]);
    CHECK(link_accounted(b));
}

/* A host that ignores the credit: a burst of LOAD frames (each takes the
 * loader ~5 times longer than the line) overflows the FIFO; the bytes it
 * drops are counted, the frames they broke are dropped and counted, every
 * frame that arrived whole is acknowledged, and the loader goes on. */
TEST(flood_ignoring_the_credit)
{
    alarm(60);
    CHECK(l != NULL);
    am_word a[AM_LINK_NSTATS], b[AM_LINK_NSTATS];
    CHECK(stats(a));
    static uint8_t burst[4096];
    uint32_t nb = 0, nframes = 0;
    uint8_t f[AM_LINK_HDR + 4 + AM_LINK_LOAD_CHUNK + AM_LINK_CRC];
    while (nb + 100 < sizeof burst) {
        am_link_put32(f + AM_LINK_HDR, 0);
        memcpy(f + AM_LINK_HDR + 4, img, AM_LINK_LOAD_CHUNK);
        wire w = { .n = 0 };
        am_link_emit(f, AM_LINK_LOAD, 0x7000 + nframes, 4 + AM_LINK_LOAD_CHUNK, wire_put, &w);
        memcpy(burst + nb, w.b, w.n);
        nb += w.n;
        nframes++;
    }
    int fd = am_link_fd(l);
    CHECK_EQ(write_all(fd, burst, nb), nb);
    /* the answers, read here (the library does not know these seqs) */
    static uint8_t rxbuf[AM_LINK_HDR + AM_LINK_OUT_MAX + AM_LINK_CRC];
    am_link_rx rx;
    am_link_rx_init(&rx, rxbuf, sizeof rxbuf);
    uint32_t acked = 0, quiet = 0;
    while (quiet < 20) {   /* until the loader has been quiet for 2 s */
        struct pollfd pf = { fd, POLLIN, 0 };
        if (poll(&pf, 1, 100) <= 0) { quiet++; continue; }
        quiet = 0;
        uint8_t buf[4096];
        ssize_t k = read(fd, buf, sizeof buf);
        for (ssize_t i = 0; i < k; i++)
            if (am_link_rx_byte(&rx, buf[i]) == AM_LINK_RX_FRAME && am_link_rx_type(&rx) == AM_LINK_ACK &&
                am_link_rx_seq(&rx) >= 0x7000 && am_link_rx_seq(&rx) < 0x7000 + nframes)
                acked++;
    }
    CHECK_EQ(am_link_sync(l), AM_LINK_OK);    /* the library's credit again */
    CHECK(stats(b));
    CHECK(link_accounted(b));
    CHECK(b[AM_LINK_S_FIFO_LOST] > a[AM_LINK_S_FIFO_LOST]);
    CHECK(acked > 0);
    CHECK(acked < nframes);                   /* some were lost with the bytes */
    CHECK_EQ(b[AM_LINK_S_ACKED] - a[AM_LINK_S_ACKED], acked);
    CHECK(b[AM_LINK_S_RX_CRC] + b[AM_LINK_S_RX_MALFORMED] + b[AM_LINK_S_RX_OVERSIZE] >
          a[AM_LINK_S_RX_CRC] + a[AM_LINK_S_RX_MALFORMED] + a[AM_LINK_S_RX_OVERSIZE]);
    printf("     %u LOAD frames at once: %u acknowledged, %u bytes lost by the FIFO\n", nframes, acked,
           (unsigned)(b[AM_LINK_S_FIFO_LOST] - a[AM_LINK_S_FIFO_LOST]));
}

/* A host that goes away in the middle of a frame: the next host's first
 * delimiter ends it (one broken frame), and the loader goes on. */
TEST(disconnect_mid_frame)
{
    alarm(60);
    CHECK(l != NULL);
    am_word a[AM_LINK_NSTATS], b[AM_LINK_NSTATS];
    CHECK(stats(a));
    uint8_t f[AM_LINK_HDR + 4 + AM_LINK_LOAD_CHUNK + AM_LINK_CRC];
    am_link_put32(f + AM_LINK_HDR, 0);
    memcpy(f + AM_LINK_HDR + 4, img, AM_LINK_LOAD_CHUNK);
    wire w = { .n = 0 };
    am_link_emit(f, AM_LINK_LOAD, 0x2222, 4 + AM_LINK_LOAD_CHUNK, wire_put, &w);
    CHECK_EQ(am_link_write_raw(l, w.b, w.n / 2), AM_LINK_OK);
    sleep_ms(200);     /* taken by the machine (a new host's open discards the unsent) */
    am_link_close(l);
    l = NULL;
    CHECK_EQ(am_link_open(port, &opts, &l), AM_LINK_OK);
    CHECK(stats(b));
    CHECK(link_accounted(b));
    CHECK_EQ(b[AM_LINK_S_RX_MALFORMED] + b[AM_LINK_S_RX_CRC] - a[AM_LINK_S_RX_MALFORMED] - a[AM_LINK_S_RX_CRC], 1);
    CHECK_EQ(b[AM_LINK_S_ACKED], a[AM_LINK_S_ACKED]);
}

/* Chunks in order from 0 only; a retry of the last one is answered, not
 * written again; START wants exactly what was loaded, and starts over. */
TEST(load_order_and_duplicates)
{
    alarm(60);
    CHECK(l != NULL);
    uint8_t p[4 + AM_LINK_LOAD_CHUNK];
    am_word a[AM_LINK_NSTATS], b[AM_LINK_NSTATS];
    CHECK(stats(a));
    am_link_put32(p, 60);
    memcpy(p + 4, img + 60, 60);
    CHECK_EQ(am_link_request(l, AM_LINK_LOAD, p, 64, 0, NULL), AM_LINK_E_LOAD_ORDER);
    am_link_put32(p, 0);
    memcpy(p + 4, img, 60);
    am_link_answer ans;
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(am_link_request(l, AM_LINK_LOAD, p, 64, 0x5151, &ans), AM_LINK_OK);
        CHECK_EQ(ans.type, AM_LINK_ACK);
        CHECK_EQ(ans.seq, 0x5151);
    }
    am_link_put32(p, 120);
    CHECK_EQ(am_link_request(l, AM_LINK_START, p, 4, 0, NULL), AM_LINK_E_LOAD_ORDER);
    am_link_put32(p, 60);
    memcpy(p + 4, img + 60, 60);
    CHECK_EQ(am_link_request(l, AM_LINK_LOAD, p, 64, 0, NULL), AM_LINK_E_LOAD_ORDER);   /* START reset it */
    CHECK(stats(b));
    CHECK_EQ(b[AM_LINK_S_DUPLICATE] - a[AM_LINK_S_DUPLICATE], 2);
    CHECK_EQ(b[AM_LINK_S_ACKED] - a[AM_LINK_S_ACKED], 1);
    CHECK_EQ(b[AM_LINK_S_E_LOAD_ORDER] - a[AM_LINK_S_E_LOAD_ORDER], 3);
    CHECK_EQ(b[AM_LINK_S_LOADED], 0);
    CHECK(link_accounted(b));
}

/* Each refused with its reason; none runs, the loader stays. */
TEST(bad_images_are_refused_and_never_run)
{
    alarm(60);
    CHECK(l != NULL);
    uint32_t problem = 0;
    uint8_t *bad = malloc(img_n);
    memcpy(bad, img, img_n);
    bad[img_n / 2] ^= 0x10;                                  /* a flipped bit */
    CHECK_EQ(am_link_load(l, bad, img_n, &problem), AM_LINK_E_BAD_IMAGE);
    CHECK_EQ(problem, AM_LINK_IMAGE_CRC);
    CHECK_EQ(am_link_load(l, img, img_n - 4, &problem), AM_LINK_E_BAD_IMAGE);   /* cut short */
    CHECK_EQ(problem, AM_LINK_IMAGE_SIZE);
    CHECK_EQ(am_link_load(l, img + 4, 400, &problem), AM_LINK_E_BAD_IMAGE);     /* no header */
    CHECK_EQ(problem, AM_LINK_IMAGE_MAGIC);
    free(bad);
    bad = patched(6, 0);                                     /* boot: not a program's behavior */
    CHECK_EQ(am_link_load(l, bad, img_n, &problem), AM_LINK_E_BAD_IMAGE);
    CHECK_EQ(problem, AM_LINK_IMAGE_BOOT);
    free(bad);
    bad = patched(8, 0x10000);                               /* a stack beyond the RAM */
    CHECK_EQ(am_link_load(l, bad, img_n, &problem), AM_LINK_E_TOO_BIG);
    free(bad);
    bad = patched(2, max_image + 4);                         /* larger than the loader leaves */
    CHECK_EQ(am_link_load(l, bad, img_n, &problem), AM_LINK_E_TOO_BIG);
    free(bad);
    am_word s[AM_LINK_NSTATS], w = 1;
    CHECK_EQ(am_link_send(l, 0, 1, &w), AM_LINK_E_UNSUPPORTED);   /* still the loader */
    CHECK(stats(s));
    CHECK_EQ(s[AM_LINK_S_LOADED], 0);
    CHECK_EQ(s[AM_LINK_S_E_BAD_IMAGE], 4);
    CHECK_EQ(s[AM_LINK_S_E_TOO_BIG], 2);
    CHECK(link_accounted(s));
}

/* A good image after all that: it runs without the link (the session
 * ends), in lockstep, to its halt; the simulator exits 0. */
TEST(a_good_image_runs_without_the_link)
{
    alarm(60);
    CHECK(l != NULL);
    uint32_t problem = 99;
    CHECK_EQ(am_link_load(l, img, img_n, &problem), AM_LINK_OK);
    CHECK_EQ(problem, AM_LINK_STARTED_NO_LINK);
    am_link_close(l);
    l = NULL;
    int st = 0;
    pid_t r;
    while ((r = waitpid(target, &st, WNOHANG)) == 0) sleep_ms(50);
    target = -1;
    CHECK(r > 0 && WIFEXITED(st));
    CHECK_EQ(WEXITSTATUS(st), 0);
    FILE *f = fopen(logpath, "r");
    CHECK(f != NULL);
    static char log[1 << 16];
    size_t n = fread(log, 1, sizeof log - 1, f);
    fclose(f);
    log[n] = 0;
    CHECK(strstr(log, "its console is plain text") != NULL);
    CHECK(strstr(log, "] lockstep: ") != NULL);
    CHECK(strstr(log, "1 images loaded; lockstep: ") != NULL);
    CHECK(strstr(log, "DIVERGED") == NULL);
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: test_inplace AM_SIM INPLACE_HEX IMAGE_HEX MAX WORKDIR\n");
        return 2;
    }
    sim_path = argv[1];
    loader_path = argv[2];
    image_path = argv[3];
    max_image = (uint32_t)strtoul(argv[4], NULL, 0);
    workdir = argv[5];
    signal(SIGALRM, on_alarm);
    signal(SIGPIPE, SIG_IGN);
    if (am_link_read_image(image_path, &img, &img_n) != AM_LINK_OK) {
        fprintf(stderr, "test_inplace: cannot read %s\n", image_path);
        return 2;
    }
    int r = t_main("link-inplace");
    if (target > 0) {
        kill(target, SIGTERM);
        waitpid(target, NULL, 0);
    }
    free(img);
    return r;
}
