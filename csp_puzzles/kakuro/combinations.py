"""The digit-set table: which sets of distinct digits 1-9 fill a run of a given length and sum.

A run of n cells with sum s holds n distinct digits adding up to s, in some order. What matters
for reasoning is the *set* of digits, not the order: there are only 511 non-empty sets of
digits, so the table is tiny. For runs of 2 to 9 cells, 120 (length, sum) pairs are
possible; 34 of them have a single digit set (the "magic blocks" every Kakuro solver learns
first, like 3 in 2 = {1, 2} or 45 in 9 = {1, ..., 9}); none has more than 12 (25 in 5).
Storing every ordered filling instead would take close to a million tuples.

Digit sets are stored as bit masks (bit d set when digit d is in the set), which makes
"is this set still possible" a couple of integer operations.
"""

from __future__ import annotations

from collections.abc import Iterable

DIGITS = range(1, 10)
ALL_DIGITS = sum(1 << d for d in DIGITS)  # the mask of {1, ..., 9}


def mask_of(digits: Iterable[int]) -> int:
    """The bit mask of a collection of digits."""
    mask = 0
    for d in digits:
        mask |= 1 << d
    return mask


def digits_of(mask: int) -> tuple[int, ...]:
    """The digits of a mask, in increasing order."""
    return tuple(d for d in DIGITS if mask >> d & 1)


def _build() -> dict[tuple[int, int], tuple[int, ...]]:
    table: dict[tuple[int, int], list[int]] = {}
    for subset in range(1, 1 << 9):
        digits = [d + 1 for d in range(9) if subset >> d & 1]
        table.setdefault((len(digits), sum(digits)), []).append(mask_of(digits))
    return {key: tuple(masks) for key, masks in table.items()}


#: (length, sum) -> the digit sets (as masks) of that many distinct digits with that sum
TABLE: dict[tuple[int, int], tuple[int, ...]] = _build()


def combinations(length: int, total: int) -> tuple[int, ...]:
    """The digit sets (masks) filling a run of `length` cells with sum `total` (maybe none)."""
    return TABLE.get((length, total), ())


def sum_range(length: int) -> tuple[int, int]:
    """The smallest and largest sum of `length` distinct digits (1+2+... and 9+8+...)."""
    return length * (length + 1) // 2, length * (19 - length) // 2


def is_magic(length: int, total: int) -> bool:
    """A "magic block": exactly one digit set fits (like 4 in 2 = {1, 3})."""
    return len(combinations(length, total)) == 1
