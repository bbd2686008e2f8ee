# sim/sim.mk — the Verilator simulation of the SoC with the lockstep checker
# (included by the top Makefile). build/sim/am-sim PROGRAM runs one program.

PICORV32_DIR = $(shell .venv/bin/python -c "import pythondata_cpu_picorv32 as p; print(p.data_location)" 2>/dev/null)
SOC_SRCS := rtl/am_soc.v rtl/am_ram.v rtl/am_uart.v $(RTL_UNIT_SRCS)
SIM_UART_DIV ?= 4
SIM_DIR  := $(BUILD)/sim
COSIM_C  := sim/am_cosim.c

$(SIM_DIR)/libcosim.a: $(COSIM_C) sim/am_cosim.h $(BUILD)/host/libam.a
	@mkdir -p $(SIM_DIR)
	$(CC) $(CFLAGS_OPT) -c $(COSIM_C) -o $(SIM_DIR)/am_cosim.o
	cp $(BUILD)/host/libam.a $@
	ar rcs $@ $(SIM_DIR)/am_cosim.o

# The firmware image is read at simulation start ($readmemh), so a firmware
# change needs no new Verilator build.
$(SIM_DIR)/am-sim: sim/am_sim_main.cpp $(SOC_SRCS) rtl/lint.vlt $(SIM_DIR)/libcosim.a
	@test -n "$(PICORV32_DIR)" || { echo "sim: PicoRV32 not found in .venv (run make deps)"; exit 1; }
	@mkdir -p $(SIM_DIR)/obj
	@rm -f $@   # Verilator's make does not see libcosim.a changes: force the link
	verilator --cc --exe --build -j 2 -O3 --x-assign fast --x-initial fast \
	  -Wall --timescale 1ns/1ps --trace-fst --top-module am_soc \
	  -GTRACE=1 -GUART_DIV=$(SIM_UART_DIV) -GFIRMWARE='"$(abspath $(BUILD)/fw/fw.hex)"' \
	  -CFLAGS "-O2 -I$(abspath include) -I$(abspath host) -I$(abspath lib) -I$(abspath sim)" \
	  -LDFLAGS "$(abspath $(SIM_DIR)/libcosim.a)" \
	  -Mdir $(SIM_DIR)/obj -o ../am-sim \
	  rtl/lint.vlt $(SOC_SRCS) $(PICORV32_DIR)/picorv32.v $(abspath sim/am_sim_main.cpp) \
	  > $(SIM_DIR)/build.log 2>&1 || { tail -40 $(SIM_DIR)/build.log; exit 1; }

.PHONY: sim sim-lint
sim: deps $(SIM_DIR)/am-sim $(BUILD)/fw/fw.hex

sim-lint: deps
	verilator --lint-only -Wall --timescale 1ns/1ps --top-module am_soc \
	  rtl/lint.vlt $(SOC_SRCS) $(PICORV32_DIR)/picorv32.v
	verilator --lint-only -Wall --timescale 1ns/1ps --top-module am_soc -DAM_MUX_PORTS \
	  rtl/lint.vlt $(SOC_SRCS) $(PICORV32_DIR)/picorv32.v
	@echo "sim-lint: clean"

.PHONY: sim-test
sim-test: sim
	@tests/sim/run.sh $(SIM_DIR)/am-sim $(SIM_DIR)/tests

# Random actor programs through the lockstep checker (tests/fuzz/fuzz.sh).
N    ?= 1000
SEED ?= 1
FUZZ_CI_N ?= 300
.PHONY: fuzz fuzz-ci
fuzz: sim
	@tests/fuzz/fuzz.sh $(N) $(SEED) $(SIM_DIR)/am-sim $(BUILD)/fuzz

# The fixed-seed batch of `make test`.
fuzz-ci: sim
	@tests/fuzz/fuzz.sh $(FUZZ_CI_N) 1 $(SIM_DIR)/am-sim $(BUILD)/fuzz-ci
