"""One deadline for a whole command: reading, parsing, building the model and searching.

The search checks its own deadline between nodes and inside propagation, and reports
what it found so far. Reading, parsing and building a model do not check the clock, so
`whole_command` also sets an alarm (SIGALRM, where the platform has it) a little after
the deadline: if the work is still running then, `DeadlinePassed` interrupts it.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

#: How long after the deadline the alarm rings: the search's own check comes first when
#: it can, so its statistics are kept.
GRACE = 0.1
class DeadlinePassed(BaseException):
    """The alarm rang: the command is past its deadline (a BaseException, like Ctrl-C, so
    that no `except Exception` in the work can swallow it)."""


class Clock:
    """Seconds left until a deadline fixed when the clock is made (None: no deadline)."""

    def __init__(self, timeout: float | None):
        self.deadline = None if timeout is None else time.perf_counter() + timeout

    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.perf_counter())


@contextmanager
def whole_command(clock: Clock) -> Iterator[None]:
    """Raise `DeadlinePassed` in the work if it outlives the clock's deadline by `GRACE`."""
    left = clock.remaining()
    usable = (left is not None and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def ring(signum: int, frame: object) -> None:
        raise DeadlinePassed

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, (left or 0.0) + GRACE)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
