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

missing_apt=()
for p in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing_apt+=("$p")
  fi
done

venv_ok=0
if [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ] && cmp -s "$REQ" "$STAMP"; then
  venv_ok=1
fi

if [ ${#missing_apt[@]} -eq 0 ] && [ $venv_ok -eq 1 ]; then
  echo "deps: everything is installed (${#APT_PACKAGES[@]} Debian packages, venv $VENV matches $REQ); nothing to do"
  exit 0
fi

if [ $check_only -eq 1 ]; then
  [ ${#missing_apt[@]} -gt 0 ] && echo "deps: missing Debian packages: ${missing_apt[*]}"
  [ $venv_ok -eq 0 ] && echo "deps: venv $VENV missing or not matching $REQ"
  exit 1
fi

if [ ${#missing_apt[@]} -gt 0 ]; then
  echo "deps: installing Debian packages: ${missing_apt[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    echo "deps: error: need root or passwordless sudo to install: ${missing_apt[*]}" >&2
    echo "deps: install them yourself with: sudo apt-get install ${missing_apt[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing_apt[@]}"
fi

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
fi
echo "deps: done"
