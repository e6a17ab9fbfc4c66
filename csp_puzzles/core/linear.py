"""Linear constraints: a weighted sum compared with a total, propagated on bounds.

`Linear(["x", "y"], [2, 3], "<=", 12)` says 2x + 3y <= 12. The comparison is one of
`==`, `<=`, `>=`, `!=`.

Arithmetic is exact, as in `Sum`: weights, totals and values are ints, `Fraction`s,
`Decimal`s or floats, each read as the exact number it writes (a float as the decimal it
prints as). In floating point 0.1 + 0.2 != 0.3, and a solver must never call a problem
unsatisfiable because of rounding.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from .constraints import Constraint, _short, exact
from .state import SearchState

Number = int | Fraction

#: the comparisons a `Linear` or `Count` constraint may use, by the symbol users write
COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "<=": operator.le,
    ">=": operator.ge,
    "!=": operator.ne,
}


def comparison(op: str, what: str) -> Callable[[Any, Any], bool]:
    """The function behind an operator symbol, or a ValueError naming the allowed ones."""
    try:
        return COMPARISONS[op]
    except (KeyError, TypeError):
        allowed = ", ".join(repr(o) for o in COMPARISONS)
        raise ValueError(f"{what}: unknown comparison {op!r}; expected one of {allowed}") from None


class Linear(Constraint):
    """sum(weights[i] * variables[i]) `op` total, with `op` in `==`, `<=`, `>=`, `!=`.

    Propagation reasons on bounds. Each term w*x lies between its smallest and its largest
    possible value; the other terms' bounds then limit it:
    - `<=`: w*x <= total - (smallest sum of the others); this is exact (arc consistency),
      since the others can all take their smallest terms at once;
    - `>=`: the mirror image, also exact;
    - `==`: both limits, repeated until the bounds stop moving (sound, not exact: a hole
      in the middle of a domain is not seen);
    - `!=`: nothing to do until one variable with a non-zero weight is open; then the one
      value that would make the sum equal goes (exact).
    `weights=None` means every weight is 1.
    """

    idempotent = True

    def __init__(self, variables: Iterable[Hashable], weights: Sequence[Any] | None, op: str,
                 total: Any, name: str | None = None):
        variables = tuple(variables)
        label = name or f"Linear({', '.join(map(_short, variables))}) {op} {total}"
        self.compare = comparison(op, label)
        self.op = op
        self.total = exact(total, f"{label}: total")
        raw = weights if weights is not None else (1,) * len(variables)
        self.weights: tuple[Number, ...] = tuple(exact(w, f"{label}: weight") for w in raw)
        if len(self.weights) != len(variables):
            raise ValueError(f"{label}: {len(variables)} variables but "
                             f"{len(self.weights)} weights (one each)")
        super().__init__(variables, label)

    def value_of(self, values: Mapping[Hashable, Any]) -> Number:
        """The weighted sum for a complete assignment of the scope."""
        return sum(w * exact(values[v], self.name) for v, w in zip(self.scope, self.weights))

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return self.compare(self.value_of(values), self.total)

    def propagate(self, state: SearchState) -> None:
        if self.op == "!=":
            self._propagate_not_equal(state)
            return
        while self._narrow(state):  # `<=` and `>=` settle in one pass, `==` may take more
            pass

    def _term_bounds(self, state: SearchState) -> tuple[list[Number], list[Number]]:
        """The smallest and largest value of each term w*x over the current domains."""
        lows, highs = [], []
        for var, w in zip(self.scope, self.weights):
            domain = state.domains[var]
            small, large = w * exact(min(domain), self.name), w * exact(max(domain), self.name)
            lows.append(min(small, large))
            highs.append(max(small, large))
        return lows, highs

    def _narrow(self, state: SearchState) -> bool:
        """One pass of bounds reasoning; True if a value was removed."""
        lows, highs = self._term_bounds(state)
        low, high = sum(lows), sum(highs)
        upper, lower = self.op in ("==", "<="), self.op in ("==", ">=")
        if (upper and low > self.total) or (lower and high < self.total):
            state.fail(None, f"{self.name}: the sum lies in {low}..{high}")
        pruned = False
        for var, w, term_low, term_high in zip(self.scope, self.weights, lows, highs):
            if w == 0:
                continue
            most = self.total - (low - term_low) if upper else None
            least = self.total - (high - term_high) if lower else None
            doomed = [x for x in state.values(var)
                      if (most is not None and w * exact(x) > most)
                      or (least is not None and w * exact(x) < least)]
            for x in doomed:
                state.remove(var, x, self.name)
            pruned = pruned or bool(doomed)
        return pruned and self.op == "=="

    def _propagate_not_equal(self, state: SearchState) -> None:
        open_terms = [(v, w) for v, w in zip(self.scope, self.weights)
                      if w != 0 and len(state.domains[v]) > 1]
        if len(open_terms) > 1:
            return
        fixed = sum(w * exact(state.value(v), self.name)
                    for v, w in zip(self.scope, self.weights)
                    if w != 0 and len(state.domains[v]) == 1)
        if not open_terms:
            if fixed == self.total:
                state.fail(None, f"{self.name}: the sum is {fixed}")
            return
        var, w = open_terms[0]
        for x in state.values(var):
            if fixed + w * exact(x, self.name) == self.total:
                state.remove(var, x, self.name)
