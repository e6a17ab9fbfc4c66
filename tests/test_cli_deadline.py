"""The command's alarm (cli/deadline.py): work that outlives the deadline is interrupted,
also when Python drops the alarm's first exception, as it does with one raised inside a
weakref callback (seen in CI: "Exception ignored in: ... WeakKeyDictionary ... remove")."""

from __future__ import annotations

import signal
import time
import weakref

import pytest

from csp_puzzles.cli.deadline import Clock, whole_command
from csp_puzzles.core.errors import LimitReached

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"),
                                reason="this platform has no SIGALRM timer")


def work(seconds: float) -> None:
    """Busy work that stops by itself after `seconds` (far more than any alarm here needs)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


class Thing:
    pass


def test_work_past_the_deadline_is_interrupted():
    with pytest.raises(LimitReached), whole_command(Clock(0.01)):
        work(60)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_alarm_dropped_inside_a_weakref_callback_rings_again():
    with pytest.raises(LimitReached), whole_command(Clock(600)):
        ring = signal.getsignal(signal.SIGALRM)
        thing = Thing()
        # the alarm, ringing while Python runs a weakref callback: its exception is dropped
        held = weakref.ref(thing, lambda _: ring(signal.SIGALRM, None))
        del thing
        assert held() is None
        work(60)  # long before the 600 s deadline: only a second ring can stop it


def test_afterwards_no_alarm_is_left():
    before = signal.getsignal(signal.SIGALRM)
    with whole_command(Clock(600)):
        pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before
