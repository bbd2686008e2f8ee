#!/usr/bin/env bash
# tests/link/sim.sh — the host link end to end against the simulated SoC,
# am-sim --link (tests/link/test_link.c's cases, the firmware's link service
# in lockstep with the reference runtime), then every simulator run's log
# must report 0 lockstep divergences (make link-test runs it with BUILD set).
B=${BUILD:-build}
W=$B/link-test/sim
rm -rf "$W" && mkdir -p "$W"
out=$("$B/tests/link/test_link" "$B/sim/am-sim" "$B/programs/tests/link/prog/fw/fw.hex" \
  "$B/programs/demos/fw/fw.hex" "$W" "$B/host/am-run" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v -E '^link-sim: [0-9]+ passed, [0-9]+ failed$'
v=$(printf '%s\n' "$out" | grep -E '^link-sim: [0-9]+ passed, [0-9]+ failed$' | tail -n 1)
p=$(echo "${v:-x 0 x 1}" | awk '{print $2}'); f=$(echo "${v:-x 0 x 1}" | awk '{print $4}')
# each target's last line: "[NAME] link: ... lockstep: N transactions checked, 0 divergences"
n=0; bad=0
for lf in "$W"/target*.log; do
  n=$((n + 1))
  if ! grep -q '^\[.*\] link: .*, 0 divergences$' "$lf"; then
    bad=$((bad + 1)); echo "FAIL link-sim-lockstep: $lf:"; tail -15 "$lf" | sed 's/^/    /'
  fi
done
if [ $n -gt 0 ] && [ $bad -eq 0 ]; then
  echo "PASS link-sim-lockstep: $n simulator runs, 0 divergences"; p=$((p + 1))
else
  [ $n -eq 0 ] && echo "FAIL link-sim-lockstep: no simulator run"; f=$((f + 1))
fi
echo "link-sim: $p passed, $f failed"
[ $rc -eq 0 ] && [ $bad -eq 0 ] && [ $n -gt 0 ]
