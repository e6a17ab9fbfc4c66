"""Reading Towers puzzles; writing them is the puzzle's `to_text` and `to_tatham`.

Two formats, told apart automatically:

- Tatham's game ID `N:c1/c2/.../c4N[,grid]`: 4N clues separated by `/` (top left to
  right, bottom left to right, left top to bottom, right top to bottom; empty = no clue),
  then optionally the givens row by row: `a`-`z` stand for runs of 1-26 empty cells,
  numbers are given heights and `_` separates two adjacent numbers.
- janko.at text: a header `n n n`, four lines of n clues (top, bottom, left, right; `-` =
  no clue), then optionally n rows of givens (`-` = empty). janko's variants with empty
  cells (`5 5 4`) or diagonals (`... D`) are not Towers and are refused.
"""

from __future__ import annotations

from ..core.errors import ParseError
from ..puzzle.formats import (
    Token,
    by_format,
    empty_input,
    is_number,
    prepare,
    read_game_id,
    split_compact,
    text_lines,
)
from .model import MAX_SIZE, SIDES, Towers

#: his parameters: the size, then a difficulty letter (`4dh`); the rest is ignored (`4x4`)
_TATHAM_FIELDS = (("d", "char"),)
TATHAM_FORMAT = "N:c1/c2/.../c4N[,grid] (like 4:1/2/.../3)"
_NO_CLUE = {"-", ".", "0"}


def parse(text: str, filename: str | None = None) -> Towers:
    """A Towers puzzle from either format; `ParseError` says where the input is wrong."""
    return by_format(text, filename, parse_tatham, parse_janko)


# -- Tatham ---------------------------------------------------------------------------------------
def parse_tatham(text: str, filename: str | None = None) -> Towers:
    """A Tatham Towers game ID (one line; surrounding blanks are ignored)."""
    game_id, params = read_game_id(text, _TATHAM_FIELDS, TATHAM_FORMAT, filename)
    n = params[""]
    if not 1 <= n <= MAX_SIZE:
        raise game_id.error(f"grid size {n} is out of range, expected 1 to {MAX_SIZE}",
                            -len(game_id.params) - 1, filename)
    clue_text, comma, grid_text = game_id.desc.partition(",")
    fields = clue_text.split("/")
    if len(fields) != 4 * n:
        raise game_id.error(f"{len(fields)} clues, expected {4 * n} (4 x {n}) separated by "
                            "'/'", 0, filename)
    clues: list[int] = []
    offset = 0
    for item in fields:
        if item == "":
            clues.append(0)
        elif is_number(item) and 1 <= int(item) <= n:
            clues.append(int(item))
        else:
            raise game_id.error(f"clue {item!r} is not a number from 1 to {n}", offset,
                                filename)
        offset += len(item) + 1
    givens = [[0] * n for _ in range(n)]
    if comma:
        _read_tatham_grid(grid_text, n, givens, game_id.line,
                          game_id.column + len(clue_text) + 1, filename)
    return Towers.from_sides(n, [clues[i * n:(i + 1) * n] for i in range(4)], givens)


def _read_tatham_grid(text: str, n: int, givens: list[list[int]], line: int, column: int,
                      filename: str | None) -> None:
    cell, i = 0, 0
    while i < len(text):
        ch = text[i]
        if "a" <= ch <= "z":
            cell += ord(ch) - ord("a") + 1
            i += 1
        elif ch == "_":
            i += 1
        elif "0" <= ch <= "9":
            j = i
            while j < len(text) and "0" <= text[j] <= "9":
                j += 1
            token = Token(text[i:j], line, column + i)
            height = int(text[i:j]) if is_number(token.text) else 0
            if not 1 <= height <= n:
                raise token.error(f"given height {token.text} is out of range, expected 1 to {n}",
                                  filename)
            if cell >= n * n:
                raise token.error(f"too many cells, the grid has {n * n}", filename)
            givens[cell // n][cell % n] = height
            cell += 1
            i = j
        else:
            raise ParseError(f"unexpected {ch!r} in the grid, expected a-z, digits or '_'",
                             line, column + i, filename)
    if cell != n * n:
        raise ParseError(f"the grid describes {cell} cells, expected {n * n}", line,
                         column + len(text), filename)


# -- janko ------------------------------------------------------------------------------------
def parse_janko(text: str, filename: str | None = None) -> Towers:
    """janko.at Towers text: header `n n n`, four clue lines, optional rows of givens."""
    rows = text_lines(prepare(text, filename))
    if not rows:
        raise empty_input(filename)
    header = rows[0]
    if _looks_like_header(header, len(rows) - 1):
        n = _read_header(header, filename)
        body = rows[1:]
    else:  # no header: the first clue line gives the size
        n = len(split_compact(header))
        if n > MAX_SIZE:
            raise header[0].error(f"the first clue line has {n} clues, above the cap of "
                                  f"{MAX_SIZE}, expected a Towers size from 1 to {MAX_SIZE}",
                                  filename)
        body = rows
    body = [split_compact(row) if n > 1 else row for row in body]
    if len(body) not in (4, 4 + n):
        last = body[-1][-1] if body else header[-1]
        missing = f", the {SIDES[len(body)]} clue line is missing" if len(body) < 4 else ""
        raise ParseError(f"{len(body)} lines of clues and givens{missing}, expected 4 clue "
                         f"lines (top, bottom, left, right) and then none or {n} rows of "
                         "givens", last.line + (len(body) < 4), 1, filename)
    sides = []
    for name, row in zip(SIDES, body[:4]):
        sides.append(tuple(_read_clue_line(row, n, name, filename)))
    grid_rows = body[4:]
    givens = [[0] * n for _ in range(n)]
    if grid_rows:
        for r, row in enumerate(grid_rows):
            if len(row) != n:
                token = row[min(len(row), n) - 1] if len(row) < n else row[n]
                raise token.error(f"row has {len(row)} cells, expected {n}", filename)
            for c, token in enumerate(row):
                if token.text in _NO_CLUE:
                    continue
                if not is_number(token.text) or not 1 <= int(token.text) <= n:
                    raise token.error(f"given {token.text!r} is not a height from 1 to {n} "
                                      "or '-'", filename)
                givens[r][c] = int(token.text)
    return Towers.from_sides(n, sides, givens)


def _looks_like_header(row: list[Token], rows_after: int) -> bool:
    """`n n n`, or a janko variant's `n n k [D]` followed by 4 or 4 + n rows."""
    words = [t.text for t in row]
    variant = bool(words) and words[-1] == "D"
    if variant:
        words = words[:-1]
    if len(words) not in (2, 3) or not all(is_number(w) for w in words):
        return False
    if variant or (len(words) == 3 and len(set(words)) == 1 and rows_after >= 4):
        return True
    if len(words) == 3 and len(set(words)) == 1 and words[0] != "3":
        return True  # `n n n` with lines missing; for n = 3 it may be a top clue line
    return rows_after in (4, 4 + int(words[0]))


def _read_header(header: list[Token], filename: str | None) -> int:
    if len(header) != 3 or not all(is_number(t.text) for t in header):
        where = header[3] if len(header) > 3 else header[-1]
        raise where.error("only standard Towers are read: expected the header 'n n n'",
                          filename)
    n = int(header[0].text)
    for token in header[1:]:
        if int(token.text) != n:
            raise token.error(f"header says {token.text}, expected {n} ('n n n': a square "
                              "grid with heights 1 to n)", filename)
    if not 1 <= n <= MAX_SIZE:
        raise header[0].error(f"grid size {n} is out of range, expected 1 to {MAX_SIZE}", filename)
    return n


def _read_clue_line(row: list[Token], n: int, side: str, filename: str | None) -> list[int]:
    if len(row) != n:
        token = row[n] if len(row) > n else row[-1]
        raise token.error(f"{len(row)} {side} clues, expected {n}", filename)
    clues = []
    for token in row:
        if token.text in _NO_CLUE:
            clues.append(0)
        elif is_number(token.text) and 1 <= int(token.text) <= n:
            clues.append(int(token.text))
        else:
            raise token.error(f"{side} clue {token.text!r} is not a number from 1 to {n} "
                              "or '-'", filename)
    return clues
