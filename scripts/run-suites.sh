#!/usr/bin/env bash
# run-suites.sh — run test binaries and add up their verdicts.
#
#   run-suites.sh GROUP BIN...   run each binary (each prints its own
#                                "suite: N passed, N failed"), then print
#                                "GROUP: N passed, N failed"; exit 1 if any
#                                binary failed or printed no verdict.
#   run-suites.sh --total LOG    add up the group lines found in LOG and print
#                                "total: N passed, N failed".
set -uo pipefail

if [ "${1:-}" = "--total" ]; then
  awk '/^(host|bench|rtl|sim|program|fuzz|fpga|fusesoc|link): [0-9]+ passed, [0-9]+ failed$/ { p += $2; f += $4; g++ }
       END { printf "total: %d passed, %d failed\n", p, f; exit (f > 0 || g == 0) }' "$2"
  exit $?
fi

group=$1; shift
passed=0; failed=0; bad=0
for bin in "$@"; do
  out=$("$bin" 2>&1); rc=$?
  printf '%s\n' "$out"
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
