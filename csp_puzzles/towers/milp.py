"""Towers as an integer program (the "milp" engine).

Variables: `x[cell][k]` is 1 when the tower on `cell` has height k ("one-hot" cells).

Presolve by line consistency first. Before writing any row, the heights no solution can
put in a cell are never given a variable: the CSP engine's propagation at the root of its
search (Tatham's clue bounds, the per-line enumeration of orderings that fit both clues, the
all-different rule of every line) runs until nothing changes, so a height fixed in a cell
leaves its row and column and a height with one place left in a line goes there. It is valid
for every solution, so it changes neither the solutions nor their count, only the size of
the program (and every linear relaxation HiGHS solves).

Rows of the Latin square: each cell has one height; each height appears once in each row
and each column.

Clued lines with few orderings left (at most `ORDERINGS_LIMIT`): one 0/1 variable
`pick[o]` per ordering o that fits the line's clues and heights, `sum(pick) == 1`, and
`x[cell][k] == sum(pick[o] for the orderings o with height k in that cell)`. The linear
relaxation of these rows, seen on the line's cells, is exactly the convex hull of the line's
orderings (every fractional point is an average of orderings), the tightest a line can
be, so small grids mostly solve at the root without branching. With many orderings the
program grows faster than the relaxation helps (`csp_puzzles.bench.milp` says what was
measured), so those lines get visibility rows:

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

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from ..core import Contradiction, SearchState
from ..core.inference import propagate
from ..solvers.lazy_cuts import LoopStats
from ..solvers.milp import IntegerProgram, Row, exactly
from ..solvers.milp import solutions as program_solutions
from .rules import Line

if TYPE_CHECKING:
    from .model import Grid, Towers

Cell = Hashable  # a (row, column) pair
VISIBILITY = ("hull", "big-m")
#: a clued line with at most this many orderings is written as a choice among them
ORDERINGS_LIMIT = 24


def presolve(puzzle: Towers, deadline: float | None = None) -> dict[Cell, set[int]]:
    """Presolve by line consistency: the heights each cell keeps after the CSP engine's
    root propagation (clue bounds, every clued line's orderings, all-different lines),
    repeated until nothing changes. Every cell loses all its heights when it finds a
    contradiction (then the program has no solution, as it should)."""
    csp = puzzle.to_csp()
    state = SearchState(csp)
    state.deadline = deadline
    try:
        propagate(state, csp.constraints)
    except Contradiction:
        return {cell: set() for cell in csp.variables}
    return {cell: set(state.domains[cell]) for cell in csp.variables}


def orderings(line: Line, allowed: Mapping[Cell, set[int]],
              limit: int) -> list[tuple[int, ...]] | None:
    """Every ordering (front to back) of `line` taking each cell's height from `allowed`
    and showing its clues; None when there are more than `limit`, or when the walk through
    partial orderings takes more than 20 steps per ordering allowed (many dead ends)."""
    cells, found, steps = line.cells, [], [0]
    choices = [sorted(allowed[cell]) for cell in cells]

    def extend(prefix: list[int], used: set[int], tallest: int, seen: int) -> bool:
        steps[0] += 1
        if steps[0] > 20 * limit:
            return False
        if len(prefix) == len(cells):
            if line.holds(prefix):
                found.append(tuple(prefix))
            return len(found) <= limit
        for h in choices[len(prefix)]:
            if h in used:
                continue
            now_seen = seen + (h > tallest)
            later = len(cells) - len(prefix) - 1  # cells after this one
            if line.front and not now_seen <= line.front <= now_seen + later:
                continue  # too many towers seen already, or too few cells left to see more
            prefix.append(h)
            used.add(h)
            going = extend(prefix, used, max(h, tallest), now_seen)
            prefix.pop()
            used.discard(h)
            if not going:
                return False
        return True

    return found if extend([], set(), 0, 0) else None


class TowersProgram:
    """The integer program of one Towers puzzle."""

    def __init__(self, puzzle: Towers, visibility: str = "hull", preprocess: bool = True,
                 orderings_limit: int = ORDERINGS_LIMIT, deadline: float | None = None) -> None:
        """`preprocess=False` is the report's program: every height in every cell, and
        visibility rows on every clued line (no presolve, no orderings)."""
        if visibility not in VISIBILITY:
            raise ValueError(f"unknown visibility {visibility!r}; expected one of "
                             f"{', '.join(VISIBILITY)}")
        self.puzzle = puzzle
        self.n = n = puzzle.size
        # HiGHS's symmetry detection costs more than it saves on programs this small
        # (measured with `csp-puzzles bench milp`: see csp_puzzles/bench/milp.py)
        self.program = program = IntegerProgram(f"towers {n}x{n}", mip_detect_symmetry=False)
        allowed = presolve(puzzle, deadline) if preprocess else self._every_height()
        self.x: dict[Cell, dict[int, int]] = {
            cell: {k: program.binary((cell, k)) for k in sorted(heights)}
            for cell, heights in allowed.items()}
        self._latin_square()
        #: the clued lines written as a choice among their orderings (the rest: visibility)
        self.ordered: list[Line] = []
        for line in puzzle.lines():
            chosen = (orderings(line, allowed, orderings_limit)
                      if preprocess and orderings_limit and line.has_clue else None)
            if chosen is not None:
                self._one_ordering(line, chosen)
                continue
            for clue, cells in ((line.front, line.cells), (line.back, line.cells[::-1])):
                if clue and visibility == "hull":
                    self._seen_hull(clue, cells)
                elif clue:
                    self._seen_big_m(clue, cells)

    def _every_height(self) -> dict[Cell, set[int]]:
        n = self.n
        every: dict[Cell, set[int]] = {(r, c): set(range(1, n + 1))
                                       for r in range(n) for c in range(n)}
        for given, k in self.puzzle.given_cells().items():
            every[given] = {k}
        return every

    def _one_ordering(self, line: Line, chosen: list[tuple[int, ...]]) -> None:
        """`pick[o]` is 1 for the one ordering o the line takes; a height is in a cell
        exactly when the picked ordering puts it there."""
        program = self.program
        self.ordered.append(line)
        pick = [program.binary(("ordering", line.label, o)) for o in range(len(chosen))]
        program.add(exactly(pick, 1))
        for p, cell in enumerate(line.cells):
            for k, here in self.x[cell].items():
                terms: dict[int, float] = {here: 1.0}
                terms.update((pick[o], -1.0) for o, heights in enumerate(chosen)
                             if heights[p] == k)
                program.add(Row(terms, 0, 0))

    def heights(self, cell: Cell, ks: range) -> list[int]:
        """The variables "the tower on `cell` has height k" for the allowed k in `ks`."""
        return [self.x[cell][k] for k in ks if k in self.x[cell]]

    def _latin_square(self) -> None:
        n, program = self.n, self.program
        for heights in self.x.values():
            program.add(exactly(heights.values(), 1))
        for line in self.puzzle.lines():
            for k in range(1, n + 1):
                program.add(exactly([self.x[cell][k] for cell in line.cells
                                     if k in self.x[cell]], 1))

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
              stats: LoopStats | None = None, preprocess: bool = True,
              orderings_limit: int = ORDERINGS_LIMIT) -> Iterator[Grid]:
    """Every solution, one at a time (the entry point of `solve(engine="milp")`)."""
    model = TowersProgram(puzzle, visibility, preprocess, orderings_limit, deadline)
    for values in program_solutions(model.program, no_cuts, model.distinct(), deadline, stats):
        yield model.decode(values)
