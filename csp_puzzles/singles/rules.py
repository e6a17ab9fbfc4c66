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
from typing import TYPE_CHECKING, Any

from ..core import Constraint, SearchState
from ..core.checking import Breach, how_many
from ..core.trace import show

if TYPE_CHECKING:
    from ..core.hints import Words

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


    def breach(self, values: Mapping[Hashable, Any], words: Words) -> Breach:
        """"the shaded cells (1,1) and (1,2) touch" (the pair in reading order, so that the
        two cells' rules say it alike)."""
        other = next(n for n in self.neighbours if values.get(n) == SHADED)
        first, second = sorted((self.cell, other))
        return Breach(f"the shaded cells {show(first)} and {show(second)} touch",
                      (first, second), (first, second))


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
        doomed = [c for c in self.scope if c != keeper and UNSHADED in domains[c]]
        if not doomed:  # the usual case: the other copies are shaded already
            return
        cause = f"unshaded {self.number} at {show(keeper)} shades the other {self.number}s " \
                f"in {self.line}"
        for c in doomed:
            state.remove(c, UNSHADED, cause)


    def breach(self, values: Mapping[Hashable, Any], words: Words) -> Breach:
        """"two 3s stay white in row 2: (2,1) and (2,4)"."""
        white = [c for c in self.scope if values.get(c) == UNSHADED]
        return Breach(f"{how_many(len(white))} {self.number}s stay white in {self.line}: "
                      f"{', '.join(map(show, white))}", tuple(white), tuple(white))


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


def grid_lines(height: int, width: int) -> list[tuple[str, list[Cell]]]:
    """Every row and column of a `height` x `width` grid, with its name as the trace says
    it."""
    rows = [(f"row {r}", [(r, c) for c in range(width)]) for r in range(height)]
    columns = [(f"column {c}", [(r, c) for r in range(height)]) for c in range(width)]
    return rows + columns


def copy_rules(grid: Sequence[Sequence[int]]) -> list[AtMostOneUnshaded]:
    """SC on every number a row or a column of `grid` holds more than once."""
    rules = []
    for label, cells in grid_lines(len(grid), len(grid[0])):
        copies: dict[int, list[Cell]] = {}
        for r, c in cells:
            copies.setdefault(grid[r][c], []).append((r, c))
        rules += [AtMostOneUnshaded(where, number, label)
                  for number, where in copies.items() if len(where) > 1]
    return rules


def pattern_rules(grid: Sequence[Sequence[int]]) -> list[Implied]:
    """Sandwich, triple and pair rules on every row and column of `grid`."""
    rules: list[Implied] = []
    for label, cells in grid_lines(len(grid), len(grid[0])):
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


class OneWayOut(Constraint):
    """CC/CE/QM: a cell that is not shaded keeps an unshaded neighbour (the unshaded cells
    are connected), so when all its neighbours but one are shaded, that one is unshaded.

    (If the cell itself were shaded, that neighbour would be unshaded anyway.) With no
    neighbour left at all, the cell is cut off: this branch fails.
    """

    idempotent = True

    def __init__(self, cell: Cell, neighbours: Sequence[Cell]):
        super().__init__((cell, *neighbours), f"way out of {show(cell)}")
        self.cell = cell
        self.neighbours = tuple(neighbours)

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return True  # a consequence of connectivity, checked by `Connected`

    def propagate(self, state: SearchState) -> None:
        domains = state.domains
        if domains[self.cell] == ONLY_SHADED or not self.neighbours:
            return
        open_ = [n for n in self.neighbours if domains[n] != ONLY_SHADED]
        if any(SHADED not in domains[n] for n in open_):
            return  # an unshaded neighbour: a way out already
        if not open_:
            state.fail(self.cell, f"{show(self.cell)} is walled in by shaded cells")
        if len(open_) == 1:
            state.remove(open_[0], SHADED, f"one way out of {show(self.cell)}: its only "
                                           f"neighbour not shaded, {show(open_[0])}, stays "
                                           "unshaded")


def corner_rules(grid: Sequence[Sequence[int]]) -> list[Implied]:
    """Tatham's corner patterns (QC, TC, DC) in each 2x2 corner of `grid`.

    With the corner cell, its neighbour along the row, its neighbour along the column and
    the inner cell: four equal numbers shade the corner and the inner cell; three equal in
    an L shade its apex; a pair in the corner's row (or in the far column) leaves the
    column neighbour unshaded, and the other way round.
    """
    height, width = len(grid), len(grid[0])
    if height < 2 or width < 2:
        return []
    rules = []
    for r, c, dr, dc in ((0, 0, 1, 1), (0, width - 1, 1, -1), (height - 1, width - 1, -1, -1),
                         (height - 1, 0, -1, 1)):
        corner, side1, side2, inner = (r, c), (r, c + dc), (r + dr, c), (r + dr, c + dc)
        a, b, d, e = (grid[y][x] for y, x in (corner, side1, side2, inner))
        where = f"the corner at {show(corner)}"
        if a == b == d == e:
            forced, what = {corner: SHADED, inner: SHADED}, f"four {a}s"
        elif a == b == d:
            forced, what = {corner: SHADED}, f"three {a}s around it"
        elif b == d == e:
            forced, what = {inner: SHADED}, f"three {b}s around {show(inner)}"
        elif a == b or b == e:
            forced, what = {side2: UNSHADED}, f"a pair of {b}s beside {show(side2)}"
        elif a == d or d == e:
            forced, what = {side1: UNSHADED}, f"a pair of {d}s beside {show(side1)}"
        else:
            continue
        rules.append(Implied(forced, f"corner: {what} in {where}"))
    return rules


def offset_pair_rules(grid: Sequence[Sequence[int]]) -> list[Implied]:
    """Tatham's IP rule: two pairs of equal numbers, side by side and offset by one.

        . A . . y A .        one of the left A, B is unshaded (they touch), so the right
        . B . . B y .        A or B is shaded, and both cells marked y stay unshaded.

    Like his solver, it looks only to the right of a column pair and below a row pair.
    """
    height, width = len(grid), len(grid[0])
    rules = []
    pairs = [((r, c), (rr, c)) for c in range(width - 1) for r in range(height)
             for rr in range(r + 1, height) if grid[r][c] == grid[rr][c]]
    pairs += [((r, c), (r, cc)) for r in range(height - 1) for c in range(width)
              for cc in range(c + 1, width) if grid[r][c] == grid[r][cc]]
    for first, second in pairs:
        for near, far in ((first, second), (second, first)):
            rules += _offset_pair(grid, near, far)
    return rules


def _offset_pair(grid: Sequence[Sequence[int]], near: Cell, far: Cell) -> list[Implied]:
    """The IP deductions with `near`'s neighbour across the line against `far`'s diagonal
    neighbours on the same side."""
    height, width = len(grid), len(grid[0])
    (r1, c1), (r2, c2) = near, far
    dr, dc = (0, 1) if c1 == c2 else (1, 0)  # across the line: right of a column, below a row
    across = (r1 + dr, c1 + dc)
    rules = []
    for step in (1, -1):
        diagonal = (r2 + dr + dc * step, c2 + dc + dr * step)
        y, x = diagonal
        if not (0 <= y < height and 0 <= x < width) or diagonal == across:
            continue
        if grid[y][x] == grid[across[0]][across[1]]:
            forced = {(r2, x): UNSHADED, (y, c2): UNSHADED}
            rules.append(Implied(forced, f"offset pairs: {grid[r1][c1]}s at {show(near)}, "
                                         f"{show(far)} and {grid[y][x]}s at {show(across)}, "
                                         f"{show(diagonal)}"))
    return rules
