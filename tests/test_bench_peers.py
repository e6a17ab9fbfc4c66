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


def test_bench_core_gives_every_solver_the_same_work(monkeypatch) -> None:
    """Issue 39: every solver builds each solution as a dict, counts it and keeps none, from
    a model built before the clock, each run in a process of its own (`run_limited`)."""
    pytest.importorskip("constraint")
    from csp_puzzles.bench import core
    from csp_puzzles.bench.aima import QueensCSP
    from csp_puzzles.examples import queens

    every = core.Problem(lambda: queens(6), True, core.ALL_OURS, lambda: QueensCSP(6))
    first = core.Problem(lambda: queens(6), False, core.FC_MRV)
    for problem, answer in ((every, 4), (first, 1)):
        runs = core.tasks(problem)
        assert len(runs) == (1 if problem.make_aima else 0) + len(core.PEERS) + len(problem.ours)
        assert {task()[0] for task in runs.values()} == {answer}
    timed = []
    monkeypatch.setattr(core, "run_limited", lambda task, timeout: (
        timed.append(task) or (task(), 0.0, True)))
    best = core.best_runs(every, 5, lambda solver: None)
    assert len(timed) == every.repeats * len(best) and len(best) == 6
    assert {answer for answer, _, _, _ in best.values()} == {"4"}


def test_bench_core_says_what_each_figure_times(capsys) -> None:
    pytest.importorskip("constraint")
    from csp_puzzles.bench import core

    assert core.main(["--timeout", "0.5"]) == 0
    out = capsys.readouterr().out
    assert core.WHAT_IS_TIMED in out
    assert "built as a dict" in core.WHAT_IS_TIMED and "forked child" in core.WHAT_IS_TIMED
