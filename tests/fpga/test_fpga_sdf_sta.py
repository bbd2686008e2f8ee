#!/usr/bin/env python3
"""test_fpga_sdf_sta.py -- fpga_sdf_sta.py on small SDF files with known answers.

The builds check fpga_sdf_sta.py's longest path against nextpnr's critical
path; that says nothing about which paths it counts as "into" or "out of" a
DSP block. Here a hand-made routed design (the SDF nextpnr-ice40 writes:
INTERCONNECT, IOPATH, SETUPHOLD) has paths whose lengths are known:

  ff_a (clk-to-q 1.0) -> 2.0 -> lut (0.5) -> 1.0 -> ff_b.I0 (setup 0.3)   = 4.8
  ff_a                -> 1.5 -> dsp.C_0 (setup 0.1)                       = 2.6
  dsp.O_0 (clk-to-out 0.1) -> 3.0 -> lut.I1 (0.5) -> 1.0 -> ff_b.I0 (0.3)  = 4.9
  dsp.O_1 (0.1) -> 0.7 -> dsp.D_3 (setup 0.1)                             = 0.9
  a carry: ff_a -> 0.2 -> carry.I1 -> COUT (0.4) -> 0.0 -> ff_c.CIN (setup 0.2) = 1.8

so all = 4.9, into DSP = 2.6, out of DSP = 4.9, through DSP = 0.9, room = 0.
Prints PASS/FAIL per check; exit 1 on a failure.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "fpga"))
from fpga_sdf_sta import analyse, split_pin  # noqa: E402


def cell(ctype, name, paths=(), checks=()):
    lines = [f'  (CELL', f'    (CELLTYPE "{ctype}")', f'    (INSTANCE {name})',
             '    (DELAY', '      (ABSOLUTE']
    for a, b, ps in paths:
        lines.append(f'        (IOPATH {a} {b} ({ps}:{ps}:{ps}) ({ps}:{ps}:{ps}))')
    lines += ['      )', '    )']
    if checks:
        lines.append('    (TIMINGCHECK')
        for port, ps in checks:
            for edge in ("posedge", "negedge"):
                lines.append(f'      (SETUPHOLD ({edge} {port}) (posedge CLK) ({ps}:{ps}:{ps}) (0:0:0))')
        lines.append('    )')
    lines.append('    )')
    return "\n".join(lines)


def net(src, dst, ps):
    return f'        (INTERCONNECT {src} {dst} ({ps}:{ps}:{ps}) ({ps}:{ps}:{ps}))'


def design(extra_nets=()):
    nets = [net("ff_a/O", "lut/I0", 2000), net("lut/O", "ff_b/I0", 1000),
            net("ff_a/O", "dsp\\$x/C_0", 1500), net("dsp\\$x/O_0", "lut/I1", 3000),
            net("dsp\\$x/O_1", "dsp\\$x/D_3", 700), net("ff_a/O", "carry/I1", 200),
            net("carry/COUT", "ff_c/CIN", 0), *extra_nets]
    top = ['  (CELL', '    (CELLTYPE "top")', '    (INSTANCE )', '    (DELAY', '      (ABSOLUTE',
           *nets, '      )', '    )', '    )']
    cells = [
        cell("ICESTORM_LC", "ff_a", [("CLK", "O", 1000)]),
        cell("ICESTORM_LC", "lut", [("I0", "O", 500), ("I1", "O", 500)]),
        cell("ICESTORM_LC", "ff_b", [("CLK", "O", 1000)], [("I0", 300)]),
        cell("ICESTORM_LC", "carry", [("I1", "COUT", 400)]),
        cell("ICESTORM_LC", "ff_c", [("CLK", "O", 1000)], [("CIN", 200)]),
        cell("ICESTORM_DSP", "dsp\\$x", [("CLK", "O_0", 100), ("CLK", "O_1", 100)],
             [("C_0", 100), ("D_3", 100)]),
    ]
    return "\n".join(['(DELAYFILE', '  (SDFVERSION "3.0")', '  (DIVIDER /)', '  (TIMESCALE 1ps)',
                      *top, *cells, ')'])


def main():
    fails = checks = 0

    def check(what, got, want):
        nonlocal fails, checks
        ok = (got is None and want is None) or (got is not None and want is not None
                                                and abs(got - want) < 1e-9)
        print(f"{'PASS' if ok else 'FAIL'} fpga_sdf_sta {what}: "
              f"{'-' if got is None else round(got, 3)} (want {want})")
        fails += not ok
        checks += 1

    r = analyse(design())
    check("DSP blocks", r["dsp_blocks"], 1)
    check("all paths", r["all"], 4.9)
    check("into a DSP", r["into_dsp"], 2.6)
    check("out of a DSP", r["out_of_dsp"], 4.9)
    check("DSP to DSP", r["through_dsp"], 0.9)
    check("room", r["room"], 0.0)
    # a longer path that does not touch the DSP leaves room for it
    r = analyse(design([net("ff_a/O", "ff_b/I0", 9000)]))
    check("all paths, with a 10.3 ns path", r["all"], 10.3)
    check("room, with a 10.3 ns path", r["room"], 10.3 - 4.9)
    # an escaped divider stays in the cell's name
    check("escaped '/' in a name", float(split_pin("a\\/b/I0") == ("a/b", "I0")), 1.0)
    # a loop without a register is refused, not measured
    try:
        analyse(design([net("lut/O", "lut/I1", 100)]))
        check("combinational loop refused", 0.0, 1.0)
    except ValueError:
        check("combinational loop refused", 1.0, 1.0)
    print(f"fpga_sdf_sta: {checks - fails} passed, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
