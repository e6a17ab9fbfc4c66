"""The one shape of a reason: the literals that forced a removal.

A literal is `x = v` or `x ≠ w` (`Literal`). When a search looks back (`state.explaining`),
a propagator that removes a value may say why in `state.reason`: the literals its
deduction read, newest facts of the search as they stand. It builds them from the state:

- `state.lost(x)`: x's whole domain was read, so every value x lost (`x ≠ w` each; a value
  its decision took away reads as the decision `x = v`);
- `state.below(x)`, `state.above(x)`: only x's least (greatest) value was read, so only
  the values lost below (above) it: bounds reasoning on numbers (a sum that caps an edge
  at 1 because its neighbours already carry 3 bridges read their least values, not why
  their greatest values went).

A propagator that says nothing is charged with its scope read whole (the same literals as
`lost` for each variable, written out only if a conflict reads them: facts.py). A learnt
nogood's reasons are its other literals. Facts of the root level (true before any decision) are
left out of what the state builds: no conflict needs them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any, NamedTuple


class Literal(NamedTuple):
    """`var = value` (`equal`) or `var ≠ value`: a fact of the search, or part of a nogood."""

    var: Hashable
    equal: bool
    value: Any

    def __str__(self) -> str:
        from .trace import show

        return f"{show(self.var)} {'=' if self.equal else '≠'} {show(self.value)}"


#: why a value went: the literals that forced its removal
Reason = Iterable[Literal]
