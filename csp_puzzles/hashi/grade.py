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

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from ..core import ladder
from ..errors import LimitReached
from .rules import LEVELS

if TYPE_CHECKING:
    from .model import Hashi

#: the grades of uniquely solvable puzzles, easiest first (what `generate` accepts)
DIFFICULTIES = (*LEVELS, "fiendish")
AMBIGUOUS, UNSATISFIABLE = "ambiguous", ladder.UNSATISFIABLE
#: search nodes the count behind a `fiendish` grade may take before giving up
GRADE_NODES = 200_000


def deduce(puzzle: Hashi, level: str = "hard",
           adjacent: bool = True) -> dict[Hashable, tuple[Any, ...]] | None:
    """The domains left after the rules of `level` reach their fixpoint (no search).

    None when the rules find a contradiction (the puzzle has no solution).
    """
    state = ladder.fixpoint(_rung(puzzle, level, adjacent))
    if state is None:
        return None
    return {var: tuple(state.values(var)) for var in state.csp.variables}


def solves(puzzle: Hashi, level: str, adjacent: bool = True) -> bool | None:
    """True if the rules of `level` alone solve the puzzle, False if they get stuck, None if
    they prove it has no solution."""
    return ladder.solved_by(_rung(puzzle, level, adjacent))


def _rung(puzzle: Hashi, level: str, adjacent: bool) -> ladder.Rung:
    return puzzle.ladder(adjacent)[LEVELS.index(level)]


def grade(puzzle: Hashi, max_nodes: int | None = GRADE_NODES, adjacent: bool = True) -> str:
    """The grade of any puzzle: one of `DIFFICULTIES`, `ambiguous` or `unsatisfiable`.

    The first rung of the ladder that solves it; if none does, counts solutions (up to 2)
    with every rule and search. Raises `LimitReached` if that count hits `max_nodes`.
    """
    found = ladder.grade(puzzle.ladder(adjacent))
    if found is not None:
        return found
    result = puzzle.count(limit=2, max_nodes=max_nodes, adjacent=adjacent)
    if result.unique is None:
        raise LimitReached(f"grading stopped after {max_nodes} search nodes")
    if result.solutions == 0:
        return UNSATISFIABLE
    return "fiendish" if result.unique else AMBIGUOUS
