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
# cores. Prints the totals, every failing seed with the exact command that
# reproduces it (its --gc-* options included), and "fuzz: N passed, N failed".
set -uo pipefail
N=${1:?usage: fuzz.sh N SEED [SIM] [OUT]}
SEED=${2:?usage: fuzz.sh N SEED [SIM] [OUT]}
SIM=${3:-build/sim/am-sim}
OUT=${4:-build/fuzz}
mkdir -p "$OUT"
[ "$SEED" -ge 1 ] || { echo "fuzz: SEED must be at least 1 (0 is the empty boot message)"; exit 2; }

one() {   # seed -> "seed status transactions aborts", and a failure's command
  local s=$1 log=$OUT/seed-$1.log gc=() cmd
  # three seeds in four stress the garbage collector (docs/gc.md): a
  # collection every 1..16 dispatches and/or whenever fewer than 4..40 slots
  # are free; the fourth runs with the hardware's reset settings
  if [ $((s % 4)) -ne 0 ]; then gc=(--gc-period $((1 + s % 16)) --gc-low $((4 + s % 37))); fi
  cmd=("$SIM" --quiet --max-cycles 20000000 "${gc[@]}" --arg "$s" fuzz)
  "${cmd[@]}" > "$log" 2>&1
  local rc=$? sum
  sum=$(grep "lockstep:" "$log")
  if [ $rc -ne 0 ] || [ -z "$sum" ]; then
    local st=ERROR
    if grep -q "expected (conservation)" "$log"; then st=LOST
    elif grep -q "LOCKSTEP DIVERGENCE" "$log"; then st=DIVERGED; fi
    echo "$s $st 0 0 $(printf '%q ' "${cmd[@]}")"   # the command: fields 5..NF
    return
  fi
  local n d c a
  n=$(sed -E 's/.*: ([0-9]+) transactions checked.*/\1/' <<< "$sum")
  d=$(sed -E 's/.*dispatches=([0-9]+).*/\1/' <<< "$sum")
  c=$(sed -E 's/.*commits=([0-9]+).*/\1/' <<< "$sum")
  a=$(sed -E 's/.*aborts=([0-9]+).*/\1/' <<< "$sum")
  if [ "$d" -ne $((c + a)) ] || [ "$n" -ne "$d" ]; then echo "$s UNBALANCED $n $a $(printf '%q ' "${cmd[@]}")"; return; fi
  rm -f "$log"
  echo "$s OK $n $a"
}
export -f one
export SIM OUT

start=$(date +%s)
seq "$SEED" $((SEED + N - 1)) | xargs -P "$(nproc)" -I{} bash -c 'one {}' > "$OUT/results.txt"
secs=$(( $(date +%s) - start ))

# failing seeds in seed order, each with the exact command `one` ran
sort -n -o "$OUT/results.txt" "$OUT/results.txt"
awk -v secs="$secs" -v out="$OUT" '
  function fail(what) {
    cmd = $5; for (i = 6; i <= NF; i++) cmd = cmd " " $i
    bad[++nbad] = sprintf("  seed %s: %s -- reproduce: %s   (log: %s/seed-%s.log)", $1, what, cmd, out, $1)
  }
  { runs++; tx += $3; ab += $4 }
  $2 == "OK"         { ok++ }
  $2 == "DIVERGED"   { div++;  fail("divergence") }
  $2 == "LOST"       { lost++; fail("lost/duplicated event") }
  $2 == "UNBALANCED" { unb++;  fail("counters do not balance") }
  $2 == "ERROR"      { err++;  fail("did not finish") }
  END {
    printf "fuzz: %d programs, %d transactions checked (%d aborted), %d divergences, %d lost events, %d unbalanced, %d errors, in %d s\n",
           runs, tx, ab, div + 0, lost + 0, unb + 0, err + 0, secs
    for (i = 1; i <= nbad; i++) print bad[i]
    printf "fuzz: %d passed, %d failed\n", ok, runs - ok
    exit (runs != ok)
  }' "$OUT/results.txt"
