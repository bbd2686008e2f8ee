/*
 * am-link — talk to a running actor machine over the host link
 * (docs/link.md): a board's serial port, `am-run --link`'s pseudo-terminal,
 * or a Unix socket.
 *
 *   am-link [--port DEV | --connect PATH] [options] send|ask|stats|exports|load|monitor|shutdown ...
 *
 * Exit status: 0 done, 1 the machine refused or did not answer, or the port
 * could not be had (one line on stderr says which), 2 a usage error.
 */
#define _POSIX_C_SOURCE 200809L   /* sigaction */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "am_link.h"
#include "am_suggest.h"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: am-link [--port DEV | --connect PATH] [options] COMMAND [ARGS]\n"
    "  --port DEV        a serial port, or the pseudo-terminal of am-run --link\n"
    "                    (default: $AM_LINK_PORT)\n"
    "  --connect PATH    a Unix socket (am-run --link-socket)\n"
    "  --baud N          the serial port's speed (default 115200)\n"
    "  --timeout MS      the wait for an answer, per attempt (default 1000)\n"
    "  --retries N       attempts after the first (default 3)\n"
    "  --wait MS         wait for the port to appear (default 2000)\n"
    "  --hex             words in hex (default: unsigned decimal)\n"
    "commands:\n"
    "  send NAME [WORD...]   inject [WORD...] into the actor exported as NAME (0..7)\n"
    "  ask NAME [WORD...]    ask it (the actor gets [proxy, WORD...]); prints the reply\n"
    "  stats                 the link's and the machine's counters, NAME VALUE per line\n"
    "  exports               the exported actors: NAME REFERENCE per line\n"
    "  load FILE             load an image (the build's fw.hex, or raw) and start it\n"
    "  monitor [SECONDS]     print the console's output, until interrupted or for SECONDS\n"
    "  shutdown              stop the target (am-run; a board refuses)\n"
    "WORD: decimal, 0x hex or negative decimal. Console output goes to stderr\n"
    "except with monitor. One client at a time per port: another am-link (a\n"
    "monitor...) on it makes this one fail at once. exit status: 0 done, 1 the\n"
    "machine refused or did not answer, or the port could not be had (missing, in\n"
    "use), 2 a usage error\n";

static void usage(FILE *f)
{
    fputs(usage_text, f);
}

static int hex_words;
static const char *g_port;
static volatile sig_atomic_t g_interrupted;
static void on_interrupt(int sig)
{
    (void)sig;
    g_interrupted = 1;
}

/* How long load waits for the new program to go idle, printing what it
 * prints (docs/link.md, "am-link"). */
#define LOAD_SETTLE_MS 10000u

static void on_console_err(void *user, const char *text, size_t n)
{
    (void)user;
    fwrite(text, 1, n, stderr);
}
static void on_console_out(void *user, const char *text, size_t n)
{
    (void)user;
    fwrite(text, 1, n, stdout);
    fflush(stdout);
}
static void print_words(FILE *f, uint32_t n, const am_word *w)
{
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, hex_words ? "%s0x%08x" : "%s%u", i ? " " : "", (unsigned)w[i]);
    fputc('\n', f);
}
static void on_reply(void *user, uint32_t seq, uint32_t n, const am_word *w)
{
    (void)user;
    printf("reply seq=%u: ", (unsigned)seq);
    print_words(stdout, n, w);
    fflush(stdout);
}

/* Decimal, or hex after 0x: a leading 0 is not octal (010 is ten). */
static int parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end;
    errno = 0;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2, base = 16;
    if (*s == '\0' || *s == '-' || *s == '+' || *s == ' ') return -1;
    unsigned long long v = strtoull(s, &end, base);
    if (errno || *end || v < lo || v > hi) return -1;
    *out = (uint32_t)v;
    return 0;
}

static int parse_word(const char *s, am_word *out)
{
    char *end;
    errno = 0;
    if (*s == '-') {
        long long v = strtoll(s, &end, 10);
        if (errno || *end || s[1] == '\0' || v < -2147483648LL) return -1;
        *out = (am_word)(uint32_t)(int32_t)v;
        return 0;
    }
    return parse_u32(s, 0, UINT32_MAX, out);
}

/* One line for a failure: what the machine or the line said, with the
 * context that helps. */
static am_link_host_counters g_counters;   /* of a link that did not open */
static int g_headerless;                   /* load's file has no image header (an ELF?) */

/* Why FILE could not be read as an image, in one line: what is there,
 * and where the build puts images. */
static void image_unreadable(const char *path)
{
    struct stat st;
    const char *why;
    if (stat(path, &st) != 0) why = strerror(errno);
    else if (S_ISDIR(st.st_mode)) why = "a directory, not an image file";
    else if (strlen(path) > 4 && !strcmp(path + strlen(path) - 4, ".hex"))
        why = "not a hex image (one 32-bit word in hex per line, as the build writes fw.hex)";
    else why = "it could not be read";
    fprintf(stderr, "am-link: %s: cannot read the image file: %s (the build writes a folder's "
                    "image as build/programs/KEY/fw/fw.hex: make firmware for the project's "
                    "folders, make sim-run PROGRAM=DIR for yours; docs/programs.md)\n", path, why);
}

static int failed(am_link *l, int r, const char *what, uint32_t name, uint32_t problem)
{
    am_link_host_counters c = g_counters;
    if (l) am_link_host_counters_get(l, &c);
    switch (r) {
    case AM_LINK_E_NOT_EXPORTED:
        fprintf(stderr, "am-link: name %u is not exported (am-link exports lists the exported actors)\n",
                (unsigned)name);
        break;
    case AM_LINK_E_UNSUPPORTED:
        if (!strcmp(what, "send") || !strcmp(what, "ask"))
            fprintf(stderr, "am-link: the machine runs no program: its loader waits for an image "
                            "(am-link load FILE, make load)\n");
        else
            fprintf(stderr, "am-link: %s: %s\n", what, am_link_strerror(r));
        break;
    case AM_LINK_E_BUSY:
        fprintf(stderr, "am-link: the machine is busy: its event queue is full "
                        "(for an ask, or its actor table); try again\n");
        break;
    case AM_LINK_E_BAD_IMAGE:
        fprintf(stderr, "am-link: bad image %s: %s; the running program goes on\n", what,
                am_link_image_text(problem));
        break;
    case AM_LINK_E_TOO_BIG:
        /* the machine refuses it by size at its first chunk; a missing
         * magic (the header's second word) says why it is so large */
        if (g_headerless)
            fprintf(stderr, "am-link: %s is no firmware image (no image header) and too big for "
                            "the machine besides: load the fw.hex or fw.bin the build writes, not "
                            "its fw.elf; the running program goes on\n", what);
        else
            fprintf(stderr, "am-link: image %s is too big for the machine; the running program goes on\n", what);
        break;
    case AM_LINK_E_NOT_PORT:
        fprintf(stderr, "am-link: %s: %s (a socket takes --connect); nothing was written to it\n",
                g_port, am_link_strerror(r));
        break;
    case AM_LINK_E_NOT_SOCKET:
        fprintf(stderr, "am-link: %s: %s (a serial port or a pseudo-terminal takes --port)\n",
                g_port, am_link_strerror(r));
        break;
    case AM_LINK_E_TIMEOUT:
    case AM_LINK_E_NO_REPLY:
        fprintf(stderr, "am-link: %s", am_link_strerror(r));
        if (c.corrupted)
            fprintf(stderr, " (%llu corrupted frames from it: wrong baud rate, or line noise?)\n",
                    (unsigned long long)c.corrupted);
        else
            fputc('\n', stderr);
        break;
    case AM_LINK_E_NO_DEVICE:
        fprintf(stderr, "am-link: %s: no such device\n", g_port);
        break;
    case AM_LINK_E_IN_USE:
        fprintf(stderr, "am-link: %s is in use by another client, such as an am-link monitor "
                        "(one client at a time per port): stop it first\n", g_port);
        break;
    case AM_LINK_E_GONE:
        fprintf(stderr, "am-link: the machine went away: %s was closed or hung up (the target "
                        "stopped, or the adapter was unplugged)\n", g_port);
        break;
    case AM_LINK_E_IO:
        fprintf(stderr, "am-link: %s: %s%s%s\n", g_port, am_link_strerror(r), errno ? ": " : "",
                errno ? strerror(errno) : "");
        break;
    default:
        fprintf(stderr, "am-link: %s: %s\n", what, am_link_strerror(r));
    }
    return EXIT_FAILED;
}

int main(int argc, char **argv)
{
    am_link_opts o;
    am_link_opts_default(&o);
    o.wait_ms = 2000;
    const char *port = getenv("AM_LINK_PORT"), *sock = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        const char *a = argv[i];
        uint32_t *num = !strcmp(a, "--baud") ? &o.baud : !strcmp(a, "--timeout") ? &o.timeout_ms
                      : !strcmp(a, "--retries") ? &o.retries : !strcmp(a, "--wait") ? &o.wait_ms : NULL;
        if (!strcmp(a, "--help")) { usage(stdout); return EXIT_OK; }
        if (!strcmp(a, "--hex")) { hex_words = 1; continue; }
        if (!num && strcmp(a, "--port") && strcmp(a, "--connect")) {
            am_suggest sg;
            fprintf(stderr, "am-link: unknown option '%s'%s (am-link --help)\n", a,
                    am_suggest_option(&sg, a, usage_text));
            return EXIT_USAGE;
        }
        if (i + 1 == argc) { fprintf(stderr, "am-link: %s needs a value\n", a); return EXIT_USAGE; }
        if (!strcmp(a, "--port")) { port = argv[++i]; sock = NULL; continue; }
        if (!strcmp(a, "--connect")) { sock = argv[++i]; port = NULL; continue; }
        if (parse_u32(argv[++i], num == &o.timeout_ms ? 1 : 0, num == &o.retries ? 100 : 100000000u, num)) {
            fprintf(stderr, "am-link: %s '%s': not a number in range\n", a, argv[i]);
            return EXIT_USAGE;
        }
        if (num == &o.baud && !am_link_baud_ok(o.baud)) {
            fprintf(stderr, "am-link: --baud %s: not a rate a serial port takes (%s)\n",
                    argv[i], am_link_bauds());
            return EXIT_USAGE;
        }
    }
    if (i == argc) { usage(stderr); return EXIT_USAGE; }
    const char *cmd = argv[i++];

    /* check the arguments before opening anything */
    uint32_t name = 0, n = 0, secs = 0;
    am_word w[AM_MAX_MSG_WORDS];
    int words = !strcmp(cmd, "send") || !strcmp(cmd, "ask");
    if (words) {
        uint32_t max = !strcmp(cmd, "ask") ? AM_MAX_MSG_WORDS - 1 : AM_MAX_MSG_WORDS;
        if (i == argc || parse_u32(argv[i], 0, AM_EXPORT_MAX - 1, &name)) {
            fprintf(stderr, "am-link: %s needs a NAME from 0 to %u\n", cmd, AM_EXPORT_MAX - 1);
            return EXIT_USAGE;
        }
        for (i++; i < argc; i++, n++) {
            if (n == max) {
                fprintf(stderr, "am-link: %s takes at most %u words\n", cmd, (unsigned)max);
                return EXIT_USAGE;
            }
            if (parse_word(argv[i], &w[n])) {
                fprintf(stderr, "am-link: '%s' is not a 32-bit word\n", argv[i]);
                return EXIT_USAGE;
            }
        }
    } else if (!strcmp(cmd, "load")) {
        if (i + 1 != argc) { fprintf(stderr, "am-link: load FILE\n"); return EXIT_USAGE; }
    } else if (!strcmp(cmd, "monitor")) {
        if (i < argc && (parse_u32(argv[i++], 1, 1000000, &secs) || i != argc)) {
            fprintf(stderr, "am-link: monitor [SECONDS]: SECONDS is a whole number from 1 to "
                            "1000000 (without it: until interrupted)\n");
            return EXIT_USAGE;
        }
    } else if (strcmp(cmd, "stats") && strcmp(cmd, "exports") && strcmp(cmd, "shutdown")) {
        static const char *const cmds[] = { "send", "ask", "stats", "exports", "load", "monitor", "shutdown" };
        am_suggest sg;
        am_suggest_init(&sg, cmd);
        for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++) am_suggest_add(&sg, cmds[k], strlen(cmds[k]));
        fprintf(stderr, "am-link: unknown command '%s'%s (am-link --help)\n", cmd, am_suggest_hint(&sg, ": "));
        return EXIT_USAGE;
    } else if (i != argc) {
        fprintf(stderr, "am-link: %s takes no arguments\n", cmd);
        return EXIT_USAGE;
    }
    if (!port && !sock) {
        fprintf(stderr, "am-link: which machine? --port DEV, --connect PATH or $AM_LINK_PORT\n");
        return EXIT_USAGE;
    }
    g_port = port ? port : sock;
    uint8_t *img = NULL;
    uint32_t img_n = 0;
    if (!strcmp(cmd, "load") && am_link_read_image(argv[i], &img, &img_n) != AM_LINK_OK) {
        image_unreadable(argv[i]);
        return EXIT_FAILED;
    }
    g_headerless = img && (img_n < 8 || am_link_get32(img + 4) != AM_IMAGE_MAGIC);

    int monitor = !strcmp(cmd, "monitor");
    if (monitor) {
        /* interrupted, it closes the link as any command does, reading a
         * frame in progress to its end (the next client would lose it);
         * also where the shell started it with SIGINT ignored (&). Set
         * before the link opens, so that no signal falls between. */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_interrupt;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
    }
    o.on_console = monitor ? on_console_out : on_console_err;
    o.on_reply = monitor ? on_reply : NULL;
    o.counters = &g_counters;
    am_link *l;
    int r = port ? am_link_open(port, &o, &l) : am_link_connect(sock, &o, &l);
    if (r != AM_LINK_OK) {
        free(img);
        if (monitor && g_interrupted) return EXIT_OK;   /* interrupted while opening */
        return failed(NULL, r, g_port, 0, 0);
    }
    int rc = EXIT_OK;
    if (words && !strcmp(cmd, "send")) {
        r = am_link_send(l, name, n, w);
    } else if (words) {
        am_word reply[AM_MAX_MSG_WORDS];
        uint32_t rn = 0;
        r = am_link_ask(l, name, n, w, o.timeout_ms, reply, &rn);
        if (r == AM_LINK_OK) print_words(stdout, rn, reply);
    } else if (!strcmp(cmd, "stats")) {
        am_word s[AM_LINK_NSTATS];
        r = am_link_stats(l, s);
        if (r == AM_LINK_OK)
            for (uint32_t k = 0; k < AM_LINK_NSTATS; k++)
                printf("%-16s %u\n", am_link_stat_name(k), (unsigned)s[k]);
    } else if (!strcmp(cmd, "exports")) {
        am_ref e[AM_EXPORT_MAX];
        r = am_link_exports(l, e);
        int any = 0;
        if (r == AM_LINK_OK)
            for (uint32_t k = 0; k < AM_EXPORT_MAX; k++)
                if (e[k] != AM_NIL) {
                    printf("%u 0x%08x\n", (unsigned)k, (unsigned)e[k]);
                    any = 1;
                }
        if (r == AM_LINK_OK && !any) printf("(nothing exported)\n");
    } else if (!strcmp(cmd, "load")) {
        uint32_t problem = 0;
        r = am_link_load(l, img, img_n, &problem);
        /* the new program's boot output: printed (stderr) until it is idle,
         * so that load shows what it printed on its own, whole */
        int settled = r == AM_LINK_OK && problem != AM_LINK_STARTED_NO_LINK
                    ? am_link_wait_idle(l, LOAD_SETTLE_MS) : AM_LINK_OK;
        fflush(stderr);
        if (r == AM_LINK_OK && problem == AM_LINK_STARTED_NO_LINK)
            printf("loaded %s (%u bytes): the machine runs it without the link (the in-place "
                   "loader's board): its console is plain text on the line, at %u baud (a terminal "
                   "shows it: picocom -b %u %s); reconfigure the board to load again\n", argv[i],
                   (unsigned)img_n, (unsigned)o.baud, (unsigned)o.baud, g_port);
        else if (r == AM_LINK_OK && settled == AM_LINK_E_BUSY)
            printf("loaded %s (%u bytes): the machine runs it, still busy after %u s: what it "
                   "prints from now on waits for the next client (am-link monitor)\n", argv[i],
                   (unsigned)img_n, LOAD_SETTLE_MS / 1000u);
        else if (r == AM_LINK_OK)
            printf("loaded %s (%u bytes): the machine runs it\n", argv[i], (unsigned)img_n);
        else rc = failed(l, r, argv[i], 0, problem);
        if (r == AM_LINK_OK && settled != AM_LINK_OK && settled != AM_LINK_E_BUSY) {
            fflush(stdout);
            r = settled;   /* loaded, and then the machine did not answer */
        }
    } else if (monitor) {
        uint64_t slices = secs ? secs * 5u : UINT64_MAX;   /* 200 ms each */
        for (uint64_t k = 0; k < slices && !g_interrupted && r == AM_LINK_OK; k++)
            r = am_link_monitor(l, 200);
        /* an interrupt ends it as asked; a machine that goes away is an
         * error, with SECONDS or without */
        if (g_interrupted) r = AM_LINK_OK;
    } else {
        r = am_link_shutdown(l);
        if (r == AM_LINK_OK) printf("the target stops\n");
    }
    if (r != AM_LINK_OK && rc == EXIT_OK) rc = failed(l, r, cmd, name, 0);
    fflush(stdout);
    am_link_close(l);
    free(img);
    return rc;
}
