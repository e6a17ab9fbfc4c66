"""The search's limits: checking their values, and running out.

`timeout` is a number of seconds from 0 to `MAX_TIMEOUT`, `max_nodes` a whole number
>= 0, and a count's `limit` a whole number >= 1 (or None for every solution); anything
else is refused before the search starts. Running out of either is one exception,
`LimitReached` (csp_puzzles.errors), wherever it happens: between two nodes, in the middle
of a propagation (`SearchState.check_deadline`), in another engine, or when a whole
command outlives its deadline (deadline.py). The search reports it as the status `limit`.
"""

from __future__ import annotations

import math

from ..errors import LimitReached

__all__ = ["LimitReached", "MAX_TIMEOUT", "check_timeout", "check_max_nodes",
           "check_count_limit"]

#: The longest timeout accepted (a bit over eleven days).
MAX_TIMEOUT = 1_000_000.0


def check_timeout(seconds: float | None) -> None:
    """Refuse a timeout that is not a number of seconds from 0 to `MAX_TIMEOUT`."""
    if seconds is None:
        return
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"timeout must be a number of seconds, not {type(seconds).__name__}")
    if math.isnan(seconds) or not 0 <= seconds <= MAX_TIMEOUT:
        raise ValueError(f"timeout {seconds} is out of range, expected a number of seconds "
                         f"from 0 to {MAX_TIMEOUT:.0f}")


def check_max_nodes(nodes: int | None) -> None:
    """Refuse a node limit that is not a whole number >= 0."""
    if nodes is None:
        return
    if isinstance(nodes, bool) or not isinstance(nodes, int):
        raise TypeError(f"max_nodes must be a whole number, not {type(nodes).__name__}")
    if nodes < 0:
        raise ValueError(f"max_nodes {nodes} is negative, expected a whole number >= 0")


def check_count_limit(limit: int | None) -> None:
    """A count stops after `limit` solutions: at least 1, or None to count them all."""
    if limit is None:
        return
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be a whole number or None, not {type(limit).__name__}")
    if limit < 1:
        raise ValueError(f"limit {limit} is below 1, expected a number of solutions >= 1 "
                         "(or None to count them all)")
