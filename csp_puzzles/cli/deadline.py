"""One deadline for a whole command: reading, parsing, building the model and searching.

The search checks its own deadline between nodes and inside propagation, and reports
what it found so far. Reading, parsing and building a model do not check the clock, so
`whole_command` also sets an alarm (SIGALRM, where the platform has it) a little after
the deadline: if the work is still running then, `LimitReached` interrupts it (the one
exception for running out; a search caught in the middle reports its status `limit`).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ..core.errors import LimitReached

#: How long after the deadline the alarm rings: the search's own check comes first when
#: it can, so its statistics are kept.
GRACE = 0.1


class Clock:
    """Seconds left until a deadline fixed when the clock is made (None: no deadline).

    `spent` seconds are already gone: a command started as its own process counts the
    interpreter's start and the imports too (see `process_age`).
    """

    def __init__(self, timeout: float | None, spent: float = 0.0):
        self.deadline = None if timeout is None else time.perf_counter() + timeout - spent

    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.perf_counter())


def process_age() -> float:
    """Seconds since this process started, from Linux's /proc (0.0 where it is missing)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime", encoding="ascii") as handle:
            uptime = float(handle.read().split()[0])
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22, starttime
    except (OSError, ValueError, IndexError):
        return 0.0
    return max(0.0, uptime - started)


@contextmanager
def whole_command(clock: Clock) -> Iterator[None]:
    """Raise `LimitReached` in the work if it outlives the clock's deadline by `GRACE`."""
    left = clock.remaining()
    usable = (left is not None and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    armed = [True]

    def ring(signum: int, frame: object) -> None:
        if not armed[0]:
            return
        # Python drops an exception raised while it runs a weakref callback or a __del__
        # ("Exception ignored in ..."): the alarm rings again until one gets through.
        signal.setitimer(signal.ITIMER_REAL, GRACE)
        raise LimitReached("the command ran past its deadline")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, (left or 0.0) + GRACE)
    try:
        yield
    finally:
        armed[0] = False  # first: from here on a ring does nothing
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
