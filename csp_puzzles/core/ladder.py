"""A ladder of rules: what a person can deduce without guessing, from the easiest rules up.

A puzzle's rules come in families a player learns one after another (Tatham grades his
puzzles this way: the level of a puzzle is the hardest family his solver needs). Each
`Rung` of a ladder holds every rule up to its level, as the propagators of a CSP over the
puzzle's variables, and may add failed-literal probing ("if this cell were 3, a rule would
break, so it is not 3") on the variables with few values left.

Two readers share the ladder, so that a grade and a hint always agree:

- grading: the grade of a puzzle is the first rung whose fixpoint decides every variable
  (`grade`);
- hints (`core.hints`): the next hint is the cheapest deduction of the lowest rung that
  has one.

Because propagators are monotone, applying the lowest rung's deductions first and the next
rung's only when it is stuck reaches the same fixpoint as `fixpoint`, so the highest rung a
hint-only solve needs is the grade.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .csp import CSP
from .inference import node_consistency, propagate, propagate_from
from .state import Contradiction, SearchState

#: what `grade` says when the rules prove there is no solution
UNSATISFIABLE = "unsatisfiable"


@dataclass(frozen=True)
class Rung:
    """One level of a ladder: its name and the rules it may use.

    `csp` holds every rule of this level and of the levels below (its variables are the
    puzzle's). With `probe`, a rung also tries values, propagating only the rules of
    `probe`, and removes a value whose try ends in a contradiction: as a person supposes
    first in a cell with two candidates, it tries the values of the variables with the
    fewest values left (two, when there are such variables), and only when none of those
    fails, the variables with more, up to `probe_values` values.
    """

    name: str
    csp: CSP
    probe: CSP | None = None
    probe_values: int = 2


def restricted(csp: CSP, domains: Mapping[Hashable, Collection[Any]] | None) -> SearchState:
    """A fresh state of `csp` whose domains are cut down to `domains` (None: as given)."""
    state = SearchState(csp)
    if domains is not None:
        for var, values in domains.items():
            if var in state.domains:
                state.keep_only(var, values)
    return state


def fixpoint(rung: Rung,
             domains: Mapping[Hashable, Collection[Any]] | None = None) -> SearchState | None:
    """The state after the rung's rules (and probes) can deduce nothing more, starting from
    `domains` (None: the initial domains). None when they reach a contradiction."""
    try:
        state = restricted(rung.csp, domains)
        node_consistency(state)
        propagate(state, rung.csp.constraints)
        while rung.probe is not None and state.unfixed and _refute_one(rung, state):
            pass
    except Contradiction:
        return None
    return state


def refutable(rung: Rung, state: SearchState) -> tuple[Hashable, Any] | None:
    """The first (variable, value) the rung's probing proves impossible in `state`, or
    None."""
    return next(refutations(rung, state), None)


def refutations(rung: Rung, state: SearchState) -> Iterator[tuple[Hashable, Any]]:
    """Each (variable, value) the rung's probing proves impossible in `state`, the fewest
    values first: the variables with 2 values left, then 3, ... up to `rung.probe_values`;
    among equals, variables in order, each value in its domain's order.

    The probe runs on a copy holding the same domains, propagating only `rung.probe`.
    """
    if rung.probe is None:
        return
    probing = restricted(rung.probe, state.domains)
    for size in range(2, rung.probe_values + 1):
        for var in rung.csp.variables:
            if len(state.domains[var]) == size:
                for value in state.values(var):
                    if probing.probe(var, value, propagate_from) is None:
                        yield var, value


def _refute_one(rung: Rung, state: SearchState) -> bool:
    """Remove one value probing refutes, then propagate every rule; False if none is."""
    found = refutable(rung, state)
    if found is None:
        return False
    var, value = found
    state.remove(var, value, f"forcing: {var} = {value} leads to a contradiction")
    propagate_from(state, var)
    return True


def solved_by(rung: Rung, domains: Mapping[Hashable, Collection[Any]] | None = None) -> bool | None:
    """True if the rung alone decides every variable (to values that satisfy every rule),
    False if it gets stuck, None if it proves there is no solution."""
    state = fixpoint(rung, domains)
    if state is None:
        return None
    if state.unfixed:
        return False
    values = {var: state.value(var) for var in rung.csp.variables}
    return None if rung.csp.violated(values) else True


def grade(ladder: Sequence[Rung],
          domains: Mapping[Hashable, Collection[Any]] | None = None) -> str | None:
    """The name of the first rung that solves without guessing, `UNSATISFIABLE` when a rung
    proves there is no solution, None when even the top rung gets stuck."""
    for rung in ladder:
        outcome = solved_by(rung, domains)
        if outcome is None:
            return UNSATISFIABLE
        if outcome:
            return rung.name
    return None
