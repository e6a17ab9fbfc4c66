"""How hard is a Singles puzzle? The weakest of Tatham's levels whose rules solve it.

`Singles.ladder()` holds his solver's two levels as rungs (`rules.py`, `connectivity.py`):

- `easy`: a shaded cell's neighbours stay unshaded (SB); an unshaded number shades its
  copies in the row and column (SC); the patterns read off the numbers: `a ? a` leaves the
  middle unshaded (SP/ST), a pair `a a` shades the other copies (PI), the corner patterns
  (QC, TC, DC); and a cell with all neighbours but one shaded keeps that one unshaded
  (CC/CE/QM);
- `tricky`: adds the offset pairs (IP) and the cut rule: a cell whose shading would split
  the unshaded cells stays unshaded (MC);
- `fiendish`: beyond Tatham's levels: his tricky solver gets stuck, but the puzzle has one
  solution (a search shows it).

`grade` is the first rung that decides every cell; a puzzle neither solves is counted:
`fiendish` when it has one solution, `ambiguous` or `unsatisfiable` otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import CSP
from .connectivity import Connected
from .rules import (
    SHADED,
    UNSHADED,
    NoShadedNeighbours,
    OneWayOut,
    copy_rules,
    corner_rules,
    offset_pair_rules,
    pattern_rules,
)

if TYPE_CHECKING:
    from .model import Singles

#: Tatham's levels, easiest first: the rungs of the ladder
LEVELS = ("easy", "tricky")
#: the grades of uniquely solvable puzzles, easiest first (what `generate` accepts)
DIFFICULTIES = (*LEVELS, "fiendish")


def rules_csp(puzzle: Singles, level: str) -> CSP:
    """The rung of `level`: every rule of Tatham's levels up to it, on the cells."""
    if level not in LEVELS:
        raise ValueError(f"unknown Singles level {level!r}, expected one of {', '.join(LEVELS)}")
    tricky = level == "tricky"
    csp = CSP(f"singles {puzzle.width}x{puzzle.height}, {level} rules")
    csp.add_variables(puzzle.cells(), (UNSHADED, SHADED))
    patterns = pattern_rules(puzzle.grid) + corner_rules(puzzle.grid)
    if tricky:
        patterns += offset_pair_rules(puzzle.grid)
    for rule in patterns + copy_rules(puzzle.grid):
        csp.add_constraint(rule)
    for cell in puzzle.cells():
        csp.add_constraint(NoShadedNeighbours(cell, puzzle.neighbours(cell)))
        csp.add_constraint(OneWayOut(cell, puzzle.neighbours(cell)))
    csp.add_constraint(Connected(puzzle.height, puzzle.width, cut_rule=tricky))
    return csp


def grade(puzzle: Singles) -> str:
    """The weakest level whose rules solve `puzzle`; else `fiendish`, `ambiguous` or
    `unsatisfiable`, as a count of its solutions says (`Puzzle.grade`)."""
    return puzzle.grade()
