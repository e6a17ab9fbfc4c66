"""An independent checker of Towers solutions: reads only the puzzle and the grid.

It never uses the solver or the rules, so a bug there cannot hide behind it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _seen(heights: Sequence[int]) -> int:
    """Towers seen from the front: those taller than every tower before them. Written from
    that definition rather than as `rules.visible` counts them, on purpose (see the module
    doc)."""
    return sum(1 for i, h in enumerate(heights) if all(h > x for x in heights[:i]))


def check(puzzle: Any, grid: Sequence[Sequence[Any]] | None) -> list[str]:
    """Every rule `grid` breaks, in words (empty when it solves `puzzle`)."""
    if grid is None:
        return ["no solution given"]
    n = puzzle.size
    if len(grid) != n or any(len(row) != n for row in grid):
        return [f"the grid must have {n} rows of {n} heights"]
    problems: list[str] = []
    for r, row in enumerate(grid):
        for c, h in enumerate(row):
            if not isinstance(h, int) or not 1 <= h <= n:
                problems.append(f"cell ({r},{c}) holds {h!r}, expected a height from 1 to {n}")
    if problems:
        return problems
    heights = set(range(1, n + 1))
    rows = [list(row) for row in grid]
    cols = [[grid[r][c] for r in range(n)] for c in range(n)]
    for label, lines in (("row", rows), ("column", cols)):
        for i, line in enumerate(lines):
            if set(line) != heights:
                missing = sorted(heights - set(line))
                problems.append(f"{label} {i} repeats a height (missing {missing})")
    for (r, c), given in _givens(puzzle):
        if grid[r][c] != given:
            problems.append(f"cell ({r},{c}) holds {grid[r][c]} but {given} is given")
    sides = [("top", puzzle.top, cols, False), ("bottom", puzzle.bottom, cols, True),
             ("left", puzzle.left, rows, False), ("right", puzzle.right, rows, True)]
    for side, clues, lines, backwards in sides:
        for i, clue in enumerate(clues):
            if not clue:
                continue
            line = lines[i][::-1] if backwards else lines[i]
            seen = _seen(line)
            if seen != clue:
                what = "column" if lines is cols else "row"
                problems.append(f"{side} clue {clue} of {what} {i}: {seen} towers are visible")
    return problems


def _givens(puzzle: Any) -> list[tuple[tuple[int, int], int]]:
    return [((r, c), h) for r, row in enumerate(puzzle.givens) for c, h in enumerate(row) if h]
