"""Reading Singles puzzles; writing them is the puzzle's `to_text` and `to_tatham`.

Accepted (detected automatically):

- Tatham Singles game IDs `WxH:desc`: W*H characters in reading order, `1`-`9`, then
  `a`-`z` for 10-35 and `A`-`Z` for 36-61; no number may exceed max(W, H);
- grid text (janko.at and the native format): an optional header `R C`, then one row per
  line of whitespace-separated positive integers (rows of one-digit numbers may be written
  without separators, like `41124`). Blank lines and `#` lines are ignored.
"""

from __future__ import annotations

from ..errors import ParseError
from ..formats import (
    Token,
    bad_params,
    check_rectangular,
    check_size,
    empty_input,
    header_numbers,
    is_number,
    looks_like_game_id,
    prepare,
    read_params,
    split_compact,
    split_game_id,
    text_lines,
)
from ..limits import GRID_SIDE
from .model import TATHAM_DIGITS, Singles

#: his parameters: the width, then the height (`5x5`, or `5` for a square) and a
#: difficulty letter (`5x5dk`); the rest is ignored
_TATHAM_FIELDS = (("x", "number"), ("d", "char"))
TATHAM_FORMAT = "WxH:desc (like 5x5:41124...)"
MAX_SIDE = GRID_SIDE["singles"]


def parse(text: str, filename: str | None = None) -> Singles:
    """A Singles puzzle from a Tatham game ID or grid text; raises `ParseError`."""
    text = prepare(text, filename)
    if looks_like_game_id(text):
        return parse_tatham(text, filename)
    return parse_grid(text, filename)


def parse_tatham(text: str, filename: str | None = None) -> Singles:
    game_id = split_game_id(prepare(text, filename), TATHAM_FORMAT, filename)
    params = read_params(game_id.params, _TATHAM_FIELDS)
    if params is None:
        raise bad_params(game_id, TATHAM_FORMAT, filename)
    width = params[""]
    height = params.get("x", width)
    if width < 1 or height < 1:
        raise game_id.error(f"grid size {width}x{height} is empty, expected WxH with W, H >= 1",
                            -len(game_id.params) - 1, filename)
    check_size("the width", width, MAX_SIDE, (game_id.line, 1), filename)
    check_size("the height", height, MAX_SIDE, (game_id.line, 1), filename)
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
    rows = text_lines(prepare(text, filename))
    if not rows:
        raise empty_input(filename)
    check_size("the number of rows", len(rows), MAX_SIDE + 1, (rows[-1][0].line, 1), filename)
    header = header_numbers(rows[0], 2)
    if header is not None:
        height, width = header
        check_size("the header's row count", height, MAX_SIDE, (rows[0][0].line, 1), filename)
        check_size("the header's column count", width, MAX_SIDE, (rows[0][1].line, 1),
                   filename)
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
    check_size("the number of columns", len(rows[0]), MAX_SIDE, (rows[0][0].line, 1), filename)
    check_rectangular(rows, len(rows[0]), filename)
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
