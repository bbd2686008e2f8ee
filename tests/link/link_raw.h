/*
 * link_raw.h — what the link's tests use to go past the host library: the
 * wire bytes of a frame they build themselves, and a burst written to the
 * line whole, whatever the credit says.
 */
#ifndef LINK_RAW_H
#define LINK_RAW_H

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "am_link_wire.h"

/* The wire bytes of one frame (am_link_emit's output). */
typedef struct wire { uint8_t b[600]; uint32_t n; } wire;
static inline void wire_put(void *u, const uint8_t *p, uint32_t n)
{
    wire *w = u;
    memcpy(w->b + w->n, p, n);
    w->n += n;
}

/* n bytes to fd, all of them unless the descriptor fails; the bytes written. */
static inline uint32_t write_all(int fd, const uint8_t *p, uint32_t n)
{
    uint32_t off = 0;
    while (off < n) {
        ssize_t k = write(fd, p + off, n - off);
        if (k > 0) off += (uint32_t)k;
        else if (errno != EAGAIN && errno != EINTR) break;
    }
    return off;
}

#endif /* LINK_RAW_H */
