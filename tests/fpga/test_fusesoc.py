#!/usr/bin/env python3
"""test_fusesoc.py -- the FuseSoC cores (docs/fusesoc.md), with the checkout
as a library, as another SoC's build would use them (make fusesoc-test,
in make test):

  * `fusesoc --cores-root REPO core list` lists the three cores, and only them;
    so does `fusesoc core list` after `fusesoc library add actormachine REPO`
  * the actor unit's file list, generic and with each flag, is the one
    tests/rtl/rtl.mk builds (RTL_UNIT_SRCS, its DSP and MUX variants)
  * every board target's sources, top, parameters, defines, PLL setting,
    pins and synthesis / P&R device flags are fpga.mk's for that board
    (the setup stage only: no synthesis)
  * lint targets run: the unit (plain, TRACE=1, am_mux_ports) and the SoC
    (plain, am_mux_ports), verilator -Wall clean
  * the unit bench target builds tb_am_actor_unit and it prints PASS

One PASS/FAIL line per check, then "fusesoc: N passed, N failed".
Usage: .venv/bin/python tests/fpga/test_fusesoc.py [WORK_DIR]   (default build/fusesoc-test)
"""
import os
import re
import shutil
import subprocess
import sys
import filecmp

import yaml

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WORK = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "build", "fusesoc-test"))
BIN = os.path.dirname(sys.executable)
FUSESOC = os.path.join(BIN, "fusesoc")
CORES = ["actormachine:am:actor_unit:0.1.0", "actormachine:am:actor_unit_tb:0.1.0", "actormachine:am:soc:0.1.0"]
BOARDS = ["icebreaker", "hx8k", "ulx3s"]

ENV = dict(os.environ)
ENV["PATH"] = BIN + os.pathsep + ENV.get("PATH", "")   # the generator's python3: the venv's
for k in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
    ENV[k] = os.path.join(WORK, "xdg", k.split("_")[1].lower())  # no user config, cache under build/
ENV.pop("FUSESOC_CORES", None)

passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("PASS fusesoc " + what)
    else:
        failed += 1
        print("FAIL fusesoc " + what + (":\n  " + detail.strip().replace("\n", "\n  ") if detail else ""))


def fusesoc(*args, **kw):
    return subprocess.run([FUSESOC, "--cores-root", REPO] + list(args), cwd=WORK, env=ENV,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def make_vars(exprs):
    """the values of make expressions, as the top Makefile sees them"""
    rule = "am-fusesoc-print: ; @printf '%s\\001%s\\n'" + "".join(" %d '$(%s)'" % (i, e) for i, e in enumerate(exprs))
    r = subprocess.run(["make", "-s", "--no-print-directory", "--eval", rule, "am-fusesoc-print"],
                       cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=True)
    out = {}
    for line in r.stdout.splitlines():
        if "\001" in line:
            i, v = line.split("\001", 1)
            out[exprs[int(i)]] = v.strip()
    return [out[e] for e in exprs]


def setup(name, target, work, *flags):
    """the EDAM FuseSoC writes for a target (setup only, sources referenced in place)"""
    r = fusesoc("run", "--setup", "--no-export", "--work-root", work, "--target", target, *flags, name)
    if r.returncode != 0:
        return None, r.stdout
    eda = [f for f in os.listdir(work) if f.endswith(".eda.yml")]
    with open(os.path.join(work, eda[0])) as f:
        return yaml.safe_load(f), r.stdout


def repo_files(edam, work, types=("verilogSource",)):
    """the sources (include files aside: has_defs checks the generated one)"""
    out = []
    for f in edam["files"]:
        if f.get("file_type") in types and not f.get("is_include_file"):
            out.append(os.path.relpath(os.path.normpath(os.path.join(work, f["name"])), REPO))
    return out


def has_defs(edam, work):
    """the generator's am_defs.vh is an include file, equal to what
    scripts/am_iface.py writes from include/am_iface.def"""
    ref = os.path.join(WORK, "am_defs.vh")
    subprocess.run([sys.executable, os.path.join(REPO, "scripts", "am_iface.py"), "vh", ref], check=True)
    with open(ref) as h:
        want = h.read()
    for f in edam["files"]:
        if f.get("is_include_file") and os.path.basename(f["name"]) == "am_defs.vh":
            with open(os.path.join(work, f["name"])) as h:
                return h.read() == want
    return False


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)

    # the bench builds for ~15 s: started first, checked last
    bench = subprocess.Popen([FUSESOC, "--cores-root", REPO, "run", "--work-root", os.path.join(WORK, "bench"),
                              "--target", "sim", "actormachine:am:actor_unit_tb", "--seed=1"],
                             cwd=WORK, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    # ---- the library ----
    r = fusesoc("core", "list")
    listed = re.findall(r"^(\S+:\S+:\S+:\S+)\s+:", r.stdout, re.M)
    check(r.returncode == 0 and sorted(listed) == sorted(CORES),
          "core list: " + ", ".join(listed), "expected exactly " + ", ".join(CORES) + "\n" + r.stdout)
    warn = [l for l in r.stdout.splitlines() if l.startswith(("WARNING: Parse", "ERROR"))]
    check(not warn, "core list: every .core of the checkout parses", "\n".join(warn))
    # ... and with the checkout added as a library (fusesoc.conf in the directory it runs in)
    lib = os.path.join(WORK, "library")
    os.makedirs(lib)
    r1 = subprocess.run([FUSESOC, "library", "add", "actormachine", REPO], cwd=lib, env=ENV,
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    r2 = subprocess.run([FUSESOC, "core", "list"], cwd=lib, env=ENV,
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    listed = re.findall(r"^(\S+:\S+:\S+:\S+)\s+:", r2.stdout, re.M)
    check(r1.returncode == 0 and r2.returncode == 0 and sorted(listed) == sorted(CORES),
          "library add actormachine REPO; core list: the 3 cores", r1.stdout + r2.stdout)

    # ---- the unit's file list == tests/rtl/rtl.mk's ----
    unit, dsp, mux = make_vars(["RTL_UNIT_SRCS", "call rtl_variant,$(RTL_UNIT_SRCS),DSP",
                                "call rtl_variant,$(RTL_UNIT_SRCS),MUX"])
    for flag, want in (("", unit), ("am_ice40_dsp", dsp), ("am_mux_ports", mux)):
        work = os.path.join(WORK, "unit-setup-" + (flag or "generic"))
        edam, log = setup("actormachine:am:actor_unit", "lint", work, *(["--flag", flag] if flag else []))
        got = repo_files(edam, work) if edam else []
        check(edam is not None and sorted(got) == sorted(want.split()) and edam["toplevel"] == "am_actor_unit"
              and has_defs(edam, work),
              "actor_unit files%s == tests/rtl/rtl.mk's %s (%d files) + am_defs.vh of include/am_iface.def" % (
                  " --flag " + flag if flag else "", {"": "RTL_UNIT_SRCS", "am_ice40_dsp": "DSP variant",
                                                      "am_mux_ports": "MUX variant"}[flag], len(want.split())),
              log if edam is None else "core only: %s\nrtl.mk only: %s" % (
                  sorted(set(got) - set(want.split())), sorted(set(want.split()) - set(got))))

    # ---- the boards == fpga.mk's ----
    keys = ["FAMILY", "TOP", "SOC", "DEFINES", "PINS", "SYNTH", "DEV", "MHZ", "PNR", "SEED"]
    exprs = []
    for b in BOARDS:
        exprs += ["%s_%s" % (b, k) for k in keys] + ["call fpga_board_rtl,%s,rtl" % b]
    exprs += ["ulx3s_PLL_$(ulx3s_MHZ)", "FPGA_ABC9", "PICORV32_V"]
    vals = dict(zip(exprs, make_vars(exprs)))
    for b in BOARDS:
        v = {k: vals["%s_%s" % (b, k)] for k in keys}
        work = os.path.join(WORK, "board-" + b)
        edam, log = setup("actormachine:am:soc", b, work)
        if edam is None:
            check(False, b + " target set up", log)
            continue
        errs = []
        want = set(vals["call fpga_board_rtl,%s,rtl" % b].split()) | {"rtl/boards/%s.v" % v["TOP"]}
        got = [f for f in repo_files(edam, work) if not f.endswith("/picorv32.v")]
        if set(got) != want or len(got) != len(want):
            errs.append("sources: core only %s, fpga.mk only %s" % (sorted(set(got) - want), sorted(want - set(got))))
        cpu = [f for f in edam["files"] if f["name"].endswith("picorv32.v")]
        if len(cpu) != 1 or not filecmp.cmp(os.path.join(work, cpu[0]["name"]), vals["PICORV32_V"], shallow=False):
            errs.append("PicoRV32: not the pinned package's picorv32.v (%s)" % cpu)
        if edam["toplevel"] != v["TOP"]:
            errs.append("top %s, fpga.mk %s" % (edam["toplevel"], v["TOP"]))
        params = {k: p["default"] for k, p in edam["parameters"].items()
                  if p["paramtype"] == "vlogparam" and "default" in p}
        soc = dict(p.split("=", 1) for p in v["SOC"].split())
        mine = {k: str(x) for k, x in params.items() if k != "CLK_HZ" and not k.startswith("PLL_")}
        if mine != soc:
            errs.append("SoC parameters %s, fpga.mk %s" % (mine, soc))
        for k in ("BOOT_BEH", "FIRMWARE"):
            if k not in edam["parameters"]:
                errs.append("no %s parameter" % k)
        defines = {k: p["default"] for k, p in edam["parameters"].items()
                   if p["paramtype"] == "vlogdefine" and "default" in p}
        want_def = {}
        for d in v["DEFINES"].split():
            k, _, x = d[2:].partition("=")
            want_def[k] = x if x else True
        if {k: (x if x is True else str(x)) for k, x in defines.items()} != want_def:
            errs.append("defines %s, fpga.mk %s" % (defines, want_def))
        # the PLL: icepll's setting for <board>_MHZ (fpga.mk's <board>/clock), ULX3S: ulx3s_PLL_<MHz>
        if v["FAMILY"] == "ice40":
            out = subprocess.run(["icepll", "-i", "12", "-o", v["MHZ"]], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True).stdout
            pll = {"PLL_" + k: re.search(r"^%s:\s*(\d+)" % k, out, re.M).group(1)
                   for k in ("DIVR", "DIVF", "DIVQ")}
            pll["PLL_FILTER"] = re.search(r"^FILTER_RANGE:\s*(\d+)", out, re.M).group(1)
            mhz = re.search(r"F_PLLOUT:\s*([\d.]+) MHz \(achieved\)", out).group(1)
        else:
            pll = dict(p.split("=", 1) for p in vals["ulx3s_PLL_$(ulx3s_MHZ)"].split())
            mhz = v["MHZ"]
        pll["CLK_HZ"] = str(round(float(mhz) * 1e6))
        got_pll = {k: str(x) for k, x in params.items() if k == "CLK_HZ" or k.startswith("PLL_")}
        if got_pll != pll:
            errs.append("clock %s, fpga.mk/icepll %s" % (got_pll, pll))
        pins = [os.path.relpath(os.path.normpath(os.path.join(work, f["name"])), REPO)
                for f in edam["files"] if f.get("file_type") in ("PCF", "LPF")]
        if pins != [v["PINS"]]:
            errs.append("pins %s, fpga.mk %s" % (pins, v["PINS"]))
        fo = edam.get("flow_options", {})
        ys = fo.get("yosys_synth_options", [])
        want_ys = v["SYNTH"].split() + (["-abc9"] if vals["FPGA_ABC9"] == "1" else [])
        if ys != want_ys:
            errs.append("synth_%s options %s, fpga.mk %s" % (v["FAMILY"], ys, want_ys))
        pnr = fo.get("nextpnr_options", [])
        # the device, the board's own P&R options and seed (a seed that meets
        # the clock: docs/fpga.md, "Timing"), the board clock
        ok = "--freq" in pnr[:-1] and "--seed" in pnr[:-1]
        if ok:
            i, j = pnr.index("--freq"), pnr.index("--seed")
            rest = [w for k, w in enumerate(pnr) if k not in (i, i + 1, j, j + 1)]
            ok = rest == v["DEV"].split() + v["PNR"].split() and \
                float(pnr[i + 1]) == float(mhz) and pnr[j + 1] == v["SEED"]
        if not ok:
            errs.append("nextpnr options %s: want %s %s --freq %s --seed %s" % (
                pnr, v["DEV"], v["PNR"], mhz, v["SEED"]))
        check(not errs, "%s target == fpga.mk's %s: %d sources + PicoRV32, top %s, %s, %s MHz, %s" % (
            b, b, len(want), v["TOP"], v["SOC"], mhz, v["PINS"]), "\n".join(errs))

    # ---- lint ----
    for name, flags, params, what in (
            ("actormachine:am:actor_unit", [], [], "actor_unit lint (verilator -Wall)"),
            ("actormachine:am:actor_unit", [], ["--TRACE=1"], "actor_unit lint TRACE=1"),
            ("actormachine:am:actor_unit", ["--flag", "am_mux_ports"], [], "actor_unit lint --flag am_mux_ports"),
            ("actormachine:am:soc", [], [], "soc lint (verilator -Wall, PicoRV32 from the generator)"),
            ("actormachine:am:soc", ["--flag", "am_mux_ports"], [], "soc lint --flag am_mux_ports")):
        work = os.path.join(WORK, "lint-%s-%d" % (name.split(":")[2], len(os.listdir(WORK))))
        r = fusesoc("run", "--work-root", work, "--target", "lint", *flags, name, *params)
        warns = [l for l in r.stdout.splitlines() if l.startswith("%")]
        check(r.returncode == 0 and not warns, what, "\n".join(r.stdout.splitlines()[-15:]))

    # ---- the unit bench ----
    out, _ = bench.communicate()
    with open(os.path.join(WORK, "bench.log"), "w") as f:
        f.write(out)
    res = re.search(r"^PASS tb_am_actor_unit .*$", out, re.M)
    check(bench.returncode == 0 and res is not None,
          "actor_unit_tb sim seed=1: " + (res.group(0)[5:] if res else "no PASS line"),
          "exit %d; %s/bench.log:\n%s" % (bench.returncode, WORK, "\n".join(out.splitlines()[-12:])))

    print("fusesoc: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
