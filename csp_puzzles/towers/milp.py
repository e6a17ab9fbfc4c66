"""Towers as an integer program (the "milp" engine).

Variables: `x[cell][k]` is 1 when the tower on `cell` has height k ("one-hot" cells).

Clue bounds first. Before writing any row, the heights the clues rule out are never given a
variable: clue 1 puts the tallest tower next to it, clue n makes the line rise 1, 2, ..., n,
and a cell at distance d from clue c holds at most n - c + 1 + d (c - 1 shorter towers
must be seen before the tallest one). These are Tatham's "easy" clue rules, the same ones
the CSP engine propagates (`rules.ClueRules`); written as fixed variables they would be
rows HiGHS must rediscover, and the fewer variables, the smaller every linear relaxation.

Then each clued line keeps only the heights that some ordering of its cells fitting both
its clues uses (`rules.line_supports`, Tatham's "hard" per-line enumeration, run once on
each line: no table of orderings is built). Both steps are valid for every solution, so
they change neither the solutions nor their count, only the size of the program.

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
from .rules import ClueRules, line_supports

if TYPE_CHECKING:
    from .model import Grid, Towers

Cell = Hashable  # a (row, column) pair
VISIBILITY = ("hull", "big-m")


def clue_bounds(puzzle: Towers) -> dict[Cell, set[int]]:
    """The heights each cell may hold once the givens and the clues' bounds are applied."""
    n = puzzle.size
    allowed: dict[Cell, set[int]] = {(r, c): set(range(1, n + 1))
                                     for r in range(n) for c in range(n)}
    for given, k in puzzle.given_cells().items():
        allowed[given] &= {k}
    for line in puzzle.lines():
        for cell, heights, _ in ClueRules(line, n, dynamic=False).bounds:
            allowed[cell] &= heights
    return allowed


def line_orderings(puzzle: Towers, allowed: dict[Cell, set[int]]) -> dict[Cell, set[int]]:
    """Keep, in each clued line, only the heights some ordering of that line uses."""
    n = puzzle.size
    for line in puzzle.lines():
        if not line.front and not line.back:
            continue
        masks = [sum(1 << k for k in allowed[cell]) for cell in line.cells]
        supports = line_supports(n, line.front, line.back, masks)
        for cell, mask in zip(line.cells, supports or [0] * n):
            allowed[cell] = {k for k in allowed[cell] if mask >> k & 1}
    return allowed


class TowersProgram:
    """The integer program of one Towers puzzle."""

    def __init__(self, puzzle: Towers, visibility: str = "hull", preprocess: bool = True) -> None:
        """`preprocess=False` gives every cell every height (no clue bounds, no orderings)."""
        if visibility not in VISIBILITY:
            raise ValueError(f"unknown visibility {visibility!r}; expected one of "
                             f"{', '.join(VISIBILITY)}")
        self.puzzle = puzzle
        self.n = n = puzzle.size
        # HiGHS's symmetry detection costs more than it saves on programs this small
        # (measured: 6x6 grids with every clue, median 0.025 s with it, 0.017 s without)
        self.program = program = IntegerProgram(f"towers {n}x{n}", mip_detect_symmetry=False)
        self.x: dict[Cell, dict[int, int]] = {
            cell: {k: program.binary((cell, k)) for k in sorted(heights)}
            for cell, heights in self._heights_allowed(preprocess).items()}
        self._latin_square()
        for line in puzzle.lines():
            for clue, cells in ((line.front, line.cells), (line.back, line.cells[::-1])):
                if clue and visibility == "hull":
                    self._seen_hull(clue, cells)
                elif clue:
                    self._seen_big_m(clue, cells)

    def _heights_allowed(self, preprocess: bool) -> dict[Cell, set[int]]:
        if preprocess:
            return line_orderings(self.puzzle, clue_bounds(self.puzzle))
        n = self.n
        every: dict[Cell, set[int]] = {(r, c): set(range(1, n + 1))
                                       for r in range(n) for c in range(n)}
        for given, k in self.puzzle.given_cells().items():
            every[given] = {k}
        return every

    def heights(self, cell: Cell, ks: range) -> list[int]:
        """The variables "the tower on `cell` has height k" for the allowed k in `ks`."""
        return [self.x[cell][k] for k in ks if k in self.x[cell]]

    def _latin_square(self) -> None:
        n, program = self.n, self.program
        for heights in self.x.values():
            program.add(exactly(heights.values(), 1))
        for line in self.puzzle.lines():
            for k in range(1, n + 1):
                program.add(exactly([v for cell in line.cells
                                     for v in self.heights(cell, range(k, k + 1))], 1))

    def _taller(self, cell: Cell, k: int) -> dict[int, float]:
        """The terms of taller(cell, k): 1 when the tower on `cell` is taller than k."""
        return dict.fromkeys(self.heights(cell, range(k + 1, self.n + 1)), 1.0)

    def _seen_hull(self, clue: int, cells: Sequence[Cell]) -> None:
        program, seen = self.program, []
        for p, cell in enumerate(cells):
            for k, here in self.x[cell].items():
                if k < p + 1:  # n - k taller towers cannot all stand behind p: never seen
                    continue
                if p == 0 or k == self.n:  # nothing in front, or nothing taller
                    seen.append(here)
                    continue
                s = program.binary(("seen", cells[0], cell, k))
                seen.append(s)
                program.add(Row({s: 1, here: -1}, upper=0))
                in_front: dict[int, float] = {s: 1, here: -1}
                for q in range(p):
                    taller = self._taller(cells[q], k)
                    if taller:
                        program.add(Row({s: 1, **taller}, upper=1))
                        in_front.update(taller)
                program.add(Row(in_front, lower=0))
        program.add(exactly(seen, clue))

    def _seen_big_m(self, clue: int, cells: Sequence[Cell]) -> None:
        """One `seen[p]` per cell, tied to the heights by rows with a big constant 2n."""
        program, seen, big = self.program, [], 2 * self.n
        for p, cell in enumerate(cells):
            s = program.binary(("seen", cells[0], cell))
            seen.append(s)
            for k, here in self.x[cell].items():
                # taller-or-equal towers in front of p: 0 exactly when the tower at p is seen
                front = {v: 1.0 for q in range(p)
                         for v in self.heights(cells[q], range(k, self.n + 1))}
                # s <= 1 - front / 2n + (1 - x): s is 0 when x = 1 and something hides it
                program.add(Row({s: 1, here: 1, **{v: 1 / big for v in front}}, upper=2))
                # s >= 1 - front - 2n (1 - x): s is 1 when x = 1 and nothing hides it
                program.add(Row({s: 1, here: -big, **front}, lower=1 - big))
        program.add(exactly(seen, clue))

    def distinct(self) -> list[int]:
        """The variables two different solutions differ on: the heights."""
        return [v for heights in self.x.values() for v in heights.values()]

    def decode(self, values: Sequence[int]) -> Grid:
        n = self.n
        return [[next(k for k, v in self.x[(r, c)].items() if values[v])
                 for c in range(n)] for r in range(n)]


def no_cuts(values: Sequence[int]) -> list[Row]:
    """Towers needs no lazy rows: every rule is written out in full."""
    return []


def solutions(puzzle: Towers, deadline: float | None = None, visibility: str = "hull",
              stats: LoopStats | None = None, preprocess: bool = True) -> Iterator[Grid]:
    """Every solution, one at a time (the entry point of `solve(engine="milp")`)."""
    model = TowersProgram(puzzle, visibility, preprocess)
    for values in lazy_solutions(model.program, no_cuts, model.distinct(), deadline, stats):
        yield model.decode(values)
