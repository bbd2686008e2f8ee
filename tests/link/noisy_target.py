#!/usr/bin/env python3
"""noisy_target.py PATH SECONDS -- a "machine" on a pseudo-terminal linked at
PATH that answers every byte it gets with a burst of random bytes ending in a
delimiter: a wrong baud rate, as the host sees it. For tests/link/cli.sh:
am-link must say that it got no answer, and that corrupted frames came."""
import os, random, select, sys, time, tty

path, seconds = sys.argv[1], float(sys.argv[2])
master, slave = os.openpty()
tty.setraw(slave)
if os.path.lexists(path):
    os.unlink(path)
os.symlink(os.ttyname(slave), path)
end = time.time() + seconds
try:
    while time.time() < end:
        r, _, _ = select.select([master], [], [], 0.1)
        if r:
            os.read(master, 4096)
            os.write(master, bytes(random.randrange(1, 256) for _ in range(24)) + b"\0")
finally:
    os.unlink(path)
