"""The playground: a search the student drives, in the page (a `Session` behind it).

    Playground(hashi.parse(text))       # a puzzle: play it, with hints that explain themselves
    Playground(Session(csp, "fc"))      # any CSP, or a session already under way

Click a variable in the picture (a cell, a bridge slot, a region) to see its values, then a
value to assign it; the buttons ask for a hint (what it read and what it removes are marked
in the picture), undo, propagate, run arc consistency, show the engine's choice, let the
engine finish, and list the mistakes. On a small problem, the constraint graph shows AC-3's
arcs: click one to revise it, in one go or in a fine step (the arc highlighted, turned red or
green, the values removed, the arc green), as AISpace2 does. The search tree grows as the
student works: the session's trace is replayed by the explorer's own tree and "why?".

The page sends actions (`{"action": "assign", "var": ..., "value": ...}`); `act` does what
they ask and says what happened in `answer`, in the words the page shows. Without a kernel
(an exported page) the page replays what was done and says that acting needs a running
notebook.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from typing import Any

import anywidget
import traitlets

from ..core.session import Session as CoreSession
from ..puzzle import picture as pic
from ..puzzle.session import Session
from .frontend import module
from .packing import pack_run
from .stepper import for_the_page
from .words import PHRASES, fill

#: the constraint graph is drawn for problems up to this size (beyond, it is a thicket)
GRAPH_VARIABLES, GRAPH_ARCS = 40, 160
#: revisions one "arc consistency" click makes at most (the queue of a big puzzle is long)
AC3_REVISIONS = 2000
#: the radius of a variable's node in the constraint graph
NODE = 1.0


class Playground(anywidget.AnyWidget):
    """A `Session` in the page: `Playground(session)`, `Playground(puzzle)` or
    `Playground(csp)`; `view` draws it (default: the puzzle's picture, or the constraint
    graph of a CSP)."""

    _esm = module()
    data = traitlets.Dict().tag(sync=True)
    state = traitlets.Dict().tag(sync=True)

    def __init__(self, subject: Any, view: Any = None, title: str = ""):
        self.session = subject if isinstance(subject, CoreSession) else Session(subject)
        self.view = view or default_view(self.session)
        self.title = title
        csp = self.session.csp
        self.variables = list(csp.variables)
        self.by_key = {pic.key(var): var for var in self.variables}
        self.value_by_key = {var: {pic.key(x): x for x in csp.domains[var]}
                             for var in self.variables}
        self.answer = ""
        self.done = [str(words) for words in self.session.history]  # what undo takes back
        #: the trace's length before each action undo can take back (the page shows the
        #: state undo brings back as soon as it is clicked: the trace up to there)
        self.starts: list[int] = []
        self.hinted: Any = None  # the hint shown and not applied yet
        self.inspected: dict[str, Any] | None = None
        self.marks: list[list[Any]] = []
        self.graph = graph_picture(self.session, self.view) if small(csp) else None
        super().__init__(data=self._data(), state=self._state())
        self.on_msg(self._message)

    # -- acting ------------------------------------------------------------------------------
    def act(self, action: str, **fields: Any) -> str:
        """Do what the page asks (`action` with its fields, variables and values named by
        their keys); returns the answer, as the page shows it. A rule of the session broken
        (a value not in the domain, acting after a wipe-out) is said, and changes nothing."""
        handler: Callable[..., str] | None = getattr(self, f"_{action.replace(' ', '_')}", None)
        if handler is None or action.startswith("_"):
            raise ValueError(f"unknown action {action!r}")
        self.marks, self.inspected = [], None
        history, start = len(self.session.history), len(self.session.trace)
        try:
            said = handler(**fields)
        except ValueError as error:
            said = fill(PHRASES["refused"], name=str(error))
        if len(self.session.history) > history:  # an action undo can take back: its words,
            self.done.append(said.split(":")[0])  # and where the trace stood before it
            self.starts.append(start)
        elif len(self.session.history) < history and self.starts:
            self.starts.pop()
        self.answer = said.rstrip(".") + "." + self._status_words()
        self._refresh()
        return self.answer

    def _message(self, _widget: Any, content: Mapping[str, Any], _buffers: Any) -> None:
        fields = {k: v for k, v in content.items() if k != "action"}
        self.act(str(content.get("action")), **fields)

    def _assign(self, var: str, value: str) -> str:
        variable = self._variable(var)
        removed = self.session.assign(variable, self._value(variable, value))
        return fill(PHRASES["did"], name=self._last_words(), n=count(removed))

    def _split(self, var: str) -> str:
        removed = self.session.split(self._variable(var))
        return fill(PHRASES["did"], name=self._last_words(), n=count(removed))

    def _hint(self) -> str:
        hint = self.session.hint()
        self.hinted = hint
        if hint is None:
            return str(PHRASES["no_hint"])
        read = [self._index(var) for var in hint.because]
        self.marks = [[v, None, "read"] for v in read]
        self.marks += [[self._index(var), pic.key(x), "removed"]
                       for var, values in hint.removals.items() for x in values]
        return fill(PHRASES["hint"], name=hint.sentence, other=hint.rule)

    def _apply(self) -> str:
        if self.hinted is None:
            raise ValueError("ask for a hint first")
        hint, self.hinted = self.hinted, None
        removed = self.session.apply(hint)
        return fill(PHRASES["applied"], name=hint.rule, n=count(removed))

    def _undo(self) -> str:
        back = self.session.undo()
        words = self.done.pop() if self.done else ""
        self.hinted = None
        return fill(PHRASES["undone"], name=words, n=count(back))

    def _propagate(self) -> str:
        return fill(PHRASES["propagated"], n=count(self.session.propagate()))

    def _arc_consistency(self) -> str:
        """AC-3 by hand, all at once: revise the first arc of the queue until it is empty."""
        revised = removed = 0
        while self.session.arcs() and self.session.status == "open" \
                and revised < AC3_REVISIONS:
            constraint, var = self.session.arcs()[0]
            removed += len(self.session.revise(constraint, var))
            revised += 1
        more = fill(PHRASES["ac3_more"], n=len(self.session.arcs())) if self.session.arcs() \
            and self.session.status == "open" else ""
        return fill(PHRASES["ac3"], k=revised, n=removed) + more

    def _revise(self, constraint: str, var: str) -> str:
        variable = self._variable(var)
        removed = self.session.revise(constraint, variable)
        said = ", ".join(self.view.value(x) for x in removed)
        slots = {"name": self._name(variable), "other": constraint}
        if not removed:
            return fill(PHRASES["revised_nothing"], **slots)
        return fill(PHRASES["revised"], values=said, **slots)

    def _inspect(self, constraint: str, var: str) -> str:
        """The fine step's second stage: which values of `var` the arc would remove."""
        from ..core.session import supported

        variable = self._variable(var)
        named = [c for c in self.session.csp.constraints if c.name == constraint]
        if len(named) != 1:
            raise ValueError(f"no constraint named {constraint!r}")
        kept = supported(self.session.state, named[0], variable)
        doomed = [x for x in self.session.domains[variable] if x not in kept]
        self.inspected = {"constraint": constraint, "var": var,
                          "doomed": [pic.key(x) for x in doomed]}
        self.marks = [[self._index(variable), pic.key(x), "removed"] for x in doomed]
        slots = {"name": self._name(variable), "other": constraint}
        if not doomed:
            return fill(PHRASES["consistent"], **slots)
        return fill(PHRASES["inconsistent"], values=", ".join(map(self.view.value, doomed)),
                    **slots)

    def _suggest(self) -> str:
        suggestion = self.session.suggest()
        self.marks = [[self._index(suggestion.var), pic.key(suggestion.value), "read"]]
        return suggestion.sentence

    def _finish(self) -> str:
        result = self.session.finish()
        return fill(PHRASES["finished_" + result.status], n=result.stats.nodes)

    def _mistakes(self) -> str:
        wrong = self.session.mistakes()
        if not wrong:
            return str(PHRASES["no_mistake"])
        self.marks = [[self._index(d.var), None, "wipeout"] for d in wrong]
        said = ", ".join(f"{self._name(d.var)} = {self.view.value(d.value)}"
                         if d.kind == "assign" else f"{self._name(d.var)} split" for d in wrong)
        return fill(PHRASES["mistakes"], n=len(wrong), values=said)

    # -- what the page receives ----------------------------------------------------------------
    def _refresh(self) -> None:
        with self.hold_sync():  # one message to the page, not one per trait
            self.data = self._data()
            self.state = self._state()

    def _data(self) -> dict[str, Any]:
        view = self.view
        run = pack_run(self.session.trace, name=getattr(view, "name", None),
                       value=getattr(view, "value", str), verb=getattr(view, "verb", None),
                       scopes=getattr(view, "scopes", None))
        return {"widget": "playground", "picture": view.picture, "graph": self.graph,
                "run": for_the_page(run), "title": self.title, "phrases": PHRASES,
                "puzzle": getattr(self.session, "puzzle", None) is not None}

    def _state(self) -> dict[str, Any]:
        todo = [[c.name, pic.key(var)] for c, var in self.session.arcs()] if self.graph else []
        return {"status": self.session.status, "answer": self.answer, "marks": self.marks,
                "todo": todo, "inspected": self.inspected, "hint": self.hinted is not None,
                "history": list(self.session.history), "events": len(self.session.trace),
                "starts": self.starts[-len(self.session.history):] if self.session.history else []}

    def _status_words(self) -> str:
        status = self.session.status
        if status == "open":
            return ""
        return str(PHRASES["now_solved" if status == "solved" else "now_wipeout"])

    # -- names -------------------------------------------------------------------------------
    def _variable(self, key: str) -> Hashable:
        if key not in self.by_key:
            raise ValueError(f"unknown variable {key!r}")
        return self.by_key[key]

    def _value(self, var: Hashable, key: str) -> Any:
        values = self.value_by_key[var]
        if key not in values:
            raise ValueError(f"{key!r} is not a value of {self._name(var)}")
        return values[key]

    def _index(self, var: Hashable) -> int:
        return self.variables.index(var)

    def _name(self, var: Hashable) -> str:
        name = getattr(self.view, "name", None)
        return name(var) if name else pic.key(var)

    def _last_words(self) -> str:
        """The first event the last action recorded, in the explorer's words."""
        trace = self.session.trace
        for event in reversed(trace):
            if event.kind in ("assign", "split"):
                return str(self.view.sentence(event))
        return ""


def count(removals: Mapping[Hashable, tuple[Any, ...]]) -> int:
    """How many values a session action removed (or put back)."""
    return sum(len(values) for values in removals.values())


def default_view(session: CoreSession) -> Any:
    """The puzzle's own picture, or the constraint graph of a CSP."""
    from .views import graph_view, puzzle_view

    puzzle = getattr(session, "puzzle", None)
    return puzzle_view(puzzle) if puzzle is not None else graph_view(session.csp)


def small(csp: Any) -> bool:
    arcs = sum(len(set(c.scope)) for c in csp.constraints)
    return len(csp.variables) <= GRAPH_VARIABLES and arcs <= GRAPH_ARCS


# -- the constraint graph of AC-3 ----------------------------------------------------------
def graph_picture(session: CoreSession, view: Any) -> pic.Picture:
    """The problem as AISpace2 draws it: a node per variable listing its values, a box per
    constraint, and an arc from the box to each variable of its scope (one arc of AC-3 each).
    Variables sit where the view's picture puts them, spread out to make room."""
    csp = session.csp
    centres = spread({entry["var"]: centre(entry) for entry in view.picture["variables"]},
                     [pic.key(v) for v in csp.variables])
    name = getattr(view, "name", None) or pic.key
    nodes = [pic.disc_variable(var, *centres[pic.key(var)], NODE, pic.LIST, name=name(var),
                               label=name(var), per_line=2) for var in csp.variables]
    boxes_over: list[pic.Shape] = []  # over the arcs: a box and the constraint's name
    arcs: list[dict[str, Any]] = []
    boxes: list[list[Any]] = []
    taken: dict[tuple[float, float], int] = {}  # boxes at the same place go one below another
    for c in csp.constraints:
        scope = list(dict.fromkeys(c.scope))
        x = sum(centres[pic.key(v)][0] for v in scope) / len(scope)
        y = sum(centres[pic.key(v)][1] for v in scope) / len(scope)
        here = (round(x, 3), round(y, 3))
        y += 0.5 * taken.get(here, 0)
        taken[here] = taken.get(here, 0) + 1
        boxes.append([c.name, x, y])
        for v in scope:  # from the box's edge to the node's
            (x2, y2), length = centres[pic.key(v)], math.dist((x, y), centres[pic.key(v)]) or 1
            ux, uy = (x2 - x) / length, (y2 - y) / length
            arcs.append({"constraint": c.name, "var": pic.key(v), "x1": x + 0.3 * ux,
                         "y1": y + 0.3 * uy, "x2": x2 - (NODE + 0.05) * ux,
                         "y2": y2 - (NODE + 0.05) * uy})
        width = 0.15 * len(c.name) + 0.2
        boxes_over.append(pic.rect(x - width / 2, y - 0.2, width, 0.4, fill="#fff",
                                   stroke="#333", width=0.03))
        boxes_over.append(pic.label(x, y, c.name, 0.26))
    xs = [p[0] for p in centres.values()]
    ys = [p[1] for p in centres.values()]
    bounds = (min(xs) - 1.6, min(ys) - 1.6, max(xs) + 1.6, max(ys) + 1.4)
    picture = pic.picture(bounds, nodes, over=boxes_over)
    picture["arcs"], picture["constraints"] = arcs, boxes
    return picture


def centre(entry: Mapping[str, Any]) -> tuple[float, float]:
    """Where a variable of a picture description sits (its middle)."""
    if entry["show"] == pic.BRIDGES:
        return (entry["x1"] + entry["x2"]) / 2, (entry["y1"] + entry["y2"]) / 2
    if entry["show"] == pic.PLACES:
        spots = list(entry["places"].values())
        return (sum(x for x, _ in spots) / len(spots) + 0.5,
                sum(y for _, y in spots) / len(spots) + 0.5)
    if "r" in entry:
        return entry["x"], entry["y"]
    return entry["x"] + entry["w"] / 2, entry["y"] + entry["h"] / 2


def spread(centres: dict[str, tuple[float, float]], keys: list[str],
           room: float = 3.6) -> dict[str, tuple[float, float]]:
    """The centres scaled so that no two nodes are closer than `room`."""
    points = [centres[k] for k in keys]
    closest = min((math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:]),
                  default=room) or room
    scale = max(1.0, room / closest)
    x0, y0 = min(p[0] for p in points), min(p[1] for p in points)
    return {k: ((centres[k][0] - x0) * scale + 1.6, (centres[k][1] - y0) * scale + 1.6)
            for k in keys}
