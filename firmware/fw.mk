# firmware/fw.mk — the firmware image (included by the top Makefile).
#
# One image holds the built-in behaviors, the actor library, the demos and
# the co-simulation test programs (the same sources as the host runtime);
# the boot behavior is chosen at run time (SYS.BOOT_BEH).

RV_PREFIX ?= riscv64-unknown-elf-
FW_ARCH   ?= rv32im
FW_RAM    ?= 0x10000
FW_CFLAGS := -march=$(FW_ARCH) -mabi=ilp32 -O2 -flto -g -std=c11 -Wall -Wextra -Werror \
             -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns \
             -ffunction-sections -fdata-sections -msmall-data-limit=0 \
             -Iinclude -Ilib -Ifirmware -Itests/programs -Ibench
FW_SRC    := firmware/crt0.S $(wildcard firmware/*.c) $(wildcard lib/*.c) \
             $(wildcard demos/*.c) $(wildcard tests/programs/*.c) $(wildcard bench/wl_*.c)
FW_HDR    := include/am.h $(wildcard firmware/*.h) $(wildcard lib/*.h) lib/behaviors.def \
             $(wildcard demos/*.h) $(wildcard tests/programs/*.h) bench/behaviors.def bench/bench.h

$(BUILD)/fw/fw.elf: $(FW_SRC) $(FW_HDR) firmware/link.ld
	@mkdir -p $(dir $@)
	$(RV_PREFIX)gcc $(FW_CFLAGS) -nostdlib -nostartfiles -T firmware/link.ld \
	  -Wl,--defsym=RAM_SIZE=$(FW_RAM) -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,-Map=$(BUILD)/fw/fw.map \
	  $(FW_SRC) -lgcc -o $@
	@$(RV_PREFIX)size $@ | tail -1 | awk '{printf "firmware: %d bytes text, %d data, %d bss\n", $$1, $$2, $$3}'

# 32-bit little-endian words, one per line, for $readmemh.
$(BUILD)/fw/fw.hex: $(BUILD)/fw/fw.elf
	$(RV_PREFIX)objcopy -O binary $< $(BUILD)/fw/fw.bin
	od -An -v -tx4 -w4 $(BUILD)/fw/fw.bin | tr -d ' ' > $@

.PHONY: firmware
firmware: deps $(BUILD)/fw/fw.hex
