"""Drawing a Towers puzzle with matplotlib: clues around the grid, heights inside.

`domains` (a `trace.domains_at(i)` dict over the `(row, column)` variables) shows a search
state: placed heights large, the candidates of undecided cells as small pencil marks in a
3 x 3 keypad layout, and a cell with no candidate left hatched red.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

GIVEN, PLACED, CLUE, PENCIL = "black", "#1f5fbf", "#333333", "#7a7a7a"


def render(puzzle: Any, ax: Any, solution: Sequence[Sequence[int]] | None = None,
           domains: dict[Hashable, Sequence[int]] | None = None) -> None:
    """Draw `puzzle` on `ax`: empty, solved (`solution`), or at a trace state (`domains`)."""
    n = puzzle.size
    ax.clear()
    ax.set_xlim(-1, n + 1)
    ax.set_ylim(n + 1, -1)
    ax.set_aspect("equal")
    ax.axis("off")
    for k in range(n + 1):
        width = 2.0 if k in (0, n) else 0.8
        ax.plot([0, n], [k, k], color="black", linewidth=width)
        ax.plot([k, k], [0, n], color="black", linewidth=width)
    size = max(8, 22 - 1.6 * n)
    for i in range(n):
        for clue, x, y in ((puzzle.top[i], i + 0.5, -0.5), (puzzle.bottom[i], i + 0.5, n + 0.5),
                           (puzzle.left[i], -0.5, i + 0.5), (puzzle.right[i], n + 0.5, i + 0.5)):
            if clue:
                ax.text(x, y, str(clue), ha="center", va="center", fontsize=size, color=CLUE,
                        fontweight="bold")
    for r in range(n):
        for c in range(n):
            given = puzzle.givens[r][c]
            x, y = c + 0.5, r + 0.5
            if given:
                ax.text(x, y, str(given), ha="center", va="center", fontsize=size,
                        color=GIVEN, fontweight="bold")
            elif solution is not None and solution[r][c]:
                ax.text(x, y, str(solution[r][c]), ha="center", va="center", fontsize=size,
                        color=PLACED)
            elif domains is not None and (r, c) in domains:
                _draw_candidates(ax, r, c, list(domains[(r, c)]), n, size)


def _draw_candidates(ax: Any, r: int, c: int, candidates: list[int], n: int,
                     size: float) -> None:
    if not candidates:
        ax.fill([c, c + 1, c + 1, c], [r, r, r + 1, r + 1], facecolor="none", hatch="///",
                edgecolor="#c0392b", linewidth=0)
        return
    if len(candidates) == 1:
        ax.text(c + 0.5, r + 0.5, str(candidates[0]), ha="center", va="center",
                fontsize=size, color=PLACED)
        return
    per_row = 3 if n <= 9 else 4
    for h in candidates:
        i = h - 1
        x = c + (i % per_row + 0.5) / per_row
        y = r + (i // per_row + 0.5) / per_row
        ax.text(x, y, str(h), ha="center", va="center", fontsize=size * 0.4, color=PENCIL)
