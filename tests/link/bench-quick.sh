#!/usr/bin/env bash
# tests/link/bench-quick.sh — make bench-link's answers, one setting (make link-test)
QUICK=1 exec "$(dirname "$0")/bench.sh"
