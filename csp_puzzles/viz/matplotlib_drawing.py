"""Any picture description (`csp_puzzles.puzzle.picture`) drawn with matplotlib, for PNG files.

The explorer draws a description in the browser; this module draws the same description,
shape for shape and colour for colour, on a matplotlib `Axes`, so that a PNG (`csp-puzzles
solve --png`, `draw_puzzle(ax, puzzle)`) looks like the explorer's picture. It also makes
the PNG of a `Stepper` given a `draw(ax, domains, event)` of one's own (`draw_png`).
Nothing else in the package draws with matplotlib (the benchmarks' performance profiles
aside, bench/report.py), and nothing imports this module until a PNG is asked for:
matplotlib is an optional package, imported inside the functions that draw. Figures are
built with `matplotlib.figure.Figure`, not pyplot, so no figure is ever shown twice by the
inline backend and none is left open.

`domains` maps each variable's key (`picture.key(var)`) to the keys of its values left; a
variable missing from it is drawn blank. With `marks=False`, a variable with more than one
value left is drawn blank too (the puzzle as printed, with no pencil marks).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..puzzle import picture as pic
from ..puzzle.picture import Picture, Shape
from ..puzzle.protocol import Puzzle

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: (variable key, value key or None, colour): outlines drawn over the picture
Outline = tuple[str, "str | None", str]

EMPTY = "#f3c6c6"          # a domain with no value left
TEXT = "#222"
AXES_TEXT = "#777"
PENCIL = "#595959"
NONE_LEFT = "#b71c1c"      # the sign and colour of a domain with no value left
BRIDGE = "#5b3a1a"
PAD_WITH_AXES, PAD = 0.75, 0.1   # room round the bounds, as the explorer leaves it
INCHES_PER_UNIT = 0.6      # a grid cell at most this big in a figure made here
LONGEST_SIDE = 7.0         # inches, unless text would get smaller than SMALLEST_POINTS
SMALLEST_POINTS = 6.0


class _Painter:
    """Draws in picture units on an axes whose y axis points down; `ppu` is points per unit,
    so that text and line widths given in units come out at the right size."""

    def __init__(self, ax: Any, ppu: float):
        self.ax = ax
        self.ppu = ppu
        self.z = 1.0

    def _next(self) -> float:
        self.z += 0.01
        return self.z

    def rect(self, x: float, y: float, w: float, h: float, fill: str | None = None,
             stroke: str | None = None, width: float = 0.0, **style: Any) -> None:
        from matplotlib.patches import Rectangle

        self.ax.add_patch(Rectangle((x, y), w, h, facecolor=_paint(fill),
                                    edgecolor=_paint(stroke), linewidth=width * self.ppu,
                                    zorder=self._next(), **style))

    def circle(self, x: float, y: float, r: float, fill: str | None = None,
               stroke: str | None = None, width: float = 0.0) -> None:
        from matplotlib.patches import Circle

        self.ax.add_patch(Circle((x, y), r, facecolor=_paint(fill), edgecolor=_paint(stroke),
                                 linewidth=width * self.ppu, zorder=self._next()))

    def polygon(self, points: Sequence[Sequence[float]], fill: str | None,
                alpha: float = 1.0) -> None:
        from matplotlib.patches import Polygon

        self.ax.add_patch(Polygon([tuple(p) for p in points], closed=True,
                                  facecolor=_paint(fill), edgecolor="none", alpha=alpha,
                                  zorder=self._next()))

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str | None,
             width: float, dash: Sequence[float] | None = None, alpha: float = 1.0,
             cap: str = "round") -> None:
        points = max(width * self.ppu, 0.1)
        style: dict[str, Any] = {}
        if dash:  # matplotlib scales dash lengths by the line width
            style["dashes"] = [max(d * self.ppu / points, 0.1) for d in dash]
        self.ax.plot([x1, x2], [y1, y2], color=_paint(stroke), linewidth=points, alpha=alpha,
                     solid_capstyle=cap, dash_capstyle="butt", zorder=self._next(), **style)

    def text(self, x: float, y: float, content: str, size: float, colour: str = TEXT,
             bold: bool = False, halo: bool = False) -> None:
        extra: dict[str, Any] = {}
        if halo:
            from matplotlib import patheffects

            extra["path_effects"] = [patheffects.withStroke(linewidth=0.12 * self.ppu,
                                                            foreground="white")]
        self.ax.text(x, y, content, ha="center", va="center_baseline", color=_paint(colour),
                     fontsize=size * self.ppu, fontweight="bold" if bold else "normal",
                     zorder=self._next(), **extra)


def _paint(colour: str | None) -> str:
    return "none" if colour in (None, "none", "transparent") else str(colour)


# -- fixed shapes --------------------------------------------------------------------------
def _shape(paint: _Painter, s: Shape, fill: str | None = None) -> None:
    kind = s["type"]
    if kind == "rect":
        paint.rect(s["x"], s["y"], s["w"], s["h"], s.get("fill"), s.get("stroke"),
                   s.get("width", 0.0) if s.get("stroke") else 0.0)
    elif kind == "line":
        paint.line(s["x1"], s["y1"], s["x2"], s["y2"], s.get("stroke", TEXT),
                   s.get("width", 0.03), s.get("dash"))
    elif kind == "circle":
        paint.circle(s["x"], s["y"], s["r"], fill or s.get("fill"), s.get("stroke"),
                     s.get("width", 0.0) if s.get("stroke") else 0.0)
    elif kind == "polygon":
        paint.polygon(s["points"], s.get("fill"))
    else:
        paint.text(s["x"], s["y"], s["text"], s.get("size", 0.5), s.get("colour", TEXT),
                   bool(s.get("bold")))


# -- variables, by how their domain is shown (the explorer's SHOW) -----------------------------
def _digits(paint: _Painter, p: Shape, left: list[str], every: list[str]) -> None:
    fill = EMPTY if not left else ("#f2f2f2" if p.get("given") else "#fff")
    paint.rect(p["x"], p["y"], p["w"], p["h"], fill, "#555", 0.025)
    if len(left) == 1:
        paint.text(p["x"] + p["w"] / 2, p["y"] + p["h"] * 0.53, left[0], 0.6 * p["h"],
                   "#111" if p.get("given") else "#1f4fa8", bold=True)
        return
    if not left:
        paint.text(p["x"] + p["w"] / 2, p["y"] + p["h"] / 2, "∅", 0.5 * p["h"], NONE_LEFT)
        return
    order = p.get("layout") or every
    per = math.ceil(math.sqrt(len(order))) or 1
    for key in left:
        i = order.index(key) if key in order else 0
        paint.text(p["x"] + p["w"] * ((i % per) + 0.5) / per,
                   p["y"] + p["h"] * (i // per + 0.55) / per, key, 0.78 * p["h"] / per, PENCIL)


def _shade(paint: _Painter, p: Shape, left: list[str], every: list[str]) -> None:
    decided = len(left) == 1
    on = decided and left[0] == p.get("on")
    fill = EMPTY if not left else "#333" if on else "#fff" if decided else "#e8eef7"
    paint.rect(p["x"], p["y"], p["w"], p["h"], fill, "#888", 0.025)
    cx, cy = p["x"] + p["w"] / 2, p["y"] + p["h"] / 2
    if decided and not on:
        paint.circle(cx, cy, 0.36 * p["h"], None, "#2e6b22", 0.05)
    paint.text(cx, cy, p.get("label", ""), 0.5 * p["h"], "#fff" if on else TEXT, bold=decided)
    if not left:
        paint.text(p["x"] + p["w"] * 0.8, p["y"] + p["h"] * 0.22, "∅", 0.3 * p["h"], NONE_LEFT)


def _colour(paint: _Painter, p: Shape, left: list[str], every: list[str]) -> None:
    colours = p.get("colours") or {}
    round_ = "r" in p
    cx, cy = (p["x"], p["y"]) if round_ else (p["x"] + p["w"] / 2, p["y"] + p["h"] / 2)
    r = p["r"] if round_ else min(p["w"], p["h"]) / 2

    def outline(fill: str | None, stroke: str | None = None, width: float = 0.0) -> None:
        if round_:
            paint.circle(cx, cy, r, fill, stroke, width)
        else:
            paint.rect(p["x"], p["y"], p["w"], p["h"], fill, stroke, width)

    if len(left) == 1:
        outline(colours.get(left[0], left[0]))
    else:
        outline("#fff" if left else EMPTY)
        if not left and not p.get("label"):
            paint.text(cx, cy, "∅", 0.9 * r, NONE_LEFT)
        share = 2 * math.pi / max(len(left), 1)
        for i, key in enumerate(left):
            paint.polygon(_wedge(cx, cy, r * 0.8, i * share, (i + 1) * share),
                          colours.get(key, key), alpha=0.55)
    outline(None, TEXT, 0.03)
    if p.get("label"):
        paint.text(cx, cy, p["label"], 0.55 * r, "#111", bold=True, halo=True)


def _wedge(x: float, y: float, r: float, start: float, end: float) -> list[tuple[float, float]]:
    """A pie slice from angle `start` to `end`, clockwise from the top (y points down)."""
    steps = max(2, int(24 * (end - start) / math.pi))
    arc = [start + (end - start) * k / steps for k in range(steps + 1)]
    return [(x, y)] + [(x + r * math.sin(a), y - r * math.cos(a)) for a in arc]


def _list(paint: _Painter, p: Shape, left: list[str], every: list[str]) -> None:
    fill = "#9ec1e8" if len(left) == 1 else "#fff" if left else "#ffd0d0"
    paint.circle(p["x"], p["y"], p["r"], fill, TEXT, 0.03)
    if p.get("label"):
        paint.text(p["x"], p["y"] - p["r"] - 0.3, p["label"], 0.34, bold=True)
    if not left:
        paint.text(p["x"], p["y"], "empty", 0.3, "#a00")
        return
    lines = [" ".join(left[i:i + 3]) for i in range(0, len(left), 3)]
    size = 0.5 if len(left) == 1 else 0.3
    for i, words in enumerate(lines):
        paint.text(p["x"], p["y"] + (i - (len(lines) - 1) / 2) * size * 1.15, words, size)


def _bridges(paint: _Painter, p: Shape, left: list[str], every: list[str]) -> None:
    counts = sorted(int(k) for k in left)
    sure = counts[0] if counts else 0
    dx, dy = p["x2"] - p["x1"], p["y2"] - p["y1"]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    for i in range(sure):
        s = (i - (sure - 1) / 2) * 0.13
        paint.line(p["x1"] + nx * s, p["y1"] + ny * s, p["x2"] + nx * s, p["y2"] + ny * s,
                   BRIDGE, 0.06, cap="butt")
    if len(counts) == 1:
        return
    paint.line(p["x1"], p["y1"], p["x2"], p["y2"], "#8a8a8a" if counts else NONE_LEFT, 0.03,
               dash=(0.1, 0.1), cap="butt")
    label = "".join(left) if counts else "∅"
    mx, my = p.get("mark") or ((p["x1"] + p["x2"]) / 2, (p["y1"] + p["y2"]) / 2)
    w = 0.12 + 0.19 * len(label)
    from matplotlib.patches import FancyBboxPatch

    paint.ax.add_patch(FancyBboxPatch((mx - w / 2, my - 0.17), w, 0.34,
                                      boxstyle="round,pad=0,rounding_size=0.08",
                                      facecolor="#fff", alpha=0.85, edgecolor="none",
                                      zorder=paint._next()))
    paint.text(mx, my, label, 0.3, "#555" if counts else NONE_LEFT)


def _places(paint: _Painter, p: Shape, left: list[str], every: list[str]) -> None:
    keep = set(left)
    symbol = p.get("symbol")
    for key in every:
        x, y = p["places"][key]
        if key not in keep:
            m = 0.28
            for a, b, c, d in ((m, m, 1 - m, 1 - m), (m, 1 - m, 1 - m, m)):
                paint.line(x + a, y + b, x + c, y + d, "#b22222", 0.05,
                           alpha=1.0 if symbol else 0.8)
        elif len(left) == 1 and symbol:
            paint.text(x + 0.5, y + 0.54, symbol, 0.72, "#111")
        elif symbol:
            paint.circle(x + 0.5, y + 0.5, 0.07, "#555")
        else:
            one = len(left) == 1
            paint.rect(x + 0.08, y + 0.08, 0.84, 0.84, "#2f5f9e" if one else "#cfe0f3")
            paint.text(x + 0.5, y + 0.5, key, 0.36, "#fff" if one else "#223")
    if not left and every:
        xs = [p["places"][k][0] for k in every]
        ys = [p["places"][k][1] for k in every]
        paint.rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1, "#d62728",
                   alpha=0.25)


SHOW = {"digits": _digits, "shade": _shade, "colour": _colour, "list": _list,
        "bridges": _bridges, "places": _places}


def _outline(paint: _Painter, p: Shape, value: str | None, colour: str) -> None:
    """The mark of the event shown: the variable, or one of its places, outlined."""
    if p["show"] == "bridges":
        paint.line(p["x1"], p["y1"], p["x2"], p["y2"], colour, 0.3, alpha=0.5)
    elif p["show"] == "places":
        keys = [value] if value in p["places"] else list(p["places"])
        xs = [p["places"][k][0] for k in keys]
        ys = [p["places"][k][1] for k in keys]
        paint.rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1, None,
                   colour, 0.1)
    elif "r" in p:
        paint.circle(p["x"], p["y"], p["r"] * 1.25, None, colour, 0.1)
    else:
        paint.rect(p["x"], p["y"], p["w"], p["h"], None, colour, 0.1)


# -- the whole picture ---------------------------------------------------------------------
def frame(picture: Picture) -> tuple[float, float, float, float]:
    """What is shown, (left, top, width, height) in picture units: the bounds and a margin
    (room for the row and column numbers when the picture has them)."""
    x0, y0, x1, y1 = picture["bounds"]
    pad = PAD_WITH_AXES if picture.get("axes") else PAD
    return x0 - pad, y0 - pad, x1 - x0 + pad + 0.1, y1 - y0 + pad + 0.1


def draw(ax: Any, picture: Picture, domains: Mapping[str, Sequence[str]] | None = None,
         marks: bool = True, outlines: Iterable[Outline] = ()) -> None:
    """Draw `picture` on `ax` with every variable showing its values in `domains`."""
    left, top, width, height = frame(picture)
    ax.set_xlim(left, left + width)
    ax.set_ylim(top + height, top)  # y points down, as in the picture
    ax.set_aspect("equal")
    ax.axis("off")
    paint = _Painter(ax, _points_per_unit(ax, width, height))
    if picture.get("background"):
        paint.rect(left, top, width, height, picture["background"])
    for s in picture.get("shapes", []):
        _shape(paint, s)
    _axes_numbers(paint, picture)
    domains = domains or {}
    placed: dict[str, Shape] = {}
    for p in picture["variables"]:
        placed[p["var"]] = p
        every = [str(k) for k in _every_value(p, domains)]
        left_now = [str(k) for k in domains.get(p["var"], ())]
        if p["var"] not in domains or (not marks and len(left_now) > 1):
            _blank(paint, p)
            continue
        SHOW[p["show"]](paint, p, left_now, every)
    decided = {var for var, values in domains.items() if len(values) == 1}
    for s in picture.get("over", []):
        vars_ = s.get("decided") or []
        done = bool(vars_) and all(v in decided for v in vars_)
        _shape(paint, s, s.get("decided_fill") if done else None)
    for var, value, colour in outlines:
        if var in placed:
            _outline(paint, placed[var], value, colour)


def _every_value(p: Shape, domains: Mapping[str, Sequence[str]]) -> list[str]:
    if p["show"] == "places":
        return list(p["places"])
    return list(p.get("layout") or domains.get(p["var"], ()))


def _blank(paint: _Painter, p: Shape) -> None:
    """A variable as the printed puzzle shows it: its cell or disc with no value in it."""
    show = p["show"]
    if show == "digits":
        paint.rect(p["x"], p["y"], p["w"], p["h"], "#fff", "#555", 0.025)
    elif show == "shade":
        paint.rect(p["x"], p["y"], p["w"], p["h"], "#fff", "#888", 0.025)
        paint.text(p["x"] + p["w"] / 2, p["y"] + p["h"] / 2, p.get("label", ""), 0.5 * p["h"])
    elif "r" in p:  # a disc, `colour` or `list`
        paint.circle(p["x"], p["y"], p["r"], "#fff", TEXT, 0.03)
        if p.get("label") and show == "list":
            paint.text(p["x"], p["y"] - p["r"] - 0.3, p["label"], 0.34, bold=True)
        elif p.get("label"):
            paint.text(p["x"], p["y"], p["label"], 0.55 * p["r"], "#111", bold=True)
    elif show == "colour":
        paint.rect(p["x"], p["y"], p["w"], p["h"], "#fff", TEXT, 0.03)


def _axes_numbers(paint: _Painter, picture: Picture) -> None:
    axes = picture.get("axes")
    if not axes:
        return
    x0, y0 = picture["bounds"][0], picture["bounds"][1]
    for c in range(int(axes["cols"])):
        paint.text(axes["x"] + c + 0.5, y0 - 0.4, str(int(axes["col0"]) + c), 0.3, AXES_TEXT)
    for r in range(int(axes["rows"])):
        paint.text(x0 - 0.4, axes["y"] + r + 0.5, str(int(axes["row0"]) + r), 0.3, AXES_TEXT)


def _points_per_unit(ax: Any, width: float, height: float) -> float:
    """Points per picture unit on `ax` (equal aspect: the tighter of the two directions)."""
    figure = ax.figure
    box = ax.get_position()
    inches = min(box.width * figure.get_figwidth() / width,
                 box.height * figure.get_figheight() / height)
    return inches * 72


def _smallest_text(picture: Picture) -> float:
    """The smallest text size of the picture, in units (pencil marks included)."""
    smallest = 0.3
    for p in picture["variables"]:
        if p["show"] == "digits":
            n = len(p.get("layout") or []) or 9
            smallest = min(smallest, 0.78 * p["h"] / math.ceil(math.sqrt(n)))
    for s in list(picture.get("shapes", [])) + list(picture.get("over", [])):
        if s["type"] == "text":
            smallest = min(smallest, s.get("size", 0.5))
    return smallest


def figure_size(picture: Picture) -> tuple[float, float]:
    """Inches for a figure of `picture`: cells up to 0.6 inch, the longest side about 7
    inches, but never so small that text falls under 6 points."""
    _, _, width, height = frame(picture)
    scale = min(INCHES_PER_UNIT, LONGEST_SIDE / max(width, height))
    scale = max(scale, SMALLEST_POINTS / 72 / _smallest_text(picture))
    return width * scale, height * scale


def figure(picture: Picture, domains: Mapping[str, Sequence[str]] | None = None,
           marks: bool = True, outlines: Iterable[Outline] = (), title: str = "") -> Any:
    """A matplotlib `Figure` (not pyplot: nothing is shown or left open) of `picture`."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=figure_size(picture))
    ax = fig.add_axes((0, 0, 1, 1))
    draw(ax, picture, domains, marks, outlines)
    if title:
        ax.set_title(title)
    return fig


def png(picture: Picture, domains: Mapping[str, Sequence[str]] | None = None,
        marks: bool = True, outlines: Iterable[Outline] = (), dpi: int = 100,
        title: str = "") -> bytes:
    """The picture as PNG bytes."""
    return figure_png(figure(picture, domains, marks, outlines, title), dpi, tight=False)


def figure_png(fig: Any, dpi: int = 80, tight: bool = True) -> bytes:
    """The matplotlib figure as PNG bytes (`tight`: cropped to what is drawn)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight" if tight else None)
    return buffer.getvalue()


def draw_png(draw: Callable[[Axes], None], figsize: tuple[float, float] = (4.5, 4.5),
             dpi: int = 80) -> bytes:
    """Call `draw(ax)` on a fresh figure with one matplotlib axes and return the PNG."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize)
    draw(fig.add_subplot())
    return figure_png(fig, dpi)


def draw_puzzle(ax: Any, puzzle: Puzzle, solution: Any = None,
                domains: Mapping[Any, Sequence[Any]] | None = None) -> None:
    """Draw `puzzle` on a matplotlib `ax`: as printed, solved, or at a trace state
    (`domains`, as `trace.domains_at(i)` gives them), as the explorer draws it."""
    picture = puzzle.picture()
    draw(ax, picture, _puzzle_domains(puzzle, picture, solution, domains))


def puzzle_figure(puzzle: Puzzle, solution: Any = None) -> Any:
    """A `Figure` of `puzzle`, solved when `solution` is given, at `figure_size` (what
    `csp-puzzles solve --png` saves)."""
    picture = puzzle.picture()
    return figure(picture, _puzzle_domains(puzzle, picture, solution, None))


def _puzzle_domains(puzzle: Puzzle, picture: Picture, solution: Any,
                    domains: Mapping[Any, Sequence[Any]] | None) -> dict[str, list[str]]:
    """The domains a puzzle is drawn at, keyed as the picture keys them: `domains`, else
    the solution's, else the puzzle as printed (only the givens have their value)."""
    if domains is None and solution is not None:
        domains = puzzle.solution_domains(solution)
    elif domains is None:
        givens = {entry["var"] for entry in picture["variables"] if entry.get("given")}
        domains = {v: d for v, d in puzzle.to_csp().domains.items() if pic.key(v) in givens}
    return pic.keyed(domains)
