#!/usr/bin/env bash
# bench/run.sh — run every workload on each system and write the report.
#
#   bench/run.sh                 full run (what `make bench` does after building)
#   BENCH_QUICK=1 bench/run.sh   tiny parameters, 2 runs, no plots: checks that
#                                every program runs and gets its answers right
#                                (`make bench-quick`, part of `make test`;
#                                numbers meaningless)
#
# Environment: BENCH_BIN (default build/bench) holds the binaries built by
# bench/bench.mk; BENCH_DIR (default BENCH_BIN) receives results.tsv,
# meta.txt, run.log, report.md, plot.dat, bench.png, bench.svg;
# BENCH_RUNS timed runs per workload and system (default 7, at least 5 for a
# real report); BENCH_SYSTEMS (default "ours c erlang caf": the host
# runtime, the bare-C event loop, Erlang/OTP, CAF).
# Each program does one untimed warm-up run, then BENCH_RUNS timed runs, and
# checks its own answers: a wrong answer or a crash fails the bench (exit 1),
# after the report of everything else has been written. The last line is the
# verdict "bench: N passed, N failed", one count per system and workload
# (scripts/run-suites.sh --total adds it up in `make test`).
set -uo pipefail
cd "$(dirname "$0")/.."

BENCH_BIN=${BENCH_BIN:-build/bench}
BENCH_DIR=${BENCH_DIR:-$BENCH_BIN}
RUNS=${BENCH_RUNS:-7}
SYSTEMS=${BENCH_SYSTEMS:-ours c erlang caf}
TIMEOUT=${BENCH_TIMEOUT:-600}

# workload parameters, the same for every system (see bench/am_bench.c)
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  RUNS=${BENCH_RUNS:-2}
  WORKLOADS=(
    "pingpong 10000"
    "ring 100 10000"
    "counting 10000"
    "fjcreate 1000 2"         # 1,000 workers through a 128-slot table: reclaimed
    "fib 15 2"
    "big 64 100"
    "bank 100 2000 50"
  )
else
  WORKLOADS=(
    "pingpong 1000000"        # 1M round trips = 2M messages
    "ring 100 1000000"        # 100 actors, 1M hops
    "counting 1000000"        # 1M increments
    "fjcreate 60000 10"       # 60,000 actors, x10; at most 7 live at once
    "fib 22 10"               # fib(22): 57,313 actors (~35,000 live at most), 114,626 messages, x10
    "big 120 5000"            # 120 actors x 5,000 pings = 1.2M messages
    "bank 1000 100000 500"    # 1,000 accounts, 100,000 transfers, 500 at a time
  )
fi

mkdir -p "$BENCH_DIR"
RES=$BENCH_DIR/results.tsv
META=$BENCH_DIR/meta.txt
LOG=$BENCH_DIR/run.log
: > "$LOG"
printf 'system\tworkload\trun\tunits\tns\tgc_ns\n' > "$RES"

cmd_for() {  # system workload params...
  local sys=$1; shift
  local wl=$1; shift
  case $sys in
    ours)   echo "$BENCH_BIN/am-bench $wl $RUNS $*" ;;
    c)      echo "$BENCH_BIN/savina-c $wl $RUNS $*" ;;
    erlang) echo "erl +S 1 -noshell -noinput -pa $BENCH_BIN/erlang -run savina main $wl $RUNS $*" ;;
    caf)    echo "$BENCH_BIN/savina-caf $wl $RUNS $*" ;;
  esac
}

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  echo "nproc: $(nproc)"
  echo "kernel: $(uname -sr)"
  echo "load_before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "cc: $(${CC:-gcc} --version | head -1)"
  echo "systems: $SYSTEMS"
  if [[ " $SYSTEMS " == *" erlang "* ]]; then
    echo "erlang: OTP $(erl -noshell -eval 'io:format("~s", [erlang:system_info(otp_release)]), halt().' 2>/dev/null) ($(erl -noshell -eval 'io:format("~s", [erlang:system_info(emu_flavor)]), halt().' 2>/dev/null)), erl +S 1"
  fi
  if [[ " $SYSTEMS " == *" caf "* ]]; then
    echo "caf: $(dpkg-query -W -f='${Version}' libcaf-dev 2>/dev/null), scheduler.max-threads=1"
  fi
  echo "runs: $RUNS (+1 warm-up)"
  echo "quick: ${BENCH_QUICK:-0}"
  for w in "${WORKLOADS[@]}"; do echo "workload: $w"; done
} > "$META"

failed=0; npass=0; nfail=0
for w in "${WORKLOADS[@]}"; do
  for sys in $SYSTEMS; do
    cmd=$(cmd_for $sys $w)
    printf 'bench: %-7s %-28s ' "$sys" "$w"
    out=$(timeout "$TIMEOUT" $cmd 2>>"$LOG"); rc=$?
    echo "== $sys $w (rc=$rc)" >> "$LOG"
    echo "$out" >> "$LOG"
    if [ $rc -ne 0 ] || ! grep -q '^RESULT' <<<"$out"; then
      echo "FAILED (exit $rc; see $LOG)"
      failed=1; nfail=$((nfail + 1))
      printf '%s\t%s\tFAILED\t0\t0\t\n' "$sys" "${w%% *}" >> "$RES"
      continue
    fi
    npass=$((npass + 1))
    # RESULT workload run units ns [gc_ns]: gc_ns only from am-bench
    grep '^RESULT' <<<"$out" | awk -v s="$sys" '{ printf "%s\t%s\t%s\t%s\t%s\t%s\n", s, $2, $3, $4, $5, (NF >= 6 ? $6 : "") }' >> "$RES"
    ns=$(grep '^RESULT' <<<"$out" | awk '{ printf "%.3f\n", $5 / $4 }' | sort -g |
      awk '{ v[NR] = $1 } END { printf "median %.1f ns/unit, min %.1f, max %.1f (%d runs)", v[int((NR + 1) / 2)], v[1], v[NR], NR }')
    gc=$(grep '^RESULT' <<<"$out" | awk 'NF >= 6 { printf "%.3f\n", 100 * $6 / $5 }' | sort -g |
      awk '{ v[NR] = $1 } END { if (NR) printf ", collector %.1f%% of the time", v[int((NR + 1) / 2)] }')
    echo "$ns$gc"
  done
done
echo "load_after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$META"

python3 bench/report.py "$BENCH_DIR" || failed=1
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  echo "bench: report in $BENCH_DIR/report.md (quick: no plots)"
elif command -v gnuplot >/dev/null; then
  gnuplot -e "datafile='$BENCH_DIR/plot.dat'; outbase='$BENCH_DIR/bench'; present='$(cat "$BENCH_DIR/plot.sys" 2>/dev/null || echo 0 1 2 3)'" bench/plot.gp || failed=1
  echo "bench: report in $BENCH_DIR/report.md, plots $BENCH_DIR/bench.png, $BENCH_DIR/bench.svg"
else
  echo "bench: gnuplot missing (bench/deps.sh installs it); no plots"; failed=1
fi
[ $failed -ne 0 ] && [ $nfail -eq 0 ] && nfail=1   # the report or the plots failed
echo "bench: $npass passed, $nfail failed"
if [ $failed -ne 0 ]; then
  echo "bench: FAILED (a workload gave a wrong answer or did not run; see $LOG)" >&2
  exit 1
fi
