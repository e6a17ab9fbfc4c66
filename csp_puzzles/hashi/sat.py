"""Hashiwokakero as propositional satisfiability: CNF, DIMACS, 3-SAT and a SAT back end.

The classic logic-course exercise writes Hashi in conjunctive normal form, prints it as
DIMACS and hands it to a SAT solver. This module does the same with an encoding that scales
to hundreds of islands.

Variables
    For every pair ``p`` of islands that see each other and every ``k`` in 1..maxb, the
    variable ``x[p,k]`` means "at least k bridges join this pair" (a unary, "order"
    encoding of the pair's bridge count). Clauses ``x[p,k+1] -> x[p,k]`` keep the ladder
    consistent, so the number of true ``x[p,.]`` is exactly the number of bridges.

Degrees (exact cardinality)
    The degree of an island is the number of true ``x[p,k]`` over its pairs, and must equal
    the island's number n. The default, *explicit* encoding works on the ladders directly
    and needs no new variable: "at most n" forbids every set of thresholds that reaches
    n + 1 (clause: not all of ``x[p,t_p]``), "at least n" forbids every set that stays at
    n - 1 (clause: some ``x[p,t_p + 1]``). An island has at most 4 pairs, so that is at
    most a few dozen short clauses (at most 625 threshold sets when maxb = 4), and unit
    propagation on them does what the CSP's degree rule does. Enumerating subsets of single
    bridges instead grows as C(16, 9) = 11440 clauses for one island.
    The alternative ``degrees="counter"`` is a *sequential counter* (Sinz 2005) with full
    registers: ``s[i,j]`` is "at least j of the first i literals are true", with
    ``s[i,j] <-> s[i-1,j] or (s[i-1,j-1] and l_i)``; asserting ``s[m,n]`` and
    ``not s[m,n+1]`` says "exactly n" for any list of literals, in O(m n) clauses: more
    clauses and variables than the explicit encoding, and a slower solve (BENCHMARKS.md).

Crossings
    A horizontal pair and a vertical pair whose bridges would cross: ``not x[p,1] or not x[q,1]``.

Connectivity (a complete encoding: the DIMACS file alone is the whole problem)
    The island nearest the middle is the root; every other island ``v`` chooses a
    *parent* among its neighbours (variables ``y[v,u]``): at least one parent, the parent
    pair carries a bridge, and the parent's *level* (a binary number of ceil(log2 N) bits
    per island) is strictly smaller than the child's. Following parents strictly lowers
    the level, so it ends at the one island without a parent, the root: every island is
    joined to the root by bridges. Conversely a connected solution gives a breadth-first
    tree, whose depths are valid levels. The comparison "level(u) < level(v)" is a chain
    of one auxiliary variable per bit and three clauses per bit, so the whole encoding is
    O(E log N) clauses. The 1-1 / 2=2 isolation cuts (two islands of number k never share
    k bridges) are added too: implied, but they shorten the solve of large puzzles
    (BENCHMARKS.md).

    A *flow* encoding was rejected: integer flows in CNF need adders, a much bigger file.
    The *lazy cut loop* is what `solve_sat` runs by default: solve without connectivity,
    and while the model falls apart into groups, add for each group the cut clause "some
    bridge leaves this set" (and, without loops, "not all the pairs of this cycle") and
    solve again. The loop needs few rounds and its formula is small, so it is much
    faster than the level encoding here (see the
    benchmark `python -m csp_puzzles.bench.hashi_generate --sat`). But a DIMACS file of
    the lazy model alone would be incomplete (its models may be disconnected), so
    `to_dimacs` writes the complete level encoding.

No loops (Tatham's ``L``)
    Every island has at most one parent and every bridged pair is a parent link in one
    direction. The parent links form a spanning tree (N - 1 links), so the bridged pairs
    are exactly that tree: no cycle.

3-SAT
    ``to_three_sat`` is the textbook reduction: a clause of k > 3 literals becomes a chain
    ``(l1 l2 y1) (-y1 l3 y2) ... (-y_{k-3} l_{k-1} l_k)`` with fresh variables ``y``; a clause
    of 2 literals ``(a b)`` becomes ``(a b z) (a b -z)`` and a unit clause four clauses
    over two fresh variables, so every clause has exactly three literals. The result is
    equisatisfiable, and any of its models restricted to the original variables is a model
    of the original formula.

Back end
    ``python-sat`` (import ``pysat``; wheels for every platform, WebAssembly included)
    solves the clauses, with CaDiCaL 1.9.5 by default (``solver=`` picks another of
    ``SOLVERS``). The lazy loop keeps ONE incremental solver: cuts and blocking clauses are
    added to it, and the clauses it learnt in earlier rounds stay. The model is read back
    as the Hashi model's solution ``{(r1, c1, r2, c2): n}``, which ``puzzle.check`` accepts.
    ``sat_solutions`` lists solutions by the lazy cut loop plus blocking clauses;
    ``count_sat`` counts them. ``Hashi.solve(engine="sat")`` (``csp-puzzles solve hashi
    --engine sat``) runs this back end instead of the CSP search.

Time limits
    A SAT solver has no clock. Under a ``timeout`` each call gets a budget of conflicts
    (``conf_budget`` + ``solve_limited``, no thread); when it runs out the call goes on
    with a budget sized from the conflicts per second just measured, never planned past
    the deadline, so the answer comes back as ``LimitReached`` soon after the deadline.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from ..core.errors import LimitReached, MissingExtra
from ..core.trace import show
from ..core.unionfind import UnionFind
from ..solvers.lazy_cuts import LoopStats, groups, lazy_solutions

if TYPE_CHECKING:
    from .model import Hashi, Solution

Clause = list[int]

#: The default solver: CaDiCaL 1.9.5, incremental, the fastest here on the Coelho instances
DEFAULT_SOLVER = "cadical195"

#: python-sat solvers that stop on a conflict budget (``solve_limited``) and add clauses
#: between calls (Lingeling has no budget, Kissat is not incremental)
SOLVERS = ("cadical195", "cadical153", "glucose4", "glucose3", "minisat22", "maplechrono",
           "mergesat3")

#: Conflicts allowed to the first call under a time limit (milliseconds on these puzzles)
FIRST_CONFLICTS = 1_000


# -- a CNF formula with named variables ------------------------------------------------------
@dataclass
class Cnf:
    """Clauses over variables 1..num_vars; ``names`` documents the meaningful ones."""

    num_vars: int = 0
    clauses: list[Clause] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)

    def new_var(self, name: str | None = None) -> int:
        self.num_vars += 1
        if name is not None:
            self.names[self.num_vars] = name
        return self.num_vars

    def add(self, clause: Iterable[int]) -> None:
        self.clauses.append(list(clause))

    def add_false(self) -> None:
        """Make the formula unsatisfiable (``v`` and ``not v`` for a fresh ``v``)."""
        v = self.new_var()
        self.clauses.append([v])
        self.clauses.append([-v])


# Constants inside the counter: Python booleans stand for "always true" / "always false".
_Lit = int | bool


def _or_clause(cnf: Cnf, literals: Sequence[_Lit]) -> None:
    """Add the clause ``OR literals``, folding the constants True and False away."""
    if any(lit is True for lit in literals):
        return
    cnf.add(lit for lit in literals if lit is not False)


def exactly(cnf: Cnf, literals: Sequence[int], n: int) -> None:
    """Exactly ``n`` of ``literals`` are true: a sequential counter with full registers.

    ``register[j]`` after reading i literals is "at least j of the first i are true";
    only registers 0..n+1 matter. Constant registers are folded, so a small island adds
    few clauses.
    """
    if n < 0 or n > len(literals):
        cnf.add_false()
        return
    register: list[_Lit] = [True, *[False] * (n + 1)]
    for lit in literals:
        new: list[_Lit] = [True]
        for j in range(1, n + 2):
            keep, carry = register[j], register[j - 1]
            if keep is True:
                new.append(True)
            elif carry is False:
                new.append(keep)
            elif keep is False and carry is True:
                new.append(lit)
            else:
                t = cnf.new_var()
                # t <-> keep or (carry and lit)
                _or_clause(cnf, [_neg(keep), t])
                _or_clause(cnf, [_neg(carry), -lit, t])
                _or_clause(cnf, [-t, keep, carry])
                _or_clause(cnf, [-t, keep, lit])
                new.append(t)
        register = new
    _or_clause(cnf, [register[n]])
    _or_clause(cnf, [_neg(register[n + 1])])


def exactly_on_ladders(cnf: Cnf, ladders: Sequence[Sequence[int]], n: int) -> None:
    """The sum of unary counts is exactly ``n``: clauses on the ladders, no new variable.

    ``ladders[i][k - 1]`` is "count i is at least k". "At most n" forbids every way of
    reaching n + 1: for thresholds ``t`` with ``sum(t) = n + 1``, not all "count i >= t_i".
    "At least n" forbids every way of staying at n - 1: for ``sum(t) = n - 1``, some count
    exceeds its ``t_i``. Unit propagation on these clauses is exactly the bound reasoning
    of the CSP's degree rule.
    """
    sizes = tuple(len(ladder) for ladder in ladders)
    if not 0 <= n <= sum(sizes):
        cnf.add_false()
        return
    rungs = [v for ladder in ladders for v in ladder]
    literals = rungs + [-v for v in rungs]  # rung j, then its negation at j + len(rungs)
    cnf.clauses.extend(list(pick(literals)) for pick in _ladder_clauses(sizes, n))


@functools.cache
def _ladder_clauses(sizes: tuple[int, ...], n: int) -> tuple[Callable[[list[int]], tuple], ...]:
    """The clauses of ``exactly_on_ladders`` for ladders of ``sizes``, worked out once.

    Each clause is a function picking its literals out of the rungs of all ladders, in
    order, followed by their negations. Islands share a few shapes (ladder sizes and
    number), so this runs a few times per puzzle, not once per island.
    """
    first = list(itertools.accumulate(sizes, initial=0))  # rung index of each ladder's k=1
    negated = sum(sizes)
    clauses = [[negated + first[i] + t - 1 for i, t in enumerate(thresholds) if t > 0]
               for thresholds in _compositions(n + 1, sizes)]
    if n > 0:
        clauses.extend([first[i] + t for i, t in enumerate(thresholds) if t < sizes[i]]
                       for thresholds in _compositions(n - 1, sizes))
    return tuple(_picker(clause) for clause in clauses)


def _picker(positions: list[int]) -> Callable[[list[int]], tuple]:
    """``operator.itemgetter`` that always gives a tuple, even of one item or none."""
    if len(positions) == 1:
        only = positions[0]
        return lambda items: (items[only],)
    if not positions:
        return lambda items: ()
    return operator.itemgetter(*positions)


def _compositions(total: int, sizes: Sequence[int]) -> Iterable[tuple[int, ...]]:
    """Tuples ``t`` with ``0 <= t[i] <= sizes[i]`` and ``sum(t) == total``."""
    if not sizes:
        if total == 0:
            yield ()
        return
    room = sum(sizes[1:])
    for first in range(max(0, total - room), min(sizes[0], total) + 1):
        for rest in _compositions(total - first, sizes[1:]):
            yield (first, *rest)


def _neg(lit: _Lit) -> _Lit:
    if lit is True:
        return False
    if lit is False:
        return True
    return -lit


# -- the puzzle's graph ----------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """What the encoding needs: islands, the pairs that may be joined, the crossings.

    ``islands[i] = (row, col, number)`` in reading order; ``pairs[p] = (i, j)`` and
    ``keys[p] = (r1, c1, r2, c2)`` (the model's edge name); ``crossings`` lists pairs of
    pair indices whose bridges would cross.
    """

    islands: tuple[tuple[int, int, int], ...]
    pairs: tuple[tuple[int, int], ...]
    keys: tuple[tuple[int, int, int, int], ...]
    crossings: tuple[tuple[int, int], ...]
    maxb: int = 2
    loops: bool = True


def layout_of(puzzle: Hashi, adjacent: bool = True) -> Layout:
    """The puzzle's islands, edges and crossings; ``adjacent=False`` drops touching pairs."""
    used = [e for e in puzzle.edges if adjacent or not e.touching]
    index = {e.index: p for p, e in enumerate(used)}
    crossings = tuple((index[h], index[v]) for h, v in puzzle.crossings
                      if h in index and v in index)
    return Layout(tuple((i.row, i.col, i.value) for i in puzzle.islands),
                  tuple((e.a, e.b) for e in used), tuple(e.key for e in used),
                  crossings, puzzle.maxb, puzzle.loops)


# -- the encoding ----------------------------------------------------------------------------
@dataclass
class Encoding:
    """A CNF of a Hashi layout and where its bridge variables are.

    ``bridge_vars[p][k - 1]`` is the variable "pair p has at least k bridges".
    """

    layout: Layout
    cnf: Cnf
    bridge_vars: list[list[int]]

    def bridges(self, model: Iterable[int]) -> Solution:
        """The model's bridges ``{(r1, c1, r2, c2): n}`` (n >= 1), as the Hashi model has them."""
        true = {lit for lit in model if lit > 0}
        counts = {}
        for p, ladder in enumerate(self.bridge_vars):
            n = sum(1 for v in ladder if v in true)
            if n:
                counts[self.layout.keys[p]] = n
        return counts

    def blocking_clause(self, solution: Solution) -> Clause:
        """A clause that every bridge assignment except ``solution`` satisfies."""
        clause = []
        for p, ladder in enumerate(self.bridge_vars):
            n = solution.get(self.layout.keys[p], 0)
            if n < len(ladder):
                clause.append(ladder[n])  # one more bridge than now
            if n > 0:
                clause.append(-ladder[n - 1])  # one fewer
        return clause


def encode(layout: Layout, connectivity: str = "levels", degrees: str = "ladders",
           named: bool = True) -> Encoding:
    """The CNF of a layout: bridges, degrees, crossings and (unless ``"none"``) connectivity.

    ``connectivity`` is ``"levels"`` (the complete parent/level encoding of the module
    docstring, with the no-loops clauses when the puzzle forbids loops) or ``"none"``
    (neither connectivity nor no-loops: the lazy cut loop adds those clauses as it goes).
    ``degrees`` is ``"ladders"`` (the explicit encoding) or ``"counter"`` (sequential
    counters), both described in the module docstring. ``named=False`` leaves the bridge
    variables unnamed (a solver needs no names; DIMACS comments do).
    """
    if connectivity not in ("levels", "none"):
        raise ValueError(f"unknown connectivity {connectivity!r}; expected 'levels' or 'none'")
    if degrees not in ("ladders", "counter"):
        raise ValueError(f"unknown degree encoding {degrees!r}; expected 'ladders' or 'counter'")
    cnf = Cnf()
    islands, pairs = layout.islands, layout.pairs

    def where(i: int) -> str:
        return show(islands[i][:2])

    def name(k: int, i: int, j: int) -> str | None:
        if not named:
            return None
        return f"at least {k} bridge{'s' if k > 1 else ''} {where(i)}-{where(j)}"

    bridge_vars = []
    for i, j in pairs:
        ladder = [cnf.new_var(name(k, i, j)) for k in range(1, layout.maxb + 1)]
        for k in range(1, len(ladder)):
            cnf.add([-ladder[k], ladder[k - 1]])
        bridge_vars.append(ladder)
    incident: list[list[int]] = [[] for _ in islands]
    for p, (i, j) in enumerate(pairs):
        incident[i].append(p)
        incident[j].append(p)
    for i, (_, _, number) in enumerate(islands):
        if degrees == "counter":
            exactly(cnf, [v for p in incident[i] for v in bridge_vars[p]], number)
        else:
            exactly_on_ladders(cnf, [bridge_vars[p] for p in incident[i]], number)
    for p, q in layout.crossings:
        cnf.add([-bridge_vars[p][0], -bridge_vars[q][0]])
    encoding = Encoding(layout, cnf, bridge_vars)
    if connectivity == "levels":
        _connect_by_levels(encoding)
    return encoding


def _connect_by_levels(encoding: Encoding) -> None:
    """Parent links with strictly increasing binary levels (see the module docstring)."""
    cnf, layout = encoding.cnf, encoding.layout
    islands = layout.islands
    n = len(islands)
    if n <= 1:
        return
    cnf.clauses.extend(isolation_clauses(encoding))
    root = _central(islands)
    names = [show((r, c)) for r, c, _ in islands]
    bits = max(1, math.ceil(math.log2(n)))
    level = [[cnf.new_var(f"level bit {b} of island {names[i]}") for b in range(bits)]
             for i in range(n)]
    for bit in level[root]:
        cnf.add([-bit])  # the root has level 0
    parent_of: list[list[int]] = [[] for _ in range(n)]  # parent variables of each island
    link: dict[int, list[int]] = {}  # pair -> parent variables that use it
    for p, (i, j) in enumerate(layout.pairs):
        for child, par in ((i, j), (j, i)):
            if child == root:
                continue
            y = cnf.new_var(f"parent of island {names[child]} is island {names[par]}")
            cnf.add([-y, encoding.bridge_vars[p][0]])
            _less_than(cnf, y, level[par], level[child])
            parent_of[child].append(y)
            link.setdefault(p, []).append(y)
    children = [i for i in range(n) if i != root]
    for child in children:
        cnf.add(parent_of[child])  # empty when the island sees nobody: unsatisfiable
    if not layout.loops:
        for child in children:
            ys = parent_of[child]
            for a in range(len(ys)):
                for b in range(a + 1, len(ys)):
                    cnf.add([-ys[a], -ys[b]])
        for p, ladder in enumerate(encoding.bridge_vars):
            cnf.add([-ladder[0], *link.get(p, [])])


def _central(islands: Sequence[tuple[int, int, int]]) -> int:
    """The island nearest the middle of the others: the root, so parent chains are short."""
    rows = [r for r, _, _ in islands]
    cols = [c for _, c, _ in islands]
    mid_r, mid_c = (min(rows) + max(rows)) / 2, (min(cols) + max(cols)) / 2
    return min(range(len(islands)),
               key=lambda i: abs(islands[i][0] - mid_r) + abs(islands[i][1] - mid_c))


def isolation_clauses(encoding: Encoding) -> list[Clause]:
    """1-1, 2=2, ...: two islands of number k may not share k bridges (more islands exist).

    They would form a closed group of two. These cuts follow from connectivity, but
    giving them up front spares the solver (and the lazy loop) the rediscovery.
    """
    layout = encoding.layout
    if len(layout.islands) <= 2:
        return []
    clauses = []
    for p, (i, j) in enumerate(layout.pairs):
        k = layout.islands[i][2]
        if k == layout.islands[j][2] and k <= layout.maxb:
            clauses.append([-encoding.bridge_vars[p][k - 1]])
    return clauses


def _less_than(cnf: Cnf, guard: int, a: Sequence[int], b: Sequence[int]) -> None:
    """``guard -> value(a) < value(b)`` for binary numbers (bit 0 least significant).

    ``t_k`` means "a < b on bits k..0"; the top one is ``guard`` itself. At bit k, (a, b) =
    (0, 1) settles it, (1, 0) is forbidden, and equal bits pass the question to ``t_{k-1}``
    (false below bit 0).
    """
    t = guard
    for k in range(len(a) - 1, -1, -1):
        lower = [cnf.new_var()] if k > 0 else []
        cnf.add([-t, -a[k], b[k]])
        cnf.add([-t, a[k], b[k], *lower])
        cnf.add([-t, -a[k], -b[k], *lower])
        if lower:
            t = lower[0]


# -- 3-SAT and DIMACS ------------------------------------------------------------------------
def to_three_sat(clauses: Iterable[Sequence[int]], num_vars: int) -> tuple[list[Clause], int]:
    """The textbook reduction to 3-SAT: every clause gets exactly three literals.

    Returns the new clauses and the new number of variables (the first ``num_vars`` keep
    their meaning). Repeated literals are merged and tautologies dropped first.
    """
    out: list[Clause] = []
    top = num_vars

    def fresh() -> int:
        nonlocal top
        top += 1
        return top

    for clause in clauses:
        lits = list(dict.fromkeys(clause))
        if any(-lit in lits for lit in lits):
            continue  # always true
        if len(lits) == 0:
            a, b, c = fresh(), fresh(), fresh()
            out.extend([x * a, y * b, z * c] for x in (1, -1) for y in (1, -1) for z in (1, -1))
        elif len(lits) == 1:
            p, q = fresh(), fresh()
            out.extend([lits[0], x * p, y * q] for x in (1, -1) for y in (1, -1))
        elif len(lits) == 2:
            p = fresh()
            out.extend([[*lits, p], [*lits, -p]])
        elif len(lits) == 3:
            out.append(lits)
        else:
            y = fresh()
            out.append([lits[0], lits[1], y])
            for lit in lits[2:-2]:
                z = fresh()
                out.append([-y, lit, z])
                y = z
            out.append([-y, lits[-2], lits[-1]])
    return out, top


def write_dimacs(clauses: Sequence[Sequence[int]], num_vars: int,
                 comments: Iterable[str] = ()) -> str:
    """DIMACS CNF text: ``c`` comment lines, the ``p cnf V C`` header, one clause a line."""
    lines = [f"c {line}" if line else "c" for line in comments]
    lines.append(f"p cnf {num_vars} {len(clauses)}")
    lines.extend(" ".join(map(str, clause)) + " 0" for clause in clauses)
    return "\n".join(lines) + "\n"


def read_dimacs(text: str) -> tuple[list[Clause], int]:
    """Clauses and the declared variable count of DIMACS text (checks the header)."""
    header: tuple[int, int] | None = None
    clauses: list[Clause] = []
    current: Clause = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("c") or line.startswith("%"):
            continue
        if line.startswith("p"):
            parts = line.split()
            if len(parts) != 4 or parts[1] != "cnf" or header is not None:
                raise ValueError(f"line {number}: bad header {line!r}, expected 'p cnf V C'")
            header = (int(parts[2]), int(parts[3]))
            continue
        if header is None:
            raise ValueError(f"line {number}: clause before the 'p cnf V C' header")
        for token in line.split():
            lit = int(token)
            if lit == 0:
                clauses.append(current)
                current = []
            else:
                if abs(lit) > header[0]:
                    raise ValueError(f"line {number}: variable {abs(lit)} > {header[0]}")
                current.append(lit)
    if header is None:
        raise ValueError("no 'p cnf V C' header")
    if current:
        clauses.append(current)
    if len(clauses) != header[1]:
        raise ValueError(f"header says {header[1]} clauses, found {len(clauses)}")
    return clauses, header[0]


# -- what the command line and the library call ----------------------------------------------
def to_dimacs(puzzle: Hashi, three_sat: bool = False, adjacent: bool = True) -> str:
    """The whole puzzle as DIMACS CNF (connectivity included), optionally as exact 3-SAT.

    Comment lines say what each named variable means; the bridge variables come first, so
    a model's first literals read as bridges directly.
    """
    encoding = encode(layout_of(puzzle, adjacent))
    cnf = encoding.cnf
    clauses, num_vars = cnf.clauses, cnf.num_vars
    comments = [
        f"Hashiwokakero {puzzle.width}x{puzzle.height}, {len(puzzle.islands)} islands, "
        f"at most {puzzle.maxb} bridges a pair, loops {'allowed' if puzzle.loops else 'forbidden'}"
        f"{'' if adjacent else ', touching islands may not be joined'}",
        "encoding (csp_puzzles.hashi.sat): 'at least k bridges' ladders, explicit degree",
        "clauses, crossing clauses, parent links with binary levels for connectivity",
    ]
    if three_sat:
        clauses, num_vars = to_three_sat(clauses, num_vars)
        comments.append(f"3-SAT (seed 001): variables {cnf.num_vars + 1}..{num_vars} are fresh")
    comments.extend(f"var {v}: {name}" for v, name in sorted(cnf.names.items()))
    return write_dimacs(clauses, num_vars, comments)


def solve_sat(puzzle: Hashi, adjacent: bool = True, connectivity: str = "cuts",
              three_sat: bool = False, timeout: float | None = None,
              solver: SolverChoice = DEFAULT_SOLVER) -> Solution | None:
    """A solution found by the SAT solver (bridges as the model has them), or None if UNSAT.

    ``connectivity="cuts"`` (the default, the faster) runs the lazy cut loop: connectivity
    clauses are added only when a model is disconnected. ``"levels"`` solves the complete
    encoding of ``to_dimacs`` once, and with ``three_sat=True`` its 3-SAT version.
    ``solver`` names a python-sat solver (``SOLVERS``). Raises ``LimitReached`` when
    ``timeout`` seconds pass first.
    """
    if connectivity not in ("cuts", "levels"):
        raise ValueError(f"unknown connectivity {connectivity!r}; expected 'cuts' or 'levels'")
    deadline = None if timeout is None else time.perf_counter() + timeout
    if connectivity == "cuts" and not three_sat:
        return next(sat_solutions(puzzle, adjacent, deadline, solver), None)
    encoding = encode(layout_of(puzzle, adjacent), "levels")
    clauses = encoding.cnf.clauses
    if three_sat:
        clauses, _ = to_three_sat(clauses, encoding.cnf.num_vars)
    backend = open_solver(solver, clauses)
    try:
        model = backend.solve(deadline)
    finally:
        backend.close()
    return None if model is None else encoding.bridges(model)


def count_sat(puzzle: Hashi, limit: int = 2, adjacent: bool = True,
              connectivity: str = "cuts", timeout: float | None = None,
              solver: SolverChoice = DEFAULT_SOLVER) -> int:
    """How many different bridge solutions (at most ``limit``), by blocking clauses.

    After each model, the clause "some pair has another bridge count" rules that solution
    out, on the same solver. ``connectivity="levels"`` counts on the complete encoding (its
    level and parent variables are not blocked, so each solution counts once); ``"cuts"``,
    the default, on the lazy cut loop. Raises ``LimitReached`` when ``timeout`` seconds
    pass first.
    """
    deadline = None if timeout is None else time.perf_counter() + timeout
    if connectivity == "cuts":
        found = 0
        for _ in sat_solutions(puzzle, adjacent, deadline, solver):
            found += 1
            if found >= limit:
                break
        return found
    if connectivity != "levels":
        raise ValueError(f"unknown connectivity {connectivity!r}; expected 'cuts' or 'levels'")
    encoding = encode(layout_of(puzzle, adjacent))
    backend = open_solver(solver, encoding.cnf.clauses)
    found = 0
    try:
        while found < limit:
            model = backend.solve(deadline)
            if model is None:
                break
            found += 1
            backend.add_clause(encoding.blocking_clause(encoding.bridges(model)))
    finally:
        backend.close()
    return found


def sat_solutions(puzzle: Hashi, adjacent: bool = True, deadline: float | None = None,
                  solver: SolverChoice = DEFAULT_SOLVER,
                  stats: LoopStats | None = None) -> Iterator[Solution]:
    """Every solution, one at a time, by the lazy cut loop and blocking clauses.

    The loop (`csp_puzzles.solvers.lazy_cuts`): solve without connectivity; while the model falls
    apart into groups, add for each group "some bridge leaves this set" (and, without loops,
    "not all the pairs of this cycle") and solve again. A connected model is a solution:
    yield it, then block it. Every clause added holds in every solution, so no solution is
    ever lost. One solver runs the whole loop: the cuts and blocking clauses are added to
    it, and what it learnt in earlier rounds stays. ``deadline`` is a
    ``time.perf_counter()`` value; past it, ``LimitReached`` is raised. ``stats`` counts
    the solver's runs and the cut clauses.
    """
    layout = layout_of(puzzle, adjacent)
    encoding = encode(layout, "none", named=False)
    backend = open_solver(solver, encoding.cnf.clauses + isolation_clauses(encoding))

    def add(clauses: Sequence[Clause]) -> None:
        for clause in clauses:
            backend.add_clause(clause)

    def block(model: list[int]) -> Clause:
        return encoding.blocking_clause(encoding.bridges(model))

    try:
        for model in lazy_solutions(lambda: backend.solve(deadline),
                                    lambda model: cut_clauses(encoding, model), add, block,
                                    stats):
            yield encoding.bridges(model)
    finally:
        backend.close()


def cut_clauses(encoding: Encoding, model: list[int]) -> list[Clause]:
    """The clauses a model breaks: for each group of islands when the bridges leave several,
    "some bridge leaves this group"; without loops, "not all the pairs of this cycle"."""
    layout = encoding.layout
    first = [ladder[0] for ladder in encoding.bridge_vars]
    true = {lit for lit in model if lit > 0}
    used = [p for p, v in enumerate(first) if v in true]
    n = len(layout.islands)
    cuts: list[Clause] = []
    found = groups(n, [layout.pairs[p] for p in used])
    if len(found) > 1:
        group_of = {island: g for g, members in enumerate(found) for island in members}
        leaving: list[Clause] = [[] for _ in found]
        for p, (i, j) in enumerate(layout.pairs):
            if group_of[i] != group_of[j]:
                leaving[group_of[i]].append(first[p])
                leaving[group_of[j]].append(first[p])
        cuts.extend(leaving)
    if not layout.loops:
        cuts.extend([-first[p] for p in cycle] for cycle in _cycles(n, layout, used))
    return cuts


#: the entry point of the "sat" engine (`Puzzle.solve(engine="sat")`)
solutions = sat_solutions


# -- the SAT solver: python-sat, with a time limit -------------------------------------------
class SatBackend(Protocol):
    """What the loops above need from a SAT solver: add clauses, solve again, let go."""

    def add_clause(self, clause: Sequence[int]) -> None: ...

    def solve(self, deadline: float | None) -> list[int] | None:
        """A model (signed literals), or None if unsatisfiable; ``LimitReached`` past
        the deadline."""
        ...

    def close(self) -> None: ...


#: A python-sat solver name, or a function opening a back end on a list of clauses
SolverChoice = str | Callable[[list[Clause]], SatBackend]


class PySatSolver:
    """One incremental python-sat solver; limits through conflict budgets.

    A solver has no clock, so under a deadline ``solve`` runs ``solve_limited`` with a
    budget of conflicts, checks the time and goes on with a budget sized from the
    conflicts per second just measured, never planned past the deadline. Stopping on a
    budget keeps the solver's state, so going on loses little.
    """

    def __init__(self, name: str, clauses: Iterable[Sequence[int]]) -> None:
        from pysat.solvers import Solver

        self.solver = Solver(name=name, bootstrap_with=clauses)

    def add_clause(self, clause: Sequence[int]) -> None:
        self.solver.add_clause(clause)

    def solve(self, deadline: float | None) -> list[int] | None:
        if deadline is None:
            return self.solver.get_model() if self.solver.solve() else None
        budget = FIRST_CONFLICTS
        while True:
            start = time.perf_counter()
            if start >= deadline:
                raise LimitReached("SAT solver: time limit reached")
            self.solver.conf_budget(budget)
            answer = self.solver.solve_limited()
            if answer is not None:
                return self.solver.get_model() if answer else None
            now = time.perf_counter()
            per_second = budget / max(now - start, 1e-6)
            budget = int(min(4 * budget, per_second * (deadline - now)))
            if budget < 1:
                raise LimitReached("SAT solver: time limit reached")

    def close(self) -> None:
        self.solver.delete()


def open_solver(solver: SolverChoice, clauses: list[Clause]) -> SatBackend:
    """A back end holding ``clauses``: a python-sat solver by name, or ``solver(clauses)``."""
    if callable(solver):
        return solver(clauses)
    if solver not in SOLVERS:
        raise ValueError(f"unknown SAT solver {solver!r}; expected one of {', '.join(SOLVERS)}")
    _require_pysat()
    return PySatSolver(solver, clauses)


def _require_pysat() -> None:
    """python-sat is a dependency; a clear message where it could not be installed."""
    try:
        import pysat.solvers  # noqa: F401
    except ImportError as err:  # pragma: no cover - depends on the installation
        raise MissingExtra("the SAT engine needs python-sat: pip install python-sat") from err


def _cycles(n: int, layout: Layout, used: list[int]) -> list[list[int]]:
    """One cycle (a list of pairs) for each used pair that closes a loop in a spanning forest."""
    tree: dict[int, list[tuple[int, int]]] = {i: [] for i in range(n)}
    groups = UnionFind(n)
    cycles = []
    for p in used:
        i, j = layout.pairs[p]
        if not groups.union(i, j):  # already one group: p closes a cycle
            cycles.append([p, *_tree_path(tree, i, j)])
            continue
        tree[i].append((j, p))
        tree[j].append((i, p))
    return cycles


def _tree_path(tree: dict[int, list[tuple[int, int]]], start: int, goal: int) -> list[int]:
    """The pairs on the forest path from ``start`` to ``goal`` (depth-first)."""
    stack: list[tuple[int, int, list[int]]] = [(start, -1, [])]
    while stack:
        node, came, path = stack.pop()
        if node == goal:
            return path
        stack.extend((other, node, [*path, p]) for other, p in tree[node] if other != came)
    raise ValueError("no path between islands of one group")
