/*
 * am_console.h — the console device's message formats turned into bytes,
 * and the built-in behaviors that talk to the outside: the console and the
 * host link's ask proxy. Target-independent (no libc), shared by the host
 * runtime and the firmware, so both send exactly the same bytes for the same
 * message.
 */
#ifndef AM_CONSOLE_H
#define AM_CONSOLE_H

#include "am.h"
#include "am_link_wire.h"

#define AM_CONSOLE_LINE_MAX 192u

/* Format one console message (formats in am.h) into buf (at least
 * AM_CONSOLE_LINE_MAX bytes, not NUL-terminated); returns the byte count.
 * A valid export prints nothing (0 bytes); a message in no known format
 * prints "<console: bad message len=N w0=XXXXXXXX>". */
uint32_t am_console_format(uint32_t len, const am_word *msg, char *buf);

/* The console as the default fault handler: one line per fault delivery,
 * "fault: CAUSE op=OP value=XXXXXXXX code=XXXXXXXX target=XXXXXXXX beh=N msg=[...]\n"
 * (at most 177 bytes). */
uint32_t am_console_format_fault(const am_fault_info *f, uint32_t len, const am_word *msg,
                                 char *buf);

/* [AM_CON_EXPORT, name, ref] with name < AM_EXPORT_MAX (am.h). */
int am_console_is_export(uint32_t len, const am_word *msg);

/* The console device's behavior, the same code on the reference runtime and
 * the firmware: a fault delivery prints its line (am_console_format_fault);
 * a valid export prints nothing and BECOMEs the console with the updated
 * table as its state (words past the last name in use are not stored);
 * anything else is printed (am_console_format). With link_on the bytes go
 * out as one CONSOLE frame (am_link_wire.h; none for an empty text), else
 * as they are. */
void am_console_run(am_ctx *ctx, int link_on, am_link_put_fn put, void *user);

/* The ask proxy (AM_BEH_ASK with state [0, seq]; docs/link.md): with the
 * link on, sends its message back as a REPLY frame with the ask's sequence
 * number -- a function of its state and message alone, so the firmware and
 * the reference runtime send the same bytes. Returns 0 when the actor is
 * not a link proxy (state word 0 is not 0), else 1. The caller makes the
 * actor a sink. */
int am_link_proxy_run(am_ctx *ctx, int link_on, am_link_put_fn put, void *user);

#endif /* AM_CONSOLE_H */
