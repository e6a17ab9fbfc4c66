"""The variable order Singles searches with: failed-literal probing (look-ahead).

When propagation stalls, the search must guess a cell. Before guessing, this order *probes*
undecided cells: it tries shading a cell, propagates every rule, and undoes it; then the
same with the cell unshaded. A value that leads to a contradiction is impossible, so the
order removes it, propagates, and probes again. The trace shows each probe that failed as a
short search of its own (`probe: assign ...`, the propagation, the wipe-out, the backtrack),
then the removal it proves (`probe: shading (r,c) leads to a contradiction`); the probes
that changed nothing are left out of the story. Only when
no probe fails does it return a cell to branch on: the one whose two probes pruned the most
(both branches then start well informed). This is what SAT solvers call failed-literal
detection; for Singles it replaces most of the guessing a human does by "what if" chains.

The probes are bounded (`MAX_PROBES` cells per call) so that one node never runs unbounded;
the search checks its node and time limits between nodes.
"""

from __future__ import annotations

from collections.abc import Hashable

from ..core import Contradiction, SearchState
from ..core.inference import propagate_from
from ..core.trace import ASSIGN, BACKTRACK, WIPEOUT, show
from .rules import SHADED, UNSHADED

MAX_PROBES = 400
PROBE = "probe"


def probing_order(state: SearchState) -> Hashable:
    """Remove the values probes refute, then branch on the most informative cell.

    Probes go in passes over the undecided cells; a pass that refutes something is followed
    by another, since the new facts can make earlier probes fail too.
    """
    domains = state.domains
    variables = state.csp.variables
    while True:
        undecided = [v for v in variables if len(domains[v]) > 1][:MAX_PROBES]
        if not undecided:
            return next(v for v in variables if v not in state.assignment)
        best, best_score = undecided[0], -1
        refuted_any = False
        for var in undecided:
            if len(domains[var]) < 2:
                continue
            shaded = state.probe(var, SHADED, propagate_from)  # None: it fails
            unshaded = state.probe(var, UNSHADED, propagate_from)
            if shaded is None and unshaded is None:
                return var  # this node is dead: both branches fail at once
            if shaded is None or unshaded is None:
                refuted_any = True
                value = SHADED if shaded is None else UNSHADED
                _show_failed_probe(state, var, value)
                if not _refute(state, var, value):
                    return var
                continue
            score = (shaded + 1) * (unshaded + 1)
            if score > best_score:
                best, best_score = var, score
        if not refuted_any:
            return best


def _show_failed_probe(state: SearchState, var: Hashable, value: int) -> None:
    """Run a probe that failed again with the trace on, so that a reader sees why it failed.

    It is recorded as a search of its own: an assignment, what propagation removes, the
    wipe-out, and the backtrack that puts everything back.
    """
    trace = state.trace
    if trace is None:
        return
    mark, prunings, depth = state.mark(), state.stats.prunings, state.depth
    trace.record(ASSIGN, var, value, PROBE, depth + 1)
    state.depth = depth + 1
    try:
        state.trace = None  # the assign event says it all
        state.keep_only(var, (value,), PROBE)
        state.trace = trace
        propagate_from(state, var)
    except Contradiction as failure:
        trace.record(WIPEOUT, failure.var, None, failure.cause, depth + 1)
    finally:
        state.trace = trace
        state.undo(mark)
        state.depth = depth
        state.stats.prunings = prunings
    trace.record(BACKTRACK, var, value, PROBE, depth + 1)


def _refute(state: SearchState, var: Hashable, value: int) -> bool:
    """Remove `var = value` and propagate; False (with the state as before) if that fails."""
    mark = state.mark()
    what = "shading" if value == SHADED else "leaving unshaded"
    try:
        state.remove(var, value, f"probe: {what} {show(var)} leads to a contradiction")
        propagate_from(state, var)
    except Contradiction:
        # the other value fails too once propagated: undo, and let both branches fail
        state.undo(mark)
        return False
    return True
