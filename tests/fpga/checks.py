"""checks.py -- PASS/FAIL lines for the tests in tests/fpga (test_ice40_opt.py,
test_pnr_watch.py): one line per check, and a summary with the exit code."""


class Checks:
    def __init__(self, name):
        self.name, self.fails, self.count = name, 0, 0

    def __call__(self, ok, what):
        print(("PASS " if ok else "FAIL ") + what)
        self.fails += 0 if ok else 1
        self.count += 1

    def summary(self):
        """Prints "NAME: N passed, M failed"; the exit code (1 on a failure)."""
        print(f"{self.name}: {self.count - self.fails} passed, {self.fails} failed")
        return 1 if self.fails else 0
