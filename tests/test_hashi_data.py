"""Hashi on the shared data sets: Tatham's Bridges, janko.at, and a Coelho et al. sample.

Every solution the solver returns goes through the independent checker. Tatham's and
janko's puzzles have one solution: the solver must find exactly it, and counting must say
it is unique. The Coelho instances have many solutions, so only the check applies.
"""

from __future__ import annotations

import pytest

from csp_puzzles import hashi
from tests.conftest import DATA, janko, shared_file, tatham

# Coelho et al.: every 36th file of each sorted size class, which spreads 10 instances over
# all densities (alpha 25/50/75) and beta values: 40 in all. Both the SAT engine and the CSP
# search (restarts with nogood learning) solve all 40; the 400-island alpha = 75 ones take
# the search a few seconds each (see `csp-puzzles bench hashi`).
COELHO_SIZES = ("100", "200", "300", "400")
COELHO_STEP = 36


def tatham_solution(move: str) -> dict[tuple[int, int, int, int], int]:
    """Tatham's solve move `S;L x1,y1,x2,y2,n;...` (x = column) as a solution dict."""
    bridges = {}
    for step in move.split(";"):
        if step.startswith("L"):
            x1, y1, x2, y2, n = map(int, step[1:].split(","))
            first, second = sorted([(y1, x1), (y2, x2)])
            bridges[(*first, *second)] = n
    return bridges


def janko_solution(puzzle: hashi.Hashi, text: str) -> dict[tuple[int, int, int, int], int]:
    """janko's solution grid: horizontal bridge cells hold 1 or 2, vertical ones a or b."""
    rows = [line.split() for line in text.strip().splitlines()[1:]]
    bridges = {}
    for edge in puzzle.edges:
        assert edge.cells, "janko grids have no touching islands"
        r, c = edge.cells[0]
        token = rows[r][c]
        n = (int(token) if token in "12" else 0) if edge.horizontal else \
            {"a": 1, "b": 2}.get(token, 0)
        if n:
            bridges[edge.key] = n
    return bridges


def tatham_rows() -> list[dict]:
    return tatham("bridges") if (DATA / "tatham").exists() else []


@pytest.mark.slow
@pytest.mark.parametrize("row", tatham_rows() or [None], ids=lambda row: row and row["id"])
def test_tatham_bridges(row):
    if row is None:
        shared_file("tatham", "bridges-solutions.jsonl")
    puzzle = hashi.parse(row["id"])
    result = puzzle.solve()
    assert result.status == "solved"
    assert result.stats.backtracks == 0  # Tatham's own solver needs no search either
    assert puzzle.check(result.solution) == []
    assert result.solution == tatham_solution(row["solve_move"])
    counted = puzzle.count(limit=2)
    assert counted.solutions == 1 and counted.unique is True


@pytest.mark.slow
def test_janko_hashi_all():
    """All 616 janko.at puzzles: one counting search each gives the solution and uniqueness."""
    failures = []
    for name, entry in janko("hashi"):
        puzzle = hashi.parse(entry["problem"], filename=name)
        counted = puzzle.count(limit=2)
        problems = puzzle.check(counted.solution)
        if counted.solutions != 1 or problems:
            failures.append((name, counted.solutions, problems[:2]))
        elif counted.solution != janko_solution(puzzle, entry["solution"]):
            failures.append((name, "differs from janko's solution"))
    assert failures == []


@pytest.mark.slow
def test_janko_hashi_all_without_a_backtrack_by_probing():
    """Failed-literal probing solves every janko.at puzzle without a guess that fails."""
    guessed = []
    for name, entry in janko("hashi"):
        puzzle = hashi.parse(entry["problem"], filename=name)
        result = puzzle.solve(var_order="probe")
        assert result.status == "solved" and puzzle.check(result.solution) == [], name
        if result.stats.backtracks:
            guessed.append((name, result.stats.backtracks))
    assert guessed == []


def coelho_sample() -> list[str]:
    """The fixed sample: 10 files of each class, spread over the densities."""
    folder = DATA / "coelho-hashi"
    if not folder.exists():
        return []
    picked = []
    for size in COELHO_SIZES:
        files = sorted((folder / size).glob("*.has"))[::COELHO_STEP][:10]
        picked.extend(str(path) for path in files)
    return picked


@pytest.mark.slow
@pytest.mark.parametrize("path", coelho_sample() or [None],
                         ids=lambda path: path and path.rsplit("/", 1)[-1])
def test_coelho_sample(path):
    """All 40 by the CSP search (its default: restarts and learning), each checked."""
    if path is None:
        shared_file("coelho-hashi")
    with open(path, encoding="utf-8", newline="") as handle:
        puzzle = hashi.parse(handle.read(), filename=path)
    result = puzzle.solve(timeout=120)
    assert result.status == "solved"
    assert puzzle.check(result.solution) == []


def test_coelho_sample_is_forty_spread_over_the_densities():
    shared_file("coelho-hashi")
    whole = coelho_sample()
    assert len(whole) == 40
    for alpha in ("_25_", "_50_", "_75_"):
        assert sum(alpha in path for path in whole) >= 12


@pytest.mark.parametrize("path", coelho_sample() or [None],
                         ids=lambda path: path and path.rsplit("/", 1)[-1])
def test_coelho_sample_sat_engine(path):
    """All 40 by the SAT engine, each solution through the independent checker."""
    if path is None:
        shared_file("coelho-hashi")
    with open(path, encoding="utf-8", newline="") as handle:
        puzzle = hashi.parse(handle.read(), filename=path)
    result = puzzle.solve(engine="sat", timeout=60)
    assert result.status == "solved"
    assert puzzle.check(result.solution) == []
