"""Singles' deduction rules as propagators, each named the way the trace shows it.

Cells are Booleans: `SHADED` (1) or `UNSHADED` (0). The rules (menneske.no's names, which
Tatham's solver uses too):

- `NoShadedNeighbours` (SB): a shaded cell keeps its four neighbours unshaded;
- `AtMostOneUnshaded` (SC): among the copies of one number in a row or column at most one
  stays unshaded, so an unshaded copy shades all the others;
- `Implied`: a fact read off the numbers before any search, used for the pattern rules
  (sandwich `a ? a`, triple `a a a`, pair `a a` shading the other copies) and for the
  optional uniqueness rule;
- the connectivity cut rule lives in `connectivity.py`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from ..core import Constraint, SearchState
from ..core.trace import show

SHADED, UNSHADED = 1, 0
ONLY_SHADED = frozenset({SHADED})
Cell = tuple[int, int]


class NoShadedNeighbours(Constraint):
    """SB: `cell` and its orthogonal neighbours are never shaded together."""

    idempotent = True

    def __init__(self, cell: Cell, neighbours: Sequence[Cell]):
        super().__init__((cell, *neighbours), f"shaded {show(cell)} keeps its neighbours unshaded")
        self.cell = cell
        self.neighbours = tuple(neighbours)

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return values[self.cell] != SHADED or all(values[n] != SHADED for n in self.neighbours)

    def propagate(self, state: SearchState) -> None:
        domains = state.domains
        if SHADED not in domains[self.cell]:
            return
        if len(domains[self.cell]) == 1:
            for n in self.neighbours:
                state.remove(n, SHADED, self.name)
        elif any(domains[n] == ONLY_SHADED for n in self.neighbours):
            shaded = next(n for n in self.neighbours if domains[n] == ONLY_SHADED)
            state.remove(self.cell, SHADED,
                         f"shaded {show(shaded)} keeps its neighbours unshaded")


class AtMostOneUnshaded(Constraint):
    """SC: the copies of `number` in one line; at most one of them stays unshaded."""

    idempotent = True

    def __init__(self, cells: Sequence[Cell], number: int, line: str):
        super().__init__(cells, f"no repeated {number} in {line}")
        self.cells = tuple(cells)
        self.number = number
        self.line = line

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return sum(values[c] == UNSHADED for c in self.scope) <= 1

    def propagate(self, state: SearchState) -> None:
        domains = state.domains
        white = [c for c in self.cells if SHADED not in domains[c]]
        if not white:
            return
        if len(white) > 1:
            state.fail(white[1], f"{self.name}: {show(white[0])} and {show(white[1])} "
                                 "are both unshaded")
        keeper = white[0]
        cause = f"unshaded {self.number} at {show(keeper)} shades the other {self.number}s " \
                f"in {self.line}"
        for c in self.scope:
            if c != keeper:
                state.remove(c, UNSHADED, cause)


class Implied(Constraint):
    """A fact deduced from the numbers alone (a pattern rule): each cell gets its value.

    The relation is the fact itself; it holds in every solution (or, for the uniqueness rule,
    in the solution of a puzzle that has exactly one), so the search may rely on it.
    """

    idempotent = True

    def __init__(self, forced: Mapping[Cell, int], name: str):
        super().__init__(tuple(forced), name)
        self.forced = dict(forced)

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return all(values[c] == v for c, v in self.forced.items())

    def propagate(self, state: SearchState) -> None:
        for cell, value in self.forced.items():
            state.fix(cell, value, self.name)


def pattern_rules(grid: Sequence[Sequence[int]]) -> list[Implied]:
    """Sandwich, triple and pair rules on every row and column of `grid`."""
    height, width = len(grid), len(grid[0])
    lines: list[tuple[str, list[Cell]]] = []
    lines += [(f"row {r}", [(r, c) for c in range(width)]) for r in range(height)]
    lines += [(f"column {c}", [(r, c) for r in range(height)]) for c in range(width)]
    rules: list[Implied] = []
    for label, cells in lines:
        numbers = [grid[r][c] for r, c in cells]
        for i in range(len(cells) - 2):
            a = numbers[i]
            if numbers[i + 2] != a:
                continue
            if numbers[i + 1] == a:
                rules.append(Implied({cells[i]: SHADED, cells[i + 1]: UNSHADED,
                                      cells[i + 2]: SHADED},
                                     f"triple {a} {a} {a} in {label}: the middle one "
                                     f"{show(cells[i + 1])} stays, both ends are shaded"))
            else:
                rules.append(Implied({cells[i + 1]: UNSHADED},
                                     f"sandwich {a} ? {a} in {label}: {show(cells[i + 1])} "
                                     f"between two {a}s stays unshaded"))
        for i in range(len(cells) - 1):
            a = numbers[i]
            if numbers[i + 1] != a:
                continue
            others = [c for j, c in enumerate(cells) if numbers[j] == a and j not in (i, i + 1)]
            if others:
                rules.append(Implied(dict.fromkeys(others, SHADED),
                                     f"pair {a} {a} at {show(cells[i])}-{show(cells[i + 1])} "
                                     f"shades the other {a}s in {label}"))
    return rules


def uniqueness_rules(grid: Sequence[Sequence[int]]) -> list[Implied]:
    """A number alone in its row and its column stays unshaded.

    Safe when solving a puzzle with one solution (and it never loses every solution: such a
    cell can always be unshaded), wrong when counting solutions.
    """
    height, width = len(grid), len(grid[0])
    rules = []
    for r in range(height):
        for c in range(width):
            a = grid[r][c]
            in_row = sum(grid[r][k] == a for k in range(width))
            in_column = sum(grid[k][c] == a for k in range(height))
            if in_row == 1 and in_column == 1:
                rules.append(Implied({(r, c): UNSHADED},
                                     f"uniqueness: {a} at {show((r, c))} is alone in its row "
                                     "and column, so it stays unshaded"))
    return rules
