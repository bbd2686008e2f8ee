#!/usr/bin/env python3
"""fpga_cells.py STAT PACK_LOG -- an iCE40 synthesis in four numbers.

Prints "LC LUT4 FF CARRY": the logic cells nextpnr-ice40 --pack-only packed
the netlist into (its log, PACK_LOG) and the LUT4, flip-flop and carry cells
of the yosys `stat` (STAT, either yosys' format: fpga_blocks.stat_cells).
Exits 1 with a message when either count is missing. The measurement
scripts (synth_variants.sh, cpu_variants.sh) read their rows from it.
"""
import re
import sys
from pathlib import Path

from fpga_blocks import CARRY, FF, LUT, count


def main(argv):
    if len(argv) != 3:
        print("usage: fpga_cells.py STAT PACK_LOG", file=sys.stderr)
        return 2
    stat, pack = Path(argv[1]), Path(argv[2])
    m = re.search(r"ICESTORM_LC:\s+(\d+)/", pack.read_text()) if pack.exists() else None
    text = stat.read_text() if stat.exists() else ""
    lut, ff, cy = count(text, LUT), count(text, FF), count(text, CARRY)
    if not m or int(m.group(1)) == 0 or lut == 0:
        print(f"fpga_cells: no LC count in {pack} or no LUT4 in {stat}", file=sys.stderr)
        return 1
    print(m.group(1), lut, ff, cy)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
