"""Grading Towers puzzles by the rules they need, and generating them like Tatham does.

The levels follow Tatham's Towers:

- `easy`: the clue rules and Latin singles alone place every tower;
- `hard`: also needs Latin subsets (all-different with Régin's filtering) and the per-line
  enumeration of orderings;
- `extreme`: also needs positional sets (X-wings) and forcing: a cell with two candidates
  loses one of them when placing it leads, by Latin singles alone, to a contradiction;
- `unreasonable`: no rule set above finishes; the search has to guess.

`grade` runs these rule sets without search, weakest first. `generate` fills a random
Latin square, writes every clue and every height as givens, then removes givens (first)
and clues in random order, keeping a removal only while the puzzle stays solvable at the
target level; a result that turns out easier than asked is thrown away and another square
is tried. Solvable by deduction means a unique solution; for `unreasonable` uniqueness is
checked by counting solutions at each step, and every puzzle returned is counted once more.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from ..core import CSP, AllDifferent, Contradiction, SearchState, count, solve
from ..core.inference import propagate
from ..limits import GENERATE_SIDE
from .model import Towers
from .rules import LatinSingles, visible

DIFFICULTIES = ("easy", "hard", "extreme", "unreasonable")
_MODEL_OF = {"easy": "easy", "hard": "full", "extreme": "extreme"}
ATTEMPTS = 200


# -- grading ----------------------------------------------------------------------------------
def deduce(puzzle: Towers, difficulty: str) -> SearchState | None:
    """The domains left by the rules of `difficulty` without search (None: contradiction)."""
    csp = puzzle.to_csp(model=_MODEL_OF[difficulty])
    state = SearchState(csp)
    try:
        propagate(state, csp.constraints)
        if difficulty == "extreme":
            latin = _latin_csp(puzzle.size)
            progress = True
            while state.unfixed and progress:
                progress = _force(state, csp, latin)
    except Contradiction:
        return None
    return state


def _latin_csp(n: int) -> CSP:
    """The Latin square alone, by singles: what a forcing chain follows."""
    csp = CSP(f"latin singles {n}x{n}")
    csp.add_variables([(r, c) for r in range(n) for c in range(n)], range(1, n + 1))
    for i in range(n):
        csp.add_constraint(LatinSingles([(i, c) for c in range(n)], n, f"row {i}"))
        csp.add_constraint(LatinSingles([(r, i) for r in range(n)], n, f"column {i}"))
    return csp


def _force(state: SearchState, csp: CSP, latin: CSP) -> bool:
    """Forcing: a two-candidate cell loses a value whose placement leads to a contradiction.

    Like Tatham's forcing chains, a probe follows only Latin singles (never the clues), on
    a copy of the current domains. Returns True when a value was removed (and propagated
    with every rule), False when no probe failed.
    """
    probe = SearchState(latin)
    for var in latin.variables:
        probe.keep_only(var, state.domains[var])
    for var in csp.variables:
        if len(state.domains[var]) != 2:
            continue
        for value in state.values(var):
            mark = probe.mark()
            try:
                probe.keep_only(var, (value,))
                propagate(probe, latin.constraints_of[var])
                holds = True
            except Contradiction:
                holds = False
            probe.undo(mark)
            if not holds:
                state.remove(var, value, f"forcing: {var} = {value} leads to a contradiction")
                propagate(state, csp.constraints_of[var])
                return True
    return False


def solved_by(puzzle: Towers, difficulty: str) -> bool:
    """Do the rules of `difficulty` alone place every tower (hence a unique solution)?"""
    state = deduce(puzzle, difficulty)
    if state is None or state.unfixed:
        return False
    solution = {var: state.value(var) for var in state.csp.variables}
    return not state.csp.violated(solution)


def grade(puzzle: Towers) -> str:
    """The weakest level whose rules solve `puzzle`; `unreasonable` when none does.

    `unreasonable` says nothing about uniqueness: count solutions for that.
    """
    for difficulty in DIFFICULTIES[:-1]:
        if solved_by(puzzle, difficulty):
            return difficulty
    return "unreasonable"


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
        return solved_by(puzzle, difficulty)
    if solved_by(puzzle, "hard"):
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
    cap = GENERATE_SIDE["towers"]
    if not 2 <= size <= cap:
        raise ValueError(f"Towers size {size} is out of range, expected 2 to {cap} "
                         "(the cap on generated Towers)")
    return size


def generate(width: int | None = None, height: int | None = None, difficulty: str = "easy",
             seed: int | None = None, size: int | None = None) -> Towers:
    """A Towers puzzle of exactly `difficulty` with one solution; same seed, same puzzle."""
    n = _size(width, height, size)
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}, expected one of "
                         f"{', '.join(DIFFICULTIES)}")
    if n <= 3 and DIFFICULTIES.index(difficulty) > DIFFICULTIES.index("hard"):
        # as in Tatham's generator: every puzzle this small is hard at most
        raise ValueError(f"{n}x{n} Towers puzzles are never {difficulty}, at most hard")
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        puzzle = _reduce(latin_square(n, rng), difficulty, rng)
        if grade(puzzle) != difficulty:
            continue
        counted = count(puzzle.to_csp(counting=True), limit=2)
        if counted.count == 1:
            return puzzle
    raise ValueError(f"no {difficulty} {n}x{n} Towers puzzle found in {ATTEMPTS} attempts")
