"""A trace packed for the browser: numbered variables, values and causes, events as small lists.

The explorer's front end receives a run once and replays it by itself. Variables and values
are numbered in the order they first appear; an event is `[kind, var, value, cause, depth]`
with -1 for "none". Names and words are computed here, with the view's own wording, so the
sentences in the browser read as `Stepper.sentence()` does.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from ..core.trace import BACKJUMP, KINDS, LEARN, Event, Trace, look_back_words, show
from .words import Namer, plain_name

#: constraint scopes larger than this are not outlined as "the cause" (they would cover all)
SCOPE_OUTLINE_LIMIT = 12


class _Numbering:
    """Numbers given to things in the order they are first seen."""

    def __init__(self) -> None:
        self.index: dict[Any, int] = {}
        self.items: list[Any] = []

    def __call__(self, item: Any) -> int:
        if item is None:
            return -1
        number = self.index.get((type(item), item))
        if number is None:
            number = self.index[(type(item), item)] = len(self.items)
            self.items.append(item)
        return number


def pack_run(trace: Trace, label: str = "", name: Namer | None = None,
             value: Callable[[Any], str] = str, verb: str | None = None,
             sentences: Callable[[Event], str] | None = None,
             scopes: Mapping[str, Sequence[Hashable]] | None = None,
             nodes: int | None = None) -> dict[str, Any]:
    """The run as plain data; `sentences` words each event when the view's templates do not."""
    name = name or plain_name
    variables = list(trace.variables)
    var_number = {var: i for i, var in enumerate(variables)}
    values, causes = _Numbering(), _Numbering()
    init = [[values(x) for x in trace.initial[var]] for var in variables]
    kind_number = {kind: i for i, kind in enumerate(KINDS)}
    looking_back: dict[str, list[int]] = {}  # a conflict's or nogood's words -> its variables

    def cause_of(e: Event) -> int:
        if e.kind not in (BACKJUMP, LEARN):
            return causes(e.cause)
        words = look_back_words(e, name, value)
        looking_back[words] = [var_number[item[0]] for item in e.value or ()
                               if item[0] in var_number]
        return causes(words)

    events = [[kind_number[e.kind], var_number.get(e.var, -1) if e.var is not None else -1,
               values(e.value) if e.var is not None and e.kind != BACKJUMP else -1,
               cause_of(e), e.depth]
              for e in trace]
    run: dict[str, Any] = {
        "label": label,
        "keys": [show(var) for var in variables],
        "names": [name(var) for var in variables],
        "values": [show(x) for x in values.items],
        "words": [value(x) for x in values.items],
        "verb": verb,
        "init": init,
        "events": events,
        "causes": list(causes.items),
        "truncated": trace.truncated,
        "nodes": nodes if nodes is not None else trace.count("assign"),
        "sentences": [sentences(e) for e in trace] if sentences else None,
        "scopes": {},
    }
    for cause in causes.items:
        scope = (scopes or {}).get(cause, ())
        if 1 < len(scope) <= SCOPE_OUTLINE_LIMIT:
            run["scopes"][cause] = [var_number[v] for v in scope if v in var_number]
    run["scopes"].update(looking_back)  # outline every decision of a conflict or nogood
    return run
