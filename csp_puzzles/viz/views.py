"""Ready-made pictures of search states, for the explorer and for still pictures.

A view is a picture description (`csp_puzzles.puzzle.picture`: what the explorer draws in the
browser) together with the words for events about its variables (`view.sentence(event)`).
The same description becomes a PNG through `csp_puzzles.viz.matplotlib_drawing`: calling
`view(ax, domains, event)` draws a state on a matplotlib axes, `view.png(domains)` returns
one; matplotlib is imported only then.

- `queens_view(n)`: the N-queens board; a queen where a column has one row left, a cross on
  every square pruned (attacked by a queen, or ruled out by propagation);
- `map_view()`: map colouring drawn as its constraint graph; an undecided region shows its
  remaining colours as slices;
- `graph_view(csp)`: any CSP as its constraint graph, the constraint at work in orange (a
  tree-shaped graph is drawn as a tree, root on top);
- `domain_grid_view(csp)`: any CSP as a table, one row per variable, one column per value;
- `puzzle_view(puzzle)`: a puzzle's own `picture()`;
- `sudoku_view(givens)`: the Sudoku grid with pencil marks.

The event that led to a state is outlined (a square, a cell, a region, a bridge): gold for
an assignment, orange for a pruned value, red for a wipe-out.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from contextlib import suppress
from typing import Any

from ..core import CSP
from ..core.trace import ASSIGN, PRUNE, REPAIR, WIPEOUT, Event, show
from ..examples.australia import AUSTRALIA
from ..puzzle import picture as pic
from .words import Namer, event_sentence, plain_name

#: a trace state's domains, keyed by variable names (each view knows their shape)
Domains = Mapping[Any, Sequence[Any]]
HIGHLIGHT = {ASSIGN: "#e6b800", PRUNE: "#ff8c00", WIPEOUT: "#d62728", REPAIR: "#e6b800"}


class View:
    """A picture description and the words that go with it: how variables are named
    (`name`), values (`value`), and the verb of a pruning ("cell (1,2) cannot *be* 3")."""

    def __init__(self, picture: pic.Picture, name: Namer | None = None,
                 value: Any = str, verb: str | None = None,
                 scopes: Mapping[str, Sequence[Hashable]] | None = None):
        #: the drawing as plain data, for the explorer's front end and for PNGs
        self.picture = picture
        self.name = name
        self.value = value
        self.verb = verb
        #: which variables each constraint (by name) reads, to outline the cause of a pruning
        self.scopes = scopes

    @property
    def figsize(self) -> tuple[float, float]:
        """Inches that suit the picture in a matplotlib figure."""
        from .matplotlib_drawing import figure_size

        return figure_size(self.picture)

    def __call__(self, ax: Any, domains: Domains, event: Event | None = None) -> None:
        """Draw the state `domains` (the event that led to it outlined) on a matplotlib `ax`."""
        from .matplotlib_drawing import draw

        draw(ax, self.picture, pic.keyed(domains), outlines=outlines(event))

    def png(self, domains: Domains, event: Event | None = None, dpi: int = 100) -> bytes:
        """The state `domains` as a PNG (needs matplotlib)."""
        from .matplotlib_drawing import png

        return png(self.picture, pic.keyed(domains), outlines=outlines(event), dpi=dpi)

    def sentence(self, event: Event) -> str:
        """The event in this view's words."""
        return event_sentence(event, self.name, self.value, self.verb)

    describe = sentence  # its former name, for notebooks written with it


def outlines(event: Event | None) -> list[tuple[str, str | None, str]]:
    """The outline marking `event` in a still picture, as the explorer marks it."""
    if event is None or event.kind not in HIGHLIGHT or event.var is None:
        return []
    value = None if event.kind == WIPEOUT else pic.key(event.value)
    return [(pic.key(event.var), value, HIGHLIGHT[event.kind])]


# -- N-queens ---------------------------------------------------------------------------------
def queens_view(n: int) -> View:
    """The board of `examples.queens(n)`: variable = column, value = row."""
    squares = [pic.rect(col, row, 1, 1, fill="#f0d9b5" if (row + col) % 2 == 0 else "#d9b38c")
               for row in range(n) for col in range(n)]
    columns = [pic.places_variable(col, {row: (col, row) for row in range(n)},
                                   name=f"column {col}", symbol="♛") for col in range(n)]
    picture = pic.picture((0, 0, n, n), columns, squares, axes=pic.grid_axes(n, n))
    return View(picture, name=lambda col: f"column {col}", value=lambda row: f"row {row}")


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

    Colour values are CSS colour names ("red", "green", "blue", ...).
    """
    return View(_map_picture(neighbours, positions, radius))


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

    The constraint that caused a pruning is drawn in orange. Unless `positions` places the
    nodes, a graph without cycles is drawn as a tree (each part rooted at its first
    variable, children below their parent) and any other graph round a circle.
    """
    variables = list(csp.variables)
    pairs_of: dict[str, list[tuple[Hashable, Hashable]]] = {}
    for constraint in csp.constraints:
        scope = list(dict.fromkeys(constraint.scope))
        pairs = [(a, b) for i, a in enumerate(scope) for b in scope[i + 1:]]
        pairs_of.setdefault(constraint.name, []).extend(pairs)
    if positions is None:
        edges = {frozenset(pair) for pairs in pairs_of.values() for pair in pairs}
        positions = tree_layout(variables, edges) or circle_layout(variables)
    scopes = {c.name: list(dict.fromkeys(c.scope)) for c in csp.constraints}
    return View(_graph_picture(variables, positions, pairs_of, name), name=name, scopes=scopes)


def circle_layout(variables: Sequence[Hashable]) -> dict[Hashable, tuple[float, float]]:
    """Nodes round a circle, the first at the top, clockwise."""
    step = 2 * math.pi / max(len(variables), 1)
    return {v: (math.cos(math.pi / 2 - i * step), math.sin(math.pi / 2 - i * step))
            for i, v in enumerate(variables)}


def tree_layout(variables: Sequence[Hashable], edges: Iterable[frozenset[Hashable]]
                ) -> dict[Hashable, tuple[float, float]] | None:
    """A forest drawn top-down: each part rooted at its first variable, depth downwards,
    leaves side by side and each parent over the middle of its children. None when the
    graph has a cycle (a constraint over three variables makes one)."""
    neighbours: dict[Hashable, list[Hashable]] = {v: [] for v in variables}
    for edge in edges:
        a, b = tuple(edge)
        neighbours[a].append(b)
        neighbours[b].append(a)
    parts = _parts(neighbours)
    if sum(map(len, neighbours.values())) // 2 != len(variables) - parts:
        return None  # a forest of k parts on n nodes has n - k edges
    order = {v: i for i, v in enumerate(variables)}
    positions: dict[Hashable, tuple[float, float]] = {}
    next_leaf = 0.0

    def place(node: Hashable, parent: Hashable, depth: int) -> float:
        nonlocal next_leaf
        children = sorted((v for v in neighbours[node] if v != parent), key=order.__getitem__)
        if children:
            xs = [place(child, node, depth + 1) for child in children]
            x = (xs[0] + xs[-1]) / 2
        else:
            x, next_leaf = next_leaf, next_leaf + 1
        positions[node] = (x, -1.3 * depth)
        return x

    for root in variables:
        if root not in positions:
            place(root, None, 0)
            next_leaf += 0.5  # a gap between the parts of a forest
    return positions


def _parts(neighbours: Mapping[Hashable, list[Hashable]]) -> int:
    """How many connected parts the graph has."""
    seen: set[Hashable] = set()
    parts = 0
    for start in neighbours:
        if start in seen:
            continue
        parts += 1
        seen.add(start)
        stack = [start]
        while stack:
            for other in neighbours[stack.pop()]:
                if other not in seen:
                    seen.add(other)
                    stack.append(other)
    return parts


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


# -- any CSP as a table of domains -------------------------------------------------------------
def domain_grid_view(csp: CSP, name: Namer = plain_name) -> View:
    """One row per variable, one column per value: a filled square for each value left.

    A variable with one value left is dark; pruned values are crossed out.
    """
    variables = list(csp.variables)
    values = list(dict.fromkeys(x for v in variables for x in csp.domains[v]))
    with suppress(TypeError):  # values of mixed types keep their input order
        values.sort()
    column = {x: i for i, x in enumerate(values)}
    names = [name(v) for v in variables]
    margin = max(1.0, 0.2 * max((len(n) for n in names), default=1) + 0.4)
    shapes = [pic.label(margin + i + 0.5, -0.4, str(x), 0.32, "#555") for i, x in enumerate(values)]
    shapes += [pic.label(margin / 2, row + 0.5, names[row], 0.32, bold=True)
               for row in range(len(variables))]
    rows = [pic.places_variable(var, {x: (margin + column[x], row) for x in csp.domains[var]},
                                name=names[row]) for row, var in enumerate(variables)]
    picture = pic.picture((0, -0.8, margin + len(values), len(variables)), rows, shapes)
    scopes = {c.name: list(dict.fromkeys(c.scope)) for c in csp.constraints}
    return View(picture, name=name, scopes=scopes)


# -- puzzles ---------------------------------------------------------------------------------
def puzzle_view(puzzle: Any) -> View:
    """A puzzle's own picture (`puzzle.picture()`).

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

    scopes = {c.name: list(dict.fromkeys(c.scope)) for c in puzzle.to_csp().constraints}
    return View(picture, name=name, value=value, verb=picture.get("verb"), scopes=scopes)


# -- sudoku ------------------------------------------------------------------------------------
def sudoku_view(givens: Mapping[Hashable, Any] | None = None) -> View:
    """The grid of `examples.sudoku`: a big digit where one value is left, pencil marks
    (the values still possible) elsewhere. Givens are drawn in black, deductions in blue."""
    givens = givens or {}
    keypad = [pic.key(d) for d in range(1, 10)]
    cells = [pic.cell_variable((r, c), r, c, pic.DIGITS, name=f"cell ({r},{c})", layout=keypad,
                               given=(r, c) in givens) for r in range(9) for c in range(9)]
    lines = [pic.line(0, i, 9, i, width=0.07 if i % 3 == 0 else 0.02) for i in range(10)]
    lines += [pic.line(i, 0, i, 9, width=0.07 if i % 3 == 0 else 0.02) for i in range(10)]
    picture = pic.picture((0, 0, 9, 9), cells, over=lines, axes=pic.grid_axes(9, 9))
    return View(picture, name=lambda var: f"cell {show(var)}")
