"""Hints: the cheapest deduction a person can make from where they are, and zooming into
the ones that need a supposition.

The deductions come from a ladder of rules (ladder.py). `next_hint` gives one of the lowest
rung that has any and, within that rung, the one of least cost (deductions.py counts it:
the variables it involves, plus a unit per rung, so that a deduction of a higher rung
always costs more). Applying hints one after another therefore reaches the fixpoint that
propagation reaches, and the highest rung a hint-only solve needs is the puzzle's grade.

**Zooming in.** Some rules deduce by supposing: "if this edge carried 2 bridges, a group
would close" (a rule's `suppositions`, see `Constraint.suppositions`), or a rung's probing
("if this cell were 3, the rules would break"). Such a hint has `supposes` and `steps`:
the sequence a person follows, made in the supposed state by the rules of the rungs up to
its own (its own rung's supposing nothing more; a rung that only probes with the rules of
the rung below adds none), each step the cheapest of the lowest rung as above but a
contradiction first, the last step emptying a domain. Steps that lead nowhere are left out
(`_needed`). Beyond its rung's units the hint costs one more than the variables its steps
involve together, so each step costs less than the hint; a step may itself zoom (a forcing
chain inside a trial of Towers' unreasonable rung).

The zoom's steps (their cost, their words) are the same hints a session gives, in the
supposed state: the approach of step-wise explanations (Bogaerts, Gamba and Guns, AIJ
2021), whose nested explanations end in a contradiction in the same way.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .constraints import Constraint, Supposition
from .csp import CSP
from .deductions import (
    Hint,
    Listening,
    Removals,
    Words,
    fire,
    generic_sentence,
    plain_cost,
    said,
)
from .inference import propagate, propagate_from
from .ladder import Rung, fixpoint, refutations
from .state import Contradiction, SearchState
from .trace import show

__all__ = ["Hint", "Known", "Removals", "WithoutSupposing", "Words", "available",
           "found_at_once", "generic_sentence", "next_hint", "supposed_only", "zoom_lines"]

Domains = Mapping[Hashable, Collection[Any]]
#: variables and values named as the core writes them
PLAIN_WORDS = Words()


class Known(dict[Constraint, "Hint | None"]):
    """Per rung: what each constraint deduces on the domains now (None: nothing). A
    propagator reads only the domains of its scope, so its owner keeps this true by
    forgetting the constraints of each variable whose domain changes
    (`difference_update`, as for a set).

    It also keeps the rung's scratch state for the next call (`state`): brought up to date
    by removing what has gone since, the data its rules keep (connectivity's groups) is
    updated rather than built again."""

    state: Listening | None = None

    def difference_update(self, constraints: Iterable[Constraint]) -> None:
        for constraint in constraints:
            self.pop(constraint, None)

    def without(self, constraints: Iterable[Constraint]) -> Known:
        """A copy that forgets `constraints`."""
        copy = Known(self)
        copy.difference_update(constraints)
        return copy


def cost_unit(ladder: Sequence[Rung]) -> int:
    """What one rung adds to a cost: the first power of ten above what a deduction of one
    rung can cost (every variable, and one more for a supposition)."""
    return 10 ** len(str(len(ladder[0].csp.variables) + 1)) if ladder else 1


def next_hint(ladder: Sequence[Rung], domains: Domains, words: Words = PLAIN_WORDS,
              known: Sequence[Known] | None = None) -> Hint | None:
    """The cheapest deduction of the lowest rung that has one, on `domains`; None when no
    rung can deduce anything more (solved, or stuck without guessing).

    `known[i]`, when given, holds what the constraints of rung i deduce on these domains
    (kept and filled here; see `Known`)."""
    rungs = _Rungs(ladder, domains, words, known, cost_unit(ladder))
    for i in range(len(ladder)):
        found = rungs.deductions(i)
        if found:
            return min(found, key=_cost)
    return None


def available(ladder: Sequence[Rung], domains: Domains, words: Words = PLAIN_WORDS
              ) -> list[Hint]:
    """Every deduction the rungs can make on `domains`, rung by rung: per constraint what it
    deduces (each supposition, zoomed, of a rule that supposes), and each value the rung's
    probing refutes (as it tries them: the variables with the fewest values first).
    `next_hint` chooses among these; this lists them all, at the price of every rung's
    full pass."""
    rungs = _Rungs(ladder, domains, words, None, cost_unit(ladder))
    found = []
    for i, rung in enumerate(ladder):
        state = rungs.state(i)
        for constraint in rung.csp.constraints:
            found += rungs.each(i, state, constraint)
        if rung.probe is not None:
            found += rungs.probes(i, state)
    return found


def _cost(hint: Hint) -> int:
    return hint.cost


class _Rungs:
    """The ladder's deductions on one set of domains (a session's, or a supposed state's):
    a scratch state per rung, made when first needed, and per rung what each constraint
    deduces (`known`).

    A zoom works on the same scratch states as the domains it supposes from, its
    supposition and steps on their trails, undone when it is done: the rules that keep data
    of their own (connectivity's groups, say) then update it rather than build it again."""

    def __init__(self, ladder: Sequence[Rung], domains: Domains, words: Words,
                 known: Sequence[Known] | None, unit: int, plain: int | None = None,
                 supposing: bool = False, states: dict[int, Listening] | None = None):
        self.ladder, self.words, self.unit = ladder, words, unit
        #: in a zoom, the rung of the supposition, if its rules take part: they suppose
        #: nothing more there (no probing; a rule that supposes gives only the
        #: contradictions it finds)
        self.plain = plain
        #: whether these are the domains of a supposition (a contradiction blames it)
        self.supposing = supposing
        self.domains: dict[Hashable, Collection[Any]] = dict(domains)
        self.known = list(known) if known is not None else [Known() for _ in ladder]
        self._states: dict[int, Listening] = states if states is not None else {}

    def state(self, i: int) -> Listening:
        if i not in self._states:
            kept = self.known[i].state
            if kept is None or not _caught_up(kept, self.domains):
                kept = self.known[i].state = Listening(self.ladder[i].csp, self.domains)
            self._states[i] = kept
        return self._states[i]

    # -- what each rung deduces ----------------------------------------------------------------
    def deductions(self, i: int) -> list[Hint]:
        """Every deduction of rung i now: one per constraint (its cheapest, for a rule that
        supposes), and each value its probing refutes."""
        rung, known, state = self.ladder[i], self.known[i], self.state(i)
        found = []
        for constraint in rung.csp.constraints:
            if constraint in known:
                hint = known[constraint]
            else:
                hint = known[constraint] = self._deduce(i, state, constraint)
            if hint is not None:
                found.append(hint)
        if rung.probe is not None and i != self.plain:
            found += self.probes(i, state)
        return found

    def _deduce(self, i: int, state: Listening, constraint: Constraint) -> Hint | None:
        """The constraint's cheapest deduction now (None: it has none)."""
        return min(self.each(i, state, constraint), key=_cost, default=None)

    def each(self, i: int, state: Listening, constraint: Constraint) -> list[Hint]:
        """Every deduction the constraint makes now: what its propagator deduces first, or,
        for a rule that supposes, each of its suppositions the rules can refute, zoomed."""
        fired = fire(state, constraint)
        if fired is None:
            return []
        suppositions = None if fired.failed else constraint.suppositions(state)
        if suppositions is not None and i == self.plain:
            return []
        if suppositions:
            zoomed = [self._supposed(i, constraint, var, values, cause)
                      for (var, values), cause in _first_causes(suppositions).items()]
            return [hint for hint in zoomed if hint is not None]
        rung = self.ladder[i]
        sentence = said(fired, constraint, state, self.words, self.supposing)
        return [Hint(fired.cause, fired.removals, fired.because, sentence, rung.name,
                     constraint.name,
                     plain_cost(i * self.unit, fired.because, fired.removals))]

    def _supposed(self, i: int, constraint: Constraint, var: Hashable,
                  values: tuple[Any, ...], cause: str) -> Hint | None:
        """A rule's deduction by supposing, with its zoom (None if the rules cannot refute
        the supposition step by step)."""
        values = tuple(x for x in self.state(i).values(var) if x in values)
        steps = self.zoom(i, var, values)
        if steps is None:
            return None
        removals = {var: values}
        read = {v: tuple(self.state(i).values(v)) for v in _involved(steps, var)}
        sentence = constraint.explain(cause, removals, read, self.words) or \
            f"{cause}, so {self.words.removals(removals)}"
        return self._zoomed(i, cause, removals, steps, sentence, constraint.name)

    def probes(self, i: int, state: Listening) -> list[Hint]:
        """The rung's probing: each value whose supposition the rung's rules refute, among
        the variables with the fewest values left that have one (ladder.py)."""
        found: list[Hint] = []
        fewest = None
        for var, value in refutations(self.ladder[i], state):
            if fewest is not None and len(state.domains[var]) > fewest:
                break
            steps = self.zoom(i, var, (value,))
            if steps is None:
                continue
            fewest = len(state.domains[var])
            rule = f"trial: {show(var)} = {show(value)} leads to a contradiction"
            sentence = (f"if {self.words.holds(var, (value,))}, {len(steps)} "
                        f"{'step leads' if len(steps) == 1 else 'steps lead'} to a "
                        f"contradiction ({steps[-1].rule}), so "
                        f"{self.words.removal(var, (value,))}")
            found.append(self._zoomed(i, rule, {var: (value,)}, steps, sentence, None))
        return found

    def _zoomed(self, i: int, rule: str, removals: Removals, steps: tuple[Hint, ...],
                sentence: str, constraint: str | None) -> Hint:
        ((var, values),) = removals.items()
        because = _involved(steps, var)
        cost = i * self.unit + 1 + len({*because, *removals})
        return Hint(rule, removals, because, sentence, self.ladder[i].name, constraint, cost,
                    steps, (var, values[0]))

    # -- zooming in ----------------------------------------------------------------------------
    def zoom(self, i: int, var: Hashable, values: tuple[Any, ...]) -> tuple[Hint, ...] | None:
        """The steps from supposing that `var` takes one of `values` to a contradiction, by
        the rules of the rungs up to i, rung i supposing nothing more (None: they reach
        none); a rung that only probes with the rules of the rung below adds nothing to
        them, and the rungs below suppose as they do."""
        if not values:
            return None
        ladder = self.ladder[:i + 1]
        plain: int | None = i
        if i and self.ladder[i].csp is self.ladder[i - 1].csp:
            ladder, plain = ladder[:i], None  # rung i probes with the rules below: those
        known = []
        for rung, told in zip(ladder, self.known):
            kept = told.without(rung.csp.constraints_of.get(var, ()))
            known.append(Known((c, h) for c, h in kept.items() if h is None or not h.steps))
        states = {j: self.state(j) for j in range(len(ladder))}
        marks = {j: state.mark() for j, state in states.items()}
        try:
            for state in states.values():
                state.keep_only(var, values, "supposed")
            inner = _Rungs(ladder, {**self.domains, var: values}, self.words, known,
                           self.unit, plain, supposing=True, states=states)
            steps = []
            while (step := inner.next_step()) is not None:
                steps.append(step)
                if inner.apply(step):
                    return _needed(steps)
            return None
        finally:
            for j, state in states.items():
                state.undo(marks[j])

    def next_step(self) -> Hint | None:
        """A zoom's next step: in the lowest rung that has a deduction, a contradiction
        first (the cheapest), else the cheapest deduction."""
        for i in range(len(self.ladder)):
            found = self.deductions(i)
            if found:
                wipes = [hint for hint in found if self.wipes_out(hint)]
                return min(wipes or found, key=_cost)
        return None

    def wipes_out(self, hint: Hint) -> bool:
        """Does `hint` leave some variable without a value?"""
        return any(set(self.domains[var]) <= set(values)
                   for var, values in hint.removals.items())

    def apply(self, hint: Hint) -> bool:
        """Make the deduction here (every state, and what later states start from); True
        when it empties a domain."""
        wiped = False
        for var, values in hint.removals.items():
            left = [x for x in self.domains[var] if x not in values]
            self.domains[var] = left
            wiped = wiped or not left
            for state in self._states.values():
                try:  # on the trail: a rule that keeps data of its own sees the change
                    for value in values:
                        state.remove(var, value, hint.rule)
                except Contradiction:
                    pass
            for rung, known in zip(self.ladder, self.known):
                known.difference_update(rung.csp.constraints_of.get(var, ()))
        return wiped


def _caught_up(state: Listening, domains: Domains) -> bool:
    """Bring a kept scratch state to `domains` by removing what went since (on its trail,
    as a search does); False when a domain has grown instead (an undo), or is empty: start
    afresh."""
    for var, now in domains.items():
        domain = state.domains.get(var)
        if domain is None or domain == now:
            continue
        if not now or not domain.issuperset(now):
            return False
        for value in [x for x in domain if x not in now]:
            state.remove(var, value)
    return True


def _first_causes(suppositions: Iterable[Supposition]
                  ) -> dict[tuple[Hashable, tuple[Any, ...]], str]:
    """Each supposition once (its zoom depends on the variable and values only), with the
    first cause that found it."""
    causes: dict[tuple[Hashable, tuple[Any, ...]], str] = {}
    for var, values, cause in suppositions:
        causes.setdefault((var, values), cause)
    return causes


def _involved(steps: Sequence[Hint], var: Hashable) -> tuple[Hashable, ...]:
    """The supposed variable, then every variable the steps read or change."""
    found: dict[Hashable, None] = {var: None}
    for step in steps:
        found.update(dict.fromkeys(step.because))
        found.update(dict.fromkeys(step.removals))
    return tuple(found)


def _needed(steps: list[Hint]) -> tuple[Hint, ...]:
    """The steps the contradiction needs: the last one, and, going back, each step that
    changed a variable a needed step reads or changes. The others changed only what no
    needed step looks at, so leaving them out changes nothing the needed ones see."""
    needed = [steps[-1]]
    touched = steps[-1].involved
    for step in reversed(steps[:-1]):
        if not touched.isdisjoint(step.removals):
            needed.append(step)
            touched |= step.involved
    return tuple(reversed(needed))


# -- what the session's own inference does -----------------------------------------------------
def found_at_once(hint: Hint, csp: CSP, domains: Domains, words: Words) -> Hint:
    """`hint` (a deduction that needs a supposition), saying so when the propagation of
    `csp` (a session's own model) makes the same deduction at once from `domains`: its
    rules look one step ahead where a person must suppose."""
    if not hint.steps:
        return hint
    state = Listening(csp, domains)
    try:
        propagate(state, csp.constraints)
    except Contradiction:
        pass
    causes = {(var, value): cause for var, value, cause, _ in state.heard}
    wanted = [(var, value) for var, values in hint.removals.items() for value in values]
    if not all(pair in causes for pair in wanted):
        return hint
    rule = causes[wanted[0]] or csp.name
    said = "this rule" if rule == hint.rule else f"its rule \"{rule}\""
    sentence = (f"{hint.sentence} (propagation finds this at once: {said} looks one step "
                "ahead; a person must suppose it)")
    return replace(hint, at_once=rule, sentence=sentence)


def supposed_only(ladder: Sequence[Rung], domains: Domains, removals: Removals) -> Removals:
    """Of `removals` (what the session's propagation removed from `domains`, say), those the
    ladder reaches only through a supposition (its own, or one it follows from): the rules
    of its top rung that suppose nothing (no rule's suppositions, no probing), run to their
    fixpoint from `domains`, keep them. What "why?" says of such a value: propagation found
    it at once, where a person must suppose something."""
    reach = WithoutSupposing(ladder, domains)
    kept = {var: tuple(x for x in values if not reach.reaches(var, x))
            for var, values in removals.items()}
    return {var: values for var, values in kept.items() if values}


class WithoutSupposing:
    """What a person reaches from `domains` by the ladder's rules that suppose nothing (the
    top rung's rules that have no suppositions, without probing), followed removal by
    removal as a session's propagation makes them: `reaches(var, value)` asks whether
    those rules remove the value on their own, `remove(var, value)` takes a value out (and
    runs them again from there). A value they do not reach is one a person must suppose."""

    def __init__(self, ladder: Sequence[Rung], domains: Domains):
        top = ladder[-1].csp
        probe = SearchState(top, domains=domains)
        plain = CSP(f"{top.name}, supposing nothing")
        for var, values in top.domains.items():
            plain.add_variable(var, values)
        for constraint in top.constraints:
            if constraint.suppositions(probe) is None:
                plain.add_constraint(constraint)
        #: None once those rules find the domains contradictory (they then reach anything)
        self.state = fixpoint(Rung("supposing nothing", plain), domains)

    def reaches(self, var: Hashable, value: Any) -> bool:
        return self.state is None or value not in self.state.domains[var]

    def values(self, var: Hashable) -> tuple[Any, ...]:
        """The values of `var` those rules leave (none once they find a contradiction)."""
        return () if self.state is None else tuple(self.state.values(var))

    def remove(self, var: Hashable, value: Any) -> None:
        if self.state is None or value not in self.state.domains[var]:
            return
        try:
            self.state.remove(var, value)
            propagate_from(self.state, var)
        except Contradiction:
            self.state = None


def zoom_lines(hint: Hint, words: Words) -> list[str]:
    """A hint's zoom in words, one line a step: "suppose ...", each step, the
    contradiction, and what it proves; a step that zooms itself is indented under it."""
    if hint.supposes is None:
        return []
    lines = [supposition_line(hint, words)]
    for number, step in enumerate(hint.steps, 1):
        lines.append(step_line(step, number == len(hint.steps)))
        lines += [f"    {line}" for line in zoom_lines(step, words)]
    lines.append(conclusion_line(hint, words))
    return lines


def supposition_line(hint: Hint, words: Words) -> str:
    """"suppose edge (0,0)-(2,0) carries 1 bridge"."""
    assert hint.supposes is not None, "a hint that supposes nothing has no zoom"
    var = hint.supposes[0]
    return f"suppose {words.holds(var, hint.removals[var])}"


def step_line(step: Hint, last: bool) -> str:
    """"then: ...", or for the last step "contradiction: ..."."""
    return f"{'contradiction' if last else 'then'}: {step.sentence}"


def conclusion_line(hint: Hint, words: Words) -> str:
    """"so edge (0,0)-(2,0) cannot carry 1 bridge"."""
    return f"so {words.removals(hint.removals)}"
