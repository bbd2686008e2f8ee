#!/usr/bin/env bash
# tests/host/flags.sh — am-run's options (make host-test): every bad value is
# refused with a message naming the option, the value and the range, exit 2
# (a usage error); a path that cannot be written is refused; the trace goes
# to its own stream. Prints "host-flags: N passed, N failed".
set -uo pipefail
RUN=${1:-build/host/am-run}
pass=0; fail=0
check() {   # ARGS... -- PATTERN: am-run ARGS cell must exit 2 saying PATTERN
  local args=() pat
  while [ "$1" != "--" ]; do args+=("$1"); shift; done; pat=$2
  out=$("$RUN" "${args[@]}" cell 2>&1 >/dev/null); rc=$?
  if [ $rc -eq 2 ] && grep -qE -- "$pat" <<< "$out"; then echo "ok   host-flags: ${args[*]}"; pass=$((pass + 1))
  else echo "FAIL host-flags: ${args[*]}: exit $rc: $out"; fail=$((fail + 1)); fi
}
check --table 0 -- "--table '0': --table takes .* from 2 to 65536"
check --table 1 -- "--table '1': .* from 2 to 65536"
check --table 70000 -- "--table '70000': .* from 2 to 65536"
check --queue 0 -- "--queue '0': .* from 1 to 16777216"
check --msg-words 9 -- "--msg-words '9': .* from 1 to 8"
check --state-words 0 -- "--state-words '0': .* from 1 to 8"
check --sends 0 -- "--sends '0': .* from 1 to 65536"
check --creates 70000 -- "--creates '70000': .* from 1 to 65536"
check --gc-period 70000 -- "--gc-period '70000': .* from 0 to 65535"
check --max -1 -- "--max '-1': .* from 0 to 4294967295"
check --arg 4294967296 -- "--arg '4294967296': .* from 0 to 4294967295"
check --watchdog 3600001 -- "--watchdog '3600001': .* from 0 to 3600000"
check --table x12 -- "--table 'x12'"
check --trace /nonexistent/dir/t -- "--trace /nonexistent/dir/t: cannot write"
check --bogus -- "unknown option '--bogus' \(am-run --help"
check --tabel 5 -- "unknown option '--tabel': did you mean --table\?"
out=$("$RUN" nosuch 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "no program named 'nosuch' in .*; --list" <<< "$out"; then echo "ok   host-flags: an unknown program, exit 2"; pass=$((pass + 1))
else echo "FAIL host-flags: an unknown program: exit $rc: $out"; fail=$((fail + 1)); fi
out=$("$RUN" serializr 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "no program named 'serializr' in .*; did you mean serializer?; --list" <<< "$out"; then
  echo "ok   host-flags: a misspelled program, exit 2, with the name meant"; pass=$((pass + 1))
else echo "FAIL host-flags: a misspelled program: exit $rc: $out"; fail=$((fail + 1)); fi
out=$("$RUN" --max 5 selfloop 2>&1); rc=$?
if [ $rc -eq 3 ] && grep -q "stopped after 5 dispatches" <<< "$out"; then echo "ok   host-flags: --max ran out, exit 3"; pass=$((pass + 1))
else echo "FAIL host-flags: --max ran out: exit $rc: $out"; fail=$((fail + 1)); fi
# --trace -: the trace on stderr, the console alone on stdout
stdout=$("$RUN" --quiet --trace - cell 2>/dev/null); stderr=$("$RUN" --quiet --trace - cell 2>&1 >/dev/null)
if ! grep -qE '^[0-9]{6} [CA] ' <<< "$stdout" && grep -q '^cell: ' <<< "$stdout" \
   && [ "$(grep -cvE '^[0-9]{6} [CAG] ' <<< "$stderr")" -eq 0 ]; then
  echo "ok   host-flags: --trace - keeps the trace off the console's stdout"; pass=$((pass + 1))
else echo "FAIL host-flags: --trace - mixes the trace and the console"; fail=$((fail + 1)); fi
# behavior names: --behaviors maps ids to names, --faults records carry them
out=$("$RUN" --behaviors cell); rc=$?
if [ $rc -eq 0 ] && grep -qE '^ +0 CONSOLE$' <<< "$out" && grep -qE '^ +[0-9]+ DEMO_CELL$' <<< "$out"; then
  echo "ok   host-flags: --behaviors lists the program's behavior table"; pass=$((pass + 1))
else echo "FAIL host-flags: --behaviors: exit $rc"; fail=$((fail + 1)); fi
out=$("$RUN" --quiet --faults fault)
if grep -qE '^fault seq=[0-9]+ cause=FAIL .* beh=[0-9]+\(DEMO_FRAGILE\)' <<< "$out"; then
  echo "ok   host-flags: --faults names the behavior"; pass=$((pass + 1))
else echo "FAIL host-flags: --faults names the behavior: $out"; fail=$((fail + 1)); fi
# fault records that explain (issue #30): the operation and the offending
# value, on the console (the fault handler) and in --faults' records; the
# same expected output as am-sim's (tests/sim/run.sh)
want=tests/sim/fault-values.expected
out=$("$RUN" fault-values | grep '^fault' | sed -E 's/ beh=[0-9]+ / beh=N /')
if [ -s "$want" ] && [ "$out" = "$(cat "$want")" ]; then
  echo "ok   host-flags: fault-values prints each fault's op and value as expected"; pass=$((pass + 1))
else echo "FAIL host-flags: fault-values: $(diff <(echo "$out") "$want" | head -5)"; fail=$((fail + 1)); fi
out=$("$RUN" --quiet --faults fault-values)
if grep -qE '^fault seq=[0-9]+ cause=BAD_REF op=SEND value=12345678 .* beh=[0-9]+\(PROG_FAULT_VALUES_VICTIM\)' <<< "$out"; then
  echo "ok   host-flags: --faults names the operation, the value and the behavior"; pass=$((pass + 1))
else echo "FAIL host-flags: --faults op/value: $out"; fail=$((fail + 1)); fi
echo "host-flags: $pass passed, $fail failed"
[ $fail -eq 0 ]
