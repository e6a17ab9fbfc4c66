"""Exercise 2 (notebook 02): a bounds propagator for x < y.

`check_less_than` runs the student's `LessThan(x, y).propagate` on pairs of domains and
compares what is left with the values that have a support (a larger value of y for x, a
smaller value of x for y), found by brute force. `check_less_than_in_search` puts the
constraint into chains solved with MAC and compares with the number of solutions counted on
a model written with `Predicate`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable
from typing import Any

from ...core import CSP, Constraint, Contradiction, Predicate, SearchState, count, solve
from . import CSP_DATA, STATE, draw, fail, own_work, search_with, values_text

Make = Callable[[Hashable, Hashable], Constraint]
#: the watch's words and patterns: what the student's code may call in csp_puzzles
OWN = ("a bounds propagator", "the state's methods (values, min, max, remove)", *CSP_DATA,
       *STATE)


def _supported(xs: list[int], ys: list[int]) -> tuple[list[int], list[int]]:
    return [a for a in xs if any(a < b for b in ys)], [b for b in ys if any(a < b for a in xs)]


def verify_pair(make: Make, xs: list[int], ys: list[int]) -> None:
    """Propagate x < y once on these domains and compare with the supported values."""
    __tracebackhide__ = True
    csp = CSP("x < y")
    csp.add_variable("x", xs)
    csp.add_variable("y", ys)
    state = SearchState(csp)
    keep_x, keep_y = _supported(xs, ys)
    start = f"with x = {values_text(xs)} and y = {values_text(ys)}, LessThan('x', 'y')"
    try:
        make("x", "y").propagate(state)
    except Contradiction:
        if keep_x and keep_y:
            fail(f"{start} failed, but x = {keep_x[0]}, y = {keep_y[-1]} satisfies "
                 f"x < y: propagate must fail only when no pair is left")
        return
    if not keep_x or not keep_y:
        fail(f"{start} left x = {values_text(state.values('x'))} and y = "
             f"{values_text(state.values('y'))}, but no value of x is smaller than "
             f"a value of y: removing the unsupported values empties a domain, "
             f"which state.remove reports by raising Contradiction")
    for var, kept, other in (("x", keep_x, "larger value of y"),
                             ("y", keep_y, "smaller value of x")):
        left = state.values(var)
        extra = [v for v in left if v not in kept]
        if extra:
            fail(f"{start} left {var} = {values_text(left)}, but {extra[0]} has no "
                 f"{other}: it must go")
        lost = [v for v in kept if v not in left]
        if lost:
            fail(f"{start} removed {lost[0]} from {var}, but it has a {other}: it "
                 f"must stay")
    removed = len(xs) + len(ys) - len(keep_x) - len(keep_y)
    if state.stats.prunings != removed:
        fail(f"{start} removed {removed} values but state.remove saw "
             f"{state.stats.prunings}: remove values with state.remove(var, value), "
             f"never by changing state.domains yourself")


@own_work(*OWN)
def check_less_than(make: Make, seed: Any = None, trials: int = 200) -> None:
    """The two examples of the exercise, then `trials` random pairs of domains."""
    __tracebackhide__ = True
    verify_pair(make, [1, 2, 3, 4, 5], [1, 2, 3, 4, 5])
    verify_pair(make, [1, 2, 3, 4, 5], [1, 2, 3])
    rng = draw("less than", seed)
    for _ in range(trials):
        verify_pair(make, sorted(rng.sample(range(9), rng.randint(1, 5))),
                    sorted(rng.sample(range(9), rng.randint(1, 5))))


def _chain(make: Callable[[Hashable, Hashable], Constraint], domains: list[list[int]]) -> CSP:
    csp = CSP("chain")
    names = "abcdefgh"[:len(domains)]
    for var, values in zip(names, domains):
        csp.add_variable(var, values)
    for x, y in zip(names, names[1:]):
        csp.add_constraint(make(x, y))
    return csp


def _predicate(x: Hashable, y: Hashable) -> Constraint:
    return Predicate(operator.lt, (x, y), name=f"{x} < {y}")


def verify_chain(make: Make, domains: list[list[int]]) -> None:
    """Solve the chain with MAC and the student's constraint; compare with a count."""
    __tracebackhide__ = True
    mine = _chain(make, domains)
    where = "the chain " + " < ".join(f"{v} in {values_text(d)}"
                                      for v, d in zip("abcdefgh", domains))
    result = search_with("LessThan", where, lambda: solve(mine, inference="mac", trace=True))
    exists = count(_chain(_predicate, domains), limit=1).count > 0
    if exists != result.solved:
        fail(f"MAC with LessThan answered {result.status!r} on {where}, which has "
             f"{'a' if exists else 'no'} solution")
    if result.solved and not _chain(_predicate, domains).is_solution(result.solution or {}):
        fail(f"MAC with LessThan returned {result.solution} on {where}, which breaks "
             f"the chain")
    names = {c.name for c in mine.constraints}
    strangers = {e.cause or "" for e in result.trace or () if e.kind == "prune"} - names
    if strangers:
        fail(f"on {where} the trace names {sorted(strangers)[0]!r} as the cause of a "
             f"removal; every removal should carry its constraint's name")


@own_work(*OWN)
def check_less_than_in_search(make: Make, seed: Any = None, trials: int = 40) -> None:
    """`a < b < c < d` over 1..4 (no choice needed), then `trials` random chains."""
    __tracebackhide__ = True
    verify_chain(make, [[1, 2, 3, 4]] * 4)
    chain = _chain(make, [[1, 2, 3, 4]] * 4)
    nodes = search_with("LessThan", "a < b < c < d over 1..4",
                        lambda: solve(chain, inference="mac")).stats.nodes
    if nodes:
        fail(f"MAC with LessThan needed {nodes} node(s) on a < b < c < d over 1..4: "
             f"bounds reasoning alone fixes every variable there")
    rng = draw("less than in search", seed)
    for _ in range(trials):
        length = rng.randint(2, 5)
        verify_chain(make, [sorted(rng.sample(range(8), rng.randint(1, 5)))
                            for _ in range(length)])
