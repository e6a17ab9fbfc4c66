"""Your code, stepped: a function run once, recorded line by line, replayed in the page.

    CodeStepper(backtracking_search, map_colouring(), "input", "input", "fc", view=map_view())

runs the function, records every line it runs (and the lines of the functions of its own
module it calls: `recorder.py`), and shows the recording beside the CSP's picture: the
source with the line about to run marked, the call stack, the watched values, and the
domains of that moment drawn by the view (when the function works on a CSP, a puzzle or
their domains). Stepping, the jumps (next line, next line of this function, next call,
next time a domain shrinks, next return, next breakpoint), breakpoints and predict-then-
check all run in the page, with no round trip to the kernel; `position` is shared with
Python, where `go`, `jump`, `sentence`, `question` and the checks say what the page says.

Options (keywords that are not passed on to the function): `watch` names more values to
show (`"self.total"` reads an attribute), `view` draws the domains (default: the picture of
a puzzle or CSP among the arguments; `False` for none), `max_lines` caps the recording,
`title` heads it. To pass an argument with one of these names to the function itself, use
`functools.partial`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import anywidget
import traitlets

from ..core.csp import CSP
from ..puzzle.picture import key
from . import recorder as rec
from .code_page import CODE_PHRASES, JUMP_KINDS, Shown, page_data
from .stepper import EXPLORER_JS
from .views import domain_grid_view, graph_view, puzzle_view

#: a CSP with more variables than this is drawn as a table of domains, not as a graph
GRAPH_LIMIT = 30


class CodeStepper(anywidget.AnyWidget):
    """`function(*args, **kwargs)` run once, recorded, and replayed line by line."""

    _esm = EXPLORER_JS
    data = traitlets.Dict().tag(sync=True)
    position = traitlets.Int(0).tag(sync=True)
    breakpoints: traitlets.List = traitlets.List().tag(sync=True)  # [[file, line], ...]
    note = traitlets.Unicode("").tag(sync=True)

    def __init__(self, function: Callable, *args: Any, watch: Sequence[str] = (),
                 view: Any = None, max_lines: int = rec.MAX_LINES, title: str = "",
                 **kwargs: Any):
        recording = rec.record(function, args, kwargs, watch, max_lines)
        self._build(recording, view, [*args, *kwargs.values()], title)

    @classmethod
    def inside(cls, run: Callable[[], Any], function: Callable, *, watch: Sequence[str] = (),
               view: Any = None, max_lines: int = rec.MAX_LINES, title: str = "",
               problem: Any = None) -> CodeStepper:
        """Step the first call of `function` that `run()` makes (a function where a bigger
        computation calls it: the conflict analysis inside a learning search); `result` is
        what that call returned (None if the recording was cut before it returned).
        `problem` (a CSP or a puzzle) chooses the picture when `view` is not given."""
        recording = rec.record(function, watch=watch, max_lines=max_lines, run=run)
        return cls.replay(recording, view=view, title=title, problem=problem)

    @classmethod
    def replay(cls, recording: rec.Recording, *, view: Any = None, title: str = "",
               problem: Any = None) -> CodeStepper:
        """A stepper on a recording made before (`recorder.record`)."""
        stepper = cls.__new__(cls)
        stepper._build(recording, view, [problem], title)
        return stepper

    def _build(self, recording: rec.Recording, view: Any, arguments: list[Any],
               title: str) -> None:
        self.recording = recording
        csp = problem_of(arguments)
        if view is None and csp is not None:
            view = default_view(csp, arguments)
        data = page_data(recording, view or None, title,
                         initial=None if csp is None else csp.domains)
        self.view = view or None
        self.shown = Shown(recording, data)
        self._steps: list[rec.Step] | None = None
        super().__init__(data=data, note="")

    # -- what ran ----------------------------------------------------------------------------
    @property
    def result(self) -> Any:
        """What the function returned (None if it raised: see `exception`)."""
        return self.recording.result

    @property
    def exception(self) -> BaseException | None:
        """The exception the function raised, if it did (the last steps show where)."""
        return self.recording.exception

    @property
    def truncated(self) -> bool:
        """Whether the recording stopped at `max_lines` (the function ran on to its end)."""
        return self.recording.truncated

    @property
    def steps(self) -> list[rec.Step]:
        """Every recorded step, in order: `.line`, `.function`, `.locals` and more."""
        if self._steps is None:
            self._steps = rec.steps_of(self.recording)
        return self._steps

    @property
    def step(self) -> rec.Step:
        """The step shown now."""
        return self.steps[self.position]

    @property
    def domains(self) -> dict[Hashable, tuple[Any, ...]] | None:
        """The domains (or the assignment, as one value each) the picture shows now."""
        snap = self.recording.get(self.position, rec.SNAP)
        return None if snap < 0 else rec.values_of(self.recording.snapshots[snap])

    # -- moving ------------------------------------------------------------------------------
    def go(self, position: int) -> None:
        """Show step `position` (counting from 0; clamped); the page follows."""
        self.position = max(0, min(len(self.recording) - 1, position))

    def jump(self, kind: str, function: str | None = None) -> bool:
        """Go to the next step of `kind` (one of `JUMP_KINDS`: "line", "over", "call",
        "shrink", "return", "breakpoint"), of `function` only if named; False if there is
        none (the page then says so)."""
        if kind not in JUMP_KINDS:
            raise ValueError(f"unknown jump {kind!r}; expected one of {', '.join(JUMP_KINDS)}")
        found = self.shown.target(self.position, kind, map(tuple, self.breakpoints), function)
        if found is None:
            self.note = CODE_PHRASES[f"jump_{kind}"]
            return False
        self.note = ""
        self.go(found)
        return True

    def toggle_breakpoint(self, line: int, file: str | None = None) -> bool:
        """Set a breakpoint at `line` of `file` (default: the stepped function's file), or
        clear the one there; True when one is set now."""
        path = file or self.recording.codes[0].file
        here = [path, line]
        if here in self.breakpoints:
            self.breakpoints = [b for b in self.breakpoints if b != here]
            return False
        self.breakpoints = [*self.breakpoints, here]
        return True

    # -- what the page says ------------------------------------------------------------------
    def sentence(self) -> str:
        """The line under the code, as the page says it."""
        return self.shown.sentence(self.position)

    def question(self) -> str:
        """What "predict" asks here, as the page asks it."""
        return str(self.shown.question(self.position)["text"])

    def check_return(self, answer: str) -> str:
        """The page's answer when the student predicts that the function returns `answer`
        (its repr, as typed or picked)."""
        return self.shown.check_return(self.position, answer)

    def check_removals(self, removals: Iterable[tuple[Hashable, Any]]) -> str:
        """The page's answer when the student predicts that these (variable, value) pairs
        go while the current line runs."""
        keys = {k: v for v, k in enumerate(self.data.get("keys", ()))}
        values = {k: x for x, k in enumerate(self.data.get("values", ()))}
        picked = [(keys[key(var)], values[key(x)]) for var, x in removals]
        return self.shown.check_removals(self.position, picked)


def problem_of(arguments: Iterable[Any]) -> CSP | None:
    """The CSP among the arguments (a puzzle's, for a puzzle), or None."""
    for argument in arguments:
        if isinstance(argument, CSP):
            return argument
        if callable(getattr(argument, "to_csp", None)) and callable(
                getattr(argument, "picture", None)):
            csp = argument.to_csp()
            return csp if isinstance(csp, CSP) else None
    return None


def default_view(csp: CSP, arguments: Iterable[Any]) -> Any:
    """A puzzle's own picture; a CSP's constraint graph (a table of domains when large)."""
    for argument in arguments:
        if callable(getattr(argument, "picture", None)) and callable(
                getattr(argument, "to_csp", None)):
            return puzzle_view(argument)
    if len(csp.variables) <= GRAPH_LIMIT:
        try:
            return graph_view(csp)
        except ValueError:
            pass
    return domain_grid_view(csp)
