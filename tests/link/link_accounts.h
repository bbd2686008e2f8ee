/*
 * link_accounts.h — the sums the link service's counters must keep
 * (docs/link.md, "Counters"), for the link's tests: every frame counted once
 * by how it was received, every good one once by what became of it, every
 * refusal once by its code.
 */
#ifndef LINK_ACCOUNTS_H
#define LINK_ACCOUNTS_H

#include "am_link_wire.h"

static inline int link_accounted(const am_word *s)
{
    am_word e = 0;
    for (uint32_t i = AM_LINK_S_E_NOT_EXPORTED; i <= AM_LINK_S_E_UNSUPPORTED; i++) e += s[i];
    return s[AM_LINK_S_RX_FRAMES] == s[AM_LINK_S_RX_OK] + s[AM_LINK_S_RX_CRC] +
                                     s[AM_LINK_S_RX_MALFORMED] + s[AM_LINK_S_RX_OVERSIZE] &&
           s[AM_LINK_S_RX_OK] == s[AM_LINK_S_ACKED] + s[AM_LINK_S_DUPLICATE] +
                                 s[AM_LINK_S_REFUSED] + s[AM_LINK_S_ANSWERED] &&
           s[AM_LINK_S_REFUSED] == e;
}

#endif /* LINK_ACCOUNTS_H */
