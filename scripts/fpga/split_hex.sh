#!/usr/bin/env bash
# split_hex.sh — cut a $readmemh image (one 32-bit word a line) into the
# power-of-two banks of rtl/boards/am_ram_ice40.v.
#
#   scripts/fpga/split_hex.sh IMAGE.hex BRAM_WORDS OUT_PREFIX
#
# Bank b (2^b words, one per set bit of BRAM_WORDS, largest first from word
# 0) gets words [base, base + 2^b) of IMAGE, padded with zeros, in
# OUT_PREFIX.bNN (NN = b, two digits). Fails if IMAGE has more than
# BRAM_WORDS words.
set -euo pipefail
img=$1; words=$2; out=$3
n=$(wc -l < "$img")
if [ "$n" -gt "$words" ]; then
  echo "split_hex: $img has $n words, more than the $words words of block RAM" >&2; exit 1
fi
base=0
for ((b = 12; b >= 0; b--)); do
  size=$((1 << b))
  if (( words & size )); then
    { sed -n "$((base + 1)),$((base + size))p" "$img"
      have=$(( n > base ? (n - base < size ? n - base : size) : 0 ))
      for ((i = have; i < size; i++)); do echo 00000000; done
    } > "$(printf '%s.b%02d' "$out" "$b")"
    base=$((base + size))
  fi
done
