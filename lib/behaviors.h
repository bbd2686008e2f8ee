/*
 * behaviors.h — behavior ids of the standard behavior table (AMB_*), built
 * from behaviors.def, and the declarations of their functions.
 */
#ifndef AM_BEHAVIORS_H
#define AM_BEHAVIORS_H

#include "am.h"

#define AM_BEHAVIOR(NAME, fn) void fn(am_ctx *ctx);
#include "behaviors.def"
#undef AM_BEHAVIOR

enum am_std_behavior {
    AMB_BEFORE_FIRST_ = AM_BEH_FIRST_USER - 1,
#define AM_BEHAVIOR(NAME, fn) AMB_##NAME,
#include "behaviors.def"
#undef AM_BEHAVIOR
    AMB_COUNT_
};

#endif /* AM_BEHAVIORS_H */
