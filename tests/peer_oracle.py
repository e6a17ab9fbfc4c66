"""python-constraint2 as an oracle: every solution it finds for a core `CSP`, translated by
the benchmarks' own `to_python_constraint`, for the tests that cross-check the core."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from csp_puzzles.bench.peers import to_python_constraint
from csp_puzzles.core import CSP


def peer_solutions(csp: CSP,
                   solver: str = "OptimizedBacktrackingSolver") -> list[dict[Hashable, Any]]:
    """Every solution python-constraint2 finds for `csp`."""
    try:
        return to_python_constraint(csp, solver).getSolutions()
    except ValueError as err:
        # python-constraint2 2.9: ExactSumConstraint's preprocessing can empty a domain (every
        # value exceeds the total), then min() fails; an emptied domain means no solution.
        if "empty" in str(err):
            return []
        raise
