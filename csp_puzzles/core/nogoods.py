"""Nogoods: sets of literals that cannot all hold, learnt from conflicts (learning.py).

A nogood is kept as a constraint of its own, watched on two of its literals, as SAT
solvers watch clauses (Moskewicz et al., Chaff; see REFERENCES.md): it costs nothing until
one of its watched literals holds, and fires wherever all its literals but one hold,
making that one false.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from .activity import Activity
from .facts import ExplainingState
from .reasons import Literal
from .state import Contradiction

#: nogoods kept at most; past this the worse half is forgotten
MAX_NOGOODS = 5000


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

    def propagate(self, state: ExplainingState, literals: Iterable[Literal]) -> None:
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

    def _visit(self, state: ExplainingState, nogood: Nogood, literal: Literal) -> bool:
        """`literal` now holds: move this watch elsewhere (True), or stay and maybe fire.

        It runs for every watch of every literal that comes to hold, so `holds` and
        `is_false` are written out on the domains here (see `ExplainingState.holds`).
        """
        lits, watched = nogood.literals, nogood.watched
        first, second = watched
        here = 0 if lits[first] == literal else 1
        other = lits[second if here == 0 else first]
        domains = state.domains
        var, equal, value = other
        domain = domains[var]
        if (value not in domain) if equal else (len(domain) == 1 and value in domain):
            return False  # `other` is false: the nogood is satisfied, nothing to do
        for i, candidate in enumerate(lits):
            if i == first or i == second:
                continue
            var, equal, value = candidate
            domain = domains[var]
            if (len(domain) != 1 or value not in domain) if equal else (value in domain):
                watched[here] = i  # `candidate` does not hold (yet): watch it instead
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
