"""Singles on the shared data sets: every Tatham ID and every janko.at Hitori puzzle is
solved, equals the published solution, passes the independent checker, and is unique."""

from __future__ import annotations

import pytest

from csp_puzzles import singles
from tests.conftest import janko, tatham

pytestmark = pytest.mark.slow


def tatham_shaded(move: str) -> frozenset[tuple[int, int]]:
    """Tatham's solve move `S;B0,2;C1,0;...` as shaded (row, column) cells (B = black, x, y)."""
    shaded = set()
    for part in move.split(";")[1:]:
        if part.startswith("B"):
            x, y = part[1:].split(",")
            shaded.add((int(y), int(x)))
    return frozenset(shaded)


def janko_shaded(solution: str) -> frozenset[tuple[int, int]]:
    rows = [line.split() for line in solution.strip().splitlines()[1:]]
    return frozenset((r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x == "x")


def _solve_and_count(puzzle, expected, name):
    result = puzzle.solve(timeout=60)
    assert result.status == "solved", name
    assert result.solution == expected, name
    assert puzzle.check(result.solution) == [], name
    counted = puzzle.count(limit=2, timeout=60)
    assert counted.status == "solved" and counted.solutions == 1, name


def test_every_tatham_singles_id():
    rows = tatham("singles")
    assert len(rows) == 63
    for row in rows:
        puzzle = singles.parse(row["id"])
        assert puzzle.to_tatham() == row["id"]
        _solve_and_count(puzzle, tatham_shaded(row["solve_move"]), row["id"])


def test_every_janko_hitori_puzzle():
    puzzles = janko("hitori")
    assert len(puzzles) == 633
    for name, item in puzzles:
        puzzle = singles.parse(item["problem"], filename=name)
        assert (puzzle.height, puzzle.width) == tuple(map(int, item["problem"].split()[:2]))
        _solve_and_count(puzzle, janko_shaded(item["solution"]), name)


def test_the_uniqueness_rule_changes_no_answer():
    """Solving without the uniqueness rule gives the same solutions (every 10th puzzle)."""
    for name, item in janko("hitori")[::10]:
        puzzle = singles.parse(item["problem"], filename=name)
        result = puzzle.solve(uniqueness=False, timeout=60)
        assert result.solution == janko_shaded(item["solution"]), name
