#!/usr/bin/env bash
# bench/instructions.sh — instructions per unit of every workload, ours and
# the bare C loop, counted by valgrind (callgrind): repeatable where times on
# a shared machine are not (docs/performance.md, "Why ours is ~3× the bare
# C loop").
#
#   bench/instructions.sh [AM_BENCH [SAVINA_C]]   (default build/bench/am-bench,
#                                                  build/bench/savina-c)
#
# Each program runs its workload once with 1 and once with 3 timed runs; the
# difference, over 2 runs' units, is one timed run's instructions per unit:
# the sizing and warm-up runs and the set-up cancel out. Ours is counted
# inside its dispatch loop only (callgrind --toggle-collect on drain, which
# includes the collections it makes); the bare loop as a whole (its set-up
# is a few allocations). Sizes are smaller than make bench's, so that
# valgrind takes ~15 s: per-unit figures hardly depend on them, except the
# collector's share on Fibonacci (a smaller live set, another table).
set -euo pipefail
cd "$(dirname "$0")/.."
OURS=${1:-build/bench/am-bench}
BARE=${2:-build/bench/savina-c}
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed (apt-get install valgrind)"; exit 2; }

# name | params | units per run
WORKLOADS=(
  "pingpong|100000|200000"
  "ring|100 100000|100000"
  "counting|100000|100000"
  "fjcreate|60000 1|60000"
  "fib|18 1|16722"
  "big|120 500|120000"
  "bank|1000 10000 500|40000"
)

# instructions of one run of BIN WORKLOAD RUNS PARAMS... (callgrind's total)
count() {
  local toggle=$1 bin=$2 wl=$3 runs=$4; shift 4
  valgrind --tool=callgrind --callgrind-out-file=/dev/null $toggle "$bin" "$wl" "$runs" "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : *//p'
}

per_unit() {  # toggle bin wl units params...
  local toggle=$1 bin=$2 wl=$3 units=$4; shift 4
  local a b
  a=$(count "$toggle" "$bin" "$wl" 1 "$@")
  b=$(count "$toggle" "$bin" "$wl" 3 "$@")
  awk -v a="$a" -v b="$b" -v u="$units" 'BEGIN { printf "%.1f", (b - a) / (2 * u) }'
}

echo "| workload | parameters | ours | bare C | ours / bare C |"
echo "|---|---|---:|---:|---:|"
for w in "${WORKLOADS[@]}"; do
  IFS='|' read -r wl params units <<< "$w"
  # shellcheck disable=SC2086
  o=$(per_unit "--toggle-collect=drain --toggle-collect=drain.*" "$OURS" "$wl" "$units" $params)
  # shellcheck disable=SC2086
  c=$(per_unit "" "$BARE" "$wl" "$units" $params)
  awk -v wl="$wl" -v p="$params" -v o="$o" -v c="$c" \
    'BEGIN { printf "| %s | %s | %s | %s | %.1f× |\n", wl, p, o, c, o / c }'
done
