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

# console_whole NAME EXPECTED OUTPUT: every line of EXPECTED (a program's
# console, as `am-run --quiet` prints it) is in OUTPUT, whole, once and in
# order -- nothing of it lost or cut between the commands that printed it
console_whole() {
  local got; got=$(grep -xF -f <(printf '%s\n' "$2") <<< "$3")
  if [ -n "$2" ] && [ "$got" = "$2" ]; then ok "$1"
  else bad "$1" "expected the lines:"$'\n'"$2"$'\n'"got:"$'\n'"$(head -c 600 <<< "$3")"; fi
}

# loader_sim LOADER: the simulated SoC booting a loader's image LOADER, its
# link at P ($W/port), in the background (SIMPID), once P is there
loader_sim() {
  P=$W/port
  timeout 600 "$B/sim/am-sim" --link "$P" --link-div 4 --loader "$1" > "$W/target.log" 2>&1 &
  SIMPID=$!; pids+=($SIMPID)
  for i in $(seq 100); do [ -e "$P" ] && break; sleep 0.1; done
}

# loader_waits: what a loader at P answers while no program runs -- its
# counters, a send refused after its console line (am-link prints the
# machine's console output on stderr while it waits), an ask refused,
# nothing exported
loader_waits() {
  expect "the loader answers STATS" 0 "^RX_FRAMES +[0-9]+$" $LINK --port "$P" stats
  out=$(T $LINK --port "$P" send 0 1 2 2>&1); rc=$?
  if [ $rc -eq 1 ] && grep -qx "am-link: the machine runs no program: its loader waits for an image (am-link load FILE, make load)" \
       <<< "$out"; then ok "no program: a send is refused"
  else bad "no program: a send is refused" "exit $rc: $(head -c 300 <<< "$out")"; fi
  if grep -q "^loader: no program; waiting for an image" <<< "$out"; then ok "the loader says so on the console"
  else bad "the loader says so on the console" "$(head -c 300 <<< "$out")"; fi
  expect "no program: an ask is refused" 1 "^am-link: the machine runs no program" $LINK --port "$P" ask 0 1
  expect "nothing exported" 0 "^\(nothing exported\)$" $LINK --port "$P" exports
}

# loader_ran TENTHS WHAT PATTERN: the simulator started by loader_sim exits
# within TENTHS tenths of a second with status 0, and its log has a line
# matching PATTERN (grep's) -- the loaded program ran in lockstep (WHAT)
loader_ran() {
  for i in $(seq "$1"); do kill -0 "$SIMPID" 2>/dev/null || break; sleep 0.1; done
  if wait "$SIMPID"; then ok "$2: the simulator exited 0"; else bad "$2: the simulator exited 0" "$(tail -5 "$W/target.log")"; fi
  if grep -q "$3" "$W/target.log"; then ok "$2: in lockstep, 0 divergences"
  else bad "$2: in lockstep, 0 divergences" "$(tail -5 "$W/target.log")"; fi
}

# the suite's last line, and its exit status
verdict() {
  echo "link-$SUITE: $pass passed, $fail failed"
  [ $fail -eq 0 ]
}
