"""Reading Singles puzzles; writing them is the puzzle's `to_text` and `to_tatham`.

Accepted (detected automatically):

- Tatham Singles game IDs `WxH:desc`: W*H characters in reading order, `1`-`9`, then
  `a`-`z` for 10-35 and `A`-`Z` for 36-61; no number may exceed max(W, H);
- grid text (janko.at and the native format): an optional header `R C`, then one row per
  line of whitespace-separated positive integers (rows of one-digit numbers may be written
  without separators, like `41124`). Blank lines and `#` lines are ignored.
"""

from __future__ import annotations

from ..core.errors import ParseError
from ..puzzle.formats import (
    Token,
    by_format,
    check_header,
    check_rectangular,
    check_width,
    game_id_sides,
    grid_rows,
    header_numbers,
    is_number,
    read_game_id,
    split_compact,
)
from ..puzzle.limits import GRID_SIDE
from .model import TATHAM_DIGITS, Singles

#: his parameters: the width, then the height (`5x5`, or `5` for a square) and a
#: difficulty letter (`5x5dk`); the rest is ignored
_TATHAM_FIELDS = (("x", "number"), ("d", "char"))
TATHAM_FORMAT = "WxH:desc (like 5x5:41124...)"
MAX_SIDE = GRID_SIDE["singles"]


def parse(text: str, filename: str | None = None) -> Singles:
    """A Singles puzzle from a Tatham game ID or grid text; raises `ParseError`."""
    return by_format(text, filename, parse_tatham, parse_grid)


def parse_tatham(text: str, filename: str | None = None) -> Singles:
    game_id, params = read_game_id(text, _TATHAM_FIELDS, TATHAM_FORMAT, filename)
    width, height = game_id_sides(game_id, params, MAX_SIDE, filename)
    largest = max(width, height)
    numbers: list[int] = []
    for i, ch in enumerate(game_id.desc):
        if len(numbers) == width * height:
            raise game_id.error(f"extra character {ch!r} after {width * height} cells, "
                                "expected the ID to end", i, filename)
        value = TATHAM_DIGITS.find(ch) + 1
        if value == 0:
            raise game_id.error(f"{ch!r} is not a Singles number, expected 1-9, a-z or A-Z",
                                i, filename)
        if value > largest:
            raise game_id.error(f"number {value} ({ch!r}) is above {largest}, expected "
                                f"numbers 1..max(W, H) = 1..{largest}", i, filename)
        numbers.append(value)
    if len(numbers) < width * height:
        raise game_id.error(f"the ID has {len(numbers)} cells, expected {width}x{height} = "
                            f"{width * height}", len(game_id.desc), filename)
    grid = tuple(tuple(numbers[r * width:(r + 1) * width]) for r in range(height))
    return Singles(grid)


def parse_grid(text: str, filename: str | None = None) -> Singles:
    rows = grid_rows(text, filename, MAX_SIDE)
    header = header_numbers(rows[0], 2)
    if header is not None:
        height, width = header
        check_header(rows[0], height, width, MAX_SIDE, filename)
        body = rows[1:]
        if width != 1:
            body = [split_compact(row) for row in body]
        if len(body) == height and height > 0 and all(len(row) == width for row in body):
            rows = body
        elif len(body) != height and len(rows[0]) == 2 and len(body) > 0 and \
                all(len(split_compact(row)) == 2 for row in body):
            rows = [split_compact(row) for row in rows]  # a two-column grid, no header
        else:
            _header_mismatch(rows[0], body, height, width, filename)
    else:
        rows = [split_compact(row) for row in rows]
    check_width(rows, len(rows[0]), MAX_SIDE, filename)
    grid = tuple(tuple(_number(token, filename) for token in row) for row in rows)
    return Singles(grid)


def _header_mismatch(header: list[Token], body: list[list[Token]], height: int, width: int,
                     filename: str | None) -> None:
    if height == 0 or width == 0:
        raise header[0].error(f"header {height} {width} has an empty side, expected R C >= 1",
                              filename)
    for row in body:
        for token in row:
            _number(token, filename)
    if len(body) != height:
        last = body[-1][-1] if body else header[-1]
        raise ParseError(f"{len(body)} rows after the header, expected {height}",
                         last.line, last.column, filename)
    check_rectangular(body, width, filename)


def _number(token: Token, filename: str | None) -> int:
    if not is_number(token.text) or int(token.text) == 0:
        raise token.error(f"{token.text!r} is not a cell number, expected a positive integer",
                          filename)
    return int(token.text)
