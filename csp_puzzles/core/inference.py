"""What the search does after each decision: nothing, forward checking, or MAC.

- `none`: only check the constraints whose variables are all assigned (plain backtracking).
- `fc`: forward checking; each constraint on the variable just assigned prunes once.
- `mac`: maintaining arc consistency; propagators run from a queue (AC-3 generalised to
  n-ary constraints) until no domain changes.

Each function takes the state and the variable just decided (None at the root, before any
decision) and raises `Contradiction` when the branch fails, naming the constraint that
failed in `failure.constraint`. Each declares in `establishes` what holds once it returns;
the search reads that to branch, never which function it was given, so an inference of your
own that establishes arc consistency branches as `mac` does. Only the final check of a
solution asks which function it was (one of `INFERENCES`, or another): a declaration is a
promise, and the search takes it on trust from the core's own inferences alone.

`node_consistency` runs once before any of them: a constraint over a single variable is a
filter on its domain, so it is applied before the search starts, whatever the inference.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from time import perf_counter
from typing import TypeVar

from .constraints import Conflicts, Constraint
from .errors import LimitReached
from .state import Contradiction, SearchState

Inference = Callable[[SearchState, Hashable], None]
#: a constraint as forward checking reads it: (constraint, the variable whose assignment
#: makes it skip the constraint, its name, its conflicts or None, its forward check)
ForwardCheck = tuple[Constraint, Hashable, str, Conflicts | None,
                     Callable[[SearchState, Hashable], None]]
F = TypeVar("F", bound=Callable)

#: what `none` guarantees: every constraint over assigned variables only is satisfied
ASSIGNED_CONSISTENT = "consistency of the assignment"
#: what `fc` guarantees besides: every constraint with one variable left open has a support
FORWARD_CONSISTENT = "forward consistency"
#: what `mac` guarantees: every value left has a support in every constraint (a fixpoint), so
#: a variable down to one value is decided already and needs no branching
ARC_CONSISTENCY = "arc consistency"


def establishes(prop: str) -> Callable[[F], F]:
    """Declare what an inference guarantees when it returns (read by the search)."""
    def declare(function: F) -> F:
        function.establishes = prop  # type: ignore[attr-defined]
        return function
    return declare


def reaches_arc_consistency(infer: Inference) -> bool:
    """Whether `infer` leaves the domains arc consistent (then fixed variables are decided)."""
    return getattr(infer, "establishes", None) == ARC_CONSISTENCY


def node_consistency(state: SearchState) -> None:
    """Keep only the values that satisfy each unary constraint (before any search).

    The constraint's own propagator runs first (so a puzzle's named rules show in the
    trace), then every value left is tested against the relation itself: whatever the
    propagator is worth, the domain ends up exactly the values the constraint allows.
    """
    for constraint in state.csp.constraints:
        scope = constraint.scope
        if not scope or any(var != scope[0] for var in scope):
            continue
        var = scope[0]
        state.cause = constraint.name
        try:
            state.stats.checks += 1
            constraint.propagate(state)
            for value in state.values(var):
                state.stats.checks += 1
                if not constraint.is_satisfied({var: value}):
                    state.remove(var, value, constraint.name)
        except Contradiction as failure:
            failure.constraint = failure.constraint or constraint
            raise
        finally:
            state.cause = None


@establishes(ASSIGNED_CONSISTENT)
def no_inference(state: SearchState, var: Hashable) -> None:
    """Backtracking's check: every constraint on `var` must be consistent so far."""
    if var is None:
        return
    for constraint in state.csp.constraints_of[var]:
        state.stats.checks += 1
        if not constraint.consistent(state.assignment):
            failure = Contradiction(None, constraint.name)
            failure.constraint = constraint
            raise failure


@establishes(FORWARD_CONSISTENT)
def forward_checking(state: SearchState, var: Hashable) -> None:
    """Let each constraint on `var` prune the other variables once.

    A binary constraint whose other variable is assigned is skipped, as AIMA's forward
    checking looks at unassigned neighbours only: when that neighbour was assigned, this
    constraint's forward check kept in `var`'s domain only the values that agree with it
    (constraints that promise `forward_checks_fully`), so it has nothing left to do.
    """
    if var is None:
        return
    checks = (state.forward_plan or forward_plan(state))[var]
    state.stats.checks += len(checks)
    assignment = state.assignment
    (value,) = state.domains[var]
    constraint = None
    try:
        for constraint, partner, name, conflicts, forward_check in checks:
            if partner in assignment:
                continue
            state.cause, state.constraint = name, constraint
            if conflicts is not None:  # a pair: the partner's values that `value` rules out
                state.remove_all(partner, conflicts[value], name)
            else:
                forward_check(state, var)
    except Contradiction as failure:
        failure.constraint = failure.constraint or constraint
        raise
    finally:
        state.cause, state.constraint = None, None


#: the partner of a constraint forward checking never skips (no variable is this object)
_NO_PARTNER = object()


def forward_plan(state: SearchState) -> dict[Hashable, list[ForwardCheck]]:
    """Each variable's constraints as forward checking reads them at every node.

    Each comes with the variable whose assignment makes forward checking skip it (the
    other variable of a binary constraint that forward checks fully), its name, and how it
    forward checks (`Constraint.forward_check_from`, asked once here rather than at every
    node): by its `Conflicts` (on a pair, the values of the partner each value rules out,
    read rather than computed at every node), else by its forward check.
    Made at the first forward check of a search and kept in `state.forward_plan`.
    """
    domains = state.csp.domains
    state.forward_plan = {
        var: [(c, _partner(c, var), c.name, *c.forward_check_from(var, domains))
              for c in constraints]
        for var, constraints in state.csp.constraints_of.items()}
    return state.forward_plan


def _partner(constraint: Constraint, var: Hashable) -> Hashable:
    scope = dict.fromkeys(constraint.scope)
    if len(scope) != 2 or not constraint.forward_checks_fully:
        return _NO_PARTNER
    first, second = scope
    return second if var == first else first


@establishes(ARC_CONSISTENCY)
def maintain_arc_consistency(state: SearchState, var: Hashable) -> None:
    """Propagate to a fixpoint, starting from the constraints on `var` (all at the root)."""
    if var is None:
        propagate(state, state.csp.constraints)
    elif state.changed:
        propagate(state, state.csp.constraints_of[var])


def propagate(state: SearchState, constraints: Iterable[Constraint]) -> None:
    """AC-3 over propagators: run queued constraints; a pruned domain queues its constraints.

    Two queues: constraints of priority 0 always run before those of priority 1.
    A constraint whose propagator has just run is not queued again for its own prunings
    when it is `idempotent` (it reached its own fixpoint already).
    """
    constraints_of = state.csp.constraints_of
    queues: tuple[deque[Constraint], deque[Constraint]] = (deque(), deque())
    queued = set()
    for constraint in constraints:
        if constraint not in queued:
            queues[constraint.priority].append(constraint)
            queued.add(constraint)
    cheap, costly = queues
    changed = state.changed  # filled by state.remove
    changed.clear()
    calls = 0
    deadline = state.deadline  # `state.check_deadline()`, written out: it runs at every call
    try:
        while cheap or costly:
            constraint = cheap.popleft() if cheap else costly.popleft()
            queued.discard(constraint)
            calls += 1
            if deadline is not None and perf_counter() > deadline:
                raise LimitReached("time limit reached")
            state.cause, state.constraint = constraint.name, constraint
            try:
                constraint.propagate(state)
            except Contradiction as failure:
                failure.constraint = failure.constraint or constraint
                raise
            if not changed:
                continue
            for var in changed:
                for other in constraints_of[var]:
                    if other not in queued and (other is not constraint or not other.idempotent):
                        queues[other.priority].append(other)
                        queued.add(other)
            changed.clear()
    finally:
        state.stats.checks += calls
        state.cause, state.constraint = None, None
        state.changed.clear()


def propagate_from(state: SearchState, var: Hashable) -> None:
    """Propagate to a fixpoint, starting from the constraints on `var` (what probes run)."""
    propagate(state, state.csp.constraints_of[var])


INFERENCES: dict[str, Inference] = {
    "none": no_inference,
    "fc": forward_checking,
    "mac": maintain_arc_consistency,
}
