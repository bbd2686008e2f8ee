# tests/tests.mk — the test targets that run the simulator (included by the
# top Makefile): the lockstep suite, the fuzzer, and the program-folder
# tests (tests/program/run.sh).

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

# Program folders as a user makes them (outside the checkout): make run /
# sim-run, odd .rodata lengths, image checks, and each bad input's message.
.PHONY: program-test
program-test: sim
	@tests/program/run.sh
