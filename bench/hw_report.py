#!/usr/bin/env python3
"""hw_report.py -- the hardware figures of the benchmark suite.

  hw_report.py BENCH_DIR [FPGA_DIR]
      BENCH_DIR/hw.tsv + hw-meta.txt (written by bench/hw.sh) -> BENCH_DIR/hw.md
  hw_report.py --doc HW_MD DOC
      paste HW_MD (headings demoted two levels) into DOC between the lines
      <!-- bench-hw:begin --> and <!-- bench-hw:end --> (`make bench-doc`)

Board clocks: the measured Fmax of each FPGA build, read from
FPGA_DIR/BOARD/report.* (nextpnr's --report JSON, {"fmax": {clock:
{"achieved": MHz}}}; or a text/log with nextpnr's "Max frequency for clock
'...': X MHz" lines, the last of each clock; or a line "fmax: X MHz"; or
fpga.mk's report.md table row "| achieved Fmax | X |"); the
slowest clock of a build counts. A board without a report is shown at its
target clock, marked as such. Standard library only."""
import glob
import json
import os
import re
import sys

# (key, name, device, target clock MHz, substrings of a build directory name)
BOARDS = [
    ("icebreaker", "iCEBreaker", "iCE40 UP5K", 24.0, ("icebreaker", "up5k")),
    ("hx8k", "iCE40-HX8K", "iCE40 HX8K", 50.0, ("hx8k",)),
    ("ulx3s", "ULX3S", "ECP5", 60.0, ("ulx3s", "ecp5")),
]

PROGRAMS = {
    # program: (title, what the run does)
    "selfloop": ("selfloop (minimal dispatch)", "one actor sends itself a message, 1,000 times"),
    "bench-pingpong": ("PingPong", "1,500 round trips (3,000 messages)"),
    "bench-ring": ("ThreadRing", "100 actors, 3,050 token hops"),
    "bench-counting": ("Counting", "3,000 increments (7 per producer transaction)"),
    "bench-fjcreate": ("Fork-Join (actor creation)", "100 workers, 4 created per transaction"),
    "bench-fib": ("Fibonacci (actor per call)", "fib(9): 109 actors, 218 messages"),
    "bench-big": ("Big (many-to-many pings)", "32 nodes x 50 pings, neighbours i+1..i+5"),
    "bench-bank": ("Bank (serialized accounts)", "6 accounts, 600 transfers, 3 at a time"),
}

BEGIN, END = "<!-- bench-hw:begin -->", "<!-- bench-hw:end -->"


def fmax_of(path):
    """The slowest clock's achieved frequency (MHz) in one report, or None."""
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        vals = []
        fm = data.get("fmax")
        if isinstance(fm, dict):
            for v in fm.values():
                if isinstance(v, dict) and isinstance(v.get("achieved"), (int, float)):
                    vals.append(float(v["achieved"]))
                elif isinstance(v, (int, float)):
                    vals.append(float(v))
        elif isinstance(fm, (int, float)):
            vals.append(float(fm))
        for k in ("fmax_mhz", "fmax_MHz", "Fmax_MHz"):
            if isinstance(data.get(k), (int, float)):
                vals.append(float(data[k]))
        return min(vals) if vals else None
    last = {}
    for m in re.finditer(r"Max frequency for clock\s+'?([^':]*)'?\s*:\s*([0-9.]+)\s*MHz", text):
        last[m.group(1)] = float(m.group(2))
    if last:
        return min(last.values())
    m = re.findall(r"(?im)^\W*fmax\W*[:=]\s*([0-9.]+)\s*MHz", text)
    if m:
        return float(m[-1])
    # fpga.mk's report.md: "| achieved Fmax | 20.76 |"
    m = re.findall(r"(?im)^\|\s*achieved Fmax\s*\|\s*([0-9.]+)\s*\|", text)
    return float(m[-1]) if m else None


def board_clocks(fpga_dir):
    """[(name, device, MHz, measured?, source)] in BOARDS order, then others."""
    found = {}
    for path in sorted(glob.glob(os.path.join(fpga_dir, "*", "report.*"))):
        f = fmax_of(path)
        if f is None or f <= 0:
            continue
        d = os.path.basename(os.path.dirname(path)).lower()
        key = next((b[0] for b in BOARDS if any(s in d for s in b[4])), d)
        if key not in found or f < found[key][0]:
            found[key] = (f, path)
    out = []
    for key, name, dev, target, _ in BOARDS:
        if key in found:
            out.append((name, dev, found[key][0], True, found[key][1]))
        else:
            out.append((name, dev, target, False, None))
    for key, (f, path) in sorted(found.items()):
        if key not in [b[0] for b in BOARDS]:
            out.append((key, "?", f, True, path))
    return out


def fnum(x, nd=1):
    return f"{x:,.{nd}f}"


def rate(x):
    """dispatches per second, compact"""
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    return f"{x / 1e3:,.0f} k"


def write_report(d, fpga_dir):
    meta = {}
    mp = os.path.join(d, "hw-meta.txt")
    if os.path.exists(mp):
        for line in open(mp):
            k, _, v = line.rstrip("\n").partition(": ")
            meta[k] = v
    rows, failed = [], []
    with open(os.path.join(d, "hw.tsv")) as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(head, line.rstrip("\n").split("\t")))
            if r.get("result", "").startswith("FAILED"):
                failed.append(r)
            else:
                rows.append(r)
    boards = board_clocks(fpga_dir)
    measured = any(b[3] for b in boards)

    out = []
    w = out.append
    w("# actormachine benchmarks — hardware (Verilator SoC)")
    w("")
    w(f"Generated by `make bench-hw` (bench/hw.sh) on {meta.get('date', '?')}, "
      f"commit {meta.get('commit', '?')}.")
    w("")
    w("* machine: the SoC of `rtl/am_soc.v` with its default parameters (PicoRV32 "
      "rv32im with MUL/DIV, actor table 128 slots, queue 63 events, 64 KiB RAM), "
      f"simulated by {meta.get('verilator', 'Verilator')}; firmware "
      f"{meta.get('firmware', '?')} (`build/programs/bench/workloads/fw/fw.elf`, -O2)")
    w("* every transaction checked in lockstep against the reference runtime: "
      "0 divergences, 0 aborts; each program checked its own answer on the machine")
    w("* cycles and dispatches: the actor unit's counters (CYCLES, DISPATCHES) at "
      "the end of the run — boot, set-up, the workload, the check and its console "
      "line included; the phases: mean cycles per dispatch from the trace port "
      "(docs/performance.md, \"Hardware\")")
    w("")
    w("## Cycles per dispatch")
    w("")
    w("| workload | run | dispatches | cycles | cycles/dispatch | dispatch | behavior | staging | commit |")
    w("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        title, what = PROGRAMS.get(r["program"], (r["program"], ""))
        cyc, disp = int(r["cycles"]), int(r["dispatches"])
        w(f"| {title} | {what} | {disp:,} | {cyc:,} | **{fnum(cyc / disp)}** | "
          f"{r['ph_dispatch']} | {r['ph_behavior']} | {r['ph_staging']} | {r['ph_commit']} |")
    for r in failed:
        title, what = PROGRAMS.get(r["program"], (r["program"], ""))
        w(f"| {title} | {what} | {r['result']} | | | | | | |")
    w("")
    w("## Dispatches per second at the boards' clocks")
    w("")
    hdr, sep = "| workload |", "|---|"
    for name, dev, mhz, meas, _ in boards:
        hdr += f" {name} ({dev}) @ {mhz:g} MHz{'' if meas else ' *'} |"
        sep += "---:|"
    w(hdr)
    w(sep)
    for r in rows:
        title, _ = PROGRAMS.get(r["program"], (r["program"], ""))
        cpd = int(r["cycles"]) / int(r["dispatches"])
        w(f"| {title} | " + " | ".join(rate(mhz * 1e6 / cpd) for _, _, mhz, _, _ in boards) + " |")
    w("")
    notes = []
    for name, dev, mhz, meas, src in boards:
        if meas:
            notes.append(f"{name}: {mhz:g} MHz = measured Fmax (`{src}`)")
        else:
            notes.append(f"{name}: **{mhz:g} MHz = target clock, not measured Fmax** "
                         "(no FPGA report found)")
    w("Clocks — " + "; ".join(notes) + ".")
    if not all(b[3] for b in boards):
        w("")
        w("\\* at target clock, not measured Fmax.")
    w("")
    gp = os.path.join(d, "gc.tsv")
    if os.path.exists(gp):
        with open(gp) as f:
            head = f.readline().rstrip("\n").split("\t")
            grows = [dict(zip(head, line.rstrip("\n").split("\t"))) for line in f]
        w("## Garbage collection")
        w("")
        w("The collector (docs/gc.md) on workloads that make garbage all the time "
          "(tests/programs/prog_gc.c), with the hardware's reset settings (GC_LOW 4, "
          "GC_PERIOD 1024) and the 128-slot table. GC cycles, runs, the longest pause "
          "and the most live actors right after a collection are the unit's GC "
          "counters; overhead = GC cycles / the other cycles of the run.")
        w("")
        w("| workload | size | cycles per unit | GC cycles per unit | GC overhead | "
          "collections | reclaimed | longest pause (cycles) | live after GC, max |")
        w("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in grows:
            if r.get("result") != "ok":
                w(f"| {r['program']} | {r['arg']} | FAILED | | | | | | |")
                failed.append(r)
                continue
            n, cyc, g = int(r["arg"]), int(r["cycles"]), int(r["gc_cycles"])
            unit = r["units"].rstrip("s")
            w(f"| {r['program']} | {n:,} {r['units']} | {fnum(cyc / n)} per {unit} | "
              f"{fnum(g / n)} | **{100 * g / (cyc - g):.2f}%** | {int(r['gc_runs']):,} | "
              f"{int(r['gc_reclaimed']):,} | {int(r['gc_max_pause']):,} | {r['gc_live_max']} |")
        w("")
    w("Dispatches per second = clock / (cycles per dispatch), with the cycles of the "
      "simulated SoC configuration. A board build with other parameters (fewer "
      "table slots, no MUL/DIV on the iCE40s) runs the same firmware in more "
      "cycles where behaviors multiply or divide (the LCGs and `%` of Big and "
      "Bank, Fork-Join's hash, the console's decimal printing).")
    w("")
    with open(os.path.join(d, "hw.md"), "w") as f:
        f.write("\n".join(out))
    if not measured:
        print("bench-hw: no FPGA report with an Fmax in "
              f"{fpga_dir}/*/report.*: dispatches/s at the boards' target clocks")
    return 1 if failed else 0


def paste_doc(hw_md, doc):
    lines = open(hw_md).read().splitlines()
    body = []
    for line in lines[1:]:                      # drop the title
        if "docs/performance.md" in line:       # the doc is that page
            line = line.replace(' (docs/performance.md, "Hardware")', "")
        body.append("##" + line if line.startswith("#") else line)
    text = open(doc).read()
    i, j = text.find(BEGIN), text.find(END)
    if i < 0 or j < i:
        sys.exit(f"hw_report: markers {BEGIN} / {END} not found in {doc}")
    new = text[: i + len(BEGIN)] + "\n" + "\n".join(body).strip("\n") + "\n" + text[j:]
    open(doc, "w").write(new)
    print(f"hw_report: {doc} now shows the tables of {hw_md}")
    return 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--doc":
        return paste_doc(sys.argv[2], sys.argv[3])
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    return write_report(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else "build/fpga")


if __name__ == "__main__":
    sys.exit(main())
