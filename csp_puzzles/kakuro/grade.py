"""How hard is a Kakuro puzzle? The weakest reasoning that solves it without search.

Tatham's collection has no Kakuro, so the levels are this project's own. `Kakuro.ladder()`
holds them as rungs:

- `easy`: combination reasoning alone (the run constraint without its placement step and
  without region sums) decides every cell;
- `medium`: the full run constraint and region sums do;
- `hard`: beyond the ladder: propagation leaves cells open and the search has to guess.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import ladder

if TYPE_CHECKING:
    from .model import Kakuro

#: the levels a rung of rules reaches, easiest first
LEVELS = ("easy", "medium")
DIFFICULTIES = (*LEVELS, "hard")


def rungs(puzzle: Kakuro) -> list[ladder.Rung]:
    """The ladder: combination reasoning, then the full run constraint and region sums."""
    return [ladder.Rung("easy", puzzle.to_csp(matching=False, regions=False)),
            ladder.Rung("medium", puzzle.to_csp())]


def grade(puzzle: Kakuro) -> str:
    """`easy`, `medium` or `hard`: the weakest reasoning that solves it without search
    (`unsatisfiable` when the rules prove there is no solution)."""
    return ladder.grade(puzzle.ladder()) or "hard"
