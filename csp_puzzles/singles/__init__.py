"""Singles (Hitori): shade cells so no number repeats, no shaded cells touch, and the rest
stays connected.

    from csp_puzzles import singles
    puzzle = singles.parse("5x5:4112421234524525441243243")
    puzzle.solve().solution            # frozenset of shaded (row, column) cells
    singles.generate(width=10, height=10, difficulty="easy", seed=1)
"""

from .formats import parse
from .generate import generate
from .grade import DIFFICULTIES, grade
from .model import Singles

__all__ = ["parse", "generate", "grade", "DIFFICULTIES", "Singles"]
