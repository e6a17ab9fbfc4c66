"""Exercise 6 (notebook 04): Kakuro's combined filter for one run.

The student writes `fitting_sets(domains, total)` (the digit sets that can still fill the
run, one digit per cell from its candidates) and `RunFilter(cells, total)`, a constraint that
keeps a candidate only where some fitting set can put it. Both are compared with the
library's run constraint, which finds the same things another way (a dynamic programme over
subsets of digits, `kakuro.rules.run_supports`), on random runs; then puzzles are solved with
`RunFilter` in place of the decomposed sum and all-different, and checked by the puzzle.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ... import kakuro
from ...core import CSP, Constraint, Contradiction
from ...kakuro.combinations import digits_of, mask_of
from ...kakuro.rules import run_supports
from . import (
    CSP_DATA,
    STATE,
    compare_line,
    draw,
    fail,
    line_state,
    own_work,
    solved_with,
    unwatched,
    values_text,
)

FittingSets = Callable[[list[set[int]], int], Any]
MakeRun = Callable[[Sequence[Hashable], int], Constraint]
#: notebook 04's 6x6 puzzle
TEXT = """
6 6
-    8,   34,  -    4,   9,
,7   0    0    14,12 0  0
,22  0    0    0    0    -
-    15,11 0   0    13,  -
,22  0    0    0    0    8,
,16  0    0    ,15  0    0
"""
#: the watch's words and patterns: what the student's code may call in csp_puzzles
OWN = ("the digit sets and the run filter", "combinations, digits_of and the state's methods",
       *CSP_DATA, *STATE, "kakuro.combinations:combinations", "kakuro.combinations:digits_of",
       "kakuro.combinations:mask_of")


def library_answer(domains: list[set[int]], total: int) -> tuple[list[set[int]],
                                                                  list[frozenset[int]]] | None:
    """The library's (kept digits per cell, fitting digit sets), None when nothing fits."""
    # the cache left out: the watch keeps it cold (see watch.py)
    answer = run_supports.__wrapped__(tuple(mask_of(d) for d in domains), total)
    if answer is None:
        return None
    kept, fitting = answer
    return [set(digits_of(m)) for m in kept], [frozenset(digits_of(m)) for m in fitting]


def _run_words(domains: list[set[int]], total: int) -> str:
    cells = ", ".join(values_text(d) for d in domains)
    return f"a run of {len(domains)} cells with sum {total} and candidates {cells}"


def _random_run(rng: Any) -> tuple[list[set[int]], int]:
    """A run drawn around a real filling, so that most runs still fit, with noise."""
    length = rng.randint(2, 5)
    filling = rng.sample(range(1, 10), length)
    total = sum(filling) if rng.random() < 0.85 else rng.randint(3, 35)
    domains = []
    for digit in filling:
        others = rng.sample([d for d in range(1, 10) if d != digit], rng.randint(0, 4))
        domain = set(others) | ({digit} if rng.random() < 0.9 else set())
        domains.append(domain or {digit})
    return domains, total


#: the run the exercise asks students to work out by hand: its verdicts name no fitting set
BY_HAND = ([{1, 2, 3}, {1, 2, 3}, {4, 5, 8}], 12)


def verify_fitting_sets(fitting_sets: FittingSets, domains: list[set[int]], total: int,
                        hidden: bool = False) -> None:
    __tracebackhide__ = True
    answer = fitting_sets([set(d) for d in domains], total)
    try:
        mine = {frozenset(digits) for digits in answer}
    except TypeError:
        fail(f"fitting_sets returned {answer!r}: it must return a list of digit "
             f"sets")
    expected = library_answer(domains, total)
    want = set(expected[1]) if expected else set()
    where = _run_words(domains, total)
    for digits in sorted(mine - want, key=sorted):
        fail(f"for {where}, fitting_sets gave {values_text(digits)}, which cannot "
             f"fill it: its digits cannot be given one to each cell, or their sum or "
             f"number is wrong")
    for digits in sorted(want - mine, key=sorted):
        missed = "a digit set that fits" if hidden else values_text(digits)
        fail(f"for {where}, fitting_sets missed {missed}: it has the right size and sum, "
             f"and its digits can be handed out one to each cell")


@own_work(*OWN)
def check_fitting_sets(fitting_sets: FittingSets, seed: Any = None, trials: int = 80) -> None:
    """Notebook 04's examples (4 in 2 cells, 24 in 3), `trials` random runs, then the run
    the exercise asks students to work out by hand (its verdict names no answer)."""
    __tracebackhide__ = True
    verify_fitting_sets(fitting_sets, [set(range(1, 10))] * 2, 4)
    verify_fitting_sets(fitting_sets, [set(range(1, 10))] * 3, 24)
    rng = draw("kakuro fitting sets", seed)
    for _ in range(trials):
        verify_fitting_sets(fitting_sets, *_random_run(rng))
    verify_fitting_sets(fitting_sets, *BY_HAND, hidden=True)


def verify_filter(make: MakeRun, domains: list[set[int]], total: int,
                  hidden: bool = False) -> None:
    __tracebackhide__ = True
    cells, state = line_state(domains)
    expected = library_answer(domains, total)
    where = _run_words(domains, total)
    try:
        make(cells, total).propagate(state)
    except Contradiction:
        if expected is not None:
            sets = ("a digit set" if hidden else
                    "the digit set(s) " + ", ".join(map(values_text, expected[1])))
            fail(f"RunFilter failed on {where}, but {sets} still fit: it fails only when "
                 f"no set fits")
        return
    if expected is None:
        fail(f"RunFilter did not fail on {where}, but no digit set fits it")
    compare_line("RunFilter", where, state, cells, expected[0], "fitting digit set", hidden)


@own_work(*OWN)
def check_run_filter(make: MakeRun, seed: Any = None, trials: int = 80) -> None:
    """A magic block, `trials` random runs, then the exercise's run (its verdict names no
    value of the answer)."""
    __tracebackhide__ = True
    verify_filter(make, [set(range(1, 10))] * 2, 4)
    rng = draw("kakuro run filter", seed)
    for _ in range(trials):
        verify_filter(make, *_random_run(rng))
    verify_filter(make, *BY_HAND, hidden=True)


def filtered_model(puzzle: kakuro.Kakuro, make: MakeRun) -> CSP:
    """The puzzle with one `make(cells, total)` constraint per run."""
    csp = CSP("kakuro, your runs")
    csp.add_variables(puzzle.whites, range(1, 10))
    for run in puzzle.runs:
        csp.add_constraint(make(run.cells, run.total))
    return csp


def verify_puzzle(make: MakeRun, puzzle: kakuro.Kakuro, where: str) -> None:
    __tracebackhide__ = True
    with unwatched():
        decomposed = puzzle.solve(model="decomposed", inference="mac").stats.nodes
    solved_with("RunFilter", filtered_model(puzzle, make), puzzle, where, decomposed,
                f"the decomposed model needs {decomposed}, and RunFilter should prune at "
                "least as much")


@own_work(*OWN)
def check_run_filter_solves(make: MakeRun, seed: Any = None, trials: int = 4) -> None:
    """Notebook 04's puzzle, then `trials` generated ones."""
    __tracebackhide__ = True
    verify_puzzle(make, kakuro.parse(TEXT), "notebook 04's 6x6 puzzle")
    rng = draw("kakuro puzzles", seed)
    for number in range(1, trials + 1):
        with unwatched():
            puzzle = kakuro.generate(6, 6, difficulty="easy", seed=rng.randrange(10**6))
        verify_puzzle(make, puzzle, f"generated puzzle {number}")
