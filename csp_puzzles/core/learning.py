"""Learning from conflicts: 1-UIP nogoods over the implication graph.

Backjumping (lookback.py) blames *decisions*. A nogood made of decisions is nearly the
whole path, so it hardly ever fires again. SAT solvers learn something sharper, and so
does this search (AIMA 6.3.3, then the SAT solvers' way, see REFERENCES.md):

1. **Every fact on the trail keeps its reason** (facts.py): a decision `x = v`, or a
   removal `x ≠ w` and the facts that forced it.
2. **The implication graph.** Read that way, each fact points at the older facts that
   forced it: a graph from the decisions down to the conflict.
3. **The first UIP** (`first_uip`, after GRASP and Chaff, at the end of this file). From
   a wipe-out, replace the newest fact of the current level by its reason, again and
   again, until one fact of the current level is left: a fact through which every path
   from the level's decision to the conflict runs. The facts left (that one, and facts of
   earlier levels) cannot all hold: that is the **nogood** learnt, "x = 2 and y ≠ 0 cannot
   both hold", less the facts that follow from its others anyway (`implied`), said shortly
   (`shorter`). `analysis.py` keeps one analysis for reading (`graphs`).
4. **The nogood asserts.** Undo the conflict's level: the nogood's other facts, all from
   earlier levels, still hold, so the nogood at once forbids the UIP fact there, a fact the
   search did not know at that level (`LearningSearch._assert`).
5. **Propagation** (nogoods.py). The nogood stays, watched on two literals, and fires
   again wherever all its literals but one hold.

So the search branches two ways: `x = v`, and when that fails, what the nogood forbids at
the level above; the variable order then chooses again. Restarts (restarts.py) run the same
search again and again from level 0, keeping what it learnt.

Counting stays exact. A nogood follows from the constraints by resolution, so it never
removes a solution; what must not happen is a subtree counted twice. So a level whose
subtree already held a solution is undone only once that subtree is done, and its decision
is then forbidden under the levels above, as chronological backtracking does (`counted`
below).
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable
from dataclasses import replace
from typing import Any

from .analysis import Analysis, Step
from .csp import CSP
from .facts import ExplainingState, Fact
from .inference import propagate as arc_consistency
from .nogoods import Nogood, NogoodStore
from .options import Options, check_timeout
from .reasons import Literal
from .search import Frame, Result, Search
from .state import Contradiction
from .trace import LEARN

#: restarts rephase to the best assignment seen, but every this many to no phase at all
ORIGINAL_PHASE_EVERY = 4
#: how deep `implied` follows reasons before it gives up (keeps the literal)
MINIMIZE_DEPTH = 30


class LearningSearch(Search):
    """The search that learns a 1-UIP nogood at each wipe-out (`look_back="learn"`).

    Options as for `Search` (one value at a time). `nogoods` (an option) may carry a store
    from an earlier search: a nogood is true of the problem, whichever search learnt it.
    Restarts (restarts.py) run this one search again and again (`run`): each run after the
    first begins with `restart`, which goes back to level 0 and keeps everything else.
    """

    state: ExplainingState
    state_class = ExplainingState

    def __init__(self, csp: CSP, options: Options | None = None, **keywords: Any):
        super().__init__(csp, replace(Options.of(options, **keywords), look_back="learn"))
        store = self.options.nogoods
        self.store = store if store is not None else NogoodStore()
        #: bump the variables of each conflict, for a variable order that reads them
        self.bumps = getattr(self.select, "reads_activity", False)
        if self.bumps:
            self.state.activity = self.store.activity
        #: the deepest level whose subtree held a solution: never jumped over (counting)
        self.counted = 0
        self._checked = 0  # trail position the nogood store has looked at
        #: set it to a list to keep every conflict analysis (`Analysis`), for reading
        self.graphs: list[Analysis] | None = None
        #: runs so far (`run`): every one after the first begins with a restart
        self.runs = 0
        #: the values of the largest consistent assignment met so far (`restart` rephases to
        #: them), how many variables it fixed, and how many restarts there have been
        self.best_phases: dict[Hashable, Any] = {}
        self.best_size = -1
        self._best_level = -1  # the level of a best not read yet (`_note_best`), or -1
        self.restarts = 0
        # the inference `Search` keeps in `_propagate` gives way to the method below (kept
        # on the search as a bound method, it would make the search a cycle that only
        # the garbage collector frees)
        del self._propagate

    # -- runs and restarts -------------------------------------------------------------------
    def run(self, max_nodes: int | None = None, timeout: float | None = None) -> Result:
        """Look for a solution with at most `max_nodes` more nodes and `timeout` seconds: a
        restart's run (restarts.py). The first run starts at the root; each later one
        begins with `restart`. The result's stats are this run's own (`self.stats` adds up
        every run)."""
        if self.runs:
            self.restart()
        self.runs += 1
        check_timeout(timeout)
        self.timeout = timeout
        return self.resume(max_nodes)

    def restart(self) -> None:
        """Go back to level 0 and keep all the rest, as SAT solvers restart.

        The decisions are undone, and only they: the root's fixpoint stays (the next run's
        root does not propagate it again: `root_kept`), and so do the propagators' own
        data, the nogoods and their watches, the activities and the failure weights. The
        phases are set afresh for the next run (`_rephase`). A unit nogood learnt during the
        last run was asserted at the level it was learnt at; the next run's root asserts it
        at level 0 (`at_root`).
        """
        self._undo_to(0)
        self.root_kept = True
        if self._best_level == 0:  # the best is the root's (no level to come back up to)
            self._keep_best()
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
        elsewhere. SAT solvers rephase the same way (Biere and Fleury, Kissat; see
        REFERENCES.md).
        """
        if self.restarts % ORIGINAL_PHASE_EVERY == 0:
            self.phases.clear()
        else:
            self.phases.update(self.best_phases)

    def _note_best(self) -> None:
        """Before a decision (the propagation holds): an assignment that fixes more
        variables than any before it is the best. Its values are read when the search next
        comes back up to this level (`_undo_to`), where they are as they are now: a
        descent meets a new best at nearly every level, and reading every variable at each
        would cost more than the search's step."""
        state = self.state
        fixed = len(state.domains) - state.unfixed
        if fixed > self.best_size:
            self.best_size = fixed
            self._best_level = state.depth

    def _keep_best(self) -> None:
        """Read the best assignment's values (the search is back at its level)."""
        self.best_phases = {var: next(iter(domain)) for var, domain
                            in self.state.domains.items() if len(domain) == 1}
        self._best_level = -1

    # -- what the loop calls -----------------------------------------------------------------
    def at_root(self) -> None:
        """After the root's inference: the unit nogoods learnt so far, which hold from
        level 0 on, then the nogoods' propagation."""
        state = self.state
        for unit in self.store.units:
            literal = unit.literals[0]
            if state.holds(literal):
                raise Contradiction(literal.var, state.said(unit))
            if not state.is_false(literal):
                state.changed.clear()
                state.make_false(literal, [], state.said(unit))
                self._propagate(state, literal.var)
        self._nogoods()

    def _open(self) -> Frame:
        """A new level `x = v`, for the variable and the value the orders choose first."""
        if self.keeps_phases:
            self._note_best()
        var = self.select(self.state)
        value = next(iter(self.order(self.state, var)))
        return Frame(var, [value])

    def _propagate(self, state: ExplainingState, var: Hashable) -> None:
        """The inference from `var` (assigned, or under MAC any variable that lost values),
        then the nogoods."""
        if self.arc_consistent or var in state.assignment:
            self.infer(state, var)
        self._nogoods(var)

    def _passed(self, found: bool) -> bool:
        """After a solution, go back one level and forbid the last decision there."""
        if found:
            self.counted = self.state.depth
        return self._conflict(None)

    # -- looking back ------------------------------------------------------------------------
    def _conflict(self, failure: Contradiction | None) -> bool:
        """After a wipe-out (or a solution, `failure` None): learn, go back and assert,
        until the propagation holds. False when nothing is left to search."""
        state = self.state
        while True:
            try:
                if failure is None or state.depth <= self.counted:
                    if state.depth == 0:
                        return False
                    self._back_one_level(failure)
                    return True
                conflict = state.conflict_facts(failure)
                top = max((fact.level for fact in conflict), default=0)
                if top == 0:
                    return False
                if top <= self.counted:  # the conflict lies above a counted subtree
                    self._undo_to(top)
                    self._back_one_level(failure)
                else:
                    self._assert(self._learn(conflict, top), top)
                return True
            except Contradiction as again:
                self._failed(again)
                failure = again.with_traceback(None)  # kept: see `Search._decide`

    def _back_one_level(self, failure: Contradiction | None) -> None:
        """Chronological: undo the deepest decision and forbid it under the levels above
        (its subtree is done: a solution counted, or nothing left in it)."""
        state, last = self.state, self.frames[-1]
        if failure is not None:
            self.stats.backtracks += 1
        above = [Literal(frame.var, True, frame.choice) for frame in self.frames[:-1]]
        self._undo_to(state.depth - 1)
        self.counted = min(self.counted, state.depth)
        state.reason = above
        state.remove(last.var, last.choice, "its subtree is done")
        self._propagate(state, last.var)

    def _learn(self, conflict: list[Fact], top: int) -> Nogood:
        """Steps 3 and 4: analyse the conflict to its first UIP and keep the nogood: the
        UIP first, then the deepest of the other facts (the two literals watched: the last
        to be undone on the way back)."""
        state = self.state
        steps: list[tuple[Fact, list[Fact]]] | None = (
            None if self.graphs is None and not self.bumps else [])
        uip, earlier = first_uip(state, conflict, top, steps)
        others = shorter(earlier, state, uip)
        others.sort(key=lambda f: (-f.level, -f.stamp))
        nogood = Nogood([uip.literal] + [f.literal for f in others],
                        glue=len({f.level for f in others}) + 1)
        self.store.add(nogood)
        self.stats.learnt += 1
        self.stats.learnt_literals += len(nogood.literals)
        if self.trace is not None:
            self._record(LEARN, None, nogood.words(), None, uip.level)
        if self.bumps and steps is not None:
            self.store.activity.bump([lit.var for lit in nogood.literals]
                                     + [fact.literal.var for fact, _ in steps])
        if self.graphs is not None and steps is not None:
            self.graphs.append(Analysis(conflict, steps, nogood))
        return nogood

    def _assert(self, nogood: Nogood, level: int) -> None:
        """Step 5: undo the conflict's level; there the nogood makes its UIP literal false.

        SAT solvers go further back, to the deepest level of the nogood's other facts (the
        nogood is unit at every level in between). This search goes back one level: the
        levels in between were not wrong, and redoing their propagation is what a search in
        Python pays most for (chronological backtracking with learnt nogoods, as in Nadel
        and Ryvchin; see REFERENCES.md).
        """
        self.stats.backtracks += 1
        self._undo_to(level - 1)
        uip = nogood.literals[0]
        self.state.make_false(uip, nogood.literals[1:], self.state.said(nogood))
        self._propagate(self.state, uip.var)

    def _undo_to(self, level: int) -> None:
        """Undo every decision deeper than `level`, and what followed from them."""
        frames = self.frames
        while len(frames) > level:
            frame = frames.pop()
            self.cancel(frame)
            self._checked = min(self._checked, frame.mark)
            if len(frames) == self._best_level:
                self._keep_best()

    # -- propagation with nogoods ------------------------------------------------------------
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


# -- the conflict analysis ----------------------------------------------------------------
def first_uip(state: ExplainingState, conflict: list[Fact], top: int,
              steps: list[Step] | None = None) -> tuple[Fact, list[Fact]]:
    """The first UIP of level `top` (the conflict's deepest), and the facts of earlier
    levels.

    The facts of level `top` wait in a heap, newest first; the newest is replaced by its
    reason until one is left (each replacement goes into `steps`, if given: the
    implication graph, read backwards). Facts of the root level always hold and are
    dropped; facts of earlier levels are kept for the nogood, unless their own reason is
    there already (`implied`).
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
        reason = state.reason_of(fact)  # never a decision: the decision is oldest
        if steps is not None:
            steps.append((fact, reason))
        mark(reason)
    levels = {fact.level for fact in earlier}
    known: dict[Literal, bool] = {}
    return here[0][1], [fact for fact in earlier
                        if not implied(state, fact, seen, levels, known)]


def implied(state: ExplainingState, fact: Fact, seen: set[Literal], levels: set[int],
            known: dict[Literal, bool], depth: int = 0) -> bool:
    """Whether a removal follows from the other facts of the nogood: its reason's facts are
    each in the nogood, or follow from it in turn (a fact of a level the nogood does not
    touch cannot). Then saying it again adds nothing."""
    literal = fact.literal
    if literal.equal or depth > MINIMIZE_DEPTH:
        return False
    answer = known.get(literal)
    if answer is None:
        answer = True
        for other in state.reason_of(fact):
            if other.literal not in seen and (other.level not in levels or not implied(
                    state, other, seen, levels, known, depth + 1)):
                answer = False
                break
        known[literal] = answer
    return answer


def shorter(literals: list[Fact], state: ExplainingState, uip: Fact) -> list[Fact]:
    """The facts of a nogood besides its UIP, said shortly: `x = v` makes `x ≠ w`
    redundant, and removals that leave x one value (with those gone at the root) read as
    `x = v`."""
    decided = {f.literal.var for f in [uip, *literals] if f.literal.equal}
    removals: dict[Hashable, list[Fact]] = {}
    kept: list[Fact] = []
    for fact in literals:
        literal = fact.literal
        if literal.equal:
            kept.append(fact)
        elif literal.var not in decided:
            removals.setdefault(literal.var, []).append(fact)
    for var, facts in removals.items():
        gone = {f.literal.value for f in facts}
        at_root = {x for x, (_, fact, _) in state.removed[var].items()
                   if fact.level == 0 and x not in state.domains[var]}
        left = [x for x in state.order[var] if x not in gone and x not in at_root]
        if len(left) == 1 and len(facts) > 1:
            newest = max(facts, key=lambda f: f.stamp)
            kept.append(Fact(Literal(var, True, left[0]), newest.stamp,
                             max(f.level for f in facts)))
        else:
            kept += facts
    return kept
