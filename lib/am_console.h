/*
 * am_console.h — the console device's message formats turned into bytes.
 * Target-independent (no libc), shared by the host runtime's console and the
 * firmware's, so both print exactly the same bytes for the same message.
 */
#ifndef AM_CONSOLE_H
#define AM_CONSOLE_H

#include "am.h"

#define AM_CONSOLE_LINE_MAX 192u

/* Format one console message (formats in am.h) into buf (at least
 * AM_CONSOLE_LINE_MAX bytes, not NUL-terminated); returns the byte count.
 * A message in no known format prints "<console: bad message len=N w0=XXXXXXXX>". */
uint32_t am_console_format(uint32_t len, const am_word *msg, char *buf);

/* The console as the default fault handler: one line per fault delivery,
 * "fault: CAUSE op=OP value=XXXXXXXX code=XXXXXXXX target=XXXXXXXX beh=N msg=[...]\n"
 * (at most 177 bytes). */
uint32_t am_console_format_fault(const am_fault_info *f, uint32_t len, const am_word *msg,
                                 char *buf);

#endif /* AM_CONSOLE_H */
