"""Traces: replaying any prefix rebuilds the domains the solver saw; JSON Lines round trip."""

from __future__ import annotations

import io

import pytest

from csp_puzzles.core import Search, Trace, solve
from csp_puzzles.examples import map_colouring, queens, sudoku


def spy_on(search: Search) -> list[dict]:
    """Record a copy of the solver's domains every time an event is recorded."""
    seen: list[dict] = []
    trace = search.trace
    original = trace.record

    def record(*args, **kwargs):
        original(*args, **kwargs)
        seen.append({v: set(d) for v, d in search.state.domains.items()})

    trace.record = record
    return seen


CASES = [(inference, problem) for inference in ("none", "fc", "mac")
         for problem in (lambda: queens(6), map_colouring, sudoku)
         if not (inference == "none" and problem is sudoku)]  # plain BT on sudoku: too long


@pytest.mark.parametrize(("inference", "problem"), CASES)
def test_replay_reproduces_the_domains_the_solver_saw(inference, problem):
    search = Search(problem(), inference=inference, var_order="mrv", trace=True)
    seen = spy_on(search)
    solutions = search.solutions()
    next(solutions)
    solutions.close()
    trace = search.trace
    assert len(trace) == len(seen) > 0
    step = max(1, len(trace) // 200)
    for i in list(range(0, len(trace), step)) + [len(trace) - 1]:
        rebuilt = trace.domains_at(i)
        assert {v: set(d) for v, d in rebuilt.items()} == seen[i], f"event {i}: {trace[i]}"
    # going back works too
    assert {v: set(d) for v, d in trace.domains_at(0).items()} == seen[0]


def test_events_tell_the_story_in_words():
    result = solve(queens(4), inference="fc", var_order="input", trace=True)
    kinds = {e.kind for e in result.trace}
    assert {"assign", "prune", "wipeout", "backtrack", "solution"} <= kinds
    assert result.trace[0].describe() == "assign 0 = 0"
    prune = next(e for e in result.trace if e.kind == "prune")
    assert prune.describe().startswith("queens 0 and 1 removes")
    assert result.trace.count("assign") == result.stats.nodes


def test_trace_is_off_by_default_and_capped_when_on():
    assert solve(queens(6)).trace is None
    result = solve(queens(10), inference="none", var_order="input", trace=True, max_events=50)
    assert len(result.trace) == 50 and result.trace.truncated
    assert result.solved


def test_jsonl_round_trip_keeps_tuple_names():
    result = solve(sudoku(), inference="mac", trace=True)
    buffer = io.StringIO()
    result.trace.write_jsonl(buffer)
    lines = buffer.getvalue().splitlines()
    assert len(lines) == len(result.trace) + 1
    back = Trace.read_jsonl(io.StringIO(buffer.getvalue()))
    assert list(back) == list(result.trace)
    last = len(back) - 1
    assert back.domains_at(last) == result.trace.domains_at(last)
    assert (0, 0) in back.domains_at(last)


def test_assignment_at_follows_the_search():
    result = solve(queens(5), inference="fc", var_order="input", trace=True)
    final = result.trace.assignment_at(len(result.trace) - 1)
    assert final == {v: result.solution[v] for v in final}
    with pytest.raises(IndexError):
        result.trace.domains_at(len(result.trace))


def test_checkpoints_make_random_access_agree_with_a_straight_replay(monkeypatch):
    import csp_puzzles.core.trace as trace_module

    monkeypatch.setattr(trace_module, "CHECKPOINT_EVERY", 7)
    result = solve(queens(8), inference="fc", var_order="input", trace=True)
    trace = result.trace
    straight = [trace.domains_at(i) for i in range(len(trace))]  # forward, in order
    assert len(trace._checkpoints) >= len(trace) // 7 - 1
    for i in [len(trace) - 1, 3, 50, 6, 7, 8, 0, len(trace) // 2, -1 + len(trace)]:
        assert trace.domains_at(i) == straight[i]
    assert trace.domains_at(-1) == {v: d for v, d in trace.initial.items()}
