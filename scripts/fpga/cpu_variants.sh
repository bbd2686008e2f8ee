#!/usr/bin/env bash
# scripts/fpga/cpu_variants.sh PICORV32_V OUT_DIR — what PicoRV32's knobs cost.
#
# Synthesizes PicoRV32 alone for the iCE40 (synth_ice40 -abc9) with the
# parameters the iCEBreaker's SoC gives it (rtl/am_soc.v: RV32I, no IRQs --
# the SoC restarts the core on a trap --, one-bit shifts, catching illegal
# instructions and misaligned accesses), then once per variant with one
# knob changed, and prints LUT4 / FF / carry per variant, the logic cells
# the core alone packs into on the UP5K (nextpnr-ice40 --pack-only) and the
# differences to the SoC's configuration (make fpga-cpu-variants;
# docs/fpga.md).
set -euo pipefail
V=${1:?usage: cpu_variants.sh PICORV32_V OUT_DIR}
OUT=${2:?usage: cpu_variants.sh PICORV32_V OUT_DIR}
mkdir -p "$OUT"
SOC="-set ENABLE_COUNTERS 0 -set ENABLE_COUNTERS64 0 -set CATCH_MISALIGN 1 -set CATCH_ILLINSN 1 \
     -set ENABLE_MUL 0 -set ENABLE_DIV 0 -set ENABLE_IRQ 0 -set TWO_STAGE_SHIFT 0"
IRQ="-set ENABLE_IRQ 1 -set ENABLE_IRQ_TIMER 0 -set MASKED_IRQ 32'hffffffe1 -set LATCHED_IRQ 32'hffffffef \
     -set PROGADDR_IRQ 16"
variants=(
  "soc|the SoC's configuration|"
  "irq|IRQs 1..4, no q-registers (the SoC before)|$IRQ -set ENABLE_IRQ_QREGS 0"
  "qregs|IRQs 1..4 with q-registers|$IRQ -set ENABLE_IRQ_QREGS 1"
  "shift|four-bit shifts (TWO_STAGE_SHIFT=1)|-set TWO_STAGE_SHIFT 1"
  "nomisalign|no misaligned trap (CATCH_MISALIGN=0)|-set CATCH_MISALIGN 0"
  "noillinsn|no illegal-insn trap (CATCH_ILLINSN=0)|-set CATCH_ILLINSN 0"
  "rv32e|RV32E, 16 registers (ENABLE_REGS_16_31=0)|-set ENABLE_REGS_16_31 0"
  "latched|bus holds read data (LATCHED_MEM_RDATA=1)|-set LATCHED_MEM_RDATA 1"
  "twocycle|two-cycle ALU, compare (TWO_CYCLE_*=1)|-set TWO_CYCLE_ALU 1 -set TWO_CYCLE_COMPARE 1"
)
base_lut=""; base_lc=""
printf '%-44s %6s %6s %6s %6s %8s %6s\n' "PicoRV32 variant (iCE40)" LUT4 FF carry LC "LUT4 +/-" "LC +/-"
for v in "${variants[@]}"; do
  IFS='|' read -r name what extra <<< "$v"
  yosys -q -p "read_verilog $V; chparam $SOC $extra picorv32; synth_ice40 -abc9 -top picorv32; \
                write_json $OUT/$name.json; tee -q -o $OUT/$name.stat stat" > "$OUT/$name.log" 2>&1 \
    || { echo "cpu_variants: yosys failed for $name (see $OUT/$name.log)"; exit 1; }
  nextpnr-ice40 --up5k --package sg48 --json "$OUT/$name.json" --pack-only -q -l "$OUT/$name.pack.log" \
    > /dev/null 2>&1 || { echo "cpu_variants: nextpnr-ice40 --pack-only failed for $name (see $OUT/$name.pack.log)"; exit 1; }
  read -r lc lut ff cy < <(python3 "$(dirname "$0")/fpga_cells.py" "$OUT/$name.stat" "$OUT/$name.pack.log") \
    && [ -n "$cy" ] || { echo "cpu_variants: no cell counts for $name"; exit 1; }
  [ -n "$base_lut" ] || { base_lut=$lut; base_lc=$lc; }
  printf '%-44s %6d %6d %6d %6d %+8d %+6d\n' "$what" "$lut" "$ff" "$cy" "$lc" $((lut - base_lut)) $((lc - base_lc))
done
