"""A ladder of rules: what a person can deduce without guessing, from the easiest rules up.

A puzzle's rules come in families a player learns one after another (Tatham grades his
puzzles this way: the level of a puzzle is the hardest family his solver needs). Each
`Rung` of a ladder holds every rule up to its level, as the propagators of a CSP over the
puzzle's variables, and may add failed-literal probing ("if this cell were 3, a rule would
break, so it is not 3") on the variables with few values left.

Two readers share the ladder, so that a grade and a hint always agree:

- grading: the grade of a puzzle is the first rung whose fixpoint decides every variable
  (`grade`);
- hints (`core.session`): the next hint is a deduction of the lowest rung that has one.

Because propagators are monotone, applying the lowest rung's deductions first and the next
rung's only when it is stuck reaches the same fixpoint as `fixpoint`, so the highest rung a
hint-only solve needs is the grade.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
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
    puzzle's). With `probe`, a rung also tries each value of the variables that have at
    most `probe_values` values left, propagating only the rules of `probe`, and removes a
    value whose try ends in a contradiction.
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
    """A (variable, value) the rung's probing proves impossible in `state`, or None.

    The probe runs on a copy holding the same domains, propagating only `rung.probe`.
    """
    if rung.probe is None:
        return None
    probing = restricted(rung.probe, state.domains)
    for var in rung.csp.variables:
        if not 1 < len(state.domains[var]) <= rung.probe_values:
            continue
        for value in state.values(var):
            if probing.probe(var, value, propagate_from) is None:
                return var, value
    return None


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
