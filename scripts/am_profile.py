#!/usr/bin/env python3
"""am_profile.py -- where a program's cycles go on the simulated SoC, by function.

    am-sim --profile prof.txt PROGRAM
    scripts/am_profile.py prof.txt build/programs/KEY/fw/fw.elf [--dispatches N] [--top K]

prof.txt holds "PC CYCLES" lines (am-sim --profile: the core's program
counter, sampled every cycle). The firmware's ELF gives the functions (its
symbol table, read with the RISC-V toolchain's nm). Prints one line per
function, most cycles first: cycles, share, and -- with --dispatches, the
run's dispatch count (am-sim prints it) -- cycles per dispatch. Cycles at a
PC outside every function are "the dispatch point" (the core waits there
for the unit: commit, next event) or "outside the image".

The PC is the instruction the core executes; a cycle in which it fetches
the next one counts for the one before, so the split is per instruction
boundaries as PicoRV32 sees them, close enough to say which behavior or
library function costs what.
"""
import bisect
import subprocess
import sys

import am_iface

NM = "riscv64-unknown-elf-nm"
# the dispatch point, three words (include/am_iface.def)
DISPATCH_PC = next(am_iface.num(a[1]) for _, a in am_iface.load()["SIZE"] if a[0] == "DISPATCH_PC")


def functions(elf):
    try:
        out = subprocess.run([NM, "-S", "--defined-only", elf], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("am_profile: cannot read the symbols of %s: %s" % (elf, e))
    fns = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tT":
            fns.append((int(f[0], 16), int(f[1], 16), f[3]))
    fns.sort()
    return fns


def main(argv):
    args, disp, top = [], 0, 25
    it = iter(argv)
    for a in it:
        if a == "--dispatches":
            disp = int(next(it, "0"))
        elif a == "--top":
            top = int(next(it, "25"))
        else:
            args.append(a)
    if len(args) != 2:
        sys.exit(__doc__.strip().split("\n\n")[1])
    fns = functions(args[1])
    starts = [f[0] for f in fns]
    total, by = 0, {}
    with open(args[0]) as f:
        for n, line in enumerate(f, 1):
            try:
                pc, cyc = line.split()
                pc, cyc = int(pc, 16), int(cyc)
            except ValueError:
                sys.exit("am_profile: %s:%d: not a 'PC CYCLES' line" % (args[0], n))
            total += cyc
            i = bisect.bisect_right(starts, pc) - 1
            if i >= 0 and pc < fns[i][0] + max(fns[i][1], 4):
                name = fns[i][2]
            elif DISPATCH_PC <= pc <= DISPATCH_PC + 8:
                name = "(the dispatch point)"
            else:
                name = "(outside the image)"
            by[name] = by.get(name, 0) + cyc
    print("%12s %7s %s%s" % ("cycles", "share", "per dispatch  " if disp else "", "function"))
    for name, cyc in sorted(by.items(), key=lambda x: -x[1])[:top]:
        per = "%12.1f  " % (cyc / disp) if disp else ""
        print("%12d %6.2f%% %s%s" % (cyc, 100.0 * cyc / total, per, name))
    print("%12d total" % total)


if __name__ == "__main__":
    main(sys.argv[1:])
