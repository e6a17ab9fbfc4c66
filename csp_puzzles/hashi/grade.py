"""How hard is a Hashi puzzle? The weakest family of rules that solves it without search.

Tatham grades his Bridges puzzles by the stage of his solver that finishes them, and never
guesses. We do the same with the propagators of `rules.py` and `connectivity.py`, whose
`level` argument switches rule families on:

- `easy`: island-local counting only (complete, saturated, one open neighbour, crossings);
- `medium`: adds the per-edge rules (edge minimum and caps, 1-1 / 2=2 isolation, no loops);
- `hard`: adds the connectivity rules (closed groups, single way out, Tatham's stage 3);
- `fiendish`: even all the rules get stuck, and search (with every rule) is needed; the
  puzzle still has exactly one solution.

Propagation alone proves uniqueness: every rule holds in every solution (none assumes the
puzzle is unique), so when propagation fixes every edge the puzzle has exactly that one
solution, or none. Puzzles with no solution or several get the grades `unsatisfiable` and
`ambiguous`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from ..core import CSP, Contradiction, SearchState, propagate
from ..errors import LimitReached
from .rules import LEVELS

if TYPE_CHECKING:
    from .model import Hashi

#: the grades of uniquely solvable puzzles, easiest first (what `generate` accepts)
DIFFICULTIES = ("easy", "medium", "hard", "fiendish")
AMBIGUOUS, UNSATISFIABLE = "ambiguous", "unsatisfiable"
#: search nodes the count behind a `fiendish` grade may take before giving up
GRADE_NODES = 200_000


def rules_csp(puzzle: Hashi, level: str = "hard", adjacent: bool = True) -> CSP:
    """The model of `puzzle.to_csp()` with only the rule families of `level` switched on."""
    return puzzle.to_csp(adjacent=adjacent, level=level)


def deduce(puzzle: Hashi, level: str = "hard",
           adjacent: bool = True) -> dict[Hashable, tuple[Any, ...]] | None:
    """The domains left after propagating the rules of `level` to a fixpoint (no search).

    None when the rules find a contradiction (the puzzle has no solution).
    """
    state = _propagated(puzzle, level, adjacent)
    if state is None:
        return None
    return {var: tuple(state.values(var)) for var in state.csp.variables}


def _propagated(puzzle: Hashi, level: str, adjacent: bool) -> SearchState | None:
    """The state after the rules of `level` reached their fixpoint; None on a contradiction."""
    csp = rules_csp(puzzle, level, adjacent)
    state = SearchState(csp)
    try:
        propagate(state, csp.constraints)
    except Contradiction:
        return None
    return state


def solves(puzzle: Hashi, level: str, adjacent: bool = True) -> bool | None:
    """True if the rules of `level` alone solve the puzzle, False if they get stuck, None if
    they prove it has no solution."""
    state = _propagated(puzzle, level, adjacent)
    if state is None:
        return None
    if state.unfixed:
        return False
    solution = {var: state.value(var) for var in state.csp.variables}
    return None if state.csp.violated(solution) else True


def grade(puzzle: Hashi, max_nodes: int | None = GRADE_NODES, adjacent: bool = True) -> str:
    """The grade of any puzzle: one of `DIFFICULTIES`, `ambiguous` or `unsatisfiable`.

    Tries the rule levels from the weakest; if none finishes, counts solutions (up to 2)
    with every rule and search. Raises `LimitReached` if that count hits `max_nodes`.
    """
    for level in LEVELS:
        outcome = solves(puzzle, level, adjacent)
        if outcome is None:
            return UNSATISFIABLE
        if outcome:
            return level
    result = puzzle.count(limit=2, max_nodes=max_nodes, adjacent=adjacent)
    if result.unique is None:
        raise LimitReached(f"grading stopped after {max_nodes} search nodes")
    if result.solutions == 0:
        return UNSATISFIABLE
    return "fiendish" if result.unique else AMBIGUOUS
