#!/usr/bin/env python3
"""test_ice40_opt.py -- ice40_opt.py's passes on small netlists, simulated.

Two designs:
  * cells: iCE40 primitives instantiated by hand (so that no synthesis
    reshapes them), with a LUT that only a LUT reads (absorb), one read by
    a LUT and a flip-flop (absorb, kept for the flip-flop), a LUT equal to
    another with its pins swapped and one equal to another's complement
    (merge), and a carry chain whose middle carry no LUT fits while an
    inverter has a cell of its own (host), a LUT read by two flip-flops
    (absorb, a copy), a chain fed from a pin whose first carry has a
    constant input and a cell of its own (cin), a chain fed from a
    flip-flop next to a chain whose last carry-out a two-input LUT reads
    (bridge), and a chain with carry-in 0 whose first carry has a cell of
    its own next to a LUT that reads its inputs (fill);
  * regs: synthesized as the iCEBreaker is (synth_ice40 -device u -dff
    -abc9), flip-flop-only registers of every kind the dsp pass moves and
    some it must leave (a pin's first and second stages, with a reset), and
    the iCEBreaker's am_down_counter counting 16 bits (rtl/boards/am_dsp_ice40.v:
    its top half is free).
Each pass must do what it is for (LUTs gone, flip-flops moved, one logic
cell fewer after nextpnr-ice40 --pack-only), and the netlist after it must
give the same outputs as the one before on every cycle of 2,000 random ones
(Icarus, yosys' cell models). Then broken rewrites -- a composed LUT with
one INIT bit flipped, a bridge carry with one input 0, a chain's first
cell with the wrong carry-in, a DSP hold not inverted, two DSP output bits
swapped -- must make the outputs differ, so
that the comparison is seen to catch what a wrong pass does.

Prints PASS/FAIL per check; exit 1 on a failure.
"""
import copy
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "scripts" / "fpga"))
import ice40_opt  # noqa: E402
from checks import Checks  # noqa: E402

NEXTPNR = "nextpnr-ice40 --up5k --package sg48"
CYCLES = 2000


def lut(name, fn, pins, out):
    """An SB_LUT4 instance computing fn(i0, i1, i2, i3) on `pins` (4 signals)."""
    init = 0
    for idx in range(16):
        init |= (fn(*[(idx >> k) & 1 for k in range(4)]) & 1) << idx
    con = ", ".join(f".I{k}({p})" for k, p in enumerate(pins))
    return f"  SB_LUT4 #(.LUT_INIT(16'h{init:04x})) {name} ({con}, .O({out}));\n"


def cells_design():
    v = "module t (input wire clk, input wire [7:0] a, output wire [16:0] y);\n"
    v += "  wire l1, m1, l2, m2, q2, l3, m3, l4, m4, c0, c1, c2, s1, s2, d;\n"
    # absorb: l1 only read by m1
    v += lut("u_l1", lambda x0, x1, x2, x3: x0 & x1, ["a[0]", "a[1]", "1'b0", "1'b0"], "l1")
    v += lut("u_m1", lambda x0, x1, x2, x3: x0 ^ x1, ["l1", "a[2]", "1'b0", "1'b0"], "m1")
    # absorb, kept for its flip-flop: l2 read by m2 and a flip-flop
    v += lut("u_l2", lambda x0, x1, x2, x3: x0 | x1, ["a[3]", "a[4]", "1'b0", "1'b0"], "l2")
    v += lut("u_m2", lambda x0, x1, x2, x3: x0 & ~x1, ["l2", "a[6]", "1'b0", "1'b0"], "m2")
    v += "  SB_DFF u_q2 (.C(clk), .D(l2), .Q(q2));\n"
    # merge: l3 = l1 with its pins swapped, l4 = its complement
    v += lut("u_l3", lambda x0, x1, x2, x3: x0 & x1, ["a[1]", "a[0]", "1'b0", "1'b0"], "l3")
    v += lut("u_m3", lambda x0, x1, x2, x3: x0 ^ x1 ^ x2, ["l3", "a[7]", "a[5]", "1'b0"], "m3")
    v += lut("u_l4", lambda x0, x1, x2, x3: 1 - (x0 & x1), ["a[0]", "a[1]", "1'b0", "1'b0"], "l4")
    v += lut("u_m4", lambda x0, x1, x2, x3: x0 | x1, ["l4", "a[2]", "1'b0", "1'b0"], "m4")
    # host: a chain whose middle carry no LUT fits (its sum's pins swapped)
    v += "  SB_CARRY u_c0 (.I0(a[0]), .I1(a[1]), .CI(1'b0), .CO(c0));\n"
    v += "  SB_CARRY u_c1 (.I0(a[2]), .I1(a[3]), .CI(c0), .CO(c1));\n"
    v += "  SB_CARRY u_c2 (.I0(a[4]), .I1(a[6]), .CI(c1), .CO(c2));\n"
    v += lut("u_s1", lambda x0, x1, x2, x3: x1 ^ x2 ^ x3, ["1'b0", "a[3]", "a[2]", "c0"], "s1")
    v += lut("u_s2", lambda x0, x1, x2, x3: x1 ^ x2 ^ x3, ["1'b0", "a[4]", "a[6]", "c1"], "s2")
    v += lut("u_d", lambda x0, x1, x2, x3: 1 - x0, ["a[7]", "1'b0", "1'b0", "1'b0"], "d")
    # absorb, a copy: l5 read by two flip-flops and nothing else
    v += "  wire l5, q5a, q5b, h0, h1, t1, e0, e1, z, b0, b1, bs;\n"
    v += lut("u_l5", lambda x0, x1, x2, x3: x0 ^ x1, ["a[5]", "a[6]", "1'b0", "1'b0"], "l5")
    v += "  SB_DFF u_q5a (.C(clk), .D(l5), .Q(q5a));\n  SB_DFF u_q5b (.C(clk), .D(l5), .Q(q5b));\n"
    # cin: a chain fed from a pin whose head no LUT shares, one input constant
    v += "  SB_CARRY u_h0 (.I0(1'b0), .I1(a[2]), .CI(a[7]), .CO(h0));\n"
    v += "  SB_CARRY u_h1 (.I0(a[3]), .I1(a[4]), .CI(h0), .CO(h1));\n"
    v += lut("u_t1", lambda x0, x1, x2, x3: x1 ^ x2 ^ x3, ["1'b0", "a[3]", "a[4]", "h0"], "t1")
    # bridge: a chain whose last carry-out one two-input LUT reads (z), and
    # a chain fed from a flip-flop whose head shares its sum's cell
    v += "  SB_CARRY u_e0 (.I0(a[0]), .I1(a[1]), .CI(1'b0), .CO(e0));\n"
    v += "  SB_CARRY u_e1 (.I0(a[2]), .I1(a[3]), .CI(e0), .CO(e1));\n"
    v += lut("u_z", lambda x0, x1, x2, x3: x0 ^ x3, ["a[5]", "1'b0", "1'b0", "e1"], "z")
    v += "  SB_CARRY u_b0 (.I0(a[4]), .I1(a[6]), .CI(q5a), .CO(b0));\n"
    v += lut("u_bs", lambda x0, x1, x2, x3: x1 ^ x2 ^ x3, ["1'b0", "a[4]", "a[6]", "q5a"], "bs")
    v += "  SB_CARRY u_b1 (.I0(a[7]), .I1(a[0]), .CI(b0), .CO(b1));\n"
    # fill: a chain with carry-in 0 whose first carry no LUT shares (l5
    # reads its inputs)
    v += "  wire f0, f1, fs;\n"
    v += "  SB_CARRY u_f0 (.I0(a[5]), .I1(a[6]), .CI(1'b0), .CO(f0));\n"
    v += "  SB_CARRY u_f1 (.I0(a[0]), .I1(a[7]), .CI(f0), .CO(f1));\n"
    v += lut("u_fs", lambda x0, x1, x2, x3: x1 ^ x2 ^ x3, ["1'b0", "a[0]", "a[7]", "f0"], "fs")
    v += "  assign y = {fs, b1, bs, z, t1, h1, q5b, q5a, d, s2, s1, c2, m4, m3, q2, m2, m1};\nendmodule\n"
    return v


REGS = r"""
module t (input wire clk, input wire [15:0] a, input wire [3:0] e, input wire clr,
          output wire [111:0] y);
  reg [15:0] s, s2;              // from a pin, and its second stage: stay
  reg [3:0]  eq;
  reg        clr_q;
  reg [15:0] r0, r1, r2, r3, rs;
  wire [15:0] x = s2 ^ {s2[7:0], s2[15:8]};   // a LUT with another load (y)
  wire [15:0] cnt;
  always @(posedge clk) begin
    s <= a; s2 <= s; eq <= e; clr_q <= clr;
    r0 <= s2;                             // from a flip-flop, no enable
    if (eq[1]) r1 <= x;                   // from a LUT with other loads
    if (eq[2] & eq[3]) r2 <= {s2[3:0], s2[15:4]};  // enable from a LUT
    if (eq[3]) r3 <= r2;
    if (clr_q) rs <= 16'd0; else rs <= s2;   // a reset: stays a flip-flop
  end
  assign y = {cnt, rs, x, r3, r2, r1, r0};
  am_down_counter #(.W(16)) u_cnt (.clk_i(clk), .rst_ni(1'b1), .load_i(eq[0]), .dec_i(eq[1]), .d_i(s2), .q_o(cnt));
endmodule
"""

BENCH = r"""
module tb;
  reg clk = 0;
  reg [15:0] a = 0; reg [3:0] e = 0; reg clr = 0;
  wire [111:0] o_ref, o_opt;
  t_ref u_ref (.clk(clk), .a(a[AW-1:0]), `EXTRA .y(o_ref[YW-1:0]));
  t_opt u_opt (.clk(clk), .a(a[AW-1:0]), `EXTRA .y(o_opt[YW-1:0]));
  integer i, bad = 0, seed = 7;
  initial begin
    for (i = 0; i < CYCLES; i = i + 1) begin
      #5 clk = 1;
      #1 if (i > 4 && o_ref[YW-1:0] !== o_opt[YW-1:0]) begin
        if (bad < 3) $display("cycle %0d: %h != %h", i, o_ref[YW-1:0], o_opt[YW-1:0]);
        bad = bad + 1;
      end
      #4 clk = 0;
      a = $random(seed); e = $random(seed); clr = ($random(seed) & 7) == 0;
    end
    $display("mismatches %0d", bad);
    $finish;
  end
endmodule
"""


def cells_sim():
    """yosys' iCE40 cell models (where fpga.mk's ICE40_CELLS finds them)"""
    dat = "/usr/share/yosys"
    if shutil.which("yosys-config"):
        dat = subprocess.run(["yosys-config", "--datdir"], capture_output=True, text=True).stdout.strip()
    return Path(dat) / "ice40" / "cells_sim.v"


def to_verilog(tmp, design, name):
    js = tmp / f"{name}.json"
    js.write_text(json.dumps(design))
    subprocess.run(["yosys", "-q", "-p", f"read_json {js}; rename t {name}; write_verilog -noattr "
                    f"{tmp / name}.v"], check=True)
    return tmp / f"{name}.v"


def simulate(tmp, ref, opt, kind):
    """Mismatching cycles of the two netlists (-1: no result)."""
    aw, yw, extra = (8, 17, "") if kind == "cells" else (16, 112, ".e(e), .clr(clr),")
    (tmp / "tb.v").write_text(BENCH.replace("AW", str(aw)).replace("YW", str(yw))
                              .replace("`EXTRA", extra).replace("CYCLES", str(CYCLES)))
    ref_v, opt_v = to_verilog(tmp, ref, "t_ref"), to_verilog(tmp, opt, "t_opt")
    vvp = tmp / "tb.vvp"
    r = subprocess.run(["iverilog", "-g2012", "-DNO_ICE40_DEFAULT_ASSIGNMENTS", "-o", str(vvp), "-s",
                        "tb", str(tmp / "tb.v"), str(ref_v), str(opt_v), str(cells_sim())],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stderr[-1000:])
        return -1
    out = subprocess.run(["vvp", "-n", str(vvp)], capture_output=True, text=True).stdout
    line = [ln for ln in out.splitlines() if ln.startswith("mismatches")]
    return int(line[0].split()[1]) if line else -1


def read(tmp, verilog, synth):
    (tmp / "t.v").write_text(verilog)
    dsp_v = ROOT / "rtl/boards/am_dsp_ice40.v"
    if synth:
        script = f"read_verilog {tmp / 't.v'} {dsp_v}; synth_ice40 -device u -dff -abc9 -top t"
    else:   # the primitives as black boxes: only their ports
        (tmp / "prims.v").write_text(
            "(* blackbox *) module SB_LUT4 (input I0, I1, I2, I3, output O);\n"
            "parameter [15:0] LUT_INIT = 0;\nendmodule\n"
            "(* blackbox *) module SB_CARRY (input I0, I1, CI, output CO);\nendmodule\n"
            "(* blackbox *) module SB_DFF (input C, D, output Q);\nendmodule\n")
        script = f"read_verilog -lib {tmp / 'prims.v'}; read_verilog {tmp / 't.v'}; hierarchy -top t"
    subprocess.run(["yosys", "-q", "-p", f"{script}; write_json {tmp / 'raw.json'}"], check=True)
    return json.loads((tmp / "raw.json").read_text())


def cell_names(design):
    return set(ice40_opt.Netlist(design).cells)


def main():
    check = Checks("test_ice40_opt")

    quiet = lambda *_: None   # noqa: E731
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        raw = read(tmp, cells_design(), synth=False)
        names = cell_names(raw)

        opt = copy.deepcopy(raw)
        n = ice40_opt.absorb(opt, quiet)
        gone = names - cell_names(opt)
        copies = {c for c in cell_names(opt) - names if c.startswith("u_l5$ice40_opt$copy")}
        check(n == 5 and gone == {"u_l1", "u_l3", "u_l4"} and "u_l2" in cell_names(opt)
              and len(copies) == 1,
              f"absorb: l1, l3 and l4 into their loads, l2 into its load and kept for its "
              f"flip-flop, l5 copied for its second flip-flop ({n}; gone: {sorted(gone)}; "
              f"copies: {sorted(copies)})")
        before, _ = ice40_opt.nextpnr_pack(raw, NEXTPNR)
        after, _ = ice40_opt.nextpnr_pack(opt, NEXTPNR)
        # l1, l3, l4 gone; l2 and l5 (and l5's copy) share their flip-flops' cells
        check(after == before - 5, f"absorb: 5 logic cells fewer ({before} -> {after} LCs)")
        bad = simulate(tmp, raw, opt, "cells")
        check(bad == 0, f"absorb: the same outputs on every cycle ({bad} mismatches)")
        broken = copy.deepcopy(opt)
        bn = ice40_opt.Netlist(broken)
        m1 = bn.cells["u_m1"]
        # flip the bit of a reachable row of the composed LUT: a[0] = a[1] = 1
        # (l1's inputs), every other input 0
        bit = {b: k for k, b in enumerate(bn.mod["ports"]["a"]["bits"])}
        idx = sum((1 if bit.get(m1["connections"][p][0]) in (0, 1) else 0) << k
                  for k, p in enumerate(ice40_opt.PINS))
        init = m1["parameters"]["LUT_INIT"]
        m1["parameters"]["LUT_INIT"] = "".join(("1" if c == "0" else "0") if 15 - i == idx else c
                                               for i, c in enumerate(init))
        bad = simulate(tmp, raw, broken, "cells")
        check(bad > 0, f"absorb: a composed LUT with one INIT bit flipped is caught ({bad} mismatches)")

        opt = copy.deepcopy(raw)
        n = ice40_opt.merge(opt, quiet)
        gone = names - cell_names(opt)
        check(n == 2 and len(gone) == 2 and gone <= {"u_l1", "u_l3", "u_l4"},
              f"merge: of l1, its pin-swapped copy l3 and its complement l4, one stays ({n}; gone: "
              f"{sorted(gone)})")
        bad = simulate(tmp, raw, opt, "cells")
        check(bad == 0, f"merge: the same outputs on every cycle ({bad} mismatches)")

        opt = copy.deepcopy(raw)
        saved = ice40_opt.host(opt, NEXTPNR, quiet)
        after, _ = ice40_opt.nextpnr_pack(opt, NEXTPNR)
        check(saved == 1 and after == before - 1,
              f"host: the lone middle carry into the inverter's cell ({before} -> {after} LCs)")
        bad = simulate(tmp, raw, opt, "cells")
        check(bad == 0, f"host: the same outputs on every cycle ({bad} mismatches)")

        opt = copy.deepcopy(raw)
        saved = ice40_opt.cin(opt, NEXTPNR, quiet)
        after, _ = ice40_opt.nextpnr_pack(opt, NEXTPNR)
        h0 = ice40_opt.Netlist(opt).cells["u_h0"]["connections"]
        check(saved == 1 and after == before - 1 and h0["CI"] == ["0"],
              f"cin: the pin-fed chain's head takes its constant 0 as carry-in, no feed-in cell "
              f"({before} -> {after} LCs; carry-in {h0['CI'][0]})")
        bad = simulate(tmp, raw, opt, "cells")
        check(bad == 0, f"cin: the same outputs on every cycle ({bad} mismatches)")

        opt = copy.deepcopy(raw)
        saved = ice40_opt.bridge(opt, NEXTPNR, log=quiet)
        after, _ = ice40_opt.nextpnr_pack(opt, NEXTPNR)
        on = ice40_opt.Netlist(opt)
        bridges = [n for n in on.cells if n.startswith("$ice40_opt$bridge")]
        fed = bridges and on.cells["u_b0"]["connections"]["CI"] == on.cells[bridges[0]]["connections"]["CO"]
        check(saved == 1 and after == before - 1 and len(bridges) == 1 and fed,
              f"bridge: the flip-flop-fed chain continues the chain z reads, in z's cell "
              f"({before} -> {after} LCs; {len(bridges)} bridge carries)")
        bad = simulate(tmp, raw, opt, "cells")
        check(bad == 0, f"bridge: the same outputs on every cycle ({bad} mismatches)")
        if bridges:
            on.cells[bridges[0]]["connections"]["I1"] = ["0"]   # maj(x, 0, co) != x
            bad = simulate(tmp, raw, opt, "cells")
            check(bad > 0, f"bridge: a bridge carry with one input 0 is caught ({bad} mismatches)")

        opt = copy.deepcopy(raw)
        saved = ice40_opt.fill(opt, NEXTPNR, log=quiet)
        after, _ = ice40_opt.nextpnr_pack(opt, NEXTPNR)
        on = ice40_opt.Netlist(opt)
        lcs = {n: c for n, c in on.cells.items() if c["type"] == "ICESTORM_LC"}
        couts = {c["connections"]["COUT"][0]: n for n, c in lcs.items()}
        f1 = couts.get(on.cells["u_f1"]["connections"]["CI"][0])
        h0 = couts.get(on.cells["u_h0"]["connections"]["CI"][0])
        # f0 (carry-in 0) goes into one cell with l5, which reads its inputs;
        # h0's feed-in (fed from a pin) with d, which reads the pin; c0 and
        # e0 have the same inputs, so nextpnr would put either carry into a
        # cell made for the other: they stay. nextpnr packs the cells as they
        # are (nextpnr_lc.py unconnects their unused pins: else each gets a
        # feed-in cell again)
        check(saved == 2 and after == before - 2 and len(lcs) == 2 and f1 and h0
              and "u_f0" not in on.cells and {"u_c0", "u_e0"} <= set(on.cells),
              f"fill: LUTs into the first cells of the chains f0 (carry-in 0) and h0 (fed from a "
              f"pin); not c0, e0 ({before} -> {after} LCs; {len(lcs)} cells packed here)")
        bad = simulate(tmp, raw, opt, "cells")
        check(bad == 0, f"fill: the same outputs on every cycle ({bad} mismatches)")
        if f1:
            lcs[f1]["parameters"]["CIN_SET"] = "1"   # maj(a5, a6, 1) != maj(a5, a6, 0)
            bad = simulate(tmp, raw, opt, "cells")
            check(bad > 0, f"fill: f0's cell with carry-in 1 instead of 0 is caught ({bad} mismatches)")

        # dsp, on a synthesized design
        raw = read(tmp, REGS, synth=True)
        for n_dsp, whole, what in ((1, ["y"], "the free top half of am_down_counter's block"),
                                   (8, ["y"], "new blocks and the free top half")):
            opt = copy.deepcopy(raw)
            log = []
            moved = ice40_opt.dsp(opt, n_dsp, log.append)
            regs = {}
            for line in log[:-1]:
                for part in line.rsplit(": ", 1)[1].split(", "):
                    name, k = part.rsplit(" (", 1)
                    regs[name] = regs.get(name, 0) + int(k.rstrip(")"))
            # r0..r3 are y[63:0]: the flip-flops named after y; s, s2, eq,
            # clr_q (a pin's first and second stages) and rs (a reset) must not
            # move
            ok = moved == sum(regs.values()) and set(regs) <= {"y"} and \
                (moved == 16 if n_dsp == 1 else moved >= 48)
            check(ok, f"dsp --dsp {n_dsp}: {moved} flip-flops into {what} "
                  f"({', '.join(f'{r} {k}' for r, k in sorted(regs.items()))}; the pin-fed and "
                  f"reset registers stay)")
            bad = simulate(tmp, raw, opt, "regs")
            check(bad == 0, f"dsp --dsp {n_dsp}: the same outputs on every cycle ({bad} mismatches)")
        opt_cells = ice40_opt.Netlist(opt).cells
        broken = copy.deepcopy(opt)
        bcells = ice40_opt.Netlist(broken).cells
        for n, c in bcells.items():
            if n.startswith("$ice40_opt$hold"):
                c["parameters"]["LUT_INIT"] = "1010101010101010"   # hold = enable
        bad = simulate(tmp, raw, broken, "regs")
        check(any(n.startswith("$ice40_opt$hold") for n in opt_cells) and bad > 0,
              f"dsp: a hold not inverted is caught ({bad} mismatches)")
        broken = copy.deepcopy(opt)
        o = ice40_opt.Netlist(broken).cells["$ice40_opt$dsp0"]["connections"]["O"]
        o[16], o[17] = o[17], o[16]
        bad = simulate(tmp, raw, broken, "regs")
        check(bad > 0, f"dsp: two output bits swapped are caught ({bad} mismatches)")
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
