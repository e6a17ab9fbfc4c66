"""A conflict analysis drawn: the implication graph behind a learnt nogood, as a picture.

`implication_picture(analysis)` takes one `Analysis` of a learning search
(`LearningSearch.graphs`) and draws what `analysis.describe()` prints: each fact of the
search (a decision `x = v`, or a removal `x ≠ w`) is a box, in rows of one decision level
each (wrapped onto more lines when long), in the order the search made them; an arrow runs
from each fact of a reason to the fact it forced, and from the facts of the wipe-out to the
conflict. The decision of each level is blue, the first UIP has a gold frame, the facts of
the learnt nogood a purple one; a fact `x = v` of the nogood that the search knew only as
the removals of x's other values (the nogood says it shortly) is framed on those removals.
Facts of the root level (true before any decision) are only counted, and so are the oldest
facts of a level with very many (never the UIP or a fact of the nogood).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from ..core.trace import show
from ..puzzle import picture as pic
from .charts import text_width

#: facts shown at most for one level (the newest), the others counted; boxes on one line
LEVEL_LIMIT = 30
PER_LINE = 6
SIZE = 0.28                 # text size of a fact
LINE_GAP, LEVEL_GAP, BOX_H, PAD = 1.0, 0.5, 0.5, 0.25
DECISION, REMOVAL, CONFLICT = "#cfe0f3", "#ffffff", "#f3c6c6"
UIP, NOGOOD, ARROW = "#e6b800", "#8e44ad", "#8a8a8a"
#: a fact: (literal, time stamp, level), as `core.learning` keeps it
Fact = tuple[Any, int, int]


def implication_picture(analysis: Any, name: Callable[[Hashable], str] = show) -> pic.Picture:
    """The implication graph of `analysis`, read from the conflict back to its first UIP."""
    edges = [(reason, fact) for fact, reasons in analysis.steps for reason in reasons]
    facts = _facts([fact for fact, _ in analysis.steps] + list(analysis.conflict)
                   + [reason for reason, _ in edges])
    uip = analysis.nogood.literals[0]
    learnt = _in_nogood(analysis.nogood.literals, [fact[0] for fact in facts])
    boxes, shapes, bottom = _rows(facts, learnt, name)
    right = max((x + w for x, _, w in boxes.values()), default=2.0)
    last = max(boxes.values(), key=lambda box: box[1], default=(0.0, 0.6, 0.0))
    conflict_at = (right + 0.6, last[1], 1.6)
    lines = [_arrow(boxes[a[0]], boxes[b[0]]) for a, b in edges
             if a[0] in boxes and b[0] in boxes]
    lines += [_arrow(boxes[f[0]], conflict_at) for f in analysis.conflict if f[0] in boxes]
    nodes = []
    for literal, (x, y, w) in boxes.items():
        fill = DECISION if literal.equal else REMOVAL
        frame = UIP if literal == uip else NOGOOD if literal in learnt else "#555"
        nodes.append(pic.rect(x, y - BOX_H / 2, w, BOX_H, fill=fill, stroke=frame,
                              width=0.07 if frame != "#555" else 0.02))
        nodes.append(pic.label(x + w / 2, y, _said(literal, name), SIZE))
    x, y, w = conflict_at
    nodes.append(pic.rect(x, y - BOX_H / 2, w, BOX_H, fill=CONFLICT, stroke="#d62728",
                          width=0.05))
    nodes.append(pic.label(x + w / 2, y, "conflict", SIZE, "#a00", bold=True))
    legend = _legend(0.2, bottom + 0.5)
    return pic.picture((0, 0, x + w + 0.3, bottom + 0.8), [],
                       shapes + [s for line in lines for s in line] + nodes + legend)


def _in_nogood(nogood: Iterable[Any], drawn: Iterable[Any]) -> set[Any]:
    """The drawn facts to frame as the nogood's: its own literals, and for a literal
    `x = v` that is not drawn, the removals of x that it stands for."""
    literals, drawn = set(nogood), set(drawn)
    read_off = {literal.var for literal in literals if literal.equal and literal not in drawn}
    return literals | {literal for literal in drawn
                       if not literal.equal and literal.var in read_off}


def _facts(facts: Iterable[Fact]) -> list[Fact]:
    """Each literal once (its own stamp), the root's facts left out, oldest first."""
    seen: dict[Any, Fact] = {}
    for fact in facts:
        if fact[2] > 0:
            seen.setdefault(fact[0], fact)
    return sorted(seen.values(), key=lambda f: f[1])


def _said(literal: Any, name: Callable[[Hashable], str]) -> str:
    return f"{name(literal.var)} {'=' if literal.equal else '≠'} {show(literal.value)}"


def _rows(facts: list[Fact], keep: set[Any], name: Callable[[Hashable], str]
          ) -> tuple[dict[Any, tuple[float, float, float]], list[pic.Shape], float]:
    """Where each fact's box goes, (left x, centre y, width), the levels' labels, and the
    bottom of the last line."""
    boxes: dict[Any, tuple[float, float, float]] = {}
    shapes = []
    y = 0.6 - LINE_GAP
    for level in sorted({f[2] for f in facts}):
        row = [f[0] for f in facts if f[2] == level]
        hidden = [lit for lit in row[:max(0, len(row) - LEVEL_LIMIT)] if lit not in keep]
        shown = [lit for lit in row if lit not in hidden]
        y += LINE_GAP + LEVEL_GAP
        shapes.append(pic.label(0.6, y, f"level {level}", SIZE, "#777", bold=True))
        if hidden:
            shapes.append(pic.label(0.6, y + 0.35, f"+{len(hidden)} older", SIZE * 0.9, "#777"))
        for start in range(0, len(shown), PER_LINE):
            if start:
                y += LINE_GAP
            x = 1.4
            for literal in shown[start:start + PER_LINE]:
                width = text_width(_said(literal, name), SIZE) + PAD * 2
                boxes[literal] = (x, y, width)
                x += width + PAD * 2
    return boxes, shapes, y + BOX_H / 2


def _arrow(start: tuple[float, float, float], end: tuple[float, float, float]
           ) -> list[pic.Shape]:
    """A line from box to box, ending in a small head at the border of the second."""
    (x0, y0, w0), (x1, y1, w1) = start, end
    a, b = (x0 + w0 / 2, y0), (x1 + w1 / 2, y1)
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    # how far along the line it leaves the end box (half width w1/2, half height BOX_H/2)
    inside = min(w1 / 2 / abs(dx) if dx else math.inf, BOX_H / 2 / abs(dy) if dy else math.inf)
    tip = (b[0] - dx * inside, b[1] - dy * inside)
    ux, uy = dx / length, dy / length
    back = (tip[0] - ux * 0.18, tip[1] - uy * 0.18)
    side = (-uy * 0.08, ux * 0.08)
    head = [tip, (back[0] + side[0], back[1] + side[1]), (back[0] - side[0], back[1] - side[1])]
    return [pic.line(a[0], a[1], back[0], back[1], stroke=ARROW, width=0.025),
            pic.polygon(head, ARROW)]


def _legend(x: float, y: float) -> list[pic.Shape]:
    """What the colours and frames mean, on one line."""
    entries = [(DECISION, "#555", "a decision"), (REMOVAL, "#555", "a removal"),
               (REMOVAL, UIP, "the first UIP"), (REMOVAL, NOGOOD, "in the nogood learnt"),
               (CONFLICT, "#d62728", "the wipe-out")]
    shapes = []
    for fill, frame, words in entries:
        shapes.append(pic.rect(x, y - 0.15, 0.5, 0.3, fill=fill, stroke=frame, width=0.05))
        shapes.append(pic.label(x + 0.65 + text_width(words, SIZE) / 2, y, words, SIZE))
        x += 1.1 + text_width(words, SIZE)
    return shapes
