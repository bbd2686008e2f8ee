#!/usr/bin/env bash
# tests/link/bench.sh — make bench-link: the host link's figures on the
# simulated SoC (am-sim --link), at each board's clock and at 115,200 and
# 3,000,000 baud: an ask's round trip in cycles and µs (the request's first
# bit to the reply's last, am-link ask one at a time), and messages per
# second in (500 pipelined sends, test_link's sends_arrive_exactly_once; at
# 115,200 baud the line's bound, 22 bytes a send).
# Every answer is checked (a wrong one fails the run); the timings are
# reported, never asserted. QUICK=1: one setting, two asks (make link-test
# runs it so). Writes $BUILD/bench/link.md.
set -uo pipefail
B=${BUILD:-build}
W=$B/bench/link
mkdir -p "$W"
OUT=$B/bench/link$([ "${QUICK:-0}" = 1 ] && echo -quick).md
# board MHz: the clocks the boards run at with the link (fpga.mk's
# <board>_MHZ, icepll's; the ULX3S's with LINK=1); LINK_BENCH_BOARDS picks
# some of them
BOARDS=${LINK_BENCH_BOARDS:-"iCEBreaker=21 HX8K=50.25 ULX3S=50"}
BAUDS="115200 3000000"
NASK=5
if [ "${QUICK:-0}" = 1 ]; then BOARDS="iCEBreaker=21"; BAUDS="3000000"; NASK=2; fi
fail=0
port=$W/port
printf '| board | clock | baud | cycles a bit | ask round trip (cycles) | µs | messages in / s |\n' > "$OUT"
printf '|---|---|---|---|---|---|---|\n' >> "$OUT"
for bm in $BOARDS; do
  board=${bm%%=*}; mhz=${bm#*=}
  for baud in $BAUDS; do
    div=$(awk "BEGIN {printf \"%d\", ($mhz * 1000000 + $baud / 2) / $baud}")
    log=$W/$board-$baud.log
    rm -f "$port"
    "$B/sim/am-sim" --link "$port" --link-div "$div" --quiet link-echo > "$log" 2>&1 &
    pid=$!
    # the link answers once the boot's exports are made (docs/link.md)
    if ! timeout 60 "$B/host/am-link" --port "$port" --wait 10000 --timeout 5000 exports 2>&1 | grep -q '^2 '; then
      echo "FAIL bench-link: $board $baud: link-echo's exports missing at the first answer"; fail=1
    fi
    for i in $(seq 1 $NASK); do
      got=$(timeout 60 "$B/host/am-link" --port "$port" --wait 10000 --timeout 5000 ask 0 $i 2 3)
      if [ "$got" != "$i 2 3" ]; then echo "FAIL bench-link: $board $baud: ask 0 $i 2 3 answered '$got'"; fail=1; fi
    done
    timeout 30 "$B/host/am-link" --port "$port" shutdown > /dev/null || fail=1
    wait $pid || { echo "FAIL bench-link: $board $baud: am-sim exited $?"; tail -5 "$log"; fail=1; }
    rt=$(sed -n 's/.*ask round trips.*mean \([0-9]*\) cycles.*/\1/p' "$log")
    mps=-
    if [ "$baud" -le 115200 ]; then
      # the line is the bound: a send is 22 bytes on the wire, 10 bits each
      mps="$(awk "BEGIN {printf \"%d\", $baud / 220}") (the line)"
    elif [ "${QUICK:-0}" != 1 ]; then
      # messages in: 500 sends, pipelined
      rm -rf "$W/sends" && mkdir -p "$W/sends"
      if AM_LINK_DIV=$div T_ONLY=hello_exports_and_stats,sends_arrive_exactly_once \
         "$B/tests/link/test_link" "$B/sim/am-sim" "$B/programs/tests/link/prog/fw/fw.hex" \
         "$B/programs/demos/fw/fw.hex" "$W/sends" "$B/host/am-run" > "$W/sends.out" 2>&1; then
        cpm=$(sed -n 's/.*messages injected in .*: \([0-9]*\) cycles a message/\1/p' "$W"/sends/target0.log)
        [ -n "$cpm" ] && mps=$(awk "BEGIN {printf \"%d\", $mhz * 1000000 / $cpm}")
      else
        echo "FAIL bench-link: $board $baud: the pipelined sends"; cat "$W/sends.out"; fail=1
      fi
    fi
    us=$(awk "BEGIN {printf \"%.0f\", ${rt:-0} / $mhz}")
    printf '| %s | %s MHz | %s | %s | %s | %s | %s |\n' "$board" "$mhz" "$baud" "$div" "${rt:-?}" "$us" "$mps" >> "$OUT"
  done
done
cat "$OUT"
if [ $fail = 0 ]; then echo "PASS bench-link: every answer as expected"; echo "bench-link: 1 passed, 0 failed"
else echo "bench-link: 0 passed, 1 failed"; exit 1; fi
