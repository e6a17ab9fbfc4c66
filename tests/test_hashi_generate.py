"""The Hashi generator and grader: unique puzzles, the grade asked for, reproducible seeds."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from csp_puzzles.cli import main
from csp_puzzles.hashi import parse, sat
from csp_puzzles.hashi.generate import DIFFICULTIES, generate, grade
from tests.conftest import tatham

DATA = Path(__file__).resolve().parent.parent / "data" / "hashi"


def assert_unique_solution(puzzle) -> None:
    """One solution by the CSP count and by the SAT count (an independent proof); the
    solution passes the checker."""
    assert puzzle.count_solutions(limit=2) == 1
    result = puzzle.solve()
    assert result.status == "solved" and puzzle.check(result.solution) == []
    assert sat.count_sat(puzzle, limit=2) == 1


@pytest.mark.parametrize("difficulty, size", [("easy", 5), ("medium", 7), ("hard", 7),
                                              ("easy", 12), ("medium", 10), ("hard", 10),
                                              ("fiendish", 8), ("hard", 20), ("hard", 40)])
@pytest.mark.parametrize("seed", [0, 1])
def test_generated_puzzles_are_unique_and_graded(difficulty: str, size: int, seed: int) -> None:
    puzzle = generate(width=size, height=size, difficulty=difficulty, seed=seed)
    assert (puzzle.width, puzzle.height) == (size, size)
    assert grade(puzzle) == difficulty
    assert_unique_solution(puzzle)
    if difficulty != "fiendish":
        assert puzzle.solved_by_rules(difficulty) is True
    weaker = DIFFICULTIES[DIFFICULTIES.index(difficulty) - 1] if difficulty != "easy" else None
    if weaker is not None and weaker != "fiendish":
        assert puzzle.solved_by_rules(weaker) is False


def test_same_seed_same_puzzle() -> None:
    first = generate(width=9, height=8, difficulty="hard", seed=42)
    again = generate(width=9, height=8, difficulty="hard", seed=42)
    other = generate(width=9, height=8, difficulty="hard", seed=43)
    assert first.to_text() == again.to_text()
    assert first.to_text() != other.to_text()
    assert (first.width, first.height) == (9, 8)


@pytest.mark.parametrize("maxb, loops", [(1, True), (3, True), (2, False), (4, False)])
def test_variants(maxb: int, loops: bool) -> None:
    level = "hard" if maxb == 1 else "medium"  # with one bridge a pair, medium is easy
    puzzle = generate(width=10, height=10, maxb=maxb, loops=loops, difficulty=level, seed=5)
    assert (puzzle.maxb, puzzle.loops) == (maxb, loops)
    assert grade(puzzle) == level
    assert_unique_solution(puzzle)
    again = parse(puzzle.to_tatham())
    assert (again.maxb, again.loops, again.to_text()) == (maxb, loops, puzzle.to_text())


def test_island_count_is_what_was_grown() -> None:
    puzzle = generate(width=12, height=12, islands=30, difficulty="easy", seed=2)
    assert len(puzzle.islands) >= 30  # repairs may add a few


@pytest.mark.parametrize("options, message", [
    ({"difficulty": "extreme"}, "unknown difficulty"),
    ({"width": 2, "height": 9}, "have sides 5 to 100, not 2x9"),
    ({"maxb": 5}, "maxb"),
    ({"islands": 60, "width": 5, "height": 5}, "cannot fit"),
])
def test_bad_requests(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        generate(**options)


def test_no_generated_island_touches_another() -> None:
    puzzle = generate(width=15, height=15, difficulty="hard", seed=7)
    positions = {island.pos for island in puzzle.islands}
    for r, c in positions:
        assert not {(r + 1, c), (r, c + 1)} & positions


# -- grading any puzzle ----------------------------------------------------------------------
def test_every_rung_has_the_model_variables() -> None:
    """The ladder's rungs and `to_csp()` share their variables: hints and grades read the
    same edges the solver fixes."""
    puzzle = parse(tatham("bridges")[-1]["id"])
    model = puzzle.to_csp()
    assert [rung.name for rung in puzzle.ladder()] == ["easy", "medium", "hard"]
    assert all(rung.csp.variables == model.variables for rung in puzzle.ladder())


def test_grades_of_tatham_puzzles() -> None:
    """Tatham's Easy puzzles are easy here too; no Tatham puzzle needs search."""
    for row in tatham("bridges"):
        level = grade(parse(row["id"]))
        if row["params"].endswith("d0"):
            assert level == "easy", row["id"]
        assert level in ("easy", "medium", "hard"), row["id"]


def test_grades_of_broken_puzzles() -> None:
    assert grade(parse("1 0 1 0 1\n")) == "unsatisfiable"
    assert grade(parse("1 0 1\n0 0 0\n1 0 1\n")) == "unsatisfiable"
    assert grade(parse("3 0 3\n0 0 0\n3 0 3\n")) == "ambiguous"  # 1,2,1,2 or 2,1,2,1
    assert parse("1 0 1 0 1\n").deduce("easy") is None


# -- the shipped data set --------------------------------------------------------------------
DATA_FILES = sorted(DATA.glob("*.txt"))


def test_data_set_is_complete() -> None:
    names = {path.name for path in DATA_FILES}
    assert {f"{level}-{n}x{n}.txt" for level in ("easy", "medium", "hard")
            for n in (7, 10, 15)} <= names


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: p.name)
def test_data_files(path: Path) -> None:
    """Each file parses, has one solution and the grade its comment states, and its seed
    gives it back."""
    text = path.read_text()
    header = re.search(r"# hashi (\d+)x(\d+), grade (\w+), (\d+) islands, seed (\d+)", text)
    assert header, "first line: '# hashi WxH, grade G, N islands, seed S'"
    width, height, level, islands, seed = header.groups()
    puzzle = parse(text, filename=str(path))
    assert (puzzle.width, puzzle.height) == (int(width), int(height))
    assert len(puzzle.islands) == int(islands)
    assert grade(puzzle) == level
    assert_unique_solution(puzzle)
    again = generate(width=int(width), height=int(height), difficulty=level, seed=int(seed))
    assert again.to_text() == puzzle.to_text(), (
        "the generator changed: python -m csp_puzzles.bench.hashi_generate --write-data "
        "data/hashi")


# -- the command line ------------------------------------------------------------------------
def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(argv))
    return status, out.getvalue()


def test_cli_generate_tatham_ids() -> None:
    status, text = run_cli("generate", "hashi", "--size", "10x10", "--difficulty", "hard",
                           "--seed", "3", "--count", "2", "--format", "tatham")
    lines = text.splitlines()
    assert status == 0 and len(lines) == 2 and lines[0] != lines[1]
    for seed, line in enumerate(lines, start=3):
        puzzle = parse(line)
        assert line.startswith("10x10") and grade(puzzle) == "hard"
        assert puzzle.to_tatham() == generate(width=10, height=10, difficulty="hard",
                                              seed=seed).to_tatham()


def test_cli_generate_native() -> None:
    status, text = run_cli("generate", "hashi", "--size", "7", "--difficulty", "easy",
                           "--seed", "11", "--count", "2")
    chunks = text.strip().split("\n\n")
    assert status == 0 and len(chunks) == 2
    assert chunks[0].startswith("# hashi seed 11") and chunks[1].startswith("# hashi seed 12")
    for chunk in chunks:
        puzzle = parse(chunk)
        assert (puzzle.width, puzzle.height) == (7, 7) and grade(puzzle) == "easy"
