"""The stepper: replay any trace event by event, in the browser.

`Stepper(trace, draw)` sends the trace to the page once; stepping, playing, the slider, the
jumps, the search tree and "why?" all run there with no round trip to the kernel. The
picture comes from the view's plain-data description (`draw.picture`, every built-in view
and every puzzle has one). Any other `draw(ax, domains, event)` function works too: the
kernel then draws each state with matplotlib and sends it as a PNG.

One numbering everywhere: events count from 1, and "event k" is `trace[k - 1]`. `position`
is shared with the page: position 0 is the state before the first event, position k the
state just after event k, so `go(k)` shows what "event k" did. From Python, `go(k)`,
`jump(kind)`, `domains`, `event`, `sentence()`, `summary()`, `why(var)` and `path()` read
and move the same replay the page shows, in the same words.
"""

from __future__ import annotations

import base64
import json
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from ..core.trace import KINDS, Event, Trace
from . import shown
from .frontend import module
from .packing import KIND, STRIDE, pack_run
from .words import JUMPS

if TYPE_CHECKING:
    from .matplotlib_drawing import Axes

Draw = Callable[["Axes", dict[Hashable, tuple[Any, ...]], "Event | None"], None]

#: the front end: one ES module, loaded by anywidget and inlined by `csp-puzzles export`
EXPLORER_JS = module()


class Explorer(anywidget.AnyWidget):
    """One or more runs of a search over the same picture, replayed in the page."""

    _esm = EXPLORER_JS
    data = traitlets.Dict().tag(sync=True)
    position = traitlets.Int(0).tag(sync=True)
    run = traitlets.Int(0).tag(sync=True)
    image = traitlets.Unicode("").tag(sync=True)
    interval = traitlets.Int(400).tag(sync=True)
    note = traitlets.Unicode("").tag(sync=True)

    def __init__(self, traces: list[tuple[str, Trace, int | None]], draw: Draw, *,
                 sentences: Callable[[Event], str] | None = None, title: str = "",
                 figsize: tuple[float, float] | None = None, dpi: int = 80,
                 interval: int = 400):
        for _, trace, _ in traces:
            if not isinstance(trace, Trace):
                raise TypeError("Stepper needs a trace: solve with trace=True and pass "
                                "result.trace")
        self.traces = [trace for _, trace, _ in traces]
        self.draw = draw
        # a `View` brings its own wording, picture and size; explicit arguments win
        self.title = title
        self.figsize: tuple[float, float] = (figsize or getattr(draw, "figsize", None)
                                             or (4.5, 4.5))
        self.dpi = dpi
        picture = getattr(draw, "picture", None)
        self.packed = [pack_run(trace, label, name=getattr(draw, "name", None),
                              value=getattr(draw, "value", str), verb=getattr(draw, "verb", None),
                              sentences=sentences, scopes=getattr(draw, "scopes", None),
                              nodes=nodes)
                     for label, trace, nodes in traces]
        self._numbers: list[list[dict[Any, int]] | None] = [None] * len(traces)
        self._kind_at: list[dict[int, list[int]] | None] = [None] * len(traces)
        super().__init__(data={"widget": "explorer", "picture": picture,
                               "runs": [for_the_page(run) for run in self.packed],
                               "title": title}, interval=interval)
        self.observe(self._moved, names=["position", "run"])
        if picture is None:
            self._draw_png()

    # -- moving ------------------------------------------------------------------------------
    @property
    def trace(self) -> Trace:
        """The trace being replayed."""
        return self.traces[self.run]

    def go(self, position: int) -> None:
        """Show the state just after event `position` (0: the start; clamped to the trace);
        the page follows."""
        self.position = max(0, min(len(self.trace), position))

    def jump(self, kind: str) -> bool:
        """Go to the next event of `kind` ("assign", "wipeout", ...); False if there is none
        (the page then says so: "no more choices ahead")."""
        events = self._events_of(kind)
        index = bisect_right(events, self.position)
        if index == len(events):
            self.note = JUMPS[kind][1] if kind in JUMPS else f"no more {kind} events ahead"
            return False
        self.note = ""
        self.go(events[index])
        return True

    def _events_of(self, kind: str) -> list[int]:
        """The numbers of the events of `kind` in the current run, in order."""
        found = self._kind_at[self.run]
        if found is None:
            found = {}
            for i, k in enumerate(self.packed[self.run]["events"][KIND::STRIDE]):
                found.setdefault(k, []).append(i + 1)
            self._kind_at[self.run] = found
        return found.get(KINDS.index(kind), []) if kind in KINDS else []

    def _moved(self, change: dict) -> None:
        if change["name"] == "run":
            self.position = min(self.position, len(self.trace))
        if self.data.get("picture") is None:
            self._draw_png()

    # -- what is shown -----------------------------------------------------------------------
    @property
    def domains(self) -> dict[Hashable, tuple[Any, ...]]:
        """The domains at the current position."""
        return self.trace.domains_at(self.position - 1)

    @property
    def event(self) -> Event | None:
        """The event that led to the current position (None at the start)."""
        return self.trace[self.position - 1] if self.position else None

    def sentence(self) -> str:
        """The current position in words, as the line of text under the picture says it."""
        return shown.sentence(self.packed[self.run], self.position)

    def counts(self) -> dict[str, int]:
        """How many events of each kind happened up to the current position."""
        return {kind: bisect_right(self._events_of(kind), self.position) for kind in KINDS}

    def summary(self) -> list[tuple[str, str]]:
        """The summary table beside the picture, row by row, as the page shows it."""
        return shown.summary(self.packed[self.run], self.position, self._present())

    def why(self, var: Hashable) -> list[str]:
        """What "why?" says about `var` now: its values left, what removed each other value
        (the event and its cause), and what backtracking undid."""
        v = self.trace.variables.index(var)
        return shown.why(self.packed[self.run], self.position, v, self._present())

    def queue(self) -> str:
        """AC-3's queue beside the replay, as the page shows it ("" before any revision)."""
        return shown.queue_line(self.packed[self.run], self.position)

    def path(self) -> str:
        """The line under the search tree (the choices leading here), as the page says it."""
        return shown.path(self.packed[self.run], self.position, self._present())

    # -- predict, then check ------------------------------------------------------------------
    def question(self) -> str:
        """What the explorer's "predict" asks here, as the page asks it."""
        return str(shown.question(self.packed[self.run], self.position)["text"])

    def check_choice(self, var: Hashable) -> str:
        """The page's answer when the student predicts that the search chooses `var` next."""
        v = self.trace.variables.index(var)
        return shown.check_variable(self.packed[self.run], self.position, self._present(), v)

    def check_removals(self, removals: Iterable[tuple[Hashable, Any]]) -> str:
        """The page's answer when the student predicts that these (variable, value) pairs
        are the values propagation removes now."""
        self._present()  # the numbers of the values
        numbers = self._numbers[self.run]
        assert numbers is not None
        picked = set()
        for var, value in removals:
            v = self.trace.variables.index(var)
            picked.add((v, numbers[v][(type(value), value)]))
        return shown.check_removals(self.packed[self.run], self.position, picked)

    def _present(self) -> list[list[int]]:
        """The current domains as the page numbers values."""
        numbers = self._numbers[self.run]
        run, trace = self.packed[self.run], self.trace
        if numbers is None:
            numbers = [{(type(x), x): n for x, n in zip(trace.initial[var], run["init"][v])}
                       for v, var in enumerate(trace.variables)]
            self._numbers[self.run] = numbers
        domains = self.domains
        return [[numbers[v][(type(x), x)] for x in domains[var]]
                for v, var in enumerate(trace.variables)]

    def _draw_png(self) -> None:
        """The kernel's picture, for a `draw` function with no plain-data picture."""
        from .matplotlib_drawing import draw_png

        domains, event = self.domains, self.event

        def draw(ax: Axes) -> None:
            self.draw(ax, domains, event)
            if self.title:
                ax.set_title(self.title)

        png = draw_png(draw, self.figsize, self.dpi)
        self.image = "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def for_the_page(run: dict[str, Any]) -> dict[str, Any]:
    """The packed run as the page receives it: the events as one JSON text, which the
    widget machinery passes on as it is (a list of a million numbers it would walk through,
    looking for binary buffers, and encode number by number)."""
    return {**run, "events": json.dumps(run["events"], separators=(",", ":"))}


class Stepper(Explorer):
    """A widget replaying `trace`, drawn by `draw` (a view, or `draw(ax, domains, event)`).

    `sentences(event) -> str` words the events (default: the view's words, in context: a
    wipe-out says what follows it); `figsize` and `dpi` size a matplotlib picture;
    `interval` is the play speed in milliseconds per event.
    """

    def __init__(self, trace: Trace, draw: Draw, *,
                 sentences: Callable[[Event], str] | None = None,
                 title: str = "", figsize: tuple[float, float] | None = None, dpi: int = 80,
                 interval: int = 400):
        super().__init__([(title, trace, None)], draw, sentences=sentences, title=title,
                         figsize=figsize, dpi=dpi, interval=interval)
