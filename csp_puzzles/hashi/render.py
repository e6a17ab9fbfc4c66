"""Drawing a Hashi grid with matplotlib: the puzzle, a solution, or any state of a search.

- islands are circles with their number (green once every edge around them is decided);
- bridges are one to four parallel lines between island centres;
- with `domains` (a `trace.domains_at(i)` state over the `to_csp` variables) decided edges
  are drawn as bridges, undecided ones as faint dashed lines, with their remaining values
  as small pencil marks on grids that have room for them.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import Edge, Hashi

BRIDGE = "#5b3a1a"
CANDIDATE = "#7a7a7a"
ISLAND = "#fff6d5"
DONE = "#cdebc5"
PENCIL_LIMIT = 80  # islands: above this, pencil marks would only clutter the grid


def render(puzzle: Hashi, ax: Any, solution: Mapping[Any, int] | None = None,
           domains: Mapping[Hashable, Any] | None = None) -> None:
    """Draw `puzzle` on `ax`: empty, with `solution` bridges, or at a search state."""
    _frame(puzzle, ax)
    decided_islands: set[int] = set()
    if domains is not None:
        decided_islands = _draw_state(puzzle, ax, domains)
    elif solution is not None:
        for key, n in _solution_items(solution):
            edge = puzzle.edge_of.get(key)
            if edge is not None and n:
                _bridge(puzzle, ax, edge, n)
        decided_islands = set(range(len(puzzle.islands)))
    radius = 0.38
    for island in puzzle.islands:
        done = island.index in decided_islands
        ax.add_patch(_circle((island.col, island.row), radius, DONE if done else ISLAND))
        ax.text(island.col, island.row, str(island.value), ha="center", va="center",
                fontsize=_font_size(puzzle), fontweight="bold", zorder=4)


def _solution_items(solution: Any) -> list[tuple[tuple[int, ...], int]]:
    if isinstance(solution, Mapping) and "bridges" in solution:
        solution = solution["bridges"]
    if isinstance(solution, Mapping):
        return [(tuple(k), n) for k, n in solution.items()]
    return [(tuple(entry[:4]), entry[4]) for entry in solution]


def _draw_state(puzzle: Hashi, ax: Any, domains: Mapping[Hashable, Any]) -> set[int]:
    """Draw every edge as its domain says; return the islands whose edges are all decided."""
    undecided_islands: set[int] = set()
    pencil = len(puzzle.islands) <= PENCIL_LIMIT
    for edge in puzzle.edges:
        values = domains.get(edge.key)
        if values is None:  # left out of the model (no-adjacent)
            continue
        values = sorted(values)
        if len(values) == 1:
            if values[0]:
                _bridge(puzzle, ax, edge, values[0])
            continue
        undecided_islands.update((edge.a, edge.b))
        if values[0]:  # sure bridges drawn, the rest still open
            _bridge(puzzle, ax, edge, values[0])
        _candidate(puzzle, ax, edge)
        if pencil:
            (r1, c1), (r2, c2) = puzzle.islands[edge.a].pos, puzzle.islands[edge.b].pos
            ax.text((c1 + c2) / 2, (r1 + r2) / 2, "".join(map(str, values)), ha="center",
                    va="center", fontsize=_font_size(puzzle) * 0.6, color=CANDIDATE,
                    zorder=3, bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none",
                                    "alpha": 0.8})
    return set(range(len(puzzle.islands))) - undecided_islands


def _frame(puzzle: Hashi, ax: Any) -> None:
    ax.set_xlim(-0.6, puzzle.width - 0.4)
    ax.set_ylim(puzzle.height - 0.4, -0.6)  # row 0 at the top
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_facecolor("#eaf3fb")
    for r in range(puzzle.height):
        ax.plot(range(puzzle.width), [r] * puzzle.width, linestyle="none", marker=".",
                markersize=1.5, color="#b8cde0", zorder=0)


def _ends(puzzle: Hashi, edge: Edge) -> tuple[tuple[float, float], tuple[float, float]]:
    a, b = puzzle.islands[edge.a], puzzle.islands[edge.b]
    return (a.col, a.row), (b.col, b.row)


def _bridge(puzzle: Hashi, ax: Any, edge: Edge, n: int) -> None:
    """n parallel lines between the two islands."""
    (x1, y1), (x2, y2) = _ends(puzzle, edge)
    gap = 0.13
    for i in range(n):
        shift = (i - (n - 1) / 2) * gap
        if edge.horizontal:
            ax.plot([x1, x2], [y1 + shift, y2 + shift], color=BRIDGE, linewidth=2, zorder=1,
                    solid_capstyle="butt")
        else:
            ax.plot([x1 + shift, x2 + shift], [y1, y2], color=BRIDGE, linewidth=2, zorder=1,
                    solid_capstyle="butt")


def _candidate(puzzle: Hashi, ax: Any, edge: Edge) -> None:
    (x1, y1), (x2, y2) = _ends(puzzle, edge)
    ax.plot([x1, x2], [y1, y2], color=CANDIDATE, linewidth=1, linestyle=(0, (3, 3)),
            alpha=0.45, zorder=1)


def _circle(center: tuple[float, float], radius: float, color: str) -> Any:
    from matplotlib.patches import Circle

    return Circle(center, radius, facecolor=color, edgecolor="black", linewidth=1.2, zorder=2)


def _font_size(puzzle: Hashi) -> float:
    return max(5.0, 14.0 - 0.3 * max(puzzle.width, puzzle.height))
