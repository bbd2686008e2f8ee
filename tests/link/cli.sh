#!/usr/bin/env bash
# tests/link/cli.sh — am-link's commands and their one-line errors against
# am-run --link (make link-test; BUILD names the build directory): the
# first session of docs/link.md as it stands, each error the docs list (no
# device, no answer, corrupted frames from a wrong baud rate, not exported,
# bad image, an unreadable file, a port in use by another client), usage
# errors (exit 2), loading and the Unix socket; one server per path (a
# running one's refused, a dead one's taken over). Every command is bounded by a timeout. Prints
# "link-cli: N passed, N failed".
. tests/link/suite.sh cli 20
RUN=$B/host/am-run

# ---- the first session of docs/link.md, pasted as it stands --------------------
session=$(awk '/^## A first session/ {s = 1} s && /^```/ {n++; next} s && n == 1 && /^build\// {print}' \
  docs/link.md | sed "s|/tmp/am-link|$W/am-link|g")
if [ "$(wc -l <<< "$session")" -lt 2 ]; then
  bad "docs/link.md's first session" "not found"
else
  out=""
  while IFS= read -r cmd; do
    if [[ $cmd == *"&" ]]; then
      eval "T ${cmd%&} > $W/session-am-run.log 2>&1 &"; pids+=($!)
    else
      out+=$(eval "T $cmd" 2>&1)$'\n'
    fi
  done <<< "$session"
  if grep -qx "1 2 3" <<< "$out"; then ok "docs/link.md's first session answers 1 2 3"
  else bad "docs/link.md's first session" "$out"; fi
  T $LINK --port "$W/am-link" shutdown > /dev/null 2>&1
fi

# ---- a target for the rest ----------------------------------------------------------
P=$W/port
$RUN --link "$P" link-echo > "$W/am-run.log" 2>&1 & pids+=($!); RUNPID=$!
# the boot prints its line before any client is there: the port keeps it,
# and the first client prints it (on stderr) before its own answer
for i in $(seq 100); do [ -e "$P" ] && break; sleep 0.05; done; sleep 0.3
out=$(T $LINK --port "$P" ask 0 7 8 9 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -qx "7 8 9" <<< "$out"; then ok "ask echoes"; else bad "ask echoes" "exit $rc: $out"; fi
console_whole "the boot's console line, printed while no client was there, reaches the first one" \
  "link-echo: echo 0, counter 1, slow 2" "$out"
# one server per path: a second one is refused while the first runs, and
# the first goes on (its link and its lock untouched)
expect "a second am-run on a running server's path is refused" 2 \
  "^am-run: --link: $P is served by another running am-run or am-sim \(pid [0-9]+, which holds $P.lock\): stop it first, or choose another path$" \
  $RUN --link "$P" link-echo
expect "... and a simulator too" 2 "^am-sim: --link: $P is served by another running am-run or am-sim" \
  $B/sim/am-sim --link "$P" link-echo
expect "... the first one still serves" 0 "^7$" $LINK --port "$P" ask 0 7
expect "negative and hex words" 0 "^0xffffffff 0x00000010$" $LINK --port "$P" --hex ask 0 -1 0x10
expect "a leading 0 is decimal, not octal" 0 "^10 16 9$" $LINK --port "$P" ask 0 010 0X10 09
expect "a word that is not a number" 2 "^am-link: '0x' is not a 32-bit word$" $LINK --port "$P" ask 0 0x
expect "send, then the counter's tally" 0 "^2 5$" bash -c "$LINK --port $P send 1 0 5 && $LINK --port $P ask 1 0"
expect "exports lists names and references" 0 "^2 0x[0-9a-f]{8}$" $LINK --port "$P" exports
expect "stats names every counter" 0 "^RX_FRAMES +[0-9]+$" $LINK --port "$P" stats
expect "not exported" 1 "^am-link: name 5 is not exported \(am-link exports lists the exported actors\)$" \
  $LINK --port "$P" send 5 1
out=$(T $LINK --port "$P" send 1 1 2 3 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -qE "^(fault: FAIL .*)?$" <<< "$out"; then ok "a fault is the program's business: the send is taken"
else bad "a fault is the program's business: the send is taken" "exit $rc: $out"; fi
# the fault's console line comes after the send's ACK: the send prints it,
# or the port keeps it for the next client, which prints it -- once
out+=$'\n'$(T $LINK --port "$P" monitor 1 2>&1)
if [ "$(grep -c "^fault: FAIL .* msg=\[00000001 00000002 00000003\]$" <<< "$out")" -eq 1 ]; then
  ok "the fault's line is printed once, by the send or by the next client"
else bad "the fault's line is printed once, by the send or by the next client" "$out"; fi
expect "no device" 1 "^am-link: $W/nothing: no such device$" $LINK --port "$W/nothing" --wait 0 stats
expect "no device (socket)" 1 "^am-link: $W/nothing: no such device$" $LINK --connect "$W/nothing" --wait 0 stats
expect "an unreadable image file" 1 "^am-link: $W/none.hex: cannot read the image file: No such file or directory \\(the build writes a folder's image as build/programs/KEY/fw/fw.hex" \
  $LINK --port "$P" load "$W/none.hex"
printf '0000006f\nzzzzzzzz\n' > "$W/garbled.hex"
expect "a hex file that is no image" 1 "^am-link: $W/garbled.hex: cannot read the image file: not a hex image" \
  $LINK --port "$P" load "$W/garbled.hex"
: > "$W/regular"
expect "a regular file as the port" 1 "^am-link: $W/regular: not a serial port or a pseudo-terminal \\(a socket takes --connect\\); nothing was written to it$" \
  $LINK --port "$W/regular" --wait 0 stats
if [ ! -s "$W/regular" ]; then ok "nothing was written into the regular file"; else bad "a regular file as the port" "bytes were written into it"; fi
expect "the pseudo-terminal given to --connect" 1 "^am-link: $P: not a socket \\(a serial port or a pseudo-terminal takes --port\\)$" \
  $LINK --connect "$P" --wait 0 stats
cp "$B/programs/tests/link/prog/fw/fw.bin" "$W/bad.bin"
printf '\x55' | dd of="$W/bad.bin" bs=1 seek=2000 conv=notrunc 2>/dev/null
expect "a corrupt image is refused" 1 "^am-link: bad image $W/bad.bin: CRC mismatch; the running program goes on$" \
  $LINK --port "$P" load "$W/bad.bin"
expect "the running program went on" 0 "^3 5$" $LINK --port "$P" ask 1 0
# built for another SoC interface: header word 11 changed, the CRC made good
python3 -c '
import sys, zlib, struct
d = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<I", d, 44, struct.unpack_from("<I", d, 44)[0] ^ 0x8000)
struct.pack_into("<I", d, 12, 0)
struct.pack_into("<I", d, 12, zlib.crc32(bytes(d)) & 0xffffffff)
open(sys.argv[2], "wb").write(d)' "$B/programs/tests/link/prog/fw/fw.bin" "$W/iface.bin"
expect "an image of another SoC interface is refused" 1 \
  "^am-link: bad image $W/iface.bin: built for another SoC interface \(include/am_iface.def\): rebuild it from this machine's sources; the running program goes on$" \
  $LINK --port "$P" load "$W/iface.bin"
# load prints the new program's console until it is idle, then returns
out=$(T $LINK --port "$P" load "$B/programs/demos/fw/fw.hex" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -qE "^loaded .*fw.hex \([0-9]+ bytes\): the machine runs it$" <<< "$out"; then
  ok "a good image is loaded"; else bad "a good image is loaded" "exit $rc: $out"; fi
console_whole "load printed the loaded program's console, whole" "$($RUN --quiet serializer)" "$out"
expect "the loaded program exports nothing" 0 "^\(nothing exported\)$" $LINK --port "$P" exports
expect "the link program again" 0 "loaded .*: the machine runs it" \
  $LINK --port "$P" load "$B/programs/tests/link/prog/fw/fw.hex"
expect "... a fresh machine" 0 "^1 0$" $LINK --port "$P" ask 1 0
expect "monitor for a second" 0 "^$" $LINK --port "$P" monitor 1

# one client at a time per port: while a monitor has the port, an ask fails
# at once, saying why, and is not carried out (no reply for the monitor to
# swallow); then the port is free again
held_by_a_client() {   # PORT: a client holds its lock (/proc/locks: no lock taken to look)
  local d id; d=$(stat -L -c %d "$1") || return 1
  id=$(printf '%02x:%02x:%s' $((d >> 8 & 0xfff)) $((d & 0xff | (d >> 12) & 0xfff00)) "$(stat -L -c %i "$1")")
  for i in $(seq 100); do grep -q "FLOCK .* $id " /proc/locks && return 0; sleep 0.05; done
  return 1
}
T $LINK --port "$P" monitor 3 > "$W/monitor.out" 2>&1 & MON=$!
if held_by_a_client "$P"; then ok "a monitor holds the port"; else bad "a monitor holds the port" "no lock in /proc/locks"; fi
start=$(date +%s%N)
expect "a second client fails at once: the port is in use" 1 \
  "^am-link: $P is in use by another client, such as an am-link monitor \(one client at a time per port\): stop it first$" \
  $LINK --port "$P" ask 1 7
ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ $ms -lt 900 ]; then ok "... at once ($ms ms)"; else bad "... at once" "$ms ms"; fi
wait $MON; rc=$?
if [ $rc -eq 0 ] && ! grep -q "reply" "$W/monitor.out"; then ok "the monitor went on, and got no reply of another's"
else bad "the monitor went on, and got no reply of another's" "exit $rc: $(head -c 300 "$W/monitor.out")"; fi
expect "the refused ask was not carried out; the port is free again" 0 "^2 0$" $LINK --port "$P" ask 1 0

# no answer: a stopped machine
kill -STOP $RUNPID
expect "no answer from a stopped machine" 1 "^am-link: no answer from the machine$" \
  $LINK --port "$P" --timeout 200 --retries 1 stats
kill -CONT $RUNPID
expect "it goes on when it goes on" 0 "^4 5$" $LINK --port "$P" ask 0 4 5
expect "shutdown" 0 "^the target stops$" $LINK --port "$P" shutdown
for i in $(seq 50); do kill -0 $RUNPID 2>/dev/null || break; sleep 0.1; done
if ! kill -0 $RUNPID 2>/dev/null && wait $RUNPID && [ ! -e "$P" ] && [ ! -e "$P.lock" ]; then
  ok "the target exited 0 and removed its link and its lock"
else bad "the target exited 0 and removed its link and its lock" "still running, a failure, or $P or $P.lock still there"; fi

# a dead server's link and lock (killed: nothing removed) are taken over
D=$W/dead
$RUN --link "$D" link-echo > "$W/am-run-dead.log" 2>&1 & DPID=$!
for i in $(seq 100); do [ -e "$D" ] && break; sleep 0.05; done
kill -KILL $DPID; wait $DPID 2>/dev/null
if [ -L "$D" ] && [ -e "$D.lock" ]; then ok "a killed server leaves its link and its lock"
else bad "a killed server leaves its link and its lock" "$(ls -l "$W")"; fi
$RUN --link "$D" link-echo > "$W/am-run-dead2.log" 2>&1 & pids+=($!)
expect "a dead server's path is taken over" 0 "^8$" $LINK --port "$D" ask 0 8
expect "... and served until shutdown" 0 "^the target stops$" $LINK --port "$D" shutdown

# the target goes away under a client: it says so -- gone TAG WHAT MONITOR-ARGS...
gone() {
  local tag=$1 what=$2 g=$W/$1; shift 2
  $RUN --link "$g" link-echo > "$W/am-run-$tag.log" 2>&1 & pids+=($!); local gpid=$!
  for i in $(seq 100); do [ -e "$g" ] && break; sleep 0.05; done
  T $LINK --port "$g" monitor "$@" > "$W/$tag.out" 2>&1 & local mon=$!
  held_by_a_client "$g"
  kill -TERM $gpid
  wait $mon; local rc=$?
  if [ $rc -eq 1 ] && grep -qx "am-link: the machine went away: $g was closed or hung up (the target stopped, or the adapter was unplugged)" "$W/$tag.out"
  then ok "$what"
  else bad "$what" "exit $rc: $(head -c 300 "$W/$tag.out")"; fi
}
gone gone "a target that goes away: am-link says so" 10
# ... also under a monitor with no SECONDS, which runs until interrupted
gone gone2 "a target that goes away under monitor without SECONDS: am-link says so"

# garbage back: a wrong baud rate
python3 tests/link/noisy_target.py "$W/noisy" 10 & pids+=($!)
expect "corrupted frames seen" 1 \
  "^am-link: no answer from the machine \([0-9]+ corrupted frames from it: wrong baud rate, or line noise\?\)$" \
  $LINK --port "$W/noisy" --timeout 200 --retries 2 stats

# the Unix socket
S=$W/sock
$RUN --link-socket "$S" link-echo > "$W/am-run-socket.log" 2>&1 & pids+=($!); SPID=$!
expect "over a Unix socket" 0 "^6$" $LINK --connect "$S" ask 0 6
# one host at a time there too: a second one is turned away at once
sockets_at() { grep -c " $1\$" /proc/net/unix; }   # the listener, and a host's connection
for i in $(seq 100); do [ "$(sockets_at "$S")" -eq 1 ] && break; sleep 0.05; done   # the last host is gone
T $LINK --connect "$S" monitor 3 > "$W/monitor-socket.out" 2>&1 & MON=$!
for i in $(seq 100); do [ "$(sockets_at "$S")" -ge 2 ] && break; sleep 0.05; done   # the monitor is on
expect "a second host on the socket is turned away" 1 \
  "^am-link: $S is in use by another client, such as an am-link monitor \(one client at a time per port\): stop it first$" \
  $LINK --connect "$S" ask 0 6
wait $MON
expect "... and the socket serves the next host" 0 "^7$" $LINK --connect "$S" ask 0 7
expect "shutdown (socket)" 0 "^the target stops$" $LINK --connect "$S" shutdown
for i in $(seq 50); do kill -0 $SPID 2>/dev/null || break; sleep 0.1; done

# usage errors: exit 2, nothing opened
expect "no command" 2 "^usage: am-link" $LINK --port "$P"
expect "no port" 2 "^am-link: which machine\?" env -u AM_LINK_PORT $LINK stats
expect "unknown command" 2 "^am-link: unknown command 'frob' \(am-link --help\)$" $LINK --port "$P" frob
expect "a misspelled command, the one meant" 2 "^am-link: unknown command 'sned': did you mean send\? " \
  env -u AM_LINK_PORT $LINK sned 0 1
expect "a misspelled option, the one meant" 2 "^am-link: unknown option '--prot': did you mean --port\? " $LINK --prot "$P" stats
expect "name out of range" 2 "^am-link: send needs a NAME from 0 to 7$" $LINK --port "$P" send 8 1
expect "too many words for an ask" 2 "^am-link: ask takes at most 7 words$" $LINK --port "$P" ask 0 1 2 3 4 5 6 7 8
expect "not a word" 2 "^am-link: 'x1' is not a 32-bit word$" $LINK --port "$P" send 0 x1
expect "unknown option" 2 "^am-link: unknown option '--bogus'" $LINK --bogus 1 stats
expect "a baud rate no serial port takes" 2 \
  "^am-link: --baud 12345: not a rate a serial port takes \(9600, 19200, .*, 3000000\)$" \
  $LINK --port "$P" --baud 12345 stats
expect "am-run --link with a path that is a file" 2 "is not a link or a socket: not replaced" \
  $RUN --link "$W/session-am-run.log" link-echo

# make load's default port, per board: the board's UART, as docs/link.md
# shows it for each (make's own value, nothing run)
shown=$(grep -oE 'make load BOARD=[a-z0-9]+ .*\[LOAD_PORT=[^]]+\]' docs/link.md |
  sed -E 's/^make load BOARD=([a-z0-9]+) .*\[LOAD_PORT=([^]]+)\]$/\1 \2/' | sort -u)
wrong=""
while read -r board port; do
  got=$(env -u AM_LINK_PORT make --no-print-directory -s --eval 'print-load-port: ; @echo $(LOAD_PORT)' \
    print-load-port BOARD="$board" 2>&1)
  [ "$got" = "$port" ] || wrong+=" $board: make says '$got', the docs $port;"
done <<< "$shown"
if [ "$(grep -c . <<< "$shown")" -eq 3 ] && [ -z "$wrong" ]; then ok "make load's default port is each board's UART, as the docs show ($(echo $shown))"
else bad "make load's default port is each board's UART, as the docs show" "${wrong:-the docs show $(grep -c . <<< "$shown") boards: $shown}"; fi

verdict
