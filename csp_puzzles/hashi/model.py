"""Hashiwokakero (Bridges) as a CSP: one variable per pair of islands that see each other.

The puzzle: islands with numbers stand in a grid of water. Join them with straight
horizontal or vertical bridges so that every island has as many bridges as its number, at
most `maxb` bridges join two islands (2 in the classic puzzle), bridges never cross each
other or pass over an island, and all islands end up connected. Tatham's `L` variant also
forbids loops.

The model (`to_csp`):

- a variable per *edge*, a pair of islands that see each other along a row or column with
  only water between them; its name is the tuple `(r1, c1, r2, c2)` of the two islands,
  the first in reading order, and its domain is 0..maxb, the number of bridges;
- `IslandDegree` at each island: the edges around it add up to its number (a `Sum`);
- `NoCrossing` for each pair of edges whose bridges would cross: not both may be used;
- `PairIsolation` on edges between two equal islands (1-1, 2=2): using the edge fully
  would leave the pair on its own;
- `Connectivity` over every edge: all islands end up in one group, with its own
  propagator (see `connectivity.py`); `NoLoops` in the `L` variant.

A solution is a dict `{(r1, c1, r2, c2): n}` holding the edges with n >= 1 bridges: the
same keys as the variables.

`solve()` runs MAC with the dom/wdeg variable order and restarts (the core's
`solve_with_restarts`): every
Tatham and janko puzzle is solved by propagation alone, and restarts tame the heavy tails
of search on the large, many-solution Coelho et al. instances. `solve(engine="sat")` runs
the SAT back end of `sat.py` instead: no trace, but on the largest, densest Coelho
instances it is the fast one (it learns from its conflicts; the CSP search does not).
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..core import CSP, solve_with_restarts
from ..core.heuristics import ValueOrder, VariableOrder
from ..puzzle import Puzzle, PuzzleResult

#: a solution: the number of bridges (>= 1) on each used edge, keyed like the variables
Solution = dict[tuple[int, int, int, int], int]


@dataclass(frozen=True)
class Island:
    """An island: its index (reading order), position and number of bridges."""

    index: int
    row: int
    col: int
    value: int

    @property
    def pos(self) -> tuple[int, int]:
        return (self.row, self.col)

    def __str__(self) -> str:
        return f"({self.row},{self.col})"


@dataclass(frozen=True)
class Edge:
    """A pair of islands that see each other; `a` comes before `b` in reading order.

    `cells` are the water cells a bridge would cover (empty when the islands touch).
    """

    index: int
    a: int
    b: int
    horizontal: bool
    cells: tuple[tuple[int, int], ...]
    key: tuple[int, int, int, int]  # (r1, c1, r2, c2): the variable's name

    @property
    def touching(self) -> bool:
        """Orthogonally adjacent islands (no water between them)."""
        return not self.cells

    def other(self, island: int) -> int:
        return self.b if island == self.a else self.a

    def __str__(self) -> str:
        r1, c1, r2, c2 = self.key
        return f"({r1},{c1})-({r2},{c2})"


class Hashi(Puzzle):
    """A Hashiwokakero puzzle: `height` x `width` grid, islands, `maxb`, `loops` allowed."""

    kind: ClassVar[str] = "hashi"
    model_options: ClassVar[frozenset[str]] = frozenset({"adjacent"})
    engines: ClassVar[tuple[str, ...]] = ("csp", "sat")
    #: dom/wdeg: small domains in places that failed before (core/heuristics.py)
    default_var_order: ClassVar[str] = "dom-wdeg"

    def __init__(self, height: int, width: int, islands: Mapping[tuple[int, int], int],
                 maxb: int = 2, loops: bool = True):
        if not 1 <= maxb <= 4:
            raise ValueError(f"maxb must be between 1 and 4, not {maxb}")
        self.height, self.width, self.maxb, self.loops = height, width, maxb, loops
        positions = sorted(islands)
        for r, c in positions:
            if not (0 <= r < height and 0 <= c < width):
                raise ValueError(f"island ({r},{c}) lies outside the {height}x{width} grid")
        self.islands: tuple[Island, ...] = tuple(
            Island(i, r, c, islands[(r, c)]) for i, (r, c) in enumerate(positions))
        self.island_at: dict[tuple[int, int], int] = {p: i for i, p in enumerate(positions)}
        self.edges: tuple[Edge, ...] = self._find_edges()
        #: edges by (r1, c1, r2, c2); any tuple of ints may be looked up
        self.edge_of: dict[tuple[int, ...], Edge] = {e.key: e for e in self.edges}
        edges_at: list[list[int]] = [[] for _ in positions]
        for e in self.edges:  # edges come in index order, so each list is sorted
            edges_at[e.a].append(e.index)
            edges_at[e.b].append(e.index)
        self.edges_at: tuple[tuple[int, ...], ...] = tuple(map(tuple, edges_at))
        self.crossings: tuple[tuple[int, int], ...] = self._find_crossings()

    # -- geometry ----------------------------------------------------------------------------
    def _find_edges(self) -> tuple[Edge, ...]:
        """Each island and the nearest island to its right and below it."""
        edges: list[Edge] = []
        for island in self.islands:
            for dr, dc in ((0, 1), (1, 0)):
                r, c = island.row + dr, island.col + dc
                cells: list[tuple[int, int]] = []
                while 0 <= r < self.height and 0 <= c < self.width:
                    j = self.island_at.get((r, c))
                    if j is not None:
                        key = (island.row, island.col, r, c)
                        edges.append(Edge(len(edges), island.index, j, dr == 0,
                                          tuple(cells), key))
                        break
                    cells.append((r, c))
                    r, c = r + dr, c + dc
        return tuple(edges)

    def _find_crossings(self) -> tuple[tuple[int, int], ...]:
        """Pairs (horizontal edge, vertical edge) whose bridges would share a water cell."""
        horizontal_at: dict[tuple[int, int], int] = {}
        for e in self.edges:
            if e.horizontal:
                for cell in e.cells:
                    horizontal_at[cell] = e.index
        pairs = []
        for e in self.edges:
            if not e.horizontal:
                for cell in e.cells:
                    h = horizontal_at.get(cell)
                    if h is not None:
                        pairs.append((h, e.index))
        return tuple(sorted(pairs))

    def neighbours(self, island: int) -> list[int]:
        """The islands `island` sees (one per direction at most)."""
        return [self.edges[e].other(island) for e in self.edges_at[island]]

    # -- the CSP -----------------------------------------------------------------------------
    def to_csp(self, counting: bool = False, adjacent: bool = True, level: str = "hard",
               **options: Any) -> CSP:
        """The CSP: edge variables 0..maxb, degrees, crossings, isolation, connectivity.

        `adjacent=False` leaves out the edges between touching islands (seed 001's rule).
        `level` ("easy", "medium", "hard") limits the rules the propagators use, for
        grading; the constraints themselves are the same. `counting` changes nothing: every
        rule here holds in every solution, none assumes the puzzle has only one.
        """
        self.reject_options(options)
        from .connectivity import Connectivity, NoLoops
        from .rules import IslandDegree, NoCrossing, PairIsolation

        csp = CSP(f"hashi {self.width}x{self.height}")
        used = [e for e in self.edges if adjacent or not e.touching]
        for e in used:
            csp.add_variable(e.key, range(self.maxb + 1))
        used_index = {e.index for e in used}
        for island in self.islands:
            edges = [self.edges[k] for k in self.edges_at[island.index] if k in used_index]
            csp.add_constraint(IslandDegree(self, island, edges, level))
        for h, v in self.crossings:
            csp.add_constraint(NoCrossing(self.edges[h], self.edges[v]))
        if len(self.islands) > 2 and level != "easy":
            for e in used:
                a, b = self.islands[e.a], self.islands[e.b]
                if a.value == b.value <= self.maxb:
                    csp.add_constraint(PairIsolation(e, a.value))
        if len(self.islands) > 1:
            csp.add_constraint(Connectivity(self, used, level))
            if not self.loops:
                csp.add_constraint(NoLoops(self, used, level))
        return csp

    def solve(self, inference: str | None = None, var_order: str | VariableOrder | None = None,
              val_order: str | ValueOrder | None = None, timeout: float | None = None,
              max_nodes: int | None = None, trace: bool = False, engine: str = "csp",
              **model_options: Any) -> PuzzleResult:
        """Solve; by default MAC with dom/wdeg and restarts (core/restarts.py).

        Asking for anything else (another inference or variable order, or a trace, which
        tells the story of one search) runs the generic search once, as every puzzle does.
        `engine="sat"` hands the puzzle to a SAT solver instead (see `_solve_sat`).
        """
        if engine == "sat":
            return self._solve_sat(timeout, inference, var_order, val_order, max_nodes, trace,
                                   **model_options)
        if (inference or "mac") != "mac" or var_order is not None or trace:
            return super().solve(inference, var_order, val_order, timeout, max_nodes, trace,
                                 engine, **model_options)
        self._check_engine(engine)
        csp = self.to_csp(**model_options)
        result = solve_with_restarts(csp, "mac", self.default_var_order,
                                     val_order or self.default_val_order, timeout,
                                     max_nodes)
        solution = self.decode(result.solution) if result.solution is not None else None
        return PuzzleResult(self.kind, result.status, solution, result.stats, None, self)

    def count(self, limit: int = 2, inference: str | None = None,
              var_order: str | VariableOrder | None = None,
              val_order: str | ValueOrder | None = None, timeout: float | None = None,
              max_nodes: int | None = None, trace: bool = False, engine: str = "csp",
              **model_options: Any) -> PuzzleResult:
        """Count solutions up to `limit` with the core's search, or with `engine="sat"`."""
        if engine != "sat":
            return super().count(limit, inference, var_order, val_order, timeout, max_nodes,
                                 trace, engine, **model_options)
        return self._solve_sat(timeout, inference, var_order, val_order, max_nodes, trace,
                               limit=limit, **model_options)

    def _solve_sat(self, timeout: float | None, inference: str | None, var_order: Any,
                   val_order: Any, max_nodes: int | None, trace: bool,
                   limit: int | None = None, adjacent: bool = True,
                   **model_options: Any) -> PuzzleResult:
        """The SAT engine: seed 001's idea, the encoding and lazy cut loop of `sat.py`.

        PicoSAT (CDCL: it learns a clause from every conflict) solves the large, dense
        Coelho et al. instances tens of times faster than the CSP search, which rediscovers
        the same local conflicts. It has no search options and no trace, and it counts no
        nodes: its statistics hold the seconds only. `limit` set means: count up to it.
        """
        asked = [name for name, value in (("inference", inference), ("var_order", var_order),
                                          ("val_order", val_order), ("max_nodes", max_nodes),
                                          ("trace", trace)) if value]
        asked += sorted(model_options)  # CSP model options (a rule level, say)
        if asked:
            raise ValueError(f"the SAT engine takes only a timeout, not {', '.join(asked)}")
        from ..core.search import LIMIT, SOLVED, UNSATISFIABLE
        from ..core.stats import Stats
        from ..errors import LimitReached
        from .sat import sat_solutions

        start = time.perf_counter()
        deadline = None if timeout is None else start + timeout
        found: list[Solution] = []
        status = UNSATISFIABLE
        try:
            for solution in sat_solutions(self, adjacent, deadline):
                found.append(solution)
                if limit is None or len(found) >= limit:
                    break
            if found:
                status = SOLVED
        except LimitReached:
            status = LIMIT
        stats = Stats(seconds=time.perf_counter() - start)
        first = found[0] if found else None
        if limit is None:
            return PuzzleResult(self.kind, status, first, stats, None, self, engine="sat")
        complete = status != LIMIT
        return PuzzleResult(self.kind, status, first, stats, None, self, solutions=len(found),
                            unique=(len(found) == 1) if complete else None, engine="sat")

    def decode(self, assignment: Mapping[Hashable, Any]) -> Solution:
        """The used edges and their bridge counts."""
        return {e.key: assignment[e.key] for e in self.edges if assignment.get(e.key)}

    # -- reading and writing -----------------------------------------------------------------
    def solution_to_json(self, solution: Solution) -> dict[str, Any]:
        return {"bridges": [[*key, n] for key, n in sorted(solution.items()) if n]}

    def solution_to_text(self, solution: Solution) -> str:
        from .formats import solution_grid

        return solution_grid(self, solution)

    def to_text(self) -> str:
        """The grid text, or the Tatham ID when `maxb` or the no-loops rule must be said."""
        from .formats import write_matrix, write_tatham

        if self.maxb != 2 or not self.loops:
            return write_tatham(self) + "\n"
        return write_matrix(self)

    def _identity(self) -> tuple[Any, ...]:
        return (self.height, self.width, self.maxb, self.loops,
                tuple((i.row, i.col, i.value) for i in self.islands))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hashi):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def to_tatham(self) -> str:
        from .formats import write_tatham

        return write_tatham(self)

    def to_dimacs(self, three_sat: bool = False, adjacent: bool = True, **options: Any) -> str:
        from .sat import to_dimacs

        self.reject_options(options)
        return to_dimacs(self, three_sat=three_sat, adjacent=adjacent)

    def check(self, solution: Any, adjacent: bool = True) -> list[str]:
        from .check import check

        return check(self, solution, adjacent=adjacent)

    def render(self, ax: Any, solution: Any = None, domains: dict | None = None) -> None:
        from .render import render

        render(self, ax, solution=solution, domains=domains)

    def __repr__(self) -> str:
        variant = f", maxb={self.maxb}" if self.maxb != 2 else ""
        variant += ", no loops" if not self.loops else ""
        return f"Hashi({self.width}x{self.height}, {len(self.islands)} islands{variant})"
