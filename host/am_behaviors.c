/*
 * am_behaviors.c — the standard behavior table of the host runtime: the
 * built-ins (ids 0..2, implemented in am_rt.c) followed by lib/behaviors.def
 * in order. firmware/ builds its table from the same list.
 */
#include "am_rt.h"
#include "behaviors.h"

void am_builtin_console(am_ctx *ctx);
void am_builtin_sink(am_ctx *ctx);
void am_builtin_ask(am_ctx *ctx);

const am_behavior_desc am_std_behaviors[] = {
    { "CONSOLE", am_builtin_console },
    { "SINK", am_builtin_sink },
    { "ASK", am_builtin_ask },
#define AM_BEHAVIOR(NAME, fn) { #NAME, fn },
#include "behaviors.def"
#undef AM_BEHAVIOR
};

const uint32_t am_std_nbehaviors =
    (uint32_t)(sizeof am_std_behaviors / sizeof am_std_behaviors[0]);
