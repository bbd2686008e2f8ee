/*
 * am-run — run a program on the host reference runtime.
 *
 *   am-run [options] PROGRAM
 *   am-run --list
 *
 * The programs are those of the program sets it was linked with
 * (am_progset.h): build/host/am-run has the project's demos, test programs
 * and workloads; `make run PROGRAM=DIR` links one for DIR
 * (build/programs/KEY/am-run).
 *
 * Prints the program's console output (which includes a line per fault while
 * the console is the fault handler) and, at the end, the counters; with
 * --faults also every fault record as it happens (seq, cause, whole event),
 * on stdout so that the order is deterministic.
 * Exit status (--help): 0 the queue drained, 1 a runtime error, 2 a usage
 * error, 3 the dispatch budget ran out -- the same codes as am-sim's.
 *
 * With --link PATH it is a target of the host link (docs/link.md): the
 * program runs, and between transactions the link service takes what a
 * host sends on a pseudo-terminal linked at PATH (am-link --port PATH); the
 * console's output and the asks' replies go there as frames. It goes on
 * serving when the queue drains, until a host asks it to shut down or it
 * gets SIGINT or SIGTERM (exit 0).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_crash.h"
#include "am_link_target.h"
#include "am_progset.h"
#include "am_rt.h"
#include "am_suggest.h"

/* Exit status, the same as am-sim's (sim/am_sim_main.cpp). */
enum { EXIT_RAN = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_STOPPED = 3, EXIT_CRASHED = 4 };

static const char usage_text[] =
    "usage: am-run [options] PROGRAM  run a program on the reference runtime\n"
    "       am-run --list             list the programs\n"
    "options:\n"
    "  --trace FILE       write one line per transaction to FILE (- for stderr: the\n"
    "                     console keeps stdout)\n"
    "  --arg N            the boot message is [N] instead of [] (e.g. a fuzz seed)\n"
    "  --max N            stop after N dispatches (default 1000000; 0 = no limit)\n"
    "  --table N          actor table slots, console included (2..65536, default 128)\n"
    "  --gc-low N         collect garbage when fewer than N slots are free, while the\n"
    "                     last collection left 2N (default 4; 0 = never on that\n"
    "                     account; a CREATE that finds no slot collects anyway;\n"
    "                     docs/gc.md)\n"
    "  --gc-period N      collect every N dispatches (0..65535, default 1024; 0 = off)\n"
    "  --queue N          event queue depth (1..16777216, default 63)\n"
    "  --sends N          sends per transaction (1..65536, default 8)\n"
    "  --creates N        creates per transaction (1..65536, default 4)\n"
    "  --msg-words N      words per message (1..8, default 8)\n"
    "  --state-words N    state words per actor (1..8, default 8)\n"
    "  --watchdog MS      a behavior running longer than MS milliseconds of CPU time\n"
    "                     aborts with WATCHDOG (0..3600000, default 1000; 0 = off)\n"
    "  --faults           print every fault record, with the behavior's name (also\n"
    "                     when a program installs its own fault handler)\n"
    "  --behaviors        print the program's behavior table (id, name) and exit:\n"
    "                     the names of the b<id> in traces and fault lines\n"
    "  --quiet            no counters at the end\n"
    "  --link PATH        serve the host link on a pseudo-terminal linked at PATH\n"
    "                     (am-link --port PATH; docs/link.md): console output and\n"
    "                     replies go there as frames; runs until am-link shutdown,\n"
    "                     SIGINT or SIGTERM (--max does not apply); PATH.lock beside\n"
    "                     it keeps a second server off PATH while this one runs\n"
    "  --link-socket PATH the same on a Unix socket at PATH (am-link --connect PATH)\n"
    "exit status: 0 the queue drained, 1 a runtime error, 2 a usage error (option,\n"
    "program name, file), 3 stopped: the --max budget ran out, 4 a behavior crashed\n"
    "the host process (a wild pointer, the host's stack, a division by zero)\n";

static void usage(FILE *f)
{
    fputs(usage_text, f);
}

static const am_progset *g_set;   /* the program's set: names in fault records */

static void on_fault(void *user, const am_fault_record *rec)
{
    (void)user;
    fflush(stdout);
    am_fault_print_named(stdout, rec, g_set->behaviors, g_set->nbehaviors);
}

static void print_counters(const char *name, am_rt *rt)
{
    am_counters c;
    am_get_counters(rt, &c);
    printf("\n[%s] dispatches=%llu commits=%llu aborts=%llu faults=%llu "
           "queue-high-water=%u live=%u\n", name,
           (unsigned long long)c.dispatches, (unsigned long long)c.commits,
           (unsigned long long)c.aborts, (unsigned long long)c.faults,
           (unsigned)c.queue_high_water, (unsigned)c.live);
    printf("[%s] gc: runs=%llu reclaimed=%llu live-after-gc-max=%u free=%u\n", name,
           (unsigned long long)c.gc_runs, (unsigned long long)c.gc_reclaimed,
           (unsigned)c.gc_live_max, (unsigned)c.free);
}

static volatile sig_atomic_t g_stop;
static void on_signal(int sig)
{
    (void)sig;
    g_stop = 1;
}

/* --link / --link-socket: the program as a link target until a shutdown
 * request or a signal. */
static int run_link(const am_config *cfg, const am_progset *set, const am_program *d, uint32_t arg,
                    const char *path, int socket, int quiet)
{
    char err[300];
    am_link_io io;
    if (am_link_io_open(&io, path, socket, err, sizeof err)) {
        fprintf(stderr, "am-run: --link: %s\n", err);
        return EXIT_USAGE;
    }
    am_link_target_cfg tc = { .rt = *cfg, .set = set, .boot = d->boot, .arg = arg,
                              .out = am_link_io_out, .out_user = &io, .log = stdout };
    am_link_target *t;
    am_status s = am_link_target_new(&tc, &t);
    if (s != AM_OK) {
        fprintf(stderr, "am-run: %s\n", am_strerror(s));
        am_link_io_close(&io);
        return EXIT_FAILED;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    printf("am-run: %s serves the host link on %s, %s (am-link %s %s)\n", d->name, path,
           socket ? "a Unix socket" : "a pseudo-terminal", socket ? "--connect" : "--port", path);
    fflush(stdout);
    int r = am_link_serve(t, &io, &g_stop);
    if (r != 0) fprintf(stderr, "am-run: the link on %s failed\n", path);
    if (!quiet) {
        am_word st[AM_LINK_NSTATS];
        am_link_target_stats(t, st);
        print_counters(am_link_target_set(t) == set ? d->name : "loaded", am_link_target_rt(t));
        printf("[link]");
        for (uint32_t i = 0; i < AM_LINK_NSERVICE_STATS_; i++)
            if (st[i]) printf(" %s=%u", am_link_stat_name(i), (unsigned)st[i]);
        printf(" FIFO_LOST=%u output-dropped=%llu\n", (unsigned)st[AM_LINK_S_FIFO_LOST],
               (unsigned long long)io.dropped);
    }
    am_link_target_free(t);
    am_link_io_close(&io);
    return r ? EXIT_FAILED : EXIT_RAN;
}

/* The numeric options: where each goes, its range, and what the range is. */
typedef struct num_opt {
    const char *name;
    uint32_t *dst;
    uint32_t lo, hi;
    const char *what;
} num_opt;

/* "--opt VALUE" -> *dst; on error a message naming the option, the value
 * and the range, and -1. Decimal or 0x hex, no sign. */
static int parse_num(const num_opt *o, const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *s == '\0' || *s == '-' || *s == '+' || *end != '\0' || v < o->lo || v > o->hi) {
        fprintf(stderr, "am-run: %s '%s': %s takes %s from %u to %u\n", o->name, s, o->name,
                o->what, (unsigned)o->lo, (unsigned)o->hi);
        return -1;
    }
    *o->dst = (uint32_t)v;
    return 0;
}

int main(int argc, char **argv)
{
    am_config cfg;
    am_config_default(&cfg);
    const char *trace_path = NULL, *name = NULL, *link_path = NULL;
    int link_socket = 0;
    uint32_t max = 1000000, arg = 0;
    int quiet = 0, list_behaviors = 0;
    const num_opt opts[] = {
        { "--max", &max, 0, UINT32_MAX, "a dispatch count (0: no limit)" },
        { "--arg", &arg, 0, UINT32_MAX, "a 32-bit word" },
        { "--table", &cfg.table_size, 2, 65536, "a slot count (the console takes one)" },
        { "--gc-low", &cfg.gc_low, 0, 65536, "a slot count" },
        { "--gc-period", &cfg.gc_period, 0, 65535, "a dispatch count" },
        { "--queue", &cfg.queue_depth, 1, 1u << 24, "an event count" },
        { "--sends", &cfg.max_sends, 1, 1u << 16, "a count" },
        { "--creates", &cfg.max_creates, 1, 1u << 16, "a count" },
        { "--msg-words", &cfg.msg_words, 1, AM_MAX_MSG_WORDS, "a word count" },
        { "--state-words", &cfg.state_words, 1, AM_MAX_STATE_WORDS, "a word count" },
        { "--watchdog", &cfg.watchdog_ms, 0, AM_WATCHDOG_MS_MAX, "milliseconds (0: off)" },
    };

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const num_opt *o = NULL;
        for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
            if (!strcmp(a, opts[k].name)) o = &opts[k];
        if (o) {
            if (++i == argc) { fprintf(stderr, "am-run: %s needs a value\n", a); return EXIT_USAGE; }
            if (parse_num(o, argv[i])) return EXIT_USAGE;
        } else if (!strcmp(a, "--list") || !strcmp(a, "--list-demos")) {
            am_progsets_list(stdout, !strcmp(a, "--list-demos"));
            return EXIT_RAN;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return EXIT_RAN;
        } else if (!strcmp(a, "--faults")) {
            cfg.on_fault = on_fault;
        } else if (!strcmp(a, "--quiet")) {
            quiet = 1;
        } else if (!strcmp(a, "--behaviors")) {
            list_behaviors = 1;
        } else if (!strcmp(a, "--link") || !strcmp(a, "--link-socket")) {
            if (++i == argc) { fprintf(stderr, "am-run: %s needs a path\n", a); return EXIT_USAGE; }
            link_path = argv[i];
            link_socket = !strcmp(a, "--link-socket");
        } else if (!strcmp(a, "--trace")) {
            if (++i == argc) { fprintf(stderr, "am-run: --trace needs a file\n"); return EXIT_USAGE; }
            trace_path = argv[i];
        } else if (a[0] == '-') {
            am_suggest sg;
            fprintf(stderr, "am-run: unknown option '%s'%s (am-run --help lists them)\n", a,
                    am_suggest_option(&sg, a, usage_text));
            return EXIT_USAGE;
        } else if (!name) {
            name = a;
        } else {
            fprintf(stderr, "am-run: one program at a time ('%s' and '%s')\n", name, a);
            return EXIT_USAGE;
        }
    }
    if (!name) { usage(stderr); return EXIT_USAGE; }

    const am_progset *set = NULL;
    const am_program *d = am_program_find(name, &set);
    if (!d) {
        am_program_unknown(stderr, "am-run", name);
        return EXIT_USAGE;
    }
    cfg.behaviors = set->behaviors;
    cfg.nbehaviors = set->nbehaviors;
    g_set = set;
    if (list_behaviors) {
        am_behaviors_print(stdout, set->behaviors, set->nbehaviors);
        return EXIT_RAN;
    }

    FILE *trace = NULL;
    if (trace_path) {
        trace = strcmp(trace_path, "-") ? fopen(trace_path, "w") : stderr;
        if (!trace) {
            fprintf(stderr, "am-run: --trace %s: cannot write: %s\n", trace_path, strerror(errno));
            return EXIT_USAGE;
        }
        cfg.trace = trace;
    }

    am_crash_report("am-run", d->name, "", EXIT_CRASHED);   /* docs/semantics.md, "Stack" */
    if (link_path) {
        int rc = run_link(&cfg, set, d, arg, link_path, link_socket, quiet);
        if (trace && trace != stderr) fclose(trace);
        return rc;
    }

    am_rt *rt;
    am_status s = am_rt_new(&cfg, &rt);
    if (s != AM_OK) { fprintf(stderr, "am-run: %s\n", am_strerror(s)); return EXIT_USAGE; }
    am_ref boot;
    s = am_spawn(rt, d->boot, 0, NULL, &boot);
    if (s == AM_OK) s = am_inject(rt, boot, arg ? 1 : 0, &arg);
    if (s == AM_OK) s = am_run(rt, max);
    fflush(stdout);

    am_counters c;
    am_get_counters(rt, &c);
    if (!quiet) print_counters(d->name, rt);
    int rc = 0;
    if (s == AM_E_LIMIT) {
        /* LIMIT with nothing queued: what was left is a fault's delivery to
         * its handler (am_run) */
        fprintf(stderr, "am-run: stopped after %u dispatches with %u events queued%s\n",
                (unsigned)max, (unsigned)c.queue_len,
                c.queue_len ? "" : " and a fault's delivery to its handler waiting");
        rc = EXIT_STOPPED;
    } else if (s != AM_OK) {
        fprintf(stderr, "am-run: %s\n", am_strerror(s));
        rc = EXIT_FAILED;
    }
    if (trace && trace != stderr) fclose(trace);
    am_rt_free(rt);
    return rc;
}
