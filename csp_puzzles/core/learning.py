"""Learning from conflicts: 1-UIP nogoods over the implication graph.

Backjumping (lookback.py) blames *decisions*. A nogood made of decisions is nearly the
whole path, so it hardly ever fires again. SAT solvers learn something sharper, and so
does this search (AIMA 6.3.3, then the SAT solvers' way):

1. **Every fact on the trail keeps its reason.** A fact is a literal: a decision `x = v`,
   or a removal `x ≠ w`. The reason of a removal is what the propagator read: variables
   (every value they had lost), bounds (`Least`, `Most`: only the removals below or above
   what is left, see reasons.py), literals (a nogood's), or, when the propagator says
   nothing, its whole scope. Reasons are kept as given and read out only when a conflict
   needs them, so that a removal costs little.
2. **The implication graph.** Read that way, each fact points at the older facts that
   forced it: a graph from the decisions down to the conflict.
3. **The first UIP.** From a wipe-out, replace the newest fact of the current level by its
   reason, again and again, until one fact of the current level is left: the first
   *unique implication point*, a fact through which every path from the level's decision
   to the conflict runs. The facts left (that one, and facts of earlier levels) cannot all
   hold: that is the **nogood** learnt, "x = 2 and y ≠ 0 cannot both hold", less the facts
   that follow from its others anyway.
4. **The nogood asserts.** Undo the conflict's level: the nogood's other facts, all from
   earlier levels, still hold, so the nogood at once forbids the UIP fact there, a fact the
   search did not know at that level. (SAT solvers jump further back, to the deepest level
   of the other facts, where the nogood is just as unit; on Hashi that cost more; see
   `LearningSearch._assert`.)
5. **Propagation.** The nogood stays as a constraint, watched on two literals (a nogood
   costs nothing until one of its watched literals holds), and fires again wherever all
   its literals but one hold.

When there are too many, the nogoods whose literals span most levels are forgotten (see
`NogoodStore.forget`).

Counting stays exact. A nogood follows from the constraints by resolution, so it never
removes a solution; what must not happen is a subtree counted twice. So a level whose
subtree already held a solution is undone only once that subtree is done, and its decision
is then forbidden under the levels above, as chronological backtracking does (`counted`
below).
"""

from __future__ import annotations

import heapq
from collections.abc import Generator, Hashable, Iterable
from dataclasses import dataclass, replace
from typing import Any, NoReturn, cast

from .activity import Activity
from .budget import check_max_nodes, check_timeout
from .constraints import Constraint
from .csp import CSP
from .inference import node_consistency
from .inference import propagate as arc_consistency
from .reasons import Least, Literal, Most
from .search import Result, Search, first_solution
from .state import Contradiction, SearchState
from .trace import BACKTRACK, LEARN

#: nogoods kept at most; past this the worse half is forgotten
MAX_NOGOODS = 5000
#: restarts rephase to the best assignment seen, but every this many to no phase at all
ORIGINAL_PHASE_EVERY = 4
#: how deep `LiteralState.implied` follows reasons before it gives up (keeps the literal)
MINIMIZE_DEPTH = 30
#: facts named on one line of `Analysis.describe` (the others are counted)
FACTS_SHOWN = 8
#: the reason of a decision's removals: the decision itself
DECIDED = "decided"
#: a fact: its literal, its time stamp on the trail, its level
Fact = tuple[Literal, int, int]


class LiteralState(SearchState):
    """A `SearchState` whose every fact keeps its reason, for conflict analysis.

    `removed[var][value]` = (reason, fact) of the value's removal, valid while the value is
    gone (a value put back and removed again gets a new entry); a fact is (literal, stamp,
    level), and a decision's removals hold the decision's own fact. `decided[var]` = (value,
    stamp, level) of a decision. Stamps count facts in trail order.
    """

    explaining = True

    def __init__(self, csp: CSP, stats: Any = None, trace: Any = None):
        super().__init__(csp, stats, trace)
        self.removed: dict[Hashable, dict[Any, tuple[Any, Fact]]] = {
            v: {} for v in csp.variables}
        self.decided: dict[Hashable, tuple[Any, int, int]] = {}
        self.clock = 0
        self._reasons: dict[Literal, tuple[int, list[Fact]]] = {}  # see `reason_of`
        #: the conflict activity of the variables, for `var_order="activity"` (activity.py)
        self.activity: Activity | None = None

    def remove(self, var: Hashable, value: Any, cause: str | None = None) -> bool:
        if value not in self.domains[var]:
            self.reason = None
            return False
        reason = self.reason
        if reason is None:
            reason = self.constraint  # its whole scope (None: unknown, every decision)
        else:
            self.reason = None
        self.clock += 1
        self.removed[var][value] = (reason, (Literal(var, False, value), self.clock, self.depth))
        try:
            return super().remove(var, value, cause)
        except Contradiction as failure:
            failure.wiped = var
            raise

    def assign(self, var: Hashable, value: Any) -> None:
        self.clock += 1
        stamp, level, removed = self.clock, self.depth + 1, self.removed[var]
        entry = (DECIDED, (Literal(var, True, value), stamp, level))
        for other in self.domains[var]:
            if other != value:
                removed[other] = entry
        super().assign(var, value)
        self.decided[var] = (value, stamp, level)

    def fail(self, var: Hashable = None, cause: str | None = None) -> NoReturn:
        """Give up on this branch for the reason the propagator gave, if it gave one (the
        least values of an island's edges, say, rather than everything its edges lost)."""
        failure = Contradiction(var, cause or self.cause)
        failure.reason, self.reason = self.reason, None
        raise failure

    def unassign(self, var: Hashable) -> None:
        del self.decided[var]
        super().unassign(var)

    # -- reading the implication graph -----------------------------------------------------
    def facts_of(self, reason: Any, before: float) -> list[Fact]:
        """Step 1: the facts behind a reason, all older than `before` (a stamp).

        A constraint stands for its scope; None (nobody said) for every decision; a
        variable for every value it lost; a bound for the values beyond it; a literal
        `x = v` for the decision, or else for every other value's removal. Facts of the
        root level are left out: they hold before any decision, so no nogood needs them.
        """
        if reason is None:
            return [(Literal(var, True, value), stamp, level)
                    for var, (value, stamp, level) in self.decided.items() if stamp < before]
        items = reason.scope if isinstance(reason, Constraint) else reason
        facts: list[Fact] = []
        removed, domains = self.removed, self.domains
        for item in items:
            kind = type(item)
            if kind is Least or kind is Most:
                facts += self._bound(cast(Least | Most, item).var, kind is Least, before)
            elif kind is Literal:
                literal = cast(Literal, item)
                if not literal.equal:
                    facts.append(removed[literal.var][literal.value][1])
                    continue
                decision = self.decided.get(literal.var)
                if decision is not None and decision[1] < before:
                    facts.append((literal, decision[1], decision[2]))
                else:
                    facts += self._removals(literal.var, before)
            else:  # a variable: the inner loop of a conflict analysis, written out
                domain = domains[item]
                for value, (_, fact) in removed[item].items():
                    if fact[2] and fact[1] < before and value not in domain:
                        facts.append(fact)
        return facts

    def _removals(self, var: Hashable, before: float) -> list[Fact]:
        """The removals from `var` older than `before` (the domain it had then), but the
        root's."""
        domain = self.domains[var]
        return [fact for value, (_, fact) in self.removed[var].items()
                if fact[2] and fact[1] < before and value not in domain]

    def _bound(self, var: Hashable, least: bool, before: float) -> list[Fact]:
        """The removals that had raised `var`'s least value (`least`), or lowered its
        greatest one, by then: those beyond the values it still had then (the values left
        now, and those gone since)."""
        domain = self.domains[var]
        gone: list[tuple[Any, Fact]] = []
        edge = None  # the least (greatest) value `var` had then
        if domain:
            edge = min(domain) if least else max(domain)
        for value, (_, fact) in self.removed[var].items():
            if value in domain:
                continue
            if fact[1] < before:
                if fact[2]:
                    gone.append((value, fact))
            elif edge is None or (value < edge if least else value > edge):
                edge = value
        if edge is None:  # nothing left then: every removal counts
            return [fact for _, fact in gone]
        if least:
            return [fact for value, fact in gone if value < edge]
        return [fact for value, fact in gone if value > edge]

    def conflict_facts(self, failure: Contradiction) -> list[Fact]:
        """Step 2: the facts a wipe-out starts from (the conflict side of the graph).

        A domain emptied by a removal: the removal's own reason, and the other values'
        removals (the last removal itself is resolved at once: "x has no value" alone is
        no nogood). A constraint that cannot hold: its reason, or its scope.
        """
        now = self.clock + 1
        wiped = getattr(failure, "wiped", None)
        if wiped is not None:
            entries = self.removed[wiped]
            last = max(entries, key=lambda value: entries[value][1][1])
            why, fact = entries[last]
            if why is DECIDED:
                return self._removals(wiped, now)
            return [entries[value][1] for value in entries if value != last] + \
                self.facts_of(why, fact[1])
        if failure.reason is not None:
            return self.facts_of(failure.reason, now)
        if failure.constraint is not None and failure.constraint.scope:
            scope = list(failure.constraint.scope)
            if failure.var is not None:
                scope.append(failure.var)
            return self.facts_of(scope, now)
        return self.facts_of(None, now)

    def analyse(self, conflict: list[Fact], top: int,
                steps: list[tuple[Fact, list[Fact]]] | None = None
                ) -> tuple[Fact, list[Fact]]:
        """Step 3: the first UIP of level `top` (the conflict's deepest), and the facts of
        earlier levels.

        The facts of level `top` wait in a heap, newest first; the newest is replaced by
        its reason until one is left (each replacement goes into `steps`, if given: the
        implication graph, read backwards). Facts of the root level always hold and are
        dropped; facts of earlier levels are kept for the nogood, unless their own reason
        is there already (`implied`).
        """
        seen: set[Literal] = set()
        here: list[tuple[int, Fact]] = []
        earlier: list[Fact] = []

        def mark(facts: Iterable[Fact]) -> None:
            for fact in facts:
                literal, stamp, level = fact
                if literal in seen or level == 0:
                    continue
                seen.add(literal)
                if level == top:
                    heapq.heappush(here, (-stamp, fact))
                else:
                    earlier.append(fact)

        mark(conflict)
        while len(here) > 1:
            _, fact = heapq.heappop(here)
            reason = self.reason_of(fact)  # never a decision: the decision is oldest
            if steps is not None:
                steps.append((fact, reason))
            mark(reason)
        levels = {level for _, _, level in earlier}
        known: dict[Literal, bool] = {}
        return here[0][1], [fact for fact in earlier
                            if not self.implied(fact, seen, levels, known)]

    def implied(self, fact: Fact, seen: set[Literal], levels: set[int],
                known: dict[Literal, bool], depth: int = 0) -> bool:
        """Whether a removal follows from the other facts of the nogood: its reason's facts
        are each in the nogood, or follow from it in turn (a fact of a level the nogood
        does not touch cannot). Then saying it again adds nothing."""
        literal = fact[0]
        if literal.equal or depth > MINIMIZE_DEPTH:
            return False
        answer = known.get(literal)
        if answer is None:
            answer = True
            for other in self.reason_of(fact):
                if other[0] not in seen and (other[2] not in levels or not self.implied(
                        other, seen, levels, known, depth + 1)):
                    answer = False
                    break
            known[literal] = answer
        return answer

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

    def make_false(self, literal: Literal, reason: list[Literal], cause: str) -> None:
        """Remove `x = v`'s value, or (for `x ≠ w`) every value of x but w, for `reason`."""
        var = literal.var
        doomed = [literal.value] if literal.equal else [
            x for x in self.order[var] if x != literal.value and x in self.domains[var]]
        for value in doomed:
            self.reason = reason
            self.remove(var, value, cause)


def shorter(literals: list[Fact], state: LiteralState, uip: Fact) -> list[Fact]:
    """The facts of a nogood besides its UIP, said shortly: `x = v` makes `x ≠ w`
    redundant, and removals that leave x one value (with those gone at the root) read as
    `x = v`."""
    decided = {f[0].var for f in [uip, *literals] if f[0].equal}
    removals: dict[Hashable, list[Fact]] = {}
    kept: list[Fact] = []
    for fact in literals:
        literal = fact[0]
        if literal.equal:
            kept.append(fact)
        elif literal.var not in decided:
            removals.setdefault(literal.var, []).append(fact)
    for var, facts in removals.items():
        gone = {f[0].value for f in facts}
        at_root = {x for x, (_, fact) in state.removed[var].items()
                   if fact[2] == 0 and x not in state.domains[var]}
        left = [x for x in state.order[var] if x not in gone and x not in at_root]
        if len(left) == 1 and len(facts) > 1:
            newest = max(facts, key=lambda f: f[1])
            kept.append((Literal(var, True, left[0]), newest[1], max(f[2] for f in facts)))
        else:
            kept += facts
    return kept


class Nogood:
    """Literals that cannot all hold: a learnt constraint, watched on two of them.

    Not part of the problem's CSP: the search keeps it in its `NogoodStore`. `glue` is the
    number of levels its literals came from when it was learnt (fewer: a tighter chunk of
    reasoning, likelier to fire again).
    """

    __slots__ = ("literals", "watched", "glue", "_name")

    def __init__(self, literals: list[Literal], glue: int = 0):
        self.literals = literals
        self.watched = [0, 1] if len(literals) > 1 else [0, 0]
        self.glue = glue
        self._name: str | None = None

    @property
    def name(self) -> str:
        """"nogood: not (x = 1 and y ≠ 0)", written out when first read (most never are)."""
        if self._name is None:
            self._name = f"nogood: not ({' and '.join(map(str, self.literals))})"
        return self._name

    def words(self) -> tuple[tuple[Hashable, str, Any], ...]:
        """The literals as the trace keeps them: (variable, "=" or "≠", value)."""
        return tuple((lit.var, "=" if lit.equal else "≠", lit.value) for lit in self.literals)


class NogoodStore:
    """Learnt nogoods, each watched on two literals, and a forgetting policy.

    A watch waits for its literal to hold; then the nogood either watches another literal
    that does not hold yet, or (all others hold) makes the other watched literal false.
    `units` (one literal) are re-applied at the root of every run.
    """

    def __init__(self, limit: int = MAX_NOGOODS):
        self.limit = limit
        self.nogoods: list[Nogood] = []
        self.units: list[Nogood] = []
        self.watches: dict[Literal, list[Nogood]] = {}
        self.learnt = 0
        #: which variables the conflicts were about (activity.py): kept across restarts too
        self.activity = Activity()

    def __len__(self) -> int:
        return len(self.nogoods) + len(self.units)

    def add(self, nogood: Nogood) -> None:
        """Keep a nogood (its first two literals are watched: the caller orders them)."""
        self.learnt += 1
        if len(nogood.literals) == 1:
            self.units.append(nogood)
            return
        if len(self.nogoods) >= self.limit:
            self.forget()
        self.nogoods.append(nogood)
        self._watch(nogood)

    def _watch(self, nogood: Nogood) -> None:
        for i in nogood.watched:
            self.watches.setdefault(nogood.literals[i], []).append(nogood)

    def forget(self) -> None:
        """Keep the better half: fewest levels first (a nogood over few levels is a tight
        piece of reasoning, and it fires again soon), the newest among equals."""
        ranked = sorted(range(len(self.nogoods)), key=lambda i: (self.nogoods[i].glue, -i))
        keep = sorted(ranked[:len(self.nogoods) // 2])
        self.nogoods = [self.nogoods[i] for i in keep]
        self.watches = {}
        for nogood in self.nogoods:
            self._watch(nogood)

    def propagate(self, state: LiteralState, literals: Iterable[Literal]) -> None:
        """Visit the nogoods watching `literals`, which have just come to hold."""
        watches = self.watches
        for literal in literals:
            watching = watches.get(literal)
            if not watching:
                continue
            staying: list[Nogood] = []
            watches[literal] = staying
            for position, nogood in enumerate(watching):
                try:
                    if not self._visit(state, nogood, literal):
                        staying.append(nogood)
                except Contradiction:
                    staying.extend(watching[position:])
                    raise

    def _visit(self, state: LiteralState, nogood: Nogood, literal: Literal) -> bool:
        """`literal` now holds: move this watch elsewhere (True), or stay and maybe fire."""
        lits, watched = nogood.literals, nogood.watched
        here = 0 if lits[watched[0]] == literal else 1
        other = lits[watched[1 - here]]
        if state.is_false(other):
            return False  # satisfied: nothing to do
        for i, candidate in enumerate(lits):
            if i != watched[0] and i != watched[1] and not state.holds(candidate):
                watched[here] = i
                self.watches.setdefault(candidate, []).append(nogood)
                return True
        # every literal but `other` holds: `other` must not
        rest = [lit for lit in lits if lit is not other]
        if state.holds(other):
            failure = Contradiction(None, state.said(nogood))
            failure.reason = lits
            raise failure
        state.make_false(other, rest, state.said(nogood))
        return False


@dataclass
class Analysis:
    """One conflict analysis, kept for reading (`LearningSearch.graphs`): the facts of the
    wipe-out, each fact replaced by its reason (newest first), and the nogood learnt."""

    conflict: list[Fact]
    steps: list[tuple[Fact, list[Fact]]]
    nogood: Nogood

    def describe(self, most: int = FACTS_SHOWN) -> str:
        """The implication graph read backwards from the conflict, one line a step (the
        facts of the root level, true before any decision, only counted). A step that came
        from many facts (a propagator that could only blame its whole scope) names the
        `most` newest and counts the rest, so that the read-out stays readable."""
        def said(facts: Iterable[Fact]) -> str:
            facts = sorted(dict.fromkeys(facts), key=lambda f: -f[1])
            shown = [fact for fact in facts if fact[2] > 0]
            words = [f"{lit} (level {level})" for lit, _, level in shown[:most]]
            if len(shown) > most:
                rest = shown[most:]
                levels = sorted({level for _, _, level in rest})
                span = f"level {levels[0]}" if len(levels) == 1 else \
                    f"levels {levels[0]}-{levels[-1]}"
                words.append(f"and {len(rest)} more ({span})")
            root = len(facts) - len(shown)
            if root:
                words.append(f"{root} fact{'s' * (root > 1)} of the root")
            return ", ".join(words) or "nothing"

        lines = [f"conflict: {said(self.conflict)} cannot all hold"]
        for fact, reason in self.steps:
            lines.append(f"  {fact[0]} came from {said(reason)}")
        lines.append(f"first UIP: {self.nogood.literals[0]}")
        lines.append(f"learnt: {self.nogood.name}")
        return "\n".join(lines)


class LearningSearch(Search):
    """Depth-first search that learns a 1-UIP nogood at each wipe-out.

    Options as for `Search` (one value at a time). A decision is `x = v`; when it fails, the
    search goes back a level and the learnt nogood says what no longer holds there (`x ≠ v`,
    or sharper), and the variable order chooses again. `nogoods` may carry a store from an
    earlier search: a nogood is true of the problem, whichever search learnt it.
    Limits, the final check of a solution and the trace are `Search`'s.

    Restarts (restarts.py) run this one search again and again (`run`): each run after the
    first begins with `restart`, which goes back to level 0 and keeps everything else.
    """

    state: LiteralState
    state_class = LiteralState

    def __init__(self, csp: CSP, *args: Any, nogoods: NogoodStore | None = None,
                 **options: Any):
        if options.get("branching", "assign") != "assign":
            raise ValueError("learning branches one value at a time: branching='assign'")
        super().__init__(csp, *args, **options)
        self.store = nogoods if nogoods is not None else NogoodStore()
        #: bump the variables of each conflict, for a variable order that reads them
        self.bumps = getattr(self.select, "reads_activity", False)
        if self.bumps:
            self.state.activity = self.store.activity
        #: the decisions on the path: (variable, value, trail mark), one per level
        self.path: list[tuple[Hashable, Any, int]] = []
        #: the deepest level whose subtree held a solution: never jumped over (counting)
        self.counted = 0
        self._checked = 0  # trail position the nogood store has looked at
        #: set it to a list to keep every conflict analysis (`Analysis`), for reading
        self.graphs: list[Analysis] | None = None
        #: whether the root's propagation is done (a restart keeps its fixpoint)
        self.rooted = False
        #: the values of the largest consistent assignment met so far (`restart` rephases to
        #: them), how many variables it fixed, and how many restarts there have been
        self.best_phases: dict[Hashable, Any] = {}
        self.best_size = -1
        self.restarts = 0

    # -- runs and restarts -----------------------------------------------------------------
    def run(self, max_nodes: int | None = None, timeout: float | None = None) -> Result:
        """Look for a solution with at most `max_nodes` more nodes and `timeout` seconds: a
        restart's run (restarts.py). The first run starts at the root; each later one
        begins with `restart`. The result's stats are this run's own (`self.stats` adds up
        every run)."""
        if self.rooted:
            self.restart()
        check_max_nodes(max_nodes)
        check_timeout(timeout)
        self.max_nodes = None if max_nodes is None else self.stats.nodes + max_nodes
        self.timeout = timeout
        self.limit_hit = False
        before = replace(self.stats)
        result = first_solution(self)
        return replace(result, stats=self.stats.minus(before))

    def restart(self) -> None:
        """Go back to level 0 and keep all the rest, as SAT solvers restart.

        The decisions are undone, and only they: the root's fixpoint stays (it is not
        propagated again), and so do the propagators' own data, the nogoods and their
        watches, the activities and the failure weights. The phases are set afresh for the
        next run (`_rephase`). A unit nogood learnt during the last run was asserted at the
        level it was learnt at; the next run's `_root` asserts it at level 0.
        """
        self._undo_to(0)
        self.counted = 0
        self.restarts += 1
        if self.keeps_phases:
            self._rephase()

    def _rephase(self) -> None:
        """Choose the phases the next run starts from.

        Phase saving alone starts each run from where the last one failed. Most runs, this
        one starts instead from the *best* assignment met so far, the one that fixed the most
        variables before a conflict: the run that got furthest is the best guess at where a
        solution lies. Every `ORIGINAL_PHASE_EVERY`-th run forgets the phases, so the value
        order's own first choice comes back and a search stuck near one assignment looks
        elsewhere. SAT solvers rephase the same way (Biere and Fleury, 2020, in Kissat). On
        the Coelho Hashi instances this is what took the heavy tail away (`csp-puzzles bench
        hashi`).
        """
        if self.restarts % ORIGINAL_PHASE_EVERY == 0:
            self.phases.clear()
        else:
            self.phases.update(self.best_phases)

    def _note_best(self) -> None:
        """Before a decision (the propagation holds): keep the assignment if it fixes more
        variables than any before it."""
        domains = self.state.domains
        fixed = len(domains) - self.state.unfixed
        if fixed > self.best_size:
            self.best_size = fixed
            self.best_phases = {var: next(iter(domain)) for var, domain in domains.items()
                                if len(domain) == 1}

    # -- the search loop -------------------------------------------------------------------
    def _root(self) -> bool:
        """Node consistency and the inference (once: a restart keeps the root's fixpoint),
        then the unit nogoods learnt so far, which hold from level 0 on."""
        state = self.state
        try:
            if not self.rooted:
                node_consistency(state)
                self.infer(state, None)
                self.rooted = True
            for unit in self.store.units:
                literal = unit.literals[0]
                if state.holds(literal):
                    raise Contradiction(literal.var, state.said(unit))
                if not state.is_false(literal):
                    state.changed.clear()
                    state.make_false(literal, [], state.said(unit))
                    self._propagate(literal.var)
            self._nogoods()
        except Contradiction as failure:
            self._failed(failure)
            return False
        return True

    def _dfs(self) -> Generator[None, None, None]:
        """Decide, propagate; at a wipe-out, learn and go back (steps 2-5); at a solution,
        go back one level and forbid the last decision."""
        state = self.state
        if not self._root():
            return
        while True:
            try:
                if self._complete():
                    found = self._verified()
                    if found:
                        self.counted = state.depth
                        yield None
                    if not self._step_back(None):
                        return
                else:
                    self._branch()
            except Contradiction as failure:
                self._failed(failure)
                if not self._step_back(failure):
                    return

    def _branch(self) -> None:
        """A new level: `x = v` for the variable and value the orders choose."""
        state = self.state
        self._check_limits()
        if self.keeps_phases:
            self._note_best()
        var = self.select(state)
        value = next(iter(self.order(state, var)))
        self.stats.nodes += 1
        self.path.append((var, value, state.mark()))
        state.changed.clear()
        state.assign(var, value)
        self._propagate(var)

    def _step_back(self, failure: Contradiction | None) -> bool:
        """After a wipe-out (or a solution, `failure` None): learn, go back and assert,
        until the propagation holds. False when nothing is left to search."""
        state = self.state
        while True:
            try:
                if failure is None or state.depth <= self.counted:
                    if state.depth == 0:
                        return False
                    self._back_one_level(failure)
                else:
                    conflict = state.conflict_facts(failure)
                    top = max((level for _, _, level in conflict), default=0)
                    if top == 0:
                        return False
                    if top <= self.counted:  # the conflict lies above a counted subtree
                        self._undo_to(top)
                        self._back_one_level(failure)
                    else:
                        steps: list[tuple[Fact, list[Fact]]] | None = (
                            None if self.graphs is None and not self.bumps else [])
                        nogood = self._learn(*state.analyse(conflict, top, steps))
                        if self.bumps and steps is not None:
                            self.store.activity.bump(
                                [lit.var for lit in nogood.literals]
                                + [fact[0].var for fact, _ in steps])
                        if self.graphs is not None and steps is not None:
                            self.graphs.append(Analysis(conflict, steps, nogood))
                        self._assert(nogood, top)
                return True
            except Contradiction as again:
                self._failed(again)
                failure = again

    def _back_one_level(self, failure: Contradiction | None) -> None:
        """Chronological: undo the deepest decision and forbid it under the levels above
        (its subtree is done: a solution counted, or nothing left in it)."""
        state = self.state
        var, value, _ = self.path[-1]
        if failure is not None:
            self.stats.backtracks += 1
        self._undo_to(state.depth - 1)
        self.counted = min(self.counted, state.depth)
        decisions = [Literal(v, True, x) for v, x, _ in self.path]
        state.reason = decisions
        state.remove(var, value, "its subtree is done")
        self._propagate(var)

    def _learn(self, uip: Fact, earlier: list[Fact]) -> Nogood:
        """Step 4: keep the nogood: the UIP first, then the deepest of the other facts (the
        two literals watched: the last to be undone on the way back)."""
        others = shorter(earlier, self.state, uip)
        others.sort(key=lambda f: (-f[2], -f[1]))
        nogood = Nogood([uip[0]] + [f[0] for f in others],
                        glue=len({f[2] for f in others}) + 1)
        self.store.add(nogood)
        self.stats.learnt += 1
        self.stats.learnt_literals += len(nogood.literals)
        self._record_at(LEARN, None, nogood.words(), None, uip[2])
        return nogood

    def _assert(self, nogood: Nogood, level: int) -> None:
        """Step 5: undo the conflict's level; there the nogood makes its UIP literal false.

        SAT solvers go further back, to the deepest level of the nogood's other facts (the
        nogood is unit at every level in between). Measured on Hashi, going back one level
        costs fewer nodes and less time: the levels in between were not wrong, and redoing
        their propagation is what a Python search pays most for (chronological
        backtracking with learnt nogoods, as in Nadel and Ryvchin, 2018).
        """
        self.stats.backtracks += 1
        self._undo_to(level - 1)
        uip = nogood.literals[0]
        self.state.make_false(uip, nogood.literals[1:], self.state.said(nogood))
        self._propagate(uip.var)

    def _undo_to(self, level: int) -> None:
        """Undo every decision deeper than `level`, and what followed from them."""
        state = self.state
        while len(self.path) > level:
            var, value, mark = self.path.pop()
            state.undo(mark)
            state.unassign(var)
            self._checked = min(self._checked, mark)
            self._record(BACKTRACK, var, value, None)

    # -- propagation with nogoods ----------------------------------------------------------
    def _propagate(self, var: Hashable) -> None:
        """The inference from `var` (assigned, or under MAC any variable that lost values),
        then the nogoods."""
        state = self.state
        if self.arc_consistent or var in state.assignment:
            self.infer(state, var)
        self._nogoods(var)

    def _nogoods(self, var: Hashable = None) -> None:
        """Visit the nogoods watching the literals that came to hold since the last visit
        (`x ≠ w` for each removal, `x = v` for each variable left one value); what they
        remove goes through the inference again, to a fixpoint."""
        state, store, domains = self.state, self.store, self.state.domains
        while True:
            removals = state.removals_since(self._checked)
            self._checked = state.mark()
            if not store.nogoods:
                return
            holding: dict[Literal, None] = {}
            for x, value in removals:
                holding[Literal(x, False, value)] = None
                if len(domains[x]) == 1:
                    holding[Literal(x, True, next(iter(domains[x])))] = None
            if var is not None and len(domains[var]) == 1:  # a decision of a fixed variable
                holding[Literal(var, True, next(iter(domains[var])))] = None
            var = None
            if not holding:
                return
            before = state.mark()
            store.propagate(state, holding)
            if state.mark() == before:
                return
            if self.arc_consistent:
                changed = dict.fromkeys(x for x, _ in state.removals_since(before))
                arc_consistency(state, dict.fromkeys(
                    c for x in changed for c in self.csp.constraints_of[x]))

    def _record_at(self, kind: str, var: Hashable, value: Any, cause: str | None,
                   depth: int) -> None:
        """Record an event that names its own level (a backjump's target, a nogood's)."""
        if self.trace is not None:
            self.trace.record(kind, var, value, cause, depth)
