/*
 * fw_image.h — what makes a received image one the firmware boots: the rule
 * both loaders apply at START (the link's, firmware/fw_link.c; the in-place
 * one, firmware/fw_inplace.c; docs/link.md, "Loading").
 */
#ifndef FW_IMAGE_H
#define FW_IMAGE_H

#include "am_link_wire.h"
#include "fw.h"

/* The image of size bytes at img (word-aligned): its header, size, CRC and
 * interface identity
 * (am_image_check, at most max bytes), a stack within ram_top bytes of
 * RAM, and a boot behavior of its own program. Any behavior table is fine:
 * the image brings its behaviors. AM_LINK_OK, AM_LINK_E_TOO_BIG, or
 * AM_LINK_E_BAD_IMAGE with *problem set. */
static inline int fw_image_check(const uint8_t *img, uint32_t size, uint32_t max, uint32_t ram_top,
                                 uint32_t *problem)
{
    am_image_info info;
    int r = am_image_check(img, size, max, &info, problem);
    if (r != AM_LINK_OK) return r;
    const uint32_t *h = (const uint32_t *)(const void *)img;
    if (h[FW_HDR_BSS_END - 1] > ram_top || h[FW_HDR_BSS_END] > h[FW_HDR_BSS_END - 1])
        return AM_LINK_E_TOO_BIG;
    if (info.boot < AM_BEH_FIRST_USER || info.boot >= info.nbehaviors) {
        *problem = AM_LINK_IMAGE_BOOT;
        return AM_LINK_E_BAD_IMAGE;
    }
    return AM_LINK_OK;
}

#endif /* FW_IMAGE_H */
