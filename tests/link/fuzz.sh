#!/usr/bin/env bash
# tests/link/fuzz.sh — seeded random traffic on the host link
# (tests/link/fuzz_link.c): a few seeds against am-run --link, one against
# the simulated SoC, am-sim --link, in lockstep (0 divergences at its
# shutdown). make link-test runs it with BUILD set; more seeds:
#   build/tests/link/fuzz_link build/sim/am-sim \
#     build/programs/tests/link/prog/fw/fw.hex /tmp/fz FIRST COUNT [--ops N]
B=${BUILD:-build}
W=$B/link-test/fuzz
rm -rf "$W" && mkdir -p "$W"
IMG=$B/programs/tests/link/prog/fw/fw.hex
p=0; f=0
count() {
  local v; v=$(printf '%s\n' "$1" | grep -E '^link-fuzz(-sim)?: [0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [ -z "$v" ]; then f=$((f + 1)); echo "FAIL link-fuzz: no verdict"; return; fi
  p=$((p + $(echo "$v" | awk '{print $2}'))); f=$((f + $(echo "$v" | awk '{print $4}')))
}
out=$(timeout 120 "$B/tests/link/fuzz_link" "$B/host/am-run" "$IMG" "$W/run" 3 6 2>&1)
printf '%s\n' "$out" | grep -v -E '^link-fuzz(-sim)?: [0-9]+ passed'
count "$out"
out=$(timeout 120 "$B/tests/link/fuzz_link" "$B/sim/am-sim" "$IMG" "$W/sim" 7 1 --ops 40 2>&1)
printf '%s\n' "$out" | grep -v -E '^link-fuzz(-sim)?: [0-9]+ passed'
count "$out"
echo "link-fuzz: $p passed, $f failed"
[ $f -eq 0 ]
