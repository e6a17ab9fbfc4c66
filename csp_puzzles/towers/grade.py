"""How hard is a Towers puzzle? The weakest of Tatham's levels whose rules solve it.

- `easy`: the clue rules and Latin singles alone place every tower;
- `hard`: also needs Latin subsets (all-different with Régin's filtering) and the per-line
  enumeration of orderings;
- `extreme`: also needs positional sets (X-wings) and forcing: a cell with two candidates
  loses one of them when placing it leads, by Latin singles alone, to a contradiction;
- `unreasonable`: no rule set above finishes; the search has to guess.

`grade` runs these rule sets without search, weakest first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import CSP, Contradiction, SearchState
from ..core.inference import propagate, propagate_from
from .rules import LatinSingles

if TYPE_CHECKING:
    from .model import Towers

DIFFICULTIES = ("easy", "hard", "extreme", "unreasonable")
_MODEL_OF = {"easy": "easy", "hard": "full", "extreme": "extreme"}


def deduce(puzzle: Towers, difficulty: str) -> SearchState | None:
    """The domains left by the rules of `difficulty` without search (None: contradiction)."""
    csp = puzzle.to_csp(model=_MODEL_OF[difficulty])
    state = SearchState(csp)
    try:
        propagate(state, csp.constraints)
        if difficulty == "extreme":
            latin = _latin_csp(puzzle.size)
            progress = True
            while state.unfixed and progress:
                progress = _force(state, csp, latin)
    except Contradiction:
        return None
    return state


def _latin_csp(n: int) -> CSP:
    """The Latin square alone, by singles: what a forcing chain follows."""
    csp = CSP(f"latin singles {n}x{n}")
    csp.add_variables([(r, c) for r in range(n) for c in range(n)], range(1, n + 1))
    for i in range(n):
        csp.add_constraint(LatinSingles([(i, c) for c in range(n)], n, f"row {i}"))
        csp.add_constraint(LatinSingles([(r, i) for r in range(n)], n, f"column {i}"))
    return csp


def _force(state: SearchState, csp: CSP, latin: CSP) -> bool:
    """Forcing: a two-candidate cell loses a value whose placement leads to a contradiction.

    Like Tatham's forcing chains, a probe follows only Latin singles (never the clues), on
    a copy of the current domains. Returns True when a value was removed (and propagated
    with every rule), False when no probe failed.
    """
    singles = SearchState(latin)
    for var in latin.variables:
        singles.keep_only(var, state.domains[var])
    for var in csp.variables:
        if len(state.domains[var]) != 2:
            continue
        for value in state.values(var):
            if singles.probe(var, value, propagate_from) is None:
                state.remove(var, value, f"forcing: {var} = {value} leads to a contradiction")
                propagate_from(state, var)
                return True
    return False


def solved_by(puzzle: Towers, difficulty: str) -> bool:
    """Do the rules of `difficulty` alone place every tower (hence a unique solution)?"""
    state = deduce(puzzle, difficulty)
    if state is None or state.unfixed:
        return False
    solution = {var: state.value(var) for var in state.csp.variables}
    return not state.csp.violated(solution)


def grade(puzzle: Towers) -> str:
    """The weakest level whose rules solve `puzzle`; `unreasonable` when none does.

    `unreasonable` says nothing about uniqueness: count solutions for that.
    """
    for difficulty in DIFFICULTIES[:-1]:
        if solved_by(puzzle, difficulty):
            return difficulty
    return "unreasonable"
