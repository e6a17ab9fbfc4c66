"""Hashiwokakero (Bridges): the flagship puzzle of csp-puzzles.

    from csp_puzzles import hashi
    puzzle = hashi.parse("7x7m2:d3a32a2b2e3m1a3b3b4a3b3b2")
    result = puzzle.solve()
    puzzle.check(result.solution)       # [] when every rule holds

`model.py` builds the CSP, `rules.py` and `connectivity.py` hold the named deduction rules,
`formats.py` reads and writes puzzles, `check.py` checks solutions without the solver,
`picture.py` builds its picture, `generate.py` / `grade.py` make and grade puzzles with
one solution, `sat.py` turns a puzzle into CNF. The search is the core's (MAC, dom/wdeg, restarts).
"""

from .formats import parse, parse_grid, parse_tatham
from .generate import DIFFICULTIES, generate, grade
from .model import Edge, Hashi, Island, Solution

__all__ = ["Hashi", "Island", "Edge", "Solution", "parse", "parse_grid", "parse_tatham",
           "generate", "grade", "DIFFICULTIES"]
