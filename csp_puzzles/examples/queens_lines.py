"""N-queens as one constraint that counts the queens on each row and diagonal.

The pairwise model (queens.py) has n(n-1)/2 binary constraints: fine for backtracking,
but a local search that asks "how many queens attack this square?" then makes n - 1
checks per square. Counting queens per line answers in three lookups, and this is what
lets min-conflicts place 100,000 queens (AIMA section 6.4) in seconds.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from operator import add
from typing import Any

from ..core import CSP, Constraint, SearchState
from ..core.local import UNSET, Changes, ConflictCounter, Pickable


def queens_by_lines(n: int = 8) -> CSP:
    """`n` queens, variable i = row of the queen in column i, one `QueensLines` constraint."""
    csp = CSP(f"{n}-queens (line counters)")
    csp.add_variables(range(n), range(n))
    csp.add_constraint(QueensLines(range(n)))
    return csp


class QueensLines(Constraint):
    """No two of the queens (variable = column, value = row) share a row or a diagonal.

    Its violations are the attacking pairs. As a search constraint it forward-checks:
    each placed queen removes the squares it attacks from the other columns.
    """

    def __init__(self, columns: Sequence[int] | range, name: str | None = None):
        super().__init__(columns, name or f"{len(columns)} queens, no two attacking")
        self.columns = tuple(columns)

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        rows = [values[c] for c in self.scope]
        n = len(rows)
        return (len(set(rows)) == n
                and len({r + c for c, r in zip(self.columns, rows)}) == n
                and len({r - c for c, r in zip(self.columns, rows)}) == n)

    def propagate(self, state: SearchState) -> None:
        placed = [(c, state.value(c)) for c in self.scope if state.is_fixed(c)]
        for column in self.scope:
            if state.is_fixed(column):
                continue
            attacked: set[int] = set()
            for c, r in placed:
                distance = abs(column - c)  # type: ignore[operator]
                attacked.update((r, r - distance, r + distance))
            for row in [x for x in state.values(column) if x in attacked]:
                state.remove(column, row, self.name)
        lines = [{r for _, r in placed}, {r + c for c, r in placed}, {r - c for c, r in placed}]
        if any(len(line) < len(placed) for line in lines):
            state.fail(None, f"{self.name}: two placed queens attack each other")

    def conflict_counter(self, assignment: dict[Hashable, Any]) -> ConflictCounter:
        return LineCounter(self, assignment)


class LineCounter(ConflictCounter):
    """Queens per row, per rising and per falling diagonal; conflicts at a square are the
    queens on its three lines. Rows with no queen are kept apart for the greedy start."""

    def __init__(self, constraint: QueensLines, assignment: dict[Hashable, Any]):
        super().__init__(constraint, assignment)
        n = len(constraint.scope)
        self.n = n
        self.rows = [0] * n
        self.ups = [0] * (2 * n - 1)    # row + column
        self.downs = [0] * (2 * n - 1)  # row - column + n - 1
        self.on_line: defaultdict[tuple[str, int], set[Hashable]] = defaultdict(set)
        self.free_rows = Pickable()
        self.shuffled = False
        for row in range(n):
            self.free_rows.add(row)
        for column in constraint.scope:
            if column in assignment:
                self._place(column, assignment[column], 1)

    def _lines(self, column: Any, row: int) -> tuple[tuple[str, int], ...]:
        return (("row", row), ("up", row + column), ("down", row - column + self.n - 1))

    def _place(self, column: Any, row: int, change: int) -> None:
        self.rows[row] += change
        self.ups[row + column] += change
        self.downs[row - column + self.n - 1] += change
        if self.rows[row]:
            self.free_rows.discard(row)
        else:
            self.free_rows.add(row)
        for line in self._lines(column, row):
            if change > 0:
                self.on_line[line].add(column)
            else:
                self.on_line[line].discard(column)

    def add_scores(self, var: Hashable, values: Sequence[Any], scores: list[int]) -> None:
        column: Any = var
        current = self.assignment.get(column, UNSET)
        if current is not UNSET:  # a queen does not attack itself
            self._place(column, current, -1)
        rows, ups, downs = self.rows, self.ups, self.downs
        shift = self.n - 1 - column
        attacks = [rows[row] + ups[row + column] + downs[row + shift] for row in values]
        scores[:] = map(add, scores, attacks)
        if current is not UNSET:
            self._place(column, current, 1)

    def candidates(self, var: Hashable, k: int, rng: random.Random) -> Sequence[Any] | None:
        free = self.free_rows.items
        if not free:
            return None
        if not self.shuffled:  # once; removals then swap rows about, keeping it mixed
            rng.shuffle(free)
            self.free_rows.where = {row: i for i, row in enumerate(free)}
            self.shuffled = True
        if len(free) <= k:
            return list(free)
        start = rng.randrange(len(free) - k + 1)
        return free[start:start + k]

    def move(self, var: Hashable, old: Any, new: Any) -> Changes:
        column: Any = var
        changes: list[tuple[Hashable, int]] = []
        if old is not UNSET:
            self._place(column, old, -1)
            changes += [(q, -1) for line in self._lines(column, old) for q in self.on_line[line]]
        changes += [(q, 1) for line in self._lines(column, new) for q in self.on_line[line]]
        self._place(column, new, 1)
        return changes
