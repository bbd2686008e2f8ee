#!/usr/bin/env python3
"""fpga_report.py — the report of one FPGA build (fpga.mk), and its verdict.

Reads DIR/synth.stat (yosys `stat`), DIR/pnr.json (nextpnr --report: utilization,
fmax, critical paths), DIR/synth.secs and DIR/pnr.secs, and for an iCE40 board
the packed netlist (--pack: what each logic cell holds, fpga_lc_use.py) and the
routed design's SDF (--sdf: the paths into and out of DSP blocks,
fpga_sdf_sta.py); writes DIR/report.md and DIR/summary.json (for docs/fpga.md's
table, fpga_doc.py) and prints a short summary. Exit
status 1 when the achieved Fmax is below the board clock (timing not met), a
resource is over-used, the packed netlist does not add up (its cells to the
placed design's LC count, its cells with a flip-flop to the synthesized
flip-flops), or the SDF analysis does not find nextpnr's critical path.
"""
import argparse
import json
import re
import sys
from pathlib import Path

from fpga_blocks import CARRY, LUT, stat_cells
from fpga_lc_use import lc_use, summary_lines
from fpga_sdf_sta import agrees as sdf_agrees, analyse as sdf_analyse

ap = argparse.ArgumentParser()
ap.add_argument("--board", required=True)
ap.add_argument("--family", required=True, choices=["ice40", "ecp5"])
ap.add_argument("--dir", required=True)
ap.add_argument("--clock-mhz", type=float, required=True)
ap.add_argument("--seed", required=True)
ap.add_argument("--demo", required=True)
ap.add_argument("--soc", default="")
ap.add_argument("--defines", default="", help="the board's Verilog defines (<board>_DEFINES)")
ap.add_argument("--rtl", default="", help="the board's own sources (<board>_RTL, relative to rtl/)")
ap.add_argument("--command", required=True)
ap.add_argument("--pack", help="iCE40: nextpnr-ice40 --pack-only --write output")
ap.add_argument("--sdf", help="iCE40: the routed design's SDF (nextpnr-ice40 --sdf)")
a = ap.parse_args()
d = Path(a.dir)

rep = json.loads((d / "pnr.json").read_text())
util = {k: v for k, v in rep["utilization"].items() if v["used"] or k in (
    "ICESTORM_RAM", "ICESTORM_SPRAM", "ICESTORM_DSP", "DP16KD", "MULT18X18D")}
stat = stat_cells((d / "synth.stat").read_text())   # either yosys' format

def secs(name):
    p = d / name
    return int(p.read_text()) if p.exists() else None

if a.family == "ice40":
    logic_key, logic_name = "ICESTORM_LC", "logic cells (LC)"
    luts = sum(v for k, v in stat.items() if re.fullmatch(LUT, k))
    ffs = sum(v for k, v in stat.items() if k.startswith("SB_DFF"))
    carry = sum(v for k, v in stat.items() if re.fullmatch(CARRY, k))
    mems = [("ICESTORM_RAM", "BRAM (4 Kbit)"), ("ICESTORM_SPRAM", "SPRAM (256 Kbit)"),
            ("ICESTORM_DSP", "DSP (SB_MAC16)")]
else:
    logic_key, logic_name = "TRELLIS_COMB", "LUT4 sites (TRELLIS_COMB)"
    luts = stat.get("LUT4", 0)
    ffs = stat.get("TRELLIS_FF", 0)
    carry = stat.get("CCU2C", 0)
    mems = [("DP16KD", "BRAM (DP16KD, 18 Kbit)"), ("MULT18X18D", "DSP (MULT18X18D)")]

fmax = min((v["achieved"] for v in rep["fmax"].values()), default=0.0)
timing_ok = fmax >= a.clock_mhz
over = [k for k, v in util.items() if v["used"] > v["available"]]
lc = util.get(logic_key, {"used": 0, "available": 1})
lc_pct = 100.0 * lc["used"] / lc["available"]

# the worst path: its source and sink cells and the modules it crosses
crit = ""
paths = rep.get("critical_paths", [])
if paths:
    worst = paths[0]
    steps = worst.get("path", [])
    cells = []
    for s in steps:
        ends = [s.get("to", {}), s.get("from", {})] if s.get("type") == "clk-to-q" \
            else [s.get("from", {}), s.get("to", {})]
        for e in ends:
            c = e.get("cell", "")
            if c and (not cells or cells[-1] != c):
                cells.append(c)
    mods = []
    for c in cells:
        parts = c.split(".")
        m = ".".join(parts[:3]) if len(parts) > 3 else ".".join(parts[:-1])
        if m and (not mods or mods[-1] != m):
            mods.append(m)
    delay = sum(s.get("delay", 0.0) for s in steps)
    logic = sum(s.get("delay", 0.0) for s in steps if s.get("type") != "routing")
    crit = (f"{delay:.1f} ns ({logic:.1f} ns logic, {delay - logic:.1f} ns routing), "
            f"{sum(1 for s in steps if s.get('type') == 'logic')} logic levels: "
            f"`{cells[0] if cells else '?'}` -> `{cells[-1] if cells else '?'}`; "
            f"through {' -> '.join(mods[:12])}")

rows = [(logic_name, lc["used"], lc["available"])]
for k, name in mems:
    if k in util:
        rows.append((name, util[k]["used"], util[k]["available"]))
for k in ("ICESTORM_PLL", "EHXPLLL", "SB_IO", "TRELLIS_IO"):
    if k in util:
        rows.append((k, util[k]["used"], util[k]["available"]))

out = [f"# FPGA build: {a.board}", "",
       f"Command: `{a.command}` (nextpnr seed {a.seed}); demo `{a.demo}`; "
       f"SoC parameters: {a.soc or 'the simulation defaults'}"
       + (f"; defines: {a.defines.strip()}" if a.defines.strip() else "")
       + (f"; the board's own RTL: {a.rtl.strip()}" if a.rtl.strip() else "") + ".", "",
       "| resource | used | available | % |", "|---|---|---|---|"]
for name, u, av in rows:
    out.append(f"| {name} | {u:,} | {av:,} | {100.0 * u / av:.1f}% |")
use_ok = True
use_lines = []
if a.pack:
    use = lc_use(json.loads(Path(a.pack).read_text()))
    # every cell in one class, and every flip-flop synthesis made in a cell
    use_ok = (sum(use["classes"].values()) == use["lcs"] == lc["used"] and
              use["classes"]["logic + flip-flop"] + use["classes"]["flip-flop only"] == ffs)
    use_lines = ["", *summary_lines(use)]
out += ["", f"Synthesis (yosys `stat`): {luts:,} LUT4, {ffs:,} flip-flops, {carry:,} carry cells.",
        *use_lines, "",
        f"| clock | MHz |", "|---|---|",
        f"| board clock (constraint) | {a.clock_mhz:g} |",
        f"| achieved Fmax | {fmax:.2f} |", "",
        f"Timing at the board clock: **{'met' if timing_ok else 'NOT MET'}**.", ""]
if crit:
    out += [f"Critical path: {crit}.", ""]
# the same analysis from the SDF: it must find nextpnr's critical path; with
# DSP blocks, how much room their paths leave (fpga_sdf_sta.py)
sta_ok, sta_err = True, ""
if a.sdf:
    try:
        sta = sdf_analyse(Path(a.sdf).read_text(), str(d / "pnr.json"))
        sta_ok = sdf_agrees(sta)
        sta_err = (f"finds a {sta['all']:.3f} ns critical path, nextpnr "
                   f"{sta.get('nextpnr_critical')}")
    except (OSError, ValueError) as e:
        sta, sta_ok, sta_err = {}, False, str(e)
    if sta_ok and sta.get("dsp_blocks"):
        period = 1000.0 / a.clock_mhz
        out += [f"DSP blocks: nextpnr has no delays for the DSP block itself and times its ports "
                f"as registers with a nominal 0.1 ns clock-to-out and setup (the actor unit keeps "
                f"registers there, rtl/boards/am_dsp_ice40.v). From the routed design's SDF "
                f"(`scripts/fpga/fpga_sdf_sta.py`, which finds the same {sta['all']:.1f} ns critical "
                f"path): the longest path into a DSP input takes {sta['into_dsp']:.1f} ns, out of a "
                f"DSP output {sta['out_of_dsp']:.1f} ns"
                + (f", from one to another {sta['through_dsp']:.1f} ns" if sta.get("through_dsp") else "")
                + f". So the DSP's own setup or clock-to-out could be {sta['room']:.1f} ns longer "
                f"than 0.1 ns before a DSP path would be the critical one (the Fmax above too high), "
                f"and {period - sta['longest_dsp']:.1f} ns before one would miss "
                f"the {a.clock_mhz:g} MHz board clock.", ""]
t1, t2 = secs("synth.secs"), secs("pnr.secs")
if t1 is not None and t2 is not None:
    out += [f"Build time: synthesis {t1} s, place and route {t2} s.", ""]
(d / "report.md").write_text("\n".join(out))
# for the resource/clock table of docs/fpga.md (fpga_doc.py)
(d / "summary.json").write_text(json.dumps({
    "board": a.board, "family": a.family, "command": a.command, "seed": a.seed,
    "clock": a.clock_mhz, "fmax": round(fmax, 2), "logic": logic_name,
    "used": lc["used"], "available": lc["available"],
    "memories": {name: [util[k]["used"], util[k]["available"]] for k, name in mems if k in util},
    "timing_met": timing_ok}) + "\n")

print(f"fpga {a.board}: {lc['used']}/{lc['available']} {logic_key} ({lc_pct:.1f}%), "
      + ", ".join(f"{k} {util[k]['used']}/{util[k]['available']}" for k, _ in mems if k in util)
      + f"; Fmax {fmax:.2f} MHz at a {a.clock_mhz:g} MHz clock: timing {'met' if timing_ok else 'NOT MET'}"
      + f"; report {d / 'report.md'}")
if over:
    print(f"fpga {a.board}: FAIL over-used: {', '.join(over)}")
if not timing_ok:
    print(f"fpga {a.board}: FAIL timing: {fmax:.2f} MHz < {a.clock_mhz:g} MHz")
if not sta_ok:
    print(f"fpga {a.board}: FAIL the SDF analysis (scripts/fpga/fpga_sdf_sta.py): {sta_err}")
if not use_ok:
    print(f"fpga {a.board}: FAIL the packed netlist does not add up: {use['lcs']} cells, "
          f"{sum(use['classes'].values())} classified, {lc['used']} placed; "
          f"{use['classes']['logic + flip-flop'] + use['classes']['flip-flop only']} cells "
          f"with a flip-flop, {ffs} flip-flops synthesized")
sys.exit(0 if timing_ok and not over and use_ok and sta_ok else 1)
