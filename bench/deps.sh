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

APT_PACKAGES=(
  gcc g++ make                 # our runtime and the CAF comparator
  erlang-base                  # erl + erlc (Erlang/OTP 25 on Debian 12)
  libcaf-dev                   # C++ Actor Framework 0.17.x (Debian 12)
  gnuplot-nox                  # the plots (PNG via pngcairo, SVG)
)

check_only=0
[ "${1:-}" = "--check" ] && check_only=1

missing=()
for p in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bench-deps: everything is installed (${APT_PACKAGES[*]}); nothing to do"
  exit 0
fi
if [ $check_only -eq 1 ]; then
  echo "bench-deps: missing Debian packages: ${missing[*]}"
  exit 1
fi

echo "bench-deps: installing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "bench-deps: error: installing ${missing[*]} needs root or passwordless sudo" >&2
  echo "bench-deps: install them yourself with: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "bench-deps: done"
