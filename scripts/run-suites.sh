#!/usr/bin/env bash
# run-suites.sh — run test binaries and add up their verdicts.
#
#   run-suites.sh GROUP BIN...   run each binary (each prints its own
#                                "suite: N passed, N failed"), then print
#                                "GROUP: N passed, N failed"; exit 1 if any
#                                binary failed or printed no verdict.
#   run-suites.sh -P N GROUP BIN...
#                                the same, up to N binaries at a time (each
#                                one's output is printed whole, in order).
#   run-suites.sh --total LOG    add up the group lines found in LOG and print
#                                "total: N passed, N failed".
set -uo pipefail

if [ "${1:-}" = "--total" ]; then
  awk '/^(host|bench|rtl|sim|program|fuzz|fpga|fusesoc|link): [0-9]+ passed, [0-9]+ failed$/ { p += $2; f += $4; g++ }
       END { printf "total: %d passed, %d failed\n", p, f; exit (f > 0 || g == 0) }' "$2"
  exit $?
fi

jobs=1
if [ "${1:-}" = "-P" ]; then jobs=$2; shift 2; fi
group=$1; shift
passed=0; failed=0; bad=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# start the binaries, at most $jobs at a time; each one's output and status
# go to files, read in order below
k=0
for bin in "$@"; do
  if [ "$jobs" -eq 1 ]; then   # one at a time: its output as it comes
    "$bin" 2>&1 | tee "$tmp/$k.out"; echo "${PIPESTATUS[0]}" > "$tmp/$k.rc"
  else
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    ( "$bin" > "$tmp/$k.out" 2>&1; echo $? > "$tmp/$k.rc" ) &
  fi
  k=$((k + 1))
done
wait
k=0
for bin in "$@"; do
  out=$(cat "$tmp/$k.out"); rc=$(cat "$tmp/$k.rc" 2>/dev/null || echo 1); k=$((k + 1))
  [ "$jobs" -eq 1 ] || printf '%s\n' "$out"
  line=$(printf '%s\n' "$out" | grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [ -z "$line" ]; then
    echo "FAIL $bin: exited $rc without a verdict line"; failed=$((failed + 1)); bad=1; continue
  fi
  p=$(echo "$line" | awk '{print $2}'); f=$(echo "$line" | awk '{print $4}')
  passed=$((passed + p)); failed=$((failed + f))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "FAIL $bin: exited $rc"; failed=$((failed + 1)); bad=1
  fi
  [ "$f" -gt 0 ] && bad=1
done
echo "$group: $passed passed, $failed failed"
exit $bad
