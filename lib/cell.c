/*
 * cell.c — the storage cell of seed 002: read / write / compare-and-swap.
 * State [value]. Formats and fault codes: lib/am_lib.h.
 */
#include "am_lib.h"

void aml_cell(am_ctx *ctx)
{
    uint32_t len = am_msg_len(ctx);
    if (len < 2)
        am_fail(ctx, AML_E_CELL_LEN);
    am_ref cust = am_msg(ctx, 0);
    am_word value = am_state(ctx, 0);
    switch (am_msg(ctx, 1)) {
    case AML_READ:
        if (len != 2) am_fail(ctx, AML_E_CELL_LEN);
        AML_REPLY(ctx, cust, value);
        break;
    case AML_WRITE:
        if (len != 3) am_fail(ctx, AML_E_CELL_LEN);
        am_set_state(ctx, 0, am_msg(ctx, 2));
        AML_REPLY(ctx, cust, am_self(ctx));
        break;
    case AML_CAS:
        if (len != 4) am_fail(ctx, AML_E_CELL_LEN);
        if (value == am_msg(ctx, 2))
            am_set_state(ctx, 0, am_msg(ctx, 3));
        AML_REPLY(ctx, cust, value);
        break;
    default:
        am_fail(ctx, AML_E_CELL_OP);
    }
}
