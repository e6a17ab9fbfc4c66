"""Reading Kakuro text (the janko.at format) with errors that point at the faulty cell.

    10 12                      <- optional header: rows, columns
    -  -  16,  15, ...         <- `-` block, `0` or `.` white cell,
    - 23,7  0   0 ...             `d,r` clue: down sum d, right sum r (`16,` or `,23`)

Besides bad tokens, the parser rejects grids no solver could make sense of: a clue whose run
is empty or longer than 9 cells, a sum no set of distinct digits can make in that many cells
(like 3 in 3 cells), a white cell outside any clued run, ragged rows.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.errors import ParseError
from ..puzzle.formats import (
    Token,
    check_header,
    check_width,
    grid_rows,
    header_numbers,
    split_compact,
)
from ..puzzle.limits import GRID_SIDE
from .combinations import combinations, sum_range
from .model import BLOCK, WHITE, Clue, Kakuro, find_runs

_CLUE = re.compile(r"([0-9]{0,6}),([0-9]{0,6})")
MAX_SIDE = GRID_SIDE["kakuro"]
EXPECTED = ("expected '-' (block), '0' or '.' (white cell) or a clue 'down,right' like '16,' "
            "or ',23'")


def _cell(token: Token, filename: str | None) -> str | Clue:
    text = token.text
    if text == BLOCK:
        return BLOCK
    if text in (WHITE, "."):
        return WHITE
    match = _CLUE.fullmatch(text)
    if match is None:
        raise token.error(f"bad cell {text!r}, {EXPECTED}", filename)
    down, right = (int(x) if x else None for x in match.groups())
    for value in (down, right):
        if value is not None and value == 0:
            raise token.error(f"clue {text!r} has a zero sum, expected sums from 1 to 45",
                              filename)
    return Clue(down, right)


def parse(text: str, filename: str | None = None) -> Kakuro:
    """Read a Kakuro grid; raises `ParseError` (with line and column) on bad input."""
    rows = grid_rows(text, filename, MAX_SIDE)
    header = header_numbers(rows[0], 2)
    width = None
    if header is not None and all(header):  # no grid row is two positive numbers
        height, width = header
        check_header(rows[0], height, width, MAX_SIDE, filename)
        head, rows = rows[0], rows[1:]
        if len(rows) != height:
            message = f"the header announces {height} rows, found {len(rows)}"
            if len(rows) > height:
                raise rows[height][0].error(message + ", expected no more rows", filename)
            line = (rows[-1] if rows else head)[0].line + 1
            raise ParseError(message + ", expected more rows", line, 1, filename)
    rows = [row if any("," in t.text for t in row) else split_compact(row) for row in rows]
    width = width if width is not None else len(rows[0])
    check_width(rows, width, MAX_SIDE, filename)
    grid = [[_cell(token, filename) for token in row] for row in rows]
    _check_runs(grid, rows, filename)
    return Kakuro(grid)


def _check_runs(grid: list[list[Any]], tokens: list[list[Token]],
                filename: str | None) -> None:
    """Every clue has a possible run, and every white cell lies in a clued run each way."""
    covered: dict[str, set] = {"across": set(), "down": set()}
    for run in find_runs(grid):
        token = tokens[run.clue[0]][run.clue[1]]
        where = "to its right" if run.direction == "across" else "below it"
        length = len(run.cells)
        if length == 0:
            raise token.error(f"the {run.direction} sum {run.total} has no white cell {where}, "
                              f"expected a run of 1 to 9 white cells", filename)
        if length > 9:
            raise token.error(f"the {run.direction} run of {length} white cells is too long, "
                              f"expected at most 9 (digits cannot repeat)", filename)
        if not combinations(length, run.total):
            low, high = sum_range(length)
            raise token.error(f"no {length} different digits add up to {run.total}, expected "
                              f"a {run.direction} sum from {low} to {high} for {length} cells",
                              filename)
        covered[run.direction].update(run.cells)
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell != WHITE:
                continue
            for direction, before in (("across", "left of"), ("down", "above")):
                if (r, c) not in covered[direction]:
                    raise tokens[r][c].error(
                        f"white cell is in no {direction} run, expected a clue with a "
                        f"{'right' if direction == 'across' else 'down'} sum {before} its "
                        f"line of white cells", filename)
