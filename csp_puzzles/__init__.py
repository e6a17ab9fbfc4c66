"""csp-puzzles: constraint satisfaction taught through puzzles.

    from csp_puzzles import CSP, AllDifferent, solve
    from csp_puzzles import hashi, kakuro, towers, singles   # the puzzle models

The puzzle subpackages are imported lazily, so `import csp_puzzles` stays quick.
"""

from importlib import import_module
from types import ModuleType

from .core import (
    CSP,
    AllDifferent,
    AllEqual,
    Constraint,
    Contradiction,
    Count,
    InSet,
    Linear,
    NotInSet,
    Predicate,
    Result,
    SearchState,
    Sum,
    Table,
    Trace,
    count,
    count_solutions,
    iter_solutions,
    solve,
)
from .core.errors import CspPuzzlesError, LimitReached, ParseError
from .puzzle.registry import KINDS
from .puzzle.session import Session

PUZZLE_KINDS = KINDS  # the puzzle subpackages, by name

__all__ = [
    "CSP", "Constraint", "AllDifferent", "Sum", "Table", "Predicate", "Contradiction",
    "Linear", "InSet", "NotInSet", "AllEqual", "Count",
    "SearchState", "Result", "Trace", "solve", "count", "count_solutions", "iter_solutions",
    "ParseError", "LimitReached", "CspPuzzlesError", "PUZZLE_KINDS", "Session",
    "hashi", "kakuro", "towers", "singles",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> ModuleType:
    if name in PUZZLE_KINDS:
        return import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
