#!/usr/bin/env bash
# scripts/fpga/synth_variants.sh BOARD OUT_DIR "SYNTH FLAGS" [VARIANT...]
#   -- what the synthesis options cost an iCE40 board, in logic cells.
#
# Synthesizes the whole board (the same yosys script as `make ice40`, through
# the same make rules, into OUT_DIR/<variant>/) once per variant, packs each
# netlist with nextpnr-ice40 --pack-only (the make rule of the report's
# pack.json), and prints LCs (the figure the
# report uses), LUT4, FF and carry cells, and the LC
# difference to the board's own flags (make fpga-synth-variants). abc9's mapping moves by a few tens
# of LCs with any change of the netlist: read differences that small as
# noise. Variants (default: all):
#   board    the board's flags (fpga.mk: <board>_SYNTH)
#   dff      with -dff (abc9 sees the flip-flops; no board's build uses it:
#            its netlist can run off the RTL's cycles, docs/fpga.md)
#   abc      abc instead of abc9 (FPGA_ABC9=0)
#   area     abc9 with an area-oriented LUT mapping (&if -a)
#   delay30  abc9 with a 30 ns delay target (area recovery under it)
#   abc2     -abc2 (an extra abc pass before the LUT mapping)
#   nodffe   -nodffe (no flip-flops with enable)
#   nocarry  -nocarry (no carry chains)
#   limits   the board's flags, the actor unit with smaller per-transaction
#            limits (4 message and 4 state words, 4 sends, 2 creates; an
#            area figure only: the firmware is built for 8 / 8 / 8 / 4)
#   cut-*    the board's flags, the RTL with one feature cut out
#            (scripts/fpga/rtl_cut.py --list: the collector, fault delivery,
#            the watchdog, the register read-back, ...): what the feature
#            costs, an upper bound (the cut copy is not a working design)
# MAKE_CMD (environment) is the make to run the board's rules with.
set -euo pipefail
BOARD=${1:?usage: synth_variants.sh BOARD OUT_DIR SYNTH [VARIANT...]}
OUT=${2:?usage}; SYNTH=${3-}
shift 3
MAKE_CMD=${MAKE_CMD:-make}
CUT=$(dirname "$0")/rtl_cut.py
mapfile -t cuts < <(python3 "$CUT" --list | awk '{ print $1 }')
all=(board dff abc area delay30 abc2 nodffe nocarry limits "${cuts[@]}")
[ $# -gt 0 ] || set -- "${all[@]}"
[ "$1" = board ] || set -- board "$@"   # the differences are to the board's flags

AREA='scratchpad -set abc9.script +&scorr;&sweep;&dc2;&dch,-f;&if,-a,-K,4;&mfs;'
base_lc=""
for v in "$@"; do   # every name first, before any synthesis
  [[ " ${all[*]} " == *" $v "* ]] || { echo "synth_variants: unknown variant '$v' (one of: ${all[*]})"; exit 1; }
done
printf '%-12s %-52s %6s %6s %6s %6s %7s\n' variant "synthesis (synth_ice40 ...)" LC LUT4 FF carry "LC +/-"
for v in "$@"; do
  flags=$SYNTH; abc9=1; pre=""; note=""; rtl=rtl
  d=$OUT/$v
  case $v in
    board)   ;;
    dff)     flags="$SYNTH -dff" ;;
    abc)     abc9=0 ;;
    area)    pre=$AREA; note=" (&if -a)" ;;
    delay30) pre='scratchpad -set abc9.D 30000;'; note=" (-D 30000)" ;;
    abc2)    flags="$SYNTH -abc2" ;;
    nodffe)  flags="$SYNTH -nodffe" ;;
    nocarry) flags="$SYNTH -nocarry" ;;
    limits)  pre='chparam -set MSG_WORDS 4 -set STATE_WORDS 4 -set MAX_SENDS 4 -set MAX_CREATES 2 am_actor_unit;'
             note=" (unit: 4/4/4/2)" ;;
    cut-*)   rtl=$d/rtl; python3 "$CUT" "$v" rtl "$rtl" || exit 1
             note=" (RTL: $v)" ;;
  esac
  $MAKE_CMD --no-print-directory BOARD="$BOARD" FPGA_BUILD="$d" FPGA_RTL="$rtl" "${BOARD}_SYNTH=$flags" \
    FPGA_ABC9=$abc9 "FPGA_PRE_SYNTH=$pre" "$d/$BOARD/synth.json" "$d/$BOARD/pack.json" > "$d.make.log" 2>&1 \
    || { echo "synth_variants: synthesis or packing failed for $v (see $d.make.log)"; tail -5 "$d.make.log"; exit 1; }
  # the abc9 script really ran as asked (a scratchpad key yosys ignored would
  # measure the board twice; yosys 0.23 logs the script, newer ones do not)
  want=""
  case $v in area) want='&if -a -K 4' ;; delay30) want='&if .*-D 30000' ;; esac
  if [ -n "$want" ] && ! grep -q "ABC: + $want" "$d/$BOARD/synth.log"; then
    echo "synth_variants: abc9 did not run '$want' (see $d/$BOARD/synth.log)"; exit 1
  fi
  read -r lc lut ff cy < <(python3 "$(dirname "$0")/fpga_cells.py" "$d/$BOARD/synth.stat" "$d/$BOARD/pack.log") \
    && [ -n "$cy" ] || { echo "synth_variants: no cell counts for $v"; exit 1; }
  [ -n "$base_lc" ] || base_lc=$lc
  desc=$flags; [ "$abc9" = 1 ] && desc="$desc -abc9"; desc="$desc$note"
  printf '%-12s %-52.52s %6d %6d %6d %6d %+7d\n' "$v" "$desc" "$lc" "$lut" "$ff" "$cy" $((lc - base_lc))
done
