#!/usr/bin/env python3
"""fpga_doc.py FPGA_DIR [DOC] -- the boards' resource and clock table.

Reads FPGA_DIR/BOARD/summary.json (fpga_report.py: the build's resources,
board clock, Fmax and seed) and, where `make fpga-seeds` ran,
FPGA_DIR/BOARD/seeds/summary.json (fpga_seeds.py: the Fmax spread over its
seeds). Prints the table (markdown); with DOC, also puts it between the
lines <!-- fpga-table:begin --> and <!-- fpga-table:end --> of DOC
(`make fpga-doc` does it for docs/fpga.md). Exit 1 when no board was built.
"""
import json
import sys
from pathlib import Path

BOARDS = [("icebreaker", "iCEBreaker (UP5K)"), ("hx8k", "iCE40-HX8K"), ("ulx3s", "ULX3S (ECP5)")]
BEGIN, END = "<!-- fpga-table:begin -->", "<!-- fpga-table:end -->"


def table(fpga_dir):
    rows = []
    for key, name in BOARDS:
        p = fpga_dir / key / "summary.json"
        if not p.exists():
            continue
        s = json.loads(p.read_text())
        mems = ", ".join(f"{n.split(' (')[0] if n.startswith('BRAM') else n} {u}/{av}"
                         for n, (u, av) in s["memories"].items())
        spread = "—"
        sp = fpga_dir / key / "seeds" / "summary.json"
        if sp.exists():
            t = json.loads(sp.read_text())
            seeds = [int(x) for x in t["seeds"] if str(x).isdigit()]
            span = f"{min(seeds)}–{max(seeds)}" if seeds else "?"
            spread = (f"{t['min']:.2f}–{t['max']:.2f} (seeds {span}; clock met at "
                      f"{t['met']} of {len(t['seeds'])}; at {t.get('commit', '?')})")
        rows.append(f"| {name} | {s['clock']:g} MHz | {s['fmax']:.2f} (seed {s['seed']}) | "
                    f"{spread} | {s['used']:,} {s['logic'].split(' (')[0]} "
                    f"({100.0 * s['used'] / s['available']:.1f}%) | {mems} |")
    if not rows:
        return None
    return "\n".join(["| board | clock | Fmax, MHz | Fmax over seeds, MHz | logic | memories, DSP |",
                      "|---|---:|---:|---|---:|---|", *rows])


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    t = table(Path(sys.argv[1]))
    if t is None:
        print(f"fpga_doc: no board's summary.json in {sys.argv[1]} (make ice40 / ecp5 first)")
        return 1
    print(t)
    if len(sys.argv) == 3:
        doc = Path(sys.argv[2])
        text = doc.read_text()
        i, j = text.find(BEGIN), text.find(END)
        if i < 0 or j < i:
            sys.exit(f"fpga_doc: markers {BEGIN} / {END} not found in {doc}")
        doc.write_text(text[: i + len(BEGIN)] + "\n" + t + "\n" + text[j:])
        print(f"fpga_doc: {doc} now shows this table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
