/*
 * am_programs.c — the program list (see am_programs.h).
 */
#include "am_programs.h"

#include <string.h>

#include "behaviors.h"

const am_program am_programs[] = {
#define AM_DEMO(name, boot, what) { name, boot, what, 1 },
#include "../demos/demos.def"
#undef AM_DEMO
#define AM_DEMO(name, boot, what) { name, boot, what, 0 },
#include "../tests/programs/programs.def"
#undef AM_DEMO
#define AM_DEMO(name, boot, what) { name, boot, what, 0 },
#include "../bench/programs.def"
#undef AM_DEMO
    { NULL, 0, NULL, 0 }
};

const am_program *am_program_find(const char *name)
{
    for (const am_program *p = am_programs; p->name; p++)
        if (strcmp(p->name, name) == 0) return p;
    return NULL;
}
