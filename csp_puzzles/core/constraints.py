"""Constraints: a relation over a scope of variables plus a propagator that prunes domains.

Subclass `Constraint` to write your own. Two methods matter:

- `is_satisfied(values)`: does a complete assignment of the scope satisfy the relation?
  (The checker of last resort: the search verifies every solution with it.)
- `propagate(state)`: remove values that cannot take part in any solution of this
  constraint, given the current domains. Prune with `state.remove(var, value)`; raise
  through `state.fail()` when the constraint cannot hold. When every variable of the scope
  is fixed, `propagate` must fail if the relation is violated.

`forward_check(state, var)` is what forward checking calls right after the search assigns
`var`; by default it is `propagate`. Maintaining arc consistency (MAC) calls `propagate`
again whenever a domain in the scope changes, until nothing changes any more.

A constraint that keeps data of its own during a search keeps it in `state.data(self, make)`
and registers how to undo each change with `state.on_undo(function)` (see state.py).
"""

from __future__ import annotations

import math
import numbers
import operator
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import partial
from itertools import chain, product
from typing import TYPE_CHECKING, Any, NamedTuple

from .matching import alldifferent_supports
from .state import SearchState

if TYPE_CHECKING:
    from .checking import Breach
    from .deductions import Words


class Constraint(ABC):
    """A relation over `scope`, named for the trace (`name`)."""

    #: True when one call of `propagate` already reaches its own fixpoint, so MAC need not
    #: call it again for the changes it made itself.
    idempotent = False
    #: MAC runs every queued constraint of priority 0 before any of priority 1: cheap local
    #: propagators settle first, so an expensive global one (connectivity, say) runs less.
    priority = 0
    #: True when `propagate`, `forward_check` and `consistent` all fail as soon as the whole
    #: scope is fixed to values that break the relation, as the built-in constraints do.
    #: The search then skips this constraint in the final check of a solution: propagation
    #: has proven it on the way. A subclass that overrides one of those methods is not
    #: trusted unless it sets this itself; an untrusted constraint is checked with
    #: `is_satisfied` at every solution.
    proven_when_fixed = True
    #: True when `forward_check`, once one variable of the scope is left unassigned, keeps
    #: only its values that satisfy the relation with the assigned ones: the textbook's
    #: forward check, as the built-in constraints do. Forward checking then skips a binary
    #: constraint whose other variable is assigned already (that variable's own forward
    #: check did the work). A subclass is trusted with it as with `proven_when_fixed`.
    forward_checks_fully = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = vars(cls)
        checks = {"propagate", "forward_check", "consistent"}
        for promise in ("proven_when_fixed", "forward_checks_fully"):
            if promise not in own and checks & set(own):
                setattr(cls, promise, False)

    def __init__(self, scope: Iterable[Hashable], name: str | None = None):
        self.scope: tuple[Hashable, ...] = tuple(scope)
        self.name = name or f"{type(self).__name__}({', '.join(map(_short, self.scope))})"

    @abstractmethod
    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        """Whether a complete assignment of the scope satisfies the relation."""

    def check_domains(self, domains: Mapping[Hashable, Sequence[Any]]) -> None:
        """Refuse domains the relation cannot read (`CSP.add_constraint` calls it).

        The default accepts anything; `Sum`, for one, needs numbers.
        """
        return None

    def consistent(self, assignment: Mapping[Hashable, Any]) -> bool:
        """Check for plain backtracking: can a partial assignment still satisfy this?

        The default waits until the whole scope is assigned.
        """
        if all(var in assignment for var in self.scope):
            return self.is_satisfied(assignment)
        return True

    def propagate(self, state: SearchState) -> None:
        """Default propagator: generalized forward checking.

        Once at most one variable of the scope is unfixed, keep only its values that
        satisfy the relation together with the fixed ones (fail if none do).
        """
        unfixed = [v for v in self.scope if len(state.domains[v]) > 1]
        if len(unfixed) > 1:
            return
        values = {v: state.value(v) for v in self.scope if v not in unfixed}
        if not unfixed:
            if not self.is_satisfied(values):
                state.fail(None, self.name)
            return
        var = unfixed[0]
        for x in state.values(var):
            values[var] = x
            if not self.is_satisfied(values):
                state.remove(var, x, self.name)

    def forward_check(self, state: SearchState, var: Hashable) -> None:
        """Prune right after the search assigned `var` (forward checking)."""
        self.propagate(state)

    def forward_check_from(self, var: Hashable, domains: Mapping[Hashable, Sequence[Any]]
                           ) -> tuple[Conflicts | None, Callable[[SearchState, Hashable], None]]:
        """How forward checking reads this constraint after each assignment of `var`
        (`domains`: the initial domains): for a constraint over two variables that forward
        checks fully, which values of the other variable each value of `var` rules out,
        removed without a call (None: there is no such table); and what it calls otherwise,
        `forward_check` or a version of it made ready for `var` ahead of time. The default:
        (None, `forward_check`)."""
        return None, self.forward_check

    def explain(self, cause: str, removals: Mapping[Hashable, Sequence[Any]],
                read: Mapping[Hashable, Sequence[Any]], words: Words) -> str | None:
        """A deduction of this constraint in words, for a hint (hints.py): `cause` is the
        rule that fired, `removals` what it removed, `read` the domains it read (as they
        were before); `words` names variables and values as the puzzle does. None (the
        default): the hint's generic sentence."""
        return None

    def breach(self, values: Mapping[Hashable, Any], words: Words) -> Breach | None:
        """Why this constraint cannot hold, in words, once it cannot (checking.py: the
        board breaks it): `values` holds its variables that have one value (decided or
        given). None (the default): the generic sentence."""
        return None

    def suppositions(self, state: SearchState) -> list[Supposition] | None:
        """For a rule that deduces by supposing ("if this edge carried 2 bridges, a group
        would close, so it carries fewer"): every deduction it can make now, each the
        variable, the values that go (a supposition that it takes one of them fails) and
        the cause. A hint zooms into each one (hints.py). None (the default): the rule
        supposes nothing."""
        return None

    def __repr__(self) -> str:
        return self.name


class Supposition(NamedTuple):
    """A deduction by supposing: `var` cannot take `values`, because supposing it takes one
    of them leads to a contradiction (`cause` says which rule found it, and where)."""

    var: Hashable
    values: tuple[Any, ...]
    cause: str


def _short(var: Hashable) -> str:
    if isinstance(var, tuple):
        return "(" + ",".join(map(str, var)) + ")"
    return str(var)


class AllDifferent(Constraint):
    """All variables take different values.

    With `gac=True` (the default) `propagate` keeps exactly the values that belong to some
    matching of variables to distinct values (Régin's algorithm): for instance two cells
    that can only hold {1, 2} remove 1 and 2 from the rest of the row. With `gac=False` it
    only removes the value of each fixed variable from the others, which is what forward
    checking does and what most textbooks start with.
    """

    proven_when_fixed = True  # two fixed equal values: the second removal empties a domain
    forward_checks_fully = True

    def __init__(self, variables: Iterable[Hashable], name: str | None = None, gac: bool = True):
        super().__init__(variables, name)
        self.gac = gac
        self.idempotent = gac

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        seen = [values[v] for v in self.scope]
        return len(set(seen)) == len(seen)

    def consistent(self, assignment: Mapping[Hashable, Any]) -> bool:
        seen = [assignment[v] for v in self.scope if v in assignment]
        return len(set(seen)) == len(seen)

    def forward_check(self, state: SearchState, var: Hashable) -> None:
        value = state.value(var)
        for other in self.scope:
            if other != var:
                state.remove(other, value, self.name)

    def propagate(self, state: SearchState) -> None:
        if self.gac:
            self._propagate_gac(state)
        else:
            self._propagate_fixed(state)

    def _propagate_fixed(self, state: SearchState) -> None:
        """Remove fixed values from the other variables until nothing changes."""
        done: set[Hashable] = set()
        changed = True
        while changed:
            changed = False
            for var in self.scope:
                if var in done or len(state.domains[var]) != 1:
                    continue
                done.add(var)
                value = state.value(var)
                for other in self.scope:
                    if other != var and state.remove(other, value, self.name):
                        changed = True
        free_values = set().union(*(state.domains[v] for v in self.scope))
        if len(free_values) < len(self.scope):
            state.fail(None, f"{self.name}: {len(self.scope)} variables, {len(free_values)} values")

    def explain(self, cause: str, removals: Mapping[Hashable, Sequence[Any]],
                read: Mapping[Hashable, Sequence[Any]], words: Words) -> str | None:
        """"NT = red, so red leaves WA" when the values removed are those of fixed
        variables (else a Hall set is at work: the generic sentence)."""
        fixed = {var: read[var][0] for var in self.scope
                 if var not in removals and len(read.get(var, ())) == 1}
        gone = {x for values in removals.values() for x in values}
        if not gone <= set(fixed.values()):
            return None
        givers = [words.holds(var, (x,)) for var, x in fixed.items() if x in gone]
        return f"{cause}: {', '.join(givers)}, so {words.removals(removals)}"

    def _propagate_gac(self, state: SearchState) -> None:
        domains = [state.domains[v] for v in self.scope]
        supported = alldifferent_supports(domains)
        if supported is None:
            state.fail(None, f"{self.name}: no way to give every variable its own value")
        for var, domain, keep in zip(self.scope, domains, supported):
            if len(keep) < len(domain):
                for x in [x for x in state.order[var] if x in domain and x not in keep]:
                    state.remove(var, x, self.name)


Number = int | Fraction | Decimal | float


def exact(number: Any, what: str = "value") -> int | Fraction:
    """`number` as an int or a Fraction, so sums never round.

    A float counts as the decimal it prints as (`Fraction(repr(x))`): 0.95 is 19/20, what
    was typed, not the binary double just below it, so `0.01 * 95 == 0.95` holds here.
    """
    if type(number) is int:  # the usual case, before the slower checks of number kinds
        return number
    if isinstance(number, numbers.Integral):
        return int(number)
    if isinstance(number, numbers.Rational):
        return Fraction(int(number.numerator), int(number.denominator))
    if isinstance(number, (Decimal, float)):
        if not math.isfinite(number):
            raise ValueError(f"{what} {number!r} is not a finite number")
        return Fraction(number) if isinstance(number, Decimal) else Fraction(repr(number))
    raise TypeError(f"{what} {number!r} is not a number, expected an int, Fraction, Decimal "
                    "or float")


class Sum(Constraint):
    """sum(weights[i] * variables[i]) == total, propagated on bounds.

    Each term must fit between `total` minus the largest and `total` minus the smallest
    possible sum of the other terms; values outside are removed, repeatedly, until the
    bounds stop moving. Weights default to 1 and may be negative.

    Arithmetic is exact: weights, total and values may be ints, Fractions, Decimals or
    floats, and floats count as the decimal they print as (see `exact`), so no rounding
    ever loses a solution and every inference agrees.
    """

    idempotent = True
    proven_when_fixed = True  # all fixed: the bounds meet, and fail unless they equal total
    forward_checks_fully = True

    def __init__(self, variables: Iterable[Hashable], total: Number,
                 weights: Sequence[Number] | None = None, name: str | None = None):
        variables = tuple(variables)
        self.total = exact(total, "Sum: total")
        given = tuple(weights) if weights is not None else (1,) * len(variables)
        if len(given) != len(variables):
            raise ValueError(f"Sum: {len(given)} weights for {len(variables)} variables, "
                             "expected one weight per variable")
        self.weights = tuple(exact(w, "Sum: weight") for w in given)
        #: each variable's values as exact numbers (None while every value is an int)
        self._numbers: dict[Hashable, dict[Any, int | Fraction]] | None = None
        self._checked = False
        #: what propagation computes with: integers when every value is an int
        self._weights: tuple[int | Fraction, ...] = self.weights
        self._total: int | Fraction = self.total
        super().__init__(variables, name or f"Sum({', '.join(map(_short, variables))}) = {total}")

    def check_domains(self, domains: Mapping[Hashable, Sequence[Any]]) -> None:
        """Every value must be a number (`CSP.add_constraint` asks, so misuse fails early).

        Ints, the usual case, are numbers as they are: only other values are converted
        (and the error message written) one by one.
        """
        value_types = set(map(type, chain.from_iterable(map(domains.__getitem__, self.scope))))
        all_ints = value_types <= {int}
        numbers: dict[Hashable, dict[Any, int | Fraction]] = {}
        if not all_ints:
            for var in self.scope:
                what = f"Sum: value of {_short(var)}"
                numbers[var] = {x: exact(x, what) for x in domains[var]}
        self._numbers = None if all_ints else numbers
        self._checked = True
        fractional = [x for x in (self.total, *self.weights) if type(x) is not int]
        if all_ints and fractional:  # scale them to integers: same solutions, int arithmetic
            scale = math.lcm(*(Fraction(x).denominator for x in fractional))
            self._weights = tuple(int(w * scale) for w in self.weights)
            self._total = int(self.total * scale)

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        terms = [values[v] for v in self.scope]
        if all(type(x) is int for x in terms):  # exact already (the final check, mostly)
            return sum(map(operator.mul, self.weights, terms)) == self.total
        return sum(w * exact(values[v], f"Sum: value of {_short(v)}")
                   for v, w in zip(self.scope, self.weights)) == self.total

    def consistent(self, assignment: Mapping[Hashable, Any]) -> bool:
        if all(v in assignment for v in self.scope):
            return self.is_satisfied(assignment)
        return True

    def propagate(self, state: SearchState) -> None:
        if not self._checked:
            self.check_domains(state.order)
        domains = state.domains
        terms = list(zip(self.scope, self._weights))
        total = self._total
        numbers = self._numbers
        while True:
            lows, highs = [], []
            for v, w in terms:
                if numbers is None:  # all ints: the values are the numbers
                    smallest, largest = min(domains[v]), max(domains[v])
                else:
                    smallest = min(numbers[v][x] for x in domains[v])
                    largest = max(numbers[v][x] for x in domains[v])
                lows.append(w * smallest if w >= 0 else w * largest)
                highs.append(w * largest if w >= 0 else w * smallest)
            low, high = sum(lows), sum(highs)
            if low > total or high < total:
                state.fail(None, f"{self.name}: sum lies in {low}..{high}")
            pruned = False
            for (var, w), term_low, term_high in zip(terms, lows, highs):
                if w == 0:
                    continue
                # this term must lie in [total - (high - term_high), total - (low - term_low)]
                least = total - (high - term_high)
                most = total - (low - term_low)
                doomed = [x for x in state.order[var] if x in domains[var] and not
                          least <= w * (x if numbers is None else numbers[var][x]) <= most]
                for x in doomed:
                    state.remove(var, x, self.name)
                    pruned = True
            if not pruned:
                return


class Table(Constraint):
    """The scope's values must form one of the `allowed` tuples (an extensional relation).

    Propagation keeps a value when some allowed tuple that fits every current domain uses it
    (generalized arc consistency by supports).
    """

    idempotent = True
    proven_when_fixed = True  # all fixed: the fixed tuple is allowed or nothing is supported
    forward_checks_fully = True

    def __init__(self, variables: Iterable[Hashable], allowed: Iterable[Sequence[Any]],
                 name: str | None = None):
        super().__init__(variables, name)
        self.allowed = [tuple(t) for t in allowed]
        self._allowed_set = set(self.allowed)
        if any(len(t) != len(self.scope) for t in self.allowed):
            raise ValueError(f"{self.name}: every tuple needs {len(self.scope)} values")

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return tuple(values[v] for v in self.scope) in self._allowed_set

    def propagate(self, state: SearchState) -> None:
        domains = [state.domains[v] for v in self.scope]
        supported: list[set[Any]] = [set() for _ in self.scope]
        for row in self.allowed:
            if all(x in d for x, d in zip(row, domains)):
                for seen, x in zip(supported, row):
                    seen.add(x)
        if not supported[0]:
            state.fail(None, f"{self.name}: no allowed tuple fits the domains")
        for var, domain, keep in zip(self.scope, domains, supported):
            if len(keep) < len(domain):
                state.keep_only(var, keep, self.name)


class Predicate(Constraint):
    """Any relation given as a Python function of the scope's values, in scope order.

    Propagation enumerates: when at most two variables of the scope are unfixed, a value
    stays only if some combination with the other unfixed variable satisfies `function`
    (arc consistency, so binary predicates get full AC-3 under MAC). With more unfixed
    variables it waits.
    """

    idempotent = True
    proven_when_fixed = True  # all fixed: the one combination left is tested
    forward_checks_fully = True

    def __init__(self, function: Callable[..., bool], variables: Iterable[Hashable],
                 name: str | None = None):
        if not callable(function):
            hint = " (the function comes first)" if callable(variables) else ""
            raise TypeError(f"Predicate(function, variables): {function!r} is not callable"
                            f"{hint}")
        variables = tuple(variables)
        label = getattr(function, "__name__", "predicate")
        super().__init__(variables, name or f"{label}({', '.join(map(_short, variables))})")
        self.function = function
        #: the two variables of a binary predicate (None otherwise): forward checking's case
        self._pair: tuple[Hashable, Hashable] | None = None
        if len(variables) == 2:
            x, y = self._pair = variables
            #: (revised variable, other variable, test in that order, residues)
            self._directions: tuple[tuple[Hashable, Hashable, Callable[[Any, Any], bool],
                                          dict[Any, Any]], ...]
            self._directions = ((x, y, function, {}),
                                (y, x, lambda b, a: function(a, b), {}))

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return bool(self.function(*(values[v] for v in self.scope)))

    def forward_check(self, state: SearchState, var: Hashable) -> None:
        """On a pair, forward checking is one direction of revise: `var` has one value, so
        keep the other variable's values that agree with it (the value of `var` then has a
        support exactly when something is left, and `remove` fails otherwise).

        Skipped when the other variable is assigned: its own forward check already kept in
        `var`'s domain only the values that agree with it (as AIMA's forward checking, which
        looks at unassigned neighbours only).
        """
        if self._pair is None:
            self.propagate(state)
            return
        x, y = self._pair
        other = y if var == x else x
        if other not in state.assignment:
            self._remove_disagreeing(state, var, other)

    def forward_check_from(self, var: Hashable, domains: Mapping[Hashable, Sequence[Any]]
                           ) -> tuple[Conflicts | None, Callable[[SearchState, Hashable], None]]:
        """On a pair of two variables that this class's own `forward_check` (not a
        subclass's) forward checks fully: the values of the other variable that each value
        of `var` rules out, worked out on first use (`Conflicts`; None on domains of more
        than `CONFLICTS_KEPT_UP_TO` values, tested value by value instead), and the forward
        check from `var` with the other variable and the order of the test settled ahead of
        time. Forward checking calls it only while the other variable is unassigned (see
        `forward_checks_fully`), which is what `forward_check` tests first. Otherwise, as
        every constraint: (None, `forward_check`)."""
        pair = self._pair
        if (pair is None or pair[0] == pair[1] or not self.forward_checks_fully
                or type(self).forward_check is not Predicate.forward_check):
            return None, self.forward_check
        x, y = pair
        other = y if var == x else x
        _, _, holds, _ = self._directions[0 if var == x else 1]  # holds(var's value, other's)
        conflicts = (Conflicts(holds, domains[other])
                     if len(domains[other]) <= CONFLICTS_KEPT_UP_TO else None)
        return conflicts, partial(self._remove_disagreeing, other=other)

    def _remove_disagreeing(self, state: SearchState, var: Hashable, other: Hashable) -> None:
        """Remove `other`'s values that disagree with the single value of `var`: one
        direction of revise (`_directions`: the one that revises `other`)."""
        _, _, agrees, _ = self._directions[0 if other == self._directions[0][0] else 1]
        (value,) = state.domains[var]
        state.remove_all(other, [b for b in state.domains[other] if not agrees(b, value)],
                         self.name)

    def propagate(self, state: SearchState) -> None:
        if len(self.scope) == 2:
            self._revise_pair(state)
            return
        unfixed = [i for i, v in enumerate(self.scope) if len(state.domains[v]) > 1]
        if len(unfixed) > 2:
            return
        domains = [state.values(v) for v in self.scope]
        supported: list[set[Any]] = [set() for _ in self.scope]
        state.stats.checks += 1
        for tried, combo in enumerate(product(*domains)):
            if not tried % 4096:
                state.check_deadline()
            if self.function(*combo):
                for seen, x in zip(supported, combo):
                    seen.add(x)
        if not supported[0]:
            state.fail(None, f"{self.name} cannot hold")
        for i in unfixed:
            var = self.scope[i]
            if len(supported[i]) < len(domains[i]):
                state.keep_only(var, supported[i], self.name)

    def _revise_pair(self, state: SearchState) -> None:
        """AC-3's revise, both ways: a value stays if some value of the other variable fits.

        The last support found for each value is remembered (a "residue", as in Lecoutre
        and Hemery's AC-3rm; see REFERENCES.md) and tried first next time: usually it is
        still there, and one membership test suffices.
        Residues are only hints, so backtracking never makes them wrong. Removing values of
        y that x does not support cannot remove a support of x, so one pass each way is enough.
        """
        domains = state.domains
        for var, other, holds, residue in self._directions:
            domain, others = domains[var], domains[other]
            doomed = []
            for a in domain:
                if residue.get(a, _NO_SUPPORT) in others:
                    continue
                state.check_deadline()  # each scan below may take long on big domains
                for b in others:
                    if holds(a, b):
                        residue[a] = b
                        break
                else:
                    doomed.append(a)
            if doomed:
                for a in sorted(doomed, key=state.rank[var].__getitem__):
                    state.remove(var, a, self.name)


_NO_SUPPORT = object()
#: the largest domain whose `Conflicts` a binary predicate keeps (at most this many values
#: per value assigned; larger domains are tested value by value)
CONFLICTS_KEPT_UP_TO = 256


class Conflicts(dict[Any, frozenset[Any]]):
    """For one direction of a binary constraint: each value of one variable -> the values of
    the other variable it rules out.

    A relation gives the same answer every time, so each value's conflicts are worked out
    once, the first time the value is looked up (`__missing__`), and kept for the search;
    from then on forward checking removes them with one set operation and no call of the
    constraint's function (as a table of the relation would, built only where used).
    """

    def __init__(self, holds: Callable[[Any, Any], bool], others: Sequence[Any]):
        super().__init__()
        self.holds, self.others = holds, others

    def __missing__(self, value: Any) -> frozenset[Any]:
        ruled_out = self[value] = frozenset(b for b in self.others if not self.holds(value, b))
        return ruled_out
