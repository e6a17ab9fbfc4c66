"""Reading Hashi puzzles: grid text (three header styles) and Tatham game IDs. Writing them
is the puzzle's `to_text` and `to_tatham`.

Accepted, detected automatically:

- grid text, a plain matrix: one row per line, `0`, `.` or `-` water, `1`-`8` islands,
  cells separated by whitespace or, when every cell is one character, not at all;
- the same with a janko.at header `R C` (rows, columns);
- the same with a Coelho et al. `.has` header `W H N` (width, height, islands; CRLF);
- a Tatham Bridges game ID `W[xH][i<n>][e<n>][m<k>][L][d<n>]:desc` (`1`-`9`, `A`-`G`
  islands, `a`-`z` water runs), read with his parameter grammar: `7m2` is 7x7, the island
  density `i`, expansion `e` and difficulty `d` of his "Random seed" dialog are read and
  ignored, and so is whatever follows the parameters he knows (`7x7m2Z`, `7X7m2`: 7x7m2).
  An island needing more bridges than `m` allows is read (his game accepts it): such a
  puzzle has no solution.

A first line of 2 or 3 numbers is a header only when the rows that follow fit it; when it
cannot be a row of the grid either, it is a header that lies, and that is an error.
"""

from __future__ import annotations

from functools import partial

from ..puzzle.formats import (
    Token,
    by_format,
    check_size,
    check_width,
    decode_letter_run,
    game_id_sides,
    grid_rows,
    is_number,
    read_game_id,
    split_compact,
)
from ..puzzle.limits import GRID_SIDE
from .model import MAX_BRIDGES, Hashi

WATER = frozenset("0.-")
#: the fields of his parameters after the width, in his order (`decode_params`)
TATHAM_FIELDS = (("x", "number"), ("i", "number"), ("e", "number"), ("m", "number"),
                 ("L", "flag"), ("d", "number"))
TATHAM_FORMAT = "WxH[m<k>][L]:desc (like 7x7m2:...)"
MAX_SIDE = GRID_SIDE["hashi"]


def parse(text: str, filename: str | None = None, maxb: int = 2) -> Hashi:
    """A `Hashi` from any accepted format; `ParseError` (with line and column) otherwise.

    `maxb` applies to grid text, which cannot say it; a Tatham ID carries its own.
    """
    return by_format(text, filename, parse_tatham, partial(parse_grid, maxb=maxb))


# -- grid text -------------------------------------------------------------------------------
def parse_grid(text: str, filename: str | None = None, maxb: int = 2) -> Hashi:
    """Grid text with an optional `R C` or `W H N` header."""
    rows = grid_rows(text, filename, MAX_SIDE)
    header, body = _split_header(rows, filename)
    body = [split_compact(row) for row in body]
    width = len(body[0])
    check_size("the number of rows", len(body), MAX_SIDE, (body[-1][0].line, 1), filename)
    check_width(body, width, MAX_SIDE, filename)
    islands: dict[tuple[int, int], int] = {}
    for r, row in enumerate(body):
        for c, token in enumerate(row):
            value = _cell(token, maxb, filename)
            if value:
                islands[(r, c)] = value
    if header is not None and len(header) == 3 and int(header[2].text) != len(islands):
        raise header[2].error(
            f"header says {header[2].text} islands but the grid has {len(islands)}, "
            "expected the header's N to count the islands", filename)
    if not islands:
        first = body[0][0]
        raise first.error("the grid has no island, expected at least one number 1-8", filename)
    return Hashi(len(body), width, islands, maxb=maxb)


def _split_header(rows: list[list[Token]], filename: str | None
                  ) -> tuple[list[Token] | None, list[list[Token]]]:
    """(header tokens or None, grid rows)."""
    first, body = rows[0], rows[1:]
    if len(first) not in (2, 3) or not all(is_number(t.text) for t in first) or not body:
        return None, rows
    numbers = [int(t.text) for t in first]
    if len(first) == 2:
        height, width = numbers
        shape = f"{height} rows of {width} cells (janko.at header R C)"
    else:
        width, height = numbers[0], numbers[1]
        shape = f"{height} rows of {width} cells (Coelho header W H N)"
    body = [split_compact(row) for row in body]
    if len(body) == height and all(len(row) == width for row in body):
        return first, body
    if any(len(row) == len(split_compact(first)) for row in body):
        return None, rows  # a grid row (its cells are checked as such)
    widths = {len(row) for row in body}
    found = f"{len(body)} rows of {max(widths)} cells" if len(widths) == 1 else \
        f"{len(body)} rows of {min(widths)} to {max(widths)} cells"
    raise first[0].error(f"header says {shape} but {found} follow, "
                         "expected the header to match the grid", filename)


def _cell(token: Token, maxb: int, filename: str | None) -> int:
    """0 for water, the island's number otherwise."""
    text = token.text
    if text in WATER:
        return 0
    if not is_number(text):
        raise token.error(f"unexpected {text!r}, expected 0, '.' or '-' for water "
                          "or a digit 1-8 for an island", filename)
    value = int(text)
    if value > 4 * maxb:
        raise token.error(f"island {value} needs more than {4 * maxb} bridges, expected at "
                          f"most 4 x {maxb} (four neighbours, at most {maxb} bridges each)",
                          filename)
    return value


# -- Tatham game IDs -------------------------------------------------------------------------
def parse_tatham(text: str, filename: str | None = None) -> Hashi:
    """A Tatham Bridges game ID `WxH[m<k>][L]:desc`."""
    game_id, params = read_game_id(text, TATHAM_FIELDS, TATHAM_FORMAT, filename)
    maxb = params.get("m", 2)
    if not 1 <= maxb <= MAX_BRIDGES:
        raise game_id.error(f"m{maxb}: expected at most 1 to {MAX_BRIDGES} bridges per pair",
                            game_id.params.index("m") - len(game_id.params) - 1, filename)
    width, height = game_id_sides(game_id, params, MAX_SIDE, filename)
    islands: dict[tuple[int, int], int] = {}
    cell = 0
    for i, ch in enumerate(game_id.desc):
        run = decode_letter_run(ch)
        if run is not None:
            cell += run
            continue
        if ch in "123456789":
            value = int(ch)
        elif "A" <= ch <= "G":
            value = ord(ch) - ord("A") + 10
        else:
            raise game_id.error(f"unexpected {ch!r} in the description, expected 1-9 or A-G "
                                "for an island, a-z for a run of water", i, filename)
        if cell >= width * height:
            raise game_id.error(f"island beyond the {width}x{height} grid, expected "
                                f"{width * height} cells in all", i, filename)
        islands[divmod(cell, width)] = value
        cell += 1
    if cell != width * height:
        raise game_id.error(f"the description covers {cell} cells, expected {width * height} "
                            f"for {width}x{height}", len(game_id.desc), filename)
    if not islands:
        raise game_id.error("the grid has no island, expected at least one", 0, filename)
    return Hashi(height, width, islands, maxb=maxb, loops="L" not in params)
