# actormachine — top-level Makefile. `make help` lists the targets.
#
# Every target that needs tools first runs scripts/deps.sh, which installs
# whatever is missing (Debian packages, the pinned venv) and otherwise
# returns at once.

SHELL   := /bin/bash
.SHELLFLAGS := -o pipefail -c
BUILD   ?= build
# FuseSoC, given the checkout as a library, skips build/ (copies of rtl/ with
# their cores, its own work; docs/fusesoc.md)
_ := $(shell mkdir -p $(BUILD) && [ -f $(BUILD)/FUSESOC_IGNORE ] || : > $(BUILD)/FUSESOC_IGNORE)
CC      ?= gcc
# -fsigned-char: plain char as on the core (firmware/fw.mk), whatever the
# host's default is, so a behavior's C computes the same words on both
# (docs/api.md)
CFLAGS_COMMON := -std=c11 -Wall -Wextra -Werror -g -fsigned-char -Iinclude -Ilib -Ihost
CFLAGS_OPT    := $(CFLAGS_COMMON) -O2
CFLAGS_SAN    := $(CFLAGS_COMMON) -O1 -fsanitize=address,undefined \
                 -fno-sanitize-recover=all -fno-omit-frame-pointer

# $(call am_stamp,FILE,TEXT): FILE, holding TEXT, rewritten only when TEXT
# changes -- a build step that lists it rebuilds when its flags change (make
# CC=clang, another FW_RAM, SIM_UART_DIV, ...), not only when its sources do.
am_stamp = $(shell mkdir -p $(dir $(1)) && { [ -f $(1) ] && [ "$$(cat $(1))" = '$(strip $(2))' ] || \
             printf '%s\n' '$(strip $(2))' > $(1); })$(1)

# The runtime and the actor library, compiled for the host (build/host/libam.a).
# Programs come from program folders (program.mk).
RT_SRC    := host/am_rt.c host/am_gc.c host/am_trace.c host/am_behaviors.c host/am_progset.c host/am_link_target.c \
            host/am_link.c host/am_crash.c host/am_suggest.c
LIB_SRC   := $(wildcard lib/*.c)
HOST_HDR  := include/am.h include/am_iface.h include/am_iface.def $(wildcard host/*.h) $(wildcard lib/*.h) $(wildcard lib/*.def)
HOST_CFG  := $(call am_stamp,$(BUILD)/host/flags,$(CC) | $(CFLAGS_OPT) | $(CFLAGS_SAN))
HOST_TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/host/test_*.c) $(wildcard tests/lib/test_*.c))

.PHONY: help deps host demo test host-test clean
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

help:
	@echo "actormachine — make targets"
	@echo "  make demo        the demo programs on the simulated SoC (Verilator), checked in lockstep against the reference runtime"
	@echo "  make test        the whole test suite: host runtime + library (ASan/UBSan), bench-quick, RTL benches, lint, FuseSoC cores, lockstep co-simulation, host link"
	@echo "  make run PROGRAM=DIR NAME=NAME [ARGS=...]      program NAME of folder DIR on the host runtime"
	@echo "  make sim-run PROGRAM=DIR NAME=NAME [ARGS=...]  the same on the simulated SoC, in lockstep (docs/tutorial.md)"
	@echo "  make program-lib PROGRAM=DIR   folder DIR's behaviors for host code of your own: prints the flags to compile it with (docs/api.md)"
	@echo "  make load BOARD=... PROGRAM=DIR NAME=NAME [LOAD_PORT=...]   send the program's image to a board's loader over the host link (docs/link.md)"
	@echo "  make host        build the reference runtime, build/host/am-run (the project's programs) and"
	@echo "                   build/host/am-link (the host link's client, docs/link.md)"
	@echo "  make host-test   runtime and actor-library tests only"
	@echo "  make sim         build the SoC simulator build/sim/am-sim (am-sim --help), the firmware and the loaders (--loader)"
	@echo "  make sim-test    every program in lockstep + the checker's self-test"
	@echo "  make firmware    the firmware images of the project's program folders (build/programs/*/fw/fw.hex)"
	@echo "  make program-test  program folders as a user makes them: make run / sim-run, images, bad folders"
	@echo "  make link-test   the host link end to end: am-link and the library against am-run --link and am-sim --link (docs/link.md)"
	@echo "  make bench-link  the host link's figures on the simulated SoC: ask round trips, messages in per second (build/bench/link.md)"
	@echo "  make fuzz N=1000 SEED=1   N random actor programs through the lockstep checker"
	@echo "  make rtl-test    RTL unit benches only"
	@echo "  make lint        verilator --lint-only -Wall on the actor unit; make sim-lint: the whole SoC"
	@echo "  make synth-unit  yosys synth_ice40 of the actor unit alone (size report)"
	@echo "  make fusesoc-test  the FuseSoC cores (actormachine.core, rtl/am_actor_unit.core; docs/fusesoc.md): listed, checked, lint + unit bench"
	@echo "  make bench       benchmarks: host runtime vs a bare C event loop, Erlang, CAF (installs them), report in build/bench/"
	@echo "  make bench-quick every workload at tiny sizes on the host runtime and the bare C loop, answers checked (in make test)"
	@echo "  make bench-hw    cycles per dispatch of every workload on the simulated SoC (build/bench/hw.md)"
	@echo "  make bench-doc   paste the last make bench / bench-hw reports into docs/performance.md"
	@echo "  make ice40 BOARD=icebreaker|hx8k, make ecp5 BOARD=ulx3s   bitstream + size/Fmax report"
	@echo "                   (PROGRAM=DIR NAME=NAME: the program it runs; default counter-serialized of demos/)"
	@echo "                   (iCE40: also what its logic cells hold, and the room the DSP paths leave, BOARD/report.md)"
	@echo "  make ice40-fw / ecp5-fw BOARD=...   swap a new firmware into an existing bitstream"
	@echo "  make prog BOARD=...   program the board; make postsynth; make fpga-test (in make test)"
	@echo "  make board-sim BOARD=...     a board top's RTL with its firmware in Icarus, console == am-run"
	@echo "  make fpga-blocks BOARD=...   LUTs / FFs / carries per block (synthesis with the hierarchy kept)"
	@echo "  make fpga-seeds BOARD=...    Fmax over FPGA_SEEDS (default 1 2 3) and the spread"
	@echo "  make fpga-doc                docs/fpga.md's board table from the last builds and fpga-seeds runs"
	@echo "  make fpga-cpu-variants       what PicoRV32's knobs cost on the iCE40"
	@echo "  make fpga-synth-variants BOARD=...   LCs of an iCE40 board under other synthesis options and"
	@echo "                               without one feature at a time (FPGA_VARIANTS: some of them)"
	@echo "  make deps        install missing dependencies (Debian packages, pinned .venv)"
	@echo "  make clean       remove build/"

# Every step that runs an installed tool has deps as an order-only
# prerequisite (| deps): under make -j it waits for the install, and deps.sh
# runs once per make. A make that another make runs (make test's parts, make
# run's build) checks again but says nothing when nothing is missing: the
# outermost one has said it.
deps:
	@AM_DEPS_QUIET=$(filter-out 0,$(MAKELEVEL)) scripts/deps.sh

# ---- the parts (each file's head says what it builds) ---------------------------
SIM_DIR   := $(BUILD)/sim
RTL_ORDER := deps
include tests/rtl/rtl.mk
include firmware/fw.mk
include sim/sim.mk
include program.mk
include fpga.mk
include bench/bench.mk
include tests/tests.mk
include tests/link/link.mk

# ---- host runtime -----------------------------------------------------------
$(BUILD)/host/libam.a: $(RT_SRC) $(LIB_SRC) $(HOST_HDR) $(HOST_CFG) | deps
	@mkdir -p $(BUILD)/host/obj
	@rm -f $@
	@for f in $(RT_SRC) $(LIB_SRC); do \
	  o=$(BUILD)/host/obj/$$(echo $$f | tr / _).o; \
	  $(CC) $(CFLAGS_OPT) -c $$f -o $$o || exit 1; ar rcs $@ $$o; done

$(BUILD)/host-san/libam.a: $(RT_SRC) $(LIB_SRC) $(HOST_HDR) $(HOST_CFG) | deps
	@mkdir -p $(BUILD)/host-san/obj
	@rm -f $@
	@for f in $(RT_SRC) $(LIB_SRC); do \
	  o=$(BUILD)/host-san/obj/$$(echo $$f | tr / _).o; \
	  $(CC) $(CFLAGS_SAN) -c $$f -o $$o || exit 1; ar rcs $@ $$o; done

# build/host/am-run: the project's programs (demos, test programs, workloads)
$(BUILD)/host/am-run: host/am_run.c $(BUILD)/host/progsets.c $(PROJECT_HOST_LIBS) $(BUILD)/host/libam.a
	$(CC) $(CFLAGS_OPT) host/am_run.c $(BUILD)/host/progsets.c $(PROJECT_HOST_LIBS) \
	  $(BUILD)/host/libam.a -o $@

# build/host/am-link: the host link's client (docs/link.md)
$(BUILD)/host/am-link: host/am_link_main.c $(BUILD)/host/libam.a
	$(CC) $(CFLAGS_OPT) host/am_link_main.c $(BUILD)/host/libam.a -o $@

host: deps $(BUILD)/host/am-run $(BUILD)/host/am-link

# Tests link the runtime and library; a test of a program folder's programs
# names the folder (LT_PROGRAMS below) and links its set alone.
$(BUILD)/tests/%: tests/%.c tests/t.h $(wildcard tests/lib/*.h tests/link/*.h) $(BUILD)/host-san/libam.a
	@mkdir -p $(dir $@)
	$(if $(LT_PROGRAMS),@$(call am_progsets_c,$@-progsets.c,$(LT_PROGRAMS)))
	$(CC) $(CFLAGS_SAN) -Itests $(if $(LT_PROGRAMS),-I$(LT_PROGRAMS) -DLT_PROGRAMS) $< \
	  $(if $(LT_PROGRAMS),$@-progsets.c $(BUILD)/programs/$(LT_PROGRAMS)/host-san/libprog.a) \
	  $(BUILD)/host-san/libam.a -o $@
$(BUILD)/tests/lib/test_programs $(BUILD)/tests/lib/test_gc: LT_PROGRAMS := tests/programs
$(BUILD)/tests/lib/test_demos: LT_PROGRAMS := demos
$(BUILD)/tests/lib/test_bench_hw: LT_PROGRAMS := bench/workloads
$(BUILD)/tests/lib/test_programs $(BUILD)/tests/lib/test_gc: $(BUILD)/programs/tests/programs/host-san/libprog.a
$(BUILD)/tests/lib/test_demos: $(BUILD)/programs/demos/host-san/libprog.a
$(BUILD)/tests/lib/test_bench_hw: $(BUILD)/programs/bench/workloads/host-san/libprog.a
$(BUILD)/tests/lib/test_link_console $(BUILD)/tests/host/test_link_target: LT_PROGRAMS := tests/link/prog
$(BUILD)/tests/lib/test_link_console $(BUILD)/tests/host/test_link_target: $(BUILD)/programs/tests/link/prog/host-san/libprog.a

host-test: deps $(HOST_TESTS) $(BUILD)/host/am-run
	@scripts/run-suites.sh host $(HOST_TESTS) tests/host/flags.sh


# ---- the two commands -----------------------------------------------------------
demo: deps sim
	@for d in $$($(SIM_DIR)/am-sim --list-demos); do \
	  echo "== $$d: the simulated SoC, in lockstep with the reference runtime"; \
	  $(SIM_DIR)/am-sim $$d || exit 1; echo; done
	@echo "== selfloop (tests/programs): the shortest dispatch, a behavior that sends itself one message"
	@$(SIM_DIR)/am-sim selfloop && echo
	@echo "== gc-serializer (tests/programs): 2,000 requests through a serializer, each leaving a dead"
	@echo "   proxy, in a 128-slot actor table: the garbage collector at work (docs/gc.md)"
	@$(SIM_DIR)/am-sim --arg 2000 gc-serializer

test: deps
	@mkdir -p $(BUILD) && : > $(BUILD)/test.log
	@$(MAKE) --no-print-directory host-test 2>&1 | tee -a $(BUILD)/test.log
	@$(MAKE) --no-print-directory bench-quick 2>&1 | tee -a $(BUILD)/test.log
	@$(MAKE) --no-print-directory rtl-test lint sim-lint fusesoc-test 2>&1 | tee -a $(BUILD)/test.log
	@$(MAKE) --no-print-directory sim-test 2>&1 | tee -a $(BUILD)/test.log
	@$(MAKE) --no-print-directory program-test 2>&1 | tee -a $(BUILD)/test.log
	@$(MAKE) --no-print-directory link-test 2>&1 | tee -a $(BUILD)/test.log
	@$(MAKE) --no-print-directory fuzz-ci 2>&1 | tee -a $(BUILD)/test.log
	@$(MAKE) --no-print-directory fpga-test 2>&1 | tee -a $(BUILD)/test.log
	@scripts/run-suites.sh --total $(BUILD)/test.log

clean:
	rm -rf $(BUILD)
