"""Unary constraints: one variable's value must (or must not) belong to a set.

A unary constraint needs no search: it is applied once, before anything else, by removing
the values it forbids (node consistency). `propagate` does exactly that, and it is exact.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from .constraints import Constraint, _short
from .state import SearchState


class InSet(Constraint):
    """`variable` takes one of `values`."""

    idempotent = True

    def __init__(self, variable: Hashable, values: Iterable[Any], name: str | None = None):
        self.allowed = frozenset(values)
        shown = ", ".join(sorted(map(str, self.allowed)))
        super().__init__((variable,), name or f"{_short(variable)} in {{{shown}}}")

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return values[self.scope[0]] in self.allowed

    def propagate(self, state: SearchState) -> None:
        state.keep_only(self.scope[0], self.allowed, self.name)


class NotInSet(Constraint):
    """`variable` takes none of `values`."""

    idempotent = True

    def __init__(self, variable: Hashable, values: Iterable[Any], name: str | None = None):
        self.forbidden = frozenset(values)
        shown = ", ".join(sorted(map(str, self.forbidden)))
        super().__init__((variable,), name or f"{_short(variable)} not in {{{shown}}}")

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return values[self.scope[0]] not in self.forbidden

    def propagate(self, state: SearchState) -> None:
        var = self.scope[0]
        for x in [x for x in state.values(var) if x in self.forbidden]:
            state.remove(var, x, self.name)
