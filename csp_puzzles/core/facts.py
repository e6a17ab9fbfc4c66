"""Facts and their reasons: the implication graph that looking back reads.

A search that looks back (lookback.py, learning.py) wants to know *why* each value went.
`ExplainingState` keeps it. Every change of a domain is a **fact**, a literal of the search
(reasons.py): a decision `x = v`, or a removal `x ≠ w`. Each fact has its time stamp on the
trail, the level (the number of decisions) at which it came, and a **reason**: the facts
that forced it, which are older.

The reason of a removal is one shape, a sequence of items each standing for a set of
facts (reasons.py): a variable (every value it has lost), a bound (`Least`, `Most`: the
values lost below or above what is left), or a literal. The propagator gives it (in
`state.reason`, when `state.explaining`); when it says nothing, its constraint's scope is
the reason, which is always true (a propagator decides from the domains of its scope).
Reasons are kept as given; one reader, `facts_of`, turns a reason into the facts it
stands for, when someone asks.

Read from a conflict backwards, the facts form the implication graph. Learning reads it
only at a conflict, and resolves it back to its first unique implication point
(analysis.py). Backjumping asks only which decisions lie behind a conflict, at every
conflict: so each removal also keeps them as it happens (`behind`, a set of levels), the
levels behind the facts its reason reads (`levels_read`). A variable read whole is read
through `blamed`, which holds what its facts hold, kept as they come (most reasons read
whole variables, and reading each of their facts at every removal would cost).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, cast

from .reasons import Least, Literal, Most
from .state import Contradiction, SearchState

if TYPE_CHECKING:
    from .activity import Activity
    from .csp import CSP
    from .nogoods import Nogood

#: the reason of a decision's removals: the decision itself
DECIDED = "decided"
#: the reason of a removal nobody explained (no constraint at work): every decision
EVERY_DECISION = ("every decision",)
_tuple = tuple.__new__  # makes a NamedTuple without calling its Python-level __new__: a
# removal makes one at every step of the search


class Fact(NamedTuple):
    """A literal of the search, when it came (`stamp`, counting facts in trail order) and
    at which `level` (the decisions in force then)."""

    literal: Literal
    stamp: int
    level: int


class ExplainingState(SearchState):
    """A `SearchState` whose every fact keeps its reason (see the module docstring).

    `removed[var][value]` = (reason, fact, behind) of the value's removal, valid while the
    value is gone (a value put back and removed again gets a new entry); a decision's
    removals have the reason `DECIDED` and the decision's own fact. `behind` is the set of
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
        #: whether the levels behind each removal are kept (`start_blaming`)
        self.blaming = False
        #: `blamed[var]`: the levels behind every removal of `var` in force, and its
        #: decision's level while it is decided (what a reason reading `var` whole reads)
        self.blamed: dict[Hashable, int] = {}
        #: (trail length after a removal, variable, its `blamed` before), for `undo`; a
        #: decision's entry, at the trail length before it, is taken back by `retract`
        self._blame_trail: list[tuple[int, Hashable, int]] = []
        self._owner: Any = None  # the constraint whose scope's levels `_owner_levels` holds
        self._owner_levels = 0
        #: the conflict activity of the variables, for `var_order="activity"` (activity.py)
        self.activity: Activity | None = None

    # -- recording ---------------------------------------------------------------------------
    def remove(self, var: Hashable, value: Any, cause: str | None = None) -> bool:
        if value not in self.domains[var]:
            self.reason = None
            return False
        reason, constraint = self.reason, self.constraint
        if reason is None:
            reason = constraint.scope if constraint is not None else EVERY_DECISION
        else:
            self.reason = None
        self.clock += 1
        fact = _tuple(Fact, (_tuple(Literal, (var, False, value)), self.clock, self.depth))
        behind = self._behind(var, reason, constraint) if self.blaming else 0
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
        level = 1 << fact.level if self.blaming else 0
        entry, removed = (DECIDED, fact, level), self.removed[var]
        for other in self.domains[var]:
            if other != value:
                removed[other] = entry
        if level:
            self._blame_trail.append((len(self._trail), var, self.blamed[var]))
            self.blamed[var] |= level
            self._owner = None
        super().assign(var, value)
        self.decided[var] = fact

    def fail(self, var: Hashable = None, cause: str | None = None) -> NoReturn:
        """Give up on this branch for the reason the propagator gave, if it gave one (the
        least values of an island's edges, say, rather than everything its edges lost)."""
        failure = Contradiction(var, cause or self.cause)
        failure.reason, self.reason = self.reason, None
        raise failure

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

    # -- reading the implication graph -------------------------------------------------------
    def facts_of(self, reason: Any, before: float) -> list[Fact]:
        """The facts behind a reason, all older than `before` (a stamp).

        A variable stands for every value it lost; a bound for the values beyond it; a
        literal `x = v` for the decision, or else for every other value's removal;
        `EVERY_DECISION` for the decisions. Facts of the root level are left out: they
        hold before any decision, so no conflict needs them.
        """
        if reason is EVERY_DECISION:
            return [fact for fact in self.decided.values() if fact.stamp < before]
        facts: list[Fact] = []
        removed, domains, decided = self.removed, self.domains, self.decided
        # the inner loop of a conflict analysis: tuples unpacked rather than read by name
        for item in reason:
            kind = type(item)
            if kind is Literal:
                var, equal, value = item
                if not equal:  # x ≠ w: its removal
                    facts.append(removed[var][value][1])
                    continue
                decision = decided.get(var)
                if decision is not None and decision[1] < before:  # x = v: the decision,
                    facts.append(decision)
                else:  # or every other value's removal
                    facts += self._removals(var, before)
            elif kind is Least or kind is Most:
                facts += self._bound(cast(Least | Most, item).var, kind is Least, before)
            else:  # a variable: every value it lost
                domain = domains[item]
                for value, (_, fact, _) in removed[item].items():
                    _, stamp, level = fact
                    if level and stamp < before and value not in domain:
                        facts.append(fact)
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

    def _bound(self, var: Hashable, least: bool, before: float) -> list[Fact]:
        """The removals that had raised `var`'s least value (`least`), or lowered its
        greatest one, by then: those beyond the values it still had then (the values left
        now, and those gone since)."""
        domain = self.domains[var]
        gone: list[tuple[Any, Fact]] = []
        edge = None  # the least (greatest) value `var` had then
        if domain:
            edge = min(domain) if least else max(domain)
        for value, (_, fact, _) in self.removed[var].items():
            if value in domain:
                continue
            _, stamp, level = fact
            if stamp < before:
                if level:
                    gone.append((value, fact))
            elif edge is None or (value < edge if least else value > edge):
                edge = value
        if edge is None:  # nothing left then: every removal counts
            return [fact for _, fact in gone]
        if least:
            return [fact for value, fact in gone if value < edge]
        return [fact for value, fact in gone if value > edge]

    def conflict_facts(self, failure: Contradiction) -> list[Fact]:
        """The facts a wipe-out starts from (the conflict side of the graph).

        A domain emptied by a removal: the removal's own reason, and the other values'
        removals (the last removal itself is resolved at once: "x has no value" alone is
        no nogood). A constraint that cannot hold: its reason, or its scope.
        """
        now = self.clock + 1
        wiped = getattr(failure, "wiped", None)
        if wiped is not None:
            entries = self.removed[wiped]
            last = max(entries, key=lambda value: entries[value][1].stamp)
            why, fact, _ = entries[last]
            if why is DECIDED:
                return self._removals(wiped, now)
            return [entries[value][1] for value in entries if value != last] + \
                self.facts_of(why, fact.stamp)
        if failure.reason is not None:
            return self.facts_of(failure.reason, now)
        if failure.constraint is not None and failure.constraint.scope:
            scope = list(failure.constraint.scope)
            if failure.var is not None:
                scope.append(failure.var)
            return self.facts_of(scope, now)
        return self.facts_of(EVERY_DECISION, now)

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
        (lookback.py), and nothing more. A removal's levels are those behind the facts its
        reason reads (`levels_read`)."""
        self.blaming = True
        self.blamed = dict.fromkeys(self.csp.variables, 0)

    def _behind(self, var: Hashable, reason: Any, constraint: Any) -> int:
        """The levels behind a removal from `var` happening now (`reason` as stored by
        `remove`: the constraint's scope when the propagator said nothing, read once per
        run of that constraint); `blamed[var]` gains them."""
        if reason is EVERY_DECISION:
            levels = (1 << (self.depth + 1)) - 2
        elif constraint is not None and reason is constraint.scope:
            if constraint is not self._owner:
                self._owner, self._owner_levels = constraint, self.levels_read(reason)
            levels = self._owner_levels
        else:
            levels = self.levels_read(reason)
        old = self.blamed[var]
        if levels | old != old:
            self.blamed[var] = levels | old
            self._blame_trail.append((len(self._trail) + 1, var, old))
        return levels

    def levels_read(self, reason: Any) -> int:
        """The levels behind what a reason reads now: those behind the facts `facts_of`
        reads, and for a variable read whole its decision's too (even one that removed
        nothing: its one value was read).

        A variable read whole is read through `blamed`, which holds what its facts hold
        (the same levels, kept as they come: most reasons read whole variables); a bound
        or a literal through its facts.
        """
        if reason is EVERY_DECISION:
            return (1 << (self.depth + 1)) - 2
        levels = 0
        blamed = self.blamed
        for item in reason:
            kind = type(item)
            if kind is Least or kind is Most or kind is Literal:
                levels |= self.levels_behind(self.facts_of((item,), self.clock + 1))
            else:
                levels |= blamed[item]
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
        emptied, or what the failure's reason reads, or its constraint's scope."""
        wiped = getattr(failure, "wiped", None)
        if wiped is not None:
            return self.blamed[wiped]
        if failure.reason is not None:
            return self.levels_read(failure.reason)
        if failure.constraint is not None and failure.constraint.scope:
            levels = self.levels_read(failure.constraint.scope)
            if failure.var is not None:
                levels |= self.blamed[failure.var]
            return levels
        return self.levels_read(EVERY_DECISION)

    def levels_of_variable(self, var: Hashable) -> int:
        """The decisions behind every value `var` has lost (and its own, if decided)."""
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
