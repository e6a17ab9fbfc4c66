"""Other processes that keep every core busy while the notebooks run (or a benchmark
measures the playground at a known load: `csp-puzzles bench playground`).

Nothing a notebook asserts may depend on how fast the machine is. A count of what fits in
two seconds, or a solve that must finish before a timeout, passes on an idle machine and
fails on a busy one; so the notebooks are run while `BusyCores` keeps every core busy
(two spinning processes a core: the notebook's kernel then gets well under half a core),
and such an assert fails at once instead of now and then.

Each spinning process runs in a session of its own, as a notebook's kernel does: Linux
shares the processor fairly between sessions first (autogroups), so spinners in the test
run's own session would only slow the test run, never the kernel. Each one checks that the
process that started it is still there and stops as soon as it is gone, so a test run that
is killed leaves nothing spinning behind.
"""

from __future__ import annotations

import os
import subprocess
import sys

#: spinning processes per core: with two a core, a kernel gets at most a third of one
PER_CORE = 2

SPIN = """
import os, sys
parent = int(sys.argv[1])
while os.getppid() == parent:
    for _ in range(200_000):
        pass
"""


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class BusyCores:
    """Spinning processes, `PER_CORE` for every core, from `start()` until `stop()`.

    Also a context manager: `with BusyCores(): ...`.
    """

    def __init__(self, count: int | None = None) -> None:
        self.count = count if count is not None else PER_CORE * cores()
        self.processes: list[subprocess.Popen] = []

    def start(self) -> None:
        if self.processes:
            return
        self.processes = [
            subprocess.Popen([sys.executable, "-I", "-S", "-c", SPIN, str(os.getpid())],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
            for _ in range(self.count)]

    def stop(self) -> None:
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.wait()
        self.processes = []

    def __enter__(self) -> BusyCores:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
