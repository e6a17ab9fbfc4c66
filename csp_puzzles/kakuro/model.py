"""Kakuro as a CSP: one variable per white cell (digits 1-9), one constraint per run.

A grid cell is a block (`BLOCK`), a white cell (`WHITE`) or a `Clue` giving the sum of the
run below it (`down`) and of the run to its right (`right`). Two models:

- `combined` (the default): one `RunConstraint` per run, reasoning on the digit sets of the
  run's length and sum, plus `RegionSum` equations of at most 5 cells read off a run and
  the runs crossing it (see `rules.py`). Nearly every published puzzle needs no search.
- `decomposed`: the textbook model, a `Sum` and an `AllDifferent` per run. Each propagates
  alone, so the search has to guess far more: the notebooks show the difference.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar, NamedTuple

from ..core import CSP, AllDifferent, Sum
from ..core.ladder import Rung
from ..core.trace import show
from ..puzzle.protocol import Puzzle
from . import grade as grading
from .check import check
from .combinations import DIGITS
from .rules import RegionSum, RunConstraint

Cell = tuple[int, int]
Grid = list[list[int | None]]
BLOCK = "-"
WHITE = "0"
MODELS = ("combined", "decomposed")


class Clue(NamedTuple):
    """A clue cell: the sum of the run below it and of the run to its right (None: no run)."""

    down: int | None
    right: int | None

    def token(self) -> str:
        down = "" if self.down is None else self.down
        right = "" if self.right is None else self.right
        return f"{down},{right}"


@dataclass(frozen=True)
class Run:
    """A maximal line of white cells after a clue, with the sum its digits must make."""

    direction: str  # "across" or "down"
    clue: Cell
    total: int
    cells: tuple[Cell, ...]

    @property
    def label(self) -> str:
        """How the trace names the run, e.g. `across 23 at (1,1)` (the clue's cell)."""
        return f"{self.direction} {self.total} at {show(self.clue)}"


def find_runs(grid: list[list[Any]]) -> list[Run]:
    """Every clued run of the grid, across runs first, in reading order of their clues.

    A clue whose run is empty still gives a `Run` (with no cells): the parser reports it.
    """
    height, width = len(grid), len(grid[0]) if grid else 0
    runs = []
    for direction, step in (("across", (0, 1)), ("down", (1, 0))):
        for r in range(height):
            for c in range(width):
                cell = grid[r][c]
                if not isinstance(cell, Clue):
                    continue
                total = cell.right if direction == "across" else cell.down
                if total is None:
                    continue
                cells = []
                rr, cc = r + step[0], c + step[1]
                while rr < height and cc < width and grid[rr][cc] == WHITE:
                    cells.append((rr, cc))
                    rr, cc = rr + step[0], cc + step[1]
                runs.append(Run(direction, (r, c), total, tuple(cells)))
    return runs


def region_sums(runs: list[Run], most: int = 5) -> list[RegionSum]:
    """Region-sum equations with at most `most` cells: a run minus 1 to 3 crossing runs."""
    run_of: dict[tuple[str, Cell], Run] = {}
    for run in runs:
        for cell in run.cells:
            run_of[run.direction, cell] = run
    found: dict[tuple, RegionSum] = {}
    for run in runs:
        other = "down" if run.direction == "across" else "across"
        crossing = list(dict.fromkeys(run_of[other, cell] for cell in run.cells
                                      if (other, cell) in run_of))
        for size in (1, 2, 3):
            for chosen in combinations(crossing, size):
                covered = {cell for crossing_run in chosen for cell in crossing_run.cells}
                plus = sorted(covered - set(run.cells))
                minus = sorted(set(run.cells) - covered)
                if not plus or len(plus) + len(minus) > most:
                    continue
                if not minus and any(set(plus) == set(r.cells) for r in runs):
                    continue  # just another run's own sum
                total = sum(r.total for r in chosen) - run.total
                key = (tuple(plus), tuple(minus))
                if key in found or (tuple(minus), tuple(plus)) in found:
                    continue
                cells = plus + minus
                distinct = [(i, j) for i in range(len(cells)) for j in range(i + 1, len(cells))
                            if any(run_of.get((d, cells[i])) is not None
                                   and run_of.get((d, cells[i])) is run_of.get((d, cells[j]))
                                   for d in ("across", "down"))]
                label = " + ".join(r.label for r in chosen) + f" - {run.label}"
                found[key] = RegionSum(plus, minus, total, distinct, label)
    return list(found.values())


class Kakuro(Puzzle):
    """A Kakuro grid: fill the white cells with 1-9 so every run has its sum, no repeats."""

    kind: ClassVar[str] = "kakuro"
    model_options: ClassVar[frozenset[str]] = frozenset({"model"})
    engines: ClassVar[tuple[str, ...]] = ("csp", "milp")  # milp: the program of milp.py
    difficulties: ClassVar[tuple[str, ...]] = grading.DIFFICULTIES

    def __init__(self, grid: list[list[Any]]):
        self.grid: list[list[Any]] = [list(row) for row in grid]
        self.height = len(self.grid)
        self.width = len(self.grid[0]) if self.grid else 0
        self.runs: list[Run] = find_runs(self.grid)
        self.whites: list[Cell] = [(r, c) for r in range(self.height)
                                   for c in range(self.width) if self.grid[r][c] == WHITE]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Kakuro):
            return NotImplemented
        return self.grid == other.grid

    __hash__ = None  # type: ignore[assignment]  # the grid is a list: equal, not hashable

    # -- the CSP ---------------------------------------------------------------------------
    def to_csp(self, counting: bool = False, model: str = "combined",
               matching: bool = True, regions: bool = True, **options: Any) -> CSP:
        """The CSP of the grid. No rule here assumes a unique solution, so `counting` changes
        nothing. `matching=False` and `regions=False` weaken the combined model (grading)."""
        self.reject_options(options)
        self.check_model(model, MODELS)
        csp = CSP(f"kakuro {self.height}x{self.width} ({model})")
        csp.add_variables(self.whites, DIGITS)
        for run in self.runs:
            if model == "combined":
                csp.add_constraint(RunConstraint(run.cells, run.total, run.label, matching))
            else:
                csp.add_constraint(Sum(run.cells, run.total, name=f"sum {run.label}"))
                if len(run.cells) > 1:
                    csp.add_constraint(AllDifferent(run.cells, name=f"all-different {run.label}"))
        if model == "combined" and regions:  # after the runs: they propagate first
            for constraint in region_sums(self.runs):
                csp.add_constraint(constraint)
        return csp

    def decode(self, assignment: dict[Hashable, Any]) -> Grid:
        """The grid of digits: a digit in each white cell, None elsewhere (and where unknown)."""
        return [[assignment.get((r, c)) if self.grid[r][c] == WHITE else None
                 for c in range(self.width)] for r in range(self.height)]

    # -- output ----------------------------------------------------------------------------
    def solution_to_json(self, solution: Grid) -> dict[str, Any]:
        return {"grid": [list(row) for row in solution]}

    def solution_to_text(self, solution: Grid) -> str:
        """The janko.at solution layout: digits in white cells, `-` elsewhere."""
        return "\n".join(" ".join("-" if x is None else str(x) for x in row) for row in solution)

    def to_text(self) -> str:
        """The janko.at text format (`R C` header, `-`, `0`, `down,right`), columns aligned."""
        tokens = [[cell.token() if isinstance(cell, Clue) else cell for cell in row]
                  for row in self.grid]
        width = max((len(t) for row in tokens for t in row), default=1)
        lines = [f"{self.height} {self.width}"]
        lines += [" ".join(t.rjust(width) for t in row).rstrip() for row in tokens]
        return "\n".join(lines) + "\n"

    def rules_csp(self, **options: Any) -> CSP:
        """The rules as a player states them: each run holds different digits adding up to
        its clue (whatever the `model` of the propagators; the region sums are deductions,
        left out)."""
        self.reject_options({k: v for k, v in options.items() if k != "model"})
        return self.to_csp(regions=False)

    def ladder(self, model: str = "combined", **options: Any) -> list[Rung]:
        """The project's levels as rungs (`grade.py`): easy, medium. They are the same for
        every `model`: the models differ only in how the search propagates, never in the
        cells or the solutions."""
        self.reject_options(options)
        self.check_model(model, MODELS)
        return grading.rungs(self)

    def grade(self) -> str:
        """`easy`, `medium` or `hard` (`grade.py`): beyond the ladder is `hard`, counted or
        not."""
        return grading.grade(self)

    def check(self, solution: Any) -> list[str]:
        return check(self, solution)

    def __repr__(self) -> str:
        return f"Kakuro({self.height}x{self.width}, {len(self.whites)} white cells)"
