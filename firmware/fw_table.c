/*
 * fw_table.c — the firmware's behavior table: the built-ins (ids 0..2, in
 * fw_main.c) followed by the library's and the program folder's lists
 * (lib/behaviors_all.def), exactly as the host builds the folder's table
 * (host/am_progset_def.c), so ids agree on both sides.
 */
#include "fw.h"
#include "behaviors.h"

FW_DISPATCH_TABLE = {
    FW_DISPATCH_ENTRIES       /* DEVICE, IDLE, the built-ins (fw.h) */
#define AM_BEHAVIOR(NAME, fn) fn,
#include "behaviors_all.def"
#undef AM_BEHAVIOR
};

FW_TABLE_END(fw_dispatch);
