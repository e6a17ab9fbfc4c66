"""The engine's choice, said in words: which variable an order picks, which value first, why.

"MRV would choose SA: 1 value left; LCV would try blue first: it rules out 0 values of its
neighbours". A session (session.py) asks before the student decides; nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, NamedTuple

from .heuristics import (
    ValueOrder,
    VariableOrder,
    _degree,
    _forward_check,
    activity_order,
    dom_wdeg,
    input_order,
    input_values,
    lcv,
    mrv,
    mrv_degree,
    saved_phase,
    weighted_degrees,
)
from .state import SearchState
from .trace import plural

if TYPE_CHECKING:
    from .hints import Words


class Suggestion(NamedTuple):
    """The variable an order would choose, the value it would try first, and why."""

    var: Hashable
    value: Any
    sentence: str


def suggestion(state: SearchState, select: VariableOrder, order: ValueOrder,
               words: Words) -> Suggestion:
    """What `select` and `order` would do in `state`, without doing it."""
    if getattr(select, "__name__", "") == "probing_order":
        raise ValueError("the probing order removes values while it chooses: ask hint() "
                         "for the deductions probing makes")
    var = select(state)
    values = order(state, var)
    value = values[0]
    said = (f"{_variable_words(state, select, var, words)}; "
            f"{_value_words(state, order, var, value, words)}")
    return Suggestion(var, value, said)


def _variable_words(state: SearchState, select: VariableOrder, var: Hashable,
                    words: Words) -> str:
    """"MRV would choose SA: 1 value left"."""
    name = words.name(var)
    left = plural(len(state.domains[var]), "value") + " left"
    reasons: dict[Callable[..., Any], tuple[str, Callable[[], str]]] = {
        input_order: ("input order", lambda: "the first variable still to decide"),
        mrv: ("MRV", lambda: left),
        mrv_degree: ("MRV with degree", lambda: f"{left}, in " + plural(
            _degree(state, var, set(state.unassigned())), "constraint") +
            " with other variables to decide"),
        dom_wdeg: ("dom/wdeg", lambda: f"{left}, weighted degree "
                   f"{weighted_degrees(state)[var]}"),
        activity_order: ("activity", lambda: f"{left}, the most active in recent conflicts"),
    }
    label, reason = reasons.get(select, (getattr(select, "__name__", "your order"),
                                         lambda: left))
    return f"{label} would choose {name}: {reason()}"


def _value_words(state: SearchState, order: ValueOrder, var: Hashable, value: Any,
                 words: Words) -> str:
    """"LCV would try blue first: it rules out 0 values of its neighbours"."""
    said = words.value(value)
    if order is lcv:
        removed = state.probe(var, value, _forward_check)
        if removed is None:
            return f"LCV would try {said} first, though every value empties a neighbour's domain"
        return f"LCV would try {said} first: it rules out {plural(removed, 'value')} of its " \
               "neighbours"
    if order is input_values:
        return f"its first value is {said}"
    if order is saved_phase:
        return f"phase saving would try {said} first (the value it held last)"
    return f"{getattr(order, '__name__', 'your value order')} would try {said} first"
