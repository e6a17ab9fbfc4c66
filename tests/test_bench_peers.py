"""`run_limited` stops a peer at its deadline: by fork, else a thread, else after the fact."""

from __future__ import annotations

import time

import pytest

from csp_puzzles.bench import peers


def slow() -> str:
    time.sleep(3)
    return "late"


@pytest.mark.parametrize("way", ["fork", "thread"])
def test_run_limited_returns_values_and_stops_at_the_deadline(way: str, monkeypatch) -> None:
    if way == "fork" and not peers._can_fork():
        pytest.skip("this system cannot fork")
    if way == "thread":
        monkeypatch.setattr(peers, "_can_fork", lambda: False)
    value, seconds, finished = peers.run_limited(lambda: sum(range(10)), 5)
    assert (value, finished) == (45, True) and 0 <= seconds < 5
    start = time.perf_counter()
    value, seconds, finished = peers.run_limited(slow, 0.2)
    assert (value, finished) == (None, False)
    assert 0.2 <= seconds and time.perf_counter() - start < 2.5  # did not wait for the end


def test_without_processes_or_threads_the_time_decides() -> None:
    """Pyodide's way: the function runs to its end; past the limit it counts as unfinished."""
    assert peers._run_to_the_end(lambda: 7, 5)[::2] == (7, True)
    value, seconds, finished = peers._run_to_the_end(lambda: time.sleep(0.05), 0.01)
    assert (value, finished) == (None, False) and seconds >= 0.05
