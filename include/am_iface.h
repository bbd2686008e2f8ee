/*
 * am_iface.h — the hardware/firmware interface (include/am_iface.def) as C
 * constants, for the firmware, the simulator and the unit bench:
 *   <BLK>_BASE                  a slave's base address (AU, UART, SYS)
 *   <BLK>_<REG>                 a register's offset in its window; an array's
 *                               first word (the n-th: + 4*n)
 *   <BLK>_<REG>_<FIELD>         a field's mask, _LSB its lowest bit
 *   <BLK>_<REG>_<FIELD>_<VALUE> ... and a named value of it (not shifted)
 *   AM_TRACE_<KIND>             a trace port record kind
 *   AM_DEFAULT_<SIZE>           a default size
 *   AM_IFACE_ID                 the interface's identity (an image's header
 *                               word 11; (uint32_t)AM_IFACE_ID)
 * (The fault causes are enum am_fault, include/am.h.)
 */
#ifndef AM_IFACE_H
#define AM_IFACE_H

enum am_iface {
/* (int)(uint32: a base at the top of the address space is a negative int,
 * which the firmware's 32-bit pointers read as that address) */
#define AM_IF_BLOCK(blk, base, bits, doc, notes) blk##_BASE = (int)(unsigned)(base),
#define AM_IF_REG(blk, name, off, acc, cyc, doc) blk##_##name = off,
#define AM_IF_ARRAY(blk, name, off, words, idx, acc, cyc, doc) blk##_##name = off,
#define AM_IF_WALIAS(blk, name, of) blk##_##name = blk##_##of,
#define AM_IF_FIELD(blk, reg, name, lsb, width, doc) \
    blk##_##reg##_##name = (int)((((1ull << (width)) - 1u) << (lsb)) & 0xffffffffu), \
    blk##_##reg##_##name##_LSB = lsb,
#define AM_IF_VALUE(blk, field, name, value, doc) blk##_##field##_##name = value,
#define AM_IF_TRACE(name, value, doc) AM_TRACE_##name = value,
#define AM_IF_SIZE(name, value, doc) AM_DEFAULT_##name = value,
#define AM_IF_ID(rev, id, doc) AM_IFACE_ID = (int)(unsigned)(id),
#include "am_iface.def"
    AM_IFACE_END_
};

#endif /* AM_IFACE_H */
