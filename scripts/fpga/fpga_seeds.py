#!/usr/bin/env python3
"""fpga_seeds.py BOARD CLOCK_MHZ REPORT.json... -- the Fmax spread.

Reads nextpnr's --report JSON of each seed's place and route (`make
fpga-seeds BOARD=...`, one file per seed, named ...pnrSEED.json) and prints
one line per seed and the spread, against the board clock; writes
summary.json next to the reports (the spread, for docs/fpga.md's table).
Where the seed's SDF is next to it (...pnrSEED.sdf, iCE40) and the design has
DSP blocks, each line also says how much room the paths into and out of them
leave for the DSP's own delays, which nextpnr does not model, and the last
line how far the longest of them stays under the board clock's period
(fpga_sdf_sta.py; the analysis must find nextpnr's critical path).
A seed without a report did not route (fpga.mk removes it when P&R fails):
its line says so. Exits 1 when a seed did not route, a report is unreadable, a seed misses
the board clock (that bitstream would not be usable), or an SDF analysis
disagrees with nextpnr.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

from fpga_sdf_sta import agrees, analyse


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: fpga_seeds.py BOARD CLOCK_MHZ REPORT.json...")
    board, clock = sys.argv[1], float(sys.argv[2])
    rows = []
    for path in sys.argv[3:]:
        m = re.search(r"pnr(\d+)\.json$", path)
        if not Path(path).exists():    # P&R failed (fpga.mk removes the report): its log says why
            rows.append((m.group(1) if m else path, None, None))
            continue
        try:
            with open(path) as f:
                rep = json.load(f)
            fmax = min(v["achieved"] for v in rep["fmax"].values())
        except (OSError, ValueError, KeyError) as e:
            sys.exit(f"fpga seeds {board}: cannot read the Fmax from {path}: {e}")
        sdf, dsp = Path(path).with_suffix(".sdf"), None
        if sdf.exists():
            try:
                sta = analyse(sdf.read_text(), path)
            except (OSError, ValueError) as e:
                sys.exit(f"fpga seeds {board}: cannot analyse {sdf}: {e}")
            if not agrees(sta):
                sys.exit(f"fpga seeds {board}: {sdf}: the SDF analysis finds {sta['all']:.3f} ns, "
                         f"nextpnr {sta.get('nextpnr_critical')} ns")
            if sta.get("dsp_blocks"):
                dsp = sta
        rows.append((m.group(1) if m else path, fmax, dsp))
    print(f"fpga seeds {board} (board clock {clock:g} MHz):")
    for seed, fmax, dsp in rows:
        if fmax is None:
            print(f"  seed {seed}: DID NOT ROUTE (its log: pnr{seed}.log)")
            continue
        verdict = "met" if fmax >= clock else "TIMING NOT MET"
        extra = ""
        if dsp:
            extra = (f"; DSP paths: in {dsp['into_dsp']:.1f} ns, out {dsp['out_of_dsp']:.1f} ns, "
                     f"{dsp['room']:.1f} ns of room under the {dsp['all']:.1f} ns critical path")
        print(f"  seed {seed}: {fmax:.2f} MHz ({verdict}{extra})")
    routed = [r for r in rows if r[1] is not None]
    if not routed:
        print("  no seed routed")
        return 1
    lo, hi = min(r[1] for r in routed), max(r[1] for r in routed)
    met = sum(1 for r in routed if r[1] >= clock)
    print(f"  spread {lo:.2f}-{hi:.2f} MHz over the {len(routed)} of {len(rows)} seeds that routed; "
          f"the board clock met with {met} of {len(rows)} seeds")
    # for the resource/clock table of docs/fpga.md (fpga_doc.py)
    commit = subprocess.run(["git", "describe", "--always", "--dirty"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, universal_newlines=True).stdout.strip()
    (Path(sys.argv[3]).parent / "summary.json").write_text(json.dumps(
        {"clock": clock, "commit": commit or "?", "seeds": [r[0] for r in rows], "routed": len(routed), "met": met,
         "min": round(lo, 2), "max": round(hi, 2)}) + "\n")
    dsps = [r[2] for r in rows if r[2]]
    if dsps:
        longest = max(d["longest_dsp"] for d in dsps)
        print(f"  DSP paths: {min(d['room'] for d in dsps):.1f}-{max(d['room'] for d in dsps):.1f} ns "
              f"of room for the DSP's own delays under the critical path (nextpnr counts 0.1 ns); "
              f"the longest, {longest:.1f} ns, leaves {1000.0 / clock - longest:.1f} ns under the "
              f"board clock's {1000.0 / clock:.1f} ns")
    return 1 if lo < clock or len(routed) < len(rows) else 0


if __name__ == "__main__":
    sys.exit(main())
