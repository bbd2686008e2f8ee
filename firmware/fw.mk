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
# largest image the machine loads (TOO_BIG beyond). The stack's top below
# them goes down to a 4 KiB boundary (link.ld): 64 KiB - 512 - 27.5 KiB is
# one, 36 KiB
FW_LINK_AREA ?= 512
FW_LOAD_MAX  ?= 0x6E00
# -fsigned-char: plain char as on the host (the Makefile's CFLAGS_COMMON;
# RISC-V's own default is unsigned)
FW_CFLAGS := -march=$(FW_ARCH) -mabi=ilp32 -O2 -flto -g -std=c11 -Wall -Wextra -Werror -fsigned-char \
             -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns \
             -ffunction-sections -fdata-sections -msmall-data-limit=0 \
             -Iinclude -Ilib -Ifirmware
FW_SRC    := firmware/crt0.S $(wildcard firmware/*.c) $(wildcard lib/*.c)
FW_HDR    := include/am.h include/am_iface.h include/am_iface.def $(wildcard firmware/*.h) $(wildcard lib/*.h) $(wildcard lib/*.def)

# The resident loader (firmware/fw_link.c, FW_LOADER): an image of its own,
# for a board whose boot RAM holds the link's code but not the actor kernel
# beside it (the iCEBreaker). It serves the link until a good image arrives
# and reboots into it. $(BUILD)/loader/ARCH/loader.hex, for -march=ARCH
# (rv32im: the simulator's core, am-sim --loader; rv32i: the iCEBreaker's),
# -Os, the 64 KiB RAM map of the simulation and the iCEBreaker.
FW_LOADER_SRC := firmware/crt0.S firmware/fw_link.c firmware/fw_libc.c lib/am_link_service.c \
                 lib/am_link_wire.c
$(BUILD)/loader/%/loader.hex: $(FW_LOADER_SRC) $(FW_HDR) firmware/link.ld scripts/am_program.py | deps
	@mkdir -p $(@D)
	$(RV_PREFIX)gcc $(subst -march=$(FW_ARCH),-march=$*,$(subst -O2,-Os,$(FW_CFLAGS))) -DFW_LINK=1 -DFW_LOADER=1 \
	  -nostdlib -nostartfiles -T firmware/link.ld -Wl,-u,memset -Wl,-u,memcpy \
	  -Wl,--defsym=RAM_SIZE=$(FW_RAM) -Wl,--defsym=STACK_MIN=1024 \
	  -Wl,--defsym=LINK_AREA=$(FW_LINK_AREA) -Wl,--defsym=LOAD_MAX=$(FW_LOAD_MAX) \
	  -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,-Map=$(@D)/loader.map \
	  $(FW_LOADER_SRC) -lgcc -o $(@D)/loader.elf
	@$(RV_PREFIX)objcopy -O binary $(@D)/loader.elf $(@D)/loader.bin
	@$(AM_PROGRAM_PY) loader $(@D)/loader.bin $@

# The in-place loader (firmware/fw_inplace.c, FW_INPLACE): what a board
# boots whose RAM holds one image and no room for the link's code beside it
# (the HX8K's 8 KiB). It lies at the top of its RAM (firmware/inplace.ld)
# and writes the image it receives in place below it: the largest image is
# the RAM less the loader, which the first link measures (its code, data,
# state and FW_INPLACE_STACK -- its deepest call chain takes 128 bytes --,
# and 32 bytes for the code's addresses, which may take an instruction more
# at the loader's final place, to 16 bytes); the second links it there.
# $(BUILD)/inplace/ARCH/inplace.hex (+ inplace.max: the largest image).
FW_INPLACE_RAM   ?= 8192
FW_INPLACE_STACK := 160
FW_INPLACE_SRC   := firmware/inplace.S firmware/fw_inplace.c lib/am_link_wire.c
$(BUILD)/inplace/%/inplace.hex: $(FW_INPLACE_SRC) $(FW_HDR) firmware/inplace.ld scripts/am_program.py | deps
	@mkdir -p $(@D)
	@set -e; cc="$(RV_PREFIX)gcc $(subst -march=$(FW_ARCH),-march=$*,$(subst -O2,-Os,$(FW_CFLAGS))) \
	  -DFW_LINK=0 -DFW_INPLACE=1 -DAM_LINK_CRC_SMALL=1 -nostdlib -nostartfiles -T firmware/inplace.ld \
	  -Wl,--defsym=RAM_SIZE=$(FW_INPLACE_RAM) -Wl,--defsym=STACK=$(FW_INPLACE_STACK) \
	  -Wl,--gc-sections -Wl,--no-warn-rwx-segments $(FW_INPLACE_SRC) -lgcc"; \
	  $$cc -Wl,--defsym=RESERVE=$$(( $(FW_INPLACE_RAM) - 64 )) -o $(@D)/sizing.elf; \
	  sym() { $(RV_PREFIX)nm $$1 | awk -v s=$$2 '$$3 == s {print "0x" $$1}'; }; \
	  used=$$(( $$(sym $(@D)/sizing.elf __bss_end) - $$(sym $(@D)/sizing.elf __load_max) + $(FW_INPLACE_STACK) )); \
	  reserve=$$(( (used + 32 + 15) / 16 * 16 )); \
	  $$cc -Wl,--defsym=RESERVE=$$reserve -Wl,-Map=$(@D)/inplace.map -o $(@D)/inplace.elf; \
	  echo $$(( $(FW_INPLACE_RAM) - reserve )) > $(@D)/inplace.max; rm -f $(@D)/sizing.elf
	@$(RV_PREFIX)objcopy -O binary $(@D)/inplace.elf $(@D)/inplace.bin
	@$(AM_PROGRAM_PY) loader $(@D)/inplace.bin $@ inplace
	@echo "inplace: the loader takes $$(( $(FW_INPLACE_RAM) - $$(cat $(@D)/inplace.max) )) of $(FW_INPLACE_RAM) bytes; images up to $$(cat $(@D)/inplace.max) bytes"
