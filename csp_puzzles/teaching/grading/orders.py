"""Exercise 1 (notebook 01): the dom/deg variable order.

`check_dom_over_deg` puts the student's order on search states (Australia, then random
problems with some variables assigned and some values gone) and compares its choice with
every other unassigned variable's ratio, in exact fractions. `check_dom_over_deg_solves`
passes it to `solve` and checks what comes back with the problem's own constraints.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

from ...core import CSP, SearchState, count, solve
from ...examples import map_colouring, queens
from . import CSP_DATA, STATE, draw, fail, name, own_work
from .instances import random_binary_csp

Order = Callable[[SearchState], Hashable]
#: the watch's words and patterns: dom/deg reads the state and the CSP, nothing else
OWN = ("dom/deg", "the search state's methods and the CSP's data", *CSP_DATA, *STATE)


def _degree(state: SearchState, var: Hashable) -> int:
    """The constraints on `var` that involve another unassigned variable."""
    assigned = state.assignment
    return sum(1 for c in state.csp.constraints_of[var]
               if any(other != var and other not in assigned for other in c.scope))


def _ratio(state: SearchState, var: Hashable) -> Fraction:
    return Fraction(len(state.domains[var]), max(_degree(state, var), 1))


def _said(state: SearchState, var: Hashable) -> str:
    degree = _degree(state, var)
    return (f"{name(var)} has {len(state.domains[var])} value(s) left and {degree} "
            f"constraint(s) with other unassigned variables (ratio {_ratio(state, var)})")


def _static_ratio(state: SearchState, var: Hashable) -> Fraction:
    """The ratio with the constraint graph's degree (every constraint on var): the
    mistake of a static degree."""
    return Fraction(len(state.domains[var]), max(len(state.csp.constraints_of[var]), 1))


def _why_not(state: SearchState, chosen: Hashable, best: Hashable,
             unassigned: list[Hashable]) -> str:
    """What the rule says against `chosen`, the student's choice, and for `best`."""
    tie = _ratio(state, chosen) == _ratio(state, best)
    static = min(unassigned, key=lambda var: _static_ratio(state, var))
    everything = len(state.csp.constraints_of[chosen])
    if chosen == static and everything != _degree(state, chosen):
        return (f"it is the choice a static degree makes, as if {name(chosen)} had all "
                f"its {everything} constraints (ratio {_static_ratio(state, chosen)}); but "
                f"the degree counts only the constraints with another unassigned "
                f"variable: {_said(state, chosen)}, and {_said(state, best)}"
                + (", the same, and it comes first" if tie else ", which is smaller"))
    if tie:
        return (f"{_said(state, chosen)}, and {_said(state, best)}: a tie, and ties go "
                f"to the variable that comes first in state.csp.variables")
    return f"{_said(state, chosen)}, but {_said(state, best)}: the smallest ratio wins"


def verify_choice(order: Order, state: SearchState, where: str) -> None:
    """Ask `order` for a variable and compare it with the ratios of all the others."""
    __tracebackhide__ = True
    chosen = order(state)
    unassigned = [var for var in state.csp.variables if var not in state.assignment]
    if chosen not in unassigned:
        what = "is assigned already" if chosen in state.assignment else "is not a variable"
        fail(f"on {where}, dom_over_deg returned {chosen!r}, which {what}: it must "
             f"return an unassigned variable")
    best = min(unassigned, key=lambda var: _ratio(state, var))  # min keeps the first of ties
    if chosen != best:
        fail(f"on {where}, dom_over_deg chose {name(chosen)}: "
             f"{_why_not(state, chosen, best, unassigned)}")


def _random_state(csp: CSP, rng: Any) -> SearchState:
    """A state of `csp` with a few variables assigned and a few values removed."""
    state = SearchState(csp)
    for var in csp.variables:
        roll = rng.random()
        if roll < 0.3:
            state.assign(var, rng.choice(state.values(var)))
        elif roll < 0.6 and state.size(var) > 1:
            state.remove(var, rng.choice(state.values(var)))
    if len(state.assignment) == len(csp.variables):
        state.retract(csp.variables[-1])
    return state


@own_work(*OWN)
def check_dom_over_deg(order: Order, seed: Any = None, trials: int = 60) -> None:
    """Australia before and after SA = red, then `trials` random states."""
    __tracebackhide__ = True
    state = SearchState(map_colouring())
    verify_choice(order, state, "Australia, nothing assigned")
    state.assign("SA", "red")
    verify_choice(order, state, "Australia with SA = red")
    rng = draw("dom/deg", seed)
    for number in range(1, trials + 1):
        csp = random_binary_csp(rng, variables=rng.randint(3, 7), density=0.5)
        state = _random_state(csp, rng)
        assigned = ", ".join(f"{name(v)} = {x}" for v, x in state.assignment.items())
        verify_choice(order, state, f"random problem {number} ({assigned or 'none assigned'})")


def _only_unassigned(order: Order, where: str) -> Order:
    """`order`, stopped with a verdict the first time it picks an assigned variable (the
    search would pick it again and again: it never ends)."""
    def checked(state: SearchState) -> Hashable:
        __tracebackhide__ = True
        chosen = order(state)
        if chosen in state.assignment or chosen not in state.csp.domains:
            what = "is assigned already" if chosen in state.assignment else "is not a variable"
            fail(f"during forward checking on {where}, dom_over_deg returned {chosen!r}, "
                 f"which {what}: it must return an unassigned variable")
        return chosen

    return checked


def verify_solve(order: Order, csp: CSP, where: str) -> None:
    """Forward checking with `order` must answer as the problem's own solution count says."""
    __tracebackhide__ = True
    result = solve(csp, inference="fc", var_order=_only_unassigned(order, where))
    exists = count(csp, limit=1).count > 0
    if exists and not result.solved:
        fail(f"forward checking with dom_over_deg answered {result.status!r} on "
             f"{where}, which has a solution")
    if not exists and result.status != "unsatisfiable":
        fail(f"forward checking with dom_over_deg answered {result.status!r} on "
             f"{where}, which has no solution")
    if result.solved and not csp.is_solution(result.solution or {}):
        broken = ", ".join(c.name for c in csp.violated(result.solution or {}))
        fail(f"on {where}, the solution found with dom_over_deg breaks {broken}")


@own_work(*OWN)
def check_dom_over_deg_solves(order: Order, seed: Any = None, trials: int = 30) -> None:
    """8-queens (fewer nodes than the input order), then `trials` random problems."""
    __tracebackhide__ = True
    verify_solve(order, queens(8), "8-queens")
    mine = solve(queens(8), inference="fc",
                 var_order=_only_unassigned(order, "8-queens")).stats.nodes
    baseline = solve(queens(8), inference="fc", var_order="input").stats.nodes
    if mine >= baseline:
        fail(f"forward checking with dom_over_deg needs {mine} nodes on 8-queens, "
             f"the input order {baseline}: dom/deg should need fewer")
    rng = draw("dom/deg solves", seed)
    for number in range(1, trials + 1):
        csp = random_binary_csp(rng, variables=rng.randint(4, 8), values=6, density=0.4)
        verify_solve(order, csp, f"random problem {number}")
