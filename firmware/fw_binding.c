/*
 * fw_binding.c — the actor API (include/am.h) over the actor unit's
 * registers. Every effect is one store or a few: the unit checks bounds and
 * references, records the first fault and turns the COMMIT into an abort
 * when there was one, exactly as docs/semantics.md says; the firmware never
 * checks anything itself, so host and hardware cannot drift apart here.
 *
 * The context pointer is unused on the hardware: there is one current event,
 * and the unit holds it.
 */
#include "fw.h"

static inline uint32_t clamp_len(uint32_t n) { return n > AU_LEN_MAX ? AU_LEN_MAX : n; }
static inline uint32_t words_to_write(uint32_t n) { return n > AU_WORDS ? AU_WORDS : n; }

am_ref am_self(const am_ctx *ctx) { (void)ctx; return AU(AU_SELF); }
am_beh am_my_behavior(const am_ctx *ctx) { (void)ctx; return AU(AU_BEH); }
uint32_t am_msg_len(const am_ctx *ctx) { (void)ctx; return AU(AU_MSG_LEN); }

am_word am_msg(const am_ctx *ctx, uint32_t i)
{
    (void)ctx;
    return i < AU_WORDS ? AU(AU_MSG_W(i)) : 0;
}

am_word am_state(const am_ctx *ctx, uint32_t i)
{
    (void)ctx;
    return i < AU_WORDS ? AU(AU_STATE_W(i)) : 0;
}

am_ref am_create(am_ctx *ctx, am_beh beh, uint32_t n, const am_word *state)
{
    (void)ctx;
    uint32_t k = words_to_write(n);
    for (uint32_t i = 0; i < k; i++) AU(AU_NEW_STATE_W(i)) = state[i];
    AU(AU_CREATE_N(clamp_len(n))) = beh;
    return AU(AU_NEW_REF);
}

void am_send(am_ctx *ctx, am_ref target, uint32_t n, const am_word *msg)
{
    (void)ctx;
    uint32_t k = words_to_write(n);
    for (uint32_t i = 0; i < k; i++) AU(AU_MSG_W(i)) = msg[i];
    AU(AU_SEND_N(clamp_len(n))) = target;
}

void am_become(am_ctx *ctx, am_beh beh, uint32_t n, const am_word *state)
{
    (void)ctx;
    uint32_t k = words_to_write(n);
    for (uint32_t i = 0; i < k; i++) AU(AU_STATE_W(i)) = state[i];
    AU(AU_BECOME_N(clamp_len(n))) = beh;
}

/* A word the address cannot name (i >= AU_WORDS) is refused as the unit
 * refuses a length: a BECOME / SEND of i + 1 words, whose length check
 * comes before everything else but the behavior's (0: always valid). */
void am_set_state(am_ctx *ctx, uint32_t i, am_word w)
{
    (void)ctx;
    if (i < AU_WORDS) AU(AU_STATE_W(i)) = w;
    else AU(AU_BECOME_N(clamp_len(i + 1 > i ? i + 1 : i))) = 0;
}

void am_send_word(am_ctx *ctx, uint32_t i, am_word w)
{
    (void)ctx;
    if (i < AU_WORDS) AU(AU_MSG_W(i)) = w;
    else AU(AU_SEND_N(clamp_len(i + 1 > i ? i + 1 : i))) = AM_NIL;
}

/* FWD_FROM holds 5 bits; past the message's 8 words every from reads 0. */
void am_forward(am_ctx *ctx, am_ref target, uint32_t n, int32_t from)
{
    (void)ctx;
    if (from != 0) AU(AU_FWD_FROM) = (uint32_t)(from < -8 ? -8 : from > 8 ? 8 : from);
    AU(AU_FORWARD_N(clamp_len(n))) = target;
}

int am_fault(const am_ctx *ctx, am_fault_info *info)
{
    (void)ctx;
    uint32_t cause = AU(AU_F_CAUSE);
    if (cause == 0) return 0;
    info->cause = cause;
    info->code = AU(AU_F_CODE);
    info->target = AU(AU_F_TARGET);
    info->beh = AU(AU_F_BEH);
    info->op = AU(AU_F_OP);
    info->value = AU(AU_F_VALUE);
    return 1;
}

void am_set_fault_handler(am_ctx *ctx, am_ref handler)
{
    (void)ctx;
    AU(AU_SET_HANDLER) = handler;
}

void am_fail(am_ctx *ctx, am_word code)
{
    (void)ctx;
    AU(AU_ABORT_C(AM_FAULT_FAIL)) = code;
    fw_restart();
}
