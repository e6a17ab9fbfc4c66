"""Charts as picture descriptions: bars and lines made of plain shapes; runs summarised.

A chart is a `csp_puzzles.puzzle.picture` description with no variables, so that the browser draws
it like any other picture (no matplotlib in the notebook) and `matplotlib_drawing` turns it
into a PNG when one is wanted. Scales are `linear`, `log` (powers of ten) or `symlog`
(log10(1 + x): like log, but 0 has a place, for counts that start at 0).

The plot area is `WIDTH` x `HEIGHT` picture units; text is centred on its position, so
labels are placed by their estimated width.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..core.strategies import Run
from ..puzzle import picture as pic

WIDTH, HEIGHT = 10.0, 5.0          # the plot area, in picture units
LEFT, TOP = 2.0, 1.5               # its top-left corner (room for the title, legend, y labels)
TEXT_SIZE = 0.3
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
AXIS = "#444"
GRID = "#e4e4e4"
SCALES = ("linear", "log", "symlog")


def text_width(text: str, size: float = TEXT_SIZE) -> float:
    """About how wide `text` is written at `size` (sans-serif digits and letters)."""
    return 0.56 * size * len(text)


class Scale:
    """Values to positions along one axis, and the ticks to write."""

    def __init__(self, kind: str, low: float, high: float, start: float, length: float):
        if kind not in SCALES:
            raise ValueError(f"unknown scale {kind!r}, expected one of {', '.join(SCALES)}")
        if kind == "log" and low <= 0:
            raise ValueError("a log scale needs values above 0 (use symlog for counts from 0)")
        self.kind = kind
        ticks = self.ticks_for(low, high)
        self.low, self.high = ticks[0], ticks[-1]
        self.start, self.length = start, length

    def _t(self, value: float) -> float:
        if self.kind == "log":
            return math.log10(value)
        if self.kind == "symlog":
            return math.copysign(math.log10(1 + abs(value)), value)
        return value

    def at(self, value: float) -> float:
        """The position of `value` along the axis."""
        low, high = self._t(self.low), self._t(self.high)
        return self.start + self.length * (self._t(value) - low) / ((high - low) or 1.0)

    def ticks_for(self, low: float, high: float) -> list[float]:
        """Round values from below `low` to above `high`: powers of ten on log scales,
        steps of 1, 2 or 5 times a power of ten on a linear one."""
        if self.kind == "log":
            first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
            return [10.0 ** k for k in range(first, max(last, first + 1) + 1)]
        if self.kind == "symlog":
            last = max(math.ceil(math.log10(max(high, 1))), 1)
            return [0.0] + [10.0 ** k for k in range(last + 1)]
        span = (high - low) or abs(high) or 1.0
        step = 10 ** math.floor(math.log10(span / 5))
        step *= next(m for m in (1, 2, 5, 10) if span / (step * m) <= 6)
        first, last = math.floor(low / step), math.ceil(high / step)
        return [k * step for k in range(first, last + 1)]

    def ticks(self) -> list[float]:
        return self.ticks_for(self.low, self.high)


def tick_label(value: float) -> str:
    if value == int(value) and abs(value) < 1e6:
        return str(int(value))
    return f"{value:g}"


def _frame(x: Scale, y: Scale, title: str, xlabel: str, ylabel: str,
           x_ticks: bool = True) -> list[pic.Shape]:
    """Grid lines, axes, ticks and their labels, the titles."""
    shapes = []
    bottom = TOP + HEIGHT
    for value in y.ticks():
        at = y.at(value)
        shapes.append(pic.line(LEFT, at, LEFT + WIDTH, at, stroke=GRID, width=0.02))
        words = tick_label(value)
        shapes.append(pic.label(LEFT - 0.15 - text_width(words) / 2, at, words, TEXT_SIZE, AXIS))
    if x_ticks:
        for value in x.ticks():
            at = x.at(value)
            shapes.append(pic.line(at, bottom, at, bottom + 0.1, stroke=AXIS, width=0.02))
            shapes.append(pic.label(at, bottom + 0.35, tick_label(value), TEXT_SIZE, AXIS))
    shapes.append(pic.line(LEFT, bottom, LEFT + WIDTH, bottom, stroke=AXIS, width=0.03))
    shapes.append(pic.line(LEFT, TOP, LEFT, bottom, stroke=AXIS, width=0.03))
    if xlabel:
        shapes.append(pic.label(LEFT + WIDTH / 2, bottom + 0.85, xlabel, 0.32))
    if ylabel:
        shapes.append(pic.label(LEFT - 0.6 + text_width(ylabel, 0.32) / 2, TOP - 0.35, ylabel,
                                0.32))
    if title:
        shapes.append(pic.label(LEFT + WIDTH / 2, 0.3, title, 0.36, bold=True))
    return shapes


def _legend(names: Sequence[str], ylabel: str) -> list[pic.Shape]:
    """A short line in each series' colour and its name, in a row over the plot's right
    end (under the y axis's label when they would meet)."""
    widths = [0.55 + text_width(name) + 0.35 for name in names]
    x = LEFT + WIDTH - sum(widths)
    y = TOP - 0.35
    if x < LEFT - 0.6 + text_width(ylabel, 0.32) + 0.4:
        y = TOP - 0.8
    shapes = []
    for i, (name, width) in enumerate(zip(names, widths)):
        shapes.append(pic.line(x, y, x + 0.45, y, stroke=COLOURS[i % len(COLOURS)], width=0.06))
        shapes.append(pic.label(x + 0.55 + text_width(name) / 2, y, name, TEXT_SIZE))
        x += width
    return shapes


def _right_end(x: Scale) -> float:
    """The picture's right edge: room for half the last tick's label."""
    return LEFT + WIDTH + max(0.3, text_width(tick_label(x.ticks()[-1])) / 2 + 0.1)


def bar_chart(labels: Sequence[str], values: Sequence[float],
              colours: Sequence[str] | None = None, scale: str = "linear", title: str = "",
              ylabel: str = "") -> pic.Picture:
    """One bar per label, its value written on top."""
    if not values:
        raise ValueError("a bar chart needs at least one value")
    low = min(values) if scale == "log" else min(0.0, min(values))
    y = Scale(scale, low, max(values) * (1.15 if scale == "linear" else 1.0), TOP + HEIGHT,
              -HEIGHT)
    x = Scale("linear", 0, len(values), LEFT, WIDTH)
    slot = WIDTH / len(values)
    shapes = _frame(x, y, title, "", ylabel, x_ticks=False)
    base = y.at(y.low)
    for i, (name, value) in enumerate(zip(labels, values)):
        left = LEFT + slot * (i + 0.15)
        top = y.at(value)
        colour = (colours or COLOURS)[i % len(colours or COLOURS)]
        shapes.append(pic.rect(left, top, slot * 0.7, base - top, fill=colour))
        shapes.append(pic.label(left + slot * 0.35, top - 0.22, tick_label(value), TEXT_SIZE))
        shapes.append(pic.label(left + slot * 0.35, TOP + HEIGHT + 0.35, name, TEXT_SIZE))
    return pic.picture((0, 0, LEFT + WIDTH + 0.3, TOP + HEIGHT + 0.8), [], shapes)


def line_chart(series: Mapping[str, tuple[Sequence[float], Sequence[float]]],
               xscale: str = "linear", yscale: str = "linear", title: str = "",
               xlabel: str = "", ylabel: str = "", steps: bool = False,
               dots: bool = False) -> pic.Picture:
    """Each named series, (xs, ys), as a line in its own colour, with a legend.

    `steps` draws each value as holding until the next x (counts that jump); `dots` marks
    every point."""
    xs = [x for xs_, _ in series.values() for x in xs_]
    ys = [y for _, ys_ in series.values() for y in ys_]
    if not xs:
        raise ValueError("a line chart needs at least one point")
    x = Scale(xscale, min(xs), max(xs), LEFT, WIDTH)
    y = Scale(yscale, min(ys) if yscale == "log" else min(0.0, min(ys)), max(ys),
              TOP + HEIGHT, -HEIGHT)
    shapes = _frame(x, y, title, xlabel, ylabel)
    for i, (xs_, ys_) in enumerate(series.values()):
        colour = COLOURS[i % len(COLOURS)]
        points = [(x.at(a), y.at(b)) for a, b in zip(xs_, ys_)]
        if steps:
            points = [p for (a, b), (c, _) in zip(points, points[1:] + points[-1:])
                      for p in ((a, b), (c, b))]
        for (a, b), (c, d) in zip(_corners(points), _corners(points)[1:]):
            shapes.append(pic.line(a, b, c, d, stroke=colour, width=0.05))
        if dots:
            shapes += [pic.circle(a, b, 0.08, fill=colour, stroke=None) for a, b in points]
    shapes += _legend(list(series), ylabel)
    return pic.picture((0, 0, _right_end(x), TOP + HEIGHT + 1.1), [], shapes)


def _corners(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The points where the line turns: a run of points on one straight line keeps only its
    ends (long flat stretches of a count become one segment)."""
    kept: list[tuple[float, float]] = []
    for point in points:
        if len(kept) >= 2 and _collinear(kept[-2], kept[-1], point):
            kept[-1] = point
        else:
            kept.append(point)
    return kept


def _collinear(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> bool:
    return abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) < 1e-9


# -- runs of `strategies.compare`, summarised -------------------------------------------------
#: bar colours of the node chart, by inference
INFERENCE_COLOURS = {"none": "#c0504d", "fc": "#f79646", "mac": "#4f81bd"}


def table(runs: Sequence[Run]) -> str:
    """A plain-text table of the runs (no timings, so it reads the same every time)."""
    lines = [f"{'strategy':<14}{'status':<15}{'nodes':>8}{'backtracks':>12}{'prunings':>10}"]
    for run in runs:
        stats = run.result.stats
        lines.append(f"{run.label:<14}{run.result.status:<15}{stats.nodes:>8}"
                     f"{stats.backtracks:>12}{stats.prunings:>10}")
    return "\n".join(lines)


def node_chart(runs: Sequence[Run], log: bool = False) -> pic.Picture:
    """Bars of node counts, one per run, coloured by inference, with the count written on
    each bar (a picture description: show it, or draw it as a PNG)."""
    return bar_chart([run.label for run in runs], [run.nodes for run in runs],
                     [INFERENCE_COLOURS.get(run.inference, "grey") for run in runs],
                     scale="log" if log else "linear", ylabel="nodes (assignments tried)")
