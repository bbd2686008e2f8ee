#!/usr/bin/env python3
"""pnr_watch.py LOG STALL -- CMD...: run a place-and-route command (CMD, which
writes its log to LOG) and stop it when its router stalls.

nextpnr-ice40's router1 can stop making progress on a dense design: it keeps
ripping up and rerouting a thousand arcs per batch while the arcs left stay
the same, for as long as it is let run (the iCEBreaker's netlist with
ice40_opt.py's bridge pass at 3 of 10 seeds, docs/fpga.md, steps 32-33).
Each batch prints a row ending in "remaining arcs | time"; when STALL rows
in a row have not brought the arcs left below the fewest seen (a routing
that finishes has gone at most 5 rows without, a stalled one hundreds), the
command is killed and this exits 3, with a message on stderr and at the end
of LOG. Otherwise it exits with the command's code.
"""
import re
import subprocess
import sys
import time

ROW = re.compile(r"^Info:\s+\d+ \|\s+\d+\s+\d+ \|\s+\d+\s+\d+ \|\s+(\d+)\|")


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        print("usage: pnr_watch.py LOG STALL -- CMD...", file=sys.stderr)
        return 2
    log, stall, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[4:]
    open(log, "w").close()     # no rows of an earlier run
    proc = subprocess.Popen(cmd)
    fewest, since, seen = None, 0, 0
    while proc.poll() is None:
        time.sleep(2)
        try:
            with open(log, errors="replace") as f:
                rows = [int(m.group(1)) for m in map(ROW.match, f) if m]
        except OSError:
            continue
        for left in rows[seen:]:
            if fewest is None or left < fewest:
                fewest, since = left, 0
            else:
                since += 1
        seen = len(rows)
        if since >= stall:
            proc.kill()
            proc.wait()
            msg = (f"pnr_watch: the router made no progress in {since} batches ({fewest} arcs "
                   f"left): stopped; another seed may route")
            with open(log, "a") as f:
                f.write(f"ERROR: {msg}\n")
            print(msg, file=sys.stderr)
            return 3
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
