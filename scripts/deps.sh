#!/usr/bin/env bash
# deps.sh — install what actormachine needs, and nothing twice.
#
#   scripts/deps.sh            install missing Debian packages and the venv
#   scripts/deps.sh --check    only report what is missing (exit 1 if any)
#
# Debian packages come from apt-get (through sudo when not root). Python
# packages are pinned in scripts/requirements.txt and installed into the
# project-local venv .venv/ (git-ignored). A second run finds everything in
# place, installs nothing and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  make gcc g++ libc6-dev                        # host runtime, tests, Verilator C++
  python3 python3-venv python3-pip              # the project-local venv
  verilator iverilog                            # RTL simulation and lint
  yosys nextpnr-ice40 fpga-icestorm             # iCE40 synthesis / P&R / packing
  gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf   # firmware (rv32im, no libc)
)
REQ=scripts/requirements.txt
VENV=.venv
STAMP=$VENV/.requirements.installed

check_only=0
[ "${1:-}" = "--check" ] && check_only=1

. scripts/apt.sh
mapfile -t missing_apt < <(apt_missing "${APT_PACKAGES[@]}")

venv_ok=0
if [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ] && cmp -s "$REQ" "$STAMP"; then
  venv_ok=1
fi

# FuseSoC, given the checkout as a library, skips the venv (its packages'
# cores are not the project's; docs/fusesoc.md)
[ -d "$VENV" ] && [ ! -f "$VENV/FUSESOC_IGNORE" ] && : > "$VENV/FUSESOC_IGNORE"

if [ ${#missing_apt[@]} -eq 0 ] && [ $venv_ok -eq 1 ]; then
  # quiet under another make that has run this (the Makefile's deps)
  [ -n "${AM_DEPS_QUIET:-}" ] && exit 0
  echo "deps: everything is installed (${#APT_PACKAGES[@]} Debian packages, venv $VENV matches $REQ); nothing to do"
  exit 0
fi

if [ $check_only -eq 1 ]; then
  [ ${#missing_apt[@]} -gt 0 ] && echo "deps: missing Debian packages: ${missing_apt[*]}"
  [ $venv_ok -eq 0 ] && echo "deps: venv $VENV missing or not matching $REQ"
  exit 1
fi

[ ${#missing_apt[@]} -eq 0 ] || apt_install deps "${missing_apt[@]}"

if [ $venv_ok -eq 0 ]; then
  PY=python3
  [ -x /usr/bin/python3 ] && PY=/usr/bin/python3
  if [ ! -x "$VENV/bin/python" ]; then
    echo "deps: creating venv $VENV with $PY"
    "$PY" -m venv "$VENV"
  fi
  echo "deps: installing into $VENV: $(grep -v '^#' "$REQ" | tr '\n' ' ')"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQ"
  cp "$REQ" "$STAMP"
  : > "$VENV/FUSESOC_IGNORE"
fi
echo "deps: done"
