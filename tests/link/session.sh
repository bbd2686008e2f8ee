#!/usr/bin/env bash
# tests/link/session.sh — the simulated machine as a newcomer meets it,
# am-sim --link with am-link's commands one after another (make link-test;
# BUILD names the build directory): docs/link.md's "The same session on the
# simulated machine" as it stands; `load` of the demos, whose console --
# printed by load until the program is idle, and by the next client for
# what came later -- must be am-run's, whole; one client at a time (an ask
# while a monitor has the port fails at once, and is not carried out); the
# run's lockstep; then an image a folder's simulator cannot follow (another
# folder's), refused as am-run refuses it, the session going on; and the
# loaders the docs boot, which make sim must build. Every command is bounded by a timeout. Prints
# "link-session: N passed, N failed".
. tests/link/suite.sh session 60
SIM=$B/sim/am-sim
RUN=$B/host/am-run

# ---- docs/link.md's session on the simulated machine, pasted as it stands -------
session=$(awk '/^## The same session on the simulated machine/ {s = 1; next} /^## / {s = 0}
  s && /^```/ {n++; next} s && n == 1 && /^build\// {print}' docs/link.md |
  sed "s|/tmp/am-sim-link|$W/port|g")
P=$W/port
if [ "$(grep -c . <<< "$session")" -lt 2 ]; then
  bad "docs/link.md's session on the simulated machine" "not found"
else
  out=""
  while IFS= read -r cmd; do
    if [[ $cmd == *"&" ]]; then
      eval "timeout 600 ${cmd%&} > $W/target.log 2>&1 &"; SIMPID=$!; pids+=($SIMPID)
    else
      out+=$(eval "T $cmd" 2>&1)$'\n'
    fi
  done <<< "$session"
  if grep -qx "1 2 3" <<< "$out"; then ok "docs/link.md's session on the simulated machine answers 1 2 3"
  else bad "docs/link.md's session on the simulated machine" "$out"; fi
  console_whole "... and the first client printed the boot's console line" \
    "link-echo: echo 0, counter 1, slow 2" "$out"
fi

# ---- one client at a time ----------------------------------------------------------
expect "the counter's tally" 0 "^1 0$" $LINK --port "$P" ask 1 0
T $LINK --port "$P" monitor 4 > "$W/monitor.out" 2>&1 & MON=$!
held=0
d=$(stat -L -c %d "$P"); id=$(printf '%02x:%02x:%s' $((d >> 8 & 0xfff)) $((d & 0xff | (d >> 12) & 0xfff00)) "$(stat -L -c %i "$P")")
for i in $(seq 100); do grep -q "FLOCK .* $id " /proc/locks && { held=1; break; }; sleep 0.05; done
[ $held -eq 1 ] && ok "a monitor holds the port" || bad "a monitor holds the port" "no lock in /proc/locks"
expect "an ask meanwhile fails at once: the port is in use" 1 \
  "^am-link: $P is in use by another client, such as an am-link monitor \(one client at a time per port\): stop it first$" \
  $LINK --port "$P" --retries 0 ask 1 7
wait $MON; rc=$?
if [ $rc -eq 0 ] && ! grep -q "reply" "$W/monitor.out"; then ok "the monitor went on, and got no reply of another's"
else bad "the monitor went on, and got no reply of another's" "exit $rc: $(head -c 300 "$W/monitor.out")"; fi
expect "the refused ask was not carried out" 0 "^2 0$" $LINK --port "$P" ask 1 0

# ---- load, then monitor: the demos' console, whole -------------------------------------
out=$(T $LINK --port "$P" load "$B/programs/demos/fw/fw.hex" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -qE "^loaded .*fw.hex \([0-9]+ bytes\): the machine runs it$" <<< "$out"; then
  ok "the demos' image is loaded"; else bad "the demos' image is loaded" "exit $rc: $out"; fi
out+=$'\n'$(T $LINK --port "$P" monitor 3 2>&1)
console_whole "load, then monitor: the loaded program's console, whole" "$($RUN --quiet serializer)" "$out"

expect "shutdown" 0 "^the target stops$" $LINK --port "$P" shutdown
for i in $(seq 100); do kill -0 "$SIMPID" 2>/dev/null || break; sleep 0.1; done
if wait "$SIMPID"; then ok "the simulator exited 0"; else bad "the simulator exited 0" "$(tail -5 "$W/target.log")"; fi
if grep -q "1 images loaded; lockstep: [0-9]* transactions checked, 0 divergences$" "$W/target.log"; then
  ok "in lockstep, 0 divergences"; else bad "in lockstep, 0 divergences" "$(tail -5 "$W/target.log")"; fi

# ---- the loaders the docs boot: make sim builds them, as am-sim's hint says ---------
# (make's database: what `sim` depends on, nothing run)
want=$( { cat docs/firmware.md docs/link.md; "$SIM" --help; } | tr -s ' \n' '  ' |
  grep -oE -- '--loader build/[^ `)]*\.hex' | sed 's/^--loader //' | sort -u)
have=$(make --no-print-directory -pq sim BUILD=build 2>/dev/null | grep -m1 '^sim:')
missing=""
for f in $want; do grep -q " $f\( \|$\)" <<< "$have" || missing+=" $f"; done
if [ -n "$want" ] && [ -z "$missing" ]; then ok "make sim builds every loader the docs boot ($(echo $want))"
else bad "make sim builds every loader the docs boot" "not among sim's prerequisites:${missing:- (no --loader found in the docs)}"; fi
expect "a missing loader: am-sim says what builds it" 2 \
  "^am-sim: cannot read the firmware image $W/none.hex: No such file or directory \(make sim builds the loaders: build/loader/rv32im/loader.hex, build/inplace/rv32im/inplace.hex\)$" \
  "$SIM" --link "$W/none-port" --loader "$W/none.hex"
if [ ! -e "$W/none-port" ] && [ ! -e "$W/none-port.lock" ]; then ok "... and leaves no link behind"
else bad "... and leaves no link behind" "$(ls "$W")"; fi

# ---- an image this simulator cannot follow: refused, the session goes on ------------
# (a folder's own simulator, linked with tests/link/prog's behaviors alone,
# sent the demos' image: the firmware would take it, lockstep could not)
FSIM=$B/programs/tests/link/prog/am-sim
F=$W/folder-port
timeout 600 "$FSIM" --link "$F" --link-div 8 link-echo > "$W/folder.log" 2>&1 & FPID=$!; pids+=($FPID)
expect "a folder's simulator answers" 0 "^1 2$" $LINK --port "$F" ask 0 1 2
expect "another folder's image is refused, as am-run refuses it" 1 \
  "^am-link: bad image $B/programs/demos/fw/fw.hex: its behavior table is not one this machine has; the running program goes on$" \
  $LINK --port "$F" load "$B/programs/demos/fw/fw.hex"
expect "... the running program goes on" 0 "^3 4$" $LINK --port "$F" ask 0 3 4
out=$(T $LINK --port "$F" stats 2>&1)
if grep -qE "^E_BAD_IMAGE +1$" <<< "$out" && grep -qE "^LOADED +0$" <<< "$out"; then
  ok "... the refusal counted as a bad image by the firmware, nothing loaded"
else bad "... the refusal counted as a bad image by the firmware, nothing loaded" "$out"; fi
expect "shutdown" 0 "^the target stops$" $LINK --port "$F" shutdown
for i in $(seq 100); do kill -0 "$FPID" 2>/dev/null || break; sleep 0.1; done
if wait "$FPID"; then ok "the folder's simulator exited 0"; else bad "the folder's simulator exited 0" "$(tail -5 "$W/folder.log")"; fi
if grep -q "^am-sim: refused a [0-9]*-byte image loaded over the link: its behavior table is not one this simulator was linked with" "$W/folder.log" &&
   grep -q "0 images loaded; lockstep: [0-9]* transactions checked, 0 divergences$" "$W/folder.log"; then
  ok "it said why it refused the image, and stayed in lockstep"
else bad "it said why it refused the image, and stayed in lockstep" "$(tail -8 "$W/folder.log")"; fi

verdict
