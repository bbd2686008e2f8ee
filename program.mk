# program.mk — program folders (docs/programs.md), included by the top Makefile.
#
# A program folder holds .c/.h files, behaviors.def and programs.def. Each
# folder is built on its own, under build/programs/KEY/ (KEY: the folder's
# path in the checkout, or ext/NAME-HASH for a folder outside it; nothing is
# ever written into the folder):
#
#   manifest.txt        the folder's behaviors and programs, checked
#                       (scripts/am_program.py manifest)
#   host/libprog.a      its behaviors + its program set (host/am_progset_def.c)
#   host-san/libprog.a  the same with ASan/UBSan (the project's folders, tests)
#   fw/fw.hex           its firmware image: firmware + library + folder only
#   am-run, am-sim      runners linked with this folder's set alone
#
# The project's own folders are demos/, tests/programs/, tests/semantics/ (the
# rules of docs/semantics.md, each checked on both sides in lockstep),
# bench/workloads/ and tests/link/prog/ (the host link's); build/host/am-run
# and build/sim/am-sim are linked with all of them.

AM_PROGRAM_PY    := python3 scripts/am_program.py
PROJECT_PROGRAMS := demos tests/programs tests/semantics bench/workloads tests/link/prog
# the stack every image keeps below the top of RAM at the least (bytes)
FW_STACK_MIN     ?= 2048
FW_CFG := $(call am_stamp,$(BUILD)/programs/fw-flags,$(RV_PREFIX) | $(FW_CFLAGS) | $(FW_RAM) | $(FW_STACK_MIN) | $(FW_LINK_AREA) | $(FW_LOAD_MAX))

am_sym = am_progset_$(subst .,_,$(subst -,_,$(subst /,_,$(1))))

# $(call am_program_lib,FLAVOR-DIR,OPT|SAN,FOLDER,KEY,DEMOS): compile a
# folder's sources and its program set into FLAVOR-DIR/libprog.a
define am_program_lib
	@rm -rf $(1) && mkdir -p $(1)
	@for f in $(wildcard $(3)/*.c); do \
	  o=$(1)/$$(basename $$f .c).o; \
	  $(CC) $(CFLAGS_$(2)) -I$(3) -c $$f -o $$o || exit 1; done
	@$(CC) $(CFLAGS_$(2)) -I$(3) -DAM_PROGSET=$(call am_sym,$(4)) -DAM_PROGSET_FOLDER='"$(3)"' \
	  -DAM_PROGSET_IMAGE='"$(abspath $(BUILD)/programs/$(4)/fw/fw.hex)"' -DAM_PROGSET_DEMOS=$(5) \
	  -DAM_PROGSET_SRC_HASH=$$($(AM_PROGRAM_PY) srchash $(3)) \
	  -c host/am_progset_def.c -o $(1)/am_progset_def.o
	@$(AM_PROGRAM_PY) defined $(BUILD)/programs/$(4)/manifest.txt $(1)/*.o
	@ar rcs $(1)/libprog.a $(1)/*.o
endef

# $(call am_program_fw,FOLDER,OUT-DIR,ARCH): a folder's firmware image
# (the target, OUT-DIR/fw.hex; its first prerequisite is the manifest) for
# -march=ARCH
define am_program_fw
	@mkdir -p $(2)
	@$(AM_PROGRAM_PY) link $(1) $(FW_RAM) FW_STACK_MIN=$(FW_STACK_MIN) -- \
	  $(RV_PREFIX)gcc $(subst -march=$(FW_ARCH),-march=$(3),$(FW_CFLAGS)) -I$(1) -nostdlib -nostartfiles \
	  -T firmware/link.ld -Wl,--defsym=RAM_SIZE=$(FW_RAM) -Wl,--defsym=STACK_MIN=$(FW_STACK_MIN) \
	  -Wl,--defsym=LINK_AREA=$(FW_LINK_AREA) -Wl,--defsym=LOAD_MAX=$(FW_LOAD_MAX) \
	  -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,-Map=$(2)/fw.map \
	  $(FW_SRC) $(wildcard $(1)/*.c) -lgcc -o $(2)/fw.elf
	@$(RV_PREFIX)objcopy -O binary $(2)/fw.elf $(2)/fw.bin
	@printf '%s ' "$(1):"; $(AM_PROGRAM_PY) image $< $(2)/fw.bin $(2)/fw.hex $(1)
endef

# $(call am_progsets_c,OUT,KEYS): the list of sets a runner is linked with
am_progsets_c = mkdir -p $(dir $(1)) && { echo '\#include "am_progset.h"'; \
	for k in $(foreach k,$(2),$(call am_sym,$(k))); do echo "extern const am_progset $$k;"; done; \
	echo 'const am_progset *const am_progsets[] = {'; \
	for k in $(foreach k,$(2),$(call am_sym,$(k))); do echo "    &$$k,"; done; \
	echo '    0 };'; } > $(1).tmp && { cmp -s $(1).tmp $(1) || mv $(1).tmp $(1); }; rm -f $(1).tmp

# $(call am_sources,FOLDER,KEY): a stamp that names the folder's sources, so
# that deleting one rebuilds what used it, as adding or editing one does
# (the images' source hash covers the files there are: a stale build would
# never match it again)
am_sources = $(call am_stamp,$(BUILD)/programs/$(2)/sources,$(sort $(notdir $(wildcard $(1)/*.c $(1)/*.h))))

# $(call am_program_rules,FOLDER,KEY,DEMOS): every rule of one folder
define am_program_rules
$(BUILD)/programs/$(2)/manifest.txt: $(wildcard $(1)/*.def) lib/lib_behaviors.def \
    lib/behaviors_all.def scripts/am_program.py | deps
	@mkdir -p $$(@D)
	@$(AM_PROGRAM_PY) manifest $(1) $$@ --cc $(CC)

$(BUILD)/programs/$(2)/host/libprog.a: $(BUILD)/programs/$(2)/manifest.txt $(wildcard $(1)/*.c) \
    $(wildcard $(1)/*.h) $(call am_sources,$(1),$(2)) host/am_progset_def.c $(HOST_HDR) $(LIB_SRC) $(HOST_CFG)
	$$(call am_program_lib,$$(@D),OPT,$(1),$(2),$(3))

$(BUILD)/programs/$(2)/host-san/libprog.a: $(BUILD)/programs/$(2)/manifest.txt $(wildcard $(1)/*.c) \
    $(wildcard $(1)/*.h) $(call am_sources,$(1),$(2)) host/am_progset_def.c $(HOST_HDR) $(LIB_SRC) $(HOST_CFG)
	$$(call am_program_lib,$$(@D),SAN,$(1),$(2),$(3))

$(BUILD)/programs/$(2)/fw/fw.hex: $(BUILD)/programs/$(2)/manifest.txt $(wildcard $(1)/*.c) \
    $(wildcard $(1)/*.h) $(call am_sources,$(1),$(2)) $(FW_SRC) $(FW_HDR) firmware/link.ld $(FW_CFG) | deps
	$$(call am_program_fw,$(1),$$(@D),$(FW_ARCH))

# the same image for another core, fw-ARCH/fw.hex (-march=ARCH): what
# make load sends to a board whose core is not the simulation's (the
# iCEBreaker's rv32i)
$(BUILD)/programs/$(2)/fw-%/fw.hex: $(BUILD)/programs/$(2)/manifest.txt $(wildcard $(1)/*.c) \
    $(wildcard $(1)/*.h) $(call am_sources,$(1),$(2)) $(FW_SRC) $(FW_HDR) firmware/link.ld $(FW_CFG) | deps
	$$(call am_program_fw,$(1),$$(@D),$$*)

$(BUILD)/programs/$(2)/progsets.c: FORCE
	@$$(call am_progsets_c,$$@,$(2))

$(BUILD)/programs/$(2)/am-run: host/am_run.c $(BUILD)/programs/$(2)/progsets.c \
    $(BUILD)/programs/$(2)/host/libprog.a $(BUILD)/host/libam.a
	$(CC) $(CFLAGS_OPT) host/am_run.c $(BUILD)/programs/$(2)/progsets.c \
	  $(BUILD)/programs/$(2)/host/libprog.a $(BUILD)/host/libam.a -o $$@

$(BUILD)/programs/$(2)/am-sim: $(BUILD)/programs/$(2)/progsets.c $(BUILD)/programs/$(2)/host/libprog.a \
    $(SIM_MODEL) $(SIM_DIR)/am_cosim.o $(BUILD)/host/libam.a
	$$(call am_sim_link,$$@,$(BUILD)/programs/$(2)/progsets.c,$(BUILD)/programs/$(2)/host/libprog.a)
endef

.PHONY: FORCE
FORCE:

$(foreach p,$(PROJECT_PROGRAMS),$(eval $(call am_program_rules,$(p),$(p),$(if $(filter demos,$(p)),1,0))))

PROJECT_HOST_LIBS := $(foreach p,$(PROJECT_PROGRAMS),$(BUILD)/programs/$(p)/host/libprog.a)
PROJECT_SAN_LIBS  := $(foreach p,$(PROJECT_PROGRAMS),$(BUILD)/programs/$(p)/host-san/libprog.a)
PROJECT_IMAGES    := $(foreach p,$(PROJECT_PROGRAMS),$(BUILD)/programs/$(p)/fw/fw.hex)

.PHONY: firmware
firmware: deps $(PROJECT_IMAGES)

$(BUILD)/host/progsets.c: FORCE
	@$(call am_progsets_c,$@,$(PROJECT_PROGRAMS))

# build/sim/am-sim: the model with the project's folders
$(SIM_DIR)/am-sim: $(BUILD)/host/progsets.c $(PROJECT_HOST_LIBS) $(SIM_MODEL) $(SIM_DIR)/am_cosim.o \
    $(BUILD)/host/libam.a
	$(call am_sim_link,$@,$(BUILD)/host/progsets.c,$(PROJECT_HOST_LIBS))

# and the loaders am-sim --link --loader boots (docs/firmware.md): the
# resident one (the iCEBreaker's) and the in-place one (the HX8K's), for the
# simulator's core
SIM_LOADERS := $(BUILD)/loader/rv32im/loader.hex $(BUILD)/inplace/rv32im/inplace.hex

.PHONY: sim
sim: deps $(SIM_DIR)/am-sim $(PROJECT_IMAGES) $(SIM_LOADERS)

# ---- a folder of the user's: make run / sim-run PROGRAM=DIR NAME=NAME ----------
ifneq ($(strip $(PROGRAM)),)
# ~/DIR reaches make unexpanded when the shell leaves it (quoted, or sh's
# PROGRAM=~/DIR after other words): make's own wildcard would expand it, the
# compiler's -I would not, so it is expanded here once for all of them.
PROGRAM_DIR := $(patsubst %/,%,$(patsubst ~/%,$(HOME)/%,$(PROGRAM)))
PROGRAM_KEY := $(shell $(AM_PROGRAM_PY) key '$(PROGRAM_DIR)')
ifeq ($(filter $(PROGRAM_KEY),$(PROJECT_PROGRAMS)),)
$(eval $(call am_program_rules,$(PROGRAM_DIR),$(PROGRAM_KEY),1))
endif
PROGRAM_BUILD := $(BUILD)/programs/$(PROGRAM_KEY)
endif

# ---- make load BOARD=... PROGRAM=DIR NAME=NAME [LOAD_PORT=DEV]: program NAME
# of folder DIR into a running board over the host link (docs/link.md,
# "Loading"): the folder's image with NAME as its boot program, for the
# board's core, sent with am-link load; no synthesis, no place-and-route.
# The board runs a bitstream built with the link (make ecp5 BOARD=ulx3s
# LINK=1; make ice40 BOARD=icebreaker LINK=1, which boots the resident
# loader; make ice40 BOARD=hx8k LINK=1, which boots the in-place loader: it
# takes the one-program image the HX8K's bitstream would hold, built in
# $(BUILD)/load/hx8k, no larger than the RAM the loader leaves).
# LOAD_PORT: the board's UART (docs/fpga.md, docs/link.md) unless
# $AM_LINK_PORT says otherwise. The ULX3S's FT231X has one channel, the
# first port; the iCEBreaker's and the HX8K breakout's FT2232H give channel
# A to the flash's SPI and B, the second port, to the UART.
LOAD_PORT_ulx3s      = /dev/ttyUSB0
LOAD_PORT_icebreaker = /dev/ttyUSB1
LOAD_PORT_hx8k       = /dev/ttyUSB1
LOAD_PORT ?= $(or $(AM_LINK_PORT),$(LOAD_PORT_$(BOARD)))
LOAD_FW    = $(PROGRAM_BUILD)/$(if $(filter icebreaker,$(BOARD)),fw-rv32i,fw)
LOAD_HX8K  = $(BUILD)/load/hx8k
LOAD_INPLACE = $(BUILD)/inplace/$(call fpga_arch,hx8k)
.PHONY: load
load: program-check deps
	@# BOARD, not fpga.mk's default: the board decides the image's core and the port
	@[ "$(origin BOARD)" != file ] || { echo "make load: BOARD=ulx3s, icebreaker or hx8k is needed: the board whose loader runs (docs/link.md)"; exit 2; }
	@case "$(BOARD)" in \
	  ulx3s|icebreaker|hx8k) ;; \
	  *) echo "make load: BOARD=ulx3s, icebreaker or hx8k (docs/link.md)"; exit 2;; esac
	@[ -n "$(LOAD_PORT)" ] || { echo "make load: LOAD_PORT is empty: the board's serial port, e.g. LOAD_PORT=$(LOAD_PORT_$(BOARD)) (docs/link.md)"; exit 2; }
ifeq ($(BOARD),hx8k)
	@$(MAKE) --no-print-directory FPGA_BUILD=$(BUILD)/load $(LOAD_HX8K)/fw.hex $(LOAD_INPLACE)/inplace.hex \
	  $(BUILD)/host/am-link
	@n=$$(( $$(wc -l < $(LOAD_HX8K)/fw.hex) * 4 )); max=$$(cat $(LOAD_INPLACE)/inplace.max); \
	  [ $$n -le $$max ] || { echo "make load: $(NAME)'s HX8K image is $$n bytes; the in-place loader takes up to $$max (docs/link.md): a smaller program, or make ice40 BOARD=hx8k PROGRAM=$(PROGRAM) NAME=$(NAME) builds it into the bitstream"; exit 1; }
	$(BUILD)/host/am-link --port $(LOAD_PORT) load $(LOAD_HX8K)/fw.hex
else
	@$(MAKE) --no-print-directory $(LOAD_FW)/fw.hex $(BUILD)/host/am-link
	@cp $(LOAD_FW)/fw.bin $(LOAD_FW)/load-$(NAME).bin
	@$(AM_PROGRAM_PY) image $(PROGRAM_BUILD)/manifest.txt $(LOAD_FW)/load-$(NAME).bin \
	  $(LOAD_FW)/load-$(NAME).hex $(PROGRAM_DIR) $(NAME)
	$(BUILD)/host/am-link --port $(LOAD_PORT) load $(LOAD_FW)/load-$(NAME).hex
endif

# A folder's behaviors for host code of one's own (docs/api.md, "Worked
# example: a counter that reports"): its program set (the behavior table and
# programs) and the runtime library, built; prints what to compile such code
# with, as absolute paths.
.PHONY: program-lib
program-lib: program-dir-check deps
	@$(MAKE) --no-print-directory -s $(PROGRAM_BUILD)/host/libprog.a $(PROGRAM_BUILD)/progsets.c $(BUILD)/host/libam.a
	@echo "-I$(abspath $(PROGRAM_DIR)) -I$(abspath include) -I$(abspath lib) -I$(abspath host) $(abspath $(PROGRAM_BUILD)/progsets.c) $(abspath $(PROGRAM_BUILD)/host/libprog.a) $(abspath $(BUILD)/host/libam.a)"

.PHONY: run sim-run program-check program-dir-check
program-dir-check:
	@test -n "$(strip $(PROGRAM))" || { echo "make: PROGRAM=DIR is needed (a program folder: docs/programs.md)"; exit 2; }
	@test -z "$(findstring $(space),$(abspath $(PROGRAM)))" || { echo "make: PROGRAM=$(PROGRAM): a path with spaces is not supported"; exit 2; }
program-check: program-dir-check
	@test -n "$(strip $(NAME))" || { echo "make: NAME=NAME is needed, one program of $(PROGRAM_DIR)/programs.def:"; \
	  sed -n -e 's/^ *AM_DEMO( *"\([^"]*\)" *, *[A-Za-z0-9_]* *, *"\(.*\)" *).*/  \1  -- \2/p;t' \
	    -e 's/^ *AM_DEMO( *"\([^"]*\)".*/  \1/p' '$(PROGRAM_DIR)/programs.def' 2>/dev/null; exit 2; }

space := $(subst ,, )

run: program-check deps
	@$(MAKE) --no-print-directory $(PROGRAM_BUILD)/am-run
	@$(PROGRAM_BUILD)/am-run $(ARGS) $(NAME)

sim-run: program-check deps
	@$(MAKE) --no-print-directory $(PROGRAM_BUILD)/am-sim $(PROGRAM_BUILD)/fw/fw.hex
	@$(PROGRAM_BUILD)/am-sim $(ARGS) $(NAME)
