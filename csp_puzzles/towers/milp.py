"""Towers as an integer program (the "milp" engine).

Variables: `x[cell][k]` is 1 when the tower on `cell` has height k ("one-hot" cells).

Rows of the Latin square: each cell has one height; each height appears once in each row
and each column.

Visibility. Looking along a line from a clue, call `cells[p]` the p-th cell seen and
`taller(q, k) = sum(x[cells[q]][h] for h > k)`, which is 1 exactly when the tower at q is
taller than k. The tower at p with height k is seen when no earlier tower is taller:
`seen[p][k] = x[cells[p]][k] AND NOT taller(q, k) for every q < p`, written with the rows
that describe an AND of 0/1 values exactly:

    seen[p][k] <= x[cells[p]][k]
    seen[p][k] <= 1 - taller(q, k)                      for each q < p
    seen[p][k] >= x[cells[p]][k] - sum(taller(q, k) for q < p)

and the clue counts the towers seen: `sum(seen[p][k]) == clue`.

Why these rows ("hull") rather than big-M rows? For an AND of 0/1 values they are the
tightest linear description there is: every fractional point they allow is an average of
true AND assignments. The big-M version ("big-m", below, for comparison) keeps one
`seen[p]` per cell and divides the number of taller towers in front by 2n, so a single
taller tower only pushes `seen[p]` below 1 - 1/(2n): the linear relaxation can call nearly
every tower visible, and branch and bound has to discover what these rows state outright.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import TYPE_CHECKING

from ..milp import IntegerProgram, LoopStats, Row, exactly
from ..milp import solutions as lazy_solutions

if TYPE_CHECKING:
    from .model import Grid, Towers

Cell = Hashable  # a (row, column) pair
VISIBILITY = ("hull", "big-m")


class TowersProgram:
    """The integer program of one Towers puzzle."""

    def __init__(self, puzzle: Towers, visibility: str = "hull") -> None:
        if visibility not in VISIBILITY:
            raise ValueError(f"unknown visibility {visibility!r}; expected one of "
                             f"{', '.join(VISIBILITY)}")
        self.puzzle = puzzle
        self.n = n = puzzle.size
        self.program = program = IntegerProgram(f"towers {n}x{n}")
        self.x: dict[Cell, list[int]] = {
            (r, c): [program.binary(((r, c), k)) for k in range(1, n + 1)]
            for r in range(n) for c in range(n)}
        self._latin_square()
        for line in puzzle.lines():
            for clue, cells in ((line.front, line.cells), (line.back, line.cells[::-1])):
                if clue and visibility == "hull":
                    self._seen_hull(clue, cells)
                elif clue:
                    self._seen_big_m(clue, cells)

    def height(self, cell: Cell, k: int) -> int:
        """The variable "the tower on `cell` has height k" (k from 1)."""
        return self.x[cell][k - 1]

    def _latin_square(self) -> None:
        n, program = self.n, self.program
        for heights in self.x.values():
            program.add(exactly(heights, 1))
        for line in self.puzzle.lines():
            for k in range(1, n + 1):
                program.add(exactly([self.height(cell, k) for cell in line.cells], 1))
        for cell, k in self.puzzle.given_cells().items():
            program.add(exactly([self.height(cell, k)], 1))

    def _taller(self, cell: Cell, k: int) -> dict[int, float]:
        """The terms of taller(cell, k): 1 when the tower on `cell` is taller than k."""
        return {self.height(cell, h): 1.0 for h in range(k + 1, self.n + 1)}

    def _seen_hull(self, clue: int, cells: Sequence[Cell]) -> None:
        program, seen = self.program, []
        for p, cell in enumerate(cells):
            for k in range(p + 1, self.n + 1):  # below p + 1, n - k taller towers cannot
                here = self.height(cell, k)     # all stand behind p: never seen
                if p == 0 or k == self.n:       # nothing in front, or nothing taller
                    seen.append(here)
                    continue
                s = program.binary(("seen", cells[0], cell, k))
                seen.append(s)
                program.add(Row({s: 1, here: -1}, upper=0))
                in_front: dict[int, float] = {s: 1, here: -1}
                for q in range(p):
                    program.add(Row({s: 1, **self._taller(cells[q], k)}, upper=1))
                    in_front.update(self._taller(cells[q], k))
                program.add(Row(in_front, lower=0))
        program.add(exactly(seen, clue))

    def _seen_big_m(self, clue: int, cells: Sequence[Cell]) -> None:
        """One `seen[p]` per cell, tied to the heights by rows with a big constant 2n."""
        program, seen, big = self.program, [], 2 * self.n
        for p, cell in enumerate(cells):
            s = program.binary(("seen", cells[0], cell))
            seen.append(s)
            for k in range(1, self.n + 1):
                here = self.height(cell, k)
                # taller-or-equal towers in front of p: 0 exactly when the tower at p is seen
                front = {self.height(cells[q], h): 1.0 for q in range(p)
                         for h in range(k, self.n + 1)}
                # s <= 1 - front / 2n + (1 - x): s is 0 when x = 1 and something hides it
                program.add(Row({s: 1, here: 1, **{v: 1 / big for v in front}}, upper=2))
                # s >= 1 - front - 2n (1 - x): s is 1 when x = 1 and nothing hides it
                program.add(Row({s: 1, here: -big, **front}, lower=1 - big))
        program.add(exactly(seen, clue))

    def distinct(self) -> list[int]:
        """The variables two different solutions differ on: the heights."""
        return [v for heights in self.x.values() for v in heights]

    def decode(self, values: Sequence[int]) -> Grid:
        n = self.n
        return [[next(k for k in range(1, n + 1) if values[self.height((r, c), k)])
                 for c in range(n)] for r in range(n)]


def no_cuts(values: Sequence[int]) -> list[Row]:
    """Towers needs no lazy rows: every rule is written out in full."""
    return []


def solutions(puzzle: Towers, deadline: float | None = None, visibility: str = "hull",
              stats: LoopStats | None = None) -> Iterator[Grid]:
    """Every solution, one at a time (the entry point of `solve(engine="milp")`)."""
    model = TowersProgram(puzzle, visibility)
    for values in lazy_solutions(model.program, no_cuts, model.distinct(), deadline, stats):
        yield model.decode(values)
