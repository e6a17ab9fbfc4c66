"""Failed-literal probing: look ahead before guessing (`var_order="probe"`).

When propagation stalls, the search must guess. Before guessing, this order *probes*: for
each undecided variable and each value left, it tries `x = v`, propagates every constraint
(as MAC does), and undoes it. A value whose probe ends in a contradiction is impossible, so
the order removes it, propagates, and probes again. Only when no probe fails does it return
a variable to branch on: the one whose probes pruned the most (every branch then starts
well informed). SAT solvers call this failed-literal detection; on puzzles made for people
it replaces the guessing a human does by "what if" chains (`csp-puzzles bench hashi
--parts janko` counts the published Hashi puzzles it solves without one backtrack).

The trace shows each probe that failed as a short search of its own (`probe: assign ...`,
the propagation, the wipe-out, the backtrack), then the removal it proves (`probe: x = v
leads to a contradiction`); the probes that changed nothing are left out of the story.

A probe costs one propagation, so a node costs one per undecided value: worth it when few
are left (a published puzzle after its easy steps), not on a large open problem. The probes
are bounded (`MAX_PROBED` variables per pass) so that one node never runs unbounded; the
search checks its node and time limits between nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from math import prod
from typing import Any

from .inference import propagate_from
from .state import Contradiction, SearchState
from .trace import ASSIGN, BACKTRACK, WIPEOUT, show

MAX_PROBED = 400
PROBE = "probe"

#: how a removal proved by a probe reads: `probe: {words} leads to a contradiction`
ValueWords = Callable[[Hashable, Any], str]


def plain_words(var: Hashable, value: Any) -> str:
    return f"{show(var)} = {show(value)}"


def probing(words: ValueWords = plain_words) -> Callable[[SearchState], Hashable]:
    """The probing variable order, its removals worded by `words(var, value)` (a puzzle can
    say "shading (2,3)" where the default says "(2,3) = 1")."""

    def probing_order(state: SearchState) -> Hashable:
        """Remove the values probes refute, then branch on the most informative variable.

        Probes go in passes over the undecided variables; a pass that refutes something is
        followed by another, since the new facts can make earlier probes fail too.
        """
        domains, variables = state.domains, state.csp.variables
        while True:
            undecided = [v for v in variables if len(domains[v]) > 1][:MAX_PROBED]
            if not undecided:
                return next(v for v in variables if v not in state.assignment)
            best, best_score = undecided[0], -1
            refuted_any = False
            for var in undecided:
                if len(domains[var]) < 2:
                    continue
                values = list(domains[var])
                pruned = [state.probe(var, value, propagate_from) for value in values]
                failed = [value for value, count in zip(values, pruned) if count is None]
                if len(failed) == len(values):
                    return var  # this node is dead: every branch fails at once
                if failed:
                    refuted_any = True
                    for value in failed:
                        _show_failed_probe(state, var, value)
                        if not _refute(state, var, value, words):
                            return var
                    continue
                score = prod(count + 1 for count in pruned if count is not None)
                if score > best_score:
                    best, best_score = var, score
            if not refuted_any:
                return best

    return probing_order


#: the probing order with plain words, `var_order="probe"`
probing_order = probing()


def _show_failed_probe(state: SearchState, var: Hashable, value: Any) -> None:
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


def _refute(state: SearchState, var: Hashable, value: Any, words: ValueWords) -> bool:
    """Remove `var = value` and propagate; False (with the state as before) if that fails."""
    mark = state.mark()
    try:
        state.remove(var, value, f"{PROBE}: {words(var, value)} leads to a contradiction")
        propagate_from(state, var)
    except Contradiction:
        # the other values fail too once propagated: undo, and let every branch fail
        state.undo(mark)
        return False
    return True
