#!/usr/bin/env bash
# tests/link/inplace.sh — the in-place loader (firmware/fw_inplace.c: what
# an HX8K built with LINK=1 boots) on the simulated SoC, am-sim --link
# --loader build/inplace/rv32im/inplace.hex: test_inplace.c's cases through
# the library (every request type, the counters, bad loads and images, a
# good image run in lockstep without the link), then as a user meets it:
# am-link's answers, make load BOARD=hx8k refusing a program too big for
# the RAM the loader leaves, and loading one that fits, which runs to its
# halt in lockstep. Every command is bounded by a timeout. Prints
# "link-inplace: N passed, N failed".
. tests/link/suite.sh inplace 30
SIM=$B/sim/am-sim
LOADER=$B/inplace/rv32im/inplace.hex
MAX=$(cat "$B/inplace/rv32im/inplace.max")

# the image make load BOARD=hx8k sends for demos' cell: what the HX8K's
# bitstream would hold
out=$(TMO=180 T make --no-print-directory -s FPGA_BUILD="$B/load" BOARD=hx8k PROGRAM=demos NAME=cell \
  BUILD="$B" "$B/load/hx8k/fw.hex" 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(sed -n 7p "$B/load/hx8k/fw.hex")" = "$(printf %08x \
     "$(python3 scripts/am_program.py boot "$B/programs/demos/manifest.txt" cell)")" ]; then
  ok "the HX8K image of demos' cell builds, cell to boot"
else bad "the HX8K image of demos' cell builds, cell to boot" "exit $rc: $(tail -c 300 <<< "$out")"; fi
mkdir -p "$W/lib"
out=$(TMO=120 T "$B/tests/link/test_inplace" "$SIM" "$LOADER" "$B/load/hx8k/fw.hex" "$MAX" "$W/lib" 2>&1)
while read -r v name; do
  case "$v" in ok) ok "${name#link-inplace: }";; FAIL) bad "${name#link-inplace: }" "see below";; esac
done < <(grep -E '^(ok|FAIL) ' <<< "$out" | sed -E 's/^(ok|FAIL) +/\1 /')
grep -qE '^link-inplace: [0-9]+ passed, 0 failed$' <<< "$out" || { bad "test_inplace" "$(tail -c 600 <<< "$out")"; }

loader_sim "$LOADER"
loader_waits
# counter-serialized, the HX8K's default demo, is larger than the loader leaves
TMO=180 expect "make load BOARD=hx8k: a program too big for the loader is refused, before anything is sent" 2 \
  "^make load: counter-serialized's HX8K image is [0-9]+ bytes; the in-place loader takes up to $MAX " \
  make --no-print-directory -s load BOARD=hx8k PROGRAM=demos NAME=counter-serialized BUILD="$B" LOAD_PORT="$P"
expect "... and the loader stays" 1 "^am-link: the machine runs no program" $LINK --port "$P" send 0 1
TMO=180 expect "make load BOARD=hx8k: a program that fits runs, without the link" 0 \
  "^loaded .*/load/hx8k/fw.hex \([0-9]+ bytes\): the machine runs it without the link" \
  make --no-print-directory -s load BOARD=hx8k PROGRAM=demos NAME=lazy BUILD="$B" LOAD_PORT="$P"
loader_ran 300 "the loaded program ran to its halt, its console compared" \
  "^\[lazy\] link: .* 1 images loaded; lockstep: [0-9]* transactions checked, 0 divergences$"

verdict
