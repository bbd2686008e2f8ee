# bench/bench.mk — `make bench`: the benchmark suite (issue 6), included by
# the top Makefile (-include bench/bench.mk). Standalone: make -f bench/bench.mk bench
#
#   make bench            install the comparators if missing (bench/deps.sh),
#                         build, run every workload on the simulated SoC
#                         (bench-hw, below), then on the host runtime (ours),
#                         the bare-C event loop (c), Erlang/OTP and CAF, write
#                         build/bench/report.md and build/bench/bench.{png,svg}
#                                                                   (~5 min)
#   make bench-hw         the hardware figures only: every workload as a boot
#                         program on the Verilator SoC (bench/workloads/programs.def,
#                         bench/workloads/wl_boot.c) in lockstep; cycles per dispatch and
#                         its phases, dispatches/s at the boards' clocks:
#                         build/bench/hw.md (bench/hw.sh)            (~10 s)
#   make bench-quick      every workload at tiny sizes on ours and c, answers
#                         checked, verdict "bench: N passed, N failed"; needs
#                         neither Erlang, CAF nor gnuplot: part of `make test`
#                         (the numbers mean nothing)                 (~10 s)
#   make bench-doc        copy the latest report tables (and hw.md) into
#                         docs/performance.md
#
# Timing never decides a test: bench-quick checks answers only.

BUILD      ?= build
CC         ?= gcc
CXX        ?= g++
BENCH_DIR  := $(BUILD)/bench

# Our workloads: the runtime, the library and the workloads' program folder
# (bench/workloads), compiled here with -O2 -flto -DNDEBUG whatever state
# build/host/libam.a is in. When included by the top Makefile its RT_SRC,
# LIB_SRC, HOST_HDR and CFLAGS_COMMON are used; the wildcards cover the
# standalone case.
BENCH_RT_SRC   := $(filter-out host/am_progset.c,$(or $(RT_SRC),host/am_rt.c host/am_gc.c host/am_trace.c host/am_behaviors.c)) \
                  $(wildcard lib/*.c)
BENCH_WL_SRC   := $(wildcard bench/workloads/*.c)
BENCH_SRC      := $(sort $(BENCH_RT_SRC) $(BENCH_WL_SRC)) bench/am_bench.c
BENCH_HDR      := $(sort include/am.h $(wildcard host/*.h) $(wildcard lib/*.h) $(wildcard lib/*.def) \
                  $(wildcard bench/workloads/*.h) $(wildcard bench/workloads/*.def) bench/harness.h)
BENCH_CFLAGS   := $(or $(CFLAGS_COMMON),-std=c11 -Wall -Wextra -Werror -g -fsigned-char -Iinclude -Ilib -Ihost) \
                  -O2 -flto -DNDEBUG -Ibench/workloads
BENCH_CXXFLAGS := -std=c++17 -O2 -DNDEBUG -Wall
# The bare-C event loop (bench/c/savina.c): plain C, one file, no project
# header, the same optimization as ours.
BENCH_C_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -DNDEBUG

.PHONY: bench bench-quick bench-deps bench-build bench-doc bench-hw bench-hw-sims

# The hardware part needs the SoC simulator of sim/sim.mk (the top Makefile);
# standalone, `make bench` skips it.
BENCH_SIM    := $(or $(SIM_DIR),$(BUILD)/sim)/am-sim
BENCH_HW_DEP := $(if $(SIM_DIR),sim)
# The boards (fpga.mk): each one's figures come from a simulation of its own
# CPU (fpga.mk's fpga_cpu: PicoRV32's parameters in include/am_iface.def) at its own clock (<board>/clock). A board whose CPU is not
# the simulation's (rv32im, two-stage shifts) gets its own model and images:
# the same make with BUILD=build/cpu-BOARD (~3 min once). Its table and queue
# stay the simulation's, so that every workload fits.
BENCH_SIM_CPU   := ENABLE_MUL=1 ENABLE_DIV=1
bench_own_cpu    = $(filter-out $(BENCH_SIM_CPU) TWO_STAGE_SHIFT=1,$(call fpga_cpu,$(1)))
BENCH_CPU_BOARDS = $(if $(SIM_DIR),$(foreach b,$(FPGA_BOARDS),$(if $(call bench_own_cpu,$(b)),$(b))))
bench_board_sim  = $(if $(call bench_own_cpu,$(1)),$(BUILD)/cpu-$(1)/sim/am-sim,$(BENCH_SIM))
# "board=MHz=am-sim" per board, for bench/hw.sh
BENCH_BOARD_RUNS = $(foreach b,$(FPGA_BOARDS),$(b)=$$(sed -n 1p $(FPGA_BUILD)/$(b)/clock)=$(call bench_board_sim,$(b)))

bench-deps:
	@bench/deps.sh

$(BENCH_DIR)/am-bench: $(BENCH_SRC) $(BENCH_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) $(BENCH_SRC) -o $@

$(BENCH_DIR)/savina-c: bench/c/savina.c bench/harness.h
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_C_CFLAGS) $< -o $@

$(BENCH_DIR)/erlang/savina.beam: bench/erlang/savina.erl | bench-deps
	@mkdir -p $(dir $@)
	erlc -o $(dir $@) $<

$(BENCH_DIR)/savina-caf: bench/caf/savina.cpp | bench-deps
	@mkdir -p $(dir $@)
	$(CXX) $(BENCH_CXXFLAGS) $< -o $@ -lcaf_core -pthread

bench-build: $(BENCH_DIR)/am-bench $(BENCH_DIR)/savina-c $(BENCH_DIR)/erlang/savina.beam $(BENCH_DIR)/savina-caf

bench: bench-build $(BENCH_HW_DEP)
	@hw=0; \
	if [ -n "$(BENCH_HW_DEP)" ]; then $(MAKE) --no-print-directory bench-hw-sims && \
	  BENCH_DIR=$(BENCH_DIR) BENCH_BOARDS="$(BENCH_BOARD_RUNS)" bench/hw.sh $(BENCH_SIM) || hw=1; \
	else echo "bench: no SoC simulator outside the top Makefile; hardware part skipped"; fi; \
	BENCH_BIN=$(BENCH_DIR) BENCH_DIR=$(BENCH_DIR) bench/run.sh || exit 1; exit $$hw

# the simulators of every board's CPU, and the boards' clocks
bench-hw-sims: $(BENCH_HW_DEP) $(foreach b,$(FPGA_BOARDS),$(FPGA_BUILD)/$(b)/clock)
	@$(foreach b,$(BENCH_CPU_BOARDS),echo "bench-hw: the $(b)'s CPU ($(call fpga_cpu,$(b))), firmware -march=$(call fpga_arch,$(b)): $(BUILD)/cpu-$(b)"; \
	  $(MAKE) --no-print-directory BUILD=$(BUILD)/cpu-$(b) FW_ARCH=$(call fpga_arch,$(b)) \
	    SIM_GPARAMS="$(addprefix -G,$(call fpga_cpu,$(b)))" sim > $(BUILD)/cpu-$(b).log 2>&1 \
	  || { tail -20 $(BUILD)/cpu-$(b).log; exit 1; };)

# Refreshes report.md's hardware section when a host report exists.
bench-hw: bench-hw-sims
	@BENCH_DIR=$(BENCH_DIR) BENCH_BOARDS="$(BENCH_BOARD_RUNS)" bench/hw.sh $(BENCH_SIM)
	@if [ -f $(BENCH_DIR)/results.tsv ] && [ -f $(BENCH_DIR)/meta.txt ]; then \
	  python3 bench/report.py $(BENCH_DIR) >/dev/null || true; fi

bench-quick: $(BENCH_DIR)/am-bench $(BENCH_DIR)/savina-c
	@BENCH_QUICK=1 BENCH_SYSTEMS="ours c" BENCH_BIN=$(BENCH_DIR) BENCH_DIR=$(BENCH_DIR)/quick bench/run.sh

bench-doc:
	@python3 bench/update_doc.py $(BENCH_DIR)/report.md docs/performance.md
	@if [ -f $(BENCH_DIR)/hw.md ]; then python3 bench/hw_report.py --doc $(BENCH_DIR)/hw.md docs/performance.md; \
	else echo "bench-doc: no $(BENCH_DIR)/hw.md (make bench-hw): hardware section unchanged"; fi
