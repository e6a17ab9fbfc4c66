"""A count said the way it is: what the notebooks print when they count solutions.

A count that stopped at its limit is a lower bound, never the number: counting with
`limit=2` and finding 2 says "2 or more", however many there are. `counted` writes either
sentence, so a notebook never prints a capped count as exact (the course's tests look for
one in every notebook's output: `tests/capped_counts.py`).
"""

from __future__ import annotations


def counted(number: int, limit: int | None, noun: str = "solution") -> str:
    """`number` things found by a count that stops at `limit` (None: no limit), in words:
    `3 solutions`, or `at least 2 solutions (the count stopped at its limit, 2)`."""
    things = noun if number == 1 else f"{noun}s"
    if limit is not None and number >= limit:
        return f"at least {number:,} {things} (the count stopped at its limit, {limit:,})"
    return f"{number:,} {things}"
