"""The stepper: replay any trace event by event, drawing each state with your function.

`Stepper(trace, draw)` works for every trace the core records and every drawing function
`draw(ax, domains, event)`: `domains` is the state just after `event` (rebuilt from the
trace, so going back is as exact as going forward) and `event` is the `Event` that led
there (None at the start). The widget has buttons first / back / step / end, a play/pause
control with a speed slider, a slider over all events, a jump to the next choice, wipe-out,
backtrack or solution, the event in words and a side panel of the statistics so far.

Position 0 is the state before the first event; position k is the state just after event
k (counting from 1), so the slider runs from 0 to len(trace).
"""

from __future__ import annotations

import html
from bisect import bisect_right
from collections.abc import Callable, Hashable
from itertools import accumulate
from typing import Any

import ipywidgets as widgets
from matplotlib.axes import Axes

from ..core.trace import ASSIGN, BACKTRACK, KINDS, PRUNE, SOLUTION, WIPEOUT, Event, Trace
from .output import draw_png, show_png
from .words import describe as describe_event

Draw = Callable[[Axes, dict[Hashable, tuple[Any, ...]], "Event | None"], None]


class Stepper(widgets.VBox):
    """A widget replaying `trace`, one picture per event, drawn by `draw(ax, domains, event)`.

    `describe(event) -> str` words the events (default: the view's wording, else the
    core's); `figsize` and `dpi` size the picture; `interval` is the play speed in milliseconds.
    """

    def __init__(self, trace: Trace, draw: Draw, *, describe: Callable[[Event], str] | None = None,
                 title: str = "", figsize: tuple[float, float] | None = None, dpi: int = 80,
                 interval: int = 400):
        super().__init__()
        if not isinstance(trace, Trace):
            raise TypeError("Stepper needs a trace: solve with trace=True and pass result.trace")
        self.trace = trace
        self.draw = draw
        # a `View` brings its own wording and size; explicit arguments win
        self.describe = describe or getattr(draw, "describe", None) or describe_event
        self.title = title
        self.figsize = figsize or getattr(draw, "figsize", (4.5, 4.5))
        self.dpi = dpi
        self._counts = _running_counts(trace)
        last = len(trace)

        self.first_button = _button("fast-backward", "first: the initial domains")
        self.back_button = _button("step-backward", "back one event")
        self.step_button = _button("step-forward", "step: the next event")
        self.end_button = _button("fast-forward", "end: the last event")
        self.play = widgets.Play(value=0, min=0, max=last, step=1, interval=interval,
                                 show_repeat=False, description="play",
                                 tooltip="play / pause")
        self.slider = widgets.IntSlider(value=0, min=0, max=last, description="event",
                                        continuous_update=False,
                                        layout=widgets.Layout(width="60%"))
        self.speed = widgets.IntSlider(value=interval, min=50, max=2000, step=50,
                                       description="ms/step", continuous_update=False,
                                       layout=widgets.Layout(width="35%"))
        self.jump_kind = widgets.Dropdown(
            options=[("next choice", ASSIGN), ("next wipe-out", WIPEOUT),
                     ("next backtrack", BACKTRACK), ("next solution", SOLUTION)],
            value=ASSIGN, layout=widgets.Layout(width="10em"))
        self.jump_button = widgets.Button(description="jump", tooltip="jump to the next event "
                                          "of the chosen kind", layout=widgets.Layout(width="5em"))
        self.text = widgets.HTML()
        self.image = widgets.Output()
        self.panel = widgets.HTML(layout=widgets.Layout(min_width="13em"))
        self.add_class("csp-stepper")
        self.text.add_class("csp-stepper-text")
        self.image.add_class("csp-stepper-image")
        self.panel.add_class("csp-stepper-stats")

        widgets.link((self.play, "value"), (self.slider, "value"))
        widgets.link((self.speed, "value"), (self.play, "interval"))
        self.slider.observe(self._moved, names="value")
        self.first_button.on_click(lambda _: self.go(0))
        self.back_button.on_click(lambda _: self.go(self.position - 1))
        self.step_button.on_click(lambda _: self.go(self.position + 1))
        self.end_button.on_click(lambda _: self.go(len(self.trace)))
        self.jump_button.on_click(lambda _: self.jump(self.jump_kind.value))

        controls = widgets.HBox([self.first_button, self.back_button, self.step_button,
                                 self.end_button, self.play, self.jump_kind, self.jump_button])
        self.children = [
            widgets.HBox([self.image, self.panel]),
            self.text,
            controls,
            widgets.HBox([self.slider, self.speed]),
        ]
        self._show(0)

    # -- moving ------------------------------------------------------------------------------
    @property
    def position(self) -> int:
        """How many events have been replayed (0 = the initial state)."""
        return self.slider.value

    def go(self, position: int) -> None:
        """Jump to `position` (clamped to 0..len(trace)); the picture and text follow."""
        self.slider.value = max(0, min(len(self.trace), position))

    def jump(self, kind: str) -> bool:
        """Go to the next event of `kind` ("assign", "wipeout", ...); False if there is none."""
        counts = self._counts[kind]
        position = self.position
        target = bisect_right(counts, counts[position])
        if target > len(self.trace):
            return False
        self.go(target)
        return True

    def _moved(self, change: dict) -> None:
        self._show(change["new"])

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
        """The current position in words, as the line of text shows it."""
        total = len(self.trace)
        event = self.event
        if event is None:
            more = " (the trace was cut short)" if self.trace.truncated else ""
            return f"start: the initial domains; {total} events follow{more}"
        where = f"event {self.position} of {total}, depth {event.depth}"
        return f"{where}: {self.describe(event)}"

    def _show(self, position: int) -> None:
        domains = self.trace.domains_at(position - 1)
        event = self.trace[position - 1] if position else None

        def draw(ax: Axes) -> None:
            self.draw(ax, domains, event)
            if self.title:
                ax.set_title(self.title)

        show_png(self.image, draw_png(draw, self.figsize, self.dpi))
        self.text.value = f"<b>{html.escape(self.sentence())}</b>"
        self.panel.value = _panel(self._counts, position, domains)


def _button(icon: str, tooltip: str) -> widgets.Button:
    """A small button showing a Font Awesome icon (the tooltip says what it does)."""
    return widgets.Button(icon=icon, tooltip=tooltip, layout=widgets.Layout(width="3.2em"))


def _running_counts(trace: Trace) -> dict[str, list[int]]:
    """For each kind of event, how many happened in the first k events (k = 0..len)."""
    kinds = [event.kind for event in trace]
    return {kind: list(accumulate((k == kind for k in kinds), initial=0)) for kind in KINDS}


_PANEL_ROWS = (
    (ASSIGN, "assignments (nodes)"),
    (PRUNE, "values pruned"),
    (WIPEOUT, "wipe-outs"),
    (BACKTRACK, "backtracks"),
    (SOLUTION, "solutions"),
)


def _panel(counts: dict[str, list[int]], position: int,
           domains: dict[Hashable, tuple[Any, ...]]) -> str:
    rows = [(label, counts[kind][position]) for kind, label in _PANEL_ROWS]
    fixed = sum(1 for d in domains.values() if len(d) == 1)
    rows.append(("variables with one value", f"{fixed} of {len(domains)}"))
    rows.append(("values left", sum(len(d) for d in domains.values())))
    cells = "".join(
        f"<tr><td>{html.escape(label)}</td><td style='text-align:right'><b>{value}</b></td></tr>"
        for label, value in rows
    )
    return f"<div><b>so far</b><table>{cells}</table></div>"
