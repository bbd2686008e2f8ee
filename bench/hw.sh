#!/usr/bin/env bash
# bench/hw.sh — the hardware figures: every benchmark workload on the
# simulated SoC (Verilator, PicoRV32 + actor unit), in lockstep with the
# reference runtime; cycles per dispatch from the hardware's counters with
# the per-phase breakdown, and dispatches per second at each board's clock.
#
#   bench/hw.sh [AM_SIM]        (`make bench-hw`; also part of `make bench`)
#
# Runs `selfloop`, every `bench-*` program of `AM_SIM --list`
# (bench/workloads/programs.def, behaviors in bench/workloads/wl_boot.c) and
# `gc-serializer` at 2,000 requests. Each program checks its own answer on
# the machine and prints "bench NAME: ok ..." (or "WRONG"; gc-serializer its
# own line). The console is needed for that, so the programs run without
# --quiet (the console output costs no extra cycles: it is printed either
# way). Each line:
#   bench-hw: NAME  N dispatches, C cycles, X cycles/dispatch (baseline B, R x fewer),
#             D dispatches/s BOARD @ MHz, ... (S s to simulate)
# B from bench/hw_baseline.tsv (the figures before the dispatch point and the
# copy-free effects), the rates at the clocks of the boards whose CPU this
# simulation is.
# Fails (exit 1) if a run diverges from the reference runtime, does not end
# cleanly, aborts a transaction, prints WRONG or no "ok" line — after writing
# the report of everything else.
#
# Then the garbage-collection workloads (tests/programs/prog_gc.c:
# gc-serializer, gc-cycles, gc-storm, at their default sizes): the collector's
# cycles from the unit's GC counters, its share of the run, the longest
# pause and the most live actors after a collection (gc.tsv; docs/gc.md).
#
# Then the same programs on the simulation of each board whose CPU differs
# from the default simulation's (BENCH_BOARDS, below): hw-BOARD.tsv.
#
# Environment: BENCH_DIR (default build/bench) receives hw.tsv, hw-BOARD.tsv,
# gc.tsv, hw.log, hw-meta.txt and hw.md; BENCH_BOARDS lists the boards as
# "BOARD=MHz=AM_SIM" (the board clock of fpga.mk and the simulator of the
# board's CPU; make bench-hw passes it; without it, hw.md shows cycles only).
set -uo pipefail
cd "$(dirname "$0")/.."

SIM=${1:-${SIM:-build/sim/am-sim}}
BENCH_DIR=${BENCH_DIR:-build/bench}
TIMEOUT=${BENCH_TIMEOUT:-600}

if [ ! -x "$SIM" ]; then
  echo "bench-hw: $SIM not found (make sim builds it)" >&2
  exit 1
fi
mkdir -p "$BENCH_DIR"
TSV=$BENCH_DIR/hw.tsv
LOG=$BENCH_DIR/hw.log
META=$BENCH_DIR/hw-meta.txt
: > "$LOG"

progs=$("$SIM" --list | awk '$1 ~ /^bench-/ { print $1 }')
if [ -z "$progs" ]; then
  echo "bench-hw: $SIM lists no bench-* program (bench/workloads/programs.def)" >&2
  exit 1
fi
progs="selfloop $progs gc-serializer"
# arguments and the expected answer line of the programs that are no bench-*
prog_args() { case $1 in gc-serializer) echo "--arg 2000";; esac; }
prog_answer() { case $1 in gc-serializer) echo "gc-serializer: 2000 requests, counter 2000";; esac; }
# baseline PROGRAM COLUMN (default | icebreaker): bench/hw_baseline.tsv
baseline() {
  awk -F'\t' -v p="$1" -v c="$2" '!/^#/ && NR > 0 { if ($1 == "program") { for (i = 1; i <= NF; i++) col[$i] = i; next }
    if ($1 == p && (c in col) && $(col[c]) != "-") { print $(col[c]); exit } }' bench/hw_baseline.tsv
}

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(git describe --always --dirty 2>/dev/null || echo '?')"
  echo "verilator: $(verilator --version 2>/dev/null | head -1)"
  fw=build/programs/bench/workloads/fw/fw.elf   # the workloads' image
  if [ -f "$fw" ] && command -v riscv64-unknown-elf-size >/dev/null; then
    echo "firmware: $(riscv64-unknown-elf-size "$fw" | awk 'NR == 2 { print $1 " bytes text" }')"
  fi
} > "$META"

failed=0
num() {  # KEY TEXT -> the number after KEY=
  sed -nE "s/.*[ ;]$1=([0-9]+).*/\1/p" <<< "$2" | head -1
}
# run_programs SIM TSV LABEL: every program on one simulator, a row each
run_programs() {
local SIM=$1 TSV=$2 label=$3
printf 'program\tcycles\tdispatches\tcommits\taborts\tqueue_hwm\tlive\tph_dispatch\tph_behavior\tph_staging\tph_commit\tsim_s\tresult\n' > "$TSV"
for p in $progs; do
  printf 'bench-hw: %-16s ' "$p$label"
  out=$(timeout "$TIMEOUT" "$SIM" $(prog_args "$p") "$p" 2>&1); rc=$?
  { echo "== $p (rc=$rc)"; echo "$out"; } >> "$LOG"
  sum=$(grep -F "[$p] lockstep:" <<< "$out")
  ph=$(grep -F "[$p] cycles/dispatch" <<< "$out")
  secs=$(sed -nE "s/^\[$p\] simulation: [0-9]+ cycles in ([0-9.]+) s.*/\1/p" <<< "$out")
  name=${p#bench-}
  result=$(grep -E "^bench $name: (ok|WRONG)" <<< "$out" | head -1)
  why=
  if [ $rc -ne 0 ]; then why="exit $rc"
  elif ! grep -q "0 divergences" <<< "$sum"; then why="no clean lockstep summary"
  elif grep -q "WRONG" <<< "$out"; then why="wrong result: $(grep -m1 WRONG <<< "$out")"
  elif [ -n "$(prog_answer "$p")" ]; then
    grep -qxF "$(prog_answer "$p")" <<< "$out" || why="not the answer '$(prog_answer "$p")'"
  elif [ "$p" != selfloop ] && [ -z "$result" ]; then why="no 'bench $name: ok' line"
  elif [ -z "$ph" ]; then why="no cycles/dispatch line"
  fi
  aborts=$(num aborts "$sum")
  if [ -z "$why" ] && [ "${aborts:-1}" -ne 0 ]; then why="$aborts aborted transactions"; fi
  if [ -n "$why" ]; then
    echo "FAILED ($why; see $LOG)"
    failed=1
    printf '%s\t\t\t\t\t\t\t\t\t\t\t\tFAILED: %s\n' "$p" "$why" >> "$TSV"
    continue
  fi
  read -r pd pb ps pc < <(sed -nE 's/.*= dispatch ([0-9.]+) \+ behavior ([0-9.]+) \+ staging ([0-9.]+) \+ commit ([0-9.]+) .*/\1 \2 \3 \4/p' <<< "$ph")
  cyc=$(num cycles "$sum"); disp=$(num dispatches "$sum")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$cyc" "$disp" \
    "$(num commits "$sum")" "$aborts" "$(num queue-high-water "$sum")" "$(num live "$sum")" \
    "$pd" "$pb" "$ps" "$pc" "${secs:-0}" "${result:-ok}" >> "$TSV"
  awk -v c="$cyc" -v d="$disp" -v s="$secs" -v b="$(baseline "$p" "$cpu_col")" -v boards="$rates" \
    'BEGIN { x = c / d; printf "%6d dispatches, %8d cycles, %6.1f cycles/dispatch", d, c, x
             if (b != "") printf " (baseline %s, %.2fx fewer)", b, b / x
             n = split(boards, bs, " ")
             for (i = 1; i <= n; i++) { split(bs[i], f, "="); r = f[2] * 1e6 / x
               printf ", %s/s %s @ %s MHz", (r >= 1e6 ? sprintf("%.2f M", r / 1e6) : sprintf("%.0f k", r / 1e3)), f[1], f[2] }
             printf " (%.1f s to simulate)\n", s }'
done
}
# the boards whose CPU a simulator is: "BOARD=MHz ..." for its lines
rates_of() {
  local s=$1 out= spec b rest
  for spec in ${BENCH_BOARDS:-}; do
    b=${spec%%=*}; rest=${spec#*=}
    [ "${rest#*=}" = "$s" ] && out="$out $b=${rest%%=*}"
  done
  echo $out
}
rates=$(rates_of "$SIM") cpu_col=default
run_programs "$SIM" "$TSV" ""
# the boards whose CPU has a simulator of its own
boards=${BENCH_BOARDS:-}
: > "$BENCH_DIR/boards.txt"
for spec in $boards; do
  b=${spec%%=*}; rest=${spec#*=}; mhz=${rest%%=*}; bsim=${rest#*=}
  if [ -z "$mhz" ] || [ ! -x "$bsim" ]; then
    echo "bench-hw: BENCH_BOARDS: '$spec' is not BOARD=MHz=AM_SIM (an executable simulator)" >&2
    failed=1; continue
  fi
  tsv=hw.tsv cpu=default
  if [ "$bsim" != "$SIM" ]; then
    tsv=hw-$b.tsv; rates=$(rates_of "$bsim") cpu_col=$b
    run_programs "$bsim" "$BENCH_DIR/$tsv" " ($b)"
    # the model's parameters (sim/sim.mk's stamp: UART divider | SIM_GPARAMS | PicoRV32)
    cpu=$(awk -F' [|] ' '{ print $2 }' "$(dirname "$bsim")/obj/flags" 2>/dev/null)
  fi
  printf '%s\t%s\t%s\t%s\n' "$b" "$mhz" "$tsv" "${cpu:-default}" >> "$BENCH_DIR/boards.txt"
done

# ---- garbage collection: what the collector costs on workloads that need it
GC_TSV=$BENCH_DIR/gc.tsv
printf 'program\targ\tcycles\tdispatches\tunits\tgc_runs\tgc_reclaimed\tgc_cycles\tgc_max_pause\tgc_live_max\tresult\n' > "$GC_TSV"
gnum() {  # KEY TEXT -> the number after KEY= on the gc: line
  sed -nE "s/.*[ ;]$1=([0-9]+).*/\1/p" <<< "$2" | head -1
}
# each program prints its result; the expected line (a wrong answer adds
# ", N wrong ..." to it, so the whole line must match)
for spec in "gc-serializer 20000 requests gc-serializer: 20000 requests, counter 20000" \
            "gc-cycles 5000 rings gc-cycles: 5000 rings, sum 30000" \
            "gc-storm 300 rounds gc-storm: 300 rounds, sum 148800"; do
  set -- $spec
  p=$1; n=$2; unit=$3; shift 3; want="$*"
  printf 'bench-hw: %-16s ' "$p"
  out=$(timeout "$TIMEOUT" "$SIM" --max-cycles 200000000 --arg "$n" "$p" 2>&1); rc=$?
  { echo "== $p --arg $n (rc=$rc)"; echo "$out"; } >> "$LOG"
  sum=$(grep -F "[$p] lockstep:" <<< "$out")
  gcl=$(grep -F "[$p] gc:" <<< "$out")
  if [ $rc -ne 0 ] || ! grep -q "0 divergences" <<< "$sum" || [ -z "$gcl" ] || ! grep -qxF "$want" <<< "$out"; then
    echo "FAILED (exit $rc; see $LOG)"
    failed=1
    printf '%s\t%s\t\t\t\t\t\t\t\t\tFAILED\n' "$p" "$n" >> "$GC_TSV"
    continue
  fi
  cyc=$(num cycles "$sum"); disp=$(num dispatches "$sum"); gcc=$(gnum cycles "$gcl")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\tok\n' "$p" "$n" "$cyc" "$disp" "$unit" \
    "$(gnum runs "$gcl")" "$(gnum reclaimed "$gcl")" "$gcc" "$(gnum max-pause "$gcl")" \
    "$(gnum live-after-gc-max "$gcl")" >> "$GC_TSV"
  awk -v c="$cyc" -v g="$gcc" -v n="$n" -v u="$unit" 'BEGIN { printf "%d %s, %.1f cycles per %s, of which GC %.1f (%.2f%% overhead)\n", n, u, c / n, substr(u, 1, length(u) - 1), g / n, 100 * g / (c - g) }'
done

python3 bench/hw_report.py "$BENCH_DIR" || failed=1
echo "bench-hw: report in $BENCH_DIR/hw.md"
if [ $failed -ne 0 ]; then
  echo "bench-hw: FAILED (a program diverged, aborted or gave a wrong answer; see $LOG)" >&2
  exit 1
fi
