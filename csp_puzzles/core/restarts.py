"""Restarts: run the search again and again with a growing node budget.

Depth-first search with a fixed order has heavy tails: one bad decision near the root can
cost thousands of nodes that another first decision would have saved. Modern CP solvers
answer with restarts plus learnt weights, and so does `solve_with_restarts`: it runs
`solve` with `max_nodes = budget`; when the budget runs out it starts again from the root
with a larger budget, keeping the failure weights the earlier runs collected, so the
dom/wdeg variable order begins the next run where the last ones failed.

The budget grows geometrically, so some run finally gets all the nodes it needs: the
answer is exact (solved or unsatisfiable), only the effort changes. Each call starts with
fresh weights, so the same problem always gives the same run.
"""

from __future__ import annotations

import time

from .budget import check_max_nodes, check_timeout
from .constraints import Constraint
from .csp import CSP
from .heuristics import ValueOrder, VariableOrder
from .inference import Inference
from .search import LIMIT, Result, solve
from .stats import Stats

FIRST_BUDGET = 50
GROWTH = 1.3


def solve_with_restarts(csp: CSP, inference: str | Inference = "mac",
                        var_order: str | VariableOrder = "dom-wdeg",
                        val_order: str | ValueOrder = "input", timeout: float | None = None,
                        max_nodes: int | None = None, first_budget: int = FIRST_BUDGET,
                        growth: float = GROWTH, look_back: str = "none") -> Result:
    """Find one solution by restarted searches; the stats add up over every run.

    `timeout` and `max_nodes` bound the whole effort (status `limit` when reached). With
    `look_back="learn"` the nogoods learnt by one run are kept for the next ones: a nogood
    is true of the problem, whichever run found it.
    """
    check_timeout(timeout)
    check_max_nodes(max_nodes)
    options: dict = {}
    if look_back != "none":
        from .lookback import NogoodStore

        options["look_back"] = look_back
        if look_back == "learn":
            options["nogoods"] = NogoodStore()
    start = time.perf_counter()
    total = Stats()
    weights: dict[Constraint, int] = {}
    budget = float(first_budget)
    while True:
        left_time = None if timeout is None else timeout - (time.perf_counter() - start)
        left_nodes = None if max_nodes is None else max_nodes - total.nodes
        if (left_time is not None and left_time <= 0) or (left_nodes is not None
                                                           and left_nodes <= 0):
            return Result(LIMIT, None, total)
        run_nodes = int(budget) if left_nodes is None else min(int(budget), left_nodes)
        result = solve(csp, inference=inference, var_order=var_order, val_order=val_order,
                       timeout=left_time, max_nodes=run_nodes, weights=weights, **options)
        _add(total, result.stats)
        total.seconds = time.perf_counter() - start
        if result.status != LIMIT or result.stats.nodes < run_nodes:
            # solved, proved unsatisfiable, or stopped by the clock rather than the budget
            return Result(result.status, result.solution, total)
        budget *= growth


def _add(total: Stats, run: Stats) -> None:
    for field in ("nodes", "backtracks", "checks", "prunings", "backjumps", "learnt"):
        setattr(total, field, getattr(total, field) + getattr(run, field))

