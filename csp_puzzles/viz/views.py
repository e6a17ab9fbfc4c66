"""Ready-made drawings of search states, for `Stepper` and for still pictures.

A view is called as `view(ax, domains, event)`; it also knows how to word events about its
variables (`view.describe(event)`) and what picture size suits it (`view.figsize`).

- `queens_view(n)`: the N-queens board; a queen where a column has one row left, a cross on
  every square pruned (attacked by a queen, or ruled out by propagation);
- `map_view()`: map colouring drawn as its constraint graph; an undecided region shows its
  remaining colours as slices;
- `graph_view(csp)`: any CSP as its constraint graph, the constraint at work in orange;
- `domain_grid_view(csp)`: any CSP as a table, one row per variable, one column per value;
- `puzzle_view(puzzle)`: a puzzle's own `render(ax, domains=...)`.

The event that led to the state is outlined (a square, a cell, a region, a bridge): gold for
an assignment, orange for a pruned value, red for a wipe-out.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from contextlib import suppress
from typing import Any

from matplotlib.axes import Axes
from matplotlib.patches import Circle, Rectangle, Wedge

from .. import picture as pic
from ..core import CSP
from ..core.trace import ASSIGN, PRUNE, WIPEOUT, Event, show
from ..examples.australia import AUSTRALIA
from .words import Namer, describe, plain_name

#: a trace state's domains, keyed by variable names (each view knows their shape)
Domains = Mapping[Any, tuple[Any, ...]]
HIGHLIGHT = {ASSIGN: "gold", PRUNE: "darkorange", WIPEOUT: "red"}


class View:
    """A drawing function plus the words and the picture size that go with it, and the same
    picture as plain data (`picture`) for the explorer, which draws it in the browser."""

    def __init__(self, draw: Callable[[Axes, Domains, Event | None], None],
                 name: Namer | None = None, value: Callable[[Any], str] = str,
                 figsize: tuple[float, float] = (4.5, 4.5), verb: str | None = None,
                 picture: pic.Picture | None = None,
                 scopes: Mapping[str, Sequence[Hashable]] | None = None):
        self._draw = draw
        self.name = name
        self.value = value
        self.verb = verb
        self.figsize = figsize
        #: the same drawing as plain data, for the explorer's front end (None: PNG only)
        self.picture = picture
        #: which variables each constraint (by name) reads, to outline the cause of a pruning
        self.scopes = scopes

    def __call__(self, ax: Axes, domains: Domains, event: Event | None = None) -> None:
        self._draw(ax, domains, event)

    def describe(self, event: Event) -> str:
        """The event in this view's words."""
        return describe(event, self.name, self.value, self.verb)


# -- N-queens ---------------------------------------------------------------------------------
def queens_view(n: int) -> View:
    """The board of `examples.queens(n)`: variable = column, value = row."""

    def draw(ax: Axes, domains: Domains, event: Event | None) -> None:
        for row in range(n):
            for col in range(n):
                light = (row + col) % 2 == 0
                ax.add_patch(Rectangle((col, row), 1, 1, color="#f0d9b5" if light else "#b58863"))
        for col in range(n):
            rows = domains[col]
            for row in range(n):
                if row not in rows:
                    ax.plot([col + 0.25, col + 0.75], [row + 0.25, row + 0.75], color="firebrick",
                            lw=1.5)
                    ax.plot([col + 0.25, col + 0.75], [row + 0.75, row + 0.25], color="firebrick",
                            lw=1.5)
            if len(rows) == 1:
                ax.text(col + 0.5, rows[0] + 0.52, "♛", ha="center", va="center",
                        fontsize=max(8, 160 // n), color="black")
            if not rows:
                ax.add_patch(Rectangle((col, 0), 1, n, color="red", alpha=0.3))
        if event is not None and event.kind in HIGHLIGHT and event.var is not None:
            colour = HIGHLIGHT[event.kind]
            if event.kind == WIPEOUT:
                ax.add_patch(Rectangle((event.var, 0), 1, n, fill=False, ec=colour, lw=3))
            else:
                ax.add_patch(Rectangle((event.var, event.value), 1, 1, fill=False, ec=colour,
                                       lw=3))
        ax.set_xlim(0, n)
        ax.set_ylim(n, 0)
        ax.set_aspect("equal")
        ax.set_xticks([c + 0.5 for c in range(n)], [str(c) for c in range(n)])
        ax.set_yticks([r + 0.5 for r in range(n)], [str(r) for r in range(n)])
        ax.tick_params(length=0, labeltop=True, labelbottom=False)
        ax.set_xlabel("column (the variable)")
        ax.set_ylabel("row (the value)")

    squares = [pic.rect(col, row, 1, 1, fill="#f0d9b5" if (row + col) % 2 == 0 else "#d9b38c")
               for row in range(n) for col in range(n)]
    columns = [pic.places_variable(col, {row: (col, row) for row in range(n)},
                                   name=f"column {col}", symbol="♛") for col in range(n)]
    picture = pic.picture((0, 0, n, n), columns, squares, axes=pic.grid_axes(n, n))
    return View(draw, name=lambda col: f"column {col}", value=lambda row: f"row {row}",
                picture=picture)


# -- map colouring ---------------------------------------------------------------------------
#: rough centres of the Australian states and territories (longitude, latitude)
AUSTRALIA_POSITIONS: dict[str, tuple[float, float]] = {
    "WA": (121, -26), "NT": (133, -19.5), "SA": (135, -30), "Q": (145, -22),
    "NSW": (147, -32), "V": (144, -37.5), "T": (146.5, -43),
}


def map_view(neighbours: Mapping[str, Iterable[str]] = AUSTRALIA,
             positions: Mapping[str, tuple[float, float]] = AUSTRALIA_POSITIONS,
             radius: float = 2.2) -> View:
    """The constraint graph of `examples.map_colouring`: a node per region, an edge per border.

    Colour values are matplotlib colour names ("red", "green", "blue", ...).
    """

    def draw(ax: Axes, domains: Domains, event: Event | None) -> None:
        for region, others in neighbours.items():
            x0, y0 = positions[region]
            for other in others:
                x1, y1 = positions[other]
                ax.plot([x0, x1], [y0, y1], color="grey", lw=1.5, zorder=1)
        for region, (x, y) in positions.items():
            colours = domains[region]
            if len(colours) == 1:
                ax.add_patch(Circle((x, y), radius, color=colours[0], zorder=2))
            elif colours:
                share = 360 / len(colours)
                for i, colour in enumerate(colours):
                    ax.add_patch(Wedge((x, y), radius * 0.75, 90 + i * share, 90 + (i + 1) * share,
                                       color=colour, alpha=0.45, zorder=2))
            else:
                ax.add_patch(Circle((x, y), radius, fc="white", ec="red", lw=3, hatch="xx",
                                    zorder=2))
            ax.add_patch(Circle((x, y), radius, fill=False, ec="black", lw=1, zorder=3))
            ax.text(x, y, region, ha="center", va="center", fontsize=10, weight="bold", zorder=4)
        if event is not None and event.kind in HIGHLIGHT and event.var in positions:
            x, y = positions[event.var]
            ax.add_patch(Circle((x, y), radius * 1.3, fill=False, ec=HIGHLIGHT[event.kind], lw=4,
                                zorder=5))
        xs = [p[0] for p in positions.values()]
        ys = [p[1] for p in positions.values()]
        margin = radius * 1.6
        ax.set_xlim(min(xs) - margin, max(xs) + margin)
        ax.set_ylim(min(ys) - margin, max(ys) + margin)
        ax.set_aspect("equal")
        ax.axis("off")

    return View(draw, figsize=(4.5, 4.5), picture=_map_picture(neighbours, positions, radius))


def _map_picture(neighbours: Mapping[str, Iterable[str]],
                 positions: Mapping[str, tuple[float, float]], radius: float) -> pic.Picture:
    """Regions as discs (longitude to the right, latitude up), borders as lines."""
    scale = 1.0 / radius  # one region's radius is one unit
    x0 = min(x for x, _ in positions.values())
    y1 = max(y for _, y in positions.values())

    def at(region: str) -> tuple[float, float]:
        x, y = positions[region]
        return (x - x0) * scale + 1.5, (y1 - y) * scale + 1.5

    borders = [pic.line(*at(a), *at(b), stroke="#999", width=0.06)
               for a, others in neighbours.items() for b in others if a < b]
    regions = [pic.disc_variable(region, *at(region), 0.9, pic.COLOUR, label=region)
               for region in positions]
    width = max(at(r)[0] for r in positions) + 1.5
    height = max(at(r)[1] for r in positions) + 1.5
    return pic.picture((0, 0, width, height), regions, borders)


# -- any CSP as a constraint graph ------------------------------------------------------------
def graph_view(csp: CSP, positions: Mapping[Hashable, tuple[float, float]] | None = None,
               name: Namer = plain_name) -> View:
    """Any CSP as its constraint graph: a node per variable showing the values left, a line
    between two variables that share a constraint.

    The constraint that caused a pruning is drawn in orange. Nodes go round a circle unless
    `positions` places them.
    """
    import math

    variables = list(csp.variables)
    if positions is None:
        step = 2 * math.pi / max(len(variables), 1)
        positions = {v: (math.cos(math.pi / 2 - i * step), math.sin(math.pi / 2 - i * step))
                     for i, v in enumerate(variables)}
    pairs_of: dict[str, list[tuple[Hashable, Hashable]]] = {}
    for constraint in csp.constraints:
        scope = list(dict.fromkeys(constraint.scope))
        pairs = [(a, b) for i, a in enumerate(scope) for b in scope[i + 1:]]
        pairs_of.setdefault(constraint.name, []).extend(pairs)
    all_pairs = {pair for pairs in pairs_of.values() for pair in pairs}
    xs = [p[0] for p in positions.values()]
    ys = [p[1] for p in positions.values()]
    size = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    radius = size * 0.13

    def draw(ax: Axes, domains: Domains, event: Event | None) -> None:
        active = set()
        if event is not None and event.cause in pairs_of:
            active = set(pairs_of[event.cause])
        for a, b in all_pairs:
            (x0, y0), (x1, y1) = positions[a], positions[b]
            hot = (a, b) in active
            ax.plot([x0, x1], [y0, y1], color="darkorange" if hot else "grey",
                    lw=3 if hot else 1, zorder=1)
        for var in variables:
            x, y = positions[var]
            left = domains[var]
            face = "#9ec1e8" if len(left) == 1 else ("#ffd0d0" if not left else "white")
            ax.add_patch(Circle((x, y), radius, fc=face, ec="black", zorder=2))
            ax.text(x, y + radius * 1.35, name(var), ha="center", va="bottom", fontsize=10,
                    weight="bold", zorder=3)
            shown = _wrap([str(x) for x in left], 3) if left else "empty"
            ax.text(x, y, shown, ha="center", va="center", zorder=3,
                    fontsize=13 if len(left) == 1 else 7)
        if event is not None and event.kind in HIGHLIGHT and event.var in positions:
            x, y = positions[event.var]
            ax.add_patch(Circle((x, y), radius * 1.25, fill=False, ec=HIGHLIGHT[event.kind],
                                lw=3, zorder=4))
        margin = radius * 2.2
        ax.set_xlim(min(xs) - margin, max(xs) + margin)
        ax.set_ylim(min(ys) - margin, max(ys) + margin)
        ax.set_aspect("equal")
        ax.axis("off")

    scopes = {c.name: list(dict.fromkeys(c.scope)) for c in csp.constraints}
    return View(draw, name=name, figsize=(4.5, 4.5), scopes=scopes,
                picture=_graph_picture(variables, positions, pairs_of, name))


def _graph_picture(variables: list[Hashable], positions: Mapping[Hashable, tuple[float, float]],
                   pairs_of: Mapping[str, list[tuple[Hashable, Hashable]]],
                   name: Namer) -> pic.Picture:
    """Nodes listing their values, a line per pair of variables sharing a constraint (lit in
    orange while that constraint causes the event shown)."""
    xs = [p[0] for p in positions.values()]
    ys = [p[1] for p in positions.values()]
    scale = 2.2 * max(len(variables), 4) ** 0.5 / max(max(xs) - min(xs), max(ys) - min(ys), 1.0)

    def at(var: Hashable) -> tuple[float, float]:
        x, y = positions[var]
        return (x - min(xs)) * scale + 1.6, (max(ys) - y) * scale + 1.8

    lines = [pic.line(*at(a), *at(b), stroke="#aaa", width=0.04, cause=cause)
             for cause, pairs in pairs_of.items() for a, b in pairs]
    nodes = [pic.disc_variable(var, *at(var), 0.75, pic.LIST, label=name(var)) for var in variables]
    width = max(at(v)[0] for v in variables) + 1.6
    height = max(at(v)[1] for v in variables) + 1.4
    return pic.picture((0, 0, width, height), nodes, lines)


def _wrap(words: list[str], per_line: int) -> str:
    lines = [",".join(words[i:i + per_line]) for i in range(0, len(words), per_line)]
    return "\n".join(lines)


# -- any CSP as a table of domains -------------------------------------------------------------
def domain_grid_view(csp: CSP, name: Namer = plain_name) -> View:
    """One row per variable, one column per value: a filled square for each value left.

    A variable with one value left is dark; pruned values are empty squares.
    """
    variables = list(csp.variables)
    values = list(dict.fromkeys(x for v in variables for x in csp.domains[v]))
    with suppress(TypeError):  # values of mixed types keep their input order
        values.sort()
    column = {x: i for i, x in enumerate(values)}

    def draw(ax: Axes, domains: Domains, event: Event | None) -> None:
        for row, var in enumerate(variables):
            left = domains[var]
            for x in csp.domains[var]:
                colour = "#204a87" if len(left) == 1 else "#9ec1e8"
                ax.add_patch(Rectangle((column[x] + 0.1, row + 0.1), 0.8, 0.8,
                                       color=colour if x in left else "#eeeeee"))
            if not left:
                ax.add_patch(Rectangle((0, row), len(values), 1, color="red", alpha=0.3))
        if event is not None and event.kind in HIGHLIGHT and event.var in variables:
            row = variables.index(event.var)
            if event.kind == WIPEOUT or event.value not in column:
                ax.add_patch(Rectangle((0, row), len(values), 1, fill=False,
                                       ec=HIGHLIGHT[event.kind], lw=3))
            else:
                ax.add_patch(Rectangle((column[event.value], row), 1, 1, fill=False,
                                       ec=HIGHLIGHT[event.kind], lw=3))
        ax.set_xlim(0, len(values))
        ax.set_ylim(len(variables), 0)
        ax.set_aspect("equal")
        ax.set_xticks([i + 0.5 for i in range(len(values))], [str(x) for x in values])
        ax.set_yticks([i + 0.5 for i in range(len(variables))], [name(v) for v in variables])
        ax.tick_params(length=0, labeltop=True, labelbottom=False)

    height = min(9.0, 1.0 + 0.35 * len(variables))
    width = min(9.0, 1.5 + 0.35 * len(values))
    names = [name(v) for v in variables]
    margin = max(1.0, 0.2 * max((len(n) for n in names), default=1) + 0.4)
    shapes = [pic.label(margin + i + 0.5, -0.4, str(x), 0.32, "#555") for i, x in enumerate(values)]
    shapes += [pic.label(margin / 2, row + 0.5, names[row], 0.32, bold=True)
               for row in range(len(variables))]
    rows = [pic.places_variable(var, {x: (margin + column[x], row) for x in csp.domains[var]},
                                name=names[row]) for row, var in enumerate(variables)]
    picture = pic.picture((0, -0.8, margin + len(values), len(variables)), rows, shapes)
    scopes = {c.name: list(dict.fromkeys(c.scope)) for c in csp.constraints}
    return View(draw, name=name, figsize=(width, height), picture=picture, scopes=scopes)


# -- puzzles ---------------------------------------------------------------------------------
def puzzle_view(puzzle: Any, figsize: tuple[float, float] | None = None) -> View:
    """A puzzle's own picture: `puzzle.picture()` for the explorer, `puzzle.render` for PNGs.

    The trace must come from the same model (`puzzle.to_csp(...)` with the same options).
    Events are worded in the puzzle's terms ("edge (2,0)-(2,5)", "cell (1,3)", "shaded"),
    taken from the names and value words of its picture.
    """
    picture = puzzle.picture()
    names = {entry["var"]: entry["name"] for entry in picture["variables"] if "name" in entry}
    words = picture.get("value_words") or {}

    def name(var: Hashable) -> str:
        return names.get(pic.key(var), plain_name(var))

    def value(x: Any) -> str:
        return words.get(pic.key(x), str(x))

    if figsize is None:
        x0, y0, x1, y1 = picture["bounds"]
        scale = min(6.0 / max(x1 - x0, y1 - y0, 1), 0.6)
        figsize = (max(3.0, (x1 - x0) * scale + 1), max(3.0, (y1 - y0) * scale + 1))

    def draw(ax: Axes, domains: Domains, event: Event | None) -> None:
        puzzle.render(ax, domains=dict(domains))

    scopes = {c.name: list(dict.fromkeys(c.scope)) for c in puzzle.to_csp().constraints}
    return View(draw, name=name, value=value, figsize=figsize, verb=picture.get("verb"),
                picture=picture, scopes=scopes)


# -- sudoku ------------------------------------------------------------------------------------
def sudoku_view(givens: Mapping[Hashable, Any] | None = None) -> View:
    """The grid of `examples.sudoku`: a big digit where one value is left, pencil marks
    (the values still possible) elsewhere. Givens are drawn in black, deductions in blue."""
    givens = givens or {}

    def draw(ax: Axes, domains: Domains, event: Event | None) -> None:
        for (row, col), values in domains.items():
            if len(values) == 1:
                colour = "black" if (row, col) in givens else "#204a87"
                ax.text(col + 0.5, row + 0.55, str(values[0]), ha="center", va="center",
                        fontsize=15, color=colour)
            elif not values:
                ax.add_patch(Rectangle((col, row), 1, 1, color="red", alpha=0.4))
            else:
                for x in values:
                    r, c = divmod(x - 1, 3)
                    ax.text(col + (c + 0.5) / 3, row + (r + 0.55) / 3, str(x), ha="center",
                            va="center", fontsize=6, color="grey")
        for i in range(10):
            width = 2 if i % 3 == 0 else 0.5
            ax.plot([0, 9], [i, i], color="black", lw=width)
            ax.plot([i, i], [0, 9], color="black", lw=width)
        if event is not None and event.kind in HIGHLIGHT and event.var in domains:
            row, col = event.var
            ax.add_patch(Rectangle((col, row), 1, 1, fill=False, ec=HIGHLIGHT[event.kind], lw=3))
        ax.set_xlim(0, 9)
        ax.set_ylim(9, 0)
        ax.set_aspect("equal")
        ax.axis("off")

    keypad = [pic.key(d) for d in range(1, 10)]
    cells = [pic.cell_variable((r, c), r, c, pic.DIGITS, name=f"cell ({r},{c})", layout=keypad,
                               given=(r, c) in givens) for r in range(9) for c in range(9)]
    lines = [pic.line(0, i, 9, i, width=0.07 if i % 3 == 0 else 0.02) for i in range(10)]
    lines += [pic.line(i, 0, i, 9, width=0.07 if i % 3 == 0 else 0.02) for i in range(10)]
    picture = pic.picture((0, 0, 9, 9), cells, over=lines, axes=pic.grid_axes(9, 9))
    return View(draw, name=lambda var: f"cell {show(var)}", figsize=(5, 5),
                picture=picture)
