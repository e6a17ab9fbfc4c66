"""Cardinality: how many variables of a scope take a given value.

`Count(["a", "b", "c", "d"], "x", ">=", 2)` says at least two of the four are "x".
Without it, "exactly four desks of each letter" needs a 0/1 helper variable per desk and a
`Sum`, or one wide `Predicate` that cannot prune until nearly every desk is chosen.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from .constraints import Constraint, _short
from .linear import comparison
from .state import SearchState


class Count(Constraint):
    """The number of `variables` equal to `value`, compared with `k` by `op`.

    `op` is one of `==`, `<=`, `>=`, `!=`. Propagation counts the variables that surely
    take `value` (`sure`: it is all their domain holds) and those that possibly do
    (`possible`: it is in their domain); every count from `sure` to `possible` can happen.
    - at most k and `sure` == k: nobody else may take `value`;
    - at least k and `possible` == k: everyone who can take `value` must;
    - `!=` k with one variable undecided: its choice settles the count, so it avoids k.
    Each rule removes exactly the values no solution uses (arc consistency).
    """

    idempotent = True

    def __init__(self, variables: Iterable[Hashable], value: Any, op: str, k: int,
                 name: str | None = None):
        variables = tuple(variables)
        label = name or (f"Count({', '.join(map(_short, variables))}) of {value!r} {op} {k}")
        self.compare = comparison(op, label)
        if isinstance(k, bool) or not isinstance(k, int):
            raise ValueError(f"{label}: k must be an int, not {k!r}")
        self.value, self.op, self.k = value, op, k
        super().__init__(variables, label)

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return self.compare(sum(1 for v in self.scope if values[v] == self.value), self.k)

    def consistent(self, assignment: Mapping[Hashable, Any]) -> bool:
        """A partial assignment can still reach a count that compares well with k."""
        taken = sum(1 for v in self.scope if v in assignment and assignment[v] == self.value)
        open_ = sum(1 for v in self.scope if v not in assignment)
        return any(self.compare(n, self.k) for n in range(taken, taken + open_ + 1))

    def propagate(self, state: SearchState) -> None:
        value, k = self.value, self.k
        holders = [v for v in self.scope if value in state.domains[v]]
        undecided = [v for v in holders if len(state.domains[v]) > 1]
        possible = len(holders)
        sure = possible - len(undecided)
        if not any(self.compare(n, k) for n in range(sure, possible + 1)):
            state.fail(None, f"{self.name}: between {sure} and {possible} can be {value!r}")
        if not undecided:
            return
        counts_if_taken = range(sure + 1, possible + 1)  # when one undecided variable takes it
        counts_if_not = range(sure, possible)            # when it takes something else
        take_ok = any(self.compare(n, k) for n in counts_if_taken)
        avoid_ok = any(self.compare(n, k) for n in counts_if_not)
        for var in undecided:  # all undecided variables are alike: one verdict for all
            if not take_ok:
                state.remove(var, value, self.name)
            elif not avoid_ok:
                state.fix(var, value, self.name)
