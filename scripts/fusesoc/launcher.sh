#!/bin/sh
# launcher.sh -- EDALIZE_LAUNCHER for actormachine.core's ulx3s target
# (docs/fusesoc.md): edalize runs every tool through it; nextpnr-ecp5 and
# ecppack, when not on PATH, are the venv's YoWASP builds (make deps), as
# fpga.mk's ECP5_PNR / ECP5_PACK.
#   EDALIZE_LAUNCHER=$PWD/scripts/fusesoc/launcher.sh fusesoc --cores-root . run --target=ulx3s actormachine:am:soc
venv=$(cd "$(dirname "$0")/../.." && pwd)/.venv/bin
case "$1" in
  nextpnr-ecp5|ecppack)
    if ! command -v "$1" > /dev/null 2>&1; then
      tool=$1; shift
      exec "$venv/yowasp-$tool" "$@"
    fi ;;
esac
exec "$@"
