#!/usr/bin/env bash
# tests/link/loader.sh — the resident loader (firmware/fw_link.c, FW_LOADER:
# what an iCEBreaker built with LINK=1 boots) on the simulated SoC, am-sim
# --link --loader: no program runs and the service says so (SEND and ASK
# refused, nothing exported, a console line), an image too big is refused
# and the loader stays, `make load BOARD=icebreaker` sends a good image
# (rv32i, as for the board), which runs and is served in lockstep, then a
# second one whose console (demos' serializer, over many turns) must come
# whole through make load and the next client, then SHUTDOWN. Every
# command is bounded by a timeout. Prints "link-loader: N passed, N failed".
. tests/link/suite.sh loader 30

loader_sim "$B/loader/rv32im/loader.hex"
loader_waits

IMG=$B/programs/tests/link/prog/fw/fw.hex
# an image whose header claims more than the load buffer holds: refused at
# its first chunk (a CRC mismatch is refused the same way, after the last:
# tests/link/cli.sh, test_link.c)
python3 - "$IMG" "$W/huge.hex" <<'EOF2'
import sys
w = open(sys.argv[1]).read().split()
w[2] = "%08x" % 0x100000
open(sys.argv[2], "w").write("\n".join(w) + "\n")
EOF2
expect "an image too big for the machine is refused" 1 "^am-link: image .*huge.hex is too big for the machine" \
  $LINK --port "$P" load "$W/huge.hex"
# the build's ELF instead of its image: refused by size, and named for what it is
expect "an ELF given to load is named as no image" 1 "^am-link: .*/fw.elf is no firmware image \\(no image header\\) and too big for the machine besides" \
  $LINK --port "$P" load "$B/programs/tests/link/prog/fw/fw.elf"
expect "... and the loader stays" 1 "^am-link: the machine runs no program" $LINK --port "$P" send 0 1
# as on an iCEBreaker: make load builds the folder's image for its core
# (rv32i), with link-echo to boot, and sends it
TMO=180 expect "make load BOARD=icebreaker: a good image runs" 0 "^loaded .*load-link-echo.hex \([0-9]+ bytes\): the machine runs it$" \
  make --no-print-directory -s load BOARD=icebreaker PROGRAM=tests/link/prog NAME=link-echo BUILD="$B" LOAD_PORT="$P"
expect "the loaded program exports its actors" 0 "^2 0x[0-9a-f]{8}$" $LINK --port "$P" exports
expect "and answers an ask" 0 "^7 8 9$" $LINK --port "$P" ask 0 7 8 9
# the next make load: a program that prints over many turns (demos'
# serializer); make load shows its console until it is idle, the next
# client what came later -- whole, none of it lost between them
out=$(TMO=180 T make --no-print-directory -s load BOARD=icebreaker PROGRAM=demos NAME=serializer BUILD="$B" \
  LOAD_PORT="$P" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -qE "^loaded .*load-serializer.hex \([0-9]+ bytes\): the machine runs it$" <<< "$out"; then
  ok "make load BOARD=icebreaker PROGRAM=demos NAME=serializer"
else bad "make load BOARD=icebreaker PROGRAM=demos NAME=serializer" "exit $rc: $(tail -c 400 <<< "$out")"; fi
out+=$'\n'$(T $LINK --port "$P" monitor 2 2>&1)
console_whole "... its console, whole" "$("$B/host/am-run" --quiet serializer)" "$out"
expect "shutdown" 0 "^the target stops$" $LINK --port "$P" shutdown
loader_ran 100 "the loaded programs, shut down" "2 images loaded; lockstep: [0-9]* transactions checked, 0 divergences$"

verdict
