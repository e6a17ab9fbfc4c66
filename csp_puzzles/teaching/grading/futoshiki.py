"""Exercise 3 (notebook 00): a model of Futoshiki.

The checks count the solutions of the student's model with the core and compare with a
count made without any CSP: every Latin square of the size, listed once, filtered by the
givens and the signs. Each solution the model gives is also checked against the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import permutations
from typing import Any

from ...core import CSP, count
from . import draw, fail, own_work, unwatched

Cell = tuple[int, int]
Model = Callable[[int, dict[Cell, int], list[tuple[Cell, Cell]]], CSP]
#: the watch's words and patterns: what the student's code may call in csp_puzzles
OWN = ("the model", "the CSP class and the core's constraints", "core.csp", "core.constraints",
       "core.linear", "core.cardinality", "core.membership", "core.all_equal", "core.trace:show")


@cache
def latin_squares(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every n x n Latin square over 1..n, row by row (12 for n = 3, 576 for n = 4)."""
    rows = list(permutations(range(1, n + 1)))
    squares: list[tuple[tuple[int, ...], ...]] = []

    def extend(square: list[tuple[int, ...]]) -> None:
        if len(square) == n:
            squares.append(tuple(square))
            return
        for row in rows:
            if all(row[c] != above[c] for above in square for c in range(n)):
                extend(square + [row])

    extend([])
    return tuple(squares)


def _breaks(grid: Any, n: int, givens: dict[Cell, int],
            smaller: list[tuple[Cell, Cell]]) -> str | None:
    """The first rule `grid` (grid[r][c]) breaks, in words, or None."""
    for i in range(n):
        if sorted(grid[i][c] for c in range(n)) != list(range(1, n + 1)):
            return f"row {i} does not hold 1 to {n} once each"
        if sorted(grid[r][i] for r in range(n)) != list(range(1, n + 1)):
            return f"column {i} does not hold 1 to {n} once each"
    for (r, c), number in givens.items():
        if grid[r][c] != number:
            return f"cell {(r, c)} is given as {number}"
    for a, b in smaller:
        if not grid[a[0]][a[1]] < grid[b[0]][b[1]]:
            return f"the sign says cell {a} < cell {b}"
    return None


def solutions_by_hand(n: int, givens: dict[Cell, int],
                      smaller: list[tuple[Cell, Cell]]) -> int:
    """The number of solutions, counted over all Latin squares (no CSP involved)."""
    return sum(1 for square in latin_squares(n) if _breaks(square, n, givens, smaller) is None)


def _puzzle_words(n: int, givens: dict[Cell, int], smaller: list[tuple[Cell, Cell]]) -> str:
    signs = ", ".join(f"{a} < {b}" for a, b in smaller) or "no sign"
    given = ", ".join(f"{cell} = {v}" for cell, v in givens.items()) or "no given"
    return f"the {n}x{n} puzzle with {given} and {signs}"


def verify_model(futoshiki: Model, n: int, givens: dict[Cell, int],
                 smaller: list[tuple[Cell, Cell]]) -> None:
    """The model's variables, its solution count, and each solution it gives."""
    __tracebackhide__ = True
    where = _puzzle_words(n, givens, smaller)
    csp = futoshiki(n, dict(givens), list(smaller))
    if not isinstance(csp, CSP):
        fail(f"for {where}, futoshiki returned {csp!r}: it must return the CSP it built")
    cells = {(r, c) for r in range(n) for c in range(n)}
    if set(csp.variables) != cells:
        strange = sorted(set(csp.variables) ^ cells, key=str)[:3]
        fail(f"for {where} the model's variables should be the {n * n} cells (row, "
             f"column); these are missing or extra: {strange}")
    counted = count(csp, keep=True, limit=1000)
    with unwatched():
        expected = solutions_by_hand(n, givens, smaller)
    for solution in counted.solutions[:20]:
        grid = [[solution[r, c] for c in range(n)] for r in range(n)]
        broken = _breaks(grid, n, givens, smaller)
        if broken:
            fail(f"your model of {where} has the solution {grid}, but {broken}")
    if counted.count != expected:
        fail(f"your model of {where} has {counted.count} solution(s); the puzzle "
             f"has {expected}: some rule is missing or too strict")


@own_work(*OWN)
def check_example(futoshiki: Model) -> None:
    """The 4x4 puzzle of the exercise."""
    __tracebackhide__ = True
    verify_model(futoshiki, 4, {}, [((3, 0), (3, 1)), ((3, 2), (3, 1)), ((1, 0), (1, 1)),
                                    ((3, 1), (2, 1))])


def _random_puzzle(rng: Any) -> tuple[int, dict[Cell, int], list[tuple[Cell, Cell]]]:
    """A puzzle read off a random Latin square: a few givens and signs, most of them true
    to the square (so that it usually has solutions), now and then one turned round."""
    n = rng.choice((3, 4, 4))
    square = rng.choice(latin_squares(n))
    cells = [(r, c) for r in range(n) for c in range(n)]
    givens = {cell: square[cell[0]][cell[1]] for cell in rng.sample(cells, rng.randint(0, 2))}
    pairs = [((r, c), (r + dr, c + dc)) for r, c in cells for dr, dc in ((0, 1), (1, 0))
             if r + dr < n and c + dc < n]
    smaller = []
    for a, b in rng.sample(pairs, rng.randint(2, 5)):
        if (square[a[0]][a[1]] > square[b[0]][b[1]]) != (rng.random() < 0.1):
            a, b = b, a
        smaller.append((a, b))
    return n, givens, smaller


@own_work(*OWN)
def check_random(futoshiki: Model, seed: Any = None, trials: int = 25) -> None:
    """`trials` random puzzles of size 3 and 4, with and without solutions."""
    __tracebackhide__ = True
    rng = draw("futoshiki", seed)
    for _ in range(trials):
        verify_model(futoshiki, *_random_puzzle(rng))

