# tests/rtl/rtl.mk — actor unit benches, lint and synthesis smoke.
# Included by the top-level Makefile (paths relative to the repo root);
# also usable alone: make -f tests/rtl/rtl.mk rtl-test
#
#   rtl-test    build and run every unit bench; one PASS/FAIL line per bench,
#               then "rtl: N passed, N failed"; fails if any bench failed
#   lint        verilator --lint-only -Wall on the actor unit (top am_actor_unit)
#   synth-unit  yosys synth_ice40 of am_actor_unit alone -> build/rtl/synth_unit.log
#
# RTL_SEEDS selects the random seeds of the randomized benches.

BUILD     ?= build
RTL_BUILD ?= $(BUILD)/rtl
IVERILOG  ?= iverilog
VVP       ?= vvp
VERILATOR ?= verilator
YOSYS     ?= yosys
RTL_SEEDS ?= 1 2 3

RTL_UNIT_SRCS := rtl/am_actor_unit.v rtl/am_event_queue.v rtl/am_actor_table.v \
                 rtl/am_txn.v rtl/am_dispatch.v rtl/am_gc.v

# Icarus benches: name -> sources (bench + DUT)
RTL_IV_BENCHES := tb_am_event_queue tb_am_actor_table tb_am_txn tb_am_uart tb_am_uart_fixed
tb_am_event_queue_SRCS := tests/rtl/tb_am_event_queue.v rtl/am_event_queue.v
tb_am_actor_table_SRCS := tests/rtl/tb_am_actor_table.v rtl/am_actor_table.v
tb_am_txn_SRCS         := tests/rtl/tb_am_txn.v rtl/am_txn.v
tb_am_uart_SRCS        := tests/rtl/tb_am_uart.v rtl/am_uart.v
# the board's UART: a fixed divider (DIV_RW = 0), odd
tb_am_uart_fixed_SRCS  := -Ptb_am_uart.DIV=11 -Ptb_am_uart.DIV_RW=0 tests/rtl/tb_am_uart.v rtl/am_uart.v

RTL_UNIT_TB := $(RTL_BUILD)/unit/tb_am_actor_unit

.PHONY: rtl-test lint synth-unit rtl-clean

$(RTL_BUILD)/%.vvp: tests/rtl/tb_am_uart.v $(RTL_UNIT_SRCS) rtl/am_uart.v $(wildcard tests/rtl/tb_am_*.v)
	@mkdir -p $(RTL_BUILD)
	$(IVERILOG) -g2012 -o $@ $($*_SRCS)

$(RTL_UNIT_TB): tests/rtl/tb_am_actor_unit.cpp $(RTL_UNIT_SRCS)
	@mkdir -p $(RTL_BUILD)/unit
	$(VERILATOR) --cc --exe --build -j 2 -Wall -Wno-fatal -Wno-UNUSEDSIGNAL -GTRACE=1 \
	  --top-module am_actor_unit -Mdir $(RTL_BUILD)/unit -o tb_am_actor_unit \
	  $(RTL_UNIT_SRCS) $(abspath tests/rtl/tb_am_actor_unit.cpp) > $(RTL_BUILD)/unit/build.log 2>&1 \
	  || { cat $(RTL_BUILD)/unit/build.log; exit 1; }

rtl-test: $(addprefix $(RTL_BUILD)/,$(addsuffix .vvp,$(RTL_IV_BENCHES))) $(RTL_UNIT_TB)
	@pass=0; fail=0; \
	for b in $(RTL_IV_BENCHES); do \
	  for s in $(RTL_SEEDS); do \
	    if $(VVP) -n $(RTL_BUILD)/$$b.vvp +seed=$$s > $(RTL_BUILD)/$$b.$$s.log 2>&1 && \
	       grep -q '^PASS' $(RTL_BUILD)/$$b.$$s.log; then \
	      echo "PASS $$b seed=$$s"; pass=$$((pass+1)); \
	    else echo "FAIL $$b seed=$$s (see $(RTL_BUILD)/$$b.$$s.log)"; tail -5 $(RTL_BUILD)/$$b.$$s.log; fail=$$((fail+1)); fi; \
	  done; \
	done; \
	for s in $(RTL_SEEDS); do \
	  if $(RTL_UNIT_TB) +seed=$$s +txns=20000 > $(RTL_BUILD)/tb_am_actor_unit.$$s.log 2>&1 && \
	     grep -q '^PASS' $(RTL_BUILD)/tb_am_actor_unit.$$s.log; then \
	    echo "PASS tb_am_actor_unit seed=$$s"; pass=$$((pass+1)); \
	  else echo "FAIL tb_am_actor_unit seed=$$s (see $(RTL_BUILD)/tb_am_actor_unit.$$s.log)"; tail -8 $(RTL_BUILD)/tb_am_actor_unit.$$s.log; fail=$$((fail+1)); fi; \
	done; \
	grep -h '^cycles:' $(RTL_BUILD)/tb_am_actor_unit.1.log 2>/dev/null | sed 's/^/  /'; \
	echo "rtl: $$pass passed, $$fail failed"; \
	test $$fail -eq 0

lint:
	$(VERILATOR) --lint-only -Wall rtl/lint.vlt $(RTL_UNIT_SRCS) --top-module am_actor_unit
	$(VERILATOR) --lint-only -Wall -GTRACE=1 rtl/lint.vlt $(RTL_UNIT_SRCS) --top-module am_actor_unit
	@echo "lint: clean"

synth-unit:
	@mkdir -p $(RTL_BUILD)
	$(YOSYS) -q -l $(RTL_BUILD)/synth_unit.log \
	  -p "read_verilog $(RTL_UNIT_SRCS); synth_ice40 -top am_actor_unit; tee -o $(RTL_BUILD)/synth_unit.stat stat" > /dev/null
	@sed -n '/Number of cells/,$$p' $(RTL_BUILD)/synth_unit.stat

rtl-clean:
	rm -rf $(RTL_BUILD)
