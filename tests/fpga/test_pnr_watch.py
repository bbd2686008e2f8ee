#!/usr/bin/env python3
"""test_pnr_watch.py -- pnr_watch.py on stand-ins for a place-and-route run.

Each stand-in is a small Python program that writes nextpnr-ice40 router1
rows ("Info: ITER | a b | c d | LEFT| t t|") to its log, one every 10 ms:
  * a stall: the arcs left stay at 2,126 -- must be stopped (exit 3) long
    before the stand-in would end, with the message at the end of the log;
  * a routing that finishes: the arcs left go down to 0 with a plateau of
    5 rows on the way (as a routing that finishes has at most) -- must run
    to its end and give its exit code (0);
  * a failing command (exit 1 after a few rows) -- its code must come back;
  * a stale log of an earlier stalled run must not count.
Prints PASS/FAIL per check; exit 1 on a failure.
"""
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
TOOLS = HERE.parent.parent / "scripts" / "fpga"
from checks import Checks  # noqa: E402
STANDIN = r"""
import sys, time
log, lefts, code = sys.argv[1], [int(x) for x in sys.argv[2].split(",")], int(sys.argv[3])
with open(log, "w") as f:
    for i, left in enumerate(lefts):
        f.write(f"Info: {1000 * (i + 1):10d} | {i:8d} {i:8d} | 1000    0 | {left:9d}|   0.10   1.00|\n")
        f.flush()
        time.sleep(0.01)
sys.exit(code)
"""


def run(tmp, lefts, code, stall=20, stale=None):
    log = tmp / "pnr.log"
    if stale:
        log.write_text(stale)
    else:
        log.unlink(missing_ok=True)
    prog = tmp / "standin.py"
    prog.write_text(STANDIN)
    t = time.time()
    r = subprocess.run([sys.executable, str(TOOLS / "pnr_watch.py"), str(log), str(stall), "--",
                        sys.executable, str(prog), str(log), ",".join(map(str, lefts)), str(code)],
                       capture_output=True, text=True)
    return r.returncode, time.time() - t, log.read_text(), r.stderr


def main():
    check = Checks("test_pnr_watch")

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        stalled = [5000, 4000, 3000, 2126] + [2126] * 3000     # 30 s if let run
        rc, secs, log, err = run(tmp, stalled, 0)
        check(rc == 3 and secs < 20 and "ERROR: pnr_watch: the router made no progress" in log
              and "2126 arcs left" in err,
              f"a stalled router is stopped (exit {rc} after {secs:.1f} s; the log ends "
              f"{log.splitlines()[-1][:60]!r})")
        finishing = list(range(3000, 2000, -100)) + [2000] * 5 + list(range(1900, -1, -100))
        rc, secs, log, err = run(tmp, finishing, 0)
        check(rc == 0 and "pnr_watch" not in log,
              f"a routing that finishes, a 5-row plateau on the way, runs to its end (exit {rc})")
        rc, secs, log, err = run(tmp, [300, 200, 100], 1)
        check(rc == 1, f"a failing command's exit code comes back ({rc})")
        stale = "".join(f"Info: {i:10d} | 1 1 | 1000    0 | {2126:9d}|   0.1   1.0|\n"
                        for i in range(100))
        rc, secs, log, err = run(tmp, finishing, 0, stale=stale)
        check(rc == 0, f"an earlier stalled run's log does not count (exit {rc})")
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
