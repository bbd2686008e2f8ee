# sim/sim.mk — the Verilator simulation of the SoC with the lockstep checker
# (included by the top Makefile). build/sim/am-sim PROGRAM runs one program.
#
# The Verilator model is compiled once (build/sim/obj, SIM_MODEL) and
# takes the firmware image at run time: am-sim loads the image of the
# program's folder into the RAM before reset. Each runner (build/sim/am-sim
# for the project's programs, build/programs/KEY/am-sim for one folder) is
# that model linked with the folder's host-side behaviors: seconds, not a
# new Verilator build (program.mk links them, and `make sim`).

PICORV32_DIR = $(shell .venv/bin/python -c "import pythondata_cpu_picorv32 as p; print(p.data_location)" 2>/dev/null)
SOC_SRCS := rtl/am_soc.v rtl/am_soc_rdata.v rtl/am_ram.v rtl/am_uart.v rtl/am_uart_rxfifo.v $(RTL_UNIT_SRCS)
SIM_UART_DIV ?= 4
# other SoC parameters for the model (e.g. a board's CPU: make bench-hw
# builds the iCEBreaker's, -GENABLE_MUL=0 ...)
SIM_GPARAMS ?=
SIM_MODEL := $(SIM_DIR)/obj/model.stamp
# The model's flags stamp names PicoRV32 by its pin, which is known when make
# starts; its path is not until deps has made .venv (a first run would stamp
# an empty path and the second rebuild the model).
PICORV32_PIN := $(shell grep -i '^pythondata-cpu-picorv32' scripts/requirements.txt)
SIM_MODEL_CFG := $(call am_stamp,$(SIM_DIR)/obj/flags,$(SIM_UART_DIV) | $(SIM_GPARAMS) | $(PICORV32_PIN))
SIM_MODEL_OBJS := $(addprefix $(SIM_DIR)/obj/,am_sim_main.o verilated.o verilated_fst_c.o \
                  verilated_threads.o Vam_soc__ALL.a)

$(SIM_DIR)/am_cosim.o: sim/am_cosim.c sim/am_cosim.h $(HOST_HDR) | deps
	@mkdir -p $(SIM_DIR)
	$(CC) $(CFLAGS_OPT) -c sim/am_cosim.c -o $@

# The model and the testbench's objects (Verilator's own makefile compiles
# them).
$(SIM_MODEL): sim/am_sim_main.cpp sim/am_cosim.h host/am_progset.h host/am_rt.h include/am.h \
    include/am_iface.h include/am_iface.def $(AM_DEFS_VH) \
    $(SOC_SRCS) rtl/lint.vlt sim/am_sim.vlt $(SIM_MODEL_CFG) | deps
	@test -n "$(PICORV32_DIR)" || { echo "sim: PicoRV32 not found in .venv (run make deps)"; exit 1; }
	@mkdir -p $(SIM_DIR)/obj
	verilator --cc --exe -O3 --x-assign fast --x-initial fast \
	  -Wall --timescale 1ns/1ps --trace-fst --top-module am_soc \
	  -GTRACE=1 -GUART_DIV=$(SIM_UART_DIV) $(SIM_GPARAMS) -I$(abspath $(AM_GEN)) \
	  -CFLAGS "-O2 -I$(abspath include) -I$(abspath host) -I$(abspath lib) -I$(abspath sim)" \
	  -Mdir $(SIM_DIR)/obj -o am-sim-unlinked \
	  rtl/lint.vlt sim/am_sim.vlt $(SOC_SRCS) $(PICORV32_DIR)/picorv32.v $(abspath sim/am_sim_main.cpp) \
	  > $(SIM_DIR)/build.log 2>&1 || { tail -40 $(SIM_DIR)/build.log; exit 1; }
	$(MAKE) --no-print-directory -C $(SIM_DIR)/obj -f Vam_soc.mk -j 2 $(notdir $(SIM_MODEL_OBJS)) \
	  >> $(SIM_DIR)/build.log 2>&1 || { tail -40 $(SIM_DIR)/build.log; exit 1; }
	@touch $@

# $(call am_sim_link,OUT,PROGSETS.c,LIBPROG...): one am-sim
am_sim_link = $(CXX) -O2 -Iinclude -Ilib -Ihost -x c $(2) -x none $(SIM_MODEL_OBJS) $(3) \
	$(SIM_DIR)/am_cosim.o $(BUILD)/host/libam.a -lz -pthread -latomic -o $(1)

.PHONY: sim-lint

sim-lint: deps $(AM_DEFS_VH)
	verilator --lint-only -Wall --timescale 1ns/1ps --top-module am_soc -I$(AM_GEN) \
	  rtl/lint.vlt $(SOC_SRCS) $(PICORV32_DIR)/picorv32.v
	verilator --lint-only -Wall --timescale 1ns/1ps --top-module am_soc -I$(AM_GEN) \
	  rtl/lint.vlt $(call rtl_variant,$(SOC_SRCS),MUX) $(PICORV32_DIR)/picorv32.v
	@echo "sim-lint: clean"
