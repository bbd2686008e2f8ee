#!/usr/bin/env bash
# tests/link/e2e.sh — the host link end to end against am-run --link
# (tests/link/test_link.c; make link-test runs it with BUILD set).
B=${BUILD:-build}
W=$B/link-test/e2e
rm -rf "$W" && mkdir -p "$W"
exec "$B/tests/link/test_link" "$B/host/am-run" "$B/programs/tests/link/prog/fw/fw.hex" \
  "$B/programs/demos/fw/fw.hex" "$W"
