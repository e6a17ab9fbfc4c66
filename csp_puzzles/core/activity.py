"""Conflict activity: branch on the variables the recent conflicts were about.

SAT solvers choose their next decision this way (VSIDS, Moskewicz et al., as in MiniSat; see
REFERENCES.md): each variable has an *activity*; every conflict analysis (learning.py)
*bumps* the variables of the nogood it learns and of the facts it resolved away on the way;
and the bump itself grows by a constant factor after each conflict, so that older bumps
count less and less (the same as letting every activity decay, without touching them all).
The variable order `activity_order` then branches on the most active variable still open.

dom/wdeg (heuristics.py) blames the constraint that failed; activity blames what the
conflict analysis found behind the failure, which is often far from it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from itertools import repeat

from .state import SearchState

#: each conflict's bump is this much larger than the last one's (MiniSat: 1 / 0.95)
GROWTH = 1 / 0.95
#: past this, every activity and the bump are scaled down (floats stay finite)
RESCALE_ABOVE = 1e100


class Activity:
    """Each variable's activity, and the size of the next bump.

    A learning search keeps it with its nogoods, so restarts begin where the conflicts were.
    """

    def __init__(self) -> None:
        self.scores: dict[Hashable, float] = {}
        self.bump_size = 1.0

    def bump(self, variables: Iterable[Hashable]) -> None:
        """One conflict: each of `variables` (each once) gains the bump, which then grows."""
        scores, size = self.scores, self.bump_size
        for var in dict.fromkeys(variables):
            scores[var] = scores.get(var, 0.0) + size
        self.bump_size = size * GROWTH
        if self.bump_size > RESCALE_ABOVE:
            for var in scores:
                scores[var] /= RESCALE_ABOVE
            self.bump_size /= RESCALE_ABOVE


def activity_order(state: SearchState) -> Hashable:
    """The open variable with the highest conflict activity; ties (before any conflict:
    all of them) go to the smallest domain, then to input order.

    Only a learning search (`look_back="learn"`) analyses conflicts; any other search has
    no activities, and then this is the smallest domain first (MRV).
    """
    open_vars = state.unassigned()
    if not open_vars:
        return None
    activity = getattr(state, "activity", None)
    if activity is not None and activity.scores:
        scores = list(map(activity.scores.get, open_vars, repeat(0.0)))
        best = max(scores)
        if scores.count(best) == 1:  # nearly always, once conflicts have begun
            return open_vars[scores.index(best)]
        tied = [i for i, score in enumerate(scores) if score == best]
        domains = state.domains
        return open_vars[min(tied, key=lambda i: len(domains[open_vars[i]]))]
    sizes = list(map(len, map(state.domains.__getitem__, open_vars)))
    return open_vars[sizes.index(min(sizes))]


#: a learning search bumps activities only for a variable order that reads them
activity_order.reads_activity = True  # type: ignore[attr-defined]
