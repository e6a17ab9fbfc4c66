"""Local search: min-conflicts (AIMA section 6.4).

Backtracking builds an assignment one variable at a time. Local search starts from a
complete assignment that breaks some constraints and repairs it: at each step it picks a
variable in conflict at random and gives it the value with the fewest conflicts (ties
broken at random). It cannot prove that a problem has no solution, and it may wander for
ever on a plateau, so it stops after `max_steps` steps: a `limit` is not a "no".

Counting conflicts is the whole cost, so each constraint answers through a
`ConflictCounter`:
- `add_scores(var, values, scores)`: for each candidate value of `var`, add the number of
  violations that involve `var` if it took that value (the others keep theirs);
- `move(var, old, new)`: `var` went from `old` to `new`; update any counters and say whose
  conflict counts changed, by how much.
The default counter asks `is_satisfied` (one violation or none per constraint). A
constraint may bring its own by defining `conflict_counter(assignment)`: a queens
constraint that keeps one counter per row and diagonal answers each question at once,
which is how a hundred thousand queens fit in seconds.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from .constraints import Constraint, Predicate
from .csp import CSP
from .search import LIMIT, SOLVED, Result
from .stats import Stats
from .trace import MAX_EVENTS, REPAIR, SOLUTION, Trace

#: how many values of a large domain the greedy start compares for each variable
GREEDY_SAMPLE = 50

#: the value of a variable the greedy start has not reached yet
UNSET: Any = object()

Changes = Iterable[tuple[Hashable, int]]


class ConflictCounter:
    """How one constraint scores the moves of a local search (the default: 0 or 1).

    `assignment` is the search's own dict, kept current by the search; variables of the
    greedy start not reached yet are missing from it, and a constraint with a missing
    variable counts no violation.
    """

    def __init__(self, constraint: Constraint, assignment: dict[Hashable, Any]):
        self.constraint = constraint
        self.assignment = assignment

    def _violated(self) -> bool:
        assignment = self.assignment
        if any(v not in assignment for v in self.constraint.scope):
            return False
        return not self.constraint.is_satisfied(assignment)

    def add_scores(self, var: Hashable, values: Sequence[Any], scores: list[int]) -> None:
        assignment = self.assignment
        current = assignment.get(var, UNSET)
        for i, x in enumerate(values):
            assignment[var] = x
            if self._violated():
                scores[i] += 1
        if current is UNSET:
            del assignment[var]
        else:
            assignment[var] = current

    def candidates(self, var: Hashable, k: int, rng: random.Random) -> Sequence[Any] | None:
        """At most `k` values worth comparing for `var` at the greedy start (None: a sample
        of its domain). A counter that knows which values are still free says so here."""
        return None

    def move(self, var: Hashable, old: Any, new: Any) -> Changes:
        """Called once `assignment[var]` holds `new`; `old` may be UNSET."""
        now = self._violated()
        if old is UNSET:
            del self.assignment[var]
            before = False
        else:
            self.assignment[var] = old
            before = self._violated()
        self.assignment[var] = new
        if now == before:
            return ()
        change = 1 if now else -1
        return [(v, change) for v in self.constraint.scope if v != var]


class BinaryPredicateCounter(ConflictCounter):
    """A binary `Predicate` called directly, without building a mapping for each check.

    Scoring a whole domain against the other variable's value `b` gives the same answer
    every time `b` comes back, so the positions of the conflicting values are kept per
    (variable, `b`): the next time costs one per conflicting value, not one per value
    (most pairs of queens conflict on at most three squares of a column).
    """

    def __init__(self, constraint: Predicate, assignment: dict[Hashable, Any]):
        super().__init__(constraint, assignment)
        first, second = constraint.scope
        function = constraint.function
        self.other = {first: second, second: first}
        self.holds = {first: function, second: lambda b, a: function(a, b)}
        self.conflicting: dict[tuple[Hashable, Any], tuple[Sequence[Any], list[int]]] = {}

    def add_scores(self, var: Hashable, values: Sequence[Any], scores: list[int]) -> None:
        other = self.assignment.get(self.other[var], UNSET)
        if other is UNSET:
            return
        known = self.conflicting.get((var, other))
        if known is not None and known[0] is values:
            for i in known[1]:
                scores[i] += 1
            return
        holds = self.holds[var]
        positions = [i for i, x in enumerate(values) if not holds(x, other)]
        for i in positions:
            scores[i] += 1
        if isinstance(values, tuple):  # a domain, asked again at each repair of `var`
            self.conflicting[var, other] = (values, positions)

    def move(self, var: Hashable, old: Any, new: Any) -> Changes:
        partner = self.other[var]
        other = self.assignment.get(partner, UNSET)
        if other is UNSET:
            return ()
        holds = self.holds[var]
        before = old is not UNSET and not holds(old, other)
        now = not holds(new, other)
        if now == before:
            return ()
        return ((partner, 1 if now else -1),)


def conflict_counter(constraint: Constraint, assignment: dict[Hashable, Any]) -> ConflictCounter:
    """The constraint's own counter if it has one, else a generic one."""
    own = getattr(constraint, "conflict_counter", None)
    if own is not None:
        counter: ConflictCounter = own(assignment)
        return counter
    if isinstance(constraint, Predicate) and len(set(constraint.scope)) == 2:
        return BinaryPredicateCounter(constraint, assignment)
    return ConflictCounter(constraint, assignment)


class Pickable:
    """A set with O(1) add, discard and uniform random choice (for the conflicted variables)."""

    def __init__(self) -> None:
        self.items: list[Hashable] = []
        self.where: dict[Hashable, int] = {}

    def add(self, item: Hashable) -> None:
        if item not in self.where:
            self.where[item] = len(self.items)
            self.items.append(item)

    def discard(self, item: Hashable) -> None:
        index = self.where.pop(item, None)
        if index is None:
            return
        last = self.items.pop()
        if index < len(self.items):
            self.items[index] = last
            self.where[last] = index

    def choice(self, rng: random.Random) -> Hashable:
        return self.items[rng.randrange(len(self.items))]

    def __len__(self) -> int:
        return len(self.items)


class MinConflicts:
    """One run of min-conflicts; `run()` returns the `Result`."""

    def __init__(self, csp: CSP, max_steps: int, seed: int | None, timeout: float | None,
                 trace: Trace | None):
        self.csp = csp
        self.max_steps = max_steps
        self.rng = random.Random(seed)
        self.timeout = timeout
        self.trace = trace
        self.stats = Stats()
        self.assignment: dict[Hashable, Any] = {}
        counters = {c: conflict_counter(c, self.assignment) for c in csp.constraints}
        self.counters_of = {v: [counters[c] for c in cs] for v, cs in csp.constraints_of.items()}
        #: violations involving each variable, and violations in all
        self.conflicts: dict[Hashable, int] = dict.fromkeys(csp.variables, 0)
        self.total = 0
        self.conflicted = Pickable()

    # -- scoring -----------------------------------------------------------------------
    def scores(self, var: Hashable, values: Sequence[Any]) -> list[int]:
        scores = [0] * len(values)
        for counter in self.counters_of[var]:
            counter.add_scores(var, values, scores)
        self.stats.checks += len(values) * len(self.counters_of[var])
        return scores

    def set_value(self, var: Hashable, value: Any, score: int) -> None:
        """Give `var` the value `value`, whose conflicts `score` was just computed."""
        old = self.assignment.get(var, UNSET)
        self.assignment[var] = value
        self.total += score - self.conflicts[var]
        self._set_conflicts(var, score)
        for counter in self.counters_of[var]:
            for other, change in counter.move(var, old, value):
                self._set_conflicts(other, self.conflicts[other] + change)

    def _set_conflicts(self, var: Hashable, number: int) -> None:
        self.conflicts[var] = number
        if number:
            self.conflicted.add(var)
        else:
            self.conflicted.discard(var)

    def best(self, var: Hashable, values: Sequence[Any]) -> tuple[Any, int]:
        """The value of `values` with the fewest conflicts (ties at random), and its score."""
        scores = self.scores(var, values)
        least = min(scores)
        return self.rng.choice([x for x, s in zip(values, scores) if s == least]), least

    # -- the two phases ----------------------------------------------------------------
    def greedy_start(self) -> None:
        """Each variable in turn takes its least conflicting value among a sample of at most
        `GREEDY_SAMPLE` candidates (its whole domain when that is small), counting only the
        variables placed before it; ties are broken at random."""
        for var in self.csp.variables:
            value, score = self.best(var, self.candidates(var))
            self.set_value(var, value, score)
            self._record(var, value, "greedy start")

    def candidates(self, var: Hashable) -> Sequence[Any]:
        for counter in self.counters_of[var]:
            suggested = counter.candidates(var, GREEDY_SAMPLE, self.rng)
            if suggested:
                return suggested
        domain = self.csp.domains[var]
        if len(domain) <= GREEDY_SAMPLE:
            return domain
        return self.rng.sample(domain, GREEDY_SAMPLE)

    def run(self) -> Result:
        start = time.perf_counter()
        deadline = None if self.timeout is None else start + self.timeout
        self.greedy_start()
        status = SOLVED
        while self.conflicted:
            if self.stats.nodes >= self.max_steps or (
                    deadline is not None and time.perf_counter() > deadline):
                status = LIMIT
                break
            self.stats.nodes += 1
            var = self.conflicted.choice(self.rng)
            value, score = self.best(var, self.csp.domains[var])
            self.set_value(var, value, score)
            self._record(var, value, "min-conflicts")
        self.stats.seconds = time.perf_counter() - start
        solution = None
        if status == SOLVED:
            solution = dict(self.assignment)
            broken = self.csp.violated(solution)
            if broken:  # a conflict counter that misses violations must not go unnoticed
                raise AssertionError(f"min-conflicts: the counters missed {broken[0].name}")
            if self.trace is not None:
                self.trace.record(SOLUTION)
        return Result(status, solution, self.stats, self.trace)

    def _record(self, var: Hashable, value: Any, cause: str) -> None:
        if self.trace is not None:
            self.trace.record(REPAIR, var, value, cause, self.total)


def min_conflicts(csp: CSP, max_steps: int = 10_000, seed: int | None = None,
                  trace: bool = False, timeout: float | None = None,
                  max_events: int = MAX_EVENTS) -> Result:
    """Local search from a greedy start; `status` is `solved` or `limit`.

    `stats.nodes` counts the repair steps (the greedy start not included) and
    `stats.checks` the conflict evaluations. With `trace=True` every value given, first by
    the greedy start then by each repair, is a `repair` event whose `depth` is the number
    of conflicts left. `seed` makes a run repeatable.
    """
    domains: dict[Hashable, Sequence[Any]] = dict(csp.domains)
    recorder = Trace(domains, max_events=max_events) if trace else None
    return MinConflicts(csp, max_steps, seed, timeout, recorder).run()
