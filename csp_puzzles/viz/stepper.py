"""The stepper: replay any trace event by event, in the browser.

`Stepper(trace, draw)` sends the trace to the page once; stepping, playing, the slider, the
jumps, the search tree and "why?" all run there with no round trip to the kernel. The
picture comes from the view's plain-data description (`draw.picture`, every built-in view
and every puzzle has one). Any other `draw(ax, domains, event)` function works too: the
kernel then draws each state with matplotlib and sends it as a PNG.

`position` is shared with the page: position 0 is the state before the first event,
position k the state just after event k (counting from 1). From Python, `go(k)`, `jump(kind)`,
`domains`, `event` and `sentence()` read and move the same replay the page shows.
"""

from __future__ import annotations

import base64
from bisect import bisect_right
from collections.abc import Callable, Hashable
from itertools import accumulate
from pathlib import Path
from typing import Any

import anywidget
import traitlets
from matplotlib.axes import Axes

from ..core.trace import ASSIGN, BACKTRACK, KINDS, SOLUTION, WIPEOUT, Event, Trace
from .output import draw_png
from .packing import pack_run
from .words import describe as describe_event

Draw = Callable[[Axes, dict[Hashable, tuple[Any, ...]], "Event | None"], None]

#: the front end: a plain ES module, loaded by anywidget and inlined by `csp-puzzles export`
EXPLORER_JS = (Path(__file__).parent / "explorer.js").read_text(encoding="utf-8")

#: what `jump` reports when nothing of a kind lies ahead, as the page says it
NOTHING_AHEAD = {ASSIGN: "no more choices ahead", WIPEOUT: "no more wipe-outs ahead",
                 BACKTRACK: "no more backtracks ahead", SOLUTION: "no more solutions ahead"}


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
                 describe: Callable[[Event], str] | None = None, title: str = "",
                 figsize: tuple[float, float] | None = None, dpi: int = 80,
                 interval: int = 400):
        for _, trace, _ in traces:
            if not isinstance(trace, Trace):
                raise TypeError("Stepper needs a trace: solve with trace=True and pass "
                                "result.trace")
        self.traces = [trace for _, trace, _ in traces]
        self.draw = draw
        # a `View` brings its own wording, picture and size; explicit arguments win
        self.describe = describe or getattr(draw, "describe", None) or describe_event
        self.title = title
        self.figsize: tuple[float, float] = (figsize or getattr(draw, "figsize", None)
                                             or (4.5, 4.5))
        self.dpi = dpi
        picture = getattr(draw, "picture", None)
        own_words = describe is None and hasattr(draw, "describe")
        runs = [pack_run(trace, label, name=getattr(draw, "name", None),
                         value=getattr(draw, "value", str), verb=getattr(draw, "verb", None),
                         sentences=None if own_words or describe is None else describe,
                         scopes=getattr(draw, "scopes", None), nodes=nodes)
                for label, trace, nodes in traces]
        self._counts = [_running_counts(trace) for trace in self.traces]
        super().__init__(data={"picture": picture, "runs": runs, "title": title},
                         interval=interval)
        self.observe(self._moved, names=["position", "run"])
        if picture is None:
            self._draw_png()

    # -- moving ------------------------------------------------------------------------------
    @property
    def trace(self) -> Trace:
        """The trace being replayed."""
        return self.traces[self.run]

    def go(self, position: int) -> None:
        """Jump to `position` (clamped to 0..len(trace)); the page follows."""
        self.position = max(0, min(len(self.trace), position))

    def jump(self, kind: str) -> bool:
        """Go to the next event of `kind` ("assign", "wipeout", ...); False if there is none
        (the page then says so: "no more choices ahead")."""
        counts = self._counts[self.run][kind]
        target = bisect_right(counts, counts[self.position])
        if target > len(self.trace):
            self.note = NOTHING_AHEAD.get(kind, f"no more {kind} events ahead")
            return False
        self.note = ""
        self.go(target)
        return True

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
        """The current position in words, as the line of text under the picture shows it."""
        total = len(self.trace)
        event = self.event
        if event is None:
            more = " (the trace was cut short)" if self.trace.truncated else ""
            return f"start: the initial domains; {total} events follow{more}"
        where = f"event {self.position} of {total}, depth {event.depth}"
        return f"{where}: {self.describe(event)}"

    def counts(self) -> dict[str, int]:
        """How many events of each kind happened up to the current position."""
        return {kind: self._counts[self.run][kind][self.position] for kind in KINDS}

    def _draw_png(self) -> None:
        """The kernel's picture, for a `draw` function with no plain-data picture."""
        domains, event = self.domains, self.event

        def draw(ax: Axes) -> None:
            self.draw(ax, domains, event)
            if self.title:
                ax.set_title(self.title)

        png = draw_png(draw, self.figsize, self.dpi)
        self.image = "data:image/png;base64," + base64.b64encode(png).decode("ascii")


class Stepper(Explorer):
    """A widget replaying `trace`, drawn by `draw` (a view, or `draw(ax, domains, event)`).

    `describe(event) -> str` words the events (default: the view's wording, else the
    core's); `figsize` and `dpi` size a matplotlib picture; `interval` is the play speed
    in milliseconds per event.
    """

    def __init__(self, trace: Trace, draw: Draw, *, describe: Callable[[Event], str] | None = None,
                 title: str = "", figsize: tuple[float, float] | None = None, dpi: int = 80,
                 interval: int = 400):
        super().__init__([(title, trace, None)], draw, describe=describe, title=title,
                         figsize=figsize, dpi=dpi, interval=interval)


def _running_counts(trace: Trace) -> dict[str, list[int]]:
    """For each kind of event, how many happened in the first k events (k = 0..len)."""
    kinds = [event.kind for event in trace]
    return {kind: list(accumulate((k == kind for k in kinds), initial=0)) for kind in KINDS}
