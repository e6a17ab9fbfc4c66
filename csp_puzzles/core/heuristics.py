"""Variable and value orders: which variable to branch on, and which value to try first.

Every variable order is a function `(state) -> variable` and every value order a function
`(state, var) -> list of values`. Write your own with the same signature and pass it to
`solve`: `solve(csp, var_order=my_order)`. Ties are always broken by input order, so runs
are repeatable.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from itertools import repeat
from operator import truediv
from typing import Any

from .activity import most_active
from .constraints import Constraint
from .lookahead import probing_order
from .state import Contradiction, SearchState

VariableOrder = Callable[[SearchState], Hashable]
ValueOrder = Callable[[SearchState, Hashable], list[Any]]


def input_order(state: SearchState) -> Hashable:
    """The first variable still to decide, in the order they were added."""
    return state.unassigned()[0]


def mrv(state: SearchState) -> Hashable:
    """Minimum remaining values: the variable still to decide with the smallest domain.

    A domain of one value cannot be beaten (an empty one has failed already), so the scan
    stops at the first such variable: the same choice, found sooner. Under MAC a variable
    down to one value is decided already, and two values cannot be beaten.
    """
    domains = state.domains
    best, best_size = None, 0
    if state.fixed_is_decided:  # under MAC: the variables with more than one value left
        for var, domain in domains.items():  # in input order: see `state.unassigned`
            size = len(domain)
            if size > 1 and (best is None or size < best_size):
                if size == 2:
                    return var
                best, best_size = var, size
        return best
    assigned = state.assignment
    for var in state.csp.variables:  # what `state.unassigned()` lists, without the list
        if var in assigned:
            continue
        size = len(domains[var])
        if best is None or size < best_size:
            if size == 1:
                return var
            best, best_size = var, size
    return best


def activity_order(state: SearchState) -> Hashable:
    """The open variable with the highest conflict activity (activity.py); ties (before any
    conflict: all of them) go to the smallest domain, then to input order.

    Only a learning search (`look_back="learn"`) analyses conflicts; any other search has
    no activities, and then this is the smallest domain first (MRV).
    """
    var = most_active(state)
    return mrv(state) if var is None else var


#: a learning search bumps activities only for a variable order that reads them
activity_order.reads_activity = True  # type: ignore[attr-defined]


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


def credit_failure(state: SearchState, constraint: Constraint,
                   failure: Contradiction | None = None) -> None:
    """Count a failure of `constraint` in the search's weights, for dom/wdeg.

    The search calls this for every branch that fails. Weights start at 1 and
    `state.weights` is the dict the search keeps (see search.py and restarts.py). Weights
    are only a heuristic; they never change what is true.

    A constraint over every variable (a global "all connected", say) would weigh on every
    variable alike, which tells the variable order nothing. So its failure is credited to
    the local constraints of the variables it blames instead: the variables listed in the
    failure's `blame` attribute if it has one, else the variable whose domain it emptied.
    """
    everything = len(state.csp.variables)
    if len(constraint.scope) < everything:
        _add_weight(state, constraint)
        return
    blamed = failure.blame if failure is not None else ()
    if not blamed and failure is not None and failure.var is not None:
        blamed = (failure.var,)
    constraints_of = state.csp.constraints_of
    local = {c for var in blamed for c in constraints_of[var] if len(c.scope) < everything}
    for c in local:
        _add_weight(state, c)


def _add_weight(state: SearchState, constraint: Constraint) -> None:
    """One more failure for `constraint`; its variables' weighted degrees follow."""
    weights = state.weights
    weights[constraint] = weights.get(constraint, 1) + 1
    if state.wdeg is not None:
        wdeg = state.wdeg
        for var in dict.fromkeys(constraint.scope):  # each variable once, as constraints_of
            wdeg[var] += 1


def weighted_degrees(state: SearchState) -> dict[Hashable, int]:
    """Each variable's weighted degree: the sum of the weights of its constraints.

    dom/wdeg needs it for every variable at every node; summing afresh each time costs
    more than the rest of the variable order. So it is summed once per search (from the
    weights, which earlier restarts may have raised already) and then `credit_failure`
    adds 1 to the variables of each constraint it credits.
    """
    if state.wdeg is None:
        weights = state.weights
        state.wdeg = {var: sum(weights.get(c, 1) for c in constraints)
                      for var, constraints in state.csp.constraints_of.items()}
    return state.wdeg


def dom_wdeg(state: SearchState) -> Hashable:
    """Smallest domain / weighted degree (Boussemart et al.; see REFERENCES.md), called dom/wdeg.

    The weighted degree of a variable is the sum of the failure weights of its constraints:
    each starts at 1 and gains 1 every time that constraint wipes out a branch (the
    inference counts them in `state.weights`). Early on this is domain size over degree;
    once a region keeps failing, its variables come first, so the search stops
    rediscovering the same contradiction under unrelated decisions. Ties keep input order.
    """
    wdeg = weighted_degrees(state)  # kept up to date as failures are credited
    open_vars = state.unassigned()
    if not open_vars:
        return None
    # len(domain) / (wdeg or 1) for each, computed without a Python loop (every node asks)
    sizes = map(len, map(state.domains.__getitem__, open_vars))
    degrees = map(max, map(wdeg.__getitem__, open_vars), repeat(1))
    scores = list(map(truediv, sizes, degrees))
    return open_vars[scores.index(min(scores))]  # the first of the best: ties keep input order


def input_values(state: SearchState, var: Hashable) -> list[Any]:
    """Values in the order the domain was given."""
    return state.values(var)


def saved_phase(state: SearchState, var: Hashable) -> list[Any]:
    """Phase saving: the value `var` held last, before a backtrack or a restart took it
    back, goes first; the others follow in input order.

    A backtrack undoes a whole subtree, but most of the values that subtree had settled
    were fine: trying them again first rebuilds that part of the assignment at once. With
    restarts (restarts.py) this is what keeps a restart from throwing away the progress of
    the run before it. SAT solvers do the same (Pipatsrisawat and Darwiche; see REFERENCES.md).
    """
    values = state.values(var)
    saved = state.phases.get(var) if state.phases else None
    if saved is not None and saved != values[0] and saved in state.domains[var]:
        values.remove(saved)
        values.insert(0, saved)
    return values


#: it reads `state.phases`: the search keeps them for it (see `Search.keeps_phases`)
saved_phase.reads_phases = True  # type: ignore[attr-defined]


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
    "activity": activity_order,
    "probe": probing_order,
}
VALUE_ORDERS: dict[str, ValueOrder] = {"input": input_values, "lcv": lcv, "phase": saved_phase}
