"""How hard is a Singles puzzle? `easy` when propagating the rules decides every cell,
`tricky` when it takes probing or search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import Contradiction, SearchState
from ..core.inference import maintain_arc_consistency

if TYPE_CHECKING:
    from .model import Singles

DIFFICULTIES = ("easy", "tricky")


def grade(puzzle: Singles) -> str:
    """`easy` if propagating the rules decides every cell, `tricky` if it takes search."""
    return "easy" if undecided_cells(puzzle) == [] else "tricky"


def undecided_cells(puzzle: Singles) -> list[tuple[int, int]] | None:
    """Cells propagation leaves open in the counting model (None if it contradicts)."""
    csp = puzzle.to_csp(counting=True)
    state = SearchState(csp)
    try:
        maintain_arc_consistency(state, None)
    except Contradiction:
        return None
    return [cell for cell in puzzle.cells() if len(state.domains[cell]) > 1]
