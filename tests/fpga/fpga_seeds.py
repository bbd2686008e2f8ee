#!/usr/bin/env python3
"""fpga_seeds.py BOARD CLOCK_MHZ GOAL_MHZ REPORT.json... -- the Fmax spread.

Reads nextpnr's --report JSON of each seed's place and route (`make
fpga-seeds BOARD=...`, one file per seed, named ...pnrSEED.json) and prints
one line per seed and the spread, against the board clock and the goal.
Exits 1 when a report is missing or unreadable, or a seed misses the board
clock (that bitstream would not be usable).
"""
import json
import re
import sys


def main():
    if len(sys.argv) < 5:
        sys.exit("usage: fpga_seeds.py BOARD CLOCK_MHZ GOAL_MHZ REPORT.json...")
    board, clock, goal = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    rows = []
    for path in sys.argv[4:]:
        try:
            with open(path) as f:
                rep = json.load(f)
            fmax = min(v["achieved"] for v in rep["fmax"].values())
        except (OSError, ValueError, KeyError) as e:
            sys.exit(f"fpga seeds {board}: cannot read the Fmax from {path}: {e}")
        m = re.search(r"pnr(\d+)\.json$", path)
        rows.append((m.group(1) if m else path, fmax))
    print(f"fpga seeds {board} (board clock {clock:g} MHz, goal {goal:g} MHz):")
    for seed, fmax in rows:
        verdict = "goal met" if fmax >= goal else ("board clock met" if fmax >= clock else "TIMING NOT MET")
        print(f"  seed {seed}: {fmax:.2f} MHz ({verdict})")
    lo, hi = min(f for _, f in rows), max(f for _, f in rows)
    met = sum(1 for _, f in rows if f >= goal)
    print(f"  spread {lo:.2f}-{hi:.2f} MHz; goal met with {met} of {len(rows)} seeds")
    return 1 if lo < clock else 0


if __name__ == "__main__":
    sys.exit(main())
