"""Singles (Hitori) as a CSP: one Boolean per cell, shaded (1) or unshaded (0).

Shade some cells so that no number repeats among the unshaded cells of a row or column,
no two shaded cells touch orthogonally, and the unshaded cells form one orthogonally
connected region. At least one cell stays unshaded (no cell at all is no region, as in
Tatham's game), so a grid of one cell has one solution. Grids of one row or column, which
his games refuse, are read and solved by the same rules. Variables are the cells
`(row, column)`, counted from 0, top-left first.

The constraints (`rules.py`, `connectivity.py`):

- for each number repeated in a row or column, at most one copy stays unshaded (SC);
- for each cell, a shaded cell keeps its neighbours unshaded (SB);
- the pattern rules found in the numbers: sandwich `a ? a`, triple `a a a`, pair `a a`;
- the unshaded cells are connected, with the cut rule computed incrementally;
- optionally (`uniqueness=True`, the default when solving), a number alone in its row and
  column stays unshaded. `to_csp(counting=True)` leaves it out, since counting must not
  assume the answer is unique.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from ..core import CSP, Constraint, SearchState
from ..core.heuristics import VariableOrder
from ..core.ladder import Rung
from ..core.lookahead import probing
from ..core.trace import show
from ..puzzle.protocol import Puzzle
from . import grade as grading
from .check import check
from .connectivity import Connected
from .rules import (
    SHADED,
    UNSHADED,
    NoShadedNeighbours,
    copy_rules,
    grid_lines,
    pattern_rules,
    uniqueness_rules,
)

Cell = tuple[int, int]
Solution = frozenset  # the shaded cells, a frozenset of (row, column)
#: the numbers 1, 2, ... as Tatham's game IDs write them, one character each
TATHAM_DIGITS = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def shading_words(cell: Hashable, value: Any) -> str:
    """What a probe tried, in the puzzle's words: "shading (2,3)"."""
    return f"{'shading' if value == SHADED else 'leaving unshaded'} {show(cell)}"


#: MAC's variable order: failed-literal probing (core/lookahead.py) in Singles' words; it
#: replaces most of the guessing a human does by "what if" chains
PROBING = probing(shading_words)


@lru_cache(maxsize=16)
def _neighbours(height: int, width: int) -> dict[Cell, tuple[Cell, ...]]:
    """Orthogonal neighbours of every cell of a height x width grid (shared, read-only)."""
    return {(r, c): tuple((r + dr, c + dc) for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
                          if 0 <= r + dr < height and 0 <= c + dc < width)
            for r in range(height) for c in range(width)}


def first_undecided(state: SearchState) -> Hashable:
    """Branch on the first cell, in reading order, that is still undecided.

    Every undecided cell has two values, so this is MRV without the search for a minimum.
    Once every domain is down to one value it returns the cells still unassigned (forward
    checking and plain backtracking assign every variable; MAC stops before).
    """
    domains = state.domains
    for var in state.csp.variables:
        if len(domains[var]) > 1:
            return var
    return next(v for v in state.csp.variables if v not in state.assignment)


@dataclass(frozen=True)
class Singles(Puzzle):
    """A Singles grid: `grid[r][c]` is the number in row r, column c."""

    grid: tuple[tuple[int, ...], ...]

    kind: ClassVar[str] = "singles"
    default_inference: ClassVar[str] = "mac"
    model_options: ClassVar[frozenset[str]] = frozenset({"uniqueness"})
    engines: ClassVar[tuple[str, ...]] = ("csp", "milp")  # milp: the program of milp.py
    difficulties: ClassVar[tuple[str, ...]] = grading.DIFFICULTIES

    def __post_init__(self) -> None:
        grid = self.grid
        if not grid or not all(isinstance(row, tuple) and row for row in grid):
            raise ValueError("Singles needs a grid: a non-empty tuple of non-empty tuples of "
                             "numbers, like ((1, 2), (2, 1))")
        if any(len(row) != len(grid[0]) for row in grid):
            raise ValueError(f"Singles grid rows differ in length, expected {len(grid[0])} "
                             "numbers in every row")
        if not all(type(x) is int and x >= 1 for row in grid for x in row):
            raise ValueError("Singles numbers must be positive integers")

    @property
    def height(self) -> int:
        return len(self.grid)

    @property
    def width(self) -> int:
        return len(self.grid[0])

    def cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.height) for c in range(self.width)]

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        return _neighbours(self.height, self.width)[cell]

    def lines(self) -> list[tuple[str, list[Cell]]]:
        """Every row and column, with its name as the trace says it."""
        return grid_lines(self.height, self.width)

    # -- the model -------------------------------------------------------------------------
    def to_csp(self, counting: bool = False, uniqueness: bool | None = None,
               patterns: bool = True, **options: Any) -> CSP:
        """The CSP; `uniqueness` defaults to on when solving and is always off when counting;
        `patterns=False` leaves out the pattern rules (deductions from the three rules)."""
        self.reject_options(options)
        use_uniqueness = (not counting) if uniqueness is None else (uniqueness and not counting)
        csp = CSP(f"singles {self.width}x{self.height}")
        csp.add_variables(self.cells(), (UNSHADED, SHADED))
        rules: list[Constraint] = [*pattern_rules(self.grid)] if patterns else []
        if use_uniqueness:
            rules += uniqueness_rules(self.grid)
        rules += copy_rules(self.grid)
        rules += [NoShadedNeighbours(cell, self.neighbours(cell)) for cell in self.cells()]
        for rule in rules:
            csp.add_constraint(rule)
        csp.add_constraint(Connected(self.height, self.width))
        return csp

    def rules_csp(self, **options: Any) -> CSP:
        """The three rules a player states: no number twice white in a line, no two shaded
        cells touching, the white cells in one piece (the pattern and uniqueness rules are
        deductions, left out; `uniqueness` changes nothing here)."""
        self.reject_options({k: v for k, v in options.items() if k != "uniqueness"})
        return self.to_csp(counting=True, patterns=False)

    def decode(self, assignment: Mapping[Hashable, Any]) -> Solution:
        return frozenset(cell for cell, value in assignment.items() if value == SHADED)

    # -- solving: probing goes with MAC --------------------------------------------------------
    def var_order_for(self, inference: str) -> VariableOrder:
        """MAC branches with probing; FC and none on the first undecided cell (probing
        propagates every rule, which would blur the comparison of the inferences)."""
        return PROBING if inference == "mac" else first_undecided

    # -- output ----------------------------------------------------------------------------
    def ladder(self, uniqueness: bool | None = None, **options: Any) -> list[Rung]:
        """Tatham's levels as rungs (`grade.py`): easy, tricky. No rung assumes that the
        solution is unique, so they are the same whatever `uniqueness` (which adds that
        assumption to the search's model) says."""
        self.reject_options(options)
        return [Rung(level, grading.rules_csp(self, level)) for level in grading.LEVELS]

    def check(self, solution: Any) -> list[str]:
        return check(self.grid, solution)

    def solution_to_json(self, solution: Any) -> dict[str, Any]:
        return {"shaded": [[r, c] for r, c in sorted(solution)]}

    def solution_to_text(self, solution: Any) -> str:
        """The grid with shaded cells written `#`."""
        width = max(len(str(x)) for row in self.grid for x in row)
        return "\n".join(
            " ".join(("#" * width) if (r, c) in solution else str(x).rjust(width)
                     for c, x in enumerate(row))
            for r, row in enumerate(self.grid))

    def to_text(self) -> str:
        """The janko.at text: header `R C`, then the rows."""
        lines = [f"{self.height} {self.width}"]
        lines += [" ".join(str(x) for x in row) for row in self.grid]
        return "\n".join(lines) + "\n"

    def to_tatham(self) -> str:
        """The Tatham game ID; raises ValueError when a number is above max(W, H)."""
        largest = max(self.width, self.height)
        chars = []
        for row in self.grid:
            for x in row:
                if x > min(largest, len(TATHAM_DIGITS)):
                    raise ValueError(f"number {x} cannot be written in a Tatham ID of a "
                                     f"{self.width}x{self.height} grid (at most {largest})")
                chars.append(TATHAM_DIGITS[x - 1])
        return f"{self.width}x{self.height}:{''.join(chars)}"
