# tests/link/suite.sh — what the link's shell suites share (sourced:
# `. tests/link/suite.sh NAME SECONDS`): BUILD's directory B and am-link
# (LINK), a fresh work directory W (B/link-test/NAME), the counts and their
# lines (ok, bad, "link-NAME: N passed, N failed" from verdict), T (a
# command bounded by SECONDS, or by TMO when set), expect, and the
# background processes started with `pids+=($!)`, stopped on exit with
# their children.
set -uo pipefail
SUITE=$1
SUITE_TMO=$2
B=${BUILD:-build}
LINK=$B/host/am-link
W=$(realpath -m "$B/link-test/$SUITE")
rm -rf "$W" && mkdir -p "$W"
pass=0; fail=0
ok()  { echo "ok   link-$SUITE: $1"; pass=$((pass + 1)); }
bad() { echo "FAIL link-$SUITE: $1: $2"; fail=$((fail + 1)); }
T() { timeout "${TMO:-$SUITE_TMO}" "$@"; }
pids=()
cleanup() { for p in "${pids[@]}"; do kill $(pgrep -P "$p") "$p" 2>/dev/null; done; }
trap cleanup EXIT

# expect NAME RC PATTERN CMD...: CMD exits RC and its output (stdout and
# stderr) matches PATTERN (an extended regular expression)
expect() {
  local name=$1 rc=$2 pat=$3; shift 3
  out=$(T "$@" 2>&1); r=$?
  if [ $r -eq "$rc" ] && grep -qE -- "$pat" <<< "$out"; then ok "$name"
  else bad "$name" "exit $r, expected $rc and /$pat/: $(head -c 300 <<< "$out")"; fi
}

# the suite's last line, and its exit status
verdict() {
  echo "link-$SUITE: $pass passed, $fail failed"
  [ $fail -eq 0 ]
}
