"""The problem itself: variables, their finite domains, and constraints over them.

A `CSP` only describes a problem; it never changes during a search. The search copies the
domains into a `SearchState` and prunes those.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from itertools import islice
from typing import Any

from .constraints import Constraint

#: The most values one variable may have: a larger domain is refused at once rather than
#: left to make every propagation slow.
MAX_DOMAIN_SIZE = 1_000_000


class CSP:
    """Variables with finite domains and the constraints that relate them.

    Variable names are any hashable values (ints, strings, tuples). Domains keep the order
    they were given in: that order is the `input` value order of the search.
    """

    def __init__(self, name: str = "CSP") -> None:
        self.name = name
        self.variables: list[Hashable] = []
        self.domains: dict[Hashable, tuple[Any, ...]] = {}
        self.constraints: list[Constraint] = []
        self.constraints_of: dict[Hashable, list[Constraint]] = {}
        #: each value's position in its variable's domain (read, never changed)
        self.rank: dict[Hashable, dict[Any, int]] = {}

    def add_variable(self, name: Hashable, domain: Iterable[Any]) -> None:
        """Add a variable; its domain keeps the given order, without repeats."""
        values = _values(name, domain)
        self._add(name, values, _positions(values))

    def _add(self, name: Hashable, values: tuple[Any, ...], rank: dict[Any, int]) -> None:
        if name in self.domains:
            raise ValueError(f"variable {name!r} is already defined")
        if not values:
            raise ValueError(f"variable {name!r} has an empty domain")
        self.variables.append(name)
        self.domains[name] = values
        self.rank[name] = rank
        self.constraints_of[name] = []

    def add_variables(self, names: Iterable[Hashable], domain: Iterable[Any]) -> None:
        """Add several variables sharing one domain (one tuple and one rank, however many
        variables)."""
        values = _values("of add_variables", domain)
        rank = _positions(values)
        for name in names:
            self._add(name, values, rank)

    def add_constraint(self, constraint: Constraint) -> Constraint:
        """Add a constraint over variables that already exist; returns it for chaining."""
        if not isinstance(constraint, Constraint):
            raise TypeError(f"add_constraint expects a Constraint (AllDifferent, Sum, Table, "
                            f"Predicate...), not {type(constraint).__name__}")
        for var in constraint.scope:
            if var not in self.domains:
                raise ValueError(f"{constraint.name}: unknown variable {var!r}")
        constraint.check_domains(self.domains)
        self.constraints.append(constraint)
        for var in dict.fromkeys(constraint.scope):
            self.constraints_of[var].append(constraint)
        return constraint

    def neighbours(self, var: Hashable) -> set[Hashable]:
        """Variables sharing at least one constraint with `var`."""
        return {other for c in self.constraints_of[var] for other in c.scope if other != var}

    def is_solution(self, assignment: Mapping[Hashable, Any]) -> bool:
        """True when every variable has a value from its domain and every constraint holds."""
        if any(var not in assignment for var in self.variables):
            return False
        if any(assignment[var] not in self.domains[var] for var in self.variables):
            return False
        return all(c.is_satisfied(assignment) for c in self.constraints)

    def violated(self, assignment: Mapping[Hashable, Any]) -> list[Constraint]:
        """The constraints a complete assignment breaks (empty for a solution)."""
        return [c for c in self.constraints if not c.is_satisfied(assignment)]

    def __repr__(self) -> str:
        return (
            f"CSP({self.name!r}: {len(self.variables)} variables, "
            f"{len(self.constraints)} constraints)"
        )


def _values(name: Hashable, domain: Iterable[Any]) -> tuple[Any, ...]:
    """The domain's values in order, without repeats; refused above `MAX_DOMAIN_SIZE`."""
    if not isinstance(domain, Iterable):
        raise TypeError(f"variable {name!r}: the domain must be a collection of values "
                        f"(a range, list, set...), not {type(domain).__name__}")
    values = tuple(dict.fromkeys(islice(domain, MAX_DOMAIN_SIZE + 1)))
    if len(values) > MAX_DOMAIN_SIZE:
        raise ValueError(f"variable {name!r} has more than {MAX_DOMAIN_SIZE} values, "
                         "the cap on domain sizes")
    return values


def _positions(values: tuple[Any, ...]) -> dict[Any, int]:
    """Each value's position in the domain."""
    return dict(zip(values, range(len(values))))
