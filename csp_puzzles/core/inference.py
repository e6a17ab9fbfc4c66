"""What the search does after each assignment: nothing, forward checking, or MAC.

- `none`: only check the constraints whose variables are all assigned (plain backtracking).
- `fc`: forward checking; each constraint on the variable just assigned prunes once.
- `mac`: maintaining arc consistency; propagators run from a queue (AC-3 generalised to
  n-ary constraints) until no domain changes.

Each function takes the state and the variable just assigned (None before the search
starts) and raises `Contradiction` when the branch fails. On the way out it credits the
constraint that failed in the search's failure weights (`state.weights`, when the search
keeps them): the dom/wdeg variable order (heuristics.py) then branches where failures
happen. Weights are only a heuristic; they never change what is true.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable

from .constraints import Constraint
from .state import Contradiction, SearchState

Inference = Callable[[SearchState, Hashable], None]


def credit_failure(state: SearchState, constraint: Constraint,
                   failure: Contradiction | None = None) -> None:
    """Count a failure of `constraint` in the search's weights, for dom/wdeg.

    Weights start at 1 and `state.weights` is the dict the search keeps (see search.py).

    A constraint over every variable (a global "all connected", say) would weigh on every
    variable alike, which tells the variable order nothing. So its failure is credited to
    the local constraints of the variables it blames instead: the variables listed in the
    failure's `blame` attribute if it has one, else the variable whose domain it emptied.
    """
    everything = len(state.csp.variables)
    if len(constraint.scope) < everything:
        _add_weight(state, constraint)
        return
    blamed = failure.blame if failure is not None else ()
    if not blamed and failure is not None and failure.var is not None:
        blamed = (failure.var,)
    constraints_of = state.csp.constraints_of
    local = {c for var in blamed for c in constraints_of[var] if len(c.scope) < everything}
    for c in local:
        _add_weight(state, c)


def _add_weight(state: SearchState, constraint: Constraint) -> None:
    """One more failure for `constraint`; its variables' weighted degrees follow."""
    weights = state.weights
    weights[constraint] = weights.get(constraint, 1) + 1
    if state.wdeg is not None:
        wdeg = state.wdeg
        for var in dict.fromkeys(constraint.scope):  # each variable once, as constraints_of
            wdeg[var] += 1


def weighted_degrees(state: SearchState) -> dict[Hashable, int]:
    """Each variable's weighted degree: the sum of the weights of its constraints.

    dom/wdeg needs it for every variable at every node; summing afresh each time costs
    more than the rest of the variable order. So it is summed once per search (from the
    weights, which earlier restarts may have raised already) and then `credit_failure`
    adds 1 to the variables of each constraint it credits.
    """
    if state.wdeg is None:
        weights = state.weights
        state.wdeg = {var: sum(weights.get(c, 1) for c in constraints)
                      for var, constraints in state.csp.constraints_of.items()}
    return state.wdeg


def no_inference(state: SearchState, var: Hashable) -> None:
    """Backtracking's check: every constraint on `var` must be consistent so far."""
    if var is None:
        return
    for constraint in state.csp.constraints_of[var]:
        state.stats.checks += 1
        if not constraint.consistent(state.assignment):
            failure = Contradiction(None, constraint.name)
            failure.constraint = constraint
            credit_failure(state, constraint, failure)
            raise failure


def forward_checking(state: SearchState, var: Hashable) -> None:
    """Let each constraint on `var` prune the other variables once."""
    if var is None:
        return
    for constraint in state.csp.constraints_of[var]:
        state.stats.checks += 1
        state.cause, state.constraint = constraint.name, constraint
        try:
            constraint.forward_check(state, var)
        except Contradiction as failure:
            failure.constraint = failure.constraint or constraint
            credit_failure(state, constraint, failure)
            raise
        finally:
            state.cause, state.constraint = None, None


def maintain_arc_consistency(state: SearchState, var: Hashable) -> None:
    """Propagate to a fixpoint, starting from the constraints on `var` (all at the root)."""
    if var is None:
        propagate(state, state.csp.constraints)
    elif state.changed:
        propagate(state, state.csp.constraints_of[var])


def propagate(state: SearchState, constraints: Iterable[Constraint]) -> None:
    """AC-3 over propagators: run queued constraints; a pruned domain queues its constraints.

    Two queues: constraints of priority 0 always run before those of priority 1.
    A constraint that fails is credited in the search's failure weights.
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
            state.check_deadline()
            state.cause, state.constraint = constraint.name, constraint
            try:
                constraint.propagate(state)
            except Contradiction as failure:
                failure.constraint = failure.constraint or constraint
                credit_failure(state, constraint, failure)
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
