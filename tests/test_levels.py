"""Tatham's levels: our grades agree with his on his puzzles, and every level is generated at
every size offered.

`../shared/data/tatham-graded/` holds puzzles his generator made, with the level his own
solver gives each; `grade()` must give the same level to at least 95% of them, for every
kind and level (the fast run reads the smaller grids, the slow one all of them). The other
way round, our puzzles graded by his solver, needs his source: `csp-puzzles bench tatham`.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import import_module

import pytest

from csp_puzzles import hashi, singles, towers
from tests.conftest import shared_file

#: his data files per kind, and the largest side read by the fast run
DATA = {"hashi": (("bridges", "bridges-ie", "bridges-big"), 10),
        "towers": (("towers",), 6), "singles": (("singles", "singles-big"), 8)}
#: his levels
HIS = {"hashi": {"easy", "medium", "hard"}, "towers": {"easy", "hard", "extreme", "unreasonable"},
       "singles": {"easy", "tricky"}}
MODULES = {"hashi": hashi, "towers": towers, "singles": singles}


def his_rows(kind: str, max_side: int) -> list[tuple[object, str]]:
    """(our puzzle, his level) for his puzzles of `kind` up to `max_side`."""
    rows = []
    for name in DATA[kind][0]:
        with open(shared_file("tatham-graded", f"tatham_{name}.jsonl"), encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                puzzle = MODULES[kind].parse(row["id"])
                side = getattr(puzzle, "size", None) or max(puzzle.width, puzzle.height)
                if side <= max_side:
                    rows.append((puzzle, row["grade"]))
    return rows


def agreement(kind: str, max_side: int) -> dict[str, Counter[str]]:
    said: dict[str, Counter[str]] = {}
    for puzzle, level in his_rows(kind, max_side):
        said.setdefault(level, Counter())[puzzle.grade()] += 1  # type: ignore[attr-defined]
    return said


def check_agreement(said: dict[str, Counter[str]]) -> None:
    for level, counts in said.items():
        total = sum(counts.values())
        assert counts[level] >= 0.95 * total, f"{level}: ours said {dict(counts)}"


@pytest.mark.parametrize("kind", sorted(DATA))
def test_his_puzzles_get_his_levels(kind: str) -> None:
    said = agreement(kind, DATA[kind][1])
    assert set(said) == HIS[kind]
    check_agreement(said)


@pytest.mark.full  # every run checks a sample of each level: test_his_puzzles_get_his_levels
@pytest.mark.parametrize("kind", sorted(DATA))
def test_all_his_puzzles_get_his_levels(kind: str) -> None:
    check_agreement(agreement(kind, 100))


# -- generating at every level and size offered ----------------------------------------------
def offered(kind: str, small: int) -> list[tuple[str, int]]:
    """(level, side) for every level, at its smallest side and `small` more sides."""
    sizes = import_module(f"csp_puzzles.{kind}.generate").SIZES
    return [(level, side) for level, (low, high) in sizes.items()
            for side in range(low, min(high, low + small) + 1)]


def generated(kind: str, level: str, side: int, seed: int):  # type: ignore[no-untyped-def]
    puzzle = MODULES[kind].generate(width=side, height=side, difficulty=level, seed=seed)
    counted = puzzle.count(limit=2)
    assert counted.solutions == 1, f"{kind} {level} {side} seed {seed}: not unique"
    assert puzzle.check(counted.solution) == []
    assert puzzle.grade() == level
    return puzzle


@pytest.mark.parametrize("kind, level, side", [(kind, level, side) for kind in sorted(DATA)
                                               for level, side in offered(kind, 1)])
def test_every_level_at_its_smallest_sizes(kind: str, level: str, side: int) -> None:
    for seed in (1, 2):
        generated(kind, level, side, seed)


@pytest.mark.parametrize("seed", [1, 2, 5, 9])
def test_fiendish_7x7_bridges(seed: int) -> None:
    puzzle = generated("hashi", "fiendish", 7, seed)
    assert (puzzle.width, puzzle.height) == (7, 7)


@pytest.mark.full
@pytest.mark.parametrize("kind", sorted(DATA))
def test_every_level_at_many_sizes(kind: str) -> None:
    """A sweep: each level at every side from its smallest up to 15, and its largest."""
    sizes = import_module(f"csp_puzzles.{kind}.generate").SIZES
    for level, (low, high) in sizes.items():
        for side in sorted({*range(low, min(high, 15) + 1), high}):
            for seed in (1, 2, 3):
                generated(kind, level, side, seed)


@pytest.mark.parametrize("kind, level, side", [("hashi", "medium", 4), ("hashi", "fiendish", 6),
                                               ("towers", "extreme", 3),
                                               ("singles", "easy", 13), ("singles", "tricky", 3),
                                               ("singles", "fiendish", 21)])
def test_sizes_not_offered_are_refused_at_once(kind: str, level: str, side: int) -> None:
    with pytest.raises(ValueError, match=f"difficulty {level} have sides .* not {side}x{side}"):
        MODULES[kind].generate(width=side, height=side, difficulty=level, seed=1)


@pytest.mark.parametrize("kind, side", [("hashi", 101), ("towers", 10), ("singles", 101)])
def test_sides_above_every_level_name_the_cap(kind: str, side: int) -> None:
    with pytest.raises(ValueError, match=f"{side}x{side} grid is above the cap"):
        MODULES[kind].generate(width=side, height=side, difficulty="easy", seed=1)


def test_hashi_variants_offer_what_they_can() -> None:
    from csp_puzzles.hashi.generate import sizes_for
    assert "medium" not in sizes_for(1, True) and "fiendish" not in sizes_for(1, False)
    with pytest.raises(ValueError, match="unknown difficulty 'medium'"):
        hashi.generate(width=7, height=7, maxb=1, difficulty="medium", seed=1)
    for maxb, loops in ((1, True), (1, False), (3, True), (4, False), (2, False)):
        for level, (low, _) in sizes_for(maxb, loops).items():
            puzzle = hashi.generate(width=low, height=low, maxb=maxb, loops=loops,
                                    difficulty=level, seed=1)
            assert (puzzle.maxb, puzzle.loops) == (maxb, loops)
            assert puzzle.grade() == level and puzzle.count_solutions() == 1
