"""Towers on whole data sets: Tatham's 62 IDs, janko's standard puzzles, our own set.

Each puzzle is solved, compared with its published solution, verified by the independent
checker and proved unique by counting.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from csp_puzzles import ParseError, towers
from tests.conftest import REPO, janko, tatham

STANDARD = re.compile(r"\s*(\d+) \1 \1\s*$")


def solve_and_count(puzzle):
    result = puzzle.solve()
    assert result.status == "solved"
    assert puzzle.check(result.solution) == []
    counted = puzzle.count(limit=2)
    assert counted.solutions == 1 and counted.unique
    assert counted.solution == result.solution
    return result.solution


@pytest.mark.slow
def test_every_tatham_towers_id():
    rows = tatham("towers")
    assert len(rows) == 62
    for row in rows:
        puzzle = towers.parse(row["id"])
        assert puzzle.to_tatham() == row["id"]
        grid = solve_and_count(puzzle)
        digits = "S" + "".join(str(h) for line in grid for h in line)
        assert digits == row["solve_move"], row["id"]


def standard_janko():
    return [(name, entry) for name, entry in janko("skyscraper")
            if STANDARD.match(entry["problem"].splitlines()[0])]


@pytest.mark.slow
def test_every_standard_janko_skyscraper():
    puzzles = standard_janko()
    assert len(puzzles) == 120
    for name, entry in puzzles:
        puzzle = towers.parse(entry["problem"], filename=name)
        assert towers.parse(puzzle.to_text()) == puzzle
        grid = solve_and_count(puzzle)
        expected = [[int(x) for x in line.split()]
                    for line in entry["solution"].splitlines()[1:] if line.strip()]
        assert grid == expected, name


def test_janko_variants_are_refused_with_a_position():
    variants = [(name, entry) for name, entry in janko("skyscraper")
                if not STANDARD.match(entry["problem"].splitlines()[0])]
    assert variants
    for name, entry in variants:
        with pytest.raises(ParseError) as caught:
            towers.parse(entry["problem"], filename=name)
        assert caught.value.line == 1


def project_files() -> list[Path]:
    return sorted((REPO / "data" / "towers").glob("*.txt"))


def test_project_set_covers_sizes_and_levels():
    files = project_files()
    names = {p.name.rsplit("-", 1)[0] for p in files}
    assert {f"{n}x{n}-{d}" for n in range(4, 10) for d in towers.DIFFICULTIES} <= names


@pytest.mark.slow
@pytest.mark.parametrize("path", project_files(), ids=lambda p: p.stem)
def test_project_set_is_unique_and_graded_as_recorded(path):
    text = path.read_text(encoding="utf-8")
    header = re.search(r"difficulty (\w+), seed (\d+), grade (\w+)", text)
    assert header, "every file says its generator parameters"
    puzzle = towers.parse(text, filename=str(path))
    solve_and_count(puzzle)
    assert towers.grade(puzzle) == header.group(3) == header.group(1)
    assert towers.parse(puzzle.to_tatham()) == puzzle
