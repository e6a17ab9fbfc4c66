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

`solve()` runs MAC with restarts (the core's `solve_with_restarts`, Luby's budgets, phase
saving and rephasing, 1-UIP nogood learning, branching on conflict activity): every Tatham
puzzle is solved without a backtrack, and learning with restarts tames the heavy tails of
search on the large, many-solution Coelho et al. instances. Some published (janko.at)
puzzles need a "what if" step; `solve(var_order="probe")` takes it by failed-literal
probing instead of guessing (`csp-puzzles bench hashi --parts janko` counts both ways).
`solve(engine="sat")` runs the SAT back end of `sat.py` instead: the same rules as clauses
for a SAT solver, no trace.
`solve(engine="milp")` runs the integer program of `milp.py`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..core import CSP, solve_with_restarts
from ..core.heuristics import ValueOrder, VariableOrder
from ..core.ladder import Rung
from ..core.search import fewer_collections
from ..puzzle.formats import encode_runs
from ..puzzle.protocol import Puzzle, PuzzleResult
from . import grade as grading
from .check import check
from .connectivity import Connectivity, NoLoops
from .rules import (
    FULL,
    LEVELS,
    IslandCounting,
    IslandDegree,
    NoCrossing,
    PairIsolation,
    check_level,
)
from .trials import TrialBridges

#: the most bridges two islands may share, whatever the puzzle's `maxb` (Tatham's limit)
MAX_BRIDGES = 4
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
        return f"({self.row},{self.col})"  # as the trace shows a position (core.trace.show)


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



def _looks_like_header(grid: list[list[str]]) -> bool:
    """Would a reader take the first row of this bare matrix for a header?

    It does when that row is `R C` and R rows of C cells follow, or `W H N` and H rows of W
    cells follow (the two header styles of grid text).
    """
    first, rest = [int(x) for x in grid[0]], grid[1:]
    if not rest:
        return False
    width = len(rest[0])
    if len(first) == 2:
        return first == [len(rest), width]
    return len(first) == 3 and first[:2] == [width, len(rest)]

class Hashi(Puzzle):
    """A Hashiwokakero puzzle: `height` x `width` grid, islands, `maxb`, `loops` allowed."""

    kind: ClassVar[str] = "hashi"
    model_options: ClassVar[frozenset[str]] = frozenset({"adjacent"})
    engines: ClassVar[tuple[str, ...]] = ("csp", "sat", "milp")
    difficulties: ClassVar[tuple[str, ...]] = grading.DIFFICULTIES
    #: dom/wdeg: small domains in places that failed before (core/heuristics.py)
    default_var_order: ClassVar[str] = "dom-wdeg"
    #: the look-back of the default, restarted solve: nogood learning; a traced or counted
    #: search keeps the plain default, so that notebooks step through chronological
    #: backtracking (these defaults were measured with `csp-puzzles bench hashi`: see
    #: BENCHMARKS.md)
    restart_look_back: ClassVar[str] = "learn"
    #: and, when it learns, it branches on conflict activity (core/activity.py)
    restart_var_order: ClassVar[str] = "activity"
    #: and the restarts themselves: phase saving (each run first tries the values the last
    #: one had settled, rephased to the best assignment met, see core/learning.py) and
    #: Luby's budgets
    restart_val_order: ClassVar[str] = "phase"
    restart_schedule: ClassVar[str] = "luby"
    #: Luby's unit: budgets of 500, 500, 1000, 500, 500, 1000, 2000... nodes. A restart in
    #: place keeps the nogoods and activities, so it pays to let each run go deeper
    restart_first_budget: ClassVar[int] = 500

    def __init__(self, height: int, width: int, islands: Mapping[tuple[int, int], int],
                 maxb: int = 2, loops: bool = True):
        if not 1 <= maxb <= MAX_BRIDGES:
            raise ValueError(f"maxb must be between 1 and {MAX_BRIDGES}, not {maxb}")
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
    def to_csp(self, counting: bool = False, adjacent: bool = True, level: str = FULL,
               isolation: bool = True, **options: Any) -> CSP:
        """The CSP: edge variables 0..maxb, degrees, crossings, isolation, connectivity.

        `adjacent=False` leaves out the edges between touching islands (a rule some
        collections add: touching islands are never joined).
        `level` picks the rules the propagators use: "full" (the default) every rule the
        solver has; "easy", "medium", "hard" exactly Tatham's levels (`rules.py`), the
        rungs of `ladder()`. The relation is the same at every level: only what is deduced
        before the search differs. `counting` changes nothing: every rule here holds in
        every solution, none assumes the puzzle has only one. `isolation=False` leaves out
        the isolation rules of the full model (`rules_csp`: the rules alone).
        """
        self.reject_options(options)
        check_level(level)
        csp = CSP(f"hashi {self.width}x{self.height}")
        used = [e for e in self.edges if adjacent or not e.touching]
        csp.add_variables([e.key for e in used], range(self.maxb + 1))
        used_index = {e.index for e in used}
        for island in self.islands:
            edges = [self.edges[k] for k in self.edges_at[island.index] if k in used_index]
            csp.add_constraint(IslandDegree(self, island, edges) if level == FULL
                               else IslandCounting(island, edges, self.maxb, level))
        for h, v in self.crossings:
            csp.add_constraint(NoCrossing(self.edges[h], self.edges[v]))
        if len(self.islands) > 2 and level == FULL and isolation:
            for e in used:
                a, b = self.islands[e.a], self.islands[e.b]
                if a.value == b.value <= self.maxb:
                    csp.add_constraint(PairIsolation(e, a.value))
        if len(self.islands) > 1:
            csp.add_constraint(Connectivity(self, used, level))
            if not self.loops:
                csp.add_constraint(NoLoops(self, used, level))
            if level == "hard":
                csp.add_constraint(TrialBridges(self, used))
        return csp

    def rules_csp(self, adjacent: bool = True, **options: Any) -> CSP:
        """The rules alone: each island's number, no crossing, one group (and no loops in
        the `L` variant); the isolation rules, deductions from them, are left out."""
        return self.to_csp(adjacent=adjacent, isolation=False, **options)

    def solve(self, inference: str | None = None, var_order: str | VariableOrder | None = None,
              val_order: str | ValueOrder | None = None, timeout: float | None = None,
              max_nodes: int | None = None, trace: bool = False, engine: str = "csp",
              look_back: str | None = None, **model_options: Any) -> PuzzleResult:
        """Solve; by default MAC with restarts (core/restarts.py), phase saving, learning,
        and the variables of recent conflicts first (dom/wdeg when not learning).

        Asking for anything else (another inference or variable order, or a trace, which
        tells the story of one search) runs the generic search once, as every puzzle does.
        Another engine (`engine="sat"`: `sat.py`, `"milp"`: `milp.py`) takes the puzzle
        instead, as `Puzzle.solve` says.
        """
        if engine != "csp" or (inference or "mac") != "mac" or var_order is not None or trace:
            return super().solve(inference, var_order, val_order, timeout, max_nodes, trace,
                                 engine, look_back, **model_options)
        self._check_engine(engine)
        with fewer_collections():  # the model's many small objects, then the search's
            return self._solve_with_restarts(val_order, timeout, max_nodes, look_back,
                                             model_options)

    def _solve_with_restarts(self, val_order: str | ValueOrder | None, timeout: float | None,
                             max_nodes: int | None, look_back: str | None,
                             model_options: dict[str, Any]) -> PuzzleResult:
        """The default solve: the model, then MAC with restarts (see `solve`)."""
        csp = self.to_csp(**model_options)
        look_back = look_back or self.restart_look_back
        order = self.restart_var_order if look_back == "learn" else self.default_var_order
        result = solve_with_restarts(csp, inference="mac", var_order=order,
                                     val_order=val_order or self.restart_val_order,
                                     timeout=timeout, max_nodes=max_nodes,
                                     first_budget=self.restart_first_budget,
                                     look_back=look_back, schedule=self.restart_schedule)
        solution = self.decode(result.solution) if result.solution is not None else None
        return PuzzleResult(self.kind, result.status, solution, result.stats, None, self)

    def decode(self, assignment: Mapping[Hashable, Any]) -> Solution:
        """The used edges and their bridge counts."""
        return {e.key: assignment[e.key] for e in self.edges if assignment.get(e.key)}

    # -- reading and writing -----------------------------------------------------------------
    def solution_to_json(self, solution: Solution) -> dict[str, Any]:
        return {"bridges": [[*key, n] for key, n in sorted(solution.items()) if n]}

    def solution_to_text(self, solution: Solution) -> str:
        """The solved grid for a terminal: `-` `=` `≡` `#` horizontal, `|` `‖` `⦀` vertical.

        One character per cell; islands show their number, water a `.`.
        """
        horizontal = " -=≡#"
        vertical = " |‖⦀#"
        grid = [["."] * self.width for _ in range(self.height)]
        for key, n in solution.items():
            edge = self.edge_of.get(key)
            if edge is None or not n:
                continue
            mark = (horizontal if edge.horizontal else vertical)[min(n, 4)]
            for r, c in edge.cells:
                grid[r][c] = mark
        for island in self.islands:
            grid[island.row][island.col] = (str(island.value) if island.value < 10
                                            else chr(ord("A") + island.value - 10))
        return "\n".join("".join(row) for row in grid)

    def to_text(self) -> str:
        """The matrix: `0` for water, the island's number otherwise.

        A janko.at header `R C` goes first only when a reader would take the bare matrix's
        first row for a header (`_looks_like_header`: a row like `2 2` over two rows of two).
        The matrix cannot say `maxb` or the no-loops rule: for those it is the Tatham ID.
        """
        if self.maxb != 2 or not self.loops:
            return self.to_tatham() + "\n"
        grid = [["0"] * self.width for _ in range(self.height)]
        for island in self.islands:
            if island.value > 9:
                raise ValueError(f"island {island} = {island.value} does not fit one digit")
            grid[island.row][island.col] = str(island.value)
        text = "\n".join(" ".join(row) for row in grid) + "\n"
        return f"{self.height} {self.width}\n{text}" if _looks_like_header(grid) else text

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
        """The Tatham game ID (values above 16 cannot be written)."""
        cells: list[str | None] = [None] * (self.width * self.height)
        for island in self.islands:
            if island.value > 16:
                raise ValueError(f"island {island} = {island.value}: Tatham IDs stop at 16")
            cells[island.row * self.width + island.col] = (
                str(island.value) if island.value < 10 else chr(ord("A") + island.value - 10))
        loops = "" if self.loops else "L"
        return f"{self.width}x{self.height}m{self.maxb}{loops}:{encode_runs(cells)}"

    def to_dimacs(self, three_sat: bool = False, adjacent: bool = True, **options: Any) -> str:
        from .sat import to_dimacs  # the SAT back end's solver is an optional extra

        self.reject_options(options)
        return to_dimacs(self, three_sat=three_sat, adjacent=adjacent)

    def ladder(self, adjacent: bool = True, **options: Any) -> list[Rung]:
        """Tatham's levels as rungs (`rules.LEVELS`): island counting, then the edge minimum
        and no loops, then the trials of `trials.py`; `adjacent` as for `to_csp`."""
        self.reject_options(options)
        return [Rung(level, self.to_csp(adjacent=adjacent, level=level)) for level in LEVELS]

    def check(self, solution: Any, adjacent: bool = True) -> list[str]:
        return check(self, solution, adjacent=adjacent)

    def __repr__(self) -> str:
        variant = f", maxb={self.maxb}" if self.maxb != 2 else ""
        variant += ", no loops" if not self.loops else ""
        return f"Hashi({self.width}x{self.height}, {len(self.islands)} islands{variant})"
