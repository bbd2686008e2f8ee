/*
 * am_programs.h — the runnable programs by name: the demos (demos/demos.def)
 * and the test programs (tests/programs/programs.def). A program is a boot
 * behavior: spawn one actor with it (empty state), send it one empty message.
 * Used by am-run and by the SoC simulator, so both start programs alike.
 */
#ifndef AM_PROGRAMS_H
#define AM_PROGRAMS_H

#include "am.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct am_program {
    const char *name;
    am_beh boot;
    const char *what;
    int demo;          /* 1: part of `make demo`; 0: a test program */
} am_program;

extern const am_program am_programs[];   /* ends with { NULL } */
const am_program *am_program_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif /* AM_PROGRAMS_H */
