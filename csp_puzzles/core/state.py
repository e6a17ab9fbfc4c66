"""The changing part of a search: current domains, the assignment, and the trail.

Propagators prune through `SearchState.remove` (or `keep_only`), never by editing sets
directly: every removal goes on the trail, so a backtrack can put it back, and into the
trace, so a notebook can show it. A removal that empties a domain raises `Contradiction`.

A constraint that keeps data of its own during a search (an incremental structure, say)
keeps it in `state.data(constraint, make)`, one copy per search, and registers with
`state.on_undo(function)` how to take back a change: the trail calls `function` when a
backtrack passes that point, in the same last-in first-out order as the domain values.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from .errors import LimitReached
from .reasons import Literal
from .stats import Stats
from .trace import ASSIGN, PRUNE, SPLIT, Trace

if TYPE_CHECKING:
    from .constraints import Constraint
    from .csp import CSP

#: marks a trail entry that holds an undo function instead of a removed value
_UNDO_HOOK = object()
#: marks a trail entry that holds several removals from one domain at once: (var, values)
#: (a decision's, or a forward check's: one entry, undone at once)
_REMOVED_ALL = object()


class Contradiction(Exception):
    """A domain became empty, or a constraint can no longer hold: this branch fails.

    A global constraint may list in `blame` the variables its failure is really about, so
    that the failure weights of dom/wdeg land on them (see heuristics.credit_failure).
    """

    blame: tuple[Hashable, ...] = ()
    #: the constraint that failed, when the propagation loop knows it
    constraint: Any = None
    #: what the failure read, when the constraint can say (sharper than its whole scope:
    #: literals, see reasons.py; only when looking back)
    reason: Any = None
    #: the variable whose domain a removal emptied, when the search looks back
    wiped: Any = None

    def __init__(self, var: Hashable = None, cause: str | None = None):
        # no message built here (nor `args` set again: `Exception.__new__` did it): a
        # search fails at many nodes, and prints none of them
        self.var = var
        self.cause = cause
        #: the constraint that failed, when known (the inference fills it in)
        self.constraint: Constraint | None = None

    def __str__(self) -> str:
        where = f" on {self.var!r}" if self.var is not None else ""
        return f"{self.cause or 'contradiction'}{where}"


class SearchState:
    """Domains, assignment and trail of one search.

    `explaining` is True when the search looks back and wants to know why values go.

    `domains[var]` is a set; read it freely but change it only through `remove` and
    `keep_only`. `values(var)` gives the remaining values in the domain's input order.
    """

    explaining = False

    def __init__(self, csp: CSP, stats: Stats | None = None, trace: Trace | None = None,
                 domains: Mapping[Hashable, Iterable[Any]] | None = None):
        self.csp = csp
        self.order = csp.domains
        #: position of each value in its domain's input order, to sort removals the same way
        self.rank = csp.rank
        #: the values left to each variable, keyed in the variables' order (`unassigned`
        #: relies on it): the CSP's domains, or `domains` (values of the CSP's domains, as
        #: another state's: a copy to try things on)
        start = csp.domains if domains is None else domains
        self.domains: dict[Hashable, set[Any]] = dict(zip(csp.domains, map(set, map(
            start.__getitem__, csp.domains))))
        self.assignment: dict[Hashable, Any] = {}
        self.stats = stats if stats is not None else Stats()
        self.trace = trace
        self.depth = 0
        self.cause: str | None = None  # who is pruning now, for the trace
        self.constraint: Any = None  # the constraint pruning now, for explanations
        #: a propagator may set the literals that force its next removal, when
        #: `explaining` says someone listens (looking back: see reasons.py)
        self.reason: Any = None
        self.changed: set[Hashable] = set()  # variables pruned since the queue last looked
        self.unfixed = sum(1 for d in self.domains.values() if len(d) > 1)
        #: under MAC a variable down to one value needs no decision: the search skips it
        self.fixed_is_decided = False
        #: failure weights of constraints for dom/wdeg (see heuristics.credit_failure)
        self.weights: dict[Constraint, int] = {}
        #: each variable's weighted degree (the sum of its constraints' weights), built by
        #: `heuristics.weighted_degrees` when dom/wdeg first asks, then kept up to date
        self.wdeg: dict[Hashable, int] | None = None
        #: each variable's constraints as forward checking reads them (see
        #: inference.forward_plan), made at the first forward check
        self.forward_plan: dict[Hashable, list[Any]] | None = None
        self._trail: list[tuple[Any, Any]] = []
        self._data: dict[Constraint, Any] = {}
        self._scope_domains: dict[Constraint, list[set[Any]]] = {}
        #: when the search must stop (a `time.perf_counter()` value), or None
        self.deadline: float | None = None
        #: phase saving: the value each variable last held before a backtrack took it back
        #: (decided or forced), kept only when a dict is given (see heuristics.saved_phase)
        self.phases: dict[Hashable, Any] | None = None
        #: the variables given a choice back (by `undo` or `retract`) since the reader last
        #: emptied it, kept only when a list is given (activity.py's heap reads it)
        self.reopened: list[Hashable] | None = None

    # -- reading ---------------------------------------------------------------------------
    def values(self, var: Hashable) -> list[Any]:
        """Remaining values of `var`, in the order its domain was given."""
        return list(filter(self.domains[var].__contains__, self.order[var]))

    # -- what a propagator read, as literals (reasons.py) -----------------------------------
    def lost(self, var: Hashable) -> list[Literal]:
        """`var ≠ w` for every value `var` has lost: what reading its whole domain reads."""
        domain = self.domains[var]
        return [Literal(var, False, w) for w in self.order[var] if w not in domain]

    def below(self, var: Hashable) -> list[Literal]:
        """The values `var` lost below its least value: what reading that value reads."""
        domain = self.domains[var]
        least = min(domain, default=None)
        return [Literal(var, False, w) for w in self.order[var]
                if w not in domain and (least is None or w < least)]

    def above(self, var: Hashable) -> list[Literal]:
        """The values `var` lost above its greatest value: what reading that value reads."""
        domain = self.domains[var]
        most = max(domain, default=None)
        return [Literal(var, False, w) for w in self.order[var]
                if w not in domain and (most is None or w > most)]

    def read(self, scope: Iterable[Hashable]) -> list[Literal]:
        """A scope read whole: what each of its domains lost."""
        return [literal for var in scope for literal in self.lost(var)]

    def size(self, var: Hashable) -> int:
        return len(self.domains[var])

    def is_fixed(self, var: Hashable) -> bool:
        """True when a single value is left (whether or not the search assigned it)."""
        return len(self.domains[var]) == 1

    def value(self, var: Hashable) -> Any:
        """The single remaining value of a fixed variable (None when not fixed)."""
        domain = self.domains[var]
        if len(domain) != 1:
            return None
        return next(iter(domain))

    def scope_domains(self, constraint: Constraint) -> list[set[Any]]:
        """The domains of `constraint`'s scope, in its order.

        A state changes its domains in place and never replaces one, so the list is made
        at a constraint's first call and stays true all search long: a propagator that runs
        at every node reads its domains without looking each variable up again.
        """
        found = self._scope_domains.get(constraint)
        if found is None:
            found = self._scope_domains[constraint] = list(
                map(self.domains.__getitem__, constraint.scope))
        return found

    def min(self, var: Hashable) -> Any:
        return min(self.domains[var])

    def max(self, var: Hashable) -> Any:
        return max(self.domains[var])

    def unassigned(self) -> list[Hashable]:
        """Variables the search still has to decide, in input order.

        Under MAC (`fixed_is_decided`) a variable whose domain is down to one value is
        decided already, so it is not listed.
        """
        if self.fixed_is_decided:  # asked at every node: `domains` holds the variables in
            # input order, and is read without looking names up (a tuple's hash is not
            # kept: each lookup would compute it again)
            return [var for var, domain in self.domains.items() if len(domain) > 1]
        assigned = self.assignment
        return [v for v in self.csp.variables if v not in assigned]

    def check_deadline(self) -> None:
        """Raise `LimitReached` once the search's deadline has passed (long propagations
        call it)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise LimitReached("time limit reached")

    # -- pruning ---------------------------------------------------------------------------
    def remove(self, var: Hashable, value: Any, cause: str | None = None) -> bool:
        """Remove `value` from `var`'s domain; True if it was there.

        Raises `Contradiction` when the domain becomes empty.
        """
        domain = self.domains[var]
        try:  # the value is nearly always there: one lookup, not two
            domain.remove(value)
        except KeyError:
            return False
        self._trail.append((var, value))
        self.changed.add(var)
        self.stats.prunings += 1
        if self.trace is not None:
            self.trace.record(PRUNE, var, value, cause or self.cause, self.depth)
        size = len(domain)
        if size <= 1:
            if size == 0:
                raise Contradiction(var, cause or self.cause)
            self.unfixed -= 1
        return True

    def remove_all(self, var: Hashable, values: Collection[Any], cause: str | None = None) -> bool:
        """Remove every one of `values` still in `var`'s domain, as one step: one trail
        entry, one undo (forward checking does this at every node, where a call of `remove`
        per value costs). True if anything was removed.

        Raises `Contradiction` when the domain becomes empty. When a trace records each
        removal, or the search looks back and explains each one, it removes them one by one
        (in the domain's order, as the trace shows them).
        """
        domain = self.domains[var]
        doomed = domain.intersection(values)
        if not doomed:
            return False
        if self.trace is not None or self.explaining:
            for value in sorted(doomed, key=self.rank[var].__getitem__):
                self.remove(var, value, cause)
            return True
        before = len(domain)
        domain -= doomed
        self._trail.append((_REMOVED_ALL, (var, doomed)))
        self.changed.add(var)
        self.stats.prunings += len(doomed)
        if before > 1 >= len(domain):
            self.unfixed -= 1
        if not domain:
            raise Contradiction(var, cause or self.cause)
        return True

    def keep_only(self, var: Hashable, allowed: Iterable[Any], cause: str | None = None) -> bool:
        """Remove every value of `var` not in `allowed`; True if anything was removed."""
        allowed = allowed if isinstance(allowed, (set, frozenset)) else set(allowed)
        doomed = [x for x in self.order[var] if x in self.domains[var] and x not in allowed]
        for x in doomed:
            self.remove(var, x, cause)
        return bool(doomed)

    def fix(self, var: Hashable, value: Any, cause: str | None = None) -> bool:
        """Keep only `value` for `var` (raises `Contradiction` if it is gone already)."""
        if value not in self.domains[var]:
            raise Contradiction(var, cause or self.cause)
        return self.keep_only(var, (value,), cause)

    def fail(self, var: Hashable = None, cause: str | None = None) -> NoReturn:
        """Give up on this branch: the caller's constraint cannot hold, for the reason it
        gave, if it gave one (when someone listens, `explaining`: the least values of an
        island's edges, say, rather than everything its edges lost)."""
        failure = Contradiction(var, cause or self.cause)
        if self.reason is not None:
            failure.reason, self.reason = self.reason, None
        raise failure

    # -- a constraint's own data ----------------------------------------------------------
    def data(self, constraint: Constraint, make: Callable[[], Any]) -> Any:
        """The data `constraint` keeps for this search, made by `make()` on first use."""
        found = self._data.get(constraint)
        if found is None:
            found = self._data[constraint] = make()
        return found

    def on_undo(self, function: Callable[[], None]) -> None:
        """Have a backtrack past this point call `function` (to undo a constraint's data)."""
        self._trail.append((_UNDO_HOOK, function))

    def removals_since(self, mark: int) -> list[tuple[Hashable, Any]]:
        """The (variable, value) removals on the trail since `mark`, oldest first."""
        removals: list[tuple[Hashable, Any]] = []
        for var, value in self._trail[mark:]:
            if var is _REMOVED_ALL:
                var, others = value
                removals += [(var, x) for x in others]
            elif var is not _UNDO_HOOK:
                removals.append((var, value))
        return removals

    def changed_since(self, mark: int) -> set[Hashable]:
        """The variables that lost values since `mark` (and still miss them): a constraint
        that keeps what it last saw (`data`, `on_undo`) reads only these again."""
        changed: set[Hashable] = set()
        for var, value in self._trail[mark:]:
            if var is _REMOVED_ALL:
                changed.add(value[0])
            elif var is not _UNDO_HOOK:
                changed.add(var)
        return changed

    # -- assigning and undoing (used by the search) ----------------------------------------
    def mark(self) -> int:
        """A point to come back to with `undo`."""
        return len(self._trail)

    def undo(self, mark: int) -> None:
        """Put back every value removed since `mark` (and call the undo hooks met)."""
        trail = self._trail
        domains = self.domains
        phases, reopened = self.phases, self.reopened
        for _ in range(len(trail) - mark):
            var, value = trail.pop()
            if var is _REMOVED_ALL:  # as if its values came back one by one
                var, others = value
                domain = domains[var]
                size = len(domain)
                if size <= 1 and size + len(others) > 1:
                    self.unfixed += 1
                    if phases is not None:
                        phases[var] = next(iter(domain or others))
                    if reopened is not None:
                        reopened.append(var)
                domain.update(others)
                continue
            if var is _UNDO_HOOK:
                value()
                continue
            domain = domains[var]
            if len(domain) == 1:
                self.unfixed += 1
                if phases is not None:
                    phases[var] = next(iter(domain))
                if reopened is not None:
                    reopened.append(var)
            domain.add(value)

    def probe(self, var: Hashable, value: Any,
              then: Callable[[SearchState, Hashable], None]) -> int | None:
        """What if `var = value`? Keep only that value, run `then(self, var)` (a propagation),
        and undo it all.

        Returns how many values it removed, or None when it ends in a contradiction (so
        `value` is impossible here). A probe is a look-ahead, not part of the story: it
        records nothing in the trace and leaves the statistics as they were.
        """
        mark, prunings = self.mark(), self.stats.prunings
        trace, self.trace = self.trace, None
        try:
            self.keep_only(var, (value,), "probe")
            then(self, var)
            return self.stats.prunings - prunings
        except Contradiction:
            return None
        finally:
            self.undo(mark)
            self.stats.prunings = prunings
            self.trace = trace

    def assign(self, var: Hashable, value: Any) -> None:
        """The search's decision `var = value`: every other value leaves the domain.

        Written out rather than through `remove`: a decision is not a pruning (no trace
        event but the assign itself, no count), and this runs at every node.
        """
        self.assignment[var] = value
        self.depth += 1
        domain = self.domains[var]
        if len(domain) > 1:
            domain.discard(value)
            others = list(domain)
            domain.clear()
            domain.add(value)
            self._trail.append((_REMOVED_ALL, (var, others)))  # one entry: undone at once
            self.changed.add(var)
            self.unfixed -= 1
        elif value not in domain:
            raise Contradiction(var, "assign")
        if self.trace is not None:
            self.trace.record(ASSIGN, var, value, None, self.depth)

    def restrict(self, var: Hashable, values: Iterable[Any]) -> None:
        """The search's decision `var in values` (domain splitting): the rest leaves.

        The trace gets a `split` event (a new level) and then the removals, named "split".
        """
        kept = tuple(values)
        self.depth += 1
        if self.trace is not None:
            self.trace.record(SPLIT, var, kept, None, self.depth)
        prunings = self.stats.prunings  # a decision is not a pruning
        try:
            self.keep_only(var, kept, "split")
        finally:
            self.stats.prunings = prunings

    def retract(self, var: Hashable) -> None:
        """Close the level `assign` or `restrict` opened on `var` (after `undo`)."""
        self.assignment.pop(var, None)
        self.depth -= 1
        if self.reopened is not None:
            self.reopened.append(var)
