"""How hard is a Hashi puzzle? Tatham's level: the weakest of his rule families that
solves it without search.

Tatham grades his Bridges puzzles by the stage of his solver that finishes them, and
never guesses. `Hashi.ladder()` holds those stages as rungs (`rules.py`, `trials.py`):

- `easy`: island-local counting (small islands, complete, saturation, a bridge to every
  neighbour) and crossings;
- `medium`: adds the per-edge minimum and, in the no-loops variant, never closing a loop;
- `hard`: adds the trials: n bridges on an edge that would close a group or leave an
  island unable to finish are ruled out; an edge is needed when maxing the others would
  isolate a group;
- `fiendish`: Tatham's hardest level gets stuck, and search (with every rule) is needed;
  the puzzle still has exactly one solution.

The rules alone prove uniqueness: every rule holds in every solution (none assumes the
puzzle is unique), so when a rung fixes every edge the puzzle has exactly that one
solution. Puzzles with no solution or several get the grades `unsatisfiable` and
`ambiguous`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import LEVELS

if TYPE_CHECKING:
    from .model import Hashi

#: the grades of uniquely solvable puzzles, easiest first (what `generate` accepts)
DIFFICULTIES = (*LEVELS, "fiendish")


def grade(puzzle: Hashi) -> str:
    """The grade of any puzzle: one of `DIFFICULTIES`, `ambiguous` or `unsatisfiable`.

    The first rung of the ladder that solves it; if none does, a count of its solutions
    (up to 2, with every rule and search) decides (`Puzzle.grade`).
    """
    return puzzle.grade()
