"""What the search does after each assignment: nothing, forward checking, or MAC.

- `none`: only check the constraints whose variables are all assigned (plain backtracking).
- `fc`: forward checking; each constraint on the variable just assigned prunes once.
- `mac`: maintaining arc consistency; propagators run from a queue (AC-3 generalised to
  n-ary constraints) until no domain changes.

Each function takes the state and the variable just assigned (None before the search
starts) and raises `Contradiction` when the branch fails.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable

from .constraints import Constraint
from .state import Contradiction, SearchState

Inference = Callable[[SearchState, Hashable], None]


def no_inference(state: SearchState, var: Hashable) -> None:
    """Backtracking's check: every constraint on `var` must be consistent so far."""
    if var is None:
        return
    for constraint in state.csp.constraints_of[var]:
        state.stats.checks += 1
        if not constraint.consistent(state.assignment):
            raise Contradiction(None, constraint.name)


def forward_checking(state: SearchState, var: Hashable) -> None:
    """Let each constraint on `var` prune the other variables once."""
    if var is None:
        return
    for constraint in state.csp.constraints_of[var]:
        state.stats.checks += 1
        state.cause = constraint.name
        constraint.forward_check(state, var)
    state.cause = None


def maintain_arc_consistency(state: SearchState, var: Hashable) -> None:
    """Propagate to a fixpoint, starting from the constraints on `var` (all at the root)."""
    if var is None:
        propagate(state, state.csp.constraints)
    elif state.changed:
        propagate(state, state.csp.constraints_of[var])


def propagate(state: SearchState, constraints: Iterable[Constraint]) -> None:
    """AC-3 over propagators: run queued constraints; a pruned domain queues its constraints.

    Two queues: constraints of priority 0 always run before those of priority 1.
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
    try:
        while cheap or costly:
            constraint = cheap.popleft() if cheap else costly.popleft()
            queued.discard(constraint)
            calls += 1
            state.cause = constraint.name
            constraint.propagate(state)
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
        state.cause = None
        state.changed.clear()


INFERENCES: dict[str, Inference] = {
    "none": no_inference,
    "fc": forward_checking,
    "mac": maintain_arc_consistency,
}
