/*
 * am_crash.h — a one-line report when a behavior's C code crashes the host
 * process (am-run, am-sim). Not part of the runtime's API: the runners'.
 */
#ifndef AM_CRASH_H
#define AM_CRASH_H

#ifdef __cplusplus
extern "C" {
#endif

/* From now on SIGSEGV, SIGBUS, SIGFPE and SIGILL flush stdout, print
 * "\nTOOL: NAME: a behavior crashed the host process WHERE (SIGNAL: why):
 * ..." on stderr and exit with status; where is "" or e.g. " in the
 * reference runtime". On an alternate stack, so that a stack the behavior
 * used up reports too. */
void am_crash_report(const char *tool, const char *name, const char *where, int status);

#ifdef __cplusplus
}
#endif
#endif /* AM_CRASH_H */
