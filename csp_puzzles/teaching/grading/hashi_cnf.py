"""Exercise 9 (notebook 07): a Hashi island's degree as CNF clauses.

The student writes `degree_clauses(ladders, n)`: clauses over the ladder variables of an
island's edges (`ladders[e][k - 1]` is "edge e has at least k bridges") that hold exactly
when the island has n bridges. The first two checks go through every bridge count of random
islands and evaluate the clauses by hand, no solver involved: too many bridges must break a
clause ("at most"), too few too ("at least"), exactly n never. The third builds whole puzzles
from the student's clauses, the ladders and the crossings, solves them with CaDiCaL (the SAT
engine of notebook 07) in a lazy connectivity loop, and checks each answer with the puzzle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import islice, product
from typing import Any

from ... import hashi
from ...hashi import sat
from ...solvers.lazy_cuts import lazy_solutions
from . import draw, fail, own_work, unwatched

Clauses = Any  # a list of clauses, each a list of non-zero ints
DegreeClauses = Callable[[list[list[int]], int], Clauses]
#: the watch's words and patterns: what the student's code may call in csp_puzzles
OWN = ("the degree clauses", "lists of ints")


def _ladders(sizes: Sequence[int]) -> list[list[int]]:
    """Ladder variables numbered from 1: edge e's rungs are consecutive."""
    ladders, top = [], 0
    for size in sizes:
        ladders.append(list(range(top + 1, top + size + 1)))
        top += size
    return ladders


def _true_vars(ladders: list[list[int]], counts: Sequence[int]) -> set[int]:
    return {ladder[k] for ladder, c in zip(ladders, counts) for k in range(c)}


def _broken(clauses: Clauses, true: set[int]) -> list[int] | None:
    """The first clause that `true` (the true variables) breaks, or None."""
    for clause in clauses:
        if not any((lit > 0) == (abs(lit) in true) for lit in clause):
            return list(clause)
    return None


def _island_words(sizes: Sequence[int], n: int) -> str:
    ladders = _ladders(sizes)
    return (f"an island of number {n} with {len(sizes)} edge(s), ladders {ladders} "
            f"(ladders[e][k - 1]: edge e has at least k bridges)")


def _clauses(degree_clauses: DegreeClauses, sizes: Sequence[int], n: int) -> list[list[int]]:
    __tracebackhide__ = True
    ladders = _ladders(sizes)
    answer = degree_clauses([list(ladder) for ladder in ladders], n)
    where = _island_words(sizes, n)
    try:
        clauses = [[int(lit) for lit in clause] for clause in answer]
    except TypeError:
        fail(f"for {where}, degree_clauses returned {answer!r}: it must return a "
             f"list of clauses, each a list of ints")
    known = {v for ladder in ladders for v in ladder}
    for clause in clauses:
        if not clause or any(abs(lit) not in known for lit in clause):
            fail(f"for {where}, degree_clauses wrote the clause {clause}: every "
                 f"clause needs at least one literal, all of them ladder "
                 f"variables (no new variables here)")
    return clauses


def verify_bound(degree_clauses: DegreeClauses, sizes: Sequence[int], n: int,
                 bound: str) -> None:
    """Every bridge count above n (`bound` "at most") or below n ("at least") must break a
    clause, and no count of exactly n may."""
    __tracebackhide__ = True
    clauses = _clauses(degree_clauses, sizes, n)
    ladders = _ladders(sizes)
    for counts in product(*(range(size + 1) for size in sizes)):
        total = sum(counts)
        broken = _broken(clauses, _true_vars(ladders, counts))
        spread = ", ".join(f"edge {e}: {c}" for e, c in enumerate(counts))
        if total == n and broken is not None:
            fail(f"for {_island_words(sizes, n)}, the bridges {spread} add up to "
                 f"{n}, yet they break your clause {broken}")
        wrong = total > n if bound == "at most" else total < n
        if wrong and broken is None:
            fail(f"for {_island_words(sizes, n)}, the bridges {spread} add up to "
                 f"{total}, not {n}, yet they satisfy all your clauses ({bound} "
                 f"{n} is missing)")


def _islands(rng: Any, trials: int) -> Iterator[tuple[list[int], int]]:
    yield [2, 2, 2], 3
    yield [2], 2
    yield [2, 2, 2, 2], 8
    for _ in range(trials):
        sizes = [rng.choice((1, 2, 2, 2, 3)) for _ in range(rng.randint(1, 4))]
        yield sizes, rng.randint(0, sum(sizes))


@own_work(*OWN)
def check_at_most(degree_clauses: DegreeClauses, seed: Any = None, trials: int = 40) -> None:
    __tracebackhide__ = True
    for sizes, n in _islands(draw("hashi cnf", seed), trials):
        verify_bound(degree_clauses, sizes, n, "at most")


@own_work(*OWN)
def check_at_least(degree_clauses: DegreeClauses, seed: Any = None, trials: int = 40) -> None:
    __tracebackhide__ = True
    for sizes, n in _islands(draw("hashi cnf", seed), trials):
        verify_bound(degree_clauses, sizes, n, "at least")


# -- whole puzzles through the SAT solver -----------------------------------------------------
def encoding_with(puzzle: hashi.Hashi, degree_clauses: DegreeClauses) -> sat.Encoding:
    """Ladders, the student's degree clauses and the crossings (no connectivity)."""
    layout = sat.layout_of(puzzle)
    cnf = sat.Cnf()
    bridge_vars = [[cnf.new_var() for _ in range(layout.maxb)] for _ in layout.pairs]
    for ladder in bridge_vars:
        for k in range(1, len(ladder)):
            cnf.add([-ladder[k], ladder[k - 1]])
    for i, (_, _, number) in enumerate(layout.islands):
        ladders = [list(bridge_vars[p]) for p, pair in enumerate(layout.pairs) if i in pair]
        for clause in degree_clauses(ladders, number):
            cnf.add(clause)
    for p, q in layout.crossings:
        cnf.add([-bridge_vars[p][0], -bridge_vars[q][0]])
    return sat.Encoding(layout, cnf, bridge_vars)


def sat_solutions(puzzle: hashi.Hashi, degree_clauses: DegreeClauses,
                  limit: int = 2) -> list[hashi.Solution]:
    """Up to `limit` solutions by CaDiCaL, through the SAT engine's own lazy cut loop: solve;
    while the bridges fall into several groups, add "some bridge leaves this group" for each
    (the engine's cut clauses); block each solution found."""
    encoding = encoding_with(puzzle, degree_clauses)
    backend = sat.open_solver(sat.DEFAULT_SOLVER, encoding.cnf.clauses)

    def add(clauses: Sequence[list[int]]) -> None:
        for clause in clauses:
            backend.add_clause(clause)

    def block(model: list[int]) -> list[int]:
        return encoding.blocking_clause(encoding.bridges(model))

    try:
        models = lazy_solutions(lambda: backend.solve(None),
                                lambda model: sat.cut_clauses(encoding, model), add, block)
        return [encoding.bridges(model) for model in islice(models, limit)]
    finally:
        backend.close()


@own_work(*OWN)
def check_puzzles(degree_clauses: DegreeClauses, seed: Any = None, trials: int = 5) -> None:
    """Notebook 07's puzzles and `trials` generated ones: one solution each, and valid."""
    __tracebackhide__ = True
    rng = draw("hashi cnf puzzles", seed)
    puzzles = [("notebook 07's 4x4 grid", hashi.parse("..2.\n....\n....\n1.3.\n")),
               ("notebook 07's 10x10 puzzle",
                hashi.parse("10x10m2:d1b2d1f2c2f1a4a2b6a5j1c3a2b3m3c6a6j2a5a3b4a4"))]
    for number in range(1, trials + 1):
        size = rng.choice((7, 8, 10))
        with unwatched():
            puzzle = hashi.generate(size, size, difficulty="medium", seed=rng.randrange(10**6))
        puzzles.append((f"generated puzzle {number} ({puzzle.to_tatham()})", puzzle))
    for where, puzzle in puzzles:
        found = sat_solutions(puzzle, degree_clauses)
        if not found:
            fail(f"with your degree clauses the SAT solver finds no solution of "
                 f"{where}, which has one")
        problems = puzzle.check(found[0])
        if problems:
            fail(f"with your degree clauses the SAT solver's answer on {where} "
                 f"breaks a rule: {problems[0]}")
        if len(found) > 1:
            broken = puzzle.check(found[1])
            fail(f"with your degree clauses the SAT solver finds a second solution "
                 f"of {where}, which has only one; that second answer breaks a "
                 f"rule: {broken[0] if broken else 'none (check the puzzle)'}")
