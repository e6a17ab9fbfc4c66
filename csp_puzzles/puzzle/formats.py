"""Reading grid text, the shape shared by every puzzle's native format.

Native grid text is an optional header line, then one line per row. Blank lines and lines
starting with `#` are ignored; cells are separated by whitespace, and rows of one-character
cells may also be written without separators. Every token remembers its line and column so
that a puzzle's parser can raise a `ParseError` that points at the exact cell.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..core.errors import ParseError
from .limits import GRID_SIDE, INPUT_BYTES

#: The longest number any format needs (sizes, sums, clues); longer digit strings are
#: refused, which also keeps `int()` away from Python's limit on very long digit strings.
MAX_DIGITS = 6
_WORD = re.compile(r"\S+")
#: The widest grid any kind reads (see limits.py).
MAX_ROW_CELLS = max(GRID_SIDE.values())
#: A UTF-8 byte order mark, as some Windows editors write at the start of a file.
BOM = "\ufeff"
#: what a parser returns (a puzzle)
P = TypeVar("P")


@dataclass(frozen=True)
class Token:
    """One cell of grid text and where it stood (line and column count from 1)."""

    text: str
    line: int
    column: int

    def error(self, message: str, filename: str | None = None) -> ParseError:
        return ParseError(message, self.line, self.column, filename)


def is_number(text: str) -> bool:
    """ASCII digits only, at most `MAX_DIGITS` of them.

    `str.isdigit` also accepts `²`, Arabic-Indic or fullwidth digits, which `int()` then
    rejects or silently reads: puzzle files use ASCII digits, so nothing else is a number.
    """
    return 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()


def strip_bom(text: str) -> str:
    """The text without a leading UTF-8 byte order mark."""
    return text[1:] if text.startswith(BOM) else text


def prepare(text: str, filename: str | None) -> str:
    """What every parser does first: refuse text above the input cap, drop a BOM."""
    if not isinstance(text, str):
        raise TypeError(f"parse expects the puzzle as a str, not {type(text).__name__}")
    if len(text) > INPUT_BYTES:
        raise ParseError(f"the input has {len(text)} characters, above the cap of "
                         f"{INPUT_BYTES}, expected a smaller puzzle", 1, 1, filename)
    return strip_bom(text)


def by_format(text: str, filename: str | None, game_id: Callable[[str, str | None], P],
              grid: Callable[[str, str | None], P]) -> P:
    """What every `parse` does: refuse text above the cap, then read a Tatham game ID
    with `game_id` and anything else with `grid`."""
    text = prepare(text, filename)
    return (game_id if looks_like_game_id(text) else grid)(text, filename)


def looks_like_game_id(text: str) -> bool:
    """True when the first line that is not blank or a comment holds a `:`.

    No grid text has a `:`, and every Tatham game ID has one, so even a mistyped ID is
    read (and reported) as a game ID rather than as a grid.
    """
    for raw in strip_bom(text).splitlines():
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            return ":" in stripped
    return False


@dataclass(frozen=True)
class GameId:
    """A Tatham game ID cut at its first `:`: the parameters and the description.

    `column` is where the description starts on line `line` (counting from 1).
    """

    params: str
    desc: str
    line: int
    column: int

    def error(self, message: str, offset: int, filename: str | None) -> ParseError:
        """An error at `offset` characters into the description (negative: the parameters)."""
        return ParseError(message, self.line, max(1, self.column + offset), filename)


def split_game_id(text: str, expected: str, filename: str | None) -> GameId:
    """Find the one game ID line of `text`; `expected` describes the format in errors."""
    lines = [(number, raw) for number, raw in enumerate(strip_bom(text).splitlines(), 1)
             if raw.strip() and not raw.strip().startswith("#")]
    if not lines:
        raise empty_input(filename)
    number, raw = lines[0]
    if len(lines) > 1:
        raise ParseError(f"a second line after the game ID, expected {expected} on one line",
                         lines[1][0], 1, filename)
    start = len(raw) - len(raw.lstrip())
    params, _, desc = raw.strip().partition(":")
    return GameId(params, desc, number, start + len(params) + 2)


#: a field of Tatham's game ID parameters: its letter, and what follows it: "number"
#: (`m2`), "char" (one character: `dh`) or "flag" (nothing: `L`)
ParamField = tuple[str, str]


def read_params(params: str, fields: Sequence[ParamField]) -> dict[str, Any] | None:
    """Tatham's game ID parameters, read the way his games read them (`decode_params`).

    First a number (the size; its key is ""), then each field of `fields` in that order,
    each only if its letter comes next; reading stops at the first character that is not
    the next field's letter, and the rest is ignored, as in his games (so `7X7m2` is 7x7,
    and `7x7m2Z` is 7x7m2). None when the parameters do not start with a number.
    """
    digits = re.match(r"[0-9]{1,9}", params)
    if digits is None:
        return None
    found: dict[str, Any] = {"": int(digits.group())}
    pos = digits.end()
    for letter, kind in fields:
        if not params.startswith(letter, pos):
            continue
        pos += 1
        if kind == "flag":
            found[letter] = True
        elif kind == "char":
            found[letter] = params[pos:pos + 1]
            pos += 1
        else:
            number = re.match(r"[0-9]{0,9}", params[pos:])
            assert number is not None  # zero digits match
            found[letter] = int(number.group() or 0)
            pos += number.end()
    return found


def read_game_id(text: str, fields: Sequence[ParamField], expected: str,
                 filename: str | None) -> tuple[GameId, dict[str, Any]]:
    """The one game ID of `text` and its parameters (`read_params`); `expected` describes
    the format in errors."""
    game_id = split_game_id(prepare(text, filename), expected, filename)
    params = read_params(game_id.params, fields)
    if params is None:
        raise game_id.error(f"bad Tatham game ID parameters {game_id.params!r}, expected "
                            f"{expected}", -len(game_id.params) - 1, filename)
    return game_id, params


def game_id_sides(game_id: GameId, params: dict[str, Any], max_side: int,
                  filename: str | None) -> tuple[int, int]:
    """The width and height of `WxH` parameters (`W` alone: a square), each from 1 to
    `max_side`."""
    width = params[""]
    height = params.get("x", width)
    if width < 1 or height < 1:
        raise game_id.error(f"grid size {width}x{height} is empty, expected WxH with W, H >= 1",
                            -len(game_id.params) - 1, filename)
    check_size("the width", width, max_side, (game_id.line, 1), filename)
    check_size("the height", height, max_side, (game_id.line, 1), filename)
    return width, height


def check_size(what: str, size: int, cap: int, where: tuple[int, int],
               filename: str | None) -> None:
    """Refuse a dimension above the kind's cap (the caps are listed in the README)."""
    if size > cap:
        raise ParseError(f"{what} {size} is above the cap of {cap}, expected at most {cap}",
                         *where, filename)


def text_lines(text: str) -> list[list[Token]]:
    """Split text into rows of whitespace-separated tokens, skipping blank and `#` lines.

    CRLF line endings (as in the Coelho et al. `.has` files) and a leading byte order
    mark are accepted.
    """
    text = strip_bom(text)
    rows: list[list[Token]] = []
    for number, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(rows) > MAX_ROW_CELLS:  # a header and the tallest grid are behind
            raise ParseError(f"more than {MAX_ROW_CELLS + 1} lines of cells, above the cap "
                             f"of {MAX_ROW_CELLS} rows, expected a smaller grid", number, 1)
        tokens: list[Token] = []
        for match in _WORD.finditer(raw):
            if len(tokens) == MAX_ROW_CELLS:
                raise ParseError(f"more than {MAX_ROW_CELLS} cells on one line, above the "
                                 "cap of cells per row, expected a smaller grid", number,
                                 match.start() + 1)
            tokens.append(Token(match.group(), number, match.start() + 1))
        rows.append(tokens)
    return rows


def grid_rows(text: str, filename: str | None, max_side: int) -> list[list[Token]]:
    """The rows of grid text, at least one and at most `max_side` besides a header."""
    rows = text_lines(prepare(text, filename))
    if not rows:
        raise empty_input(filename)
    check_size("the number of rows", len(rows), max_side + 1, (rows[-1][0].line, 1), filename)
    return rows


def check_header(header: list[Token], height: int, width: int, max_side: int,
                 filename: str | None) -> None:
    """Refuse a header `R C` whose sides are above `max_side`."""
    check_size("the header's row count", height, max_side, (header[0].line, 1), filename)
    check_size("the header's column count", width, max_side, (header[1].line, 1), filename)


def split_compact(row: list[Token]) -> list[Token]:
    """A row written without separators (`1.2..3`) as one token per character."""
    if len(row) != 1 or len(row[0].text) == 1:
        return row
    token = row[0]
    if len(token.text) > MAX_ROW_CELLS:  # above every kind's cap: no need to split it
        raise token.error(f"a row of {len(token.text)} cells is above the cap of "
                          f"{MAX_ROW_CELLS} cells per row, expected a smaller grid")
    return [Token(ch, token.line, token.column + i) for i, ch in enumerate(token.text)]


def header_numbers(row: list[Token], count: int) -> list[int] | None:
    """The row as `count` positive integers if it looks like a header, else None."""
    if len(row) != count or not all(is_number(t.text) for t in row):
        return None
    return [int(t.text) for t in row]


def check_width(rows: list[list[Token]], width: int, max_side: int,
                filename: str | None) -> None:
    """Refuse rows wider than `max_side`, or of another length than `width`."""
    check_size("the number of columns", width, max_side, (rows[0][0].line, 1), filename)
    check_rectangular(rows, width, filename)


def check_rectangular(rows: list[list[Token]], width: int, filename: str | None) -> None:
    """Raise on the first row whose length differs from `width` (a ragged grid)."""
    for row in rows:
        if len(row) != width:
            where = row[min(len(row), width) - 1] if len(row) > width else row[-1]
            if len(row) > width:
                where = row[width]
                raise where.error(
                    f"row has {len(row)} cells, expected {width} like the rows before", filename
                )
            raise ParseError(
                f"row has {len(row)} cells, expected {width} like the rows before",
                where.line,
                where.column + len(where.text),
                filename,
            )


def empty_input(filename: str | None) -> ParseError:
    return ParseError("no grid found, expected at least one row of cells", 1, 1, filename)


def decode_letter_run(ch: str) -> int | None:
    """Tatham's run-length letters: `a`-`z` stand for 1-26 empty cells."""
    if "a" <= ch <= "z":
        return ord(ch) - ord("a") + 1
    return None


def encode_runs(cells: list[str | None], between: str = "") -> str:
    """Tatham's run-length encoding: `None` cells become `a`-`z` runs, others are written,
    with `between` between two written cells in a row (Towers writes `_` there)."""
    out: list[str] = []
    run = 0
    after_cell = False  # the last thing written is a cell, not a run
    for cell in cells:
        if cell is None:
            run += 1
            after_cell = False
            if run == 26:
                out.append("z")
                run = 0
            continue
        if run:
            out.append(chr(ord("a") + run - 1))
            run = 0
        elif after_cell:
            out.append(between)
        out.append(cell)
        after_cell = True
    if run:
        out.append(chr(ord("a") + run - 1))
    return "".join(out)
