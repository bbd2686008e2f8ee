#!/usr/bin/env python3
"""fpga_lc_use.py PACK_JSON -- what an iCE40 design's logic cells hold.

Reads the netlist nextpnr-ice40 writes after packing (`--pack-only --write
PACK_JSON`; fpga.mk makes BOARD/pack.json for `make ice40`) and sorts every
logic cell (ICESTORM_LC: one LUT4, one flip-flop, one carry) into one class:

  logic + flip-flop   the LUT computes the flip-flop's input
  logic only          a LUT without a flip-flop
  flip-flop only      the LUT only passes the flip-flop's input through: the
                      input is not a LUT the flip-flop could share a cell
                      with (another flip-flop's output, a LUT with other
                      loads, a RAM output, a pin)
  carry only          only the carry chain (the LUT and flip-flop unused)

For the flip-flop-only cells it also says where their inputs come from, how
many each block of the design holds (by the flip-flop's name in the
hierarchy: board.soc.au.u_gc... is the collector) and the registers with the
most of them. fpga_report.py puts this in the iCE40 boards' report.md; the
classes must add up to the design's LC count (checked there and here).
"""
import json
import re
import sys

# hierarchy prefix -> block (longest prefix wins; docs/fpga.md's block names)
BLOCKS = [
    ("board.soc.cpu", "PicoRV32"),
    ("board.soc.au.u_gc", "collector"),
    ("board.soc.au.u_dispatch", "dispatcher"),
    ("board.soc.au.u_table", "actor table"),
    ("board.soc.au.u_queue", "event queue"),
    ("board.soc.au.u_txn", "transaction staging"),
    ("board.soc.au.u_bus", "unit bus"),
    ("board.soc.au.u_regs", "unit registers"),
    ("board.soc.au.u_ext", "unit operations"),
    ("board.soc.au.u_wdog", "watchdog"),
    ("board.soc.au.u_fault", "fault registers"),
    ("board.soc.au.u_gctrig", "collector trigger"),
    ("board.soc.au.u_stats", "statistics"),
    ("board.soc.au", "actor unit top"),
    ("board.soc.uart", "UART"),
    ("board.soc.ram", "RAM glue"),
    ("board.soc", "SoC"),
    ("board.rst", "board reset"),
    ("board", "board wrapper"),
]
PASS_INIT = 2   # LUT_INIT of nextpnr's pass-through LUT: O = I0 (I1..I3 unused, 0)


def block_of(name):
    for prefix, block in BLOCKS:
        if name == prefix or name.startswith(prefix + "."):
            return block
    return "top level"


# nextpnr names a flip-flop's own cell after the flip-flop, which yosys named
# after its register: board.soc.au.gc_period_q_SB_DFFESR_Q_11_DFFLC
FF_CELL = re.compile(r"^(.*?)_SB_DFF\w*?_Q(?:_\d+)?_DFFLC$")


def register_of(cname, con, names):
    """The register a flip-flop-only cell holds a bit of: from the cell's name,
    else from the public name of its output net."""
    m = FF_CELL.match(cname)
    if m:
        return m.group(1)
    q = names.get(con["O"][0], ("?", 1))[0] if con.get("O") else "?"
    return re.sub(r"\[\d+\]$", "", q)


def lc_use(design):
    """The classes of a packed nextpnr-ice40 netlist (parsed JSON): a dict with
    'lcs', 'classes' (class -> count), 'ff_only_from' (input kind -> count),
    'ff_only_blocks' and 'ff_only_regs' (name -> count)."""
    mods = design.get("modules", {})
    if len(mods) != 1:
        raise ValueError(f"expected one (flattened, packed) module, found {len(mods)}")
    mod = next(iter(mods.values()))
    cells = mod.get("cells", {})
    # a public name per net bit (the flip-flop's output names its register)
    names = {}
    for net, info in mod.get("netnames", {}).items():
        hidden = info.get("hide_name", 0)
        for i, bit in enumerate(info.get("bits", [])):
            if isinstance(bit, int) and (bit not in names or (names[bit][1] and not hidden)):
                names[bit] = (net if len(info["bits"]) == 1 else f"{net}[{i}]", hidden)
    driver = {}
    loads = {}
    for cname, c in cells.items():
        for port, bits in c.get("connections", {}).items():
            out = c.get("port_directions", {}).get(port) == "output"
            for b in bits:
                if not isinstance(b, int):
                    continue
                if out:
                    driver[b] = cname
                else:
                    loads[b] = loads.get(b, 0) + 1
    classes = {"logic + flip-flop": 0, "logic only": 0, "flip-flop only": 0, "carry only": 0}
    src, blocks, regs = {}, {}, {}
    lcs = 0
    for cname, c in cells.items():
        if c.get("type") != "ICESTORM_LC":
            continue
        lcs += 1
        p, con = c.get("parameters", {}), c.get("connections", {})
        ff = str(p.get("DFF_ENABLE", "0")) == "1"
        ins = [q for q in ("I0", "I1", "I2", "I3") if con.get(q)]
        init = int(str(p.get("LUT_INIT", "0")), 2)
        o_used = any(loads.get(b, 0) for b in con.get("O", []) if isinstance(b, int))
        if ff and ins == ["I0"] and init == PASS_INIT:
            classes["flip-flop only"] += 1
            d = con["I0"][0]
            dc = cells.get(driver.get(d, ""), {})
            if dc.get("type") == "ICESTORM_LC":
                kind = ("another flip-flop" if str(dc["parameters"].get("DFF_ENABLE", "0")) == "1"
                        else "a LUT with other loads")
            elif dc.get("type") in ("ICESTORM_RAM", "ICESTORM_SPRAM"):
                kind = "a RAM output"
            elif dc.get("type") == "SB_IO":
                kind = "a pin"
            else:
                kind = dc.get("type", "nothing")
            src[kind] = src.get(kind, 0) + 1
            reg = register_of(cname, con, names)
            blocks[block_of(reg)] = blocks.get(block_of(reg), 0) + 1
            regs[reg] = regs.get(reg, 0) + 1
        elif ff:
            classes["logic + flip-flop"] += 1
        elif o_used and ins:
            classes["logic only"] += 1
        elif str(p.get("CARRY_ENABLE", "0")) == "1":
            classes["carry only"] += 1
        else:
            classes["logic only"] += 1   # a constant or unused LUT still takes its cell
    return {"lcs": lcs, "classes": classes, "ff_only_from": src, "ff_only_blocks": blocks,
            "ff_only_regs": regs}


def most(d, n=None):
    items = sorted(d.items(), key=lambda kv: (-kv[1], kv[0]))
    return items[:n] if n else items


def summary_lines(use, top=6):
    """Three lines of text (Markdown-safe) for the report."""
    c = use["classes"]
    lines = [f"Logic cells: {use['lcs']:,} = "
             + ", ".join(f"{n:,} {k}" for k, n in c.items()) + "."]
    ff_only = c["flip-flop only"]
    if ff_only:
        lines.append(
            f"The {ff_only:,} flip-flop-only cells take their input from "
            + ", ".join(f"{k} ({n:,})" for k, n in most(use["ff_only_from"]))
            + "; by block: " + ", ".join(f"{k} {n:,}" for k, n in most(use["ff_only_blocks"]))
            + ".")
        lines.append("Registers with the most: "
                     + ", ".join(f"`{k}` {n:,}" for k, n in most(use["ff_only_regs"], top)) + ".")
    return lines


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fpga_lc_use.py PACK_JSON (nextpnr-ice40 --pack-only --write PACK_JSON)")
    try:
        with open(sys.argv[1]) as f:
            use = lc_use(json.load(f))
    except (OSError, ValueError) as e:
        sys.exit(f"fpga_lc_use: {sys.argv[1]}: {e}")
    if use["lcs"] == 0:
        sys.exit(f"fpga_lc_use: {sys.argv[1]}: no ICESTORM_LC cells (not a packed iCE40 netlist?)")
    if sum(use["classes"].values()) != use["lcs"]:
        sys.exit(f"fpga_lc_use: the classes add up to {sum(use['classes'].values())}, not {use['lcs']}")
    print("\n".join(summary_lines(use)))


if __name__ == "__main__":
    main()
