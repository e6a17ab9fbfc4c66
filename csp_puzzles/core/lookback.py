"""Looking back: conflict-directed backjumping (CBJ).

Chronological backtracking, on a failure, undoes the most recent decision, even when that
decision had nothing to do with the failure. Looking back (AIMA 6.3.3; conflict-directed
backjumping is Prosser's, see REFERENCES.md) asks *why* the branch failed and goes straight
back to a decision that was part of the reason.

The reasons are the facts of the implication graph (facts.py): every removal keeps what
forced it, and following those reasons back from a failure leads to the decisions behind
it, its **conflict set** (`ExplainingState.levels_of`): a propagator that says what its
deduction read (a few variables, or only their bounds) gives a small one; one that says
nothing is charged with everything its scope lost.

When every value of the variable at level L has failed, the union of their conflict sets
(without L itself) plus the decisions behind the values that were gone before L branched
says which earlier decisions are to blame; the search **backjumps** to the deepest of
them, skipping the levels in between, which could not have helped.

Learning (learning.py) reads the same facts, and learns from each conflict a nogood.

Conflict sets are bit sets of levels held in Python integers: bit L stands for the decision
at level L.

Counting stays exact: below a solution the conflict set holds every earlier level, so the
search goes back chronologically there.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from .facts import ExplainingState
from .search import Frame, Search
from .state import Contradiction
from .trace import BACKJUMP


def levels(bits: int) -> list[int]:
    """The levels in a conflict set, deepest first."""
    found = []
    while bits:
        level = bits.bit_length() - 1
        found.append(level)
        bits ^= 1 << level
    return found


class LookBackSearch(Search):
    """The search that backjumps over irrelevant decisions (`look_back="cbj"`).

    Only what it does on a conflict and after a solution differs from `Search` (it reads
    the frames' `conflict` and `had_solution`; a frame's level is its place in `frames`,
    counted from 1).
    """

    state: ExplainingState
    state_class = ExplainingState

    def __init__(self, *args: Any, **keywords: Any):
        super().__init__(*args, **keywords)
        self.state.start_blaming()

    def _conflict(self, failure: Contradiction | None) -> bool:
        """The failure's conflict set counts against the level that failed; explained
        without that level's decision, every other value would fail alike: the level is
        done."""
        if not self.frames or failure is None:
            return self._back_up() if self.frames else False
        frame, level = self.frames[-1], len(self.frames)
        conflict = self.state.levels_of(failure)
        frame.conflict |= conflict & ~(1 << level)
        if not conflict >> level & 1:
            frame.next = len(frame.choices)
        return self._back_up()

    def _passed(self, found: bool) -> bool:
        """Below a solution every earlier level counts: back up chronologically."""
        if not self.frames:
            return False
        if found:
            frame = self.frames[-1]
            frame.had_solution = True
            frame.conflict |= (1 << len(self.frames)) - 2  # every earlier level
        return self._back_up()

    def _back_up(self) -> bool:
        """Undo the deepest decision; a level whose values all failed hands its conflict
        set back to the deepest level it blames (`_exhausted`)."""
        frames = self.frames
        while frames:
            frame = frames[-1]
            if frame.decided:
                self._retract(frame)
            if frame.next < len(frame.choices):
                return True
            if self._exhausted(frames) is None:
                return False
        return False

    def _retract(self, frame: Frame) -> None:
        self.cancel(frame)
        if not frame.had_solution:
            self.stats.backtracks += 1

    def _exhausted(self, frames: list[Frame]) -> int | None:
        """Every value of the top frame failed: jump back to the deepest level to blame.

        Returns the level jumped to, or None when no level is to blame (search over).
        """
        level = len(frames)
        frame = frames.pop()
        # values gone before this variable was branched on count against earlier levels too
        conflict = ((frame.conflict | self.state.levels_of_variable(frame.var))
                    & ~(1 << level))
        if not frames:
            return None
        target = conflict.bit_length() - 1
        if target < 1:  # nothing decided is to blame: no solution anywhere further
            frames.clear()
            return None
        skipped = level - 1 - target
        if skipped > 0:
            self.stats.backjumps += 1
            self._record(BACKJUMP, frame.var, self._literals(conflict, frames),
                         f"back to level {target}, skipping {skipped} "
                         f"level{'s' * (skipped > 1)}", target)
        while len(frames) > target:
            undone = frames.pop()
            if undone.decided:
                self._retract(undone)
            frame.had_solution |= undone.had_solution
        top = frames[-1]
        top.conflict |= conflict & ~(1 << target)
        top.had_solution |= frame.had_solution
        return target

    def _literals(self, conflict: int,
                  frames: list[Frame]) -> tuple[tuple[Hashable, Any], ...]:
        """The decisions of a conflict set, as (variable, value) pairs, shallowest first."""
        by_level = {level: frame for level, frame in enumerate(frames, 1) if frame.decided}
        return tuple((by_level[lv].var, by_level[lv].choice)
                     for lv in sorted(levels(conflict)) if lv in by_level)
