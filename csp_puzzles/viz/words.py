"""Events in words, for the stepper's line of text.

The core's `Event.describe()` names variables as the model does ("(2,3)", "NT"). A puzzle
view can pass a `name` function that says what a variable means ("bridge (2,0)-(2,5)",
"cell (4,2)"); the sentence is otherwise the same.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from ..core.trace import ASSIGN, BACKTRACK, PRUNE, SOLUTION, WIPEOUT, Event, show

Namer = Callable[[Hashable], str]


#: a variable as the core writes it: tuples as "(2,3)", anything else by `str`
plain_name: Namer = show


def describe(event: Event, name: Namer | None = None, value: Callable[[Any], str] = str,
             verb: str | None = None) -> str:
    """One event as a sentence; `name` names variables and `value` values.

    With a `verb` ("be", "carry"), a pruning reads "cause: cell (1,2) cannot be 3" instead
    of "cause removes 3 from cell (1,2)": better when causes are sentences themselves.
    """
    if event.kind == PRUNE and verb is not None:
        return (f"{event.cause or 'propagation'}: {(name or plain_name)(event.var)} "
                f"cannot {verb} {value(event.value)}")
    if event.kind == SOLUTION:
        return "solution found: every variable has a value that satisfies every constraint"
    return event.describe(name, value)


#: what each kind of event means, for the legend under a stepper
LEGEND = {
    ASSIGN: "the search chooses a value (a node of the search tree)",
    PRUNE: "a constraint's propagator removes a value that cannot be part of a solution",
    WIPEOUT: "a domain became empty or a constraint cannot hold: this branch fails",
    BACKTRACK: "the search undoes a choice and everything pruned since",
    SOLUTION: "every variable has a value",
}
