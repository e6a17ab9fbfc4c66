"""An independent Singles checker: reads only the numbers and the shaded cells.

It never uses the solver or the model, so tests can trust it to judge their answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..puzzle.regions import grid_neighbours, regions


def check(grid: Sequence[Sequence[int]], shaded: Iterable[tuple[int, int]] | None) -> list[str]:
    """Every broken rule, in words (empty when `shaded` solves `grid`)."""
    if shaded is None:
        return ["no solution given"]
    height, width = len(grid), len(grid[0])
    problems: list[str] = []
    dark: set[tuple[int, int]] = set()
    for cell in shaded:
        r, c = cell
        if not (0 <= r < height and 0 <= c < width):
            problems.append(f"shaded cell ({r},{c}) is outside the {width}x{height} grid")
        else:
            dark.add((r, c))
    for r, c in sorted(dark):
        for rr, cc in ((r, c + 1), (r + 1, c)):
            if (rr, cc) in dark:
                problems.append(f"shaded cells ({r},{c}) and ({rr},{cc}) touch")
    for r in range(height):
        problems += _repeats([(r, c) for c in range(width)], grid, dark, f"row {r}")
    for c in range(width):
        problems += _repeats([(r, c) for r in range(height)], grid, dark, f"column {c}")
    white = {(r, c) for r in range(height) for c in range(width)} - dark
    if not white:
        problems.append("no cell is left unshaded")
    parts = regions(sorted(white), grid_neighbours)
    if len(parts) > 1:
        start, cut_off = min(parts[0]), min(parts[1])
        problems.append(f"unshaded cells are not connected: ({cut_off[0]},{cut_off[1]}) "
                        f"cannot reach ({start[0]},{start[1]})")
    return problems


def _repeats(cells: list[tuple[int, int]], grid: Sequence[Sequence[int]],
             dark: set[tuple[int, int]], label: str) -> list[str]:
    where: dict[int, list[tuple[int, int]]] = {}
    for r, c in cells:
        if (r, c) not in dark:
            where.setdefault(grid[r][c], []).append((r, c))
    return [f"{number} appears {len(places)} times unshaded in {label}"
            for number, places in sorted(where.items()) if len(places) > 1]
