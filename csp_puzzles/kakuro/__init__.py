"""Kakuro: fill white cells with digits 1-9 so each run has its clue's sum, no digit twice.

    from csp_puzzles import kakuro
    puzzle = kakuro.parse(text)              # janko.at text; ParseError with line/column
    puzzle.solve()                           # combined run constraints, MAC
    puzzle.solve(model="decomposed")         # the textbook Sum + AllDifferent model
    kakuro.generate(width=8, height=8, difficulty="medium", seed=1)
"""

from .formats import parse
from .generate import generate
from .grade import DIFFICULTIES, grade
from .model import MODELS, Clue, Kakuro, Run

__all__ = ["parse", "generate", "grade", "DIFFICULTIES", "Kakuro", "Clue",
           "Run", "MODELS"]
