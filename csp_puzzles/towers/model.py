"""Towers (skyscrapers) as a CSP: one variable per cell, its height 1..n.

The grid is a Latin square (each height once per row and column) and a clue outside a
line says how many towers one sees looking along it (a tower hides every shorter one
behind it). Variables are the cells `(row, column)`, counted from 0, top-left first.

The models (`to_csp(model=...)`):

- `full` (the default): clue rules and the per-line enumeration of orderings on every
  clued line (it keeps exactly the heights of some valid permutation, so it does the
  line's all-different too), all-different with Régin's filtering on the other lines;
- `easy`: clue rules and Latin singles, clues checked once a line is complete (what
  Tatham's Easy level allows);
- `extreme`: `full` plus positional sets for every height;
- `plain`: all-different plus a visibility check once a line is complete: the model any
  generic solver can run, useful to see what the clue propagators buy.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..core import CSP, AllDifferent
from ..core.ladder import Rung
from ..puzzle.formats import encode_runs
from ..puzzle.limits import GRID_SIDE
from ..puzzle.protocol import Puzzle
from . import grade as grading
from .check import check
from .rules import (
    ClueRules,
    ClueSeen,
    LatinSingles,
    Line,
    LineClues,
    LineDifferent,
    LineVisibility,
    ValuePositions,
)

MODELS = ("full", "easy", "extreme", "plain")
#: the clue rows in the order both formats write them
SIDES = ("top", "bottom", "left", "right")
#: The largest size: the clue rules keep sets of heights as bit masks in small tables.
MAX_SIZE = GRID_SIDE["towers"]

Grid = list[list[int]]


@dataclass(frozen=True)
class Towers(Puzzle):
    """An n x n Towers puzzle: four rows of clues (0 = none) and optional given heights.

    `top` and `bottom` run left to right, `left` and `right` top to bottom; `givens[r][c]`
    is a height or 0.
    """

    size: int
    top: tuple[int, ...]
    bottom: tuple[int, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]
    givens: tuple[tuple[int, ...], ...] = field(default=())

    kind: ClassVar[str] = "towers"
    model_options: ClassVar[frozenset[str]] = frozenset({"model"})
    engines: ClassVar[tuple[str, ...]] = ("csp", "milp")  # milp: the program of milp.py
    difficulties: ClassVar[tuple[str, ...]] = grading.DIFFICULTIES

    def __post_init__(self) -> None:
        n = self.size
        if not 1 <= n <= MAX_SIZE:
            raise ValueError(f"Towers size {n} is out of range, expected 1 to {MAX_SIZE} "
                             f"(the cap on Towers sizes)")
        if not self.givens:
            object.__setattr__(self, "givens", tuple((0,) * n for _ in range(n)))
        for name in ("top", "bottom", "left", "right"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} needs {n} clues")

    @classmethod
    def from_sides(cls, size: int, sides: Sequence[Sequence[int]],
                   givens: Sequence[Sequence[int]] = ()) -> Towers:
        """A puzzle from its four clue rows in the order top, bottom, left, right."""
        top, bottom, left, right = (tuple(side) for side in sides)
        return cls(size, top, bottom, left, right, tuple(map(tuple, givens)))

    # -- structure ----------------------------------------------------------------------------
    def lines(self) -> list[Line]:
        """Every row (read from the left) and column (read from the top) with its clues."""
        n = self.size
        rows = [Line(f"row {r}", [(r, c) for c in range(n)], self.left[r], self.right[r],
                     "left", "right") for r in range(n)]
        cols = [Line(f"column {c}", [(r, c) for r in range(n)], self.top[c], self.bottom[c],
                     "top", "bottom") for c in range(n)]
        return rows + cols

    def given_cells(self) -> dict[tuple[int, int], int]:
        return {(r, c): h for r, row in enumerate(self.givens) for c, h in enumerate(row) if h}

    def clue_count(self) -> int:
        return sum(1 for side in (self.top, self.bottom, self.left, self.right)
                   for clue in side if clue)

    # -- the CSP --------------------------------------------------------------------------------
    def to_csp(self, counting: bool = False, model: str = "full", **options: Any) -> CSP:
        """The CSP of this puzzle; no rule assumes uniqueness, so `counting` changes nothing."""
        self.reject_options(options)
        self.check_model(model, MODELS)
        n = self.size
        csp = self._cells(CSP(f"towers {n}x{n}"))
        lines = self.lines()
        clued = [line for line in lines if line.has_clue]
        if model != "plain":
            for line in clued:
                csp.add_constraint(ClueRules(line, n, dynamic=model == "easy"))
        for line in lines:
            if model == "easy":
                csp.add_constraint(LatinSingles(line.cells, n, line.label))
            elif model == "plain" or not line.has_clue:
                # a clued line's orderings are permutations: LineClues does this job there
                csp.add_constraint(AllDifferent(line.cells, f"{line.label} all different"))
        for line in clued:
            if model in ("plain", "easy"):
                csp.add_constraint(LineVisibility(line))
            elif model != "easy":
                csp.add_constraint(LineClues(line, n))
        if model == "extreme":
            for value in range(1, n + 1):
                csp.add_constraint(ValuePositions(value, n))
        return csp

    def rules_csp(self, **options: Any) -> CSP:
        """The rules as a player states them: each line holds each height once, and each
        clue sees its number of towers (whatever the `model` of the propagators)."""
        self.reject_options({k: v for k, v in options.items() if k != "model"})
        csp = self._cells(CSP(f"towers {self.size}x{self.size} rules"))
        for line in self.lines():
            csp.add_constraint(LineDifferent(line.cells, line.label))
            for side in ("front", "back"):
                if line.from_side(side)[0]:
                    csp.add_constraint(ClueSeen(line, side, self.size))
        return csp

    def _cells(self, csp: CSP) -> CSP:
        """`csp` with a variable per cell: its given height, or 1 to n."""
        n, givens = self.size, self.given_cells()
        for r in range(n):
            for c in range(n):
                csp.add_variable((r, c), (givens[(r, c)],) if (r, c) in givens
                                 else range(1, n + 1))
        return csp

    def decode(self, assignment: Mapping[Hashable, Any]) -> Grid:
        n = self.size
        return [[assignment.get((r, c), 0) for c in range(n)] for r in range(n)]

    # -- outputs ----------------------------------------------------------------------------------
    def solution_to_json(self, solution: Grid) -> dict[str, Any]:
        return {"grid": [list(row) for row in solution]}

    def solution_to_text(self, solution: Grid) -> str:
        """The grid with its clues around it, as a terminal shows it."""
        def clue(x: int) -> str:
            return str(x) if x else " "

        top = "    " + " ".join(clue(x) for x in self.top)
        bottom = "    " + " ".join(clue(x) for x in self.bottom)
        rule = "  +" + "-" * (2 * self.size + 1) + "+"
        rows = [f"{clue(self.left[r])} | {' '.join(str(h or '.') for h in row)} | "
                f"{clue(self.right[r])}".rstrip() for r, row in enumerate(solution)]
        return "\n".join([top.rstrip(), rule, *rows, rule, bottom.rstrip()])

    def to_text(self) -> str:
        """The janko.at text (rows of givens only when there are some)."""
        n = self.size
        lines = [f"{n} {n} {n}"]
        for side in SIDES:
            lines.append(" ".join(str(x) if x else "-" for x in getattr(self, side)))
        if any(h for row in self.givens for h in row):
            for row in self.givens:
                lines.append(" ".join(str(h) if h else "-" for h in row))
        return "\n".join(lines) + "\n"

    def to_tatham(self) -> str:
        """The Tatham game ID (givens written only when there are some)."""
        clues = [x for side in SIDES for x in getattr(self, side)]
        text = f"{self.size}:" + "/".join(str(x) if x else "" for x in clues)
        cells = [str(h) if h else None for row in self.givens for h in row]
        if not any(cells):
            return text
        return text + "," + encode_runs(cells, between="_")

    def ladder(self, model: str = "full", **options: Any) -> list[Rung]:
        """Tatham's levels as rungs (`grade.py`): easy, hard, extreme, and the trials of
        unreasonable. They are the same for every `model`: the models differ only in how
        the search propagates, never in the cells or the solutions."""
        self.reject_options(options)
        self.check_model(model, MODELS)
        return grading.rungs(self)

    def check(self, solution: Any) -> list[str]:
        return check(self, solution)

    editor_frame: ClassVar[int] = 1
