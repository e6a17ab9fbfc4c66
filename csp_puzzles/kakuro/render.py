"""Drawing a Kakuro grid with matplotlib: empty, solved, or at any state of a trace.

Clue cells are dark with a diagonal: the down sum sits in the lower-left half, the right
sum in the upper-right half. White cells show their digit when it is known, and with
`domains` (a `trace.domains_at(i)` dict over the white cells) the remaining candidates
as small pencil marks in a 3x3 layout (1 top left, 9 bottom right).
"""

from __future__ import annotations

from typing import Any

BLOCK_COLOUR = "#3a3a3a"
CLUE_COLOUR = "#5a5a5a"
LINE_COLOUR = "#222222"
DIGIT_COLOUR = "#1f3d7a"
PENCIL_COLOUR = "#777777"
EMPTY_COLOUR = "#f3d6d6"  # a white cell with no candidate left


def render(puzzle: Any, ax: Any, solution: Any = None, domains: dict | None = None) -> None:
    """Draw `puzzle` on `ax`; `solution` is a grid of digits, `domains` a trace state."""
    from matplotlib.patches import Polygon, Rectangle

    height, width = puzzle.height, puzzle.width
    ax.clear()
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    size = _font_size(ax, width, height)
    for r, row in enumerate(puzzle.grid):
        for c, cell in enumerate(row):
            if cell == "0":
                _draw_white(ax, r, c, solution, domains, size, Rectangle)
                continue
            ax.add_patch(Rectangle((c, r), 1, 1, facecolor=BLOCK_COLOUR, edgecolor=LINE_COLOUR,
                                   linewidth=1))
            down, right = getattr(cell, "down", None), getattr(cell, "right", None)
            if down is None and right is None:
                continue
            ax.add_patch(Polygon([(c, r), (c + 1, r + 1), (c, r + 1)], closed=True,
                                 facecolor=CLUE_COLOUR if down is not None else BLOCK_COLOUR,
                                 edgecolor="none"))
            ax.plot([c, c + 1], [r, r + 1], color="white", linewidth=0.8)
            if down is not None:
                ax.text(c + 0.3, r + 0.75, str(down), ha="center", va="center",
                        color="white", fontsize=size * 0.42)
            if right is not None:
                ax.text(c + 0.7, r + 0.3, str(right), ha="center", va="center",
                        color="white", fontsize=size * 0.42)


def _draw_white(ax: Any, r: int, c: int, solution: Any, domains: Any, size: float,
                Rectangle: Any) -> None:
    candidates = None
    if domains is not None and (r, c) in domains:
        candidates = tuple(domains[(r, c)])
    face = EMPTY_COLOUR if candidates == () else "white"
    ax.add_patch(Rectangle((c, r), 1, 1, facecolor=face, edgecolor=LINE_COLOUR, linewidth=1))
    digit = solution[r][c] if solution is not None else None
    if digit is None and candidates is not None and len(candidates) == 1:
        digit = candidates[0]
    if digit is not None:
        ax.text(c + 0.5, r + 0.52, str(digit), ha="center", va="center", color=DIGIT_COLOUR,
                fontsize=size * 0.7, fontweight="bold")
        return
    for value in candidates or ():
        row, col = divmod(value - 1, 3)
        ax.text(c + (col + 0.5) / 3, r + (row + 0.55) / 3, str(value), ha="center",
                va="center", color=PENCIL_COLOUR, fontsize=size * 0.25)


def _font_size(ax: Any, width: int, height: int) -> float:
    """Points per cell, so text scales with the figure and the grid size."""
    figure = ax.figure
    box = ax.get_position()
    inches = min(box.width * figure.get_figwidth() / width,
                 box.height * figure.get_figheight() / height)
    return max(2.0, inches * 72)
