"""Towers (skyscrapers): a Latin square seen from its four sides.

    from csp_puzzles import towers
    puzzle = towers.parse("4:1/2/3/4/2/2/2/1/1/2/2/2/4/3/2/1")
    puzzle.solve().solution            # [[4, 3, 2, 1], ...]
    towers.grade(puzzle)               # "easy"
    towers.generate(size=6, difficulty="hard", seed=1)
"""

from .formats import parse
from .generate import generate
from .grade import DIFFICULTIES, grade
from .model import MODELS, Towers

__all__ = ["parse", "generate", "grade", "DIFFICULTIES", "MODELS", "Towers"]
