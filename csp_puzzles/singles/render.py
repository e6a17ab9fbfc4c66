"""Drawing a Singles grid with matplotlib: empty, solved, or at any state of a search.

Shaded cells are dark with a light number; with `domains` (a trace state, one entry per
cell variable) cells still undecided are hatched, decided ones drawn shaded or plain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rules import SHADED

if TYPE_CHECKING:
    from .model import Singles


def render(puzzle: Singles, ax: Any, solution: Any = None, domains: dict | None = None) -> None:
    """Draw `puzzle` on `ax`, with `solution` (shaded cells) or a state's `domains`."""
    from matplotlib.patches import Rectangle

    height, width = puzzle.height, puzzle.width
    shaded = set(solution or ())
    undecided: set[tuple[int, int]] = set()
    if domains is not None:
        for cell, values in domains.items():
            values = tuple(values)
            if len(values) > 1:
                undecided.add(cell)
            elif values and values[0] == SHADED:
                shaded.add(cell)
    size = max(6.0, 150.0 / max(width, height, 1))
    for r, row in enumerate(puzzle.grid):
        for c, number in enumerate(row):
            x, y = c, height - 1 - r
            if (r, c) in shaded:
                ax.add_patch(Rectangle((x, y), 1, 1, facecolor="0.2", edgecolor="0.5"))
                colour = "white"
            elif (r, c) in undecided:
                ax.add_patch(Rectangle((x, y), 1, 1, facecolor="white", edgecolor="0.75",
                                       hatch="///"))
                colour = "black"
            else:
                ax.add_patch(Rectangle((x, y), 1, 1, facecolor="white", edgecolor="0.5"))
                colour = "black"
            ax.text(x + 0.5, y + 0.5, str(number), ha="center", va="center", color=colour,
                    fontsize=size)
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
