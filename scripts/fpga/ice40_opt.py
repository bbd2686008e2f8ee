#!/usr/bin/env python3
"""ice40_opt.py IN_JSON OUT_JSON [--dsp N] [--nextpnr CMD] -- fewer logic cells
for a synthesized iCE40 netlist, the same logic, cycle for cycle.

An iCE40 logic cell (LC) holds one LUT4, one flip-flop whose input only that
LUT can drive, and one carry whose inputs are that LUT's I1 and I2. yosys'
abc9 maps the design into LUTs, flip-flops and carries; nextpnr-ice40 packs
them into LCs. Seven passes on the yosys JSON netlist, between the two, take
out cells that mapping and packing leave (docs/fpga.md, steps 30 to 33); the
default runs six of them (not bridge, whose longer chains nextpnr's router
cannot always finish: step 33). Each pass changes only how the logic is
built, never what it computes:

  absorb   a LUT whose every load is a LUT input goes into its loads, when
           each load then still has at most four inputs (its INIT composed
           with the absorbed one's); when its loads are LUTs and one
           flip-flop, it stays for the flip-flop only, and the two share a
           cell. A LUT read by LUTs it goes into and by flip-flops: it stays
           for the first flip-flop, each other flip-flop gets a copy of it
           (nextpnr packs a LUT with a flip-flop only when the flip-flop is
           its one load; the flip-flops' cells were there anyway). Never a
           LUT that shares a cell with a carry (I1, I2 = the carry's inputs,
           I3 = its carry-in), nor a carry partner's I1-I3.
  merge    of two LUTs that compute the same function, or one the other's
           complement, of the same inputs, one goes: its loads read the
           other (a complement only where every load is a LUT, whose INIT
           takes the inversion). Not one whose only load is a flip-flop: it
           shares that flip-flop's cell, and removing it saves no cell.
  cin      a carry chain whose carry-in comes from the fabric costs nextpnr
           a feed-in cell; where the chain's first carry has a cell of its
           own (nextpnr's packing says so) and one constant input, that
           constant becomes its carry-in and the net one of its inputs (the
           carry is the majority of its three inputs, which are symmetric):
           no feed-in. Kept only if the packing after it has fewer LCs.
  bridge   such a chain (fed from a net x) continues another chain instead,
           one whose last carry-out only a LUT with at most one other input
           reads (on I3, so nextpnr puts that LUT in the cell after the last
           carry, whose carry is free): a new carry there with both inputs x
           and that carry-in gives maj(x, x, c) = x to the chain's head, and
           the LUT reads x on I1, I2, which its function ignores. Only chains
           whose cells' flip-flops have one clock, enable and reset (nextpnr
           splits a chain where they differ), at most BRIDGE_LCS cells
           together (longer chains are hard to place), never where the new
           edges would close a loop; each bridge is kept only if nextpnr
           packs one cell fewer with it. Not in the default passes: on the
           UP5K its 7 bridges save 3 LCs net (fill takes 4 of the feed-ins
           they take out), and with them nextpnr's router stalls at some
           seeds (6, 9, 10 of 1-10), without them it finishes.
  dsp      flip-flop-only cells (their input is another flip-flop, a LUT
           with other loads, a RAM or DSP output) go into the output
           registers of the spare SB_MAC16 DSP blocks (--dsp: the device
           has N; 0 = none), 16 to a register half, one enable per half, as
           rtl/boards/am_dsp_ice40.v's am_reg2x16 sets them up (the
           register loads the C / D input unless held; hold = the inverted
           enable, a LUT). Also the top half of a block whose top outputs
           have no load (am_down_counter counting 16 bits). Only SB_DFF / SB_DFFE
           on the design's clock: the DSP's output reset is asynchronous, a
           flip-flop's reset here synchronous; not one fed from a pin or
           from a flip-flop fed from a pin (a synchronizer's first two
           stages stay flip-flops).
  host     a carry that nextpnr-ice40 packs into a cell of its own (no LUT
           reads its inputs on I1, I2 and its carry-in on I3) while a
           one-input LUT has a cell of its own: the LUT's I1-I3 are connected
           to the carry's inputs and carry-in, which its function ignores, and
           nextpnr's packer puts the two in one cell. Only carries whose
           carry-in comes from the previous carry (nextpnr packs a carry with
           a LUT only then). Which carries and LUTs nextpnr leaves alone is
           read from its own packing (--nextpnr: the nextpnr-ice40 command
           with the device and pins, run with --pack-only); the pass is kept
           only if the packing after it has fewer LCs.
  fill     a chain's first cell that holds a carry and nothing else (a
           carry with a constant carry-in, which nextpnr never packs with a
           LUT, or nextpnr's feed-in for a chain fed from a net x: a carry
           passing x on, maj(x, 0, 1) = x) gets a LUT that has a cell of its
           own: one that reads a carry input and at most FILL_EXTRA other
           nets (on I0, I3; the carry's inputs are I1, I2), fewest first.
           The pass writes the cell as nextpnr-ice40 would (ICESTORM_LC,
           CIN_CONST); its unused pins are "x", which
           scripts/fpga/nextpnr_lc.py (a --pre-pack script every nextpnr run
           on such a netlist needs) unconnects. Not where another carry has
           the same inputs (nextpnr would pack that carry into the cell),
           nor where the LUT's output reaches a carry input it does not read
           (nextpnr times every LUT pin to the output: a loop). Kept only
           if nextpnr packs fewer LCs.

Same behavior: every pass rewrites LUT INITs by evaluating the functions
they replace over all 16 input combinations; a DSP half loads its input at
every clock edge its hold is low as the flip-flop does when its enable is
high. Checked by tests/fpga/test_ice40_opt.py (small designs, each pass,
simulated before and after on yosys' cell models; broken rewrites must be
caught) and by `make postsynth` (the iCEBreaker's whole netlist after these
passes runs the demo with the RTL's console output).

Prints what each pass did (the DSP pass: one line per register half);
exits 1 on a netlist it does not understand.
"""
import argparse
import collections
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

PINS = ("I0", "I1", "I2", "I3")
LUT_PORTS = {"I0": "input", "I1": "input", "I2": "input", "I3": "input", "O": "output"}
HALF = 16
# a logic cell packed here (fill), as nextpnr-ice40 and yosys' cell models have it
LC_PORTS = {"I0": "input", "I1": "input", "I2": "input", "I3": "input", "CIN": "input",
            "CLK": "input", "CEN": "input", "SR": "input", "O": "output", "COUT": "output",
            "LO": "output"}
LC_UNUSED = ("CIN", "CLK", "CEN", "SR")
NEXTPNR_HOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nextpnr_lc.py")
BRIDGE_LCS = 8   # the longest chain the bridge pass makes, in logic cells
BRIDGE_TRIES = 40   # the most bridges it packs to try
FILL_EXTRA = 2   # the most nets a LUT the fill pass moves reads besides the carry's inputs
# am_reg2x16's configuration (rtl/boards/am_dsp_ice40.v): both halves load
# their input (C / D) through the adder's upper input, the output is the
# register
REG_PARAMS = {
    "A_REG": "0", "B_REG": "0", "C_REG": "0", "D_REG": "0", "MODE_8x8": "1",
    "TOPOUTPUT_SELECT": "01", "BOTOUTPUT_SELECT": "01",
    "TOPADDSUB_LOWERINPUT": "00", "TOPADDSUB_UPPERINPUT": "1", "TOPADDSUB_CARRYSELECT": "00",
    "BOTADDSUB_LOWERINPUT": "00", "BOTADDSUB_UPPERINPUT": "1", "BOTADDSUB_CARRYSELECT": "00",
}
MAC_IN = ["CLK", "CE", "C", "A", "B", "D", "AHOLD", "BHOLD", "CHOLD", "DHOLD", "IRSTTOP",
          "IRSTBOT", "ORSTTOP", "ORSTBOT", "OLOADTOP", "OLOADBOT", "ADDSUBTOP", "ADDSUBBOT",
          "OHOLDTOP", "OHOLDBOT", "CI", "ACCUMCI", "SIGNEXTIN"]
MAC_OUT = ["O", "CO", "ACCUMCO", "SIGNEXTOUT"]
REG_NAME = re.compile(r"^(.*?)(?:_SB_DFF\w*?_Q(?:_\d+)?)?$")


def top_module(design):
    tops = [m for m in design["modules"].values() if m.get("attributes", {}).get("top")]
    if len(tops) != 1:
        raise ValueError(f"expected one top module, found {len(tops)}")
    return tops[0]


class Netlist:
    """The top module of a yosys JSON netlist, with drivers and loads per bit
    (a top-level input drives its bits as "<pin>", an output loads them)."""

    def __init__(self, design):
        self.mod = top_module(design)
        self.cells = self.mod["cells"]
        bits = [b for n in self.mod["netnames"].values() for b in n["bits"] if isinstance(b, int)]
        self.next_bit = max(bits, default=1) + 1
        self.index()

    def index(self):
        self.driver, self.loads = {}, collections.defaultdict(list)
        for name, cell in self.cells.items():
            dirs = cell.get("port_directions", {})
            for port, bits in cell["connections"].items():
                if port not in dirs:
                    raise ValueError(f"cell {name} ({cell['type']}): no direction for port {port}")
                for b in bits:
                    if isinstance(b, int):
                        if dirs[port] == "output":
                            self.driver[b] = (name, port)
                        else:
                            self.loads[b].append((name, port))
        for port in self.mod.get("ports", {}).values():
            for b in port["bits"]:
                if isinstance(b, int):
                    if port["direction"] == "input":
                        self.driver.setdefault(b, ("<pin>", None))
                    else:
                        self.loads[b].append(("<pin>", None))

    def new_net(self, name):
        b = self.next_bit
        self.next_bit += 1
        self.mod["netnames"][name] = {"hide_name": 0, "bits": [b], "attributes": {}}
        return b

    def type_of(self, name):
        return self.cells[name]["type"] if name in self.cells else name

    def sole_flip_flop(self, net):
        """The flip-flop whose D is the net's one load (the LUT driving it
        shares that flip-flop's cell), or None."""
        loads = self.loads[net]
        if len(loads) == 1 and self.type_of(loads[0][0]).startswith("SB_DFF") and loads[0][1] == "D":
            return loads[0][0]
        return None

    def carry_partner(self):
        """A test: does this LUT share a cell with a carry? nextpnr packs a
        carry whose carry-in is a net with the LUT that has the carry's I0,
        I1 and CI on its I1, I2, I3 (as the netlist stands now)."""
        keys = {tuple(c["connections"][p][0] for p in ("I0", "I1", "CI"))
                for c in self.cells.values()
                if c["type"] == "SB_CARRY" and isinstance(c["connections"]["CI"][0], int)}
        return lambda lut: tuple(lut["connections"][p][0] for p in ("I1", "I2", "I3")) in keys


# ---------------------------------------------------------------- LUT functions
def lut_value(cell, values):
    """The LUT's output for the net values in `values` (constants '0'/'1' on
    its pins as they are; an unconnected pin reads 0)."""
    idx = 0
    for k, p in enumerate(PINS):
        v = cell["connections"][p][0]
        bit = values[v] if isinstance(v, int) else (1 if v == "1" else 0)
        idx |= bit << k
    init = cell["parameters"]["LUT_INIT"]
    if len(init) != 16 or set(init) - {"0", "1"}:
        raise ValueError(f"LUT_INIT {init!r}: expected 16 binary digits")
    return int(init[15 - idx])


def lut_inputs(cell):
    """The distinct nets on the LUT's pins, in pin order."""
    return list(dict.fromkeys(cell["connections"][p][0] for p in PINS
                              if isinstance(cell["connections"][p][0], int)))


def set_lut(cell, pins, fn):
    """Connect the LUT's pins to `pins` (net or '0' per pin) and set its INIT
    to fn(values), values mapping each connected net to its bit."""
    bits = []
    for idx in range(16):
        values = {}
        for k, p in enumerate(PINS):
            if isinstance(pins[p], int):
                values[pins[p]] = (idx >> k) & 1
        bits.append(fn(values))
    # a net on two pins: only the consistent rows are reachable; fn saw the last
    cell["parameters"]["LUT_INIT"] = "".join(str(b) for b in reversed(bits))
    for p in PINS:
        cell["connections"][p] = [pins[p]]


def lut_copy(cell):
    """The LUT's pins and INIT as they are now (to evaluate after a rewrite)."""
    return {"connections": {q: list(cell["connections"][q]) for q in PINS},
            "parameters": dict(cell["parameters"])}


def truth_table(cell):
    nets = sorted(lut_inputs(cell))
    table = tuple(lut_value(cell, {n: (a >> i) & 1 for i, n in enumerate(nets)})
                  for a in range(1 << len(nets)))
    return tuple(nets), table


# ---------------------------------------------------------------- pass: absorb
def absorb(design, log=print):
    nl = Netlist(design)
    cells = nl.cells
    done = copies = 0
    while True:
        nl.index()
        partner = nl.carry_partner()
        changed = 0
        for name in sorted(cells):
            lut = cells.get(name)
            if lut is None or lut["type"] != "SB_LUT4" or partner(lut):
                continue
            o = lut["connections"]["O"][0]
            loads = nl.loads[o]
            ffs = [(u, p) for u, p in loads if nl.type_of(u).startswith("SB_DFF") and p == "D"]
            others = [x for x in loads if x not in ffs]
            if any(nl.type_of(u) != "SB_LUT4" for u, _ in others) or not (others or len(ffs) > 1):
                continue
            ins = lut_inputs(lut)
            if o in ins:
                continue
            plans = []
            for u, p in others:
                load = cells[u]
                if [load["connections"][q][0] for q in PINS].count(o) != 1:
                    plans = None
                    break
                keep = {q: load["connections"][q][0] for q in PINS
                        if q != p and isinstance(load["connections"][q][0], int)}
                if partner(load):   # its I1-I3 stay where the carry needs them
                    if p != "I0":
                        plans = None
                        break
                    free = [p]
                else:
                    free = [q for q in PINS if q not in keep]
                need = [n for n in ins if n not in keep.values()]
                if len(need) > len(free):
                    plans = None
                    break
                plans.append((u, p, keep, free, need))
            if plans is None:
                continue
            inner = lut_copy(lut)
            # flip-flops past the first: each reads a copy of its own
            for k, (u, p) in enumerate(ffs[1:]):
                copy = f"{name}$ice40_opt$copy{k}"
                while copy in cells:
                    copy += "_"
                out = nl.new_net(copy + "$o")
                cells[copy] = {"hide_name": 1, "type": "SB_LUT4", "attributes": {},
                               "parameters": dict(lut["parameters"]),
                               "port_directions": dict(LUT_PORTS),
                               "connections": {**{q: list(lut["connections"][q]) for q in PINS},
                                               "O": [out]}}
                cells[u]["connections"][p] = [out]
                copies += 1
            for u, p, keep, free, need in plans:
                load = cells[u]
                outer = lut_copy(load)
                pins = {q: keep.get(q, "0") for q in PINS}
                for q, n in zip(free, need):
                    pins[q] = n

                def fn(values, outer=outer):
                    v = dict(values)
                    v[o] = lut_value(inner, v)
                    return lut_value(outer, v)
                set_lut(load, pins, fn)
            if not ffs:
                del cells[name]
            done += 1
            changed += 1
            break   # the loads' pins changed: index again before the next
        if not changed:
            break
    log(f"ice40_opt absorb: {done} LUTs into their loads ({copies} copies for flip-flops)")
    return done


# ---------------------------------------------------------------- pass: merge
def merge(design, log=print):
    nl = Netlist(design)
    cells = nl.cells
    partner = nl.carry_partner()
    groups = collections.defaultdict(list)
    for name in sorted(cells):
        if cells[name]["type"] == "SB_LUT4":
            groups[truth_table(cells[name])].append(name)
    done = 0
    for (nets, table), names in sorted(groups.items()):
        for inv, key in ((0, (nets, table)), (1, (nets, tuple(1 - t for t in table)))):
            keep = [n for n in groups.get(key, []) if n in cells]
            if not keep:
                continue
            k = keep[0]
            ko = cells[k]["connections"]["O"][0]
            for name in names:
                if name == k or name not in cells or partner(cells[name]):
                    continue
                o = cells[name]["connections"]["O"][0]
                loads = nl.loads[o]
                if not loads or any(u not in cells for u, _ in loads):
                    continue
                if nl.sole_flip_flop(o):
                    continue    # it shares its flip-flop's cell: no cell to save
                if inv and any(nl.type_of(u) != "SB_LUT4" or (partner(cells[u]) and p != "I0")
                               for u, p in loads):
                    continue
                for u, p in loads:
                    load = cells[u]
                    if inv:
                        outer = lut_copy(load)
                        pins = {q: (ko if outer["connections"][q][0] == o else outer["connections"][q][0])
                                for q in PINS}

                        def fn(values, outer=outer, o=o, ko=ko):
                            v = dict(values)
                            v[o] = 1 - v[ko]
                            return lut_value(outer, v)
                        set_lut(load, pins, fn)
                    else:
                        for q, bits in load["connections"].items():
                            load["connections"][q] = [ko if b == o else b for b in bits]
                    nl.loads[ko].append((u, p))
                del cells[name]
                done += 1
    log(f"ice40_opt merge: {done} LUTs equal to another, or its complement")
    return done


# ---------------------------------------------------------------- pass: cin
def lone_carries(packed):
    """The carries nextpnr's packing gave a cell of their own, nothing else in it."""
    return sorted(n[:-len("$CARRY")] for n, c in packed.items()
                  if n.endswith("$CARRY") and int(c["parameters"].get("LUT_INIT", "0"), 2) == 0)


def cin(design, nextpnr, log=print):
    lcs, packed = nextpnr_pack(design, nextpnr)
    trial = json.loads(json.dumps(design))
    nl = Netlist(trial)
    done = 0
    for name in lone_carries(packed):
        con = nl.cells[name]["connections"] if name in nl.cells else None
        if con is None:
            continue
        x = con["CI"][0]
        if not isinstance(x, int) or nl.type_of(nl.driver.get(x, ("",))[0]) == "SB_CARRY":
            continue    # constant carry-in, or inside a chain
        const = [p for p in ("I0", "I1") if con[p][0] in ("0", "1")]
        if not const:
            continue
        k = const[0]
        other = "I1" if k == "I0" else "I0"
        # CO = maj(I0, I1, CI) is symmetric: the constant becomes the carry-in
        con["I0"], con["I1"], con["CI"] = [con[other][0]], [x], [con[k][0]]
        done += 1
    return keep_if_fewer(design, trial, lcs, nextpnr, done, log,
                          f"ice40_opt cin: {done} lone chain heads take their constant input as "
                          f"carry-in, no feed-in cell")


def keep_if_fewer(design, trial, lcs, nextpnr, changes, log, what):
    """`design` becomes `trial` if nextpnr packs it into fewer than `lcs`
    LCs; the LCs saved."""
    after, _ = nextpnr_pack(trial, nextpnr) if changes else (lcs, None)
    kept = after < lcs
    if kept:
        design.clear()
        design.update(trial)
    log(f"{what}: {lcs} -> {after} LCs{'' if kept else ', not kept'}")
    return lcs - after if kept else 0


# ---------------------------------------------------------------- pass: bridge
def chains(nl):
    """The carry chains, head first: (carries, the LUT sharing each one's
    cell or None, the LUT that alone reads the last carry-out on I3 or None)."""
    cells = nl.cells
    carries = {n for n, c in cells.items() if c["type"] == "SB_CARRY"}
    by_pins = collections.defaultdict(list)
    for n, c in cells.items():
        if c["type"] == "SB_LUT4":
            by_pins[tuple(c["connections"][p][0] for p in ("I1", "I2", "I3"))].append(n)
    nxt, heads = {}, []
    for n in sorted(carries):
        ci = cells[n]["connections"]["CI"][0]
        drv = nl.driver.get(ci, ("",))[0] if isinstance(ci, int) else ""
        if drv in carries:
            nxt[drv] = n
        else:
            heads.append(n)
    out = []
    for h in heads:
        ch = [h]
        while ch[-1] in nxt:
            ch.append(nxt[ch[-1]])
        shared = []
        for n in ch:
            con = cells[n]["connections"]
            luts = by_pins.get((con["I0"][0], con["I1"][0], con["CI"][0]), [])
            shared.append(luts[0] if luts else None)
        loads = nl.loads[cells[ch[-1]]["connections"]["CO"][0]]
        end = loads[0][0] if len(loads) == 1 and loads[0][1] == "I3" \
            and nl.type_of(loads[0][0]) == "SB_LUT4" else None
        out.append((ch, shared, end))
    return out


def comb_reaches(nl, start, goal, extra):
    """A path through LUTs and carries (and DSP blocks, to be safe) from cell
    `start`'s output to cell `goal`, with the edges in `extra` (a cell -> the
    cells it now drives too): a new edge goal -> start would close a loop."""
    cells = nl.cells
    seen, todo = {start}, [start]
    while todo:
        c = todo.pop()
        if c == goal:
            return True
        nxt = list(extra[c])
        for port, bits in cells[c]["connections"].items():
            if cells[c]["port_directions"][port] == "output":
                nxt += [u for b in bits if isinstance(b, int) for u, _ in nl.loads[b]]
        for u in nxt:
            if u not in seen and nl.type_of(u) in ("SB_LUT4", "SB_CARRY", "SB_MAC16"):
                seen.add(u)
                todo.append(u)
    return False


def bridge(design, nextpnr, longest=BRIDGE_LCS, tries=BRIDGE_TRIES, log=print):
    lcs, _ = nextpnr_pack(design, nextpnr)
    nl = Netlist(design)
    cells = nl.cells

    def controls(lut):
        """The clock, enable and reset of the flip-flop sharing the LUT's cell."""
        ff = nl.sole_flip_flop(cells[lut]["connections"]["O"][0]) if lut else None
        if ff is None:
            return set()
        f = cells[ff]
        return {(f["type"],) + tuple(f["connections"].get(p, ["-"])[0] for p in ("C", "E", "R", "S"))}

    ends, fed = [], []
    for ch, shared, end in chains(nl):
        ctl = set().union(*(controls(x) for x in shared + [end]))
        head = cells[ch[0]]["connections"]
        if isinstance(head["CI"][0], int):
            fed.append((ch, shared, ctl, len(ch) + (1 if end else 0)))
        if end:
            e = cells[end]["connections"]
            co = cells[ch[-1]]["connections"]["CO"][0]
            if len(lut_inputs(cells[end])) <= 2 and e["I3"][0] == co \
                    and co not in (e["I0"][0], e["I1"][0], e["I2"][0]):
                ends.append((ch, end, co, ctl))
    extra = collections.defaultdict(list)   # the edges bridges add

    def reaches(start, goal):
        return comb_reaches(nl, start, goal, extra)

    def apply(trial, k, end, co, head, shared):
        tn = Netlist(trial)
        tc = tn.cells
        hc = tc[head]["connections"]
        x = hc["CI"][0]
        lut = tc[end]
        inner = lut_copy(lut)
        y = ([n for n in lut_inputs(lut) if n != co] or ["0"])[0]
        # the end LUT reads x on I1, I2 (the bridge carry's inputs) and ignores it
        set_lut(lut, {"I0": y, "I1": x, "I2": x, "I3": co}, lambda v: lut_value(
            inner, {**({y: v[y]} if isinstance(y, int) else {}), co: v[co]}))
        name = f"$ice40_opt$bridge{k}"
        out = tn.new_net(name + "$co")
        tc[name] = {"hide_name": 1, "type": "SB_CARRY", "attributes": {}, "parameters": {},
                    "port_directions": {"I0": "input", "I1": "input", "CI": "input", "CO": "output"},
                    "connections": {"I0": [x], "I1": [x], "CI": [co], "CO": [out]}}
        # maj(x, x, co) = x: the head, and the LUT sharing its cell, read that
        hc["CI"] = [out]
        if shared:
            tc[shared]["connections"]["I3"] = [out]

    best, best_lcs, taken, kept, tried = design, lcs, set(), 0, 0
    size = {ch[0]: n for ch, _, _, n in fed}   # cells of the chain a head is in now
    size.update({a[0][0]: len(a[0]) + 1 for a in ends})
    group = {}   # a head -> the head of the chain it continues

    def top(h):
        while h in group:
            h = group[h]
        return h
    for ch, shared, ctl, n in sorted(fed, key=lambda f: (f[3], f[0][0])):
        x = cells[ch[0]]["connections"]["CI"][0]
        xdrv = nl.driver.get(x, ("",))[0]
        for a_ch, end, co, a_ctl in sorted(ends, key=lambda e: (len(e[0]), e[0][0])):
            if a_ch[0] in taken or top(a_ch[0]) == top(ch[0]) or len(a_ctl | ctl) > 1 \
                    or size[top(a_ch[0])] + size[top(ch[0])] > longest \
                    or reaches(ch[0], a_ch[-1]) \
                    or (xdrv in cells and reaches(end, xdrv)):
                continue
            if tried == tries:
                break
            tried += 1
            trial = json.loads(json.dumps(best))
            apply(trial, kept, end, co, ch[0], shared[0])
            after, _ = nextpnr_pack(trial, nextpnr)
            if after < best_lcs:   # kept only where nextpnr packs one cell fewer
                best, best_lcs = trial, after
                taken.add(a_ch[0])
                size[top(a_ch[0])] += size[top(ch[0])]
                group[top(ch[0])] = top(a_ch[0])
                extra[a_ch[-1]].append(ch[0])
                if xdrv in cells:
                    extra[xdrv].append(end)
                kept += 1
                break
    if kept:
        design.clear()
        design.update(best)
    log(f"ice40_opt bridge: {kept} chains fed from the fabric continue other chains "
        f"(at most {longest} cells together; {tried} tried): {lcs} -> {best_lcs} LCs")
    return lcs - best_lcs


# ---------------------------------------------------------------- pass: dsp
def flip_flop_only(nl, cell):
    """The flip-flop cannot share a logic cell with the LUT computing its input."""
    d = cell["connections"]["D"][0]
    if not isinstance(d, int):
        return True
    drv = nl.driver.get(d)
    return not (drv and drv[0] in nl.cells and nl.cells[drv[0]]["type"] == "SB_LUT4"
                and len(nl.loads[d]) == 1)


def register_name(name):
    return REG_NAME.match(name).group(1)


def free_top_halves(nl):
    """Existing SB_MAC16s whose top output register is unread (its O[31:16],
    CO, ACCUMCO and SIGNEXTOUT have no loads) and whose top adder adds 0 (A = 0)."""
    out = []
    for name, cell in sorted(nl.cells.items()):
        if cell["type"] != "SB_MAC16":
            continue
        con, par = cell["connections"], cell["parameters"]
        top_out = con["O"][16:] + con["CO"] + con["ACCUMCO"] + con["SIGNEXTOUT"]
        if any(isinstance(b, int) and nl.loads[b] for b in top_out):
            continue
        if par.get("TOPOUTPUT_SELECT") not in ("01", "1") or par.get("C_REG", "0") != "0":
            continue
        if any(b != "0" for b in con["A"]):
            continue
        out.append(name)
    return out


def dsp(design, n_dsp=8, log=print):
    nl = Netlist(design)
    cells = nl.cells
    ffs = {n: c for n, c in cells.items() if c["type"].startswith("SB_DFF")}
    if not ffs or n_dsp <= 0:
        log("ice40_opt dsp: nothing to do")
        return 0
    clk = collections.Counter(c["connections"]["C"][0] for c in ffs.values()).most_common(1)[0][0]

    def from_pin(net, hops):
        """The net is a pin, or a flip-flop's output within `hops` flip-flops of one."""
        drv = nl.driver.get(net, ("",))[0]
        if drv == "<pin>":
            return True
        if hops and drv in cells and cells[drv]["type"].startswith("SB_DFF"):
            return from_pin(cells[drv]["connections"]["D"][0], hops - 1)
        return False

    groups = collections.defaultdict(list)
    for name, cell in ffs.items():
        d = cell["connections"]["D"][0]
        # not a synchronizer's first or second stage
        if cell["type"] in ("SB_DFF", "SB_DFFE") and cell["connections"]["C"][0] == clk \
                and flip_flop_only(nl, cell) and not from_pin(d, 1):
            groups[cell["connections"].get("E", ["1"])[0]].append(name)
    chunks = []
    for enable, names in groups.items():
        names.sort()
        chunks += [(enable, names[i:i + HALF]) for i in range(0, len(names), HALF)]
    chunks.sort(key=lambda ch: (-len(ch[1]), ch[1][0]))
    n_mac = sum(1 for c in cells.values() if c["type"] == "SB_MAC16")
    tops = free_top_halves(nl)
    slots = [("top", t) for t in tops] + [("new", i) for i in range(2 * max(0, n_dsp - n_mac))]
    chunks = chunks[:len(slots)]
    inverted = {}
    moved = 0

    def hold_of(enable):
        if enable == "1":
            return "0"
        if enable not in inverted:
            k = len(inverted)
            o = nl.new_net(f"$ice40_opt$hold{k}$o")
            cells[f"$ice40_opt$hold{k}"] = {
                "hide_name": 1, "type": "SB_LUT4", "attributes": {},
                "parameters": {"LUT_INIT": "0101010101010101"},   # O = !I0
                "port_directions": dict(LUT_PORTS),
                "connections": {"I0": [enable], "I1": ["0"], "I2": ["0"], "I3": ["0"], "O": [o]}}
            inverted[enable] = o
        return inverted[enable]

    def fill(con, half, enable, names, where):
        nonlocal moved
        data, hold, base = ("C", "OHOLDTOP", HALF) if half == "top" else ("D", "OHOLDBOT", 0)
        con[data] = ["0"] * HALF
        con[hold] = [hold_of(enable)]
        con["ORST" + half.upper()] = ["0"]
        con["OLOAD" + half.upper()] = ["1"]
        con["ADDSUB" + half.upper()] = ["0"]
        for i, name in enumerate(names):
            ff = cells.pop(name)
            con[data][i] = ff["connections"]["D"][0]
            con["O"][base + i] = ff["connections"]["Q"][0]
            moved += 1
        regs = sorted(collections.Counter(register_name(n) for n in names).items())
        log(f"ice40_opt dsp: {where} {half}: {len(names)} flip-flops, enable "
            f"{'1' if enable == '1' else 'net ' + str(enable)}: "
            + ", ".join(f"{r} ({k})" for r, k in regs))

    new_cells = []
    used_tops = 0
    for (kind, slot), (enable, names) in zip(slots, chunks):
        if kind == "top":
            cell = cells[slot]
            for p in ("TOPADDSUB_LOWERINPUT", "TOPADDSUB_UPPERINPUT", "TOPADDSUB_CARRYSELECT",
                      "TOPOUTPUT_SELECT"):
                cell["parameters"][p] = REG_PARAMS[p]
            con = cell["connections"]
            con["O"] = [b if i < HALF else nl.new_net(f"$ice40_opt${slot}$o{i}")
                        for i, b in enumerate(con["O"])]
            fill(con, "top", enable, names, slot)
            used_tops += 1
            continue
        if slot % 2 == 0:
            k = len(new_cells)
            con = {p: ["0"] for p in MAC_IN}
            for p in ("A", "B", "C", "D"):
                con[p] = ["0"] * HALF
            for p in ("AHOLD", "BHOLD", "CHOLD", "DHOLD", "OHOLDTOP", "OHOLDBOT", "CE"):
                con[p] = ["1"]
            con["CLK"] = [clk]
            con["O"] = [nl.new_net(f"$ice40_opt$dsp{k}$o{i}") for i in range(2 * HALF)]
            for p in MAC_OUT[1:]:
                con[p] = [nl.new_net(f"$ice40_opt$dsp{k}${p}")]
            dirs = {p: "input" for p in MAC_IN}
            dirs.update({p: "output" for p in MAC_OUT})
            new_cells.append({"hide_name": 1, "type": "SB_MAC16", "attributes": {},
                              "parameters": dict(REG_PARAMS), "port_directions": dirs,
                              "connections": con})
        fill(new_cells[-1]["connections"], "top" if slot % 2 == 0 else "bot", enable, names,
             f"$ice40_opt$dsp{len(new_cells) - 1}")
    for k, cell in enumerate(new_cells):
        cells[f"$ice40_opt$dsp{k}"] = cell
    log(f"ice40_opt dsp: {moved} flip-flops into {len(new_cells)} new SB_MAC16 and {used_tops} "
        f"free top halves ({n_mac} SB_MAC16 before, {n_mac + len(new_cells)} of {n_dsp} after), "
        f"{len(inverted)} LUTs for the holds")
    return moved


# ---------------------------------------------------------------- pass: host
def nextpnr_pack(design, nextpnr):
    """Pack `design` with `nextpnr` --pack-only: (LC count, packed cells)."""
    with tempfile.TemporaryDirectory(dir=os.environ.get("ICE40_OPT_TMP")) as tmp:
        src, out, logf = (os.path.join(tmp, n) for n in ("in.json", "pack.json", "pack.log"))
        with open(src, "w") as f:
            json.dump(design, f)
        hook = ["--pre-pack", NEXTPNR_HOOK] if any(
            c["type"] == "ICESTORM_LC" for c in top_module(design)["cells"].values()) else []
        cmd = shlex.split(nextpnr) + hook + ["--json", src, "--pack-only", "--write", out, "-q", "-l", logf]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise ValueError(f"{' '.join(cmd)} failed: {open(logf).read()[-500:] if os.path.exists(logf) else r.stderr}")
        m = re.search(r"ICESTORM_LC:\s+(\d+)/", open(logf).read())
        with open(out) as f:
            packed = json.load(f)
    mods = list(packed["modules"].values())
    return int(m.group(1)), mods[0]["cells"]


def lone_luts(packed, cells):
    """The LUTs nextpnr's packing gave a cell of their own (no flip-flop, no
    carry), by name."""
    out = []
    for n, c in sorted(packed.items()):
        if c["type"] != "ICESTORM_LC" or not n.endswith("_LC") \
                or c["parameters"].get("CARRY_ENABLE") == "1" or c["parameters"].get("DFF_ENABLE") == "1":
            continue
        lut = n[:-3]
        if lut in cells and cells[lut]["type"] == "SB_LUT4":
            out.append(lut)
    return out


def host(design, nextpnr, log=print):
    lcs, packed = nextpnr_pack(design, nextpnr)
    trial = json.loads(json.dumps(design))
    nl = Netlist(trial)
    cells = nl.cells
    chained = [n for n in lone_carries(packed)
               if n in cells and isinstance(cells[n]["connections"]["CI"][0], int)
               and nl.type_of(nl.driver.get(cells[n]["connections"]["CI"][0], ("",))[0]) == "SB_CARRY"]
    donors = [n for n in lone_luts(packed, cells) if len(lut_inputs(cells[n])) <= 1]
    hosted = 0
    for carry in chained:
        if not donors:
            break
        c = cells[carry]
        name = donors.pop(0)
        lut = cells[name]
        ins = lut_inputs(lut)
        x = ins[0] if ins else "0"
        # the LUT reads the carry's inputs on I1, I2 and its carry-in on I3,
        # as nextpnr's packer wants them, and ignores them
        inner = lut_copy(lut)
        pins = {"I0": x, "I1": c["connections"]["I0"][0], "I2": c["connections"]["I1"][0],
                "I3": c["connections"]["CI"][0]}
        set_lut(lut, pins, lambda v, inner=inner, x=x: lut_value(
            inner, {x: v[x]} if isinstance(x, int) else {}))
        hosted += 1
    return keep_if_fewer(design, trial, lcs, nextpnr, hosted, log,
                         f"ice40_opt host: {hosted} lone carries into the cells of one-input LUTs")


# ---------------------------------------------------------------- pass: fill
def fill(design, nextpnr, most=FILL_EXTRA, log=print):
    lcs, packed = nextpnr_pack(design, nextpnr)
    nl = Netlist(design)
    cells = nl.cells
    lone = set(lone_carries(packed))
    donors = {n: set(lut_inputs(cells[n])) for n in lone_luts(packed, cells)}
    extra = collections.defaultdict(list)   # the timing edges cells packed here add

    def loops(name, nets, ins):
        """The LUT on the pins of carry inputs it does not read: nextpnr
        times those pins to its output, a loop if its output reaches them."""
        for n in ins - nets:
            drv = nl.driver.get(n, ("",))[0]
            if drv == name or (drv in cells and comb_reaches(nl, name, drv, extra)):
                return True
        return False

    # nextpnr's packer puts a carry into any cell whose I1, I2 have its
    # inputs (an unconnected pin for a constant 0): none may match a cell
    # made here, or that carry leaves its own chain
    def pair(i0, i1):
        return tuple(None if n in ("0", "x") else n for n in (i0, i1))
    pairs = collections.Counter(pair(c["connections"]["I0"][0], c["connections"]["I1"][0])
                                for c in cells.values() if c["type"] == "SB_CARRY")

    # the chains' first cells that hold a carry and nothing else, each with
    # the best LUT for it: one that reads a carry input and at most `most`
    # other nets, fewest first, then one whose output the chain reads
    plans = []
    for ch, shared, _ in chains(nl):
        con = cells[ch[0]]["connections"]
        if isinstance(con["CI"][0], int):   # fed from a net: nextpnr's feed-in cell
            fed, ins = True, {con["CI"][0]}
            if pairs[pair(con["CI"][0], "0")]:
                continue
        elif ch[0] in lone:                 # a constant carry-in: nextpnr packs no LUT with it
            fed, ins = False, {n for n in (con["I0"][0], con["I1"][0]) if isinstance(n, int)}
            if pairs[pair(con["I0"][0], con["I1"][0])] > 1:
                continue
        else:
            continue
        near = {b for c in ch + [x for x in shared if x] for bits in cells[c]["connections"].values()
                for b in bits if isinstance(b, int)}
        fits = sorted((len(nets - ins), cells[n]["connections"]["O"][0] not in near, n)
                      for n, nets in donors.items() if nets & ins and len(nets - ins) <= most)
        if fits:
            plans.append((fits[0][:2], ch[0], shared[0], fed, ins, [f[2] for f in fits]))
    trial = json.loads(json.dumps(design))
    tn = Netlist(trial)
    done, taken = 0, set()
    for _, head, partner, fed, ins, names in sorted(plans, key=lambda p: (p[0], p[1])):
        names = [n for n in names if n not in taken and not loops(n, donors[n], ins)]
        if not names:
            continue
        fill_cell(tn, f"$ice40_opt$fill{done}", head, partner, fed, names[0])
        taken.add(names[0])
        for n in ins - donors[names[0]]:
            drv = nl.driver.get(n, ("",))[0]
            if drv in cells:
                extra[drv].append(names[0])
        done += 1
    return keep_if_fewer(design, trial, lcs, nextpnr, done, log,
                         f"ice40_opt fill: {done} LUTs into the first cells of carry chains")


def fill_cell(nl, cell, head, partner, fed, name):
    """One logic cell `cell` with the chain's first carry and LUT `name`
    (their connections as nextpnr's packer would make them)."""
    cells = nl.cells
    hc = cells[head]["connections"]
    lut = cells.pop(name)
    inner = lut_copy(lut)
    if fed:     # the feed-in's carry: maj(x, 0, 1) = x
        x = hc["CI"][0]
        i1, i2, cin = x, "0", "1"
        co = nl.new_net(cell + "$co")
        hc["CI"] = [co]
        if partner:
            cells[partner]["connections"]["I3"] = [co]
    else:       # the head itself
        i1, i2, cin = hc["I0"][0], hc["I1"][0], hc["CI"][0]
        co = hc["CO"][0]
        del cells[head]
    rest = [n for n in lut_inputs(lut) if n not in (i1, i2)] + ["0", "0"]
    pins = {"I0": rest[0], "I1": i1, "I2": i2, "I3": rest[1]}
    fn = {"connections": {}, "parameters": {}}
    set_lut(fn, pins, lambda v: lut_value(inner, v))
    cells[cell] = {
        "hide_name": 1, "type": "ICESTORM_LC", "attributes": {},
        "parameters": {"LUT_INIT": fn["parameters"]["LUT_INIT"], "CARRY_ENABLE": "1",
                       "CIN_CONST": "1", "CIN_SET": cin, "DFF_ENABLE": "0", "NEG_CLK": "0",
                       "SET_NORESET": "0", "ASYNC_SR": "0"},
        "port_directions": dict(LC_PORTS),
        # unused inputs: "x", which scripts/fpga/nextpnr_lc.py unconnects
        "connections": {**{p: [pins[p]] for p in PINS}, "O": lut["connections"]["O"],
                        "COUT": [co], "LO": [nl.new_net(cell + "$lo")],
                        **{p: ["x"] for p in LC_UNUSED}}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--dsp", type=int, default=0,
                    help="SB_MAC16 blocks the device has (UP5K: 8; 0: no dsp pass)")
    ap.add_argument("--nextpnr", default="",
                    help="nextpnr-ice40 with the device's flags and pins (no cin, bridge, host or fill "
                         "pass without it)")
    ap.add_argument("--passes", default="absorb,merge,absorb,cin,dsp,host,fill",
                    help="the passes, in order (default: %(default)s)")
    a = ap.parse_args()
    with open(a.inp) as f:
        design = json.load(f)
    # each pass, and whether it needs nextpnr's packing (skipped without it)
    passes = {"absorb": (absorb, False), "merge": (merge, False), "cin": (cin, True),
              "bridge": (bridge, True), "dsp": (lambda d: dsp(d, a.dsp), False),
              "host": (host, True), "fill": (fill, True)}
    try:
        for p in a.passes.split(","):
            if p not in passes:
                raise ValueError(f"unknown pass {p!r} ({', '.join(passes)})")
        for p in a.passes.split(","):
            run, packing = passes[p]
            if not packing:
                run(design)
            elif a.nextpnr:
                run(design, a.nextpnr)
    except (ValueError, KeyError) as e:
        print(f"ice40_opt: {a.inp}: {e}", file=sys.stderr)
        return 1
    with open(a.out, "w") as f:
        json.dump(design, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
