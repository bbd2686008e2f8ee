/*
 * link_prog.c — actors for a host to talk to over the link (docs/link.md),
 * and the export rules as a program the lockstep checker runs.
 *
 * link-echo exports:
 *   0 ECHO     [customer, w...]  -> customer gets [w...] (no customer: AM_NIL)
 *   1 COUNTER  [customer, n]     -> adds n; customer (unless AM_NIL) gets
 *                                   [messages, sum] -- an inject is
 *                                   [AM_NIL, n], an ask [n]
 *   2 SLOW     as COUNTER, after SLOW_SPIN iterations of busy work, and it
 *              takes 2 to 8 words (the rest is padding: big frames): a host
 *              flooding it fills the event queue (the link answers "busy")
 * A message of another length is a fault (am_fail 1), printed by the
 * console. Its boot queues two messages of busy work for an actor of its
 * own before the exports (BOOT_AHEAD).
 *
 * link-full exports 0 ECHO, 1 FILL [k] (k unreachable actors) and 2 KEEP
 * [k] (k more actors it keeps), below.
 */
#include "am.h"
#include "behaviors.h"

#define SLOW_SPIN 20000u
/* The boot's first messages: busy work queued ahead of its exports, so
 * that a host the link answered before they were delivered would find no
 * names (the link's hold after a boot, docs/link.md "When the link
 * answers"); the boot sends 8 messages, its MAX_SENDS. */
#define BOOT_AHEAD 2u

void link_service(am_ctx *ctx)
{
    am_ref echo = AM_CREATE(ctx, AMB_LINK_ECHO, 0);
    am_ref counter = AM_CREATE(ctx, AMB_LINK_COUNTER, 0, 0);
    am_ref slow = AM_CREATE(ctx, AMB_LINK_SLOW, 0, 0);
    am_ref spin = AM_CREATE(ctx, AMB_LINK_SPIN, 0);
    for (uint32_t i = 0; i < BOOT_AHEAD; i++) AM_SEND(ctx, spin, 0);
    am_export(ctx, 0, echo);
    am_export(ctx, 1, counter);
    am_export(ctx, 2, slow);
    am_export(ctx, 3, AM_CONSOLE);   /* never a host's: name 3 stays unexported */
    am_print(ctx, "link-echo: echo 0, counter 1, slow 2\n");
    am_become(ctx, AM_BEH_SINK, 0, 0);
}

void link_echo(am_ctx *ctx)
{
    uint32_t n = am_msg_len(ctx);
    if (n == 0) am_fail(ctx, 1);
    am_word w[AM_MAX_MSG_WORDS];
    for (uint32_t i = 1; i < n; i++) w[i - 1] = am_msg(ctx, i);
    if (am_msg(ctx, 0) != AM_NIL) am_send(ctx, am_msg(ctx, 0), n - 1, w);
}

static void count(am_ctx *ctx, am_beh self_beh, uint32_t max_len)
{
    if (am_msg_len(ctx) < 2 || am_msg_len(ctx) > max_len) am_fail(ctx, 1);
    am_word msgs = am_state(ctx, 0) + 1, sum = am_state(ctx, 1) + am_msg(ctx, 1);
    AM_BECOME(ctx, self_beh, msgs, sum);
    if (am_msg(ctx, 0) != AM_NIL) AM_SEND(ctx, am_msg(ctx, 0), msgs, sum);
}

void link_counter(am_ctx *ctx) { count(ctx, AMB_LINK_COUNTER, 2); }

/* busy work, then nothing: the boot's first messages */
void link_spin(am_ctx *ctx)
{
    (void)ctx;
    volatile am_word spin = 0;
    while (spin < SLOW_SPIN / 4u) spin = spin + 1;
}

void link_slow(am_ctx *ctx)
{
    volatile am_word spin = 0;
    while (spin < SLOW_SPIN) spin = spin + 1;
    count(ctx, AMB_LINK_SLOW, AM_MAX_MSG_WORDS);
}

/* ---- link-full: a table full of garbage, or nearly full of live actors ---
 * FILL [k] makes k unreachable actors, FILL_TURN (the machine's MAX_CREATES)
 * a transaction at most, and keeps the last FILL_TURN for the last one. With
 * k the free slots, that one starts with FILL_TURN free -- not fewer than
 * GC_LOW (reset: MAX_CREATES), so no collection runs before it -- and the
 * machine goes idle with every slot taken. A host's ask then needs a slot
 * for its proxy: the link collects for it (docs/link.md). KEEP [k] adds k
 * actors to a chain its state holds, FILL_TURN a transaction: live actors
 * that leave a few slots free, where a long FILL collects on demand every
 * other transaction while a host's asks spawn proxies in between. */
#define FILL_TURN 4u

void link_full(am_ctx *ctx)
{
    am_export(ctx, 0, AM_CREATE(ctx, AMB_LINK_ECHO, 0));
    am_export(ctx, 1, AM_CREATE(ctx, AMB_LINK_FILL, 0));
    am_export(ctx, 2, AM_CREATE(ctx, AMB_LINK_KEEP, 0));
    am_print(ctx, "link-full: echo 0, fill 1, keep 2\n");
    am_become(ctx, AM_BEH_SINK, 0, 0);
}

void link_fill(am_ctx *ctx)
{
    am_word k = am_msg(ctx, 0);
    am_word n = k <= FILL_TURN ? k : k - FILL_TURN < FILL_TURN ? k - FILL_TURN : FILL_TURN;
    for (am_word i = 0; i < n; i++) AM_CREATE(ctx, AM_BEH_SINK, 0);
    if (k > n) AM_SEND(ctx, am_self(ctx), k - n);
}

void link_keep(am_ctx *ctx)
{
    am_word k = am_msg(ctx, 0), head = am_state(ctx, 0);
    am_word n = k < FILL_TURN ? k : FILL_TURN;
    for (am_word i = 0; i < n; i++) head = AM_CREATE(ctx, AM_BEH_SINK, head);
    AM_BECOME(ctx, AMB_LINK_KEEP, head);
    if (k > n) AM_SEND(ctx, am_self(ctx), k - n);
}

/* ---- link-exports: the rules of am_export, compared in lockstep ------------
 * The boot exports an echo as 0 and a counter as 5; two malformed export
 * messages print the console's bad-message line; an actor that exports
 * (name 1) and then fails exports nothing. The boot then drops its own
 * references: the exported actors live on as the console's state words
 * while garbage churns through collections; withdrawing name 5 lets the
 * next collections reclaim the counter (the collection lines say so, on
 * both sides). */
#define CHURN_STEPS 300u

void link_exports(am_ctx *ctx)
{
    am_ref echo = AM_CREATE(ctx, AMB_LINK_ECHO, 0);
    am_ref counter = AM_CREATE(ctx, AMB_LINK_COUNTER, 0, 0);
    am_export(ctx, 0, echo);
    am_export(ctx, 5, counter);
    AM_SEND(ctx, AM_CONSOLE, AM_CON_EXPORT, AM_EXPORT_MAX, echo);   /* no such name */
    AM_SEND(ctx, AM_CONSOLE, AM_CON_EXPORT, 1);                     /* too short */
    am_ref failer = AM_CREATE(ctx, AMB_LINK_FAILER, 0);
    AM_SEND(ctx, failer, echo);
    am_ref churn = AM_CREATE(ctx, AMB_LINK_CHURN, 0);
    AM_SEND(ctx, churn, CHURN_STEPS);
    am_print(ctx, "link-exports: echo 0, counter 5\n");
    am_become(ctx, AM_BEH_SINK, 0, 0);
}

void link_failer(am_ctx *ctx)
{
    am_export(ctx, 1, am_msg(ctx, 0));
    am_fail(ctx, 7);
}

/* [k]: make one unreachable actor and go on with [k-1]; half way, withdraw
 * name 5; at 0 print the end. */
void link_churn(am_ctx *ctx)
{
    am_word k = am_msg(ctx, 0);
    if (k == 0) {
        am_print(ctx, "link-exports: done\n");
        return;
    }
    AM_CREATE(ctx, AM_BEH_SINK, 0);
    if (k == CHURN_STEPS / 2) am_export(ctx, 5, AM_NIL);
    AM_SEND(ctx, am_self(ctx), k - 1);
}
