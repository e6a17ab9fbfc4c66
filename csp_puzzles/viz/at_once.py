"""Which removals of a session's propagation a person must suppose, for "why?" to say so.

A session's inference (a puzzle's full model) may remove at once a value that the ladder of
rules a person follows reaches only by a supposition: the full Hashi model's isolation rule
refuses to join two 1s, where a person supposes the bridge and sees a group close. "why?"
says so of exactly those removals: a value removed by the session's inference (not crossed
out by the player, not a hint applied, not a decision) that the ladder's rules that
suppose nothing do not reach from the domains just before its removal
(`core.hints.WithoutSupposing`): the rule that removed it looked one step ahead.

The trace only grows, so each event is read once; what an event removed is judged from the
domains just before it, which never change. An event no longer in force (a backtrack or an
undo took it back) is skipped: it never comes back into force, and "why?" names only the
removals in force.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.hints import WithoutSupposing
from ..core.moves import Deduce
from ..core.session import PLAYER, Session
from ..core.trace import ASSIGN, BACKJUMP, BACKTRACK, PRUNE, REPAIR, UNDO

#: the kinds of event that put values back (what the rules reached must be found afresh)
PUTS_BACK = (BACKTRACK, BACKJUMP, UNDO, REPAIR)
#: causes of removals that are decisions, not inference
DECIDED = (PLAYER, "split")


class AtOnce:
    """The events of `session`'s trace whose removal its propagation made at once where a
    person must suppose (`found`, numbered from 1 as the page numbers events)."""

    def __init__(self, session: Session):
        self.session = session
        self.found: list[int] = []
        self._read = 0  # the events read so far

    def update(self, in_force: Callable[[int], bool]) -> list[int]:
        """Read the events added since the last call (`in_force(at)`: whether event `at` still
        holds) and return every event found so far."""
        trace, ladder = self.session.trace, self.session.ladder
        hinted = self._hinted()
        reach: WithoutSupposing | None = None  # the rules' reach just before event `at`
        for at in range(self._read + 1, len(trace) + 1):
            event = trace[at - 1]
            kind, var, value, cause = event.kind, event.var, event.value, event.cause
            if kind == PRUNE and cause not in DECIDED and (var, value, cause) not in hinted \
                    and in_force(at):
                if reach is None:
                    reach = WithoutSupposing(ladder, trace.domains_at(at - 2))
                if not reach.reaches(var, value):
                    self.found.append(at)
            if reach is None:
                continue
            if kind in PUTS_BACK:
                reach = None
            elif kind == PRUNE:
                reach.remove(var, value)
            elif kind == ASSIGN:
                for other in reach.values(var):
                    if other != value:
                        reach.remove(var, other)
        self._read = len(trace)
        return self.found

    def _hinted(self) -> set[tuple[Any, Any, str]]:
        """(variable, value, rule) of each removal of a hint applied and in force."""
        return {(var, value, move.hint.rule) for move in self.session.board.moves
                if isinstance(move, Deduce)
                for var, values in move.hint.removals.items() for value in values}

