"""What a Kakuro search state looks like, as plain data.

Clue cells are dark with a diagonal, the down sum in the lower-left half and the right sum in
the upper-right half; each white cell is a variable showing its digit, or its candidates as
pencil marks in a 3x3 keypad (1 top left, 9 bottom right). Played as the digit puzzles of
Tatham's collection: click a cell and type a digit; pencil marks are its candidates.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from ..puzzle import picture as pic

if TYPE_CHECKING:
    from .model import Kakuro

BLOCK = "#3a3a3a"
CLUE = "#5a5a5a"
KEYPAD = list(range(1, 10))


def picture_of(puzzle: Kakuro) -> pic.Picture:
    """The picture of `puzzle`: fixed clue cells, one `digits` variable per white cell."""
    shapes, variables = [], []
    whites = set(puzzle.whites)
    for r, row in enumerate(puzzle.grid):
        for c, cell in enumerate(row):
            if (r, c) in whites:
                variables.append(pic.cell_variable((r, c), r, c, pic.DIGITS, name=f"cell ({r},{c})",
                                                   layout=[pic.key(d) for d in KEYPAD],
                                                   cell=[r, c]))
                continue
            shapes.append(pic.rect(c, r, 1, 1, fill=BLOCK, stroke="#222", width=0.02))
            down, right = getattr(cell, "down", None), getattr(cell, "right", None)
            if down is None and right is None:
                continue
            if down is not None:
                shapes.append(pic.polygon([(c, r), (c + 1, r + 1), (c, r + 1)], CLUE))
                shapes.append(pic.label(c + 0.3, r + 0.72, str(down), 0.3, "#fff", bold=True))
            if right is not None:
                shapes.append(pic.label(c + 0.7, r + 0.3, str(right), 0.3, "#fff", bold=True))
            shapes.append(pic.line(c, r, c + 1, r + 1, stroke="#ddd", width=0.02))
    how = pic.play(pic.TYPE, KEYPAD, help=pic.TYPED)
    return pic.picture((0, 0, puzzle.width, puzzle.height), variables, shapes,
                       axes=pic.grid_axes(puzzle.height, puzzle.width), verb="be",
                       how_to_play=how)


def solution_domains(puzzle: Kakuro, solution: Sequence[Sequence[int | None]]
                     ) -> dict[Hashable, tuple[int, ...]]:
    """A solved grid as one value per white cell (cells with no digit are left out)."""
    digits = {(r, c): solution[r][c] for r, c in puzzle.whites}
    return {cell: (digit,) for cell, digit in digits.items() if digit is not None}
