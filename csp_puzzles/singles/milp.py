"""Singles (Hitori) as an integer program (the "milp" engine), with lazy connectivity.

Variables: `shade[cell]` is 1 when the cell is shaded.

Rows:

- no repeats: in each row and column, of the k cells holding the same number at most one
  stays unshaded, so at least k - 1 of them are shaded;
- shaded cells never touch: `shade[a] + shade[b] <= 1` for neighbours a, b;
- the unshaded cells are connected. Written out, that takes one row per way of cutting the
  grid in two; instead the loop of `csp_puzzles.solvers.milp` adds them when needed: solve, find
  the groups of unshaded cells, and if there are several, add for each group "one of the
  cells around it must be unshaded" (`sum(shade[b] for b around the group) <= size - 1`),
  then solve again. The rows for single cells (a cell walled in by its shaded neighbours)
  are so common that they are written from the start.

Why such a row holds in every solution: if all the cells around a group were shaded,
the unshaded cells inside it could not reach the unshaded cells beyond it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..solvers.lazy_cuts import LoopStats, groups
from ..solvers.milp import IntegerProgram, Row, at_least, at_most
from ..solvers.milp import solutions as program_solutions

if TYPE_CHECKING:
    from .model import Singles

Cell = tuple[int, int]


class SinglesProgram:
    """The integer program of one Singles grid, and its lazy connectivity rows."""

    def __init__(self, puzzle: Singles, walled_cells: bool = True) -> None:
        """`walled_cells=False` leaves out the single-cell rows written from the start."""
        self.puzzle = puzzle
        self.cells: list[Cell] = puzzle.cells()
        self.index: dict[Cell, int] = {cell: i for i, cell in enumerate(self.cells)}
        self.neighbours: dict[Cell, tuple[Cell, ...]] = {
            cell: puzzle.neighbours(cell) for cell in self.cells}
        # HiGHS's presolve settles most small grids outright and costs large grids little
        # (measured with `csp-puzzles bench milp`: see csp_puzzles/bench/milp.py)
        self.program = program = IntegerProgram(f"singles {puzzle.width}x{puzzle.height}")
        self.shade: dict[Cell, int] = {cell: program.binary(cell) for cell in self.cells}
        for _, line in puzzle.lines():
            copies: dict[int, list[Cell]] = {}
            for r, c in line:
                copies.setdefault(puzzle.grid[r][c], []).append((r, c))
            for where in copies.values():
                if len(where) > 1:
                    program.add(at_least([self.shade[cell] for cell in where], len(where) - 1))
        for cell in self.cells:
            for other in self.neighbours[cell]:
                if cell < other:
                    program.add(at_most([self.shade[cell], self.shade[other]], 1))
        for cell in self.cells if walled_cells else ():
            around = self.neighbours[cell]
            if 1 + len(around) < len(self.cells):  # some cell lies beyond them
                program.add(at_most([self.shade[other] for other in around], len(around) - 1))

    def _around(self, group: set[Cell]) -> set[Cell]:
        """The cells next to the group, outside it."""
        return {other for cell in group for other in self.neighbours[cell]} - group

    def _open_around(self, group: set[Cell]) -> Row:
        """"One of the cells around this group is unshaded"."""
        around = self._around(group)
        return at_most([self.shade[cell] for cell in around], len(around) - 1)

    def cuts(self, values: Sequence[int]) -> list[Row]:
        """One row per group of unshaded cells when there are several, else none."""
        index, shade = self.index, self.shade
        links = [(index[cell], index[other]) for cell in self.cells if not values[shade[cell]]
                 for other in self.neighbours[cell] if cell < other and not values[shade[other]]]
        found = [group for group in groups(len(self.cells), links)
                 if not values[self.shade[self.cells[group[0]]]]]
        if len(found) < 2:
            return []
        return [self._open_around({self.cells[i] for i in group}) for group in found]

    def decode(self, values: Sequence[int]) -> frozenset[Cell]:
        return frozenset(cell for cell in self.cells if values[self.shade[cell]])


def solutions(puzzle: Singles, deadline: float | None = None,
              stats: LoopStats | None = None) -> Iterator[frozenset[Cell]]:
    """Every solution, one at a time (the entry point of `solve(engine="milp")`)."""
    model = SinglesProgram(puzzle)
    distinct = list(model.shade.values())
    for values in program_solutions(model.program, model.cuts, distinct, deadline, stats):
        yield model.decode(values)
