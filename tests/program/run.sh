#!/usr/bin/env bash
# tests/program/run.sh — program folders the way a user makes them (make
# program-test): folders outside the checkout, built and run with
# `make run` / `make sim-run PROGRAM=DIR NAME=NAME`, nothing written into
# them; images whose .rodata is 4k+1, 4k+2, 4k+3 bytes long boot and run in
# lockstep; am-sim refuses another folder's or a damaged image; every bad
# folder gets a one-line message naming the file (and line) and a non-zero
# exit; docs/tutorial.md's program and docs/api.md's host code, built from
# the pages, print what the pages show; and the product's sources name no
# tests/ or bench/ path.
# Prints one PASS/FAIL line per check and "program: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BUILD=${BUILD:-build}
TMP=$(mktemp -d /tmp/am-program-test.XXXXXX)
# the folders' builds go too (their keys are new with every temporary folder)
trap 'for d in "$TMP"/*/; do rm -rf "$BUILD/programs/$(python3 scripts/am_program.py key "$d")"; done; rm -rf "$TMP"' EXIT
pass=0; fail=0
ok()  { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1: $2"; fail=$((fail + 1)); }
mk()  { make --no-print-directory -C "$ROOT" "$@"; }

# ---- a user's program: two files, a header of its own, the library ---------------
hello=$TMP/hello
mkdir -p "$hello"
cat > "$hello/greet.h" <<'EOF'
#ifndef GREET_H
#define GREET_H
#include "am_lib.h"
#define GREETINGS 3
#endif
EOF
cat > "$hello/boot.c" <<'EOF'
#include "greet.h"
#include "behaviors.h"
/* Boot: a greeter behind the library's serializer, asked GREETINGS times. */
void hello_boot(am_ctx *ctx)
{
    am_ref greeter = am_create(ctx, AMB_HELLO_GREETER, 0, 0);
    am_ref ser = AM_CREATE(ctx, AMB_SERIALIZER, greeter);
    am_ref k = am_create(ctx, AMB_HELLO_PRINTER, 0, 0);
    for (am_word i = 1; i <= GREETINGS; i++)
        AM_SEND(ctx, ser, k, i);
}
EOF
cat > "$hello/greeter.c" <<'EOF'
#include "greet.h"
#include "behaviors.h"
/* [customer, n] -> customer gets [n * 10] */
void hello_greeter(am_ctx *ctx)
{
    am_word r[1] = { am_msg(ctx, 1) * 10 };
    am_send(ctx, am_msg(ctx, 0), 1, r);
}
/* prints each answer */
void hello_printer(am_ctx *ctx)
{
    am_print(ctx, "hello: got ");
    am_print_uint(ctx, am_msg(ctx, 0));
    am_print(ctx, "\n");
}
EOF
printf 'AM_BEHAVIOR(HELLO_BOOT, hello_boot)\nAM_BEHAVIOR(HELLO_GREETER, hello_greeter)\nAM_BEHAVIOR(HELLO_PRINTER, hello_printer)\n' > "$hello/behaviors.def"
printf 'AM_DEMO("hello", AMB_HELLO_BOOT, "greetings through a serializer")\n' > "$hello/programs.def"
before=$(cd "$hello" && ls -la --time-style=+%s | sort)

out=$(mk run PROGRAM="$hello" NAME=hello 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^hello: got ' <<< "$out")" -eq 3 ] && grep -q '^\[hello\] dispatches=' <<< "$out"; then
  ok "make run PROGRAM=<outside> NAME=hello: 3 answers and the summary"
else bad "make run PROGRAM=<outside>" "exit $rc: $(tail -3 <<< "$out")"; fi

out=$(mk run PROGRAM="$hello" 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q 'NAME=NAME is needed, one program of' <<< "$out" && grep -qx '  hello  -- greetings through a serializer' <<< "$out"; then
  ok "make run without NAME lists the folder's programs"
else bad "make run without NAME" "exit $rc: $(tail -3 <<< "$out")"; fi

# a quoted ~/DIR (or sh's) reaches make unexpanded: it is the user's home all the same
out=$(HOME=$TMP mk run PROGRAM='~/hello' NAME=hello 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^hello: got ' <<< "$out")" -eq 3 ]; then
  ok "make run PROGRAM='~/DIR': the folder in \$HOME"
else bad "make run PROGRAM='~/DIR'" "exit $rc: $(tail -3 <<< "$out")"; fi

out=$(mk run PROGRAM="$hello" NAME=hello ARGS="--table 8 --quiet" 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^hello: got ' <<< "$out")" -eq 3 ] && ! grep -q 'dispatches=' <<< "$out"; then
  ok "make run ARGS=\"--table 8 --quiet\": the options reach am-run"
else bad "make run ARGS=..." "exit $rc: $(tail -3 <<< "$out")"; fi

out=$(mk sim-run PROGRAM="$hello" NAME=hello ARGS="--max-cycles 5000000" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q '^\[hello\] lockstep: [0-9]* transactions checked, 0 divergences' <<< "$out" \
   && grep -q '^\[hello\] cycles/dispatch' <<< "$out" && grep -q '^\[hello\] gc:' <<< "$out"; then
  ok "make sim-run PROGRAM=<outside> NAME=hello: lockstep, 0 divergences"
else bad "make sim-run PROGRAM=<outside>" "exit $rc: $(tail -3 <<< "$out")"; fi
if [ "$(cd "$hello" && ls -la --time-style=+%s | sort)" = "$before" ]; then
  ok "nothing written into the program folder"
else bad "nothing written into the program folder" "$(ls "$hello")"; fi

key=$(python3 scripts/am_program.py key "$hello")
out=$(mk run PROGRAM="$hello" NAME=nosuch 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "no program named 'nosuch' in $hello (its programs: hello); --list" <<< "$out"; then
  ok "an unknown NAME: a message naming the folder and its programs, exit $rc"
else bad "an unknown NAME" "exit $rc: $out"; fi

# ---- images whose contents end at every byte offset ------------------------------
# The text is writable (.data, after .rodata), so the image's last byte lands
# at 4k+1, 4k+2, 4k+3 as its length changes. .bss is empty and starts right
# there: crt0.S's word stores clear it from __bss_start to __bss_end, which
# traps at boot unless the link script aligns both (it did not once).
odd_one() {   # N: builds and runs the folder odd$N, prints "residue status"
  local n=$1 d=$TMP/odd$1 pad out rc elf end
  mkdir -p "$d"
  pad=$(printf '%*s' $((n + 1)) '' | tr ' ' x)
  cat > "$d/odd.c" <<EOF
#include "am_lib.h"
#include "behaviors.h"
char odd_text[] = "odd $pad\n";
void odd_boot(am_ctx *ctx) { am_print(ctx, odd_text + am_msg_len(ctx)); }
EOF
  printf 'AM_BEHAVIOR(ODD_BOOT, odd_boot)\n' > "$d/behaviors.def"
  printf 'AM_DEMO("odd", AMB_ODD_BOOT, "an image of another length")\n' > "$d/programs.def"
  out=$(mk sim-run PROGRAM="$d" NAME=odd 2>&1); rc=$?
  elf=$BUILD/programs/$(python3 scripts/am_program.py key "$d")/fw/fw.elf
  # where the image's contents end: the last byte of any object in .rodata / .data
  end=$(riscv64-unknown-elf-objdump -t "$elf" 2>/dev/null | awk '$3 == "O" && ($4 == ".rodata" || $4 == ".data") {print $1, $5}' \
        | while read -r a l; do echo $(( 0x$a + 0x$l )); done | sort -n | tail -1)
  if [ $rc -eq 0 ] && grep -q "^odd $pad$" <<< "$out" && grep -q "0 divergences" <<< "$out"; then
    echo "$(( ${end:-0} % 4 )) ok"
  else echo "$(( ${end:-0} % 4 )) exit-$rc"; fi
}
for n in 0 1 2 3; do odd_one $n > "$TMP/odd$n.result" & done; wait
seen=""
for n in 0 1 2 3; do
  read -r r st < "$TMP/odd$n.result"
  if [ "$st" = ok ]; then seen="$seen $r"; else bad "the image whose contents end at 4k+$r boots" "$st"; fi
done
for r in 1 2 3; do
  case " $seen " in *" $r "*) ok "an image whose contents end at 4k+$r bytes boots and runs in lockstep";;
    *) bad "an image whose contents end at 4k+$r bytes" "not made (ends mod 4 seen:$seen)";; esac
done

# ---- the image header: am-sim runs only the image of its own table -----------------
hex=$BUILD/programs/$key/fw/fw.hex
sim=$BUILD/programs/$key/am-sim
out=$("$sim" --quiet --image "$BUILD/programs/demos/fw/fw.hex" hello 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "was built from another behavior table" <<< "$out" && grep -q "rebuild" <<< "$out"; then
  ok "am-sim refuses an image of another behavior table (rebuild message)"
else bad "am-sim refuses an image of another behavior table" "exit $rc: $out"; fi
python3 -c 'import sys; w = open(sys.argv[1]).read().split(); w[39] = "%08x" % (int(w[39], 16) ^ 1); print("\n".join(w))' "$hex" > "$TMP/bad.hex"
out=$("$sim" --quiet --image "$TMP/bad.hex" hello 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "CRC-32 .* a damaged image" <<< "$out"; then
  ok "am-sim refuses a damaged image (CRC-32)"
else bad "am-sim refuses a damaged image" "exit $rc: $out"; fi

# an image built for another SoC interface (its header's word 11, the
# identity of include/am_iface.def), its CRC made good: refused before it runs
python3 -c '
import sys, zlib, struct
w = [int(x, 16) for x in open(sys.argv[1]).read().split()]
w[11] ^= 0x8000; w[3] = 0
w[3] = zlib.crc32(struct.pack("<%dI" % len(w), *w)) & 0xffffffff
print("\n".join("%08x" % x for x in w))' "$hex" > "$TMP/other-iface.hex"
out=$("$sim" --quiet --image "$TMP/other-iface.hex" hello 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "was built for another SoC interface (identity [0-9a-f]*; this simulator's SoC: [0-9a-f]*, include/am_iface.def): rebuild it" <<< "$out"; then
  ok "am-sim refuses an image built for another SoC interface (rebuild message)"
else bad "am-sim refuses an image built for another SoC interface" "exit $rc: $out"; fi

# an edited behavior whose image alone was rebuilt: am-sim says so before it
# runs, instead of a divergence later
echo "/* edited */" >> "$hello/greeter.c"
mk "$BUILD/programs/$key/fw/fw.hex" PROGRAM="$hello" > /dev/null 2>&1
out=$("$sim" --quiet hello 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "was built from other sources .* rebuild both" <<< "$out"; then
  ok "am-sim refuses an image built from other sources than its own copy (rebuild message)"
else bad "am-sim refuses an image built from other sources" "exit $rc: $out"; fi
out=$(mk sim-run PROGRAM="$hello" NAME=hello 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "0 divergences" <<< "$out"; then ok "make sim-run rebuilds both and runs"
else bad "make sim-run after an edit" "exit $rc: $(tail -3 <<< "$out")"; fi
# a source deleted: what was built with it is rebuilt, both sides alike
echo "/* a header */" > "$hello/extra.h"
mk run PROGRAM="$hello" NAME=hello > /dev/null 2>&1
rm "$hello/extra.h"
out=$(mk sim-run PROGRAM="$hello" NAME=hello 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "0 divergences" <<< "$out"; then ok "make sim-run after a source was deleted rebuilds both and runs"
else bad "make sim-run after a deleted source" "exit $rc: $(tail -3 <<< "$out")"; fi

# ---- a behavior that crashes the host process: one line, exit 4, the console kept -----
crash=$TMP/crash
mkdir -p "$crash"
cat > "$crash/crash.c" <<'EOF'
#include "am.h"
#include "behaviors.h"
void crash_boot(am_ctx *ctx)
{
    am_print(ctx, "crash: before\n");
    AM_SEND(ctx, am_create(ctx, AMB_CRASH_STEP, 0, 0), am_msg_len(ctx) ? am_msg(ctx, 0) : 1);
}
/* [1]: a store through a null pointer; [N]: 10 / (N - 2) */
void crash_step(am_ctx *ctx)
{
    volatile am_word n = am_msg(ctx, 0);
    if (n == 1) *(volatile am_word *)(unsigned long)(n - 1) = 1;
    am_print_uint(ctx, 10 / (n - 2));
}
EOF
printf 'AM_BEHAVIOR(CRASH_BOOT, crash_boot)\nAM_BEHAVIOR(CRASH_STEP, crash_step)\n' > "$crash/behaviors.def"
printf 'AM_DEMO("crash", AMB_CRASH_BOOT, "crashes the host process")\n' > "$crash/programs.def"
for way in "1|SIGSEGV: a wild pointer" "2|SIGFPE: an integer division by zero"; do
  arg=${way%%|*} want=${way#*|}
  out=$(mk run PROGRAM="$crash" NAME=crash ARGS="--arg $arg" 2>&1)
  if grep -q "^am-run: crash: a behavior crashed the host process ($want" <<< "$out" \
     && grep -q "^crash: before" <<< "$out" && grep -q "Error 4" <<< "$out"; then
    ok "a behavior that crashes the host ($want): one line, exit 4, the console before it kept"
  else bad "a behavior that crashes the host ($want)" "$(tail -3 <<< "$out")"; fi
done
# in lockstep the null store is the stack guard's (address 0 is the image):
# the hardware's STACK verdict, which the reference takes without running
# the behavior; the division by zero commits on RISC-V and crashes the
# reference, which am-sim reports as am-run does
out=$(mk sim-run PROGRAM="$crash" NAME=crash ARGS="--arg 1" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "0 divergences" <<< "$out" && grep -q "^fault: STACK" <<< "$out"; then
  ok "in lockstep a null store is STACK, the hardware's verdict"
else bad "sim-run of a null store" "exit $rc: $(tail -3 <<< "$out")"; fi
out=$(mk sim-run PROGRAM="$crash" NAME=crash ARGS="--arg 2" 2>&1)
if grep -q "^am-sim: crash: a behavior crashed the host process in the reference runtime (SIGFPE" <<< "$out" \
   && grep -q "Error 4" <<< "$out"; then
  ok "a division by zero that crashes the reference: am-sim's one line, exit 4"
else bad "sim-run of a division by zero" "$(tail -3 <<< "$out")"; fi

# ---- bad folders: one line naming the file (and line), a non-zero exit -------------
# What C leaves to the platform, as docs/api.md says: plain char is signed
# on both sides (-fsigned-char), so a char's word is the same in lockstep
d=$TMP/chars; mkdir -p "$d"
printf 'AM_BEHAVIOR(CHARS, chars)\n' > "$d/behaviors.def"
printf 'AM_DEMO("chars", AMB_CHARS, "a plain char as a word")\n' > "$d/programs.def"
printf '#include "behaviors.h"\nvoid chars(am_ctx *ctx)\n{\n    const char *s = "\\xc8";\n    am_print_uint(ctx, (am_word)(int)s[0]);\n    am_print(ctx, "\\n");\n}\n' > "$d/chars.c"
out=$(mk sim-run PROGRAM="$d" NAME=chars 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "0 divergences" <<< "$out" && grep -q "^4294967240$" <<< "$out"; then
  ok "a plain char is signed on the host and the core: the same word in lockstep"
else bad "a plain char in lockstep" "exit $rc: $(grep -v '^\[' <<< "$out" | tail -3)"; fi

expect_error() {   # NAME FOLDER PATTERN [TARGET]
  local what=$1 d=$2 pat=$3 target=${4:-run} out rc
  out=$(mk "$target" PROGRAM="$d" NAME=x 2>&1); rc=$?
  if [ $rc -ne 0 ] && grep -qE "$pat" <<< "$out"; then ok "$what: $(grep -E "$pat" <<< "$out" | head -1 | sed "s|$TMP/||g")"
  else bad "$what" "exit $rc: $(tail -3 <<< "$out")"; fi
}
X_SRC='#include "behaviors.h"\nvoid x_boot(am_ctx *ctx) { (void)ctx; }\n'
mkfolder() {   # DIR BEHAVIORS PROGRAMS [C SOURCE]
  mkdir -p "$1"; printf '%b' "$2" > "$1/behaviors.def"; [ -n "$3" ] && printf '%b' "$3" > "$1/programs.def"
  printf '%b' "${4:-$X_SRC}" > "$1/x.c"
}
mkfolder "$TMP/noprog" 'AM_BEHAVIOR(X_BOOT, x_boot)\n' ''
expect_error "a folder without programs.def" "$TMP/noprog" "noprog/programs.def: missing"
mkfolder "$TMP/noprogs" 'AM_BEHAVIOR(X_BOOT, x_boot)\n' '/* none yet */\n'
expect_error "a programs.def without programs" "$TMP/noprogs" "noprogs/programs.def: no programs \(add AM_DEMO\(\"name\", AMB_BOOT, \"what\"\) lines\)"
mkfolder "$TMP/samefn" 'AM_BEHAVIOR(X_BOOT, x_boot)\nAM_BEHAVIOR(X_TWO, x_boot)\n' 'AM_DEMO("x", AMB_X_BOOT, "x")\n'
expect_error "one function for two behaviors" "$TMP/samefn" "samefn/behaviors.def:2: function x_boot already implements behavior X_BOOT \(.*behaviors.def:1\)"
mkfolder "$TMP/notlit" 'AM_BEHAVIOR(X_BOOT, x_boot)\n' 'AM_DEMO(x, AMB_X_BOOT, "x")\n'
expect_error "a program name that is not a string" "$TMP/notlit" "notlit/programs.def:1: a program's name must be a string literal"
mkfolder "$TMP/badname" 'AM_BEHAVIOR(X_BOOT, x_boot)\n' 'AM_DEMO("a b", AMB_X_BOOT, "x")\n'
expect_error "a program name with a space" "$TMP/badname" "badname/programs.def:1: program name 'a b': use letters, digits and \. _ \+ -"
mkfolder "$TMP/undef" 'AM_BEHAVIOR(X_BOOT, x_boot)\nAM_BEHAVIOR(X_GONE, x_gone)\n' 'AM_DEMO("x", AMB_X_BOOT, "x")\n'
expect_error "a behavior listed but not defined" "$TMP/undef" "undef/behaviors.def:2: behavior X_GONE: no function x_gone"
mkfolder "$TMP/twice" 'AM_BEHAVIOR(X_BOOT, x_boot)\n' 'AM_DEMO("x", AMB_X_BOOT, "x")\nAM_DEMO("x", AMB_X_BOOT, "again")\n'
expect_error "two programs with one name" "$TMP/twice" "twice/programs.def:2: a second program named 'x' \(the first is at .*programs.def:1\)"
mkfolder "$TMP/clash" 'AM_BEHAVIOR(X_BOOT, x_boot)\nAM_BEHAVIOR(CELL, x_cell)\n' 'AM_DEMO("x", AMB_X_BOOT, "x")\n'
expect_error "a name clash with a library behavior" "$TMP/clash" "clash/behaviors.def:2: behavior CELL is already defined at lib/lib_behaviors.def:[0-9]+ \(a library behavior"
mkfolder "$TMP/noboot" 'AM_BEHAVIOR(X_BOOT, x_boot)\n' 'AM_DEMO("x", AMB_X_NONE, "x")\n'
expect_error "a boot behavior that is not listed" "$TMP/noboot" "noboot/programs.def:1: program 'x': boot behavior AMB_X_NONE is not in"
mkfolder "$TMP/big" 'AM_BEHAVIOR(X_BOOT, x_boot)\n' 'AM_DEMO("x", AMB_X_BOOT, "x")\n' \
  '#include "behaviors.h"\nstatic const am_word table[17000] = { 1 };\nvoid x_boot(am_ctx *ctx) { am_fail(ctx, table[am_msg(ctx, 0) % 17000]); }\n'
expect_error "an image too big for the RAM" "$TMP/big" "firmware: program .*big does not fit: [0-9]+ bytes over the RAM \([0-9]+ bytes, of which [0-9]+ are kept for the stack: FW_STACK_MIN, and [0-9]+ for the host link's areas: FW_LINK_AREA \+ FW_LOAD_MAX\)" sim-run
expect_error "a folder that does not exist" "$TMP/none" "program folder .*none: no such directory"
mkfolder "$TMP/onearg" 'AM_BEHAVIOR(X_BOOT)\n' 'AM_DEMO("x", AMB_X_BOOT, "x")\n'
expect_error "a behavior line with one argument" "$TMP/onearg" "onearg/behaviors.def:1:[0-9]+: error: macro \"AM_BEHAVIOR\" requires 2 arguments"
mkfolder "$TMP/fourargs" 'AM_BEHAVIOR(X_BOOT, x_boot)\n' 'AM_DEMO("x", AMB_X_BOOT, "x", 5)\n'
expect_error "a program line with four arguments" "$TMP/fourargs" "fourargs/programs.def:1:[0-9]+: error: macro \"AM_DEMO\" passed 4 arguments"
mkfolder "$TMP/nowords" 'AM_BEHAVIOR(X_BOOT, x_boot)\n' 'AM_DEMO("x", AMB_X_BOOT, "x")\n' \
  '#include "behaviors.h"\nvoid x_boot(am_ctx *ctx) { AM_SEND(ctx, am_self(ctx)); }\n'
expect_error "AM_SEND without a word (an empty message is am_send(ctx, to, 0, 0))" "$TMP/nowords" \
  "nowords/x.c:2:[0-9]+: error: macro \"AM_SEND\" requires 4 arguments, but only 2 given"
mkfolder "$TMP/builtin" 'AM_BEHAVIOR(X_BOOT, x_boot)\n' 'AM_DEMO("x", AMB_CONSOLE, "x")\n'
expect_error "a built-in boot behavior" "$TMP/builtin" "builtin/programs.def:1: program 'x': boot behavior AMB_CONSOLE is a built-in one"
mkfolder "$TMP/bootexpr" 'AM_BEHAVIOR(X_BOOT, x_boot)\n' 'AM_DEMO("x", AMB_X_BOOT + 1, "x")\n'
expect_error "a boot behavior that is an expression" "$TMP/bootexpr" "bootexpr/programs.def:1: program 'x': the boot behavior must be one name, AMB_ and a behavior of the lists \(not 'AMB_X_BOOT \+ 1'\)"
mkfolder "$TMP/at" 'AM_BEHAVIOR(X_BOOT, x_boot)\n' 'AM_DEMO("a@b", AMB_X_BOOT, "x")\n'
expect_error "a program name with an @" "$TMP/at" "at/programs.def:1: program name 'a@b': use letters, digits and \. _ \+ -"
mkfolder "$TMP/twowords" 'AM_BEHAVIOR(X BOOT, x_boot)\n' 'AM_DEMO("x", AMB_X_BOOT, "x")\n'
expect_error "a behavior name of two words" "$TMP/twowords" "twowords/behaviors.def:1: AM_BEHAVIOR\(NAME, function\): a name and a C function, one identifier each"
mkfolder "$TMP/typo" 'AM_BEHAVIOR(X_BOOT, x_boot)\nAM_BEHAVOIR(X_TWO, x_two)\n' 'AM_DEMO("x", AMB_X_BOOT, "x")\n'
expect_error "a misspelled macro in a list" "$TMP/typo" "typo/behaviors.def:2: 'AM_BEHAVOIR\\(X_TWO, x_two\\)' is not an entry of the list: a line holds AM_BEHAVIOR\\(NAME, function\\)"
mkfolder "$TMP/near" 'AM_BEHAVIOR(X_BOOT, x_bot)\n' 'AM_DEMO("x", AMB_X_BOOT, "x")\n'
expect_error "a function's name nearly right" "$TMP/near" "near/behaviors.def:1: behavior X_BOOT: no function x_bot\\(\\) is defined in the folder's \\.c files \\(did you mean x_boot\\(\\)\\?\\)"
mkfolder "$TMP/manybeh" "$(for i in $(seq 1 230); do printf 'AM_BEHAVIOR(X_%d, x_%d)\\n' "$i" "$i"; done)" 'AM_DEMO("x", AMB_X_1, "x")\n'
expect_error "more behaviors than the machine's ids" "$TMP/manybeh" "manybeh/behaviors.def:227: behavior X_227 is the 257th: the machine's behavior ids have 8 bits \(BEH_W\), so a program has at most 256 behaviors"

# ---- docs/tutorial.md, followed as written ------------------------------------------
# Its files are taken from the page, its commands run, and what the page
# shows each one print must be what it prints (the simulator's speed line
# aside), so the tutorial cannot drift from the machine.
tut=$TMP/countdown
mkdir -p "$tut"
python3 - "$ROOT/docs/tutorial.md" "$tut" <<'PY'
import re, sys
page, out = open(sys.argv[1]).read(), sys.argv[2]
def after(cmd):   # the lines a ``` block shows after "$ cmd", up to the next "$ " or the block's end
    m = re.search(r"^\$ " + re.escape(cmd) + r"\n(.*?)(?=^\$ |^```)", page, re.S | re.M)
    if not m: sys.exit("docs/tutorial.md: no block with '$ %s'" % cmd)
    return m.group(1)
files = {
    "countdown.c": re.search(r"`~/countdown/countdown\.c`.*?```c\n(.*?)```", page, re.S),
    "behaviors.def": re.search(r"```\n(AM_BEHAVIOR.*?)```", page, re.S),
    "programs.def": re.search(r"```\n(AM_DEMO.*?)```", page, re.S),
}
for name, m in files.items():
    if not m: sys.exit("docs/tutorial.md: no %s" % name)
    open(out + "/" + name, "w").write(m.group(1))
open(out + "/expect.run", "w").write(after("make run PROGRAM=~/countdown NAME=countdown"))
open(out + "/expect.trace", "w").write(after("head -3 /tmp/countdown.trace"))
open(out + "/expect.trace-run", "w").write(after('make run PROGRAM=~/countdown NAME=countdown ARGS="--arg 1 --quiet --trace /tmp/countdown.trace"'))
open(out + "/expect.sim", "w").write(after("make sim-run PROGRAM=~/countdown NAME=countdown"))
err = re.search(r"`(~/countdown/behaviors\.def:1: [^`]*)`", page)
if not err: sys.exit("docs/tutorial.md: no error message example")
open(out + "/expect.err", "w").write(err.group(1).replace("~/countdown", out) + "\n")
PY
if [ $? -ne 0 ]; then bad "docs/tutorial.md" "its files or outputs could not be read from the page"
else
  # the program's output is the last lines make prints (the build's come first)
  tail_is() {   # WHAT EXPECTED-FILE OUTPUT
    local n; n=$(wc -l < "$2")
    if [ "$(tail -n "$n" <<< "$3")" == "$(cat "$2")" ]; then ok "$1"
    else bad "$1" "$(diff <(cat "$2") <(tail -n "$n" <<< "$3") | head -6)"; fi
  }
  out=$(mk run PROGRAM="$tut" NAME=countdown 2>&1)
  tail_is "docs/tutorial.md: make run prints what the page shows" "$tut/expect.run" "$out"
  rm -f "$TMP/countdown.trace"
  out=$(mk run PROGRAM="$tut" NAME=countdown ARGS="--arg 1 --quiet --trace $TMP/countdown.trace" 2>&1)
  tail_is "docs/tutorial.md: the traced run prints what the page shows" "$tut/expect.trace-run" "$out"
  tail_is "docs/tutorial.md: the trace's first lines are the page's" "$tut/expect.trace" "$(head -3 "$TMP/countdown.trace" 2>/dev/null)"
  out=$(mk sim-run PROGRAM="$tut" NAME=countdown 2>&1 | grep -v '^\[countdown\] simulation: ')
  grep -v '^\[countdown\] simulation: ' "$tut/expect.sim" > "$tut/expect.sim-fixed"
  tail_is "docs/tutorial.md: make sim-run prints what the page shows (in lockstep, the same cycles)" "$tut/expect.sim-fixed" "$out"
  # out of cycles in the middle of a console line: am-sim's own line starts a line
  out=$(mk sim-run PROGRAM="$tut" NAME=countdown ARGS="--max-cycles 3000" 2>&1); rc=$?
  if [ $rc -ne 0 ] && grep -qE "^am-sim: countdown: no halt after 3000 cycles, [0-9]+ transactions checked in lockstep \(--max-cycles N gives it more\)$" <<< "$out"; then
    ok "am-sim out of cycles: its own line, the transactions checked, exit $rc"
  else bad "am-sim out of cycles" "exit $rc: $(tail -3 <<< "$out")"; fi
  cp -r "$tut" "$TMP/countdown-bad"
  sed -i 's/^void countdown(am_ctx/void count_down(am_ctx/' "$TMP/countdown-bad/countdown.c"
  out=$(mk run PROGRAM="$TMP/countdown-bad" NAME=countdown 2>&1)
  want=$(sed "s|$tut|$TMP/countdown-bad|" "$tut/expect.err")
  if grep -qxF "$want" <<< "$out"; then ok "docs/tutorial.md: a renamed function gets the page's one-line message"
  else bad "docs/tutorial.md: the renamed function's message" "$(grep -m2 'behaviors.def' <<< "$out")"; fi
fi

# ---- docs/api.md's host code, built as the page says --------------------------------
# The counter behavior and the host program are taken from the page; the
# page's cc line (make program-lib's flags) builds it, and it prints what
# the page shows.
api=$TMP/api
mkdir -p "$api/counter"
python3 - "$ROOT/docs/api.md" "$api" <<'PY'
import re, sys
page, out = open(sys.argv[1]).read(), sys.argv[2]
blocks = re.findall(r"```c\n(.*?)```", page, re.S)
beh = [b for b in blocks if "void my_counter(" in b]
host = [b for b in blocks if "int main(" in b]
cc = re.search(r"^\$ (cc .*)$", page, re.M)
run = re.search(r"^\$ ~/ask_counter\n(.*?)```", page, re.S | re.M)
if not (beh and host and cc and run and "AM_BEHAVIOR(MY_COUNTER, my_counter)" in page):
    sys.exit("docs/api.md: the worked example's code, cc line or output is missing")
open(out + "/counter/counter.c", "w").write(beh[0])
bdef = re.search(r"```\n(AM_BEHAVIOR\(MY_COUNTER, my_counter\)\n)```", page)
pdef = re.search(r"```\n(AM_DEMO\(.*?\n)```", page, re.S)
if not (bdef and pdef):
    sys.exit("docs/api.md: the worked example's behaviors.def or programs.def is missing")
open(out + "/counter/behaviors.def", "w").write(bdef.group(1))
open(out + "/counter/programs.def", "w").write(pdef.group(1))
open(out + "/ask_counter.c", "w").write(host[0])
open(out + "/cc.sh", "w").write(cc.group(1).replace("~/", out + "/") + "\n")
open(out + "/expect", "w").write(run.group(1))
PY
if [ $? -ne 0 ]; then bad "docs/api.md" "its worked example could not be read from the page"
else
  out=$(bash "$api/cc.sh" 2>&1 && "$api/ask_counter" 2>&1)
  if [ "$out" == "$(cat "$api/expect")" ]; then ok "docs/api.md: the host code, built with make program-lib's flags, prints what the page shows"
  else bad "docs/api.md: the host code" "$(tail -3 <<< "$out")"; fi
fi
out=$(mk program-lib 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "PROGRAM=DIR is needed" <<< "$out"; then ok "make program-lib without PROGRAM: a one-line message, exit $rc"
else bad "make program-lib without PROGRAM" "exit $rc: $(tail -2 <<< "$out")"; fi

# ---- the interface's identity: an edit of include/am_iface.def changes it ---------
# (every image carries it: am-sim and the loaders refuse one of another; above)
out=$(cd "$ROOT" && python3 - "$TMP" <<'PY' 2>&1
import re, sys
from pathlib import Path
sys.path.insert(0, "scripts")
import am_iface
tmp = Path(sys.argv[1])
text = am_iface.DEF.read_text()
def variant(name, f):
    p = tmp / (name + ".def")
    new = f(text)
    assert new != text, name
    p.write_text(new)
    return p
base = am_iface.identity()
doc = variant("doc", lambda t: t.replace('"the SoC\'s RAM (64 KiB)"', '"the RAM (64 KiB, reworded)"'))
val = variant("val", lambda t: t.replace("AM_IF_SIZE(MSG_WORDS, 8,", "AM_IF_SIZE(MSG_WORDS, 9,"))
rev = variant("rev", lambda t: re.sub(r"^AM_IF_ID\(1,", "AM_IF_ID(2,", t, flags=re.M))
assert am_iface.identity(doc) == base, "a doc string's wording changed the identity"
assert am_iface.identity(val) != base, "a size's value left the identity as it was"
assert am_iface.identity(rev) != base, "the revision left the identity as it was"
am_iface.load(doc)          # still its own identity: loads
try:
    am_iface.load(val)
except SystemExit as e:
    print(e)
else:
    sys.exit("a stale AM_IF_ID was not caught")
PY
)
if grep -q "AM_IF_ID says 0x[0-9a-f]*, the entries' identity is 0x[0-9a-f]*: .*scripts/am_iface.py id --write" <<< "$out" &&
   [ "$(cd "$ROOT" && python3 scripts/am_iface.py id)" = "$(grep -oE '^AM_IF_ID\([0-9]+, 0x[0-9a-f]+' "$ROOT/include/am_iface.def" | sed 's/.*, //')" ]; then
  ok "am_iface.py: the identity follows every value but no doc string; a stale AM_IF_ID stops the scripts, naming the fix"
else bad "am_iface.py: the interface's identity" "$out"; fi

# ---- a board's one-program firmware (scripts/am_program.py subset) -------------------
# the behaviors a program dispatches in its reference run; one that runs on
# (am-run's budget runs out) is measured over that budget, with a warning
d=$TMP/runson; mkdir -p "$d"
printf 'AM_BEHAVIOR(X_BOOT, x_boot)\nAM_BEHAVIOR(X_LATER, x_later)\n' > "$d/behaviors.def"
printf 'AM_DEMO("x", AMB_X_BOOT, "runs on")\n' > "$d/programs.def"
printf '#include "behaviors.h"\nvoid x_boot(am_ctx *ctx) { AM_SEND(ctx, am_self(ctx), am_msg(ctx, 0) + 1); }\nvoid x_later(am_ctx *ctx) { am_fail(ctx, 1); }\n' > "$d/x.c"
fb=$BUILD/program-test-fpga
out=$(mk "$fb/icebreaker/fw.hex" FPGA_BUILD="$fb" BOARD=icebreaker PROGRAM="$d" NAME=x 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "^subset: x did not end within am-run's budget of dispatches: its image keeps only what it dispatched so far (1 behavior); one it dispatches first later fails there (code 0xAB5E)" <<< "$out" \
   && grep -q "^    x_boot,$" "$fb/icebreaker/fw_table.c" && grep -q "fw_absent_beh, /\* [0-9]* X_LATER \*/" "$fb/icebreaker/fw_table.c"; then
  ok "a board program that runs on is built from what its first dispatches use, with a warning"
else bad "a board program that runs on" "exit $rc: $(tail -3 <<< "$out")"; fi
out=$(mk "$fb/icebreaker/fw.hex" FPGA_BUILD="$fb" BOARD=icebreaker PROGRAM=demos NAME=cell 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "fw_absent_beh, /\* [0-9]* DEMO_BANK \*/" "$fb/icebreaker/fw_table.c" && grep -q "aml_cell," "$fb/icebreaker/fw_table.c"; then
  ok "a board program that ends keeps only what its reference run dispatched"
else bad "a board program that ends" "exit $rc: $(tail -3 <<< "$out")"; fi
rm -rf "$fb"

# ---- the product does not depend on its tests --------------------------------------
hits=$(grep -rlE "(^|[^a-z_])(tests|bench)/" include lib host firmware rtl sim 2>/dev/null)
flags=$(make --no-print-directory -C "$ROOT" -pn host 2>/dev/null | grep -E "^(CFLAGS_[A-Z]+|FW_CFLAGS) " | grep -E "I(tests|bench)")
if [ -z "$hits$flags" ]; then ok "no tests/ or bench/ path in include/ lib/ host/ firmware/ rtl/ sim/ or the compile flags"
else bad "the product names tests/ or bench/" "$hits $flags"; fi

echo "program: $pass passed, $fail failed"
[ $fail -eq 0 ]
