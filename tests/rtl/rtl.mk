# tests/rtl/rtl.mk — actor unit benches, lint and synthesis smoke.
# Included by the top-level Makefile (paths relative to the repo root);
# also usable alone: make -f tests/rtl/rtl.mk rtl-test
#
#   rtl-test    build and run every unit bench; one PASS/FAIL line per bench,
#               then "rtl: N passed, N failed"; fails if any bench failed.
#               The actor unit's bench runs three times: with the generic
#               modules, as the iCEBreaker builds it (RTL_DSP: am_reg2x16 and
#               am_down_counter in SB_MAC16 DSP blocks, on yosys' SB_MAC16
#               model; WD_W=20), and as the ULX3S builds it (RTL_MUX: its read
#               data and queue-header port through multiplexers)
#   lint        verilator --lint-only -Wall on the actor unit (top am_actor_unit),
#               each of those three ways; and the docs' tables that
#               include/am_iface.def gives are brought up to date with it
#               (a line says when one is rewritten: commit it)
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

# The RTL includes am_defs.vh, the `defines scripts/am_iface.py writes from
# include/am_iface.def (register offsets, fields, fault causes, trace kinds,
# default sizes): every RTL flow depends on it and passes -I$(AM_GEN).
AM_GEN     ?= $(BUILD)/gen
AM_DEFS_VH := $(AM_GEN)/am_defs.vh
AM_PY      ?= python3
$(AM_DEFS_VH): include/am_iface.def scripts/am_iface.py
	@$(AM_PY) scripts/am_iface.py vh $@

RTL_UNIT_SRCS := rtl/am_actor_unit.v rtl/am_unit_bus.v rtl/am_unit_regs.v rtl/am_unit_rdata.v \
                 rtl/am_unit_ext.v rtl/am_unit_hdr.v rtl/am_unit_wdog.v rtl/am_unit_fault.v rtl/am_unit_dp.v rtl/am_unit_fwd.v rtl/am_unit_con.v \
                 rtl/am_unit_gctrig.v rtl/am_unit_stats.v rtl/am_unit_trace.v \
                 rtl/am_reg2x16.v rtl/am_down_counter.v \
                 rtl/am_event_queue.v rtl/am_actor_table.v rtl/am_txn.v rtl/am_dispatch.v rtl/am_gc.v

# Board-side modules: a board whose FPGA needs another primitive gets a
# module of the same name and ports as a generic one, in rtl/boards/, and
# its file list takes it instead of the generic file (fpga.mk:
# <board>_RTL, <board>_RTL_OUT). RTL_<V>_IN: the board-side files (relative
# to rtl/), RTL_<V>_OUT: the generic files they replace.
#   DSP  the iCEBreaker's: am_reg2x16 and am_down_counter in UP5K DSP blocks
#   MUX  the ULX3S's: the unit's read data and queue-header port, and the
#        SoC's read data, through multiplexers
RTL_DSP_IN  := boards/am_dsp_ice40.v
RTL_DSP_OUT := am_reg2x16.v am_down_counter.v
RTL_MUX_IN  := boards/am_mux_ports.v
RTL_MUX_OUT := am_unit_rdata.v am_unit_hdr.v am_soc_rdata.v
# $(1) a list of sources under rtl/, $(2) DSP or MUX: the list with that
# variant's files in place of the generic ones
rtl_variant = $(filter-out $(addprefix rtl/,$(RTL_$(2)_OUT)),$(1)) $(addprefix rtl/,$(RTL_$(2)_IN))

# Icarus benches: name -> sources (bench + DUT)
RTL_IV_BENCHES := tb_am_event_queue tb_am_actor_table tb_am_txn tb_am_uart tb_am_uart_fixed
tb_am_event_queue_SRCS := tests/rtl/tb_am_event_queue.v rtl/am_event_queue.v
tb_am_actor_table_SRCS := tests/rtl/tb_am_actor_table.v rtl/am_actor_table.v
tb_am_txn_SRCS         := tests/rtl/tb_am_txn.v rtl/am_txn.v
tb_am_uart_SRCS        := tests/rtl/tb_am_uart.v rtl/am_uart.v rtl/am_uart_rxfifo.v
# a board's UART without the host link: a fixed divider (DIV_RW = 0), odd,
# and a receive FIFO of 2 bytes in flip-flops (am_board_soc)
tb_am_uart_fixed_SRCS  := -Ptb_am_uart.DIV=11 -Ptb_am_uart.DIV_RW=0 -Ptb_am_uart.RX_FIFO=2 tests/rtl/tb_am_uart.v rtl/am_uart.v rtl/am_uart_rxfifo.v

RTL_UNIT_TB := $(RTL_BUILD)/unit/tb_am_actor_unit
# the same bench on the unit as the iCEBreaker builds it: RTL_DSP (on yosys'
# SB_MAC16 model), WD_W=20
RTL_DSP_TB  := $(RTL_BUILD)/unit_dsp/tb_am_actor_unit
RTL_DSP_SRCS := $(call rtl_variant,$(RTL_UNIT_SRCS),DSP) $(RTL_BUILD)/sb_mac16.v
# ... and as the ULX3S builds it: RTL_MUX
RTL_MUX_TB  := $(RTL_BUILD)/unit_mux/tb_am_actor_unit
RTL_MUX_SRCS := $(call rtl_variant,$(RTL_UNIT_SRCS),MUX)
# yosys' simulation model of the iCE40 DSP block (from the Debian yosys)
ICE40_CELLS_SIM ?= $(shell yosys-config --datdir 2>/dev/null || echo /usr/share/yosys)/ice40/cells_sim.v

# the top Makefile orders every build here after its deps (tools installed);
# alone, nothing is installed
RTL_ORDER ?=

.PHONY: rtl-test lint synth-unit rtl-clean

$(RTL_BUILD)/%.vvp: tests/rtl/tb_am_uart.v $(RTL_UNIT_SRCS) rtl/am_uart.v rtl/am_uart_rxfifo.v $(wildcard tests/rtl/tb_am_*.v) \
    $(AM_DEFS_VH) | $(RTL_ORDER)
	@mkdir -p $(RTL_BUILD)
	$(IVERILOG) -g2012 -I$(AM_GEN) -o $@ $($*_SRCS) > $@.log 2>&1 || { cat $@.log; rm -f $@; exit 1; }
	@# a warning fails the bench: a port of another width than the unit's
	@# would cut off the values the bench means to check
	@if grep -q "warning" $@.log; then cat $@.log; rm -f $@; \
	  echo "$@: the bench must compile without warnings"; exit 1; fi

# the actor unit's Verilator bench: $(1) its build directory, $(2) more
# flags, $(3) the sources
rtl_unit_tb = mkdir -p $(1) && $(VERILATOR) --cc --exe --build -j 2 -Wall -Wno-fatal -Wno-UNUSEDSIGNAL \
	  -GTRACE=1 $(2) -I$(abspath $(AM_GEN)) -CFLAGS -I$(abspath include) --top-module am_actor_unit \
	  -Mdir $(1) -o tb_am_actor_unit \
	  rtl/lint.vlt $(3) $(abspath tests/rtl/tb_am_actor_unit.cpp) > $(1)/build.log 2>&1 \
	  || { cat $(1)/build.log; exit 1; }
# one seed's run of it (in rtl-test's loop): $(1) the bench, $(2) its log's
# name, $(3) what the PASS/FAIL line calls it
rtl_unit_run = if $(1) +seed=$$s +txns=20000 > $(RTL_BUILD)/$(2).$$s.log 2>&1 && \
	     grep -q '^PASS' $(RTL_BUILD)/$(2).$$s.log; then \
	    echo "PASS $(3) seed=$$s"; pass=$$((pass+1)); \
	  else echo "FAIL $(3) seed=$$s (see $(RTL_BUILD)/$(2).$$s.log)"; tail -8 $(RTL_BUILD)/$(2).$$s.log; \
	    fail=$$((fail+1)); fi

RTL_TB_DEPS := tests/rtl/tb_am_actor_unit.cpp include/am_iface.h include/am_iface.def $(AM_DEFS_VH)
$(RTL_UNIT_TB): $(RTL_TB_DEPS) $(RTL_UNIT_SRCS) | $(RTL_ORDER)
	$(call rtl_unit_tb,$(RTL_BUILD)/unit,,$(RTL_UNIT_SRCS))

$(RTL_BUILD)/sb_mac16.v: $(ICE40_CELLS_SIM) | $(RTL_ORDER)
	@mkdir -p $(RTL_BUILD)
	awk '/^module SB_MAC16/ { p = 1 } p { print } p && /^endmodule/ { exit }' $< > $@.tmp
	@grep -q '^endmodule' $@.tmp || { echo "rtl: no SB_MAC16 model in $<"; exit 1; }
	@mv $@.tmp $@

$(RTL_DSP_TB): $(RTL_TB_DEPS) $(RTL_DSP_SRCS) | $(RTL_ORDER)
	$(call rtl_unit_tb,$(RTL_BUILD)/unit_dsp,-GWD_W=20,$(RTL_DSP_SRCS))

$(RTL_MUX_TB): $(RTL_TB_DEPS) $(RTL_MUX_SRCS) | $(RTL_ORDER)
	$(call rtl_unit_tb,$(RTL_BUILD)/unit_mux,,$(RTL_MUX_SRCS))

rtl-test: $(addprefix $(RTL_BUILD)/,$(addsuffix .vvp,$(RTL_IV_BENCHES))) $(RTL_UNIT_TB) $(RTL_DSP_TB) $(RTL_MUX_TB)
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
	  $(call rtl_unit_run,$(RTL_UNIT_TB),tb_am_actor_unit,tb_am_actor_unit); \
	  $(call rtl_unit_run,$(RTL_DSP_TB),tb_am_actor_unit_dsp,tb_am_actor_unit RTL_DSP); \
	  $(call rtl_unit_run,$(RTL_MUX_TB),tb_am_actor_unit_mux,tb_am_actor_unit RTL_MUX); \
	done; \
	grep -h '^cycles:' $(RTL_BUILD)/tb_am_actor_unit.1.log 2>/dev/null | sed 's/^/  /'; \
	echo "rtl: $$pass passed, $$fail failed"; \
	test $$fail -eq 0

lint: $(RTL_BUILD)/sb_mac16.v $(AM_DEFS_VH)
	$(VERILATOR) --lint-only -Wall -I$(AM_GEN) rtl/lint.vlt $(RTL_UNIT_SRCS) --top-module am_actor_unit
	$(VERILATOR) --lint-only -Wall -I$(AM_GEN) -GTRACE=1 rtl/lint.vlt $(RTL_UNIT_SRCS) --top-module am_actor_unit
	$(VERILATOR) --lint-only -Wall -I$(AM_GEN) -GWD_W=20 rtl/lint.vlt $(RTL_DSP_SRCS) --top-module am_actor_unit
	$(VERILATOR) --lint-only -Wall -I$(AM_GEN) rtl/lint.vlt $(RTL_MUX_SRCS) --top-module am_actor_unit
	@$(AM_PY) scripts/am_iface.py docs --write
	@echo "lint: clean"

synth-unit: $(AM_DEFS_VH)
	@mkdir -p $(RTL_BUILD)
	$(YOSYS) -q -l $(RTL_BUILD)/synth_unit.log \
	  -p "read_verilog -I$(AM_GEN) $(RTL_UNIT_SRCS); synth_ice40 -top am_actor_unit; tee -o $(RTL_BUILD)/synth_unit.stat stat" > /dev/null
	@sed -n '/Number of cells/,$$p' $(RTL_BUILD)/synth_unit.stat

rtl-clean:
	rm -rf $(RTL_BUILD)
