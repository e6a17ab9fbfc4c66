"""All variables of the scope take the same value."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from .constraints import Constraint, _short
from .state import SearchState


class AllEqual(Constraint):
    """Every variable takes one common value.

    Propagation keeps, in every domain, the values common to all the domains: exactly the
    values that some solution uses (arc consistency), and no common value is a failure.
    """

    idempotent = True

    def __init__(self, variables: Iterable[Hashable], name: str | None = None):
        variables = tuple(variables)
        super().__init__(variables, name or f"AllEqual({', '.join(map(_short, variables))})")

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return len({values[v] for v in self.scope}) <= 1

    def consistent(self, assignment: Mapping[Hashable, Any]) -> bool:
        return len({assignment[v] for v in self.scope if v in assignment}) <= 1

    def propagate(self, state: SearchState) -> None:
        common = set.intersection(*(state.domains[v] for v in self.scope))
        if not common:
            state.fail(None, f"{self.name}: no value is common to every domain")
        for var in self.scope:
            state.keep_only(var, common, self.name)
