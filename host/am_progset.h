/*
 * am_progset.h — program sets: what one program folder contributes to a
 * runner (docs/programs.md).
 *
 * A program folder (its .c files, behaviors.def, programs.def) is compiled
 * into one program set: the folder's behavior table (built-ins, library,
 * folder, in id order), its programs by name, and the path of the firmware
 * image built from the same folder. am-run and am-sim are linked with a list
 * of sets (am_progsets): one for `make run PROGRAM=DIR`, the project's
 * demos, test programs and workloads for build/host/am-run and
 * build/sim/am-sim. A program runs with its own set's table, so a behavior id
 * means the same on the host and in that set's firmware image.
 */
#ifndef AM_PROGSET_H
#define AM_PROGSET_H

#include "am_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One program: spawn an actor with behavior boot (empty state), send it one
 * message ([] or [arg]). */
typedef struct am_program {
    const char *name;
    am_beh boot;
    const char *what;
} am_program;

typedef struct am_progset {
    const char *folder;                 /* the folder it was built from */
    const char *image;                  /* its firmware image (.hex), for am-sim */
    int demos;                          /* 1: its programs are demos (make demo) */
    const am_behavior_desc *behaviors;  /* built-ins, library, folder */
    uint32_t nbehaviors;
    const am_program *programs;         /* ends with { NULL } */
    uint32_t src_hash;                  /* of the sources it was compiled from
                                           (the image header carries its own) */
} am_progset;

/* The sets a runner was linked with, ending with NULL (generated per runner
 * by the build). */
extern const am_progset *const am_progsets[];

/* The program called name in any of the sets, and its set; NULL if none. */
const am_program *am_program_find(const char *name, const am_progset **set);

/* The hash of a behavior table that firmware images carry in their header:
 * FNV-1a (32 bits) over each behavior's name followed by '\n', in id order.
 * Equal hashes: the same behaviors under the same ids. */
uint32_t am_behavior_table_hash(const am_behavior_desc *tab, uint32_t n);

/* --list: one line per program ("NAME  [test] what"); demos_only: the names
 * of the demos only (--list-demos). */
void am_progsets_list(FILE *f, int demos_only);

/* The one line a runner (tool: "am-run", "am-sim") says for a NAME no set
 * has: the folders and, when they are few, their programs' names. */
void am_program_unknown(FILE *f, const char *tool, const char *name);

#ifdef __cplusplus
}
#endif
#endif /* AM_PROGSET_H */
