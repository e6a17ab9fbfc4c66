"""What a Singles search state looks like, as plain data, and how the editor writes a grid.

Each cell is a variable with its number: dark once shaded, white with a green ring once
kept, light blue while undecided. Played as Tatham's Singles: a click cycles a cell
(shaded, circled, open), a right-click circles it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..puzzle import picture as pic
from .rules import SHADED, UNSHADED

if TYPE_CHECKING:
    from .model import Singles


def picture_of(puzzle: Singles) -> pic.Picture:
    """The picture of `puzzle`: one `shade` variable per cell, labelled with its number."""
    variables = [pic.cell_variable((r, c), r, c, pic.SHADE, name=f"cell ({r},{c})",
                                   label=str(number), on=pic.key(SHADED), cell=[r, c])
                 for r, row in enumerate(puzzle.grid) for c, number in enumerate(row)]
    how = pic.play(pic.CYCLE, (SHADED, UNSHADED), alt=UNSHADED, blank=UNSHADED, help=(
        "click a cell: shaded, then circled (kept white), then open again; right-click "
        "circles. Keys: the arrows move, Enter or space cycles the cell"))
    return pic.picture((0, 0, puzzle.width, puzzle.height), variables,
                       axes=pic.grid_axes(puzzle.height, puzzle.width),
                       value_words={SHADED: "shaded", UNSHADED: "unshaded"}, verb="be",
                       how_to_play=how)


def solution_domains(puzzle: Singles, shaded: Iterable[Sequence[int]]
                     ) -> dict[Hashable, tuple[int, ...]]:
    """The shaded cells as one value per cell: shaded, or not."""
    dark = {tuple(cell) for cell in shaded}
    return {(r, c): (SHADED if (r, c) in dark else UNSHADED,)
            for r in range(puzzle.height) for c in range(puzzle.width)}


# -- the editor: a number in each cell ---------------------------------------------------------
def editor_cells(puzzle: Singles) -> list[list[str]]:
    return [[str(x) for x in row] for row in puzzle.grid]


def editor_options(height: int, width: int, row: int, col: int) -> list[str]:
    """The numbers up to the longer side, in every cell."""
    return [str(k) for k in range(1, max(height, width) + 1)]


def editor_text(cells: list[list[str]]) -> str:
    body = "\n".join(" ".join(row) for row in cells)
    return f"{len(cells)} {len(cells[0])}\n{body}\n"
