#!/usr/bin/env python3
"""fpga_blocks.py STAT BOARD -- where a board's logic goes, block by block.

Reads the `stat` output of the board's synthesis run with the hierarchy kept
(`make fpga-blocks BOARD=...`, synth_* -noflatten) and prints one row per
module: LUTs, flip-flops and carry cells (iCE40: SB_LUT4, SB_DFF*, SB_CARRY;
ECP5: LUT4, TRELLIS_FF, CCU2C), largest first, with the total. The totals
are close to, not equal to, the flattened build's (report.md): without
flattening, yosys cannot optimise across module boundaries.
"""
import re
import sys

NAMES = {  # module -> what it is (docs/fpga.md)
    "picorv32": "PicoRV32 (the core)",
    "am_actor_unit": "actor unit top: connections",
    "am_unit_bus": "unit bus: handshake, decode",
    "am_unit_regs": "unit registers, read-back",
    "am_unit_rdata": "unit read data port",
    "am_unit_ext": "unit operations, SPAWN/INJECT/FREE",
    "am_unit_hdr": "unit queue-header port",
    "am_unit_wdog": "watchdog",
    "am_unit_fault": "fault handler and record",
    "am_unit_gctrig": "collector trigger",
    "am_unit_stats": "statistics counters",
    "am_unit_dp": "dispatch point",
    "am_unit_fwd": "FORWARD's copy engine",
    "am_unit_trace": "trace port",
    "am_soc_rdata": "SoC read data",
    "am_gc": "collector",
    "am_dispatch": "dispatcher",
    "am_uart": "UART",
    "am_actor_table": "actor table",
    "am_event_queue": "event queue",
    "am_txn": "transaction staging",
    "am_ram": "RAM glue",
    "am_soc": "SoC: decode, bus ready, SYS",
    "am_board_reset": "board reset",
    "am_board_soc": "board wrapper",
    "am_icebreaker": "board top", "am_hx8k": "board top", "am_ulx3s": "board top",
    "am_reg2x16": "two registers (iCEBreaker: DSP)",
    "am_down_counter": "down counter (iCEBreaker: DSP)",
}
LUT = r"SB_LUT4|LUT4"
FF = r"SB_DFF\w*|TRELLIS_FF"
CARRY = r"SB_CARRY|CCU2C"


CELL = re.compile(r"^\s+(?:([A-Za-z$]\S*)\s+(\d+)|(\d+)\s+([A-Za-z$]\S*))\s*$", re.M)


def stat_cells(text):
    """Cell counts by type in a yosys `stat` text: lines "  SB_LUT4  3098"
    (yosys 0.23) or "  3098  SB_LUT4" (newer). fpga_report.py uses it too."""
    cells = {}
    for m in CELL.finditer(text):
        name, n = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        cells[name] = cells.get(name, 0) + int(n)
    return cells


def count(body, kinds):
    """Cells of the kinds matching the pattern `kinds` in one module's stat."""
    return sum(n for name, n in stat_cells(body).items() if re.fullmatch(kinds, name))


def module_name(header):
    # "$paramod$<hash>\am_txn" or "$paramod\am_uart\DIV=..." or "am_board_reset"
    parts = [p for p in header.split("\\") if p and not p.startswith("$paramod")]
    return parts[0] if parts else header


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: fpga_blocks.py STAT BOARD")
    text = open(sys.argv[1]).read()
    # instances of each module (yosys' "design hierarchy": name, count); a
    # module used twice counts twice, and the variants of one module (its
    # parameters) add up to one row
    insts = {}
    if "=== design hierarchy ===" in text:
        hier = text.split("=== design hierarchy ===", 1)[1].split("Number of", 1)[0]
        for line in hier.splitlines():
            f = line.split()
            if len(f) == 2 and f[1].isdigit():
                insts[f[0]] = int(f[1])
    by_name = {}
    for block in text.split("=== ")[1:]:
        header, body = block.split(" ===", 1)
        name = module_name(header.strip())
        if name == "design hierarchy" or "design hierarchy" in header:
            continue
        n = insts.get(header.strip(), 1)
        body = body.split("=== ")[0]
        lut, ff, cy = count(body, LUT), count(body, FF), count(body, CARRY)
        if lut or ff or cy:
            o = by_name.get(name, (0, 0, 0))
            by_name[name] = (o[0] + n * lut, o[1] + n * ff, o[2] + n * cy)
    rows = [(lut, ff, cy, name) for name, (lut, ff, cy) in by_name.items()]
    if not rows:
        sys.exit(f"fpga_blocks: no cells found in {sys.argv[1]}")
    rows.sort(reverse=True)
    print(f"fpga blocks ({sys.argv[2]}, synthesis with the hierarchy kept):")
    print(f"  {'block':56s} {'LUT4':>6s} {'FF':>6s} {'carry':>6s}")
    for lut, ff, cy, name in rows:
        label = f"{NAMES[name]} ({name})" if name in NAMES else name
        print(f"  {label:56s} {lut:6,d} {ff:6,d} {cy:6,d}")
    print(f"  {'total':56s} {sum(r[0] for r in rows):6,d} {sum(r[1] for r in rows):6,d} "
          f"{sum(r[2] for r in rows):6,d}")


if __name__ == "__main__":
    main()
