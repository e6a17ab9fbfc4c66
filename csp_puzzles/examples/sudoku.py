"""Sudoku: 81 cells, 27 all-different groups (rows, columns, boxes)."""

from __future__ import annotations

from ..core import CSP, AllDifferent

#: A hard puzzle for plain backtracking ("AI Escargot", Arto Inkala, 2006).
HARD_SUDOKU = (
    "1....7.9."
    ".3..2...8"
    "..96..5.."
    "..53..9.."
    ".1..8...2"
    "6....4..."
    "3......1."
    ".4......7"
    "..7...3.."
)


def sudoku(grid: str = HARD_SUDOKU, gac: bool = True) -> CSP:
    """A 9x9 Sudoku from 81 characters (digits are givens, `.` or `0` empty).

    Variables are (row, column); `gac=False` gives all-different forward checking only.
    """
    cells = [ch for ch in grid if not ch.isspace()]
    if len(cells) != 81:
        raise ValueError(f"a sudoku has 81 cells, got {len(cells)}")
    csp = CSP("sudoku")
    for index, ch in enumerate(cells):
        row, column = divmod(index, 9)
        csp.add_variable((row, column), [int(ch)] if ch in "123456789" else range(1, 10))
    for i in range(9):
        csp.add_constraint(AllDifferent([(i, c) for c in range(9)], f"row {i}", gac=gac))
        csp.add_constraint(AllDifferent([(r, i) for r in range(9)], f"column {i}", gac=gac))
        top, left = 3 * (i // 3), 3 * (i % 3)
        box = [(top + r, left + c) for r in range(3) for c in range(3)]
        csp.add_constraint(AllDifferent(box, f"box {i}", gac=gac))
    return csp
