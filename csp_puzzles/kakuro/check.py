"""An independent Kakuro checker: reads the grid and a filled solution, never the solver.

It walks the grid itself (rather than reusing the model's runs), so a bug in the model
cannot hide in both places at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

WHITE = "0"


def _runs(grid: list[list[Any]]) -> Iterator[tuple[str, int, int, int, list[tuple[int, int]]]]:
    """(direction, clue row, clue column, sum, cells) for every clued line of white cells."""
    height, width = len(grid), len(grid[0]) if grid else 0
    for r in range(height):
        for c in range(width):
            clue = grid[r][c]
            for direction, total, dr, dc in (("across", getattr(clue, "right", None), 0, 1),
                                             ("down", getattr(clue, "down", None), 1, 0)):
                if total is None:
                    continue
                cells = []
                rr, cc = r + dr, c + dc
                while rr < height and cc < width and grid[rr][cc] == WHITE:
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                yield direction, r, c, total, cells


def check(puzzle: Any, solution: Any) -> list[str]:
    """Violations of the rules by `solution` (a grid of digits, None off the white cells)."""
    if solution is None:
        return ["no solution given"]
    grid = puzzle.grid
    height, width = len(grid), len(grid[0]) if grid else 0
    if (not isinstance(solution, (list, tuple)) or len(solution) != height
            or any(not isinstance(row, (list, tuple)) or len(row) != width for row in solution)):
        return [f"the solution must be a {height}x{width} grid (a list of rows)"]
    problems = []
    for r in range(height):
        for c in range(width):
            value = solution[r][c]
            if grid[r][c] == WHITE:
                if value is None:
                    problems.append(f"white cell ({r},{c}) is empty")
                elif not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 9:
                    problems.append(f"white cell ({r},{c}) holds {value!r}, not a digit 1-9")
            elif value is not None:
                problems.append(f"cell ({r},{c}) is not white but holds {value!r}")
    if problems:
        return problems
    for direction, r, c, total, cells in _runs(grid):
        digits = [solution[rr][cc] for rr, cc in cells]
        name = f"the {direction} run of the clue at ({r},{c})"
        if sum(digits) != total:
            problems.append(f"{name} adds up to {sum(digits)}, not {total}")
        repeated = sorted({d for d in digits if digits.count(d) > 1})
        if repeated:
            problems.append(f"{name} repeats {', '.join(map(str, repeated))}")
    return problems
