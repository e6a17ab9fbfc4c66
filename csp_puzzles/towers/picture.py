"""What a Towers search state looks like, as plain data, and how the editor writes a puzzle.

The clues sit round the grid; each cell is a variable showing its height, or the heights
still possible as pencil marks (1 top left). Given heights are drawn in black on grey.
Played as Tatham's Towers: click a cell and type a height; pencil marks are its candidates.
The editor's grid is the puzzle with its ring of clues: (n + 2) x (n + 2), corners unused.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from ..puzzle import picture as pic

if TYPE_CHECKING:
    from .model import Towers

CLUE = "#333333"
NO_CLUE = "-"


def picture_of(puzzle: Towers) -> pic.Picture:
    """The picture of `puzzle`: clues as fixed text, one `digits` variable per cell."""
    n = puzzle.size
    shapes = []
    for k in range(n + 1):
        width = 0.06 if k in (0, n) else 0.02
        shapes.append(pic.line(0, k, n, k, width=width))
        shapes.append(pic.line(k, 0, k, n, width=width))
    for i in range(n):
        for clue, x, y in ((puzzle.top[i], i + 0.5, -0.5), (puzzle.bottom[i], i + 0.5, n + 0.5),
                           (puzzle.left[i], -0.5, i + 0.5), (puzzle.right[i], n + 0.5, i + 0.5)):
            if clue:
                shapes.append(pic.label(x, y, str(clue), 0.5, CLUE, bold=True))
    layout = [pic.key(h) for h in range(1, n + 1)]
    variables = [pic.cell_variable((r, c), r, c, pic.DIGITS, name=f"cell ({r},{c})",
                                   layout=layout, given=bool(puzzle.givens[r][c]), cell=[r, c])
                 for r in range(n) for c in range(n)]
    how = pic.play(pic.TYPE, range(1, n + 1), help=pic.TYPED)
    return pic.picture((-1, -1, n + 1, n + 1), variables, shapes, axes=pic.grid_axes(n, n),
                       verb="be", how_to_play=how)


def solution_domains(puzzle: Towers, solution: Sequence[Sequence[int]]
                     ) -> dict[Hashable, tuple[int, ...]]:
    """A solved grid as one value per cell (0, no height, is left out)."""
    n = puzzle.size
    return {(r, c): (solution[r][c],) for r in range(n) for c in range(n) if solution[r][c]}


# -- the editor ----------------------------------------------------------------------------
def editor_cells(puzzle: Towers) -> list[list[str]]:
    n = puzzle.size

    def shown(x: int) -> str:
        return str(x) if x else NO_CLUE

    cells = [[" "] * (n + 2) for _ in range(n + 2)]
    for i in range(n):
        cells[0][i + 1] = shown(puzzle.top[i])
        cells[n + 1][i + 1] = shown(puzzle.bottom[i])
        cells[i + 1][0] = shown(puzzle.left[i])
        cells[i + 1][n + 1] = shown(puzzle.right[i])
        for j in range(n):
            cells[i + 1][j + 1] = shown(puzzle.givens[i][j])
    return cells


def editor_options(height: int, width: int, row: int, col: int) -> list[str]:
    """No clue or 1..n in the ring and inside; nothing in the four corners (n: the height,
    which is the width)."""
    corner = row in (0, height + 1) and col in (0, height + 1)
    return [] if corner else [NO_CLUE] + [str(k) for k in range(1, height + 1)]


def editor_text(cells: list[list[str]]) -> str:
    n = len(cells) - 2
    inner = range(1, n + 1)
    lines = [f"{n} {n} {n}",
             " ".join(cells[0][i] for i in inner),
             " ".join(cells[n + 1][i] for i in inner),
             " ".join(cells[i][0] for i in inner),
             " ".join(cells[i][n + 1] for i in inner)]
    lines += [" ".join(cells[r][c] for c in inner) for r in inner]
    return "\n".join(lines) + "\n"
