"""What a Hashi search state looks like, as plain data, and how the editor writes a grid.

Islands are discs with their number (green once every edge around them is decided); each edge
variable is a line between two island centres, drawn as its bridges, or dashed with the
counts still possible written at its middle. Island (r, c) sits at x = c, y = r, so the row
and column numbers round the grid are the ones the sentences use ("edge (2,0)-(2,5)").

Played as Tatham's Bridges: a drag from an island to another in its row or column lays a
bridge, again two, again none; a right-drag or Shift-drag marks "no bridge" (0).

An edge whose middle is a crossing (another edge passes there) writes its counts half a
cell towards its first island instead. Then no count sits on a crossing, and no two counts
overlap: a horizontal edge's sit on its row, a vertical edge's on its column, and the two
could only meet at a crossing.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from ..puzzle import picture as pic

if TYPE_CHECKING:
    from .model import Edge, Hashi

ISLAND = "#fff6d5"
DONE = "#cdebc5"
WATER = "#eaf3fb"
RADIUS = 0.38
MOST_BRIDGES = 8  # an island has at most 4 neighbours, 2 bridges each in the classic rules
WATER_CELL = "."


def picture_of(puzzle: Hashi) -> pic.Picture:
    """The picture of `puzzle`: one `bridges` variable per edge, islands drawn over them."""
    variables = []
    touching: dict[int, list[tuple[int, int, int, int]]] = {}
    crossed = crossing_cells(puzzle)
    for edge in puzzle.edges:
        a, b = puzzle.islands[edge.a], puzzle.islands[edge.b]
        variables.append(pic.line_variable(edge.key, (a.col, a.row), (b.col, b.row),
                                           name=f"edge {edge}", mark=mark(puzzle, edge, crossed)))
        variables[-1]["ends"] = [[a.row, a.col], [b.row, b.col]]
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
        value_words={n: f"{n} bridge" + ("" if n == 1 else "s") for n in counts}, verb="carry",
        how_to_play=how_to_play(puzzle))


def how_to_play(puzzle: Hashi) -> dict[str, Any]:
    """Tatham's gestures: drag between islands (1, 2, ..., then none); right-drag or
    Shift-drag: no bridge."""
    islands = [pic.island(i.row, i.col, i.col, i.row, RADIUS, f"island {i}",
                          need=i.value) for i in puzzle.islands]
    return pic.play(pic.DRAG, range(1, puzzle.maxb + 1), none=0, blank=0, cells=islands,
                    laid="{name}: {n} of {k} bridges", help=(
                        "drag from an island to another in its row or column: 1 bridge, "
                        "again 2, again none; right-drag or Shift-drag: no bridge. Keys: "
                        "the arrows move between islands, Ctrl+arrow lays a bridge that "
                        "way, Shift+arrow marks no bridge (or Enter, then an arrow)"))


def crossing_cells(puzzle: Hashi) -> set[tuple[int, int]]:
    """The water cells (x, y) where a horizontal and a vertical edge cross."""
    cells = set()
    for h, v in puzzle.crossings:
        row = puzzle.islands[puzzle.edges[h].a].row
        col = puzzle.islands[puzzle.edges[v].a].col
        cells.add((col, row))
    return cells


def mark(puzzle: Hashi, edge: Edge, crossed: set[tuple[int, int]]) -> tuple[float, float] | None:
    """Where the edge's possible counts are written: None (its middle), or half a cell
    towards its first island when another edge crosses at that middle."""
    a, b = puzzle.islands[edge.a], puzzle.islands[edge.b]
    x, y = (a.col + b.col) / 2, (a.row + b.row) / 2
    if (x, y) not in crossed:
        return None
    return (x - 0.5, y) if edge.horizontal else (x, y - 0.5)


def solution_domains(puzzle: Hashi, solution: Any) -> dict[Hashable, tuple[int, ...]]:
    """A solution (`{edge key: bridges}`, the JSON's `{"bridges": [[r1, c1, r2, c2, n],
    ...]}` or its list) as one value per edge variable: 0 where no bridge is built."""
    if isinstance(solution, Mapping) and "bridges" in solution:
        solution = solution["bridges"]
    if isinstance(solution, Mapping):
        built = {tuple(k): n for k, n in solution.items()}
    else:
        built = {tuple(entry[:4]): entry[4] for entry in solution}
    return {edge.key: (built.get(edge.key, 0),) for edge in puzzle.edges}


# -- the editor: water or an island 1-8 in each cell ------------------------------------------
def editor_cells(puzzle: Hashi) -> list[list[str]]:
    cells = [[WATER_CELL] * puzzle.width for _ in range(puzzle.height)]
    for island in puzzle.islands:
        cells[island.row][island.col] = str(island.value)
    return cells


def editor_options(height: int, width: int, row: int, col: int) -> list[str]:
    """Water or an island, in every cell."""
    return [WATER_CELL] + [str(k) for k in range(1, MOST_BRIDGES + 1)]


def editor_text(cells: list[list[str]]) -> str:
    return "\n".join("".join(row) for row in cells) + "\n"
