# bench/bench.mk — `make bench`: the benchmark suite (issue 6), included by
# the top Makefile (-include bench/bench.mk). Standalone: make -f bench/bench.mk bench
#
#   make bench            install the comparators if missing (bench/deps.sh),
#                         build, run every workload on the host runtime,
#                         Erlang/OTP and CAF, write build/bench/report.md and
#                         build/bench/bench.{png,svg}             (~3-5 min)
#   make bench-quick      the same pipeline with tiny parameters (smoke test)
#   make bench-doc        copy the latest report tables into docs/performance.md
#
# `make test` needs none of this. Timing never appears in tests.

BUILD      ?= build
CC         ?= gcc
CXX        ?= g++
BENCH_DIR  := $(BUILD)/bench

# Our workloads link the runtime and every program of the standard behavior
# table (library, demos, test programs: lib/behaviors.def refers to them),
# compiled here with -O2 -DNDEBUG whatever state build/host/libam.a is in.
# When included by the top Makefile (after its host section) its RT_SRC,
# PROG_SRC, HOST_HDR and CFLAGS_COMMON are used; the wildcards cover the
# standalone case. lib/behaviors.def includes bench/behaviors.def, so the
# bench ids are part of the standard table.
BENCH_RT_SRC   := host/am_rt.c host/am_trace.c host/am_behaviors.c $(RT_SRC) $(PROG_SRC) \
                  $(wildcard lib/*.c) $(wildcard demos/*.c) $(wildcard tests/programs/*.c)
BENCH_WL_SRC   := $(wildcard bench/wl_*.c)
BENCH_SRC      := $(sort $(BENCH_RT_SRC) $(BENCH_WL_SRC)) bench/am_bench.c
BENCH_HDR      := $(sort include/am.h $(wildcard host/*.h) $(wildcard lib/*.h) lib/behaviors.def \
                  $(wildcard demos/*.h) $(wildcard demos/*.def) $(wildcard tests/programs/*.h) \
                  $(wildcard tests/programs/*.def) $(HOST_HDR) bench/bench.h bench/behaviors.def)
BENCH_CFLAGS   := $(or $(CFLAGS_COMMON),-std=c11 -Wall -Wextra -Werror -g -Iinclude -Ilib -Ihost) \
                  -O2 -DNDEBUG -Ibench
BENCH_CXXFLAGS := -std=c++17 -O2 -DNDEBUG -Wall

.PHONY: bench bench-quick bench-deps bench-build bench-doc

bench-deps:
	@bench/deps.sh

$(BENCH_DIR)/am-bench: $(BENCH_SRC) $(BENCH_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(BENCH_CFLAGS) $(BENCH_SRC) -o $@

$(BENCH_DIR)/erlang/savina.beam: bench/erlang/savina.erl | bench-deps
	@mkdir -p $(dir $@)
	erlc -o $(dir $@) $<

$(BENCH_DIR)/savina-caf: bench/caf/savina.cpp | bench-deps
	@mkdir -p $(dir $@)
	$(CXX) $(BENCH_CXXFLAGS) $< -o $@ -lcaf_core -pthread

bench-build: $(BENCH_DIR)/am-bench $(BENCH_DIR)/erlang/savina.beam $(BENCH_DIR)/savina-caf

bench: bench-build
	@BENCH_BIN=$(BENCH_DIR) BENCH_DIR=$(BENCH_DIR) bench/run.sh

bench-quick: bench-build
	@BENCH_QUICK=1 BENCH_BIN=$(BENCH_DIR) BENCH_DIR=$(BENCH_DIR)/quick bench/run.sh

bench-doc:
	@python3 bench/update_doc.py $(BENCH_DIR)/report.md docs/performance.md
