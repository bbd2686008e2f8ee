#!/usr/bin/env python3
"""am_defs_gen.py -- FuseSoC generator (rtl/am_actor_unit.core's am_defs_gen):
a core holding am_defs.vh, the Verilog `defines of the hardware/firmware
interface, written by scripts/am_iface.py from include/am_iface.def (as
make writes build/gen/am_defs.vh), so that every RTL file's
`include "am_defs.vh"` finds it wherever FuseSoC copies the sources.

FuseSoC runs it as `python3 am_defs_gen.py INPUT.yml` in an empty
directory; it writes am_defs.vh and a .core named INPUT's vlnv there.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
AM_IFACE = os.path.join(HERE, "..", "am_iface.py")


def vlnv(path):
    # the input is YAML; its vlnv line is all this needs (no PyYAML required)
    for line in open(path):
        if line.startswith("vlnv:"):
            return line.split(":", 1)[1].strip().strip("'\"")
    sys.exit(f"am_defs_gen: no vlnv in {path}")


def main():
    name = vlnv(sys.argv[1])
    r = subprocess.run([sys.executable, AM_IFACE, "vh", "am_defs.vh"])
    if r.returncode != 0 or not os.path.isfile("am_defs.vh"):
        sys.exit("am_defs_gen: scripts/am_iface.py vh failed (include/am_iface.def)")
    with open(name.replace(":", "_") + ".core", "w") as f:
        f.write("CAPI=2:\n"
                "# written by actormachine's scripts/fusesoc/am_defs_gen.py from\n"
                "# include/am_iface.def\n"
                "name: " + name + "\n"
                "description: the actor unit's interface defines (am_defs.vh)\n"
                "filesets:\n"
                "  defs:\n"
                "    files: [am_defs.vh: {is_include_file: true}]\n"
                "    file_type: verilogSource\n"
                "targets:\n"
                "  default:\n"
                "    filesets: [defs]\n")


if __name__ == "__main__":
    main()
