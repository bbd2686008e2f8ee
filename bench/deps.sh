#!/usr/bin/env bash
# bench/deps.sh — install what `make bench` needs and `make test` does not:
# the comparators (Erlang/OTP, the C++ Actor Framework) and gnuplot.
#
#   bench/deps.sh            install missing Debian packages
#   bench/deps.sh --check    only report what is missing (exit 1 if any)
#
# Debian packages come from apt-get (through sudo when not root). A second
# run finds everything in place and installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/apt.sh

APT_PACKAGES=(
  gcc g++ make                 # our runtime and the CAF comparator
  erlang-base                  # erl + erlc (Erlang/OTP 25 on Debian 12)
  libcaf-dev                   # C++ Actor Framework 0.17.x (Debian 12)
  gnuplot-nox                  # the plots (PNG via pngcairo, SVG)
)

check_only=0
[ "${1:-}" = "--check" ] && check_only=1

mapfile -t missing < <(apt_missing "${APT_PACKAGES[@]}")

if [ ${#missing[@]} -eq 0 ]; then
  echo "bench-deps: everything is installed (${APT_PACKAGES[*]}); nothing to do"
  exit 0
fi
if [ $check_only -eq 1 ]; then
  echo "bench-deps: missing Debian packages: ${missing[*]}"
  exit 1
fi

apt_install bench-deps "${missing[@]}"
echo "bench-deps: done"
