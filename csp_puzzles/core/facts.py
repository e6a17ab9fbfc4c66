"""Facts and their reasons: the implication graph that looking back reads.

A search that looks back (lookback.py, learning.py) wants to know *why* each value went.
`ExplainingState` keeps it. Every change of a domain is a **fact**, a literal of the search
(reasons.py): a decision `x = v`, or a removal `x ≠ w`. Each fact has its time stamp on the
trail, the level (the number of decisions) at which it came, and a **reason**: the
literals that forced it, facts older than it. A decision has none.

The propagator gives the reason (in `state.reason`, when `state.explaining`), built with
`lost`, `below` and `above` from the facts as they stand; when it says nothing, its
constraint's scope read whole is the reason (`ScopeRead`), which is always true (a
propagator decides from the domains of its scope). One reader, `facts_of`, turns literals
into their facts.

Read from a conflict backwards, the facts form the implication graph. Learning reads it
only at a conflict, and resolves it back to its first unique implication point
(`learning.first_uip`). Backjumping asks only which decisions lie behind a conflict, at every
conflict: so each removal also keeps them as it happens (`behind`, a set of levels), the
levels behind the facts of its reason (`levels_read`). For a scope read whole those are
read through `blamed`, which holds, for each variable, the levels behind the facts it lost,
kept as they come (most reasons are scopes, and reading each of their facts at every
removal would cost).
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from .reasons import Literal, Reason
from .state import Contradiction, SearchState

if TYPE_CHECKING:
    from .activity import Activity, OrderHeap
    from .csp import CSP
    from .nogoods import Nogood

#: the reason of a decision's removals: none, the decision is a choice
DECIDED: Reason = ()
_tuple = tuple.__new__  # makes a NamedTuple without calling its Python-level __new__: a
# removal makes one at every step of the search


class Fact(NamedTuple):
    """A literal of the search, when it came (`stamp`, counting facts in trail order) and
    at which `level` (the decisions in force then)."""

    literal: Literal
    stamp: int
    level: int


def _failure_scope(failure: Contradiction) -> list[Hashable] | None:
    """The variables a failed constraint that gave no reason is charged with: its scope,
    and the variable the failure names; None when no constraint is known."""
    if failure.constraint is None or not failure.constraint.scope:
        return None
    scope = list(failure.constraint.scope)
    if failure.var is not None:
        scope.append(failure.var)
    return scope


class ScopeRead:
    """The reason of a removal whose propagator said nothing: its constraint's scope read
    whole, as it stood then (each value the scope had lost, older than `stamp`). Literals
    like any reason, written out only when read: a conflict reads a few reasons, and a
    search makes one at nearly every removal.

    It reaches the state through a weak reference: the state keeps its reasons, and a
    reason that kept the state would make a cycle only the garbage collector frees."""

    __slots__ = ("state", "scope", "stamp")

    def __init__(self, state: weakref.ref[ExplainingState], scope: Sequence[Hashable],
                 stamp: int):
        self.state, self.scope, self.stamp = state, scope, stamp

    def __iter__(self) -> Iterator[Literal]:
        state = self.state()
        assert state is not None, "a reason is read while its search lives"
        removed, domains, stamp = state.removed, state.domains, self.stamp
        for var in self.scope:
            domain = domains[var]
            for value, (_, fact, _) in removed[var].items():
                if fact[2] and fact[1] < stamp and value not in domain:
                    yield fact[0]


class ExplainingState(SearchState):
    """A `SearchState` whose every fact keeps its reason (see the module docstring).

    `removed[var][value]` = (reason, fact, behind) of the value's removal, valid while the
    value is gone (a value put back and removed again gets a new entry); a decision's
    removals have no reason (`DECIDED`) and the decision's own fact. `behind` is the set of
    levels (bits) of the decisions behind the removal, kept only for backjumping
    (`start_blaming`; 0 otherwise). `decided[var]` is the fact of a decision `var = value`.
    """

    explaining = True

    def __init__(self, csp: CSP, stats: Any = None, trace: Any = None):
        super().__init__(csp, stats, trace)
        self.removed: dict[Hashable, dict[Any, tuple[Any, Fact, int]]] = {
            v: {} for v in csp.variables}
        self.decided: dict[Hashable, Fact] = {}
        self.clock = 0
        self._reasons: dict[Literal, tuple[int, list[Fact]]] = {}  # see `reason_of`
        self._itself = weakref.ref(self)  # what its `ScopeRead` reasons hold
        #: whether the levels behind each removal are kept (`start_blaming`)
        self.blaming = False
        #: `blamed[var]`: the levels behind every removal of `var` in force (the decision's
        #: level for the values its decision took away): what reading `var` whole reads
        self.blamed: dict[Hashable, int] = {}
        #: (trail length after a removal, variable, its `blamed` before), for `undo`; a
        #: decision's entry, at the trail length before it, is taken back by `retract`
        self._blame_trail: list[tuple[int, Hashable, int]] = []
        self._owner: Any = None  # the constraint whose scope's levels `_owner_levels` holds
        self._owner_levels = 0
        #: the conflict activity of the variables, for `var_order="activity"` (activity.py)
        self.activity: Activity | None = None
        self.activity_heap: OrderHeap | None = None  # made by `most_active` (activity.py)

    # -- recording ---------------------------------------------------------------------------
    def remove(self, var: Hashable, value: Any, cause: str | None = None) -> bool:
        if value not in self.domains[var]:
            self.reason = None
            return False
        reason, constraint = self.reason, self.constraint
        self.clock += 1
        whole_scope = reason is None and constraint is not None
        if reason is None:  # nothing said: the scope read whole, or (no constraint at
            # work) every decision
            reason = ScopeRead(self._itself, constraint.scope, self.clock) if whole_scope \
                else self.decisions()
        else:
            self.reason = None
        fact = _tuple(Fact, (_tuple(Literal, (var, False, value)), self.clock, self.depth))
        behind = self._behind(var, reason, constraint if whole_scope else None) \
            if self.blaming else 0
        self.removed[var][value] = (reason, fact, behind)
        try:
            return super().remove(var, value, cause)
        except Contradiction as failure:
            failure.wiped = var
            raise

    def assign(self, var: Hashable, value: Any) -> None:
        """The decision's removals share its fact (and its level, for backjumping)."""
        self.clock += 1
        fact = _tuple(Fact, (_tuple(Literal, (var, True, value)), self.clock, self.depth + 1))
        others = [other for other in self.domains[var] if other != value]
        level = 1 << fact.level if self.blaming and others else 0
        entry, removed = (DECIDED, fact, level), self.removed[var]
        for other in others:
            removed[other] = entry
        if self.blaming:  # a decision that removes nothing is behind nothing
            self._blame_trail.append((len(self._trail), var, self.blamed[var]))
            self.blamed[var] |= level
            self._owner = None
        super().assign(var, value)
        self.decided[var] = fact

    def retract(self, var: Hashable) -> None:
        """Close the decision's level (after `undo`): its fact, and its level in `blamed`."""
        self.decided.pop(var, None)
        if self.blaming:
            _, decided, old = self._blame_trail.pop()
            self.blamed[decided] = old
        super().retract(var)

    def undo(self, mark: int) -> None:
        super().undo(mark)
        if self.blaming:
            trail, blamed = self._blame_trail, self.blamed
            while trail and trail[-1][0] > mark:
                _, var, old = trail.pop()
                blamed[var] = old
            self._owner = None

    # -- reasons, as literals (reasons.py) -----------------------------------------------------
    def lost(self, var: Hashable) -> list[Literal]:
        """The facts behind `var`'s domain: each value it lost (its decision, for the values
        the decision took away), but at the root."""
        domain = self.domains[var]
        return [fact[0] for value, (_, fact, _) in self.removed[var].items()
                if fact[2] and value not in domain]

    def below(self, var: Hashable) -> list[Literal]:
        """The facts behind `var`'s least value: the values it lost below it (every value
        below it is lost)."""
        domain = self.domains[var]
        if not domain:
            return self.lost(var)
        least = min(domain)
        return [fact[0] for value, (_, fact, _) in self.removed[var].items()
                if value < least and fact[2]]

    def above(self, var: Hashable) -> list[Literal]:
        """The facts behind `var`'s greatest value: the values it lost above it."""
        domain = self.domains[var]
        if not domain:
            return self.lost(var)
        most = max(domain)
        return [fact[0] for value, (_, fact, _) in self.removed[var].items()
                if value > most and fact[2]]

    def decisions(self) -> list[Literal]:
        """The decisions in force: the reason of a removal no constraint explains."""
        return [fact[0] for fact in self.decided.values()]

    # -- reading the implication graph -------------------------------------------------------
    def facts_of(self, reason: Reason, before: float) -> list[Fact]:
        """The facts of a reason's literals, all older than `before` (a stamp): `x ≠ w` is
        its removal; `x = v` the decision, or else every other value's removal."""
        facts: list[Fact] = []
        removed, decided = self.removed, self.decided
        # the inner loop of a conflict analysis: tuples unpacked rather than read by name
        for var, equal, value in reason:
            if not equal:
                facts.append(removed[var][value][1])
                continue
            decision = decided.get(var)
            if decision is not None and decision[1] < before:
                facts.append(decision)
            else:
                facts += self._removals(var, before)
        return facts

    def _removals(self, var: Hashable, before: float) -> list[Fact]:
        """The removals from `var` older than `before` (the domain it had then), but the
        root's."""
        domain, facts = self.domains[var], []
        for value, (_, fact, _) in self.removed[var].items():
            _, stamp, level = fact
            if level and stamp < before and value not in domain:
                facts.append(fact)
        return facts

    def conflict_facts(self, failure: Contradiction) -> list[Fact]:
        """The facts a wipe-out starts from (the conflict side of the graph).

        A domain emptied by a removal: the removal's own reason, and the other values'
        removals (the last removal itself is resolved at once: "x has no value" alone is
        no nogood). A constraint that cannot hold: its reason, or its scope read whole.
        """
        now = self.clock + 1
        wiped = getattr(failure, "wiped", None)
        if wiped is not None:
            entries = self.removed[wiped]
            last = max(entries, key=lambda value: entries[value][1].stamp)
            why, fact, _ = entries[last]
            if fact.literal.equal:  # the decision emptied it
                return self._removals(wiped, now)
            return [entries[value][1] for value in entries if value != last] + \
                self.facts_of(why, fact.stamp)
        return self.facts_of(self._failure_reason(failure), now)

    def _failure_reason(self, failure: Contradiction) -> Reason:
        """What a failed constraint read: its reason, or its scope read whole
        (`_failure_scope`); every decision when no constraint is known."""
        if failure.reason is not None:
            return failure.reason
        scope = _failure_scope(failure)
        return self.decisions() if scope is None else self.read(scope)

    def reason_of(self, fact: Fact) -> list[Fact]:
        """The facts behind a removal (read once, then remembered while the removal stands:
        the facts behind it are older, so they stand too)."""
        literal, stamp, _ = fact
        known = self._reasons.get(literal)
        if known is not None and known[0] == stamp:
            return known[1]
        facts = self.facts_of(self.removed[literal.var][literal.value][0], stamp)
        self._reasons[literal] = (stamp, facts)
        return facts

    # -- the decisions behind the facts, for backjumping ---------------------------------------
    def start_blaming(self) -> None:
        """Keep, as the facts come, the decisions behind each removal (`behind`, a set of
        levels): backjumping asks at every conflict which decisions lie behind it
        (lookback.py), and nothing more."""
        self.blaming = True
        self.blamed = dict.fromkeys(self.csp.variables, 0)

    def _behind(self, var: Hashable, reason: Reason, whole_scope: Any) -> int:
        """The levels behind a removal from `var` happening now; `blamed[var]` gains them.
        When the reason is the scope of `whole_scope` (a constraint) read whole, they are
        read through `blamed` (`levels_of_scope`), once per run of that constraint: the
        same levels as the reason's facts, read faster."""
        if whole_scope is None:
            levels = self.levels_read(reason)
        else:
            if whole_scope is not self._owner:
                self._owner = whole_scope
                self._owner_levels = self.levels_of_scope(whole_scope.scope)
            levels = self._owner_levels
        old = self.blamed[var]
        if levels | old != old:
            self.blamed[var] = levels | old
            self._blame_trail.append((len(self._trail) + 1, var, old))
        return levels

    def levels_read(self, reason: Reason) -> int:
        """The levels behind a reason's facts as they stand."""
        return self.levels_behind(self.facts_of(reason, self.clock + 1))

    def levels_of_scope(self, scope: Sequence[Hashable]) -> int:
        """The levels behind a scope read whole (`levels_read(read(scope))`), from
        `blamed`."""
        levels, blamed = 0, self.blamed
        for var in scope:
            levels |= blamed[var]
        return levels

    def levels_behind(self, facts: list[Fact]) -> int:
        """The levels of the decisions behind some facts: a decision's own, a removal's
        `behind`."""
        levels, removed = 0, self.removed
        for literal, _, level in facts:
            if literal.equal:
                levels |= 1 << level
            else:
                levels |= removed[literal.var][literal.value][2]
        return levels

    def levels_of(self, failure: Contradiction) -> int:
        """The decisions behind a failure (its conflict set): behind the variable it
        emptied, or what the failure read."""
        wiped = getattr(failure, "wiped", None)
        if wiped is not None:
            return self.blamed[wiped]
        scope = _failure_scope(failure) if failure.reason is None else None
        if scope is not None:
            return self.levels_of_scope(scope)
        return self.levels_read(self._failure_reason(failure))

    def levels_of_variable(self, var: Hashable) -> int:
        """The decisions behind every value `var` has lost."""
        return self.blamed[var]

    # -- literals, for nogoods -------------------------------------------------------------
    def holds(self, literal: Literal) -> bool:
        domain = self.domains[literal.var]
        if literal.equal:
            return len(domain) == 1 and literal.value in domain
        return literal.value not in domain

    def is_false(self, literal: Literal) -> bool:
        domain = self.domains[literal.var]
        if literal.equal:
            return literal.value not in domain
        return len(domain) == 1 and literal.value in domain

    def said(self, nogood: Nogood) -> str:
        """A nogood as the cause of a removal: in words when a trace shows it (a long
        nogood takes a while to write out, at every removal it makes)."""
        return nogood.name if self.trace is not None else "nogood"

    def make_false(self, literal: Literal, reason: Sequence[Literal], cause: str) -> None:
        """Remove `x = v`'s value, or (for `x ≠ w`) every value of x but w, for `reason`."""
        var = literal.var
        doomed = [literal.value] if literal.equal else [
            x for x in self.order[var] if x != literal.value and x in self.domains[var]]
        for value in doomed:
            self.reason = reason
            self.remove(var, value, cause)
