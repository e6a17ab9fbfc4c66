"""Variable and value orders: which variable to branch on, and which value to try first.

Every variable order is a function `(state) -> variable` and every value order a function
`(state, var) -> list of values`. Write your own with the same signature and pass it to
`solve`: `solve(csp, var_order=my_order)`. Ties are always broken by input order, so runs
are repeatable.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from .inference import weighted_degrees
from .state import SearchState

VariableOrder = Callable[[SearchState], Hashable]
ValueOrder = Callable[[SearchState, Hashable], list[Any]]


def input_order(state: SearchState) -> Hashable:
    """The first variable still to decide, in the order they were added."""
    return state.unassigned()[0]


def mrv(state: SearchState) -> Hashable:
    """Minimum remaining values: the variable still to decide with the smallest domain."""
    domains = state.domains
    best, best_size = None, None
    for var in state.unassigned():
        size = len(domains[var])
        if best_size is None or size < best_size:
            best, best_size = var, size
    return best


def mrv_degree(state: SearchState) -> Hashable:
    """MRV, ties broken by degree: the most constraints with other variables to decide."""
    domains = state.domains
    unassigned = state.unassigned()
    smallest = min(len(domains[v]) for v in unassigned)
    tied = [v for v in unassigned if len(domains[v]) == smallest]
    if len(tied) == 1:
        return tied[0]
    open_ = set(unassigned)
    return max(tied, key=lambda var: _degree(state, var, open_))  # keeps the first of equals


def _degree(state: SearchState, var: Hashable, open_: set[Hashable]) -> int:
    """How many constraints tie `var` to other variables still to decide."""
    return sum(
        1
        for c in state.csp.constraints_of[var]
        if any(other != var and other in open_ for other in c.scope)
    )


def dom_wdeg(state: SearchState) -> Hashable:
    """Smallest domain / weighted degree (Boussemart et al., 2004), called dom/wdeg.

    The weighted degree of a variable is the sum of the failure weights of its constraints:
    each starts at 1 and gains 1 every time that constraint wipes out a branch (the
    inference counts them in `state.weights`). Early on this is domain size over degree;
    once a region keeps failing, its variables come first, so the search stops
    rediscovering the same contradiction under unrelated decisions. Ties keep input order.
    """
    domains = state.domains
    wdeg = weighted_degrees(state)  # kept up to date as failures are credited
    best, best_score = None, 0.0
    for var in state.unassigned():
        score = len(domains[var]) / (wdeg[var] or 1)
        if best is None or score < best_score:
            best, best_score = var, score
    return best


def input_values(state: SearchState, var: Hashable) -> list[Any]:
    """Values in the order the domain was given."""
    return state.values(var)


def lcv(state: SearchState, var: Hashable) -> list[Any]:
    """Least constraining value first: the value that removes fewest values elsewhere.

    Each value is probed (assigned, the constraints of `var` forward-check, all undone);
    a value that wipes out a domain goes last.
    """
    scores: dict[Any, float] = {}
    for value in state.values(var):
        removed = state.probe(var, value, _forward_check)
        scores[value] = float("inf") if removed is None else removed
    return sorted(scores, key=scores.__getitem__)  # stable: ties keep input order


def _forward_check(state: SearchState, var: Hashable) -> None:
    """The constraints of `var` prune once (a look-ahead: no failure weights counted)."""
    for constraint in state.csp.constraints_of[var]:
        constraint.forward_check(state, var)


VARIABLE_ORDERS: dict[str, VariableOrder] = {
    "input": input_order,
    "mrv": mrv,
    "mrv-degree": mrv_degree,
    "dom-wdeg": dom_wdeg,
}
VALUE_ORDERS: dict[str, ValueOrder] = {"input": input_values, "lcv": lcv}
