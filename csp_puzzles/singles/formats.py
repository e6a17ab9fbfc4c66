"""Reading Singles puzzles; writing them is the puzzle's `to_text` and `to_tatham`.

Accepted (detected automatically):

- Tatham Singles game IDs `WxH:desc`: W*H characters in reading order, `1`-`9`, then
  `a`-`z` for 10-35 and `A`-`Z` for 36-61; no number may exceed max(W, H);
- grid text (janko.at and the native format): an optional header `R C`, then one row per
  line of whitespace-separated positive integers (rows of one-digit numbers may be written
  without separators, like `41124`). Blank lines and `#` lines are ignored.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..formats import (
    Token,
    check_rectangular,
    empty_input,
    header_numbers,
    split_compact,
    text_lines,
)
from .model import TATHAM_DIGITS, Singles

_TATHAM = re.compile(r"(\d+)x(\d+)([A-Za-z]*):")


def parse(text: str, filename: str | None = None) -> Singles:
    """A Singles puzzle from a Tatham game ID or grid text; raises `ParseError`."""
    stripped = text.strip()
    if _TATHAM.match(stripped):
        return parse_tatham(text, filename)
    return parse_grid(text, filename)


def _where(text: str, offset: int) -> tuple[int, int]:
    """Line and column (from 1) of a character offset in `text`."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def parse_tatham(text: str, filename: str | None = None) -> Singles:
    start = len(text) - len(text.lstrip())
    body = text.strip()
    match = _TATHAM.match(body)
    if match is None:
        raise ParseError("expected a Tatham Singles ID like 5x5:41124...", *_where(text, start),
                         filename)
    width, height = int(match.group(1)), int(match.group(2))
    if width < 1 or height < 1:
        raise ParseError(f"grid size {width}x{height} is empty, expected WxH with W, H >= 1",
                         *_where(text, start), filename)
    largest = max(width, height)
    desc = body[match.end():]
    base = start + match.end()
    numbers: list[int] = []
    for i, ch in enumerate(desc):
        if len(numbers) == width * height:
            raise ParseError(f"extra character {ch!r} after {width * height} cells, expected "
                             f"the ID to end", *_where(text, base + i), filename)
        value = TATHAM_DIGITS.find(ch) + 1
        if value == 0:
            raise ParseError(f"{ch!r} is not a Singles number, expected 1-9, a-z or A-Z",
                             *_where(text, base + i), filename)
        if value > largest:
            raise ParseError(f"number {value} ({ch!r}) is above {largest}, expected numbers "
                             f"1..max(W, H) = 1..{largest}", *_where(text, base + i), filename)
        numbers.append(value)
    if len(numbers) < width * height:
        raise ParseError(f"the ID has {len(numbers)} cells, expected {width}x{height} = "
                         f"{width * height}", *_where(text, base + len(desc)), filename)
    grid = tuple(tuple(numbers[r * width:(r + 1) * width]) for r in range(height))
    return Singles(grid)


def parse_grid(text: str, filename: str | None = None) -> Singles:
    rows = text_lines(text)
    if not rows:
        raise empty_input(filename)
    header = header_numbers(rows[0], 2)
    if header is not None:
        height, width = header
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
    if not token.text.isdigit() or int(token.text) == 0:
        raise token.error(f"{token.text!r} is not a cell number, expected a positive integer",
                          filename)
    return int(token.text)
