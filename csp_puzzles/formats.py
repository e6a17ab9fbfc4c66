"""Reading grid text, the shape shared by every puzzle's native format.

Native grid text is an optional header line, then one line per row. Blank lines and lines
starting with `#` are ignored; cells are separated by whitespace, and rows of one-character
cells may also be written without separators. Every token remembers its line and column so
that a puzzle's parser can raise a `ParseError` that points at the exact cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ParseError


@dataclass(frozen=True)
class Token:
    """One cell of grid text and where it stood (line and column count from 1)."""

    text: str
    line: int
    column: int

    def error(self, message: str, filename: str | None = None) -> ParseError:
        return ParseError(message, self.line, self.column, filename)


def text_lines(text: str) -> list[list[Token]]:
    """Split text into rows of whitespace-separated tokens, skipping blank and `#` lines.

    CRLF line endings (as in the Coelho et al. `.has` files) are accepted.
    """
    rows: list[list[Token]] = []
    for number, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        tokens: list[Token] = []
        column = 0
        while column < len(raw):
            if raw[column].isspace():
                column += 1
                continue
            start = column
            while column < len(raw) and not raw[column].isspace():
                column += 1
            tokens.append(Token(raw[start:column], number, start + 1))
        rows.append(tokens)
    return rows


def split_compact(row: list[Token]) -> list[Token]:
    """A row written without separators (`1.2..3`) as one token per character."""
    if len(row) != 1 or len(row[0].text) == 1:
        return row
    token = row[0]
    return [Token(ch, token.line, token.column + i) for i, ch in enumerate(token.text)]


def header_numbers(row: list[Token], count: int) -> list[int] | None:
    """The row as `count` positive integers if it looks like a header, else None."""
    if len(row) != count or not all(t.text.isdigit() for t in row):
        return None
    return [int(t.text) for t in row]


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
