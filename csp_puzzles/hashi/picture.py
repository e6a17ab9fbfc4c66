"""What a Hashi search state looks like, as plain data, and how the editor writes a grid.

Islands are discs with their number (green once every edge around them is decided); each edge
variable is a line between two island centres, drawn as its bridges, or dashed with the
counts still possible. Island (r, c) sits at x = c, y = r, so the row and column numbers
round the grid are the ones the sentences use ("edge (2,0)-(2,5)").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import picture as pic

if TYPE_CHECKING:
    from .model import Hashi

ISLAND = "#fff6d5"
DONE = "#cdebc5"
WATER = "#eaf3fb"
RADIUS = 0.38
MOST_BRIDGES = 8  # an island has at most 4 neighbours, 2 bridges each in the classic rules
WATER_CELL = "."


def describe(puzzle: Hashi) -> pic.Picture:
    """The picture of `puzzle`: one `bridges` variable per edge, islands drawn over them."""
    variables = []
    touching: dict[int, list[tuple[int, int, int, int]]] = {}
    for edge in puzzle.edges:
        a, b = puzzle.islands[edge.a], puzzle.islands[edge.b]
        variables.append(pic.line_variable(edge.key, (a.col, a.row), (b.col, b.row),
                                           name=f"edge {edge}"))
        touching.setdefault(edge.a, []).append(edge.key)
        touching.setdefault(edge.b, []).append(edge.key)
    over = []
    for island in puzzle.islands:
        over.append(pic.circle(island.col, island.row, RADIUS, fill=ISLAND, width=0.035,
                               decided=touching.get(island.index, []), decided_fill=DONE))
        over.append(pic.label(island.col, island.row, str(island.value), 0.45, bold=True))
    counts = range(puzzle.maxb + 1)
    return pic.picture(
        (-0.5, -0.5, puzzle.width - 0.5, puzzle.height - 0.5), variables, over=over,
        axes=pic.grid_axes(puzzle.height, puzzle.width, -0.5, -0.5), background=WATER,
        value_words={n: f"{n} bridge" + ("" if n == 1 else "s") for n in counts}, verb="carry")


# -- the editor: water or an island 1-8 in each cell ------------------------------------------
def editor_cells(puzzle: Hashi) -> list[list[str]]:
    cells = [[WATER_CELL] * puzzle.width for _ in range(puzzle.height)]
    for island in puzzle.islands:
        cells[island.row][island.col] = str(island.value)
    return cells


def editor_options() -> list[str]:
    return [WATER_CELL] + [str(k) for k in range(1, MOST_BRIDGES + 1)]


def editor_text(cells: list[list[str]]) -> str:
    return "\n".join("".join(row) for row in cells) + "\n"
