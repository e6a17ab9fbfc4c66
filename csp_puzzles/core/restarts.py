"""Restarts: run the search again and again with a growing node budget.

Depth-first search with a fixed order has heavy tails: one bad decision near the root can
cost thousands of nodes that another first decision would have saved. Modern CP solvers
answer with restarts plus learnt weights, and so does `solve_with_restarts`: it runs
`solve` with `max_nodes = budget`; when the budget runs out it starts again from the root
with a larger budget, keeping the failure weights the earlier runs collected, so the
dom/wdeg variable order begins the next run where the last ones failed.

The budget grows (`schedule="geometric"`: by `growth` each run; `"luby"`: Luby's sequence,
many short runs and now and then a longer one), so some run finally gets all the nodes it
needs: the answer is exact (solved or unsatisfiable), only the effort changes. Besides the
weights, the runs hand on the values variables last held (phase saving: `val_order="phase"`
tries them first, so a restart rebuilds what the last run had settled) and, when learning,
the nogoods. A learning search is restarted in place, as SAT solvers do: back to level 0,
keeping its propagation, its nogoods and all the rest (`LearningSearch.restart`), and it
rephases: most runs start from the values of the best assignment met so far rather than
the last one (see `LearningSearch._rephase`). Each call
starts afresh, so the same problem always gives the same run.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from .csp import CSP
from .options import Options
from .search import LIMIT, Result, solve
from .stats import Stats

FIRST_BUDGET = 50
GROWTH = 1.3
SCHEDULES = ("geometric", "luby")


def luby(i: int) -> int:
    """The i-th term (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8...

    Luby, Sinclair and Zuckerman (see REFERENCES.md) showed it is within a log factor of the
    best fixed restart budget, whatever the (unknown) distribution of run lengths: many
    short runs, now and then a long one.
    """
    k = 1
    while (1 << k) - 1 < i:  # the first k with i <= 2^k - 1
        k += 1
    if i == (1 << k) - 1:  # the end of a block: the block's largest term
        return 1 << (k - 1)
    return luby(i - (1 << (k - 1)) + 1)  # inside a block: it repeats the sequence so far


def budgets(first: int, growth: float, schedule: str) -> Iterator[int]:
    """The node budget of each run: `first` times growth**n, or `first` times Luby's terms."""
    if schedule not in SCHEDULES:
        raise ValueError(f"unknown restart schedule {schedule!r}; expected one of "
                         f"{', '.join(SCHEDULES)}")
    run = 1
    budget = float(first)
    while True:
        if schedule == "luby":
            yield first * luby(run)
        else:
            yield int(budget)
            budget *= growth
        run += 1


def solve_with_restarts(csp: CSP, options: Options | None = None, *,
                        first_budget: int = FIRST_BUDGET, growth: float = GROWTH,
                        schedule: str = "geometric", **keywords: Any) -> Result:
    """Find one solution by restarted searches; the stats add up over every run.

    The search options as for `solve` (an `Options`, or keywords), the variable order
    `dom-wdeg` unless another is given; `timeout` and `max_nodes` bound the whole effort
    (status `limit` when reached). The budgets: `first_budget` nodes, then growing by
    `growth` (`schedule="geometric"`) or along Luby's sequence (`"luby"`).

    With `look_back="learn"` there is one search, restarted in place as SAT solvers do
    (`LearningSearch.run` and `restart`): each run goes back to level 0 and keeps all the
    rest, the root's propagation and the nogoods learnt included (a nogood is true of the
    problem, whichever run found it). The other look-backs start a new search each run,
    handed the weights and phases of the earlier ones (simpler: their search keeps its path
    in the frames of its loop; each run propagates the root again).
    """
    if options is None:
        keywords.setdefault("var_order", "dom-wdeg")
    options = replace(Options.of(options, **keywords), weights={}, phases={})
    runs = budgets(first_budget, growth, schedule)
    start = time.perf_counter()
    in_place = None
    if options.look_back == "learn":
        from .learning import LearningSearch

        in_place = LearningSearch(csp, replace(options, timeout=None, max_nodes=None))
    total = Stats()
    while True:
        left_time = None if options.timeout is None else \
            options.timeout - (time.perf_counter() - start)
        left_nodes = None if options.max_nodes is None else options.max_nodes - total.nodes
        if (left_time is not None and left_time <= 0) or (left_nodes is not None
                                                           and left_nodes <= 0):
            return Result(LIMIT, None, total)
        budget = next(runs)
        run_nodes = budget if left_nodes is None else min(budget, left_nodes)
        if in_place is not None:
            result = in_place.run(max_nodes=run_nodes, timeout=left_time)
        else:
            result = solve(csp, replace(options, timeout=left_time, max_nodes=run_nodes))
        _add(total, result.stats)
        total.seconds = time.perf_counter() - start
        if result.status != LIMIT or result.stats.nodes < run_nodes:
            # solved, proved unsatisfiable, or stopped by the clock rather than the budget
            return Result(result.status, result.solution, total)


def _add(total: Stats, run: Stats) -> None:
    for field in ("nodes", "backtracks", "checks", "prunings", "backjumps", "learnt",
                  "learnt_literals"):
        setattr(total, field, getattr(total, field) + getattr(run, field))

