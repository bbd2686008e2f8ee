#!/usr/bin/env python3
"""am_iface.py — what include/am_iface.def says, for Verilog, make and the docs.

  am_iface.py vh FILE            the Verilog `defines (build/gen/am_defs.vh)
  am_iface.py mk FILE            the boards' sizes for fpga.mk (build/gen/am_iface.mk)
  am_iface.py docs [--write]     check (or rewrite: make lint) the generated
                                 tables in the docs: the text between
                                 <!-- am_iface:NAME --> and <!-- /am_iface -->
                                 must be what the table gives
  am_iface.py id [--write]       print (or write into AM_IF_ID) the interface's
                                 identity: FNV-1a over every other entry, doc
                                 strings left out; every image carries it
                                 (docs/programs.md, "The image")

The table is read line by line (one entry per line, at the start of a line),
checked (alignment, overlaps, windows, fields inside 32 bits, layouts that
fill their word from bit 0 without gaps, an AM_IF_ID that is the entries'
identity), and a file is
rewritten only when its text changes, so what includes it rebuilds only then.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEF = ROOT / "include" / "am_iface.def"
DOCS = {"au-registers": ROOT / "docs" / "actor-unit.md",
        "meta-layout": ROOT / "docs" / "actor-unit.md",
        "hdr-layout": ROOT / "docs" / "actor-unit.md",
        "memory-map": ROOT / "docs" / "architecture.md",
        "sys-registers": ROOT / "docs" / "architecture.md"}
# docs that name every fault cause as `NAME` (value)
CAUSE_DOCS = [ROOT / "docs" / "faults.md"]
BOARD_PARAMS = ("TABLE_SLOTS", "QAW", "STATS", "WD_W", "ENABLE_MUL", "ENABLE_DIV", "TWO_STAGE_SHIFT")
CAUSE_W, TRACE_W = 5, 4   # the trace port's and the registers' widths (rtl/)


def split_args(s):
    out, cur, q = [], "", False
    for ch in s:
        if ch == '"':
            q = not q
            cur += ch
        elif ch == "," and not q:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return [a[1:-1] if a.startswith('"') and a.endswith('"') else a for a in out]


def num(s):
    return int(s, 0)


def entries(path=DEF):
    """(line number, kind, the text between the parentheses) of every entry"""
    for ln, line in enumerate(path.read_text().splitlines(), 1):
        m = re.match(r"AM_IF_([A-Z]+)\((.*)\)\s*$", line)
        if m:
            yield ln, m.group(1), m.group(2)


def load(path=DEF):
    t = {k: [] for k in ("BLOCK", "REG", "ARRAY", "WALIAS", "FIELD", "VALUE", "CAUSE",
                         "TRACE", "SIZE", "LAYOUT", "BOARD", "ID")}
    for ln, kind, args in entries(path):
        if kind not in t:
            sys.exit(f"{path}:{ln}: unknown entry AM_IF_{kind}")
        t[kind].append((ln, split_args(args)))
    check(t, path, identity(path))
    return t


def identity(path=DEF):
    """FNV-1a (32 bits) over every entry but AM_IF_ID, in file order, each as
    its text with the doc strings and blanks left out, then a newline; and
    AM_IF_ID's revision. A doc string's wording is not the interface; every
    offset, value, size and layout is. (Not from load(): `id` must work
    while the identity written in the file is stale.)"""
    text, rev = "", None
    for _, kind, args in entries(path):
        if kind == "ID":
            rev = split_args(args)[0]
        else:
            text += f"AM_IF_{kind}(" + re.sub(r"\s+", "", re.sub(r'"[^"]*"', "", args)) + ")\n"
    h = 0x811C9DC5
    for b in (text + f"REV({rev})\n").encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def lin(s):
    """a layout's lsb or width: number, PARAM or number + PARAM, as (number, params)"""
    c, ps = 0, []
    for term in s.split("+"):
        term = term.strip()
        if re.fullmatch(r"[A-Z][A-Z0-9_]*", term):
            ps.append(term)
        else:
            c += num(term)
    return c, tuple(sorted(ps))


def lin_add(a, b):
    return a[0] + b[0], tuple(sorted(a[1] + b[1]))


def lin_str(a, paren=False):
    s = "+".join(([str(a[0])] if a[0] or not a[1] else []) + list(a[1]))
    return f"({s})" if paren and a[1] and (a[0] or len(a[1]) > 1) else s


def layouts(t):
    """{word: [(NAME, lsb, width, meaning)]}, lsb and width as lin(), in table order"""
    out = {}
    for _, a in t["LAYOUT"]:
        out.setdefault(a[0], []).append((a[1], lin(a[2]), lin(a[3]), a[4]))
    return out


def layout_width(fields):
    return lin_add(fields[-1][1], fields[-1][2])


# a register's access, as the docs' R/W column shows it; FW and FRW: the
# firmware's alone (a program's behavior that reads or writes it gets
# TRAP_BUS); W2FW: an array whose words 0 and 1 a program may write, the
# rest the firmware's alone
ACCESS = {"R": "R", "W": "W", "RW": "RW", "R / W": "R / W",
          "FW": "W (firmware)", "FRW": "RW (firmware)",
          "W2FW": "W (2 and up: firmware)"}


def regs(t, blk):
    """(name, byte offset, words, index letter, access, cycles, meaning), in table order"""
    out = []
    for ln, a in sorted(t["REG"] + t["ARRAY"], key=lambda e: e[0]):
        if a[0] != blk:
            continue
        if len(a) == 6:
            out.append((a[1], num(a[2]), 1, "", a[3], a[4], a[5]))
        else:
            out.append((a[1], num(a[2]), num(a[3]), a[4], a[5], a[6], a[7]))
    return out


def blocks(t):
    return {a[0]: (num(a[1]), num(a[2]), a[3], a[4]) for _, a in t["BLOCK"]}


def check(t, path, ident):
    errs = []
    if len(t["ID"]) != 1:
        errs.append("needs one AM_IF_ID(revision, identity, \"meaning\")")
    elif num(t["ID"][0][1][1]) != ident:
        errs.append(f"AM_IF_ID says {num(t['ID'][0][1][1]):#010x}, the entries' identity is {ident:#010x}: "
                    "an entry changed, so images built before it are another interface's; write the new "
                    "identity with scripts/am_iface.py id --write")
    bl = blocks(t)
    regions = {}
    for blk, (base, bits, *_) in bl.items():
        if base % (1 << bits) or not base >> 28 or base >> 32:
            errs.append(f"block {blk}: base {base:#x} is not a multiple of its window in a region 0x1..0xF << 28")
        if base >> 28 in regions:
            errs.append(f"block {blk}: region {base >> 28:#x} is {regions[base >> 28]}'s")
        regions[base >> 28] = blk
    for blk, (base, bits, *_) in bl.items():
        used = {}
        for name, off, words, _, acc, _, _ in regs(t, blk):
            if acc not in ACCESS:
                errs.append(f"{blk}_{name}: access {acc!r} is not one of {', '.join(ACCESS)}")
            if off % 4:
                errs.append(f"{blk}_{name}: offset {off:#x} is not word-aligned")
            if words & (words - 1) or off % (4 * words):
                errs.append(f"{blk}_{name}: {words} words at {off:#x}: not a power of two aligned to its size")
            if off + 4 * words > (1 << bits):
                errs.append(f"{blk}_{name}: {off:#x} is outside the {1 << bits}-byte window")
            for w in range(off // 4, off // 4 + words):
                if w in used:
                    errs.append(f"{blk}_{name} overlaps {blk}_{used[w]} at {4 * w:#x}")
                used[w] = name
    for _, a in t["FIELD"]:
        if num(a[3]) + num(a[4]) > 32:
            errs.append(f"{a[0]}_{a[1]}_{a[2]}: bits past 31")
    for word, fields in layouts(t).items():
        at, names = (0, ()), set()
        for name, lsb, w, _ in fields:
            if lsb != at:
                errs.append(f"{word}_{name}: at {lin_str(lsb)}, the bit after the field before is {lin_str(at)}")
            if w == (0, ()) or w[0] < 0:
                errs.append(f"{word}_{name}: width {lin_str(w)}")
            if name in names or name == "W":   # AM_<word>_W is the word's width
                errs.append(f"{word}_{name}: a name used twice, or W")
            names.add(name)
            at = lin_add(lsb, w)
    for kind, w in (("CAUSE", CAUSE_W), ("TRACE", TRACE_W)):
        vals = [num(a[1]) for _, a in t[kind]]
        if len(set(vals)) != len(vals) or max(vals) >= (1 << w):
            errs.append(f"{kind}: values must be distinct and below {1 << w}")
    if errs:
        sys.exit("\n".join(f"{path}: {e}" for e in errs))


# ---- Verilog ------------------------------------------------------------------------
def vh(t):
    bl = blocks(t)
    o = ["// am_defs.vh — written by scripts/am_iface.py from include/am_iface.def: edit that.",
         "// Registers are word addresses within their slave's window (the unit's",
         "// a = mem_addr[9:2], SYS's mem_addr[5:2], ...); <REG>_AT(a) decodes one",
         "// register, or an array's whole block, from the identifier a.",
         "// AM_<WORD>_<FIELD>_LSB / _W place a field of an internal word (1-bit",
         "// fields: AM_<WORD>_<FIELD> is the bit), AM_<WORD>_W is the word's width;",
         "// those that name a parameter (BEH_W, SLOT_W) need it where they are used.",
         "`ifndef AM_DEFS_VH", "`define AM_DEFS_VH"]
    for blk, (base, bits, *_) in bl.items():
        aw = bits - 2
        o.append(f"`define AM_{blk}_BASE 32'h{base:08x}")
        o.append(f"`define AM_{blk}_BITS {bits}")
        o.append(f"`define AM_{blk}_AW {aw}")
        for name, off, words, _, _, _, _ in regs(t, blk):
            w = off // 4
            o.append(f"`define AM_{blk}_{name} {aw}'h{w:0{(aw + 3) // 4}x}")
            lo = words.bit_length() - 1
            if lo == 0:
                o.append(f"`define AM_{blk}_{name}_AT(a) (a == {aw}'h{w:x})")
            else:
                hw = aw - lo
                o.append(f"`define AM_{blk}_{name}_AT(a) (a[{aw - 1}:{lo}] == {hw}'h{w >> lo:x})")
        fw_only = [f"`AM_{blk}_{name}_AT(a)" for name, _, _, _, acc, _, _ in regs(t, blk)
                   if acc in ("FW", "FRW")]
        for name, _, words, _, acc, _, _ in regs(t, blk):
            lo = words.bit_length() - 1
            if acc == "W2FW":   # words 2 and up: index bits above bit 0 not all 0
                assert lo >= 2, f"{blk}_{name}: W2FW needs an array of 4 words or more"
                fw_only.append(f"(`AM_{blk}_{name}_AT(a) && a[{lo - 1}:1] != {lo - 1}'d0)")
        if fw_only:
            o.append(f"`define AM_{blk}_FW_ONLY_AT(a) (" + " || ".join(fw_only) + ")")
        for _, a in t["WALIAS"]:
            if a[0] == blk:
                o.append(f"`define AM_{blk}_{a[1]} `AM_{blk}_{a[2]}")
                o.append(f"`define AM_{blk}_{a[1]}_AT(a) `AM_{blk}_{a[2]}_AT(a)")
    fw = {}
    for _, a in t["FIELD"]:
        lsb, w = num(a[3]), num(a[4])
        fw[f"{a[1]}_{a[2]}"] = w
        o.append(f"`define AM_{a[0]}_{a[1]}_{a[2]} {lsb + w - 1}:{lsb}")
    for _, a in t["VALUE"]:
        o.append(f"`define AM_{a[0]}_{a[1]}_{a[2]} {fw[a[1]]}'d{num(a[3])}")
    for _, a in t["CAUSE"]:
        o.append(f"`define AM_FAULT_{a[0]} {CAUSE_W}'d{num(a[1])}")
    for _, a in t["TRACE"]:
        o.append(f"`define AM_TRACE_{a[0]} {TRACE_W}'d{num(a[1])}")
    for _, a in t["SIZE"]:
        o.append(f"`define AM_DEFAULT_{a[0]} {num(a[1])}")
    for word, fields in layouts(t).items():
        o.append(f"`define AM_{word}_W {lin_str(layout_width(fields), True)}")
        for name, lsb, w, _ in fields:
            o.append(f"`define AM_{word}_{name}_LSB {lin_str(lsb, True)}")
            o.append(f"`define AM_{word}_{name}_W {lin_str(w, True)}")
            if w == (1, ()):
                o.append(f"`define AM_{word}_{name} {lin_str(lsb, True)}")
    for _, a in t["BOARD"]:
        for p, v in zip(BOARD_PARAMS, a[1:]):
            o.append(f"`define AM_BOARD_{a[0].upper()}_{p} {num(v)}")
    o.append("`endif")
    return "\n".join(o) + "\n"


def mk(t):
    o = ["# written by scripts/am_iface.py from include/am_iface.def: the boards' sizes"]
    for _, a in t["BOARD"]:
        o.append(f"am_iface_{a[0]} := " + " ".join(
            f"{p}={num(v)}" for p, v in zip(BOARD_PARAMS, a[1:])))
    return "\n".join(o) + "\n"


# ---- docs ---------------------------------------------------------------------------
def reg_rows(t, blk):
    fields = {}
    for _, a in t["FIELD"]:
        if a[0] == blk:
            lsb, w = num(a[3]), num(a[4])
            bits = f"[{lsb}]" if w == 1 else f"[{lsb + w - 1}:{lsb}]"
            fields.setdefault(a[1], []).append(f"{bits} {a[2]}" + (f" ({a[5]})" if a[5] else ""))
    walias = {a[2]: a[1] for _, a in t["WALIAS"] if a[0] == blk}
    rows = []
    for name, off, words, idx, acc, cyc, doc in regs(t, blk):
        width = 3 if blk == "AU" else 2
        o = f"0x{off:0{width}X}" + (f"+4{idx}" if words > 1 else "")
        n = name + (f"[{idx}]" if words > 1 else "")
        if name in walias:
            n += f" / {walias[name]}" + (f"[{idx}]" if words > 1 else "")
        meaning = ", ".join(fields.get(name, []))
        if doc:
            meaning = f"{meaning}: {doc}" if meaning and len(fields[name]) == 1 else \
                      (f"{meaning}; {doc}" if meaning else doc)
        rows.append((o, n, ACCESS[acc], meaning, cyc))
    return rows


def doc_table(t, name):
    if name == "au-registers":
        out = ["| offset | name | R/W | meaning | cycles |", "|---|---|---|---|---|"]
        out += [f"| {o} | {n} | {a} | {m} | {c} |" for o, n, a, m, c in reg_rows(t, "AU")]
    elif name == "sys-registers":
        out = ["| SYS offset | name | R/W | meaning |", "|---|---|---|---|"]
        out += [f"| `+{o[2:]}` | {n} | {a} | {m} |" for o, n, a, m, _ in reg_rows(t, "SYS")]
        vals = [f"{num(a[3])} {a[2]} ({a[4]})" for _, a in t["VALUE"] if a[1] == "RESTART_KIND"]
        out.append("")
        out.append("RESTART's KIND: 0 power-on or the reset button, " + ", ".join(vals) + ".")
    elif name == "memory-map":
        out = ["| base | size | what | notes |", "|---|---|---|---|",
               "| `0x0000_0000` | `RAM_WORDS × 4` (64 KiB in simulation) | RAM: firmware code, data, "
               "stack | initialised from the firmware image (`$readmemh`) |"]
        for blk, (base, bits, what, notes) in blocks(t).items():
            size = f"{1 << (bits - 10)} KiB window" if bits >= 10 else f"{1 << bits} B"
            out.append(f"| `0x{base >> 16:04X}_{base & 0xFFFF:04X}` | {size} | {what} | {notes} |")
        out.append("| anything else | | bus error | the access completes (reads 0, writes ignored) "
                   "and the SoC restarts the core → `TRAP_BUS` |")
    elif name.endswith("-layout"):
        word = name[:-len("-layout")].upper()
        fields = layouts(t)[word]
        out = ["| bits | field | meaning |", "|---|---|---|"]
        for fname, lsb, w, doc in fields:
            msb = lin_add(lsb, (w[0] - 1, w[1]))
            bits = f"[{lin_str(lsb)}]" if w == (1, ()) else f"[{lin_str(msb)}:{lin_str(lsb)}]"
            out.append(f"| {bits} | {fname} | {doc} |")
        out.append("")
        out.append(f"{word}_W = {lin_str(layout_width(fields))} bits.")
    else:
        raise KeyError(name)
    return "\n".join(out)


def docs(t, write):
    bad = 0
    for name, path in DOCS.items():
        text = path.read_text()
        # (an empty section, as first written, has no newline before its end)
        pat = re.compile(r"(<!-- am_iface:%s -->\n)(.*?)(\n?<!-- /am_iface -->)" % re.escape(name), re.S)
        m = pat.search(text)
        if not m:
            print(f"am_iface: {path.relative_to(ROOT)} has no <!-- am_iface:{name} --> section")
            bad += 1
            continue
        want = doc_table(t, name)
        if m.group(2) != want or m.group(3)[0] != "\n":
            if write:
                path.write_text(text[:m.start(2)] + want + "\n" + text[m.end(3) - len("<!-- /am_iface -->"):])
                print(f"am_iface: rewrote {path.relative_to(ROOT)} ({name})")
            else:
                print(f"am_iface: {path.relative_to(ROOT)}'s {name} table differs from "
                      f"include/am_iface.def (scripts/am_iface.py docs --write)")
                bad += 1
    for path in CAUSE_DOCS:
        text = path.read_text()
        for _, a in t["CAUSE"]:
            if num(a[1]) and f"`{a[0]}` ({num(a[1])})" not in text:
                print(f"am_iface: {path.relative_to(ROOT)} does not name `{a[0]}` ({num(a[1])})")
                bad += 1
    if not bad:
        print("am_iface: docs' tables agree with include/am_iface.def")
    return 1 if bad else 0


def write_if_changed(path, text):
    p = Path(path)
    if p.exists() and p.read_text() == text:
        return
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def main(argv):
    if len(argv) >= 2 and argv[0] in ("vh", "mk"):
        t = load()
        write_if_changed(argv[1], (vh if argv[0] == "vh" else mk)(t))
        return 0
    if argv and argv[0] == "docs":
        return docs(load(), "--write" in argv)
    if argv and argv[0] == "id":
        ident = identity()
        if "--write" in argv:
            text = DEF.read_text()
            new = re.sub(r"^(AM_IF_ID\(\s*[^,]+,\s*)0x[0-9A-Fa-f]+", lambda m: f"{m.group(1)}{ident:#010x}",
                         text, count=1, flags=re.M)
            if new == text and f"{ident:#010x}" not in text:
                sys.exit(f"{DEF}: no AM_IF_ID(revision, 0x..., \"meaning\") line to write")
            write_if_changed(DEF, new)
        print(f"{ident:#010x}")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
