/*
 * am_progset_def.c — one program set (am_progset.h), compiled once per
 * program folder with the folder on the include path: the folder's
 * behaviors.def (through behaviors.h) and programs.def. The build names the
 * set and records where the folder's firmware image is:
 *
 *   -DAM_PROGSET=am_progset_KEY  -DAM_PROGSET_FOLDER='"DIR"'
 *   -DAM_PROGSET_IMAGE='"build/programs/KEY/fw/fw.hex"'  -DAM_PROGSET_DEMOS=0|1
 *   -DAM_PROGSET_SRC_HASH=0x...   (scripts/am_program.py srchash DIR)
 */
#include "am_progset.h"
#include "behaviors.h"

#if !defined(AM_PROGSET) || !defined(AM_PROGSET_FOLDER) || !defined(AM_PROGSET_IMAGE) || \
    !defined(AM_PROGSET_DEMOS) || !defined(AM_PROGSET_SRC_HASH)
#error "am_progset_def.c is compiled by the build with AM_PROGSET, _FOLDER, _IMAGE, _DEMOS, _SRC_HASH"
#endif

static const am_behavior_desc behaviors[] = {
    AM_BUILTIN_BEHAVIORS,
#define AM_BEHAVIOR(NAME, fn) { #NAME, fn },
#include "behaviors_all.def"
#undef AM_BEHAVIOR
};

static const am_program programs[] = {
#define AM_DEMO(name, boot, what) { name, boot, what },
#include "programs.def"
#undef AM_DEMO
    { NULL, 0, NULL }
};

const am_progset AM_PROGSET = {
    AM_PROGSET_FOLDER, AM_PROGSET_IMAGE, AM_PROGSET_DEMOS,
    behaviors, (uint32_t)(sizeof behaviors / sizeof behaviors[0]), programs,
    AM_PROGSET_SRC_HASH,
};
