#!/usr/bin/env python3
"""scripts/fpga/rtl_cut.py -- a copy of the RTL with one feature cut out.

    rtl_cut.py NAME SRC_DIR DST_DIR   copy SRC_DIR (rtl/) to DST_DIR with cut NAME
    rtl_cut.py --list                 the cuts, one per line: name and what it removes
    rtl_cut.py --check SRC_DIR        every cut applies to SRC_DIR (exit 1 if one does not)

What a feature of the machine costs on a board is measured by synthesizing
the board without it (`make fpga-synth-variants BOARD=... FPGA_VARIANTS=
cut-gc ...`, scripts/fpga/synth_variants.sh). A cut is a few exact text edits of the RTL that tie the feature off
(its trigger to 0, its registers unread), so that synthesis removes its
logic; the copy is NOT a working design: it is an upper bound of what the
feature costs, for planning, and is never simulated or shipped. Every edit
must match its file exactly once; when the RTL changes under a cut, the cut
fails with the edit it could not apply (make fpga-test runs --check) rather
than measuring something else.
"""
import shutil
import sys
from pathlib import Path

U, S, R = "am_actor_unit.v", "am_soc.v", "am_uart.v"
REGS, GCT, WD = "am_unit_regs.v", "am_unit_gctrig.v", "am_unit_wdog.v"
DISP = "am_dispatch.v"
# name -> (what it removes, [(file, old text, new text), ...])
CUTS = {
    "cut-readback": (
        "the unit's register read-back (every register reads 0)",
        [(REGS, "    rd_reg = 32'd0;\n    case (a)\n",
                "    rd_reg = 32'd0;\n    case (8'hFF)   // rtl_cut: no register reads (none is at 0x3FC)\n")]),
    "cut-cfgread": (
        "read-back of the configuration registers (CTRL, BEH_COUNT, WATCHDOG, "
        "FAULT_HANDLER, GC_LOW, GC_PERIOD)",
        [(REGS, "      `AM_AU_WATCHDOG: rd_reg[WD_W-1:0] = wd_budget_i;\n", ""),
         (REGS, "      `AM_AU_FAULT_HANDLER: rd_reg = fh_i;\n", ""),
         (REGS, "      `AM_AU_CTRL: rd_reg = ctrl_w;\n", ""),
         (REGS, "      `AM_AU_BEH_COUNT: rd_reg[BEH_W:0] = beh_count_o;\n", ""),
         (REGS, "      `AM_AU_GC_LOW: rd_reg[SLOT_W:0] = gc_low_i;\n", ""),
         (REGS, "      `AM_AU_GC_PERIOD: rd_reg[15:0] = gc_period_i;\n", "")]),
    "cut-gc": (
        "the collector and its trigger",
        [(U, ".start_i(d_gc)", ".start_i(1'b0)"),
         (GCT, "  wire period_out = (period_i != 16'd0) && (left == {LW{1'b0}});",
               "  wire period_out = 1'b0;   // rtl_cut"),
         (GCT, "  assign due_o        = (armed_q && (restore_i ? low_snap : low_now)) || period_out;",
               "  assign due_o        = 1'b0;   // rtl_cut"),
         (GCT, "  assign due_commit_o = chg_q || (armed_q && lt_q) || period_out;",
               "  assign due_commit_o = 1'b0;   // rtl_cut")]),
    "cut-faults": (
        "fault delivery (FAULT_HANDLER, SET_HANDLER, the F_* registers)",
        [(U, ".fh_set_i(fh_set)", ".fh_set_i(1'b0)"),
         (REGS, "      `AM_AU_FAULT_HANDLER: rd_reg = fh_i;\n", ""),
         (U, ".q_hdr_i(q_hdr), .q_data_i(q_rdata), .fh_i(fh_q));",
             ".q_hdr_i(q_hdr), .q_data_i(q_rdata), .fh_i(32'd0));")]),
    "cut-watchdog": (
        "the watchdog (WATCHDOG, its budget counter and abort)",
        [(WD, "  assign fire_o   = open_i && !hold_q && (over_q || stack_i);",
              "  assign fire_o   = open_i && !hold_q && stack_i;   // rtl_cut (the stack guard stays)"),
         (WD, "  assign over_fire_o = open_i && !hold_q && over_q;",
              "  assign over_fire_o = 1'b0;   // rtl_cut"),
         (WD, "  assign over_d_o = open_i && on_q && (rem[WD_W-1:1] == 0);",
              "  assign over_d_o = 1'b0;   // rtl_cut"),
         (REGS, "      `AM_AU_WATCHDOG: rd_reg[WD_W-1:0] = wd_budget_i;\n", "")]),
    "cut-traps": (
        "the SoC's trap tracking (RESTART_PC and the fetch-sequence bit)",
        [(S, "    if (fetch_start && !rs_hold_q) begin", "    if (1'b0) begin   // rtl_cut")]),
    "cut-forward": (
        "FORWARD's copy engine (am_unit_fwd: FWD_FROM, FORWARD[n])",
        [(U, ".w_from_i(w_fwd_from && d_open)", ".w_from_i(1'b0)"),
         (U, ".fwd_i(a_fwd)", ".fwd_i(1'b0)")]),
    "cut-quick": (
        "QUICK (a commit without creates or BECOME ends and fetches in its own cycle)",
        [(DISP, "  wire quick     = (state_q == S_RUN)", "  wire quick     = 1'b0 && (state_q == S_RUN)")]),
    "cut-lareads": (
        "unit reads started on the core's look-ahead (a wait state per unit read)",
        [(S, ".rd_la_i(bus_on_d && la_go && la_read && rgn_d[1])", ".rd_la_i(1'b0)")]),
    "cut-devices": (
        "the dispatch point's DEVICE entry (SYS.DEVICES: the UART's receiver asks)",
        [(S, "  wire dev_req = dev_en_q && urt_rx_valid;", "  wire dev_req = 1'b0;   // rtl_cut")]),
    "cut-uartrx": (
        "the UART's receiver and its FIFO",
        [(R, "      frame_err_q <= 8'd0;\n    end else begin\n      rx_sync_q",
             "      frame_err_q <= 8'd0;\n    end else if (1'b0) begin   // rtl_cut\n      rx_sync_q")]),
}


def apply(name, src, dst=None):
    """Apply cut NAME to the RTL in src (into dst when given); return the errors."""
    errors = []
    texts = {}
    for f, old, new in CUTS[name][1]:
        text = texts.get(f)
        if text is None:
            text = (Path(src) / f).read_text()
        n = text.count(old)
        if n != 1:
            first = old.strip().splitlines()[0]
            errors.append(f"{name}: {src}/{f}: the text to cut occurs {n} times, not once: '{first}'")
            continue
        texts[f] = text.replace(old, new)
    if dst is not None and not errors:
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst)
        for f, text in texts.items():
            (Path(dst) / f).write_text(text)
    return errors


def main(argv):
    if argv[1:2] == ["--list"]:
        for name, (what, _) in CUTS.items():
            print(f"{name:13s} {what}")
        return 0
    if len(argv) == 3 and argv[1] == "--check":
        errors = [e for name in CUTS for e in apply(name, argv[2])]
        for e in errors:
            print(f"rtl_cut: {e}")
        print(f"rtl_cut: {len(CUTS) - len({e.split(':')[0] for e in errors})} of {len(CUTS)} cuts apply to {argv[2]}")
        return 1 if errors else 0
    if len(argv) != 4:
        print("usage: rtl_cut.py NAME SRC_DIR DST_DIR | --list | --check SRC_DIR")
        return 2
    name, src, dst = argv[1:]
    if name not in CUTS:
        print(f"rtl_cut: unknown cut '{name}' (one of: {' '.join(CUTS)})")
        return 2
    errors = apply(name, src, dst)
    for e in errors:
        print(f"rtl_cut: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
