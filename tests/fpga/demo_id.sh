#!/usr/bin/env bash
# demo_id.sh — the boot behavior id of a demo (what SYS.BOOT_BEH must be).
#
#   tests/fpga/demo_id.sh DEMO      e.g. counter-serialized -> 30
#
# The demo's boot behavior is looked up in demos/demos.def; its id is the
# value of the enum AMB_<NAME> of lib/behaviors.h, printed by a tiny host C
# program, so the id is exactly what the host runtime and the firmware use.
set -euo pipefail
DEMO=$1
cd "$(dirname "$0")/../.."
name=$(sed -n "s/^AM_DEMO(\"$DEMO\", *\(AMB_[A-Z0-9_]*\),.*/\1/p" demos/demos.def)
if [ -z "$name" ]; then
  echo "demo_id: no demo '$DEMO' in demos/demos.def (try: $(sed -n 's/^AM_DEMO("\([^"]*\)".*/\1/p' demos/demos.def | tr '\n' ' '))" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include <stdio.h>\n#include "behaviors.h"\nint main(void) { printf("%%d\\n", (int)%s); return 0; }\n' "$name" > "$tmp/id.c"
${CC:-gcc} -std=c11 -Iinclude -Ilib "$tmp/id.c" -o "$tmp/id"
"$tmp/id"
