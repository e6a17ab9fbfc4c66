"""Kakuro as an integer program (the "milp" engine).

Variables: `x[cell][d]` is 1 when the white cell holds digit d (one-hot cells).

Rows: each white cell holds one digit; in each run, each digit appears at most once, and
the digits add up to the run's sum: `sum(d * x[cell][d] for cell in run, d in 1..9) = sum`.
Nothing is lazy here: every rule is a handful of rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..solvers.lazy_cuts import LoopStats
from ..solvers.milp import IntegerProgram, Row, at_most, exactly
from ..solvers.milp import solutions as program_solutions
from .combinations import DIGITS

if TYPE_CHECKING:
    from .model import Grid, Kakuro

Cell = tuple[int, int]


class KakuroProgram:
    """The integer program of one Kakuro grid."""

    def __init__(self, puzzle: Kakuro) -> None:
        self.puzzle = puzzle
        self.program = program = IntegerProgram(f"kakuro {puzzle.height}x{puzzle.width}")
        self.x: dict[Cell, dict[int, int]] = {
            cell: {d: program.binary((cell, d)) for d in DIGITS} for cell in puzzle.whites}
        for digits in self.x.values():
            program.add(exactly(digits.values(), 1))
        for run in puzzle.runs:
            for d in DIGITS:
                program.add(at_most([self.x[cell][d] for cell in run.cells], 1))
            terms = {self.x[cell][d]: float(d) for cell in run.cells for d in DIGITS}
            program.add(Row(terms, run.total, run.total))

    def distinct(self) -> list[int]:
        return [v for digits in self.x.values() for v in digits.values()]

    def decode(self, values: Sequence[int]) -> Grid:
        digit = {cell: next(d for d, v in digits.items() if values[v])
                 for cell, digits in self.x.items()}
        return [[digit.get((r, c)) for c in range(self.puzzle.width)]
                for r in range(self.puzzle.height)]


def no_cuts(values: Sequence[int]) -> list[Row]:
    """Kakuro needs no lazy rows."""
    return []


def solutions(puzzle: Kakuro, deadline: float | None = None,
              stats: LoopStats | None = None) -> Iterator[Grid]:
    """Every solution, one at a time (the entry point of `solve(engine="milp")`)."""
    model = KakuroProgram(puzzle)
    for values in program_solutions(model.program, no_cuts, model.distinct(), deadline, stats):
        yield model.decode(values)
