"""The playground: a search the student drives, or a puzzle played, in the page (a
`Session` behind it).

    Playground(hashi.parse(text))       # a puzzle: play it by its own gestures, with hints
    Playground(Session(csp, "fc"))      # any CSP, or a session already under way

A puzzle is played as Tatham's games play (its picture's `play`): Bridges by dragging between
islands, Singles by clicking, Towers and Kakuro by typing digits, one gesture a move, on a
clean board; "show domains" draws every variable's values. Any variable can also be clicked
to see its values and assign one. The buttons ask for a hint (what it read and what it
removes are marked), undo and redo, check the board, try a supposition (a trial, accepted or
rejected whole), propagate, run arc consistency, show the engine's choice, let the engine
finish, and list the mistakes; "after each move" says what runs after each move (nothing,
by default, when a puzzle is played), "checking" when errors are marked. On a small problem
the constraint graph shows AC-3's queue: revise its front arc, or any arc, in one go or in a
fine step, as AISpace2 does. The search tree and "why?" replay the session's trace.

A hint that needs a supposition (a trial, a forcing chain) comes with its zoom (`state`'s
`zoom`: the frames of `zoom.zoom_frames`), which the page draws on the board step by step
and leaves, sending nothing: a picture of a supposition, not a move. "why?" says of each
removal of the session's propagation that a person must suppose so (`replay`'s `at_once`,
at_once.py).

The page sends actions (`{"action": "set", "var": ..., "value": ..., "id": 7}`); `act` does
what they ask and answers with `state`: every variable's values, the decided ones, the words,
the marks, and the number of the action answered (the page draws each move before the
answer comes, and reconciles). The trace follows (`replay`), for the tree. Without a kernel (an
exported page) the page replays what was done and says that acting needs a running notebook.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Hashable, Mapping
from typing import Any

import anywidget
import traitlets

from ..core.checking import supported
from ..core.session import Session as CoreSession
from ..puzzle import picture as pic
from ..puzzle.session import Session
from .at_once import AtOnce
from .frontend import module
from .packing import CLOSED, STRIDE, pack_run
from .stepper import for_the_page
from .words import PHRASES, fill
from .zoom import zoom_frames

#: the constraint graph is drawn for problems up to this size (beyond, it is a thicket)
GRAPH_VARIABLES, GRAPH_ARCS = 40, 160
#: revisions one "arc consistency" click makes at most (the queue of a big puzzle is long)
AC3_REVISIONS = 2000
#: the radius of a variable's node in the constraint graph
NODE = 1.0
#: when the board's errors are marked (pzprjs's setting), and what each is called
CHECKING = {"off": "off", "on demand": "on demand (check)",
            "errors": "errors, as soon as provable", "correct so far": "correct so far"}
#: what runs after each move, in the page's words (the session's own settings)
AFTER_MOVE = {"nothing": "nothing", "forward checking": "forward checking",
              "propagation": "propagation"}
#: seconds between an action from the page and its trace sent (after its answer)
REPLAY_AFTER = 0.03
#: the actions that are moves of the player (counted; checked after, when checking says so)
MOVES = ("set", "clear", "remove", "restore", "assign", "suppose", "split")


class Playground(anywidget.AnyWidget):
    """A `Session` in the page: `Playground(session)`, `Playground(puzzle)` or
    `Playground(csp)`; `view` draws it (default: the puzzle's picture, or the constraint
    graph of a CSP). `after_move` says what runs after each move ("nothing" by default for
    a puzzle given as such; a session keeps its own), `checking` when errors are marked."""

    _esm = module()
    data = traitlets.Dict().tag(sync=True)
    state = traitlets.Dict().tag(sync=True)
    replay = traitlets.Dict().tag(sync=True)

    def __init__(self, subject: Any, view: Any = None, title: str = "",
                 after_move: str | None = None, checking: str = "off"):
        given_session = isinstance(subject, CoreSession)
        self.session = subject if given_session else Session(subject)
        if after_move is not None or not given_session:
            self.session.after_move = after_move or "nothing"
        if checking not in CHECKING:
            raise ValueError(f"checking is one of {', '.join(CHECKING)}, not {checking!r}")
        self.checking = checking
        self.view = view or default_view(self.session)
        self.title = title
        csp = self.session.csp
        self.variables = list(csp.variables)
        self.index = {var: i for i, var in enumerate(self.variables)}
        self.by_key = {pic.key(var): var for var in self.variables}
        self.init = {var: list(csp.domains[var]) for var in self.variables}
        self.value_by_key = {var: {pic.key(x): x for x in values}
                             for var, values in self.init.items()}
        self.rank = {var: {x: i for i, x in enumerate(values)} for var, values in self.init.items()}
        self.answer = ""
        self.answered = (0, "")  # the number of the last action answered, and its page
        self.moves = self.hints = 0
        self.hinted: Any = None  # the hint shown and not applied yet
        self.zoom: list[dict[str, Any]] = []  # its zoom, as frames (when it supposes)
        #: the removals of the session's propagation a person must suppose ("why?")
        self.at_once = AtOnce(self.session)
        self.inspected: dict[str, Any] | None = None
        self.marks: list[list[Any]] = []
        self.errors: list[int] = []
        self.graph = graph_picture(self.session, self.view) if small(csp) else None
        self._replay_due = False  # the trace is to go to the page soon
        how = self.view.picture.get("play") or {}
        #: the value of a cell left alone (no bridge, a white cell), if the puzzle has one
        self.blank = None if how.get("blank") is None else \
            self.value_by_key[self.variables[0]].get(how["blank"])
        super().__init__(data=self._data(), state=self._state(), replay=self._replay())
        self.on_msg(self._message)

    # -- acting ------------------------------------------------------------------------------
    def act(self, action: str, **fields: Any) -> str:
        """Do what the page asks (`action` with its fields, variables and values named by
        their keys); returns the answer, as the page shows it. A rule of the session broken
        (a value not in the domain, acting after a wipe-out) is said, and changes nothing."""
        handler: Callable[..., str] | None = getattr(self, f"_{action.replace(' ', '_')}", None)
        if handler is None or action.startswith("_"):
            raise ValueError(f"unknown action {action!r}")
        number, page = fields.pop("id", 0), fields.pop("view", "")
        self.marks, self.inspected = [], None
        try:
            if self._completes(action, fields):  # the last move: the rest are left blank
                with self.session.action(self._move_words(action, fields)):
                    said = handler(**fields)
                    self._fill_blanks()
            else:
                said = handler(**fields)
            if action in MOVES:
                self.moves += 1
                self.hinted = None
        except ValueError as error:
            said = fill(PHRASES["refused"], name=str(error))
        self.errors = self._errors(action)
        wipeout = self.session.wipeout if self.session.status == "wipeout" else None
        if wipeout is not None and wipeout.var is not None:  # the domain emptied, in red
            self.marks.append([self.index[wipeout.var], None, "wipeout"])
        self.answered = (number, page)
        self.answer = said.rstrip(".") + "." + self._status_words()
        self.state = self._state()  # the answer first: the page draws it at once
        if not self._replay_later():  # then the trace, for the tree and "why?"
            self.replay = self._replay()
        return self.answer

    def _message(self, _widget: Any, content: Mapping[str, Any], _buffers: Any) -> None:
        fields = {k: v for k, v in content.items() if k != "action"}
        self._from_the_page = True
        try:
            self.act(str(content.get("action")), **fields)
        finally:
            self._from_the_page = False

    def _replay_later(self) -> bool:
        """Whether the trace goes to the page a moment after the answer (an action from the
        page, in a running kernel: gestures in quick succession then cost one packing of
        the trace, after them); else it goes now (code in a cell, a test, an export)."""
        if not getattr(self, "_from_the_page", False):
            return False
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        if not self._replay_due:
            self._replay_due = True
            loop.call_later(REPLAY_AFTER, self._send_replay)
        return True

    def _send_replay(self) -> None:
        self._replay_due = False
        self.replay = self._replay()

    # the player's moves: one gesture each
    def _set(self, var: str, value: str) -> str:
        variable = self._variable(var)
        return said(self.session.set(variable, self._value(variable, value)))

    def _clear(self, var: str) -> str:
        return said(self.session.clear(self._variable(var)))

    def _remove(self, var: str, value: str) -> str:
        variable = self._variable(var)
        return said(self.session.remove(variable, self._value(variable, value)))

    def _restore(self, var: str, value: str) -> str:
        variable = self._variable(var)
        return said(self.session.restore(variable, self._value(variable, value)))

    def _suppose(self, var: str, value: str) -> str:
        variable = self._variable(var)
        return said(self.session.suppose(variable, self._value(variable, value)))

    def _accept(self) -> str:
        return said(self.session.accept())

    def _reject(self) -> str:
        return said(self.session.reject())

    # a search by hand
    def _assign(self, var: str, value: str) -> str:
        variable = self._variable(var)
        return said(self.session.assign(variable, self._value(variable, value)))

    def _split(self, var: str) -> str:
        return said(self.session.split(self._variable(var)))

    def _undo(self) -> str:
        self.hinted = None
        return said(self.session.undo())

    def _redo(self) -> str:
        self.hinted = None
        return said(self.session.redo())

    # settings
    def _after(self, how: str) -> str:
        if how not in AFTER_MOVE:
            raise ValueError(f"after each move: one of {', '.join(AFTER_MOVE)}, not {how!r}")
        self.session.after_move = how
        return fill(PHRASES["after_set"], name=self._after_words()[how])

    def _checking(self, how: str) -> str:
        if how not in CHECKING:
            raise ValueError(f"checking: one of {', '.join(CHECKING)}, not {how!r}")
        self.checking = how
        return fill(PHRASES["checking_set"], name=CHECKING[how])

    # what the rules and the engine say
    def _hint(self) -> str:
        hint = self.hinted = self.session.hint()
        if hint is None:
            return self._no_hint()
        session = self.session
        self.zoom = zoom_frames(hint, session.domains, session.words)
        self.hints += 1
        read = [self.index[var] for var in hint.because]
        self.marks = [[v, None, "read"] for v in read]
        self.marks += [[self.index[var], pic.key(x), "removed"]
                       for var, values in hint.removals.items() for x in values]
        return fill(PHRASES["hint"], name=hint.sentence, other=hint.rule)

    def _no_hint(self) -> str:
        """Why there is no hint: solved, a wipe-out (and the decision that led there), or
        nothing left that the rules deduce without guessing."""
        session = self.session
        if session.status == "solved":
            return str(PHRASES["no_hint_solved"])
        if session.status != "wipeout":
            return str(PHRASES["no_hint"])
        wipeout = session.wipeout
        decision = getattr(wipeout, "decision", None)
        if decision is not None:
            self.marks = [[self.index[decision.var], None, "wipeout"]]
            return fill(PHRASES["no_hint_wipeout_decision"],
                        name=f"{self._name(decision.var)} = {self.view.value(decision.value)}")
        return fill(PHRASES["no_hint_wipeout"], name=getattr(wipeout, "sentence", ""))

    def _apply(self) -> str:
        if self.hinted is None:
            raise ValueError("ask for a hint first")
        hint, self.hinted = self.hinted, None
        change = self.session.apply(hint)
        return fill(PHRASES["applied"], name=hint.rule, n=count(change))

    def _propagate(self) -> str:
        return fill(PHRASES["propagated"], n=count(self.session.propagate()))

    def _arc_consistency(self) -> str:
        """AC-3 by hand, all at once: revise the first arc of the queue until it is empty;
        one action, which undo takes back whole."""
        session = self.session
        revised = removed = 0
        with session.action("arc consistency"):
            while session.arcs() and session.status == "open" and revised < AC3_REVISIONS:
                constraint, var = session.arcs()[0]
                removed += len(session.revise(constraint, var))
                revised += 1
        more = fill(PHRASES["ac3_more"], n=len(session.arcs())) \
            if session.arcs() and session.status == "open" else ""
        return fill(PHRASES["ac3"], k=revised, n=removed) + more

    def _revise(self, constraint: str, var: str) -> str:
        variable = self._variable(var)
        removed = self.session.revise(constraint, variable)
        slots = {"name": self._name(variable), "other": constraint}
        if not removed:
            return fill(PHRASES["revised_nothing"], **slots)
        return fill(PHRASES["revised"], values=", ".join(map(self.view.value, removed)), **slots)

    def _inspect(self, constraint: str, var: str) -> str:
        """The fine step's second stage: which values of `var` the arc would remove."""
        variable = self._variable(var)
        named = [c for c in self.session.csp.constraints if c.name == constraint]
        if len(named) != 1:
            raise ValueError(f"no constraint named {constraint!r}")
        kept = supported(self.session.state, named[0], variable)
        doomed = [x for x in self.session.domains[variable] if x not in kept]
        self.inspected = {"constraint": constraint, "var": var,
                          "doomed": [pic.key(x) for x in doomed]}
        self.marks = [[self.index[variable], pic.key(x), "removed"] for x in doomed]
        slots = {"name": self._name(variable), "other": constraint}
        if not doomed:
            return fill(PHRASES["consistent"], **slots)
        return fill(PHRASES["inconsistent"], values=", ".join(map(self.view.value, doomed)),
                    **slots)

    def _suggest(self) -> str:
        suggestion = self.session.suggest()
        self.marks = [[self.index[suggestion.var], pic.key(suggestion.value), "read"]]
        return suggestion.sentence

    def _finish(self) -> str:
        result = self.session.finish()
        return fill(PHRASES["finished_" + result.status], n=result.stats.nodes)

    def _mistakes(self) -> str:
        wrong = self.session.mistakes()
        if not wrong:
            return str(PHRASES["no_mistake"])
        self.marks = [[self.index[d.var], None, "wipeout"] for d in wrong]
        return fill(PHRASES["mistakes"], n=len(wrong), values=self._decisions(wrong))

    def _check(self) -> str:
        """Name each constraint the decisions break, and mark its cells."""
        broken = self.session.broken()
        marked = dict.fromkeys(self.index[var] for b in broken for var in b.variables)
        self.marks = [[v, None, "error"] for v in marked]
        if not broken:
            return str(PHRASES["checked_none"])
        return fill(PHRASES["checked"], n=len(broken), values="; ".join(b.sentence for b in broken))

    # -- a board solved with cells left alone ------------------------------------------------
    def _completes(self, action: str, fields: Mapping[str, Any]) -> bool:
        """Whether this move solves the board, every cell not decided left blank (Tatham's
        Bridges and Singles never ask the player to mark the empty edges or white cells)."""
        if self.blank is None or action not in ("set", "assign", "suppose", "clear") \
                or self.session.status != "open":
            return False
        state = self.session.state
        values = {var: state.value(var) for var in self.session.decided}
        try:
            var = self._variable(fields.get("var", ""))
            if action == "clear":
                values.pop(var, None)
            else:
                values[var] = self._value(var, fields.get("value", ""))
        except ValueError:
            return False  # the move itself says what is wrong
        for other in self.variables:
            if other not in values:
                if self.blank not in state.values(other):
                    return False
                values[other] = self.blank
        return all(c.is_satisfied(values) for c in self.session.csp.constraints)

    def _fill_blanks(self) -> None:
        for var in self.variables:
            if var not in self.session.decided:
                self.session.set(var, self.blank)

    def _move_words(self, action: str, fields: Mapping[str, Any]) -> str:
        """A move in the session's own words ("set edge (0,4)-(0,6) = 1 bridge")."""
        var = self._variable(fields["var"])
        if action == "clear":
            return f"clear {self._name(var)}"
        return f"{action} {self._name(var)} = {self.view.value(self._value(var, fields['value']))}"

    # -- checking as the student chose ----------------------------------------------------------
    def _errors(self, action: str) -> list[int]:
        """The variables marked as errors after `action`: none (off, or checked on demand:
        `check` marks its own), those of the constraints the decisions provably break, or
        the decisions against the solution ("correct so far")."""
        if self.checking == "errors":
            return sorted({self.index[var] for b in self.session.broken() for var in b.variables})
        if self.checking == "correct so far":
            try:
                return [self.index[d.var] for d in self.session.mistakes()]
            except ValueError:  # no unique solution to compare with
                return []
        return []

    # -- what the page receives ----------------------------------------------------------------
    def _data(self) -> dict[str, Any]:
        view = self.view
        value = getattr(view, "value", str)
        puzzle = getattr(self.session, "puzzle", None) is not None
        return {"widget": "playground", "picture": view.picture, "graph": self.graph,
                "title": self.title, "phrases": PHRASES, "puzzle": puzzle,
                "keys": [pic.key(var) for var in self.variables],
                "names": [self._name(var) for var in self.variables],
                "init": [[pic.key(x) for x in self.init[var]] for var in self.variables],
                "words": [[value(x) for x in self.init[var]] for var in self.variables],
                "after": list(self._after_words().items()),
                "checking": list(CHECKING.items())}

    def _after_words(self) -> dict[str, str]:
        """What runs after each move, in words: a puzzle's propagation is its rules."""
        if getattr(self.session, "puzzle", None) is None:
            return AFTER_MOVE
        return {**AFTER_MOVE, "propagation": "the puzzle's rules"}

    def _state(self) -> dict[str, Any]:
        session, rank = self.session, self.rank
        status = session.status
        todo = [[c.name, pic.key(var)] for c, var in session.arcs()] if self.graph else []
        number, page = self.answered
        return {"id": number, "view": page, "status": status, "answer": self.answer,
                "domains": [[rank[var][x] for x in session.state.values(var)]
                            for var in self.variables],
                "assigned": sorted(self.index[var] for var in session.decided),
                "marks": self.marks, "errors": self.errors, "todo": todo,
                "inspected": self.inspected, "hint": self.hinted is not None,
                "hint_steps": [step.sentence for step in getattr(self.hinted, "steps", ())],
                "zoom": self.zoom if self.hinted is not None else [],
                "undo": len(session.history), "redo": len(session.redo_history),
                "trials": len(session.trials), "after": session.after_move,
                "checking": self.checking, "moves": self.moves, "hints": self.hints,
                "history": list(session.history), "events": len(session.trace)}

    def _replay(self) -> dict[str, Any]:
        view = self.view
        run = pack_run(self.session.trace, name=getattr(view, "name", None),
                       value=getattr(view, "value", str), verb=getattr(view, "verb", None),
                       scopes=getattr(view, "scopes", None))
        events = run["events"]
        run["at_once"] = list(self.at_once.update(
            lambda at: events[(at - 1) * STRIDE + CLOSED] == 0))
        return for_the_page(run)

    def _status_words(self) -> str:
        status = self.session.status
        if status == "open":
            return ""
        if status == "solved" and self.moves:
            name = "puzzle" if getattr(self.session, "puzzle", None) is not None else "problem"
            return fill(PHRASES["solved_moves"], name=name, n=self.moves, k=self.hints)
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

    def _name(self, var: Hashable) -> str:
        name = getattr(self.view, "name", None)
        return name(var) if name else pic.key(var)

    def _decisions(self, decisions: Any) -> str:
        return ", ".join(f"{self._name(d.var)} = {self.view.value(d.value)}"
                         if d.kind == "assign" else f"{self._name(d.var)} split"
                         for d in decisions)


def said(change: Any) -> str:
    """What a session action did, in its own words ("set cell (2,3) = 4: 3 values
    removed", "undone: arc consistency; 4 values put back")."""
    return str(change.sentence)


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
    Variables sit where the view's picture puts them, spread out to make room; a variable
    the view fills with its colour takes it once it has one value (`paint`)."""
    csp = session.csp
    centres = spread({entry["var"]: centre(entry) for entry in view.picture["variables"]},
                     [pic.key(v) for v in csp.variables])
    name = getattr(view, "name", None) or pic.key
    colours = {entry["var"] for entry in view.picture["variables"] if entry["show"] == pic.COLOUR}
    nodes = [pic.disc_variable(var, *centres[pic.key(var)], NODE, pic.LIST, name=name(var),
                               label=name(var), per_line=2, paint=pic.key(var) in colours)
             for var in csp.variables]
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
