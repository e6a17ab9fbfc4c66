"""Sharper reasons a propagator can give for a removal, when the search looks back.

A propagator that removes a value may set `state.reason` (only when `state.explaining`) to
the things its deduction really read. An item is a variable (its whole current domain),
one of the bounds below, for bounds reasoning on numbers (a sum that caps an edge at 1
because its neighbours already carry 3 bridges read only the neighbours' least values, not
why their greatest values went), or a `Literal` (what a learnt nogood reads).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, NamedTuple


class Least(NamedTuple):
    """The removals that raised `var`'s least value to what it is now."""

    var: Hashable


class Most(NamedTuple):
    """The removals that lowered `var`'s greatest value to what it is now."""

    var: Hashable


class Literal(NamedTuple):
    """`var = value` (`equal`) or `var ≠ value`: a fact of the search, or part of a nogood."""

    var: Hashable
    equal: bool
    value: Any

    def __str__(self) -> str:
        from .trace import show

        return f"{show(self.var)} {'=' if self.equal else '≠'} {show(self.value)}"
