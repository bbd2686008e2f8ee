/*
 * am_crash.c — see am_crash.h. A behavior's C code can crash the host
 * process where the machine has checks (a wild access is TRAP_BUS, a stack
 * overflow STACK) or no trap at all (RISC-V divides by zero). The runtime
 * cannot undo such a crash, so the runner says what happened, in one line
 * (docs/semantics.md, "Stack"). The lines are made before the run, for
 * write(). What the console printed before is flushed first: fflush is not
 * async-signal-safe, but the crash comes from a behavior's code, never from
 * inside stdio.
 */
#define _XOPEN_SOURCE 700   /* sigaction, sigaltstack */
#include "am_crash.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NSIG_CAUGHT = 4 };
static const int g_sig[NSIG_CAUGHT] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
static char g_msg[NSIG_CAUGHT][300];
static int g_status;

static void on_crash(int sig)
{
    fflush(stdout);
    for (int i = 0; i < NSIG_CAUGHT; i++)
        if (sig == g_sig[i]) {
            ssize_t w = write(STDERR_FILENO, g_msg[i], strlen(g_msg[i]));
            (void)w;
        }
    _exit(g_status);
}

void am_crash_report(const char *tool, const char *name, const char *where, int status)
{
    static const char *why[NSIG_CAUGHT] = {
        "SIGSEGV: a wild pointer, or a stack deeper than the host's",
        "SIGBUS: a wild pointer", "SIGFPE: an integer division by zero or overflow",
        "SIGILL: an illegal instruction" };
    static char alt[1 << 16];   /* the handler's stack: the host's own may be the one used up */
    stack_t ss = { .ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0 };
    sigaltstack(&ss, NULL);
    g_status = status;
    for (int i = 0; i < NSIG_CAUGHT; i++) {
        snprintf(g_msg[i], sizeof g_msg[i],
                 "\n%s: %s: a behavior crashed the host process%s (%s): a bug in the "
                 "program's C code, which the runtime cannot undo (exit %d)\n",
                 tool, name, where, why[i], status);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_crash;
        sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
        sigaction(g_sig[i], &sa, NULL);
    }
}
