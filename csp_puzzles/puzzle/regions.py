"""Connected regions: the one flood fill of the package (Singles' checker and connectivity,
Kakuro's layout all ask which cells hang together)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

Cell = TypeVar("Cell", bound=Hashable)


def regions(cells: Iterable[Cell], neighbours: Callable[[Cell], Iterable[Cell]]) -> list[set[Cell]]:
    """The connected regions of `cells`, joined through `neighbours` (only neighbours among
    `cells` count), in the order of each region's first cell."""
    inside = dict.fromkeys(cells)
    seen: set[Cell] = set()
    found = []
    for start in inside:
        if start in seen:
            continue
        region, stack = {start}, [start]
        seen.add(start)
        while stack:
            for near in neighbours(stack.pop()):
                if near in inside and near not in seen:
                    seen.add(near)
                    region.add(near)
                    stack.append(near)
        found.append(region)
    return found


def grid_neighbours(cell: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The four orthogonal neighbours of a grid cell (some may lie off the grid)."""
    r, c = cell
    return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
