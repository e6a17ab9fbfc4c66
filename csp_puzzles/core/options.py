"""How a search runs, said once and checked once.

`solve`, `count`, `Search` and `solve_with_restarts` take an `Options` (or the same names
as keywords: `solve(csp, inference="fc", var_order="mrv")`), and every value is checked
here, before anything runs: an unknown name is a `ValueError` listing the names known.

The limits too: `timeout` is a number of seconds from 0 to `MAX_TIMEOUT`, `max_nodes` a
whole number >= 0, and a count's `limit` a whole number >= 1 (or None for every solution).
Running out of either is one exception, `LimitReached` (csp_puzzles.core.errors), wherever it
happens: between two nodes, in the middle of a propagation (`SearchState.check_deadline`),
in another engine, or when a whole command outlives its deadline (deadline.py). The search
reports it as the status `limit`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from .heuristics import VALUE_ORDERS, VARIABLE_ORDERS, ValueOrder, VariableOrder
from .inference import INFERENCES, Inference
from .trace import MAX_EVENTS, Trace

if TYPE_CHECKING:
    from .constraints import Constraint
    from .nogoods import NogoodStore

BRANCHINGS = ("assign", "split")
LOOK_BACKS = ("none", "cbj", "learn")


@dataclass(frozen=True)
class Options:
    """Everything a search can be told.

    - `inference`: "none", "fc" or "mac" (or a function of your own, see inference.py);
    - `var_order`, `val_order`: names in `VARIABLE_ORDERS`, `VALUE_ORDERS`, or functions;
    - `branching`: "assign" (one value at a time) or "split" (halve the domain);
    - `look_back`: "none" (chronological), "cbj" (backjumping) or "learn" (nogoods);
    - `timeout` (seconds), `max_nodes`: limits (None: none);
    - `trace`: True to record one (`max_events` at most), or a `Trace` to record into;
    - what earlier runs leave to later ones (restarts.py): `weights` (dom/wdeg's failure
      weights), `phases` (the values variables last held) and `nogoods` (a store of
      nogoods, when learning).
    """

    inference: str | Inference = "mac"
    var_order: str | VariableOrder = "mrv"
    val_order: str | ValueOrder = "input"
    branching: str = "assign"
    look_back: str = "none"
    timeout: float | None = None
    max_nodes: int | None = None
    trace: bool | Trace = False
    max_events: int = MAX_EVENTS
    weights: dict[Constraint, int] | None = None
    phases: dict[Hashable, Any] | None = None
    nogoods: NogoodStore | None = None
    #: the functions the names stand for, found once (`__post_init__`)
    infer: Inference = field(init=False, repr=False, compare=False)
    select: VariableOrder = field(init=False, repr=False, compare=False)
    order: ValueOrder = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        found = object.__setattr__  # a frozen dataclass sets its own derived fields so
        found(self, "infer", pick(self.inference, INFERENCES, "inference"))
        found(self, "select", pick(self.var_order, VARIABLE_ORDERS, "variable order"))
        found(self, "order", pick(self.val_order, VALUE_ORDERS, "value order"))
        _one_of(self.branching, BRANCHINGS, "branching")
        _one_of(self.look_back, LOOK_BACKS, "look_back")
        if self.look_back != "none" and self.branching != "assign":
            raise ValueError("looking back (look_back='cbj' or 'learn') branches by "
                             "assignment only")
        check_timeout(self.timeout)
        check_max_nodes(self.max_nodes)

    @classmethod
    def of(cls, options: Options | None = None, **keywords: Any) -> Options:
        """`options` with `keywords` changed (no options: the defaults); an unknown keyword
        is a TypeError naming it."""
        unknown = set(keywords) - {f.name for f in fields(cls)}
        if unknown:
            raise TypeError(f"unknown search option(s): {', '.join(sorted(unknown))}")
        if options is None:
            return cls(**keywords)
        return replace(options, **keywords) if keywords else options

def pick(name_or_function: Any, table: dict[str, Any], what: str) -> Any:
    """A strategy given as a function, or by its name in `table`."""
    if callable(name_or_function):
        return name_or_function
    try:
        return table[name_or_function]
    except (KeyError, TypeError):
        raise ValueError(f"unknown {what} {name_or_function!r}; expected one of "
                         f"{', '.join(table)}") from None


def _one_of(value: Any, choices: tuple[str, ...], what: str) -> None:
    if value not in choices:
        raise ValueError(f"unknown {what} {value!r}; expected one of {', '.join(choices)}")


#: The longest timeout accepted (a bit over eleven days).
MAX_TIMEOUT = 1_000_000.0


def check_timeout(seconds: float | None) -> None:
    """Refuse a timeout that is not a number of seconds from 0 to `MAX_TIMEOUT`."""
    if seconds is None:
        return
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"timeout must be a number of seconds, not {type(seconds).__name__}")
    if math.isnan(seconds) or not 0 <= seconds <= MAX_TIMEOUT:
        raise ValueError(f"timeout {seconds} is out of range, expected a number of seconds "
                         f"from 0 to {MAX_TIMEOUT:.0f}")


def check_max_nodes(nodes: int | None, what: str = "max_nodes", least: int = 0) -> None:
    """Refuse a node limit that is not a whole number >= 0 (or, named `what`, another whole
    number below `least`: `check_count_limit`). None is no limit."""
    if nodes is None:
        return
    if isinstance(nodes, bool) or not isinstance(nodes, int):
        raise TypeError(f"{what} must be a whole number or None, not {type(nodes).__name__}")
    if nodes < least:
        raise ValueError(f"{what} {nodes} is below {least}, expected a whole number >= "
                         f"{least} (or None for no limit)")


def check_count_limit(limit: int | None) -> None:
    """A count stops after `limit` solutions: at least 1, or None to count them all."""
    check_max_nodes(limit, "limit", 1)
