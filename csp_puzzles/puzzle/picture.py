"""A picture described as plain data, so that any front end can draw a search state.

A puzzle (or a built-in view) says once what its picture looks like: fixed shapes (clue
cells, islands, grid lines), and for each variable where it sits and how its domain is shown.
The explorer draws the domains of every step from this description alone; nothing here
imports a widget or a drawing library.

Coordinates are in grid units, x to the right and y downwards, so the cell (r, c) of a grid
is the unit square at x = c, y = r. Sizes of text are in the same units (0.3 is 30% of a cell).

How a domain is shown (the `show` of a variable):

- `digits`: a cell; one value left is written large, several as small pencil marks;
- `shade`: a cell with a fixed `label`; the value `on` shades it, the other leaves it white;
- `colour`: a cell or a disc filled with the colour of its one value, slices while undecided;
- `list`: a disc listing the values left;
- `bridges`: a line between two points drawn as 0, 1, 2, ... parallel strokes; while
  undecided, the counts still possible are written at its `mark` (default: its middle);
- `places`: each value has its own square (`places[value] = (x, y)`): a queen on its row.

Variables and values are named by `key`, the way the trace and its sentences write them:
a variable (2, 3) is "(2,3)".

How a puzzle is played (`play`, optional): one gesture a move, Tatham's, said as data so
that the page never asks which puzzle it draws. Each cell the player acts on is named
`cell = [row, col]`; the picture is drawn clean (decided values only, no domains) until the
player asks for the domains.

- `drag`: pointer down on one of `cells` (islands) and up on another in the same row or
  column: the variable whose `ends` are those two cells takes the next value of `cycle`
  (after the last one: cleared); with the right button or Shift, the value `none`;
- `cycle`: a click on a variable's `cell` gives it the next value of `cycle` (after the last
  one: cleared); the right button gives it `alt` (again: cleared);
- `type`: a click selects a variable's `cell`, a typed key sets the value of that key,
  Backspace or Delete clears it; in pencil mode the key removes or puts back that value.

A puzzle whose cells may be left alone (no bridge, a white cell) names that value `blank`:
the board is solved once its decided cells, every other one `blank`, are a solution.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from ..core.trace import show

Shape = dict[str, Any]
Picture = dict[str, Any]

DIGITS = "digits"
SHADE = "shade"
COLOUR = "colour"
LIST = "list"
BRIDGES = "bridges"
PLACES = "places"
SHOWS = (DIGITS, SHADE, COLOUR, LIST, BRIDGES, PLACES)
#: the gestures of `play`
DRAG, CYCLE, TYPE = "drag", "cycle", "type"
GESTURES = (DRAG, CYCLE, TYPE)
#: how a puzzle of typed digits is played, in words
TYPED = ("click a cell (or move to it with the arrows), then type a digit; Backspace or Delete "
         "clears it; in pencil mode a digit removes that candidate, or puts it back")


def key(x: Hashable) -> str:
    """A variable or a value as the trace writes it: (2, 3) is "(2,3)"."""
    return show(x)


# -- fixed shapes --------------------------------------------------------------------------
def rect(x: float, y: float, w: float, h: float, fill: str = "none", stroke: str | None = None,
         width: float | None = None) -> Shape:
    return _shape("rect", x=x, y=y, w=w, h=h, fill=fill, stroke=stroke, width=width)


def line(x1: float, y1: float, x2: float, y2: float, stroke: str = "#222", width: float = 0.03,
         dash: Sequence[float] | None = None, cause: str | None = None) -> Shape:
    """A line; with `cause`, it is lit while that constraint is the cause of the event shown."""
    return _shape("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, width=width,
                  dash=list(dash) if dash else None, cause=cause)


def circle(x: float, y: float, r: float, fill: str = "none", stroke: str | None = "#222",
           width: float | None = 0.03, decided: Iterable[Hashable] = (),
           decided_fill: str | None = None) -> Shape:
    """A disc; with `decided` variables, filled `decided_fill` once all of them have one value."""
    keys = [key(v) for v in decided]
    return _shape("circle", x=x, y=y, r=r, fill=fill, stroke=stroke, width=width,
                  decided=keys or None, decided_fill=decided_fill)


def polygon(points: Sequence[tuple[float, float]], fill: str) -> Shape:
    return _shape("polygon", points=[list(p) for p in points], fill=fill)


def label(x: float, y: float, text: str, size: float = 0.5, colour: str = "#222",
          bold: bool = False) -> Shape:
    """Text centred on (x, y); `size` in grid units."""
    return _shape("text", x=x, y=y, text=text, size=size, colour=colour, bold=bold or None)


def _shape(kind: str, **fields: Any) -> Shape:
    return {"type": kind, **{k: v for k, v in fields.items() if v is not None}}


# -- variables -----------------------------------------------------------------------------
def cell_variable(var: Hashable, row: float, col: float, show_as: str = DIGITS,
                  name: str | None = None, **options: Any) -> Shape:
    """A variable drawn in the unit cell at (row, col)."""
    return {"var": key(var), "show": show_as, "x": col, "y": row, "w": 1, "h": 1,
            **_named(name), **options}


def disc_variable(var: Hashable, x: float, y: float, r: float, show_as: str = COLOUR,
                  name: str | None = None, **options: Any) -> Shape:
    """A variable drawn as a disc of radius `r` centred on (x, y)."""
    return {"var": key(var), "show": show_as, "x": x, "y": y, "r": r, **_named(name), **options}


def line_variable(var: Hashable, start: tuple[float, float], end: tuple[float, float],
                  name: str | None = None, mark: tuple[float, float] | None = None) -> Shape:
    """A variable counting strokes between two points, (x, y) each; `mark` is where its
    possible counts are written (the middle unless given)."""
    return {"var": key(var), "show": BRIDGES, "x1": start[0], "y1": start[1], "x2": end[0],
            "y2": end[1], **_named(name), **({"mark": list(mark)} if mark else {})}


def places_variable(var: Hashable, places: Mapping[Hashable, tuple[float, float]],
                    name: str | None = None, symbol: str | None = None) -> Shape:
    """A variable whose every value has its own unit square, top-left corner (x, y)."""
    return {"var": key(var), "show": PLACES, "places": {key(v): list(p) for v, p in places.items()},
            **_named(name), **({"symbol": symbol} if symbol else {})}


def island(row: int, col: int, x: float, y: float, r: float, name: str,
           need: int | None = None) -> Shape:
    """A cell of a `drag` gesture (an island): where it sits, a disc of radius `r` centred
    on (x, y), its name, and the sum of values its lines need (said as "2 of 3 laid")."""
    return {"cell": [row, col], "x": x, "y": y, "r": r, "name": name,
            **({"need": need} if need is not None else {})}


def play(gesture: str, cycle: Sequence[Hashable], *, alt: Hashable | None = None,
         none: Hashable | None = None, blank: Hashable | None = None,
         cells: Sequence[Shape] = (), help: str = "", laid: str | None = None
         ) -> dict[str, Any]:
    """How a puzzle is played (see the module docstring): the `gesture`, the values a
    gesture cycles through, `alt` (the right button's value) or `none` (a drag's "no
    line" value), the value of a cell left alone (`blank`), the `cells` of a drag, the keys
    in words (`help`), and how a cell's laid lines are said (`laid`, "{name}: {n} of {k}
    bridges")."""
    if gesture not in GESTURES:
        raise ValueError(f"unknown gesture {gesture!r}; expected one of {', '.join(GESTURES)}")

    def keyed(x: Hashable | None) -> str | None:
        return None if x is None else key(x)

    return {"gesture": gesture, "cycle": [key(x) for x in cycle], "alt": keyed(alt),
            "none": keyed(none), "blank": keyed(blank), "cells": list(cells), "help": help,
            "laid": laid}


def _named(name: str | None) -> dict[str, str]:
    return {"name": name} if name is not None else {}


# -- the whole picture ---------------------------------------------------------------------
def grid_axes(rows: int, cols: int, x: float = 0, y: float = 0) -> dict[str, float]:
    """Row and column numbers for a grid whose cell (0, 0) has its top-left corner at (x, y)."""
    return {"rows": rows, "cols": cols, "x": x, "y": y, "row0": 0, "col0": 0}


def picture(bounds: tuple[float, float, float, float], variables: list[Shape],
            shapes: Iterable[Shape] = (), over: Iterable[Shape] = (),
            axes: Mapping[str, float] | None = None, background: str | None = None,
            value_words: Mapping[Hashable, str] | None = None,
            verb: str | None = None, how_to_play: Mapping[str, Any] | None = None) -> Picture:
    """The description: `bounds` (x0, y0, x1, y1) of what is drawn, the variables, fixed
    `shapes` under them and `over` them, optional grid `axes`, how events are worded
    (`value_words` for values, `verb` as in "cell (1,2) cannot be 3"), and how the puzzle
    is played (`how_to_play`, from `play`)."""
    return {
        "bounds": list(bounds),
        "variables": variables,
        "shapes": list(shapes),
        "over": list(over),
        "axes": dict(axes) if axes else None,
        "background": background,
        "value_words": {key(v): w for v, w in (value_words or {}).items()},
        "verb": verb,
        "play": dict(how_to_play) if how_to_play else None,
    }


def keyed(domains: Mapping[Hashable, Iterable[Hashable]]) -> dict[str, list[str]]:
    """Domains as a picture reads them: variables and values by their `key`."""
    return {key(var): [key(x) for x in values] for var, values in domains.items()}


def check(description: Picture) -> list[str]:
    """What is wrong with a description (empty when every field a front end reads is there)."""
    problems = []
    for field in ("bounds", "variables", "shapes"):
        if field not in description:
            problems.append(f"missing {field!r}")
    for entry in description.get("variables", []):
        if entry.get("show") not in SHOWS:
            problems.append(f"variable {entry.get('var')!r}: unknown show {entry.get('show')!r}")
    how = description.get("play")
    if how:
        problems += _play_problems(how, description.get("variables", []))
    return problems


def _play_problems(how: Mapping[str, Any], variables: Sequence[Shape]) -> list[str]:
    """What a page could not play: a variable with no cell (or no ends, for a drag), or
    ends that are no cell of the drag."""
    problems = []
    if how.get("gesture") == DRAG:
        cells = {tuple(c["cell"]) for c in how.get("cells", [])}
        for entry in variables:
            ends = entry.get("ends") or []
            if len(ends) != 2 or not all(tuple(end) in cells for end in ends):
                problems.append(f"variable {entry.get('var')!r}: its ends are not two cells")
    else:
        for entry in variables:
            if not entry.get("cell"):
                problems.append(f"variable {entry.get('var')!r}: no cell to act on")
    return problems
