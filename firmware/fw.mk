# firmware/fw.mk — how firmware images are compiled (included by the top
# Makefile). An image holds the firmware (crt0, the MMIO binding of the API,
# the dispatch table, the trap handler), the actor library and one program
# folder; program.mk builds one per folder (build/programs/KEY/fw/fw.hex).
# The boot behavior is chosen at run time (SYS.BOOT_BEH; 0: the image
# header's, the first program of the folder's programs.def).

RV_PREFIX ?= riscv64-unknown-elf-
FW_ARCH   ?= rv32im
FW_RAM    ?= 0x10000
# the host link's areas at the top of RAM (firmware/link.ld): the service's
# state and the loader's copy routine (fw_link.c asserts that they fit),
# and the buffer an image loaded over the link is received in -- the
# largest image the machine loads (TOO_BIG beyond)
FW_LINK_AREA ?= 512
FW_LOAD_MAX  ?= 0x7000
FW_CFLAGS := -march=$(FW_ARCH) -mabi=ilp32 -O2 -flto -g -std=c11 -Wall -Wextra -Werror \
             -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns \
             -ffunction-sections -fdata-sections -msmall-data-limit=0 \
             -Iinclude -Ilib -Ifirmware
FW_SRC    := firmware/crt0.S $(wildcard firmware/*.c) $(wildcard lib/*.c)
FW_HDR    := include/am.h include/am_iface.h include/am_iface.def $(wildcard firmware/*.h) $(wildcard lib/*.h) $(wildcard lib/*.def)
