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
 * Exit status: 0 when the queue drained, 1 on a usage or runtime error,
 * 2 when the dispatch budget ran out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "am_rt.h"
#include "am_progset.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: am-run [options] PROGRAM  run a program on the reference runtime\n"
        "       am-run --list             list the programs\n"
        "options:\n"
        "  --trace FILE       write one line per transaction (- for stdout)\n"
        "  --arg N            the boot message is [N] instead of [] (e.g. a fuzz seed)\n"
        "  --max N            stop after N dispatches (default 1000000)\n"
        "  --table N          actor table slots, console included (default 128)\n"
        "  --gc-low N         collect garbage when fewer than N slots are free (default 4;\n"
        "                     0 = never on that account; docs/gc.md)\n"
        "  --gc-period N      collect every N dispatches (default 1024; 0 = off)\n"
        "  --queue N          event queue depth (default 63)\n"
        "  --sends N          sends per transaction (default 8)\n"
        "  --creates N        creates per transaction (default 4)\n"
        "  --msg-words N      words per message (default 8)\n"
        "  --state-words N    state words per actor (default 8)\n"
        "  --faults           print every fault record (also when a program installs\n"
        "                     its own fault handler instead of the console)\n"
        "  --quiet            no counters at the end\n");
}

static void on_fault(void *user, const am_fault_record *rec)
{
    (void)user;
    fflush(stdout);
    am_fault_print(stdout, rec);
}

static int parse_u32(const char *opt, const char *s, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 0);
    if (errno || *s == '\0' || *end != '\0' || v > 0xffffffffUL) {
        fprintf(stderr, "am-run: %s needs a number, got '%s'\n", opt, s);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int main(int argc, char **argv)
{
    am_config cfg;
    am_config_default(&cfg);
    const char *trace_path = NULL, *name = NULL;
    uint32_t max = 1000000, arg = 0;
    int quiet = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint32_t *dst = NULL;
        if (!strcmp(a, "--list") || !strcmp(a, "--list-demos")) {
            am_progsets_list(stdout, !strcmp(a, "--list-demos"));
            return 0;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--faults")) {
            cfg.on_fault = on_fault;
            continue;
        } else if (!strcmp(a, "--quiet")) {
            quiet = 1;
            continue;
        } else if (!strcmp(a, "--trace")) {
            if (++i == argc) { usage(stderr); return 1; }
            trace_path = argv[i];
            continue;
        } else if (!strcmp(a, "--max")) dst = &max;
        else if (!strcmp(a, "--arg")) dst = &arg;
        else if (!strcmp(a, "--table")) dst = &cfg.table_size;
        else if (!strcmp(a, "--gc-low")) dst = &cfg.gc_low;
        else if (!strcmp(a, "--gc-period")) dst = &cfg.gc_period;
        else if (!strcmp(a, "--queue")) dst = &cfg.queue_depth;
        else if (!strcmp(a, "--sends")) dst = &cfg.max_sends;
        else if (!strcmp(a, "--creates")) dst = &cfg.max_creates;
        else if (!strcmp(a, "--msg-words")) dst = &cfg.msg_words;
        else if (!strcmp(a, "--state-words")) dst = &cfg.state_words;
        else if (a[0] == '-') {
            fprintf(stderr, "am-run: unknown option '%s'\n", a);
            usage(stderr);
            return 1;
        } else if (!name) {
            name = a;
            continue;
        } else {
            fprintf(stderr, "am-run: one program at a time ('%s' and '%s')\n", name, a);
            return 1;
        }
        if (++i == argc) { fprintf(stderr, "am-run: %s needs a value\n", a); return 1; }
        if (parse_u32(a, argv[i], dst)) return 1;
    }
    if (!name) { usage(stderr); return 1; }

    const am_progset *set = NULL;
    const am_program *d = am_program_find(name, &set);
    if (!d) {
        fprintf(stderr, "am-run: no program named '%s' in", name);
        for (const am_progset *const *ps = am_progsets; *ps; ps++)
            fprintf(stderr, " %s%s", (*ps)->folder, ps[1] ? "," : "");
        fprintf(stderr, "; am-run --list lists them\n");
        return 1;
    }
    cfg.behaviors = set->behaviors;
    cfg.nbehaviors = set->nbehaviors;

    FILE *trace = NULL;
    if (trace_path) {
        trace = strcmp(trace_path, "-") ? fopen(trace_path, "w") : stdout;
        if (!trace) {
            fprintf(stderr, "am-run: cannot write %s: %s\n", trace_path, strerror(errno));
            return 1;
        }
        cfg.trace = trace;
    }

    am_rt *rt;
    am_status s = am_rt_new(&cfg, &rt);
    if (s != AM_OK) { fprintf(stderr, "am-run: %s\n", am_strerror(s)); return 1; }
    am_ref boot;
    s = am_spawn(rt, d->boot, 0, NULL, &boot);
    if (s == AM_OK) s = am_inject(rt, boot, arg ? 1 : 0, &arg);
    if (s == AM_OK) s = am_run(rt, max);
    fflush(stdout);

    am_counters c;
    am_get_counters(rt, &c);
    if (!quiet)
        printf("\n[%s] dispatches=%llu commits=%llu aborts=%llu faults=%llu "
               "queue-high-water=%u live=%u\n", d->name,
               (unsigned long long)c.dispatches, (unsigned long long)c.commits,
               (unsigned long long)c.aborts, (unsigned long long)c.faults,
               (unsigned)c.queue_high_water, (unsigned)c.live);
    if (!quiet)
        printf("[%s] gc: runs=%llu reclaimed=%llu live-after-gc-max=%u free=%u\n", d->name,
               (unsigned long long)c.gc_runs, (unsigned long long)c.gc_reclaimed,
               (unsigned)c.gc_live_max, (unsigned)c.free);
    int rc = 0;
    if (s == AM_E_LIMIT) {
        fprintf(stderr, "am-run: stopped after %u dispatches with %u events queued\n",
                (unsigned)max, (unsigned)c.queue_len);
        rc = 2;
    } else if (s != AM_OK) {
        fprintf(stderr, "am-run: %s\n", am_strerror(s));
        rc = 1;
    }
    if (trace && trace != stdout) fclose(trace);
    am_rt_free(rt);
    return rc;
}
