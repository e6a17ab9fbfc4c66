"""Exercise 11 (notebook 09): min-conflicts, its repair step and its loop.

The student writes `conflicts(csp, assignment, var, value)`, `repair(csp, assignment, rng)`
and `min_conflicts(csp, max_steps, rng)`. The checks count broken constraints themselves
on random complete assignments, watch one repair at a time (the variable chosen was in
conflict, nothing else changed, its new value has the fewest conflicts, and the choice is
random), and run the loop on problems with solutions, every answer checked by the problem.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from ...core import CSP
from ...examples import map_colouring, queens
from . import CSP_DATA, draw, fail, name, own_work
from .instances import random_binary_csp, relation

Assignment = dict[Hashable, Any]
#: the watch's words and patterns: what the student's code may call in csp_puzzles
OWN = ("min-conflicts", "constraint.is_satisfied and the CSP's data", *CSP_DATA)


def broken(csp: CSP, assignment: Assignment, var: Hashable, value: Any) -> int:
    """The constraints on `var` that `assignment`, with `var = value`, breaks."""
    trial = dict(assignment)
    trial[var] = value
    return sum(1 for c in csp.constraints_of[var] if not c.is_satisfied(trial))


def _random_assignment(csp: CSP, rng: random.Random) -> Assignment:
    return {var: rng.choice(csp.domains[var]) for var in csp.variables}


def _words(assignment: Assignment) -> str:
    return ", ".join(f"{name(var)} = {value}" for var, value in assignment.items())


@own_work(*OWN)
def check_conflicts(conflicts: Callable[..., Any], seed: Any = None, trials: int = 80) -> None:
    """Every value of a random variable, on random complete assignments."""
    __tracebackhide__ = True
    rng = draw("min-conflicts counts", seed)
    problems = [map_colouring(), queens(6)] + [random_binary_csp(rng, variables=6, density=0.6)
                                              for _ in range(trials)]
    for csp in problems:
        assignment = _random_assignment(csp, rng)
        var = rng.choice(csp.variables)
        for value in csp.domains[var]:
            before = dict(assignment)
            answer = conflicts(csp, assignment, var, value)
            if assignment != before:
                fail("conflicts changed the assignment it was given: it only counts")
            expected = broken(csp, assignment, var, value)
            if answer != expected:
                constraints = "; ".join(c.name for c in csp.constraints_of[var])
                fail(f"with {_words(assignment)}, conflicts(csp, assignment, "
                     f"{name(var)!r}, {value!r}) gives {answer!r}; {expected} of the "
                     f"constraints on {name(var)} ({constraints}) break when "
                     f"{name(var)} = {value}")


def _in_conflict(csp: CSP, assignment: Assignment) -> list[Hashable]:
    return [var for var in csp.variables
            if broken(csp, assignment, var, assignment[var]) > 0]


def verify_repair(repair: Callable[..., Any], csp: CSP, assignment: Assignment,
                  rng: random.Random) -> Hashable:
    """One repair: which variable, which value, nothing else changed."""
    __tracebackhide__ = True
    before = dict(assignment)
    chosen = repair(csp, assignment, rng)
    conflicted = _in_conflict(csp, before)
    where = f"with {_words(before)}"
    if not conflicted:
        if chosen is not None or assignment != before:
            fail(f"{where} no constraint is broken, yet repair returned {chosen!r}: "
                 f"with nothing to repair it returns None and changes nothing")
        return None
    if chosen not in conflicted:
        fail(f"{where} repair chose {chosen!r}, but the variables in conflict are "
             f"{', '.join(map(name, conflicted))}: it must repair one of them")
    changed = [var for var in csp.variables if var != chosen and assignment[var] != before[var]]
    if changed:
        fail(f"{where} repair changed {name(changed[0])} as well as "
             f"{name(chosen)}: a step changes one variable")
    counts = {value: broken(csp, before, chosen, value) for value in csp.domains[chosen]}
    new = assignment[chosen]
    if new not in counts or counts[new] > min(counts.values()):
        best = min(counts, key=counts.__getitem__)
        fail(f"{where} repair gave {name(chosen)} the value {new!r}, with "
             f"{counts.get(new)} conflict(s), but {best!r} has {counts[best]}: it "
             f"takes a value with the fewest conflicts")
    return chosen


@own_work(*OWN)
def check_repair(repair: Callable[..., Any], seed: Any = None, trials: int = 60) -> None:
    """Random assignments, one repair each, then the same assignment repaired again and
    again with different random sources: the variable chosen must vary."""
    __tracebackhide__ = True
    rng = draw("min-conflicts repair", seed)
    for _ in range(trials):
        csp = rng.choice([map_colouring(), queens(6), random_binary_csp(rng, variables=6)])
        verify_repair(repair, csp, _random_assignment(csp, rng), random.Random(rng.random()))
    csp = queens(8)
    start = {column: 0 for column in csp.variables}  # every queen on row 0: all in conflict
    chosen = {verify_repair(repair, csp, dict(start), random.Random(k)) for k in range(20)}
    if len(chosen) == 1:
        fail(f"with all eight queens on row 0, twenty repairs with twenty different "
             f"random sources all chose {name(chosen.pop())}: choose the variable at "
             f"random (rng.choice) among those in conflict")


def planted_colouring(rng: random.Random, k: int, vertices: int, density: float) -> CSP:
    """A random graph colouring (4 colours) with a colouring planted in it: each edge joins
    two vertices of different planted colours."""
    csp = CSP(f"random colouring {k}")
    names = [f"v{i}" for i in range(vertices)]
    planted = {var: rng.randrange(4) for var in names}
    for var in names:
        csp.add_variable(var, range(4))
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if planted[a] != planted[b] and rng.random() < density:
                csp.add_constraint(relation(a, "!=", b))
    return csp


@own_work(*OWN)
def check_min_conflicts(min_conflicts: Callable[..., Any], seed: Any = None,
                        runs: int = 4) -> None:
    """Australia, 8-queens and two random colourings with a planted solution, `runs` runs
    each: every answer must be a solution, and at least half the runs must find one (a
    right loop of 2000 steps finds one in over 95 runs out of 100 on each)."""
    __tracebackhide__ = True
    rng = draw("min-conflicts loop", seed)
    problems = [map_colouring(), queens(8), planted_colouring(rng, 1, 10, 0.3),
                planted_colouring(rng, 2, 12, 0.4)]
    for csp in problems:
        found = 0
        for run in range(runs):
            answer = min_conflicts(csp, 2000, random.Random(f"{rng.random()}/{run}"))
            if answer is None:
                continue
            if not csp.is_solution(answer):
                broken_ones = ", ".join(c.name for c in csp.violated(answer)) if isinstance(
                    answer, dict) and len(answer) == len(csp.variables) else "its variables"
                fail(f"min_conflicts returned {answer!r} for {csp.name}, which breaks "
                     f"{broken_ones}: return a solution, or None")
            found += 1
        if found * 2 < runs:
            fail(f"min_conflicts found a solution of {csp.name} in {found} of {runs} "
                 f"runs of 2000 steps; a right one finds it nearly every time")

