"""Checks for the graded exercises: instances drawn from a seed, verdicts in words.

Every graded cell of `notebooks/exercises/` calls a check from this package, for example
`grading.arc_consistency.check_revise(revise)`. A check

1. runs a worked example (the same for everyone), then
2. draws instances from the **grading seed** and verifies the student's answer on each with
   the library's own, independently written, checkers or with brute force,

and raises `Mismatch` with a sentence naming the instance, what the student's code did and
what the rule requires ("revise(NT, WA) under WA != NT kept red in NT, but red has no
partner in WA = {red}"), through `fail`. In a notebook the sentence is all that shows: no
frame of the grader above it (`display.py`).

**Marks for the student's own work.** Each check runs under a watch (`watch.py`) that sees
every call the student's code makes into csp_puzzles: a call to the grader's reference or to
the library's own version of what the exercise asks (`core.textbook.revise` for REVISE, the
engine's conflict analysis for the first UIP) fails the check, with a sentence saying so.
Each check names what the student's code may use (`own_work`).

**The seed.** The course is open, so whatever a hidden test compares with can be read and
copied. Here no check holds an expected value; what the grader keeps to itself is the seed
(`CSP_PUZZLES_GRADING_SEED` in the kernel's environment), taken when this package is first
imported and then hidden from the student's code (`seed.py`). A student who runs the cells
gets the practice seed's instances, the grader other ones, and an answer is right on both
only if it is right. The graded cells are the same text in the student's notebook and in
the grader's, so nbgrader finds every locked cell unchanged (no "checksum has changed"
warning): nothing has to be put back at grading time.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from ...core import CSP, Result, SearchState, solve
from ...core.trace import show
from .display import show_verdicts_alone
from .seed import PRACTICE_SEED, SEED_VARIABLE, draw, is_instructors, seeded
from .seed import take_from_environment as _take_seed
from .watch import LIBRARY, HandOver, Watch, origin, unwatched

if TYPE_CHECKING:
    from ...puzzle.protocol import Puzzle

__all__ = ["PRACTICE_SEED", "SEED_VARIABLE", "GradingUnavailable", "Mismatch", "draw", "fail",
           "is_instructors", "listed", "own_work", "seeded", "unwatched"]

#: the width of a verdict's lines: a notebook's output, and nbgrader's feedback page, show
#: about 90 characters without scrolling
WIDTH = 88

class Mismatch(AssertionError):
    """An answer that does not do what the exercise asks; the message says how."""


def fail(message: str) -> NoReturn:
    """Raise the verdict, its sentence wrapped to fit a notebook's width."""
    raise Mismatch(textwrap.fill(message, WIDTH, break_long_words=False,
                                 break_on_hyphens=False)) from None


class GradingUnavailable(RuntimeError):
    """A check that cannot run in this environment (a solver missing); the message says why."""


def listed(answer: Any, what: str) -> list[Any]:
    """`answer` as a list, or a verdict saying that `what` must return a collection (a
    function that forgot its `return` gives None)."""
    if isinstance(answer, (str, bytes)) or not isinstance(answer, Iterable):
        fail(f"{what} returned {answer!r}: it must return a list or a set")
    return list(answer)


def values_text(values: Iterable[Any]) -> str:
    """Values as a student reads them: `{1, 2, 3}` in a stable order, `{}` when none."""
    shown = sorted((show(v) for v in values), key=lambda s: (len(s), s))
    return "{" + ", ".join(shown) + "}"


def name(var: Hashable) -> str:
    """A variable as the trace writes it."""
    return show(var)


def search_with(yours: str, where: str, run: Callable[[], Any]) -> Any:
    """`run()` (a search of the library with the student's constraint in it), or a verdict
    when the search itself broke down inside the library: the student's code left the
    search's books wrong (an error raised in the student's own code goes on as it is)."""
    __tracebackhide__ = True
    try:
        return run()
    except Mismatch:
        raise
    except Exception as error:
        last = error.__traceback__
        while last is not None and last.tb_next is not None:
            last = last.tb_next
        if last is None or origin(last.tb_frame.f_code) != LIBRARY:
            raise
        fail(f"the library's search with {yours} on {where} broke down inside the library "
             f"({type(error).__name__} in {last.tb_frame.f_code.co_name}): the search keeps "
             f"books of every domain, so a propagator changes domains with state.remove "
             f"only, never by changing state.domains itself")


def solved_with(yours: str, csp: CSP, puzzle: Puzzle, where: str, most_nodes: int,
                why: str) -> Result:
    """MAC on `csp`, the model of `puzzle` with the student's constraints in it (`yours`
    names them), or a verdict: it needed more than `most_nodes` nodes (`why` says where that
    number comes from), found no solution, or gave an answer that breaks the puzzle's rules
    (as its own checker says)."""
    __tracebackhide__ = True
    result = search_with(yours, where,
                         lambda: solve(csp, inference="mac", max_nodes=most_nodes + 1))
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
                 expected: Sequence[set[Any]], support: str, hidden: bool = False) -> None:
    """A verdict on the first cell where the student's filter (`yours`) kept a value that no
    `support` ("fitting digit set", "ordering that shows the clues") puts there, or removed
    one that a support puts there. `hidden`: the line is one the exercise asks students to
    work out by hand, so the verdict names no value of its answer."""
    __tracebackhide__ = True
    for i, (cell, want) in enumerate(zip(cells, expected), 1):
        left = set(state.values(cell))
        if left - want:
            which = "a candidate" if hidden else str(min(left - want))
            fail(f"on {where}, {yours} left {values_text(left)} in cell {i}, but no "
                 f"{support} puts {which} of them there: it must go")
        if want - left:
            which = "a candidate" if hidden else str(min(want - left))
            fail(f"on {where}, {yours} removed {which} from cell {i}, but a {support} "
                 f"puts it there")


# -- the student's own work -------------------------------------------------------------------
#: what every check lets the student's code use: a CSP's data, the constraints' tests, and
#: the trace's way of writing a value
CSP_DATA = ("core.csp:CSP.*", "core.constraints:*.is_satisfied",
            "core.constraints:*.consistent", "core.constraints:Constraint.*",
            "core.constraints:_short", "core.trace:show")
#: a search state's methods (for propagators and variable orders), and the exception
#: `state.remove` raises on a wipe-out
STATE = ("core.state",)

Check = TypeVar("Check", bound=Callable[..., Any])


def handed_over(found: HandOver, task: str, may_use: str) -> str:
    """The verdict on a call the student's code should not have made."""
    if found.kind == "grader":
        return (f"{found.caller} called {found.called}, the grader's own code: an answer "
                f"that hands its work to the grader earns no marks, so this check stops here")
    if found.kind == "hook":
        return (f"{found.caller} called {found.called}, which would switch off how the grader "
                f"sees which code does the work, so this check stops here")
    if found.kind == "thread":
        return (f"{found.caller} started a thread with {found.called}, which the grader "
                f"cannot watch, so this check stops here: {task} runs in your own code")
    return (f"{found.caller} called {found.called}, from csp_puzzles itself: this check gives "
            f"marks for {task} written by you; besides Python's own library, your code may "
            f"use {may_use} only, so it stops here")


def own_work(task: str, may_use: str, *allowed: str) -> Callable[[Check], Check]:
    """A check, run under a `Watch`: the student's code may call into csp_puzzles only as
    `allowed` says (patterns "module:qualname" inside csp_puzzles, see `watch.allows`), and
    a verdict says so when it does otherwise. `task` ("REVISE") and `may_use` ("the
    constraint's is_satisfied") are the verdict's words."""
    def decorate(check: Check) -> Check:
        @functools.wraps(check)
        def run(*args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            watch = Watch(allowed)
            try:
                with watch:
                    answer = check(*args, **kwargs)
            except Exception:
                if watch.found is None:
                    raise
                fail(handed_over(watch.found, task, may_use))
            if watch.found is not None:
                fail(handed_over(watch.found, task, may_use))
            return answer

        return run  # type: ignore[return-value]

    return decorate


_take_seed()
show_verdicts_alone(Mismatch, GradingUnavailable)
