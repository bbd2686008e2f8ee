#!/usr/bin/env bash
# tests/fuzz/fuzz.sh — random actor programs through the lockstep checker.
#
#   fuzz.sh N SEED [SIM] [OUT]   run the programs with seeds SEED .. SEED+N-1
#
# Each seed is one program (tests/programs/prog_fuzz.c) run by
# `am-sim --arg SEED fuzz`: every transaction is compared with the reference
# runtime, every committed event must be dispatched exactly once, in order
# (the conservation check), and the hardware's counters must balance
# (dispatches = commits + aborts). Runs as many programs at once as there are
# cores. Prints the totals, every failing seed with the command that
# reproduces it, and "fuzz: N passed, N failed".
set -uo pipefail
N=${1:?usage: fuzz.sh N SEED [SIM] [OUT]}
SEED=${2:?usage: fuzz.sh N SEED [SIM] [OUT]}
SIM=${3:-build/sim/am-sim}
OUT=${4:-build/fuzz}
mkdir -p "$OUT"
[ "$SEED" -ge 1 ] || { echo "fuzz: SEED must be at least 1 (0 is the empty boot message)"; exit 2; }

one() {   # seed -> "seed status transactions aborts"
  local s=$1 log=$OUT/seed-$1.log gc=()
  # three seeds in four stress the garbage collector (docs/gc.md): a
  # collection every 1..16 dispatches and/or whenever fewer than 4..40 slots
  # are free; the fourth runs with the hardware's reset settings
  if [ $((s % 4)) -ne 0 ]; then gc=(--gc-period $((1 + s % 16)) --gc-low $((4 + s % 37))); fi
  "$SIM" --quiet --max-cycles 20000000 "${gc[@]}" --arg "$s" fuzz > "$log" 2>&1
  local rc=$? sum
  sum=$(grep "lockstep:" "$log")
  if [ $rc -ne 0 ] || [ -z "$sum" ]; then
    if grep -q "expected (conservation)" "$log"; then echo "$s LOST 0 0"
    elif grep -q "LOCKSTEP DIVERGENCE" "$log"; then echo "$s DIVERGED 0 0"
    else echo "$s ERROR 0 0"; fi
    return
  fi
  local n d c a
  n=$(sed -E 's/.*: ([0-9]+) transactions checked.*/\1/' <<< "$sum")
  d=$(sed -E 's/.*dispatches=([0-9]+).*/\1/' <<< "$sum")
  c=$(sed -E 's/.*commits=([0-9]+).*/\1/' <<< "$sum")
  a=$(sed -E 's/.*aborts=([0-9]+).*/\1/' <<< "$sum")
  if [ "$d" -ne $((c + a)) ] || [ "$n" -ne "$d" ]; then echo "$s UNBALANCED $n $a"; return; fi
  rm -f "$log"
  echo "$s OK $n $a"
}
export -f one
export SIM OUT

start=$(date +%s)
seq "$SEED" $((SEED + N - 1)) | xargs -P "$(nproc)" -I{} bash -c 'one {}' > "$OUT/results.txt"
secs=$(( $(date +%s) - start ))

awk -v secs="$secs" -v sim="$SIM" -v out="$OUT" '
  { runs++; tx += $3; ab += $4 }
  $2 == "OK"         { ok++ }
  $2 == "DIVERGED"   { div++;  bad[$1] = "divergence" }
  $2 == "LOST"       { lost++; bad[$1] = "lost/duplicated event" }
  $2 == "UNBALANCED" { unb++;  bad[$1] = "counters do not balance" }
  $2 == "ERROR"      { err++;  bad[$1] = "did not finish" }
  END {
    printf "fuzz: %d programs, %d transactions checked (%d aborted), %d divergences, %d lost events, %d unbalanced, %d errors, in %d s\n",
           runs, tx, ab, div + 0, lost + 0, unb + 0, err + 0, secs
    for (s in bad) printf "  seed %s: %s -- reproduce: %s --arg %s fuzz (plus the --gc-* options fuzz.sh derives from the seed; see the log)   (log: %s/seed-%s.log)\n", s, bad[s], sim, s, out, s
    printf "fuzz: %d passed, %d failed\n", ok, runs - ok
    exit (runs != ok)
  }' "$OUT/results.txt"
