/*
 * am_behaviors.c — the library's behavior table (am_std_behaviors): the
 * built-ins (ids 0..2, implemented in am_rt.c) followed by
 * lib/lib_behaviors.def, the default of am_config. A program folder's table
 * adds its own behaviors after these (host/am_progset_def.c).
 */
#include "am_rt.h"
#include "behaviors.h"

const am_behavior_desc am_std_behaviors[] = {
    AM_BUILTIN_BEHAVIORS,
#define AM_BEHAVIOR(NAME, fn) { #NAME, fn },
#include "behaviors_all.def"
#undef AM_BEHAVIOR
};

const uint32_t am_std_nbehaviors =
    (uint32_t)(sizeof am_std_behaviors / sizeof am_std_behaviors[0]);
