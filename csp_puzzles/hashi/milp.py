"""Hashiwokakero as an integer program (the "milp" engine), after Coelho et al.

Variables: for each pair of islands that see each other (an edge `e`) and each k in
1..maxb, a 0/1 variable `at_least[e][k]`, "edge e carries k bridges or more". The number of
bridges on `e` is their sum, and `at_least[e][1]` says whether the edge is used at all.

Rows:

- order: `at_least[e][k+1] <= at_least[e][k]` (a third bridge needs a second);
- degree: at each island, the bridges on its edges add up to its number;
- crossing: a horizontal and a vertical edge that cross are not both used;
- connectivity, lazily: when the answer falls apart into groups, then for each group S
  (and each union of groups, when there are few) "some edge leaving S is used":
  sum(at_least[e][1] for e leaving S) >= 1. Small groups of up to four islands that could
  close on themselves (1-1, 2=2, 1-2-1, ...) get that row from the start;
- spanning tree: a connected plan contains a tree through every island, so at least
  (islands - 1) edges are used; without loops (Tatham's `L` variant) the plan is that tree,
  so exactly (islands - 1). One row, and the linear relaxation can no longer leave most
  edges unused.

A guide, not a rule: HiGHS stops at the first plan that meets every row, and plans that
pile double bridges on few edges tend to fall apart into closed groups, each costing a
round of the lazy loop. So the program asks HiGHS to use as many edges as it can, as an
objective it never tries to prove optimal (`IntegerProgram.guide`). The first plan
found is then usually connected already, and the loop needs a few rounds where it needed
dozens (`csp_puzzles.bench.milp` says what was measured).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from ..solvers.lazy_cuts import LoopStats, groups
from ..solvers.milp import IntegerProgram, Row, at_least, at_most, exactly
from ..solvers.milp import solutions as program_solutions

if TYPE_CHECKING:
    from .model import Edge, Hashi, Solution

#: groups of up to this many islands that could close on themselves get their row at once
SMALL_GROUP = 4
#: up to this many groups, a disconnected answer gets a row for every union of groups
UNIONS_UP_TO = 6


class HashiProgram:
    """The integer program of one puzzle, its lazy connectivity rows, and its decoding."""

    def __init__(self, puzzle: Hashi, adjacent: bool = True) -> None:
        self.puzzle = puzzle
        self.edges: list[Edge] = [e for e in puzzle.edges if adjacent or not e.touching]
        # HiGHS's presolve costs more than it saves on every round of the lazy loop
        # (measured with `csp-puzzles bench milp`: see csp_puzzles/bench/milp.py)
        program = IntegerProgram(repr(puzzle), presolve="off")
        self.at_least: list[list[int]] = [
            [program.binary((e.key, k)) for k in range(1, puzzle.maxb + 1)] for e in self.edges]
        self.program = program
        #: for each island, its (edge position, island at the other end) pairs
        self.around: list[list[tuple[int, int]]] = [[] for _ in puzzle.islands]
        for i, e in enumerate(self.edges):
            self.around[e.a].append((i, e.b))
            self.around[e.b].append((i, e.a))
        self._write_rules()
        # a guide towards connected plans: as many used edges as possible (see above)
        program.guide = {self.used(e): -1.0 for e in range(len(self.edges))}

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
        if len(puzzle.islands) > SMALL_GROUP:
            for group in self._closable_groups():
                program.add(self._leave(group))
        if puzzle.islands:
            # a connected plan contains a spanning tree: at least (islands - 1) edges are
            # used; without loops it is that tree, so exactly (islands - 1)
            used = [self.used(e) for e in range(len(self.edges))]
            tree = len(puzzle.islands) - 1
            program.add(exactly(used, tree) if not puzzle.loops else at_least(used, tree))

    def _closable_groups(self) -> list[tuple[int, ...]]:
        """Connected groups of 2..SMALL_GROUP islands whose bridges could all stay inside.

        Each would be a small closed group cut off from the rest (1-1, 2=2, 1-2-1, ...);
        the lazy loop would find most of them one round at a time, so their rows are
        written from the start.
        """
        puzzle, around = self.puzzle, self.around
        found: set[tuple[int, ...]] = set()
        frontier: set[tuple[int, ...]] = {(island,) for island in range(len(puzzle.islands))}
        for _ in range(SMALL_GROUP - 1):
            frontier = {tuple(sorted((*group, other))) for group in frontier
                        for member in group for _, other in around[member]
                        if other not in group}
            found |= {group for group in frontier if self._could_close(group)}
        return sorted(found)

    def _could_close(self, group: tuple[int, ...]) -> bool:
        """Whether bridges on the edges inside `group` alone can meet every number in it."""
        values = {member: self.puzzle.islands[member].value for member in group}
        if sum(values.values()) % 2:  # each bridge counts at both ends
            return False
        inside = sorted({i for member in group for i, other in self.around[member]
                         if other in group})
        if len(inside) == len(group) - 1:  # a tree: peeling leaves fixes every count
            return self._tree_could_close(values, inside)
        for counts in itertools.product(range(self.puzzle.maxb + 1), repeat=len(inside)):
            degree = dict.fromkeys(group, 0)
            for i, n in zip(inside, counts):
                degree[self.edges[i].a] += n
                degree[self.edges[i].b] += n
            if degree == values:
                return True
        return False

    def _tree_could_close(self, values: dict[int, int], inside: list[int]) -> bool:
        """On a tree, a leaf's only edge must carry the leaf's number: peel leaf by leaf."""
        left = dict(values)
        edges = {i: (self.edges[i].a, self.edges[i].b) for i in inside}
        while edges:
            ends = [end for a, b in edges.values() for end in (a, b)]
            i, (a, b) = next((i, (a, b)) for i, (a, b) in edges.items()
                             if ends.count(a) == 1 or ends.count(b) == 1)
            leaf, other = (a, b) if ends.count(a) == 1 else (b, a)
            bridges = left.pop(leaf)
            if not 0 <= bridges <= self.puzzle.maxb or bridges > left[other]:
                return False
            left[other] -= bridges
            del edges[i]
        return all(v == 0 for v in left.values())

    def _leave(self, group: Sequence[int]) -> Row:
        """"Some edge leaving this group of islands is used"."""
        inside = set(group)
        leaving = {self.used(i) for member in group for i, other in self.around[member]
                   if other not in inside}
        return at_least(leaving, 1)

    def cuts(self, values: Sequence[int]) -> list[Row]:
        """When the answer falls apart into groups: for each union of some of the groups,
        "some edge leaving it is used" (with few groups, every union; else each group)."""
        links = [(e.a, e.b) for i, e in enumerate(self.edges) if values[self.used(i)]]
        found = groups(len(self.puzzle.islands), links)
        if len(found) < 2:
            return []
        if len(found) > UNIONS_UP_TO:
            return [self._leave(group) for group in found]
        rows = []  # unions without the last group: with it, they leave by the same edges
        for size in range(1, len(found)):
            for chosen in itertools.combinations(found[:-1], size):
                rows.append(self._leave([island for group in chosen for island in group]))
        return rows

    def decode(self, values: Sequence[int]) -> Solution:
        return {e.key: sum(values[v] for v in self.at_least[i])
                for i, e in enumerate(self.edges) if values[self.used(i)]}


def solutions(puzzle: Hashi, deadline: float | None = None, adjacent: bool = True,
              stats: LoopStats | None = None) -> Iterator[Solution]:
    """Every solution, one at a time (the entry point of `solve(engine="milp")`)."""
    model = HashiProgram(puzzle, adjacent)
    distinct = [v for ladder in model.at_least for v in ladder]
    for values in program_solutions(model.program, model.cuts, distinct, deadline, stats):
        yield model.decode(values)
