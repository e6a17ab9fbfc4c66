"""Generating Towers puzzles like Tatham does, at a level of `grade.py`.

`generate` fills a random
Latin square, writes every clue and every height as givens, then removes givens (first)
and clues in random order, keeping a removal only while the puzzle stays solvable at the
target level; a result that turns out easier than asked is thrown away and another square
is tried, until one has the level (`SIZES` says where each level is offered). Solvable by
deduction means a unique solution; for `unreasonable` uniqueness is checked by counting
solutions at each step, and every puzzle returned is counted once more.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from ..core import CSP, AllDifferent, SearchState, count, solve
from ..puzzle import sizes
from ..puzzle.limits import GENERATE_SIDE
from ..puzzle.sizes import Sides
from .grade import LEVELS, grade
from .model import Towers
from .rules import visible

#: the sizes each level offers (as in Tatham's generator, no 3x3 puzzle is harder than hard)
SIZES: dict[str, Sides] = {"easy": (3, GENERATE_SIDE["towers"]),
                           "hard": (3, GENERATE_SIDE["towers"]),
                           "extreme": (4, GENERATE_SIDE["towers"]),
                           "unreasonable": (4, GENERATE_SIDE["towers"])}


# -- generating -------------------------------------------------------------------------------
def latin_square(n: int, rng: random.Random) -> list[list[int]]:
    """A random n x n Latin square, filled by the core's search with shuffled values."""
    csp = CSP(f"latin square {n}x{n}")
    cells = [(r, c) for r in range(n) for c in range(n)]
    csp.add_variables(cells, range(1, n + 1))
    for i in range(n):
        csp.add_constraint(AllDifferent([(i, c) for c in range(n)]))
        csp.add_constraint(AllDifferent([(r, i) for r in range(n)]))

    def shuffled(state: SearchState, var: Hashable) -> list[Any]:
        values = state.values(var)
        rng.shuffle(values)
        return values

    result = solve(csp, inference="mac", var_order="mrv", val_order=shuffled)
    assert result.solution is not None  # a Latin square always exists
    return [[result.solution[(r, c)] for c in range(n)] for r in range(n)]


def clues_of(grid: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    """The four clue rows (top, bottom, left, right) a filled grid shows."""
    n = len(grid)
    cols = [[grid[r][c] for r in range(n)] for c in range(n)]
    return (tuple(visible(col) for col in cols), tuple(visible(col[::-1]) for col in cols),
            tuple(visible(row) for row in grid), tuple(visible(row[::-1]) for row in grid))


def _solvable(puzzle: Towers, difficulty: str) -> bool:
    """Uniquely solvable using at most the rules of `difficulty`."""
    if difficulty != "unreasonable":
        return puzzle.solved_by_rules(difficulty) is True
    if puzzle.solved_by_rules(LEVELS[-1]):
        return True
    counted = count(puzzle.to_csp(counting=True), limit=2)
    return counted.count == 1


def _reduce(grid: list[list[int]], difficulty: str, rng: random.Random) -> Towers:
    n = len(grid)
    sides = [list(side) for side in clues_of(grid)]
    givens = [list(row) for row in grid]

    def current() -> Towers:
        return Towers.from_sides(n, sides, givens)

    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    clues = [(s, i) for s in range(4) for i in range(n)]
    rng.shuffle(clues)
    for r, c in cells:
        kept, givens[r][c] = givens[r][c], 0
        if not _solvable(current(), difficulty):
            givens[r][c] = kept
    if difficulty == "easy":  # like Tatham, easy puzzles keep every clue
        return current()
    for s, i in clues:
        kept, sides[s][i] = sides[s][i], 0
        if not _solvable(current(), difficulty):
            sides[s][i] = kept
    return current()


def _size(width: int | None, height: int | None, size: int | None) -> int:
    if size is None:
        size = width if width is not None else height if height is not None else 5
    for other in (width, height):
        if other is not None and other != size:
            raise ValueError(f"Towers grids are square: width and height must be equal, "
                             f"got {width}x{height}")
    return size


def generate(width: int | None = None, height: int | None = None, difficulty: str = "easy",
             seed: int | None = None, size: int | None = None) -> Towers:
    """A Towers puzzle of exactly `difficulty` with one solution; same seed, same puzzle.

    Sizes offered: easy and hard 3-9, extreme and unreasonable 4-9 (`SIZES`); others are
    refused before any work, and at these the generator tries squares until one fits.
    """
    n = _size(width, height, size)
    sizes.check("towers", SIZES, difficulty, n, n)
    rng = random.Random(seed)
    while True:
        puzzle = _reduce(latin_square(n, rng), difficulty, rng)
        if grade(puzzle) != difficulty:
            continue
        counted = count(puzzle.to_csp(counting=True), limit=2)
        if counted.count == 1:
            return puzzle
