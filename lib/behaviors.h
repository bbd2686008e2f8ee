/*
 * behaviors.h — behavior ids (AMB_*) of the image being built: the library's
 * behaviors, then the program folder's (lib/behaviors_all.def), and the
 * declarations of their functions. A program's sources include this with
 * their folder on the include path; the library's own sources see only the
 * library's ids, which come first and are therefore the same in every image.
 */
#ifndef AM_BEHAVIORS_H
#define AM_BEHAVIORS_H

#include "am.h"

#define AM_BEHAVIOR(NAME, fn) void fn(am_ctx *ctx);
#include "behaviors_all.def"
#undef AM_BEHAVIOR

enum am_std_behavior {
    AMB_BEFORE_FIRST_ = AM_BEH_FIRST_USER - 1,
#define AM_BEHAVIOR(NAME, fn) AMB_##NAME,
#include "behaviors_all.def"
#undef AM_BEHAVIOR
    AMB_COUNT_
};

#endif /* AM_BEHAVIORS_H */
