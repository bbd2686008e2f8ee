#!/usr/bin/env bash
# tests/sim/run.sh — the lockstep co-simulation tests (make sim-test).
#
# 1. Every program (demos and test programs) runs on the simulated SoC in
#    lockstep with the reference runtime: exit 0, "0 divergences", and the
#    hardware's counters balance (dispatches = commits + aborts).
# 2. The checker checks: with a deliberately perturbed reference runtime
#    (--perturb SEQ) it must stop at exactly that transaction, exit 1 and
#    print a divergence report; docs/cosim.md's example report is one of
#    them, as printed.
# Prints one PASS/FAIL line per test and "sim: N passed, N failed".
set -uo pipefail
SIM=${1:-build/sim/am-sim}
OUT=${2:-build/sim/tests}
mkdir -p "$OUT"
pass=0; fail=0
ok()  { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1: $2"; fail=$((fail + 1)); }

# the programs run as many at a time as there are cores; results in list order
# (a program with an expected console, tests/sim/NAME.expected, runs with its
# console: that one run is also the one its check below reads)
programs=$("$SIM" --list | awk '{print $1}')
run_one() { q=--quiet; [ -f "tests/sim/$1.expected" ] && q=; "$SIM" $q "$1" > "$OUT/$1.log" 2>&1; echo $? > "$OUT/$1.rc"; }
export -f run_one; export SIM OUT
xargs -P "$(nproc)" -I{} bash -c 'run_one {}' <<< "$programs"
for p in $programs; do
  log=$OUT/$p.log
  rc=$(cat "$OUT/$p.rc")
  sum=$(grep "lockstep:" "$log")
  if [ $rc -ne 0 ]; then bad "lockstep $p" "exit $rc (see $log)"; tail -15 "$log"; continue; fi
  if ! grep -q "0 divergences" <<< "$sum"; then bad "lockstep $p" "no clean summary"; continue; fi
  d=$(sed -E 's/.*dispatches=([0-9]+).*/\1/' <<< "$sum")
  c=$(sed -E 's/.*commits=([0-9]+).*/\1/' <<< "$sum")
  a=$(sed -E 's/.*aborts=([0-9]+).*/\1/' <<< "$sum")
  n=$(sed -E 's/.*: ([0-9]+) transactions checked.*/\1/' <<< "$sum")
  if [ "$d" -ne $((c + a)) ] || [ "$n" -ne "$d" ]; then
    bad "lockstep $p" "counters do not balance: checked=$n dispatches=$d commits=$c aborts=$a"; continue
  fi
  ok "lockstep $p ($n transactions)"
done

for case in "cell 5" "bank 41" "faults 8"; do
  set -- $case
  log=$OUT/perturb-$1-$2.log
  "$SIM" --quiet --perturb "$2" "$1" > "$log" 2>&1; rc=$?
  if [ $rc -eq 1 ] && grep -q "LOCKSTEP DIVERGENCE at transaction $2:" "$log" \
     && grep -q "expected (reference runtime)" "$log" && grep -qE "^  behaviors: b[0-9]+ = [A-Z]" "$log"; then
    ok "checker catches a perturbed reference at $1 transaction $2"
  else
    bad "checker catches a perturbed reference at $1 transaction $2" "exit $rc (see $log)"
  fi
done

# docs/cosim.md's divergence report is this run's: its lines not cut short
# ("...") must be the checker's, word for word.
log=$OUT/perturb-doc.log
"$SIM" --quiet --perturb 5 counter-unsafe > "$log" 2>&1
missing=$(python3 - docs/cosim.md "$log" <<'PY'
import re, sys
page, out = open(sys.argv[1]).read(), open(sys.argv[2]).read().splitlines()
m = re.search(r"am-sim --perturb 5 counter-unsafe.*?```\n(.*?)```", page, re.S)
if not m: print("docs/cosim.md: no report of am-sim --perturb 5 counter-unsafe"); sys.exit()
for line in m.group(1).splitlines():
    if "..." not in line and line not in out: print(line.strip()[:60])
PY
)
if [ -z "$missing" ]; then ok "docs/cosim.md's divergence report is what am-sim --perturb 5 counter-unsafe prints"
else bad "docs/cosim.md's divergence report" "not printed: $missing"; fi

# The collector: the hardware's own counters (the firmware's report) must
# show collections, and the live actors right after any collection must stay
# within the program's bound (tests/lib/test_gc.c gives the reasons).
for case in "gc-serializer 5" "gc-cycles 5" "gc-keepalive 6" "gc-storm 65"; do
  set -- $case
  g=$(grep -F "[$1] gc:" "$OUT/$1.log")
  runs=$(sed -nE 's/.* runs=([0-9]+).*/\1/p' <<< "$g")
  live=$(sed -nE 's/.*live-after-gc-max=([0-9]+).*/\1/p' <<< "$g")
  if [ -n "$runs" ] && [ "$runs" -gt 0 ] && [ -n "$live" ] && [ "$live" -le "$2" ]; then
    ok "gc $1: $runs collections, at most $live live after one (bound $2)"
  else
    bad "gc $1" "expected collections and at most $2 live after one; got: ${g:-no gc line}"
  fi
done

# A table nearly full of live actors (docs/gc.md, "When it runs"): no
# collection storm -- the collector's share of the cycles stays <= 5% --
# and garbage made in it never causes TABLE_FULL (collections on demand).
# Programs that make garbage all the time stay under 5% as well (docs/gc.md,
# "Measured": the pipelined scans).
for p in gc-ring gc-sieve gc-serializer gc-cycles gc-keepalive gc-storm; do
  g=$(grep -F "[$p] gc:" "$OUT/$p.log")
  pct=$(sed -nE 's/.*\(([0-9.]+)% of all.*/\1/p' <<< "$g")
  if [ -n "$pct" ] && awk "BEGIN { exit !($pct <= 5.0) }"; then ok "gc $p: the collector's share ${pct}% <= 5%"
  else bad "gc $p" "collector share above 5% or missing: ${g:-no gc line}"; fi
done
log=$OUT/gc-ring-churn-console.log
"$SIM" gc-ring-churn > "$log" 2>&1
runs=$(sed -nE 's/.*\] gc: runs=([0-9]+).*/\1/p' "$log")
if grep -q "^gc-ring-churn: 124 nodes, 2000 hops" "$log" && ! grep -q "^fault:" "$log" \
   && grep -q "0 divergences" "$log" && [ -n "$runs" ] && [ "$runs" -ge 990 ]; then
  ok "gc-ring-churn: garbage in a full table, $runs collections on demand, no TABLE_FULL"
else bad "gc-ring-churn" "expected the result line, no fault, ~1000 collections (see $log)"; fi
# ... nor when the CREATE that finds no slot is a fault delivery's: the
# delivery is retried after a collection on demand, with the failed target
# and its message's words as roots (the supervisor pings both after it)
log=$OUT/gc-restart-console.log
"$SIM" --gc-low 0 --gc-period 60000 gc-restart > "$log" 2>&1
if grep -q "^gc-restart: 100 restarts from the fault handler, 200 pongs$" "$log" && ! grep -q "^fault:" "$log" \
   && grep -q "0 divergences" "$log" && grep -q "gc: runs=3 reclaimed=370 " "$log"; then
  ok "gc-restart: a fault handler's CREATEs fill the table: 3 collections on demand in deliveries, no TABLE_FULL"
else bad "gc-restart" "expected the result line, no fault, 3 collections (see $log)"; fi
log=$OUT/gc-sieve-console.log
"$SIM" gc-sieve > "$log" 2>&1
if grep -q "^gc-sieve: 2..690: 124 primes" "$log" && grep -q "0 divergences" "$log"; then
  ok "gc-sieve: 124 primes in a table 2 slots short"
else bad "gc-sieve" "expected 124 primes (see $log)"; fi

# The checker compares collections: a reference runtime that collects on its
# own schedule must be caught at its first collection.
log=$OUT/ref-gc-pingpong.log
"$SIM" --quiet --ref-gc-period 100 bench-pingpong > "$log" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "LOCKSTEP DIVERGENCE at transaction 101: garbage collection before this transaction differs" "$log"; then
  ok "checker catches a collection the hardware did not make"
else
  bad "checker catches a collection the hardware did not make" "exit $rc (see $log)"
fi

# The conservation check checks: forgetting one committed send must be
# reported as a lost event when the hardware dispatches it.
log=$OUT/forget-cell-3.log
"$SIM" --quiet --forget 3 cell > "$log" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "LOCKSTEP DIVERGENCE at transaction 4: the oldest undelivered event" "$log" \
   && grep -q "expected (conservation)" "$log"; then
  ok "conservation check catches a lost event"
else
  bad "conservation check catches a lost event" "exit $rc (see $log)"
fi

# am-sim's options: a bad value names the option, the value and the range
# (exit 2, as am-run); a path that cannot be written is refused.
for case in "--gc-low 300|--gc-low '300': .* from 0 to 255" "--gc-period 70000|--gc-period '70000': .* from 0 to 65535" \
            "--max-cycles -1|--max-cycles '-1': .* from 1 to" "--arg 4294967296|--arg '4294967296': .* from 0 to 4294967295" \
            "--fst /nonexistent/dir/x.fst|--fst /nonexistent/dir/x.fst: cannot write" \
            "--trace-out /nonexistent/dir/t|--trace-out /nonexistent/dir/t: cannot write" \
            "--link $OUT/slow.lnk --link-div 372|--link-div 372: a console line .* at most 371" \
            "--max-cycle 5|unknown option '--max-cycle': did you mean --max-cycles\\?"; do
  args=${case%%|*}; pat=${case#*|}
  out=$("$SIM" $args cell 2>&1 >/dev/null); rc=$?
  if [ $rc -eq 2 ] && grep -qE -- "$pat" <<< "$out"; then ok "am-sim $args: refused, exit 2"
  else bad "am-sim $args" "exit $rc: $out"; fi
done

# WATCHDOG in lockstep: the hardware's verdict is the reference's, so loops
# neither hang the reference nor diverge (tests/programs/prog_loops.c)
log=$OUT/loops-console.log
"$SIM" loops > "$log" 2>&1
w=$(grep -c "^fault: WATCHDOG" "$log")
if grep -q "0 divergences" "$log" && [ "$w" -eq 3 ] && grep -q "under the budget committed" "$log" \
   && grep -q "went on after every loop" "$log" && ! grep -q "never printed" "$log"; then
  ok "loops: 3 WATCHDOG aborts in lockstep, the loop under the budget committed"
else bad "loops" "expected 3 WATCHDOG faults and 0 divergences (see $log)"; fi

# ... also on the second run of an event retried after a collection on
# demand: the reference collects as the hardware did, then takes its verdict
log=$OUT/loop-after-gc-console.log
"$SIM" --gc-low 0 --gc-period 60000 loop-after-gc > "$log" 2>&1
if grep -q "0 divergences" "$log" && [ "$(grep -c '^fault: WATCHDOG' "$log")" -eq 1 ] \
   && grep -q "gc: runs=1 reclaimed=124" "$log" && grep -q "full of garbage" "$log"; then
  ok "loop-after-gc: a loop after a retried CREATE: one collection on demand, WATCHDOG, in lockstep"
else bad "loop-after-gc" "expected 1 collection, 1 WATCHDOG fault and 0 divergences (see $log)"; fi

# ... and in a fault delivery's second run: the reference collects with the
# delivery pending, as the hardware did, then takes the verdict
log=$OUT/loop-after-gc-fh-console.log
"$SIM" --gc-low 0 --gc-period 60000 loop-after-gc-fh > "$log" 2>&1
if grep -q "0 divergences" "$log" && grep -q "aborts=2 " "$log" && ! grep -q "^fault:" "$log" \
   && grep -q "gc: runs=1 reclaimed=124" "$log" && grep -q "full of garbage" "$log"; then
  ok "loop-after-gc-fh: a loop in a retried fault delivery: one collection on demand, WATCHDOG, in lockstep"
else bad "loop-after-gc-fh" "expected 1 collection, 2 aborts (FAIL, WATCHDOG) and 0 divergences (see $log)"; fi

# STACK in lockstep: the guard stops the big frame and the deep recursion
# before they reach code or data, and so does it a frame that wraps below
# address 0 and a store just below the unit's window -- none of them writes
# a register of the unit; the machine goes on (prog_stack.c)
log=$OUT/stack-console.log
"$SIM" stack > "$log" 2>&1
w=$(grep -c "^fault: STACK" "$log")
if grep -q "0 divergences" "$log" && [ "$w" -eq 4 ] && grep -q "the machine went on" "$log" \
   && ! grep -q "committed" "$log"; then
  ok "stack: a large frame, a deep recursion, a frame that wraps below 0 and a store beside the unit abort with STACK in lockstep; the machine goes on"
else bad "stack" "expected 4 STACK faults and 0 divergences (see $log)"; fi

# Every fault class in lockstep, each with its own cause: the faults
# program's fault lines on the SoC are am-run's, word for word -- so also
# where the reference takes the hardware's verdict (STACK, WATCHDOG), and
# the accesses a program's behavior may not make (the UART, SYS, the unit's
# firmware-only registers: TRAP_BUS; the host link's state: STACK)
log=$OUT/faults-console.log
"$SIM" faults > "$log" 2>&1
diffs=$(diff <("$(dirname "$SIM")/../host/am-run" faults 2>&1 | grep "^fault:") <(grep "^fault:" "$log"))
if grep -q "0 divergences" "$log" && [ -z "$diffs" ] && [ "$(grep -c '^fault: TRAP_BUS' "$log")" -eq 13 ]; then
  ok "faults: every cause on the SoC is the host's ($(grep -c '^fault:' "$log") faults, 13 TRAP_BUS)"
else bad "faults" "the SoC's fault lines differ from am-run's (see $log): $(head -4 <<< "$diffs")"; fi

# A behavior that calls the dispatch point gains no rights: the console's
# entry does not return into its code (prog_dpcall.c)
log=$OUT/dpcall-console.log
"$SIM" dpcall > "$log" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q "0 divergences" "$log" && grep -q "^dpcall: the machine went on" "$log"; then
  ok "dpcall: calling the dispatch point commits, and the code after the call never runs"
else bad "dpcall" "exit $rc (see $log)"; fi

# A behavior that leaves with sp or ra moved decides nothing for the next
# one: the dispatch point starts every behavior with ra at itself and sp at
# the stack's top (prog_spleak.c). Without that, the victims abort with
# STACK (which lockstep takes from the hardware), TRAP_MISALIGNED, commit
# state words they never wrote, or return into the other behavior's code.
log=$OUT/spleak-console.log
"$SIM" spleak > "$log" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q "0 divergences" "$log" && ! grep -q "^fault:\|GADGET" "$log" &&
   [ "$(grep -c '^spleak: victim [0-5] sum [0-9]*$' "$log")" -eq 6 ] && grep -q "^spleak: every victim ran" "$log"; then
  ok "spleak: six behaviors leave with sp or ra moved, and each next behavior runs on the stack's top and returns to the dispatch point"
else bad "spleak" "exit $rc (see $log)"; fi

# The reference an aborted CREATE returned names no later actor, though a
# fault record carried it out (am_fail's code, a SEND's value): the sends
# to it are BAD_REF, on both sides alike (prog_stale.c)
log=$OUT/stale-abort-console.log
"$SIM" stale-abort > "$log" 2>&1
if grep -q "0 divergences" "$log" && [ "$(grep -c "^stale: BAD_REF for the reference a fault record carried" "$log")" -eq 2 ] \
   && grep -q "the worker keeps two actors" "$log" && ! grep -q "a kept actor got a message" "$log"; then
  ok "stale-abort: references of aborted CREATEs carried by fault records are BAD_REF, in lockstep"
else bad "stale-abort" "expected 2 BAD_REF lines, no kept actor reached, 0 divergences (see $log)"; fi

# Programs whose console is checked against tests/sim/NAME.expected: the
# console's lines ([...] summaries and blank lines left out, behavior ids as
# N) of the loop's lockstep run above and, for sem_same, of the host runtime.
AMRUN=$(dirname "$SIM")/../host/am-run
sem_lines() { grep -v '^\[\|^$' | sed -E 's/ beh=[0-9]+ / beh=N /'; }
# sem_same NAME: NAME's lockstep run of the loop above ended clean, and its
# console and the host runtime's are tests/sim/NAME.expected
sem_same() {
  [ "$(cat "$OUT/$1.rc")" -eq 0 ] && grep -q "0 divergences" "$OUT/$1.log" &&
    [ "$(sem_lines < "$OUT/$1.log")" = "$(cat "tests/sim/$1.expected")" ] &&
    [ "$("$AMRUN" "$1" 2>&1 | sem_lines)" = "$(cat "tests/sim/$1.expected")" ]
}
sem_diff() { echo "exit $(cat "$OUT/$1.rc"), or not the expected lines: $(diff <(sem_lines < "$OUT/$1.log") "tests/sim/$1.expected" | head -5)"; }

# Fault records that explain (issue #30): the console, the fault handler,
# prints each record's operation and offending value from F_OP / F_VALUE --
# the same lines as am-run's (tests/host/flags.sh), in lockstep (the trace
# compares them too)
got=$(grep '^fault' "$OUT/fault-values.log" | sed -E 's/ beh=[0-9]+ / beh=N /')
if [ "$(cat "$OUT/fault-values.rc")" -eq 0 ] && grep -q "0 divergences" "$OUT/fault-values.log" &&
   [ "$got" = "$(cat tests/sim/fault-values.expected)" ]; then
  ok "fault-values: each fault's op and value on the console, as expected, in lockstep"
else bad "fault-values" "exit $(cat "$OUT/fault-values.rc"), or not the expected lines: $(diff <(echo "$got") tests/sim/fault-values.expected | head -5)"; fi

# the copy-free effects (tests/programs/prog_copyfree.c): every case's
# output as expected -- the semantics, not only agreement -- on the host
# runtime and on the SoC in lockstep (the trace compares each step's state
# words and sends too; its lines keep their behavior ids)
got=$(grep -v '^\[\|^$' "$OUT/copyfree.log")
host=$("$AMRUN" copyfree 2>&1 | grep -v '^\[\|^$')
if [ "$(cat "$OUT/copyfree.rc")" -eq 0 ] && grep -q "0 divergences" "$OUT/copyfree.log" &&
   [ "$got" = "$(cat tests/sim/copyfree.expected)" ] && [ "$host" = "$got" ]; then
  ok "copyfree: am_set_state, am_send_word, am_forward as expected on both sides, in lockstep"
else bad "copyfree" "exit $(cat "$OUT/copyfree.rc"), or not the expected lines: $(diff <(echo "$got") tests/sim/copyfree.expected | head -5)"; fi

# The rules of docs/semantics.md, each checked on both sides (tests/semantics/)

# Several checks of one operation failing at once (prog_order.c): the
# contract's order decides the cause, and the record's op and value
if sem_same check-order; then
  ok "check-order: when several checks fail, the contract's order decides cause, op and value, on both sides"
else bad "check-order" "$(sem_diff check-order)"; fi

# The fault handler's rules (prog_handlers.c), and the two deliveries to a
# dead handler aborted with DEAD_TARGET (beh -) and delivered to no one
dead=$("$AMRUN" --faults handlers 2>&1 | grep -c "^fault seq=[0-9]* cause=DEAD_TARGET op=DISPATCH value=00000000 .* target=00010064 beh=- ")
if sem_same handlers && grep -q "dispatches=45 commits=33 aborts=12 " "$OUT/handlers.log" && [ "$dead" -eq 2 ]; then
  ok "handlers: last SET_HANDLER wins, fresh and dead handlers, no redelivery, am_fault 0 outside deliveries, in lockstep"
else bad "handlers" "$dead DEAD_TARGET records; $(sem_diff handlers)"; fi

# BECOME and am_set_state together (prog_become_view.c): the last BECOME wins
# and replaces the words set before it, words set after it stay; the
# behavior reads the dispatch's state, behavior and message after staging;
# words set with am_send_word do not outlive their transaction; and the
# three records name the behavior at dispatch (PROBE), not the one staged
probe=$("$AMRUN" --faults become-view 2>&1 | grep -c "^fault seq=[0-9]* cause=FAIL .* target=00010002 beh=[0-9]*(PROG_BV_PROBE) ")
if sem_same become-view && [ "$probe" -eq 3 ]; then
  ok "become-view: last BECOME wins, set words after it stay, the dispatch's view after staging, send words end with the transaction, on both sides"
else bad "become-view" "$probe records with beh PROBE; $(sem_diff become-view)"; fi

# The first fault wins (prog_first_fault.c): a staging fault, then on the
# SoC an ebreak, a store to a static (the guard's STACK), an illegal
# instruction, a misaligned load, a bus error or am_fail -- each record
# keeps the first fault's cause, op and value, as on the host
if sem_same first-fault; then
  ok "first-fault: a trap, a guarded store or am_fail after a staging fault leaves the first fault's record, on both sides"
else bad "first-fault" "$(sem_diff first-fault)"; fi

# The queue's edge (prog_qedge.c): a node whose 8th send does not fit aborts
# with QUEUE_FULL only at commit, after every staging check -- for each
# --arg V what it does after its sends decides the record (tests/sim/
# queue-edge.expected: each V's lines after a line "--arg V")
got=; host=; qbad=
for v in 0 1 2 3 4 5 6; do
  log=$OUT/queue-edge-$v-console.log
  "$SIM" --arg $v queue-edge > "$log" 2>&1; rc=$?
  { [ $rc -eq 0 ] && grep -q "0 divergences" "$log"; } || qbad="$qbad --arg $v: exit $rc (see $log);"
  got+="--arg $v"$'\n'"$(sem_lines < "$log")"$'\n'
  host+="--arg $v"$'\n'"$("$AMRUN" --arg $v queue-edge 2>&1 | sem_lines)"$'\n'
done
if [ -z "$qbad" ] && [ "$got" = "$(cat tests/sim/queue-edge.expected)"$'\n' ] && [ "$host" = "$got" ]; then
  ok "queue-edge: QUEUE_FULL at commit, after every staging check (FAIL, BAD_BEHAVIOR, BAD_REF, TOO_MANY_SENDS first), each --arg on both sides"
else bad "queue-edge" "${qbad:-each run clean, but} not the expected lines: $(diff <(echo -n "$got") tests/sim/queue-edge.expected | head -5)"; fi

# A slot's generation wraps from ffff to 0001, skipping 0 (prog_genwrap.c):
# 65,535 aborted CREATEs of one free slot, each one generation on, checked
# by the handler; the actor created after the wrap gets its message
if sem_same gen-wrap && grep -q "dispatches=132203 commits=66668 aborts=65535 " "$OUT/gen-wrap.log"; then
  ok "gen-wrap: 65,535 aborted CREATEs take a slot's generation to ffff, the next is 0001, on both sides"
else bad "gen-wrap" "$(sem_diff gen-wrap)"; fi

echo "sim: $pass passed, $fail failed"
[ $fail -eq 0 ]
