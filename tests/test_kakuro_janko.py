"""Every janko.at Kakuro (../shared/data/janko/kakuro.json) against its published solution.

The combined model solves and counts all 679 (about 15 s); the decomposed model solves the
small ones (at most 100 cells in the grid, 77 puzzles) and must agree.

Puzzle 257_24x28 has two solutions: both are checked valid, and janko's is one of them.
"""

from __future__ import annotations

import pytest

from csp_puzzles import kakuro
from tests.conftest import janko

AMBIGUOUS = {"257_24x28"}
SMALL_CELLS = 100


def _given(text: str) -> list[list[int | None]]:
    rows = [line.split() for line in text.strip().splitlines()[1:]]
    return [[None if token == "-" else int(token) for token in row] for row in rows]


def _puzzles():
    return janko("kakuro")


@pytest.mark.slow
def test_combined_model_solves_every_janko_puzzle_uniquely():
    failures = []
    for name, entry in _puzzles():
        puzzle = kakuro.parse(entry["problem"], filename=name)
        given = _given(entry["solution"])
        result = puzzle.count(limit=2, timeout=30)
        assert result.status == "solved", name
        solutions = [puzzle.decode(s) for s in _all_solutions(puzzle)] \
            if name in AMBIGUOUS else [result.solution]
        for solution in solutions:
            assert puzzle.check(solution) == [], name
        if name in AMBIGUOUS:
            assert result.solutions == 2 and given in solutions, name
        elif not (result.unique and result.solution == given):
            failures.append(name)
    assert failures == []


def _all_solutions(puzzle):
    from csp_puzzles.core import count

    return count(puzzle.to_csp(counting=True), limit=3, keep=True).solutions


@pytest.mark.slow
def test_decomposed_model_agrees_on_small_puzzles():
    small = [(name, entry) for name, entry in _puzzles()
             if _cells(entry["problem"]) <= SMALL_CELLS]
    assert len(small) >= 50
    for name, entry in small:
        puzzle = kakuro.parse(entry["problem"], filename=name)
        result = puzzle.solve(model="decomposed", timeout=30)
        assert result.status == "solved", name
        assert result.solution == _given(entry["solution"]), name
        assert puzzle.check(result.solution) == []


def _cells(problem: str) -> int:
    rows, columns = map(int, problem.split("\n", 1)[0].split())
    return rows * columns


def test_janko_round_trip_through_to_text():
    for name, entry in _puzzles()[:60]:
        puzzle = kakuro.parse(entry["problem"], filename=name)
        again = kakuro.parse(puzzle.to_text())
        assert again.grid == puzzle.grid and again.runs == puzzle.runs


def test_a_grid_single_runs_leave_open_needs_the_region_sum():
    entry = dict(_puzzles())["389_14x14"]
    puzzle = kakuro.parse(entry["problem"])
    assert puzzle.solve(regions=False).stats.nodes > 0
    result = puzzle.solve(trace=True)
    assert result.stats.nodes == 0 and result.solution == _given(entry["solution"])
    assert any(e.kind == "prune" and e.cause.startswith("region sum: ") for e in result.trace)
