/*
 * am.h — the actor API of actormachine.
 *
 * One header, used unchanged by programs compiled for the host reference
 * runtime (host/) and for the firmware of the hardware machine (firmware/).
 * A program is a set of behaviors; a behavior is a C function that runs once
 * per message delivered to an actor and may do three things, all of them
 * *staged* and made visible together when the behavior returns (commit), or
 * not at all when it fails (abort):
 *
 *   am_create(ctx, beh, n, state)  -> reference to a new actor
 *   am_send(ctx, target, n, msg)      appended to the event queue at commit
 *   am_become(ctx, beh, n, state)     replaces self's behavior/state at commit
 *   am_fail(ctx, code)                abort: nothing staged becomes visible
 *
 * Everything a behavior sees or says is a 32-bit word: integers, behavior
 * ids, and actor references (opaque words; see docs/semantics.md). Behaviors
 * never keep C pointers in state or messages and never call host-only
 * functions, so the same source computes the same words on a 64-bit host and
 * on the 32-bit RISC-V core.  See docs/api.md for a worked example.
 */
#ifndef AM_H
#define AM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t am_word;   /* a message or state word */
typedef uint32_t am_ref;    /* an actor reference (opaque; compare with ==) */
typedef uint32_t am_beh;    /* a behavior id: an index into the behavior table */

/* Architectural ceilings. The configured bounds (am_config in host/am_rt.h,
 * parameters of the hardware) may be lower, never higher. */
#define AM_MAX_MSG_WORDS   8u   /* words in one message */
#define AM_MAX_STATE_WORDS 8u   /* state words of one actor */

/* The reference that is never valid (sending to it is a BAD_REF fault). */
#define AM_NIL ((am_ref)0)

/* Well-known actors, present from reset on both targets. */
#define AM_CONSOLE ((am_ref)0x00010000u) /* slot 0, generation 1 */

/* The per-dispatch context: which event is being delivered and what has been
 * staged so far. Opaque; valid only during the behavior call. */
typedef struct am_ctx am_ctx;

/* A behavior: runs once per delivered message. */
typedef void (*am_behavior_fn)(am_ctx *ctx);

/* ---- what the behavior sees ------------------------------------------- */
am_ref   am_self(const am_ctx *ctx);          /* the actor receiving */
am_beh   am_my_behavior(const am_ctx *ctx);   /* its behavior id */
uint32_t am_msg_len(const am_ctx *ctx);       /* words in the message */
am_word  am_msg(const am_ctx *ctx, uint32_t i);   /* word i; 0 if i >= len */
am_word  am_state(const am_ctx *ctx, uint32_t i); /* state word i at dispatch
                                                     start; 0 beyond bound */

/* ---- effects (staged; visible only at commit) --------------------------- */
/* Create an actor. Returns its reference, usable at once in this behavior's
 * own sends/state, live for everyone else only after commit. Faults:
 * BAD_BEHAVIOR, STATE_TOO_LONG, TOO_MANY_CREATES, TABLE_FULL. */
am_ref am_create(am_ctx *ctx, am_beh beh, uint32_t n, const am_word *state);

/* Stage a message. Faults: BAD_REF (target not a live actor nor one created
 * by this transaction), MSG_TOO_LONG, TOO_MANY_SENDS. Queue space is checked
 * at commit (QUEUE_FULL). */
void am_send(am_ctx *ctx, am_ref target, uint32_t n, const am_word *msg);

/* Stage self's next behavior and state (words past n become 0). Last wins.
 * Faults: BAD_BEHAVIOR, STATE_TOO_LONG. */
void am_become(am_ctx *ctx, am_beh beh, uint32_t n, const am_word *state);

/* ---- copy-free effects ---------------------------------------------------
 * The same effects without copying words through the behavior: on the
 * hardware each is one store, and the actor unit moves the words itself.
 *
 * Stage one word of self's next state: word i becomes w at commit; the
 * behavior and the other words stay as staged so far -- as at dispatch, or
 * as the last am_become left them (a later am_become replaces everything).
 * Words between the state's length and i read 0. Fault: STATE_TOO_LONG when
 * i is not below the state bound (op BECOME, value i + 1). */
void am_set_state(am_ctx *ctx, uint32_t i, am_word w);

/* Forward the message being handled: send n words, word i being message
 * word i + from (0 where that is below 0 or not below the message's length),
 * except the words set with am_send_word since the last send, which are
 * sent as set. E.g. am_forward(ctx, t, am_msg_len(ctx), 0) passes the
 * message on; am_send_word(ctx, 0, x) first replaces its word 0;
 * am_forward(ctx, t, len - 1, 1) drops word 0; am_send_word(ctx, 0,
 * am_self(ctx)) and am_forward(ctx, t, len + 1, -1) prepend self. Faults
 * and checks: those of am_send. am_send_word's fault: MSG_TOO_LONG when i is
 * not below the message bound (op SEND, value i + 1). Any send uses up the
 * words set. */
void am_send_word(am_ctx *ctx, uint32_t i, am_word w);
void am_forward(am_ctx *ctx, am_ref target, uint32_t n, int32_t from);

/* Abort the transaction with a program-chosen code. Does not return. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn))
#endif
void am_fail(am_ctx *ctx, am_word code);

/* ---- faults ---------------------------------------------------------------
 * When a transaction aborts, the failed event is delivered -- as the very
 * next transaction, its message words unchanged -- to the fault handler
 * actor, unless the failed event was itself such a delivery. The handler is
 * the console from reset (it prints one line per fault); a behavior installs
 * another with am_set_fault_handler (staged: effective at commit), e.g. a
 * supervisor that retries the request or replies with an error. AM_NIL
 * means no handler: fault records are then only counted and traced. */
typedef struct am_fault_info {
    uint32_t cause;    /* enum am_fault */
    am_word  code;     /* the am_fail code for AM_FAULT_FAIL, else 0 */
    am_ref   target;   /* the actor the failed event was sent to */
    am_beh   beh;      /* its behavior, 0xffffffff for AM_FAULT_DEAD_TARGET */
    uint32_t op;       /* enum am_fault_op: the operation that failed */
    am_word  value;    /* the offending value (am_fault_op), else 0 */
} am_fault_info;

/* Nonzero when the event being handled is a fault delivery; fills *info. */
int am_fault(const am_ctx *ctx, am_fault_info *info);

/* Stage a new fault handler: AM_NIL, or a reference whose slot lies inside
 * the actor table (else BAD_REF). A dead handler's deliveries abort with
 * DEAD_TARGET and are not delivered again. */
void am_set_fault_handler(am_ctx *ctx, am_ref handler);

/* Variadic conveniences: AM_SEND(ctx, to, w0, w1, ...) etc. (at least one
 * word, which the compiler checks: AM_SEND(ctx, to) is an error; use
 * am_send(ctx, to, 0, 0) for an empty message). */
#define AM_NWORDS_(...) ((uint32_t)(sizeof((const am_word[]){__VA_ARGS__}) / sizeof(am_word)))
#define AM_SEND(ctx, to, w0, ...) \
    am_send((ctx), (to), AM_NWORDS_(w0, __VA_ARGS__), (const am_word[]){w0, __VA_ARGS__})
#define AM_CREATE(ctx, beh, w0, ...) \
    am_create((ctx), (beh), AM_NWORDS_(w0, __VA_ARGS__), (const am_word[]){w0, __VA_ARGS__})
#define AM_BECOME(ctx, beh, w0, ...) \
    am_become((ctx), (beh), AM_NWORDS_(w0, __VA_ARGS__), (const am_word[]){w0, __VA_ARGS__})

/* ---- the console device actor -------------------------------------------
 * Printing is a SEND to AM_CONSOLE, hence transactional: an aborted behavior
 * prints nothing. Message formats (word 0 is the kind):
 *   [AM_CON_TEXT | nbytes<<8, w1..w7]  up to 28 bytes, packed little-endian
 *   [AM_CON_INT, v]                    v as a signed decimal
 *   [AM_CON_UINT, v]                   v as an unsigned decimal
 *   [AM_CON_HEX, v]                    v as 8 lowercase hex digits
 *   [AM_CON_EXPORT, name, ref]         prints nothing: an export (below)
 * Any other message is printed as "<console: bad message ...>" (never lost).
 * The helpers below split text into as many sends as needed (each counts
 * against the per-transaction send bound). */
#define AM_CON_TEXT 1u
#define AM_CON_INT  2u
#define AM_CON_UINT 3u
#define AM_CON_HEX  4u
#define AM_CON_EXPORT 5u
#define AM_CON_TEXT_MAX 28u

void am_print(am_ctx *ctx, const char *text);
void am_print_int(am_ctx *ctx, int32_t v);
void am_print_uint(am_ctx *ctx, uint32_t v);
void am_print_hex(am_ctx *ctx, uint32_t v);

/* ---- exports: the actors a host may address over the link -----------------
 * [AM_CON_EXPORT, name, ref] to the console makes ref the actor the host
 * link (docs/link.md) delivers to under name (0..AM_EXPORT_MAX-1); AM_NIL
 * withdraws the name. It is a SEND like any other, so an aborted behavior
 * exports nothing. The console keeps the table as its state words (word
 * name = ref): exported actors are roots of the garbage collector, and
 * every change is the console's BECOME, compared in lockstep. A valid
 * export prints nothing; a malformed one prints the console's
 * "<console: bad message ...>" line. The host can reach no other actor. */
#define AM_EXPORT_MAX 8u
void am_export(am_ctx *ctx, am_word name, am_ref ref);

/* ---- fault causes ---------------------------------------------------------
 * Shared by the reference runtime and the hardware (the numbers appear in
 * fault records, traces and the actor unit's registers): AM_FAULT_<NAME>,
 * from include/am_iface.def (docs/faults.md has the table). */
enum am_fault {
#define AM_IF_CAUSE(name, value, doc) AM_FAULT_##name = value,
#include "am_iface.def"
    AM_FAULT_COUNT_
};
const char *am_fault_name(uint32_t cause); /* "FAIL", "BAD_REF", ... */

/* ---- the operation that failed ---------------------------------------------
 * Every fault record names it, with the offending value (docs/semantics.md,
 * "Fault records"); the numbers are the actor unit's F_OP register's. */
enum am_fault_op {
    AM_OP_NONE        = 0,
    AM_OP_SEND        = 1,  /* value: the target; n for MSG_TOO_LONG */
    AM_OP_CREATE      = 2,  /* value: the behavior id; n for STATE_TOO_LONG */
    AM_OP_BECOME      = 3,  /* value: the behavior id; n for STATE_TOO_LONG */
    AM_OP_SET_HANDLER = 4,  /* value: the handler reference */
    AM_OP_ABORT       = 5,  /* am_fail (value: its code) or a trap (value 0) */
    AM_OP_COMMIT      = 6,  /* QUEUE_FULL; value 0 */
    AM_OP_RUN         = 7,  /* the machine stopped the behavior: WATCHDOG, STACK; value 0 */
    AM_OP_DISPATCH    = 8,  /* DEAD_TARGET, the behavior never ran; value 0 */
    AM_OP_COUNT_
};
/* A length n beyond this reads as this in a fault record's value (the
 * hardware's address carries 4 bits of it). */
#define AM_FAULT_LEN_MAX 15u
const char *am_fault_op_name(uint32_t op); /* "SEND", "CREATE", ... */

/* ---- built-in behaviors ---------------------------------------------------
 * Ids 0..AM_BEH_FIRST_USER-1 are provided by each binding (host runtime,
 * firmware); programs' behaviors follow, in the order of the program's
 * image's behavior table (docs/programs.md). */
#define AM_BEH_CONSOLE    0u  /* the console device */
#define AM_BEH_SINK       1u  /* accepts and ignores every message */
#define AM_BEH_ASK        2u  /* one-shot customer of a host am_ask() */
#define AM_BEH_FIRST_USER 3u

#ifdef __cplusplus
}
#endif
#endif /* AM_H */
