"""Hashiwokakero as an integer program (the "milp" engine), after Coelho et al.

Variables: for each pair of islands that see each other (an edge `e`) and each k in
1..maxb, a 0/1 variable `at_least[e][k]`, "edge e carries k bridges or more". The number of
bridges on `e` is their sum, and `at_least[e][1]` says whether the edge is used at all.

Rows:

- order: `at_least[e][k+1] <= at_least[e][k]` (a third bridge needs a second);
- degree: at each island, the bridges on its edges add up to its number;
- crossing: a horizontal and a vertical edge that cross are not both used;
- connectivity, lazily: when the answer falls apart into groups, then for each group S
  "some edge leaving S is used": sum(at_least[e][1] for e leaving S) >= 1. Two equal
  islands that could close on themselves (1-1, 2=2) get that row from the start;
- no loops (Tatham's `L` variant): a connected plan without loops is a tree, so exactly
  (islands - 1) edges are used.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..milp import IntegerProgram, LoopStats, Row, at_least, at_most, exactly, groups
from ..milp import solutions as lazy_solutions

if TYPE_CHECKING:
    from .model import Edge, Hashi, Solution


class HashiProgram:
    """The integer program of one puzzle, its lazy connectivity rows, and its decoding."""

    def __init__(self, puzzle: Hashi, adjacent: bool = True) -> None:
        self.puzzle = puzzle
        self.edges: list[Edge] = [e for e in puzzle.edges if adjacent or not e.touching]
        program = IntegerProgram(repr(puzzle))
        self.at_least: list[list[int]] = [
            [program.binary((e.key, k)) for k in range(1, puzzle.maxb + 1)] for e in self.edges]
        self.program = program
        self._write_rules()

    def used(self, e: int) -> int:
        """The variable "edge e is used" (carries one bridge or more)."""
        return self.at_least[e][0]

    def _write_rules(self) -> None:
        puzzle, program = self.puzzle, self.program
        position = {e.index: i for i, e in enumerate(self.edges)}
        for ladder in self.at_least:
            for more, fewer in zip(ladder[1:], ladder):
                program.add(Row({more: 1, fewer: -1}, upper=0))
        for island in puzzle.islands:
            around = [position[k] for k in puzzle.edges_at[island.index] if k in position]
            bridges = [v for e in around for v in self.at_least[e]]
            program.add(exactly(bridges, island.value))
        for h, v in puzzle.crossings:
            if h in position and v in position:
                program.add(at_most([self.used(position[h]), self.used(position[v])], 1))
        if len(puzzle.islands) > 2:
            for e in self.edges:
                a, b = puzzle.islands[e.a], puzzle.islands[e.b]
                if a.value == b.value <= puzzle.maxb:
                    program.add(self._leave([e.a, e.b]))
        if not puzzle.loops and puzzle.islands:
            program.add(exactly([self.used(e) for e in range(len(self.edges))],
                                len(puzzle.islands) - 1))

    def _leave(self, group: Sequence[int]) -> Row:
        """"Some edge leaving this group of islands is used"."""
        inside = set(group)
        leaving = [self.used(i) for i, e in enumerate(self.edges)
                   if (e.a in inside) != (e.b in inside)]
        return at_least(leaving, 1)

    def cuts(self, values: Sequence[int]) -> list[Row]:
        """One row per group of islands when the answer is not connected, else none."""
        links = [(e.a, e.b) for i, e in enumerate(self.edges) if values[self.used(i)]]
        found = groups(len(self.puzzle.islands), links)
        return [self._leave(group) for group in found] if len(found) > 1 else []

    def decode(self, values: Sequence[int]) -> Solution:
        return {e.key: sum(values[v] for v in self.at_least[i])
                for i, e in enumerate(self.edges) if values[self.used(i)]}


def solutions(puzzle: Hashi, deadline: float | None = None, adjacent: bool = True,
              stats: LoopStats | None = None) -> Iterator[Solution]:
    """Every solution, one at a time (the entry point of `solve(engine="milp")`)."""
    model = HashiProgram(puzzle, adjacent)
    distinct = [v for ladder in model.at_least for v in ladder]
    for values in lazy_solutions(model.program, model.cuts, distinct, deadline, stats):
        yield model.decode(values)
