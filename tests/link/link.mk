# tests/link/link.mk — make link-test (included by the top Makefile): the
# host link end to end against am-run --link, over a pseudo-terminal and a
# Unix socket (tests/link/e2e.sh: test_link.c, the library; tests/link/cli.sh:
# am-link's commands and errors, docs/link.md's first session), and against
# the simulated SoC, am-sim --link (tests/link/sim.sh: test_link.c's cases
# on the firmware's link service, in lockstep; tests/link/session.sh:
# docs/link.md's session on it, am-link's commands one after another, as a
# newcomer meets them; tests/link/loader.sh: the
# resident loader an iCEBreaker with the link boots, and make load;
# tests/link/inplace.sh: the in-place loader an HX8K with the link boots,
# test_inplace.c's cases and make load BOARD=hx8k; tests/link/fuzz.sh: seeded
# random link traffic, tests/link/fuzz_link.c, on both targets). The codec
# and the service core have unit tests of their own in make host-test
# (tests/lib/test_link_*.c).

LINK_TEST_DEPS := $(BUILD)/tests/link/test_link $(BUILD)/tests/link/fuzz_link $(BUILD)/host/am-run $(BUILD)/host/am-link \
                  $(BUILD)/programs/tests/link/prog/fw/fw.hex $(BUILD)/programs/demos/fw/fw.hex \
                  $(SIM_DIR)/am-sim $(BUILD)/programs/tests/link/prog/am-sim $(BUILD)/loader/rv32im/loader.hex \
                  $(BUILD)/programs/tests/link/prog/fw-rv32i/fw.hex $(BUILD)/tests/link/test_inplace \
                  $(BUILD)/inplace/rv32im/inplace.hex

# Two suites at a time (each simulator run and each target is one process;
# the suites share no files).
.PHONY: link-test
link-test: deps $(LINK_TEST_DEPS)
	@BUILD=$(BUILD) scripts/run-suites.sh -P 2 link tests/link/sim.sh tests/link/e2e.sh tests/link/cli.sh \
	  tests/link/session.sh tests/link/loader.sh tests/link/inplace.sh tests/link/bench-quick.sh \
	  tests/link/fuzz.sh

# make bench-link: the link's figures on the simulated SoC (tests/link/bench.sh,
# build/bench/link.md); its answers are checked in make link-test too
# (QUICK=1: one setting), its timings never
.PHONY: bench-link
bench-link: deps $(LINK_TEST_DEPS)
	@BUILD=$(BUILD) tests/link/bench.sh
