"""How hard is a Kakuro puzzle? The weakest reasoning that solves it without search.

- `easy`: combination reasoning alone (the run constraint without its placement step and
  without region sums) decides every cell;
- `medium`: the full run constraint and region sums do;
- `hard`: propagation leaves cells open and the search has to guess.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import solve

if TYPE_CHECKING:
    from .model import Kakuro

DIFFICULTIES = ("easy", "medium", "hard")


def grade(puzzle: Kakuro) -> str:
    """`easy`, `medium` or `hard`: the weakest reasoning that solves it without search."""
    for level, strong in (("easy", False), ("medium", True)):
        if search_free(puzzle, strong):
            return level
    return "hard"


def search_free(puzzle: Kakuro, strong: bool = True) -> bool:
    """Root propagation decides every cell: with the full combined model (`strong`), or with
    combination reasoning alone (no placement step, no region sums)."""
    result = solve(puzzle.to_csp(matching=strong, regions=strong), inference="mac",
                   var_order="mrv", max_nodes=1)
    return result.solved and result.stats.nodes == 0
