"""Conflict activity: branch on the variables the recent conflicts were about.

SAT solvers choose their next decision this way (VSIDS, Moskewicz et al., as in MiniSat; see
REFERENCES.md): each variable has an *activity*; every conflict analysis (learning.py)
*bumps* the variables of the nogood it learns and of the facts it resolved away on the way;
and the bump itself grows by a constant factor after each conflict, so that older bumps
count less and less (the same as letting every activity decay, without touching them all).
The variable order `activity_order` (heuristics.py) then branches on the most active
variable still open, which `most_active` finds.

dom/wdeg (heuristics.py) blames the constraint that failed; activity blames what the
conflict analysis found behind the failure, which is often far from it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from heapq import heapify, heappop, heappush

from .state import SearchState

#: each conflict's bump is this much larger than the last one's (MiniSat: 1 / 0.95)
GROWTH = 1 / 0.95
#: past this, every activity and the bump are scaled down (floats stay finite)
RESCALE_ABOVE = 1e100
#: an `OrderHeap` with more entries than this many per variable (most of them old) is made
#: afresh, so that it never grows with the length of the search
OLD_ENTRIES = 4


class Activity:
    """Each variable's activity, and the size of the next bump.

    A learning search keeps it with its nogoods, so restarts begin where the conflicts were.
    """

    def __init__(self) -> None:
        self.scores: dict[Hashable, float] = {}
        self.bump_size = 1.0
        #: the variables bumped since a search's `OrderHeap` last read them
        self.bumped: list[Hashable] = []
        #: how many times every activity was scaled down (each time, heaps are made again)
        self.rescales = 0

    def bump(self, variables: Iterable[Hashable]) -> None:
        """One conflict: each of `variables` (each once) gains the bump, which then grows."""
        scores, size = self.scores, self.bump_size
        bumped = dict.fromkeys(variables)
        for var in bumped:
            scores[var] = scores.get(var, 0.0) + size
        self.bumped += bumped
        self.bump_size = size * GROWTH
        if self.bump_size > RESCALE_ABOVE:
            for var in scores:
                scores[var] /= RESCALE_ABOVE
            self.bump_size /= RESCALE_ABOVE
            self.rescales += 1


def most_active(state: SearchState) -> Hashable:
    """The open variable of the highest activity, ties to the smallest domain, then to
    input order; None when no open variable has been bumped (all of them tie at 0).

    `heuristics.activity_order` is this, or else the smallest domain first.
    """
    activity = getattr(state, "activity", None)
    if activity is None or not activity.scores:
        return None
    heap = getattr(state, "activity_heap", None)
    if heap is None:
        heap = state.activity_heap = OrderHeap(state)  # type: ignore[attr-defined]
    tied = heap.most_active(state, activity)
    if not tied:
        return None
    domains = state.domains
    return min(tied, key=lambda var: len(domains[var]))


class OrderHeap:
    """The bumped variables of one search, most active first (MiniSat's order heap): the
    fast path of `activity_order`, which would otherwise read every variable at every
    decision.

    An entry is (minus the activity, input position, variable). A bump pushes a fresh
    entry, and the old one, whose activity is no longer the variable's, is dropped when it
    comes to the top. A variable found closed (decided) comes out of the heap until the
    state gives it a choice back (`state.reopened`).
    """

    def __init__(self, state: SearchState):
        self.position = {var: i for i, var in enumerate(state.domains)}
        self.entries: list[tuple[float, int, Hashable]] = []
        self.queued: set[Hashable] = set()  # the variables with an entry in force
        self.rescales = -1  # the heap is made at the first call
        state.reopened = []

    def most_active(self, state: SearchState, activity: Activity) -> list[Hashable]:
        """The open variables of the highest activity, in input order; empty when no open
        variable has one above 0 (then every open variable ties)."""
        self._update(state, activity)
        entries, queued, scores = self.entries, self.queued, activity.scores
        closed = state.is_fixed if state.fixed_is_decided else state.assignment.__contains__
        tied: list[Hashable] = []  # popped, then pushed back
        while entries:
            negative, _, var = entries[0]
            if var not in queued or scores[var] != -negative:
                heappop(entries)  # an old entry
            elif closed(var):
                heappop(entries)
                queued.discard(var)
            elif negative >= 0 or tied and -negative != scores[tied[0]]:
                break  # below the best
            elif var in tied:
                heappop(entries)  # a second entry in force: one is pushed back
            else:
                tied.append(heappop(entries)[2])
        for var in tied:
            heappush(entries, (-scores[var], self.position[var], var))
        return tied

    def _update(self, state: SearchState, activity: Activity) -> None:
        """Push the variables bumped or reopened since the last call."""
        scores, position, entries, queued = (activity.scores, self.position, self.entries,
                                             self.queued)
        if self.rescales != activity.rescales or len(entries) > OLD_ENTRIES * len(position):
            # every entry is old (the activities were scaled down), or most are: made afresh
            self.entries = [(-score, position[var], var) for var, score in scores.items()]
            heapify(self.entries)
            self.queued = set(scores)
            self.rescales = activity.rescales
        else:
            for var in activity.bumped:  # closed or not: if closed, it is taken out later
                queued.add(var)
                heappush(entries, (-scores[var], position[var], var))
            for var in state.reopened or ():
                if var not in queued and var in scores:
                    queued.add(var)
                    heappush(entries, (-scores[var], position[var], var))
        activity.bumped.clear()
        if state.reopened:
            state.reopened.clear()

