/*
 * demo.h — small helpers shared by the demo boot behaviors (the demos/demo_NAME.c files).
 * Behaviors only: no libc, every print is a SEND to the console (each
 * call below is one send; strings must be <= 28 characters).
 */
#ifndef AM_DEMO_H
#define AM_DEMO_H

#include "am_lib.h"

/* "<a><v><b>" : three sends. */
static inline void demo_say_u(am_ctx *ctx, const char *a, uint32_t v, const char *b)
{
    am_print(ctx, a);
    am_print_uint(ctx, v);
    am_print(ctx, b);
}

/* Abort on a message the script does not expect (a fault record shows it). */
static inline void demo_unexpected(am_ctx *ctx)
{
    am_fail(ctx, AML_E_DEMO_UNEXPECTED);
}

#endif /* AM_DEMO_H */
