"""How hard is a Towers puzzle? The weakest of Tatham's levels whose rules solve it.

`Towers.ladder()` holds his solver's levels as rungs (`rules.py`):

- `easy`: the clue rules (clue bounds, "room to rise", "tallest in view", facing clues
  summing to n + 1) and Latin singles (a placed height leaves its row and column; a height
  with one place left in a line goes there);
- `hard`: adds Latin subsets (all-different with Régin's filtering on every row and
  column) and, clue by clue, the enumeration of the orderings of its line;
- `extreme`: adds positional sets (for one height, rows and columns matched: X-wings) and
  forcing chains of two-candidate cells;
- `unreasonable`: adds trials (Tatham's solver recurses here): suppose a height in a
  cell; when the extreme rules then reach a contradiction, the height goes. The rung
  supposes one thing at a time (no supposition inside a supposition).

`grade` is the first rung that places every tower; a puzzle none of them solves is counted:
`unreasonable` when it has one solution, `ambiguous` or `unsatisfiable` otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import CSP
from ..core.ladder import Rung
from .rules import ClueRules, ForcingChains, LatinSingles, LineClues, ValuePositions

if TYPE_CHECKING:
    from .model import Towers

#: Tatham's levels a rung of rules reaches, easiest first
LEVELS = ("easy", "hard", "extreme")
#: the grades of uniquely solvable puzzles, easiest first (what `generate` accepts); the
#: last is also the ladder's rung of trials
DIFFICULTIES = (*LEVELS, "unreasonable")


def rungs(puzzle: Towers) -> list[Rung]:
    """The ladder: a rung per level of `LEVELS`, then the trials, which suppose any height
    in any cell and refute it by the extreme rules."""
    ladder = [Rung(level, rules_csp(puzzle, level)) for level in LEVELS]
    extreme = ladder[-1].csp
    return [*ladder, Rung(DIFFICULTIES[-1], extreme, probe=extreme, probe_values=puzzle.size)]


def rules_csp(puzzle: Towers, level: str) -> CSP:
    """The rung of `level`: every rule of Tatham's levels up to it, on the cells' heights."""
    if level not in LEVELS:
        raise ValueError(f"unknown Towers level {level!r}, expected one of {', '.join(LEVELS)}")
    if level == "easy":
        return puzzle.to_csp(model="easy")
    n = puzzle.size
    csp = puzzle.to_csp(model="plain")  # the cells, all-different lines, clue checks
    csp.name = f"towers {n}x{n}, {level} rules"
    for line in puzzle.lines():
        csp.add_constraint(LatinSingles(line.cells, n, line.label))
        if line.has_clue:
            csp.add_constraint(ClueRules(line, n))
        for side, clue in (("front", line.front), ("back", line.back)):
            if clue:
                csp.add_constraint(LineClues(line.one_side(side), n))
    if level == "extreme":
        for value in range(1, n + 1):
            csp.add_constraint(ValuePositions(value, n))
        csp.add_constraint(ForcingChains(n))
    return csp


def grade(puzzle: Towers) -> str:
    """The weakest level whose rules solve `puzzle`; else `unreasonable`, `ambiguous` or
    `unsatisfiable`, as a count of its solutions says (`Puzzle.grade`)."""
    return puzzle.grade()
