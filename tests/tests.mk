# tests/tests.mk — the test targets that run the simulator (included by the
# top Makefile): the lockstep suite, the fuzzer, and the program-folder
# tests (tests/program/run.sh).

.PHONY: sim-test
sim-test: sim $(BUILD)/host/am-run
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

# Program folders as a user makes them (outside the checkout): make run /
# sim-run, odd .rodata lengths, image checks, and each bad input's message.
.PHONY: program-test
program-test: sim
	@tests/program/run.sh

# The FuseSoC cores (docs/fusesoc.md) with the checkout as a library: listed,
# their file lists and board settings == rtl.mk's and fpga.mk's, lint and the
# unit bench run through FuseSoC (tests/fpga/test_fusesoc.py).
.PHONY: fusesoc-test
fusesoc-test: deps
	@.venv/bin/python tests/fpga/test_fusesoc.py $(BUILD)/fusesoc-test
