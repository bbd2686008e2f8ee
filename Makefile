# actormachine — top-level Makefile. `make help` lists the targets.
#
# Every target that needs tools first runs scripts/deps.sh, which installs
# whatever is missing (Debian packages, the pinned venv) and otherwise
# returns at once.

SHELL   := /bin/bash
.SHELLFLAGS := -o pipefail -c
BUILD   ?= build
CC      ?= gcc
CFLAGS_COMMON := -std=c11 -Wall -Wextra -Werror -g -Iinclude -Ilib -Ihost -Itests/programs -Ibench
CFLAGS_OPT    := $(CFLAGS_COMMON) -O2
CFLAGS_SAN    := $(CFLAGS_COMMON) -O1 -fsanitize=address,undefined \
                 -fno-sanitize-recover=all -fno-omit-frame-pointer

# The runtime and every program (library + demos) compiled for the host.
RT_SRC    := host/am_rt.c host/am_trace.c host/am_behaviors.c host/am_programs.c
PROG_SRC  := $(wildcard lib/*.c) $(wildcard demos/*.c) $(wildcard tests/programs/*.c) \
             $(wildcard bench/wl_*.c)
HOST_HDR  := include/am.h host/am_rt.h host/am_trace.h lib/behaviors.h \
             lib/behaviors.def $(wildcard lib/*.h) $(wildcard demos/*.h) \
             $(wildcard demos/*.def) host/am_programs.h $(wildcard tests/programs/*.def) \
             bench/behaviors.def bench/bench.h
HOST_TESTS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/host/test_*.c) $(wildcard tests/lib/test_*.c))

.PHONY: help deps host demo test host-test clean
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

help:
	@echo "actormachine — make targets"
	@echo "  make demo        the demo programs on the simulated SoC (Verilator), checked in lockstep against the reference runtime"
	@echo "  make test        the whole test suite: host runtime + library (ASan/UBSan), RTL benches, lint, lockstep co-simulation"
	@echo "  make host        build the reference runtime and build/host/am-run"
	@echo "  make host-test   runtime and actor-library tests only"
	@echo "  make sim         build the SoC simulator build/sim/am-sim (am-sim --help) and the firmware"
	@echo "  make sim-test    every program in lockstep + the checker's self-test"
	@echo "  make firmware    the firmware image build/fw/fw.hex"
	@echo "  make fuzz N=1000 SEED=1   N random actor programs through the lockstep checker"
	@echo "  make rtl-test    RTL unit benches only"
	@echo "  make lint        verilator --lint-only -Wall on the actor unit; make sim-lint: the whole SoC"
	@echo "  make synth-unit  yosys synth_ice40 of the actor unit alone (size report)"
	@echo "  make bench       benchmarks: host runtime vs Erlang vs CAF (installs them), report in build/bench/"
	@echo "  make bench-quick the benchmark pipeline with tiny parameters"
	@echo "  make bench-hw    cycles per dispatch of every workload on the simulated SoC (build/bench/hw.md)"
	@echo "  make ice40 BOARD=icebreaker|hx8k, make ecp5 BOARD=ulx3s   bitstream + size/Fmax report"
	@echo "                   (iCE40: also what its logic cells hold, and the room the DSP paths leave, BOARD/report.md)"
	@echo "  make ice40-fw / ecp5-fw BOARD=...   swap a new firmware into an existing bitstream"
	@echo "  make prog BOARD=...   program the board; make postsynth; make fpga-test (in make test)"
	@echo "  make board-sim BOARD=...     a board top's RTL with its firmware in Icarus, console == am-run"
	@echo "  make fpga-blocks BOARD=...   LUTs / FFs / carries per block (synthesis with the hierarchy kept)"
	@echo "  make fpga-seeds BOARD=...    Fmax over FPGA_SEEDS (default 1 2 3) and the spread"
	@echo "  make fpga-cpu-variants       what PicoRV32's knobs cost on the iCE40"
	@echo "  make fpga-synth-variants BOARD=...   LCs of an iCE40 board under other synthesis options and"
	@echo "                               without one feature at a time (FPGA_VARIANTS: some of them)"
	@echo "  make deps        install missing dependencies (Debian packages, pinned .venv)"
	@echo "  make clean       remove build/"

deps:
	@scripts/deps.sh

# ---- host runtime -----------------------------------------------------------
$(BUILD)/host/libam.a: $(RT_SRC) $(PROG_SRC) $(HOST_HDR)
	@mkdir -p $(BUILD)/host/obj
	@rm -f $@
	@for f in $(RT_SRC) $(PROG_SRC); do \
	  o=$(BUILD)/host/obj/$$(echo $$f | tr / _).o; \
	  $(CC) $(CFLAGS_OPT) -c $$f -o $$o || exit 1; ar rcs $@ $$o; done

$(BUILD)/host-san/libam.a: $(RT_SRC) $(PROG_SRC) $(HOST_HDR)
	@mkdir -p $(BUILD)/host-san/obj
	@rm -f $@
	@for f in $(RT_SRC) $(PROG_SRC); do \
	  o=$(BUILD)/host-san/obj/$$(echo $$f | tr / _).o; \
	  $(CC) $(CFLAGS_SAN) -c $$f -o $$o || exit 1; ar rcs $@ $$o; done

$(BUILD)/host/am-run: host/am_run.c $(BUILD)/host/libam.a
	$(CC) $(CFLAGS_OPT) $< $(BUILD)/host/libam.a -o $@

host: deps $(BUILD)/host/am-run

$(BUILD)/tests/%: tests/%.c tests/t.h $(wildcard tests/lib/*.h) $(BUILD)/host-san/libam.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_SAN) -Itests $< $(BUILD)/host-san/libam.a -o $@

host-test: deps $(HOST_TESTS) $(BUILD)/host/am-run
	@scripts/run-suites.sh host $(HOST_TESTS)

# ---- hardware -----------------------------------------------------------------
include tests/rtl/rtl.mk
include firmware/fw.mk
include sim/sim.mk
include fpga.mk
include bench/bench.mk

# ---- the two commands -----------------------------------------------------------
demo: deps sim
	@for d in $$($(SIM_DIR)/am-sim --list-demos) selfloop; do \
	  echo "== $$d: the simulated SoC, in lockstep with the reference runtime"; \
	  $(SIM_DIR)/am-sim $$d || exit 1; echo; done
	@echo "== gc-serializer: 2,000 requests through a serializer, each leaving a dead proxy,"
	@echo "   in a 128-slot actor table: the garbage collector at work (docs/gc.md)"
	@$(SIM_DIR)/am-sim --arg 2000 gc-serializer

test: deps
	@mkdir -p $(BUILD) && : > $(BUILD)/test.log
	@$(MAKE) --no-print-directory host-test 2>&1 | tee -a $(BUILD)/test.log
	@$(MAKE) --no-print-directory rtl-test lint sim-lint 2>&1 | tee -a $(BUILD)/test.log
	@$(MAKE) --no-print-directory sim-test 2>&1 | tee -a $(BUILD)/test.log
	@$(MAKE) --no-print-directory fuzz-ci 2>&1 | tee -a $(BUILD)/test.log
	@$(MAKE) --no-print-directory fpga-test 2>&1 | tee -a $(BUILD)/test.log
	@scripts/run-suites.sh --total $(BUILD)/test.log

clean:
	rm -rf $(BUILD)
