"""Checks for the graded exercises: instances drawn from a seed, verdicts in words.

Every graded cell of `notebooks/exercises/` calls a check from this package, for example
`grading.arc_consistency.check_revise(revise)`. A check

1. runs a worked example (the same for everyone), then
2. draws instances from the **grading seed** and verifies the student's answer on each with
   the library's own, independently written, checkers or with brute force,

and raises `Mismatch` with a sentence saying what was expected and what came back ("AC-3
left 3 values in T; the arc T -> SA still has no support for red"), through `fail`, so that
the traceback a student reads ends on that sentence: the checks' own frames are marked
`__tracebackhide__`, which IPython (and pytest) leave out.

Why a seed rather than hidden tests: the course is open, so whatever a hidden test compares
with can be read and copied. Here no check holds an expected value; what the grader keeps
to itself is the seed (`CSP_PUZZLES_GRADING_SEED` in its environment). A student who runs
the cells gets the practice seed's instances, the grader other ones, and an answer is right
on both only if it is right. The graded cells are the same text in the student's notebook
and in the grader's, so nbgrader finds every locked cell unchanged (no "checksum has
changed" warning): nothing has to be put back at grading time.
"""

from __future__ import annotations

import os
import random
import textwrap
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from ...core import CSP, Result, SearchState, solve
from ...core.trace import show

if TYPE_CHECKING:
    from ...puzzle.protocol import Puzzle

#: the environment variable holding the instructor's seed
SEED_VARIABLE = "CSP_PUZZLES_GRADING_SEED"
#: the seed when none is set: what students practise on
PRACTICE_SEED = "practice"
#: the width of a verdict's lines: a notebook's output, and nbgrader's feedback page, show
#: about 90 characters without scrolling
WIDTH = 88


class Mismatch(AssertionError):
    """An answer that does not do what the exercise asks; the message says how."""


def fail(message: str) -> NoReturn:
    """Raise the verdict, its sentence wrapped to fit a notebook's width."""
    raise Mismatch(textwrap.fill(message, WIDTH, break_long_words=False,
                                 break_on_hyphens=False)) from None


def listed(answer: Any, what: str) -> list[Any]:
    """`answer` as a list, or a verdict saying that `what` must return a collection (a
    function that forgot its `return` gives None)."""
    if isinstance(answer, (str, bytes)) or not isinstance(answer, Iterable):
        fail(f"{what} returned {answer!r}: it must return a list or a set")
    return list(answer)


class GradingUnavailable(RuntimeError):
    """A check that cannot run in this environment (a solver missing); the message says why."""


def grading_seed() -> str:
    """The seed checks draw their instances from: the environment's, or the practice seed."""
    return os.environ.get(SEED_VARIABLE, "").strip() or PRACTICE_SEED


def draw(check: str, seed: Any = None) -> random.Random:
    """The random source of one check (`seed` None: the grading seed).

    The same seed and check give the same instances; two checks never share a stream.
    """
    return random.Random(f"{grading_seed() if seed is None else seed}/{check}")


def values_text(values: Iterable[Any]) -> str:
    """Values as a student reads them: `{1, 2, 3}` in a stable order, `{}` when none."""
    shown = sorted((show(v) for v in values), key=lambda s: (len(s), s))
    return "{" + ", ".join(shown) + "}"


def name(var: Hashable) -> str:
    """A variable as the trace writes it."""
    return show(var)


def solved_with(yours: str, csp: CSP, puzzle: Puzzle, where: str, most_nodes: int,
                why: str) -> Result:
    """MAC on `csp`, the model of `puzzle` with the student's constraints in it (`yours`
    names them), or a verdict: it needed more than `most_nodes` nodes (`why` says where that
    number comes from), found no solution, or gave an answer that breaks the puzzle's rules
    (as its own checker says)."""
    __tracebackhide__ = True
    result = solve(csp, inference="mac", max_nodes=most_nodes + 1)
    if result.status == "limit":
        fail(f"MAC with {yours} needs more than {most_nodes} nodes on {where}: {why}")
    if not result.solved:
        fail(f"MAC with {yours} answered {result.status!r} on {where}, which has a "
             f"solution: a rule removed a value that the solution uses")
    problems = puzzle.check(puzzle.decode(result.solution or {}))
    if problems:
        fail(f"with {yours}, the answer on {where} breaks the puzzle's rules: {problems[0]}")
    return result


def line_state(domains: Sequence[Iterable[int]]) -> tuple[list[tuple[int, int]], SearchState]:
    """A line of cells (0, 0), (0, 1), ... holding `domains`, as a state to propagate on."""
    cells = [(0, i) for i in range(len(domains))]
    csp = CSP("one line")
    for cell, domain in zip(cells, domains):
        csp.add_variable(cell, sorted(domain))
    return cells, SearchState(csp)


def compare_line(yours: str, where: str, state: SearchState, cells: Sequence[Hashable],
                 expected: Sequence[set[Any]], support: str) -> None:
    """A verdict on the first cell where the student's filter (`yours`) kept a value that no
    `support` ("fitting digit set", "ordering that shows the clues") puts there, or removed
    one that a support puts there."""
    __tracebackhide__ = True
    for i, (cell, want) in enumerate(zip(cells, expected), 1):
        left = set(state.values(cell))
        if left - want:
            fail(f"on {where}, {yours} left {values_text(left)} in cell {i}, but no "
                 f"{support} puts {min(left - want)} there: it must go")
        if want - left:
            fail(f"on {where}, {yours} removed {min(want - left)} from cell {i}, but a "
                 f"{support} puts it there")
