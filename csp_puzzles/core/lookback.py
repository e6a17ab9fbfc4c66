"""Looking back: conflict-directed backjumping (CBJ).

Chronological backtracking, on a failure, undoes the most recent decision, even when that
decision had nothing to do with the failure. Looking back (AIMA 6.3.3) asks *why* the branch
failed and goes straight back to a decision that was part of the reason.

The reasons come from **explanations**. Every value removed during the search is explained
by a set of decisions (search levels) that together forced its removal:

- a decision `x = v` at level L removes every other value of `x`, explained by {L};
- a propagator that removes a value decides from the current domains of its scope, so the
  removal is explained by everything that shaped those domains: the union of the
  explanations of the values already removed from its scope variables. This holds for any
  propagator, the puzzles' rules included. A propagator that knows better names what its
  deduction really read (`state.reason` before a removal, `reason` on a failure): a few
  variables, or only their bounds (`Least`, `Most` in reasons.py: a sum that caps an edge
  read its neighbours' least values, not why their greatest values went); a global
  constraint over the whole puzzle needs that to say anything useful.

A wipe-out (a domain emptied, or a constraint that cannot hold) then has a **conflict set**:
the decisions that explain it. When every value of the variable at level L has failed, the
union of their conflict sets (without L itself) plus the explanation of the values that were
gone before L branched says which earlier decisions are to blame; the search **backjumps** to
the deepest of them, skipping the levels in between, which could not have helped.

Learning (learning.py) goes further: it keeps the reason of each removal as the removals
behind it, and learns from each conflict a nogood over those literals.

Conflict sets are bit sets of levels held in Python integers: bit L stands for the decision
at level L. Each removed value keeps its own set (`gone`), so that a bound can be explained
by the values below or above it alone; each variable also keeps the union over its removed
values (`because`), what a propagator without a sharper reason is charged with.

Counting stays exact: below a solution the conflict set holds every earlier level, so the
search goes back chronologically there.
"""

from __future__ import annotations

from collections.abc import Generator, Hashable
from dataclasses import dataclass
from typing import Any, NoReturn

from .csp import CSP
from .inference import node_consistency
from .reasons import Least, Most
from .search import Search
from .state import Contradiction, SearchState
from .stats import Stats
from .trace import BACKJUMP, BACKTRACK, Trace

LOOK_BACKS = ("none", "cbj", "learn")


def levels(bits: int) -> list[int]:
    """The levels in a conflict set, deepest first."""
    found = []
    while bits:
        level = bits.bit_length() - 1
        found.append(level)
        bits ^= 1 << level
    return found


class ExplainingState(SearchState):
    """A `SearchState` that also records why each variable lost values.

    `because[var]` is the conflict set (bits of levels) explaining every value removed from
    `var` so far. The propagation loop says which constraint is at work in `constraint`.
    """

    def __init__(self, csp: CSP, stats: Stats | None = None, trace: Trace | None = None):
        super().__init__(csp, stats, trace)
        self.because: dict[Hashable, int] = dict.fromkeys(csp.variables, 0)
        #: `gone[var][value]`: the decisions behind the removal of `value`, read only while
        #: the value is gone (a value put back and removed again gets its new explanation)
        self.gone: dict[Hashable, dict[Any, int]] = {v: {} for v in csp.variables}
        #: (trail length after the change, variable, previous conflict set), for undo
        self.why_trail: list[tuple[int, Hashable, int]] = []
        self.deciding = False
        self._owner: object = None  # the constraint whose scope union is cached
        self._owner_bits = 0

    explaining = True

    def explanation(self) -> int:
        """The decisions behind a removal made now, by the constraint at work."""
        if self.deciding:
            return 1 << self.depth
        if self.reason is not None:
            reason, self.reason = self.reason, None
            return self.union_of(reason)
        constraint = self.constraint
        if constraint is None:  # unknown author: blame every decision, always safe
            return (1 << (self.depth + 1)) - 2
        if constraint is not self._owner:
            bits = 0
            because = self.because
            for var in constraint.scope:
                bits |= because[var]
            self._owner, self._owner_bits = constraint, bits
        return self._owner_bits

    def union_of(self, reason: Any) -> int:
        """The decisions behind a reason: variables (every value they lost), or the
        `Least`/`Most` bounds of some (only the values below / above what is left)."""
        bits = 0
        because, gone, domains = self.because, self.gone, self.domains
        for item in reason:
            kind = type(item)
            if kind is Least or kind is Most:
                domain = domains[item.var]
                if not domain:  # wiped out: every value is to blame
                    bits |= because[item.var]
                    continue
                if kind is Least:
                    least = min(domain)
                    for value, why in gone[item.var].items():
                        if value < least:
                            bits |= why
                else:
                    most = max(domain)
                    for value, why in gone[item.var].items():
                        if value > most:
                            bits |= why
            else:
                bits |= because[item]
        return bits

    def remove(self, var: Hashable, value: Any, cause: str | None = None) -> bool:
        if value not in self.domains[var]:
            self.reason = None
            return False
        bits = self.explanation()
        self.gone[var][value] = bits
        old = self.because[var]
        if bits | old != old:
            self.because[var] = bits | old
            self.why_trail.append((len(self._trail) + 1, var, old))
            if self._owner is not None and not self.deciding:
                self._owner_bits |= old
        try:
            return super().remove(var, value, cause)
        except Contradiction as failure:
            failure.conflict = self.because[var]
            raise

    def fail(self, var: Hashable = None, cause: str | None = None) -> NoReturn:
        failure = Contradiction(var, cause or self.cause)
        if self.reason is not None or var is None:  # the reason given is the whole story
            failure.conflict = self.explanation()
        else:
            failure.conflict = self.explanation() | self.because[var]
        raise failure

    def assign(self, var: Hashable, value: Any) -> None:
        gone, level = self.gone[var], 1 << (self.depth + 1)
        for other in self.domains[var]:
            gone[other] = level
        self.deciding = True
        try:
            super().assign(var, value)
        finally:
            self.deciding = False
        old = self.because[var]
        self.because[var] = old | (1 << self.depth)
        self.why_trail.append((len(self._trail), var, old))
        self._owner = None

    def undo(self, mark: int) -> None:
        super().undo(mark)
        self.undo_why(lambda entry: entry[0] > mark)

    def undo_why(self, still_to_undo: Any) -> None:
        """Give back the conflict sets changed by the entries `still_to_undo` accepts."""
        why, because = self.why_trail, self.because
        while why and still_to_undo(why[-1]):
            _, var, old = why.pop()
            because[var] = old
        self._owner = None

    def conflict_of(self, failure: Contradiction) -> int:
        """The conflict set of a failure (every decision, when nobody explained it)."""
        bits = getattr(failure, "conflict", None)
        if bits is not None:
            return bits
        if failure.reason is not None:
            return self.union_of(failure.reason)
        constraint = failure.constraint
        if constraint is not None:
            return self.union_of(constraint.scope)
        return (1 << (self.depth + 1)) - 2


@dataclass
class _Frame:
    var: Hashable
    values: list[Any]
    level: int
    next: int = 0
    value: Any = None
    assigned: bool = False
    mark: int = 0
    why_mark: int = 0
    conflict: int = 0  # levels blamed for the values tried so far
    had_solution: bool = False


class LookBackSearch(Search):
    """Depth-first search that backjumps over irrelevant decisions (`look_back="cbj"`).

    The same options as `Search` (one value at a time: `branching="assign"`). Only the loop
    differs from `Search`: limits, the root, the final check of a solution and the trace
    are the same.
    """

    state: ExplainingState
    state_class = ExplainingState

    def __init__(self, csp: CSP, *args: Any, look_back: str = "cbj", **options: Any):
        if look_back != "cbj":
            raise ValueError(f"unknown look_back {look_back!r} for backjumping; expected "
                             f"'cbj' (the search for each of {', '.join(LOOK_BACKS)}: "
                             "search.make_search)")
        if options.get("branching", "assign") != "assign":
            raise ValueError("looking back branches one value at a time: branching='assign'")
        super().__init__(csp, *args, **options)

    # -- the search loop -------------------------------------------------------------------
    def _root(self) -> bool:
        """Node consistency, then the inference."""
        try:
            node_consistency(self.state)
            self.infer(self.state, None)
        except Contradiction as failure:
            self._failed(failure)
            return False
        return True

    def _dfs(self) -> Generator[None, None, None]:
        """Like `Search._dfs`, but a frame whose values all failed hands its conflict set
        back to the deepest level it blames (`_exhausted`), and a failure explained without
        the current decision ends its frame at once."""
        state = self.state
        if not self._root():
            return
        if self._complete():
            if self._verified():
                yield None
            return
        frames = [self._open(1)]
        while frames:
            frame = frames[-1]
            if frame.assigned:
                self._retract(frame)
            if frame.next == len(frame.values):
                if self._exhausted(frames) is None:
                    return
                continue
            value = frame.values[frame.next]
            frame.next += 1
            self._check_limits()
            self.stats.nodes += 1
            frame.value, frame.assigned = value, True
            frame.mark, frame.why_mark = state.mark(), len(state.why_trail)
            state.changed.clear()
            try:
                state.assign(frame.var, value)
                self.infer(state, frame.var)
            except Contradiction as failure:
                self._failed(failure)
                conflict = state.conflict_of(failure)
                frame.conflict |= conflict & ~(1 << frame.level)
                if not conflict >> frame.level & 1:
                    # the decisions above alone explain the failure: every value fails alike
                    frame.next = len(frame.values)
                continue
            if self._complete():
                if self._verified():
                    frame.had_solution = True
                    frame.conflict |= (1 << frame.level) - 2  # every earlier level
                    yield None
                continue
            frames.append(self._open(frame.level + 1))

    def _open(self, level: int) -> _Frame:
        var = self.select(self.state)
        return _Frame(var, list(self.order(self.state, var)), level)

    def _retract(self, frame: _Frame) -> None:
        """Undo the frame's current value (and everything below it)."""
        state = self.state
        state.undo(frame.mark)
        state.undo_why(lambda entry, n=frame.why_mark: len(state.why_trail) > n)
        state.unassign(frame.var)
        frame.assigned = False
        if not frame.had_solution:
            self.stats.backtracks += 1
        self._record(BACKTRACK, frame.var, frame.value, None)

    def _exhausted(self, frames: list[_Frame]) -> int | None:
        """Every value of the top frame failed: jump back to the deepest level to blame.

        Returns the level jumped to, or None when no level is to blame (search over).
        """
        frame = frames.pop()
        state = self.state
        # values gone before this variable was branched on count against earlier levels too
        conflict = (frame.conflict | state.because[frame.var]) & ~(1 << frame.level)
        if not frames:
            return None
        target = conflict.bit_length() - 1
        if target < 1:  # nothing decided is to blame: no solution anywhere further
            frames.clear()
            return None
        skipped = frame.level - 1 - target
        if skipped > 0:
            self.stats.backjumps += 1
            self._record_at(BACKJUMP, frame.var, self._literals(conflict, frames),
                            f"back to level {target}, skipping {skipped} "
                            f"level{'s' * (skipped > 1)}", target)
        while frames[-1].level > target:
            undone = frames.pop()
            if undone.assigned:
                self._retract(undone)
            frame.had_solution |= undone.had_solution
        top = frames[-1]
        top.conflict |= conflict & ~(1 << target)
        top.had_solution |= frame.had_solution
        return target

    # -- helpers ---------------------------------------------------------------------------
    def _literals(self, conflict: int, frames: list[_Frame]) -> tuple[tuple[Hashable, Any], ...]:
        """The decisions of a conflict set, as (variable, value) pairs, shallowest first."""
        by_level = {frame.level: frame for frame in frames if frame.assigned}
        return tuple((by_level[lv].var, by_level[lv].value)
                     for lv in sorted(levels(conflict)) if lv in by_level)

    def _record_at(self, kind: str, var: Hashable, value: Any, cause: str | None,
                   depth: int) -> None:
        """Record an event that names its own level (a backjump's target, a nogood's)."""
        if self.trace is not None:
            self.trace.record(kind, var, value, cause, depth)
