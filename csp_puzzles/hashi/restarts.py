"""Restarts: the generic backtracking search, run again and again with a growing node budget.

Depth-first search with a fixed order has heavy tails: one bad decision near the root can
cost thousands of nodes that any other first decision would have saved. Modern CP solvers
answer with restarts plus learned weights, and so does this module, using nothing but the
generic core: it calls `solve` with `max_nodes = budget`; if the budget runs out it calls
it again on the *same* CSP with a larger budget. The constraints keep the failure counts
(`weight`) they collected, so the dom/wdeg variable order starts the next run in the places
that failed before. The budget grows geometrically, so the last run is complete: the
answer is exact (solved or unsatisfiable), only the effort changes.
"""

from __future__ import annotations

import time

from ..core import CSP, Result, Stats, solve
from ..core.search import LIMIT
from .rules import dom_wdeg_order

FIRST_BUDGET = 50
GROWTH = 1.3


def solve_with_restarts(csp: CSP, val_order: str = "input", timeout: float | None = None,
                        max_nodes: int | None = None, first_budget: int = FIRST_BUDGET,
                        growth: float = GROWTH) -> Result:
    """MAC search with dom/wdeg and restarts; stats add up over every run."""
    start = time.perf_counter()
    total = Stats()
    budget = float(first_budget)
    while True:
        left_time = None if timeout is None else timeout - (time.perf_counter() - start)
        if left_time is not None and left_time <= 0:
            return Result(LIMIT, None, total)
        left_nodes = None if max_nodes is None else max_nodes - total.nodes
        if left_nodes is not None and left_nodes <= 0:
            return Result(LIMIT, None, total)
        run_nodes = int(budget) if left_nodes is None else min(int(budget), left_nodes)
        result = solve(csp, inference="mac", var_order=dom_wdeg_order, val_order=val_order,
                       timeout=left_time, max_nodes=run_nodes)
        for field in ("nodes", "backtracks", "checks", "prunings"):
            setattr(total, field, getattr(total, field) + getattr(result.stats, field))
        total.seconds = time.perf_counter() - start
        if result.status != LIMIT or result.stats.nodes < run_nodes:
            # solved, proved unsatisfiable, or stopped by the clock rather than the budget
            return Result(result.status, result.solution, total)
        budget *= growth
