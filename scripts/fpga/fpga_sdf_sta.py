#!/usr/bin/env python3
"""fpga_sdf_sta.py SDF [REPORT_JSON] -- the paths into and out of the DSP blocks.

nextpnr-ice40 times an SB_MAC16 (ICESTORM_DSP) as registers at its ports with
a nominal 0.1 ns clock-to-out and 0.1 ns setup: its chip database has no
delays for the DSP block itself (only for logic cells, RAM, SPRAM, global
buffers). The iCEBreaker keeps six of the actor unit's registers and counters
in DSP output registers (rtl/boards/am_dsp_ice40.v), so the Fmax nextpnr
prints does not contain those two delays. This script says how much room the
routed design leaves for them.

It reads the SDF nextpnr writes for the routed design (fpga.mk: BOARD/pnr.sdf,
`--sdf`; every cell's delays and setup times and every routed connection's
delay, the same numbers nextpnr's own timing analysis uses) and computes the
longest register-to-register path delay (clock-to-out + logic and routing +
setup) three ways:

  all        every path: must equal nextpnr's critical path (REPORT_JSON, its
             --report): the check that this analysis is nextpnr's
  into DSP   paths that end at a DSP input (its last 0.1 ns is the nominal
             setup)
  out of DSP paths that start at a DSP output (its first 0.1 ns is the
             nominal clock-to-out)

and prints them as JSON. room = all - max(into, out of): the DSP's own setup
or clock-to-out can take that much more than nextpnr's 0.1 ns before a DSP
path would be longer than the critical path, i.e. before the printed Fmax
would be too high. (A path that starts and ends at a DSP, if any, is counted
in both and reported as "through DSP".)

Exit status 1 if the SDF has no timing paths, or the "all" figure differs
from the report's critical path by more than 1 ps.
"""
import json
import re
import sys
from collections import defaultdict

CLOCK_PORTS = {"CLK", "RCLK", "WCLK", "CLOCK"}


def unescape(name):
    return name.replace("\\", "")


def split_pin(path):
    """'cell/port' with the SDF's '/' divider; a '/' inside a name is escaped."""
    i = len(path) - 1
    while i >= 0:
        if path[i] == "/" and (i == 0 or path[i - 1] != "\\"):
            return unescape(path[:i]), path[i + 1:]
        i -= 1
    raise ValueError(f"no divider in pin {path!r}")


def worst(triple):
    # (min:typ:max) in ps -> max in ns
    return max(float(v) for v in triple.strip("()").split(":") if v) / 1000.0


def parse(text):
    """(cell types, interconnects, comb arcs, clock-to-out, setups) from SDF text."""
    types, nets, arcs, starts, setups = {}, [], [], {}, {}
    cell = ctype = None
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("(CELLTYPE"):
            ctype = s.split('"')[1]
        elif s.startswith("(INSTANCE"):
            cell = unescape(s[len("(INSTANCE"):].rstrip(")").strip())
            types[cell] = ctype
        elif s.startswith("(INTERCONNECT"):
            f = s.split()
            src, dst = split_pin(f[1]), split_pin(f[2])
            nets.append((src, dst, worst(f[3])))
        elif s.startswith("(IOPATH"):
            f = s.split()
            a, b, d = f[1], f[2], worst(f[3])
            if a in CLOCK_PORTS:
                starts[(cell, b)] = max(d, starts.get((cell, b), 0.0))
            else:
                arcs.append(((cell, a), (cell, b), d))
        elif s.startswith("(SETUPHOLD") or s.startswith("(SETUP "):
            m = re.match(r"\((?:SETUPHOLD|SETUP) \((?:posedge|negedge) ([^)\s]+)\) \((?:posedge|negedge) "
                         r"([^)\s]+)\) (\([^)]*\))", s)
            if m:
                pin = (cell, m.group(1))
                setups[pin] = max(worst(m.group(3)), setups.get(pin, 0.0))
    return types, nets, arcs, starts, setups


def graph(nets, arcs, starts, setups):
    """The pin graph in topological order: (pins in order, successors). It
    is a DAG, every loop passing a register; a loop without one is refused."""
    succ = defaultdict(list)
    indeg = defaultdict(int)
    pins = set(starts) | set(setups)
    for a, b, d in nets + arcs:
        succ[a].append((b, d))
        indeg[b] += 1
        pins.add(a)
        pins.add(b)
    order = []
    queue = [p for p in pins if indeg[p] == 0]
    while queue:
        p = queue.pop()
        order.append(p)
        for q, _ in succ[p]:
            indeg[q] -= 1
            if indeg[q] == 0:
                queue.append(q)
    if len(order) != len(pins):
        raise ValueError(f"combinational loop: {len(pins) - len(order)} pins never became ready")
    return order, succ


def longest(g, starts, setups, start_ok, end_ok):
    """The longest start -> endpoint delay over graph g, counting only starts
    with start_ok(pin) and endpoints with end_ok(pin); None if there is no
    such path."""
    order, succ = g
    arrival = {p: starts[p] for p in starts if start_ok(p)}
    for p in order:
        if p in arrival:
            for q, d in succ[p]:
                if q not in arrival or arrival[p] + d > arrival[q]:
                    arrival[q] = arrival[p] + d
    ends = [arrival[p] + su for p, su in setups.items() if p in arrival and end_ok(p)]
    return max(ends) if ends else None


def report_critical(path):
    """nextpnr's own critical path delay for the 'clk' -> 'clk' path (ns)."""
    rep = json.loads(open(path).read())
    best = None
    for cp in rep.get("critical_paths", []):
        if cp.get("from", "").endswith("clk") and cp.get("to", "").endswith("clk"):
            t = sum(step["delay"] for step in cp["path"])
            best = t if best is None else max(best, t)
    return best


def analyse(sdf_text, report=None):
    types, nets, arcs, starts, setups = parse(sdf_text)
    g = graph(nets, arcs, starts, setups)
    is_dsp = lambda pin: types.get(pin[0]) == "ICESTORM_DSP"
    anyp = lambda pin: True
    res = {"dsp_blocks": sum(1 for t in types.values() if t == "ICESTORM_DSP")}
    res["all"] = longest(g, starts, setups, anyp, anyp)
    if res["all"] is None:
        raise ValueError("no register-to-register path in the SDF")
    if res["dsp_blocks"]:
        res["into_dsp"] = longest(g, starts, setups, anyp, is_dsp)
        res["out_of_dsp"] = longest(g, starts, setups, is_dsp, anyp)
        res["through_dsp"] = longest(g, starts, setups, is_dsp, is_dsp)
        dsp = [v for v in (res["into_dsp"], res["out_of_dsp"]) if v is not None]
        res["longest_dsp"] = max(dsp) if dsp else None
        res["room"] = res["all"] - res["longest_dsp"] if dsp else None
    if report:
        res["nextpnr_critical"] = report_critical(report)
    return res


def agrees(res):
    """The analysis found nextpnr's critical path (to the picosecond)."""
    nc = res.get("nextpnr_critical")
    return nc is not None and abs(nc - res["all"]) <= 0.001


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    try:
        res = analyse(open(argv[1]).read(), argv[2] if len(argv) == 3 else None)
    except (OSError, ValueError) as e:
        print(f"fpga_sdf_sta: {e}", file=sys.stderr)
        return 1
    print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in res.items()}))
    if len(argv) == 3 and not agrees(res):
        print(f"fpga_sdf_sta: the longest path here is {res['all']:.3f} ns, nextpnr's critical path "
              f"{res.get('nextpnr_critical')} ns: this analysis is not nextpnr's", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
