"""The shape of a generated Kakuro grid: which cells are white, and the runs they form.

A valid layout has every white run 2 to `MAX_RUN` cells long and all white cells connected.
The first row and column are blocks (they hold the clues). The generator (generate.py)
first draws a layout, then fills it with digits.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..puzzle.regions import grid_neighbours, regions

Cell = tuple[int, int]

#: longer runs are cut (published grids rarely run longer: long runs allow many digit sets)
MAX_RUN = 6


@dataclass
class Layout:
    """White cells of a `height` x `width` grid and their runs (across runs first)."""

    width: int
    height: int
    white: dict[Cell, bool]
    cells: list[Cell] = field(init=False)  # the white cells, in reading order
    runs: list[tuple[Cell, ...]] = field(init=False)
    runs_of: dict[Cell, list[int]] = field(init=False)  # each cell's two runs (indices)
    #: the same by numbers (position in `cells`), for the generator's inner loops
    run_numbers: list[tuple[int, ...]] = field(init=False)
    runs_of_number: list[list[int]] = field(init=False)

    def __post_init__(self) -> None:
        self.cells = [cell for cell, is_white in self.white.items() if is_white]
        self.runs = [tuple(run) for line in lines(self.width, self.height)
                     for run in white_runs(self.white, line)]
        self.runs_of = {cell: [] for cell in self.cells}
        for index, run in enumerate(self.runs):
            for cell in run:
                self.runs_of[cell].append(index)
        number = {cell: i for i, cell in enumerate(self.cells)}
        self.run_numbers = [tuple(number[cell] for cell in run) for run in self.runs]
        self.runs_of_number = [self.runs_of[cell] for cell in self.cells]

    def rectangles(self) -> list[tuple[Cell, Cell, Cell, Cell]]:
        """Corners (top left, top right, bottom left, bottom right) of every rectangle whose
        two rows each lie inside one across run and two columns inside one down run: filled
        `a b / b a` they could swap to `b a / a b` without changing any sum."""
        across = {cell: runs[0] for cell, runs in self.runs_of.items()}
        down = {cell: runs[1] for cell, runs in self.runs_of.items()}
        corners = []
        for run in self.runs:
            if run[0][0] != run[-1][0]:
                continue  # a down run
            for i, top_left in enumerate(run):
                for top_right in run[i + 1:]:
                    r = top_left[0] + 1
                    while self.white.get((r, top_left[1])):
                        bottom_left, bottom_right = (r, top_left[1]), (r, top_right[1])
                        if (self.white.get(bottom_right) and down[bottom_right] == down[top_right]
                                and across[bottom_left] == across[bottom_right]):
                            corners.append((top_left, top_right, bottom_left, bottom_right))
                        r += 1
        return corners


def random_layout(rng: random.Random, width: int, height: int, density: float) -> Layout | None:
    """A random valid layout with about `density` of the playing area black.

    Blocks go in one at a time with their half-turn image (so the grid is symmetric), in a
    random order, and each stays only if the layout stays valid: no run of one cell, white
    cells connected, no row or column of the playing area all black. Runs longer than
    `MAX_RUN` are cut that way first. None when a long run cannot be cut.
    """
    white = {(r, c): r > 0 and c > 0 for r in range(height) for c in range(width)}
    area = (height - 1) * (width - 1)
    places = [(r, c) for r in range(1, height) for c in range(1, width)
              if (r, c) <= (height - r, width - c)]
    rng.shuffle(places)
    blocks = 0
    for line in _long_runs(white, width, height):  # cut long runs first: rows, then columns
        run = max(white_runs(white, line), key=len, default=[])
        while len(run) > MAX_RUN:
            cuts = list(run)
            rng.shuffle(cuts)
            cut = next((cell for cell in cuts if _try_block(white, width, height, cell)), None)
            if cut is None:
                return None
            blocks += 2
            run = max(white_runs(white, line), key=len)
    for cell in places:
        if blocks >= density * area:
            break
        blocks += _try_block(white, width, height, cell)
    if _long_runs(white, width, height):
        return None
    return Layout(width, height, white)


def _try_block(white: dict[Cell, bool], width: int, height: int, cell: Cell) -> int:
    """Turn `cell` and its half-turn image black if the layout stays valid; how many
    cells turned black (0 when it would not stay valid)."""
    mirror = (height - cell[0], width - cell[1])
    changed = [place for place in dict.fromkeys((cell, mirror)) if white[place]]
    if not changed:
        return 0
    for place in changed:
        white[place] = False
    if _valid(white, width, height):
        return len(changed)
    for place in changed:
        white[place] = True
    return 0


def _valid(white: dict[Cell, bool], width: int, height: int) -> bool:
    """No single-cell run, no empty row or column in the playing area, one white group."""
    rows = [[(r, c) for c in range(1, width)] for r in range(1, height)]
    columns = [[(r, c) for r in range(1, height)] for c in range(1, width)]
    for line in rows + columns:
        runs = white_runs(white, line)
        if not runs or any(len(run) == 1 for run in runs):
            return False
    return len(_groups(white)) == 1


def _long_runs(white: dict[Cell, bool], width: int, height: int) -> list[list[Cell]]:
    return [run for line in lines(width, height) for run in white_runs(white, line)
            if len(run) > MAX_RUN]


def lines(width: int, height: int) -> list[list[Cell]]:
    """The rows, then the columns, of the grid."""
    rows = [[(r, c) for c in range(width)] for r in range(height)]
    columns = [[(r, c) for r in range(height)] for c in range(width)]
    return rows + columns


def white_runs(white: dict[Cell, bool], line: list[Cell]) -> list[list[Cell]]:
    """The maximal stretches of white cells along a line."""
    runs, current = [], []
    for cell in line:
        if white[cell]:
            current.append(cell)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


def _groups(white: dict[Cell, bool]) -> list[set[Cell]]:
    """The connected groups of white cells (in reading order of their first cell)."""
    return regions([cell for cell, is_white in white.items() if is_white], grid_neighbours)
