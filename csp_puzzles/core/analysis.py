"""Conflict analysis: from a wipe-out back to the first unique implication point.

Read backwards from a conflict, the facts of the search (facts.py) form the implication
graph: each fact points at the older facts that forced it. `first_uip` (after GRASP and
Chaff; see REFERENCES.md) replaces the newest
fact of the conflict's level by its reason, again and again, until one fact of that level
is left: the first *unique implication point*, a fact through which every path from the
level's decision to the conflict runs. The facts left (that one, and facts of earlier
levels) cannot all hold: the nogood learning.py keeps, less the facts that follow from its
others anyway (`implied`) and said shortly (`shorter`). `Analysis` keeps one analysis for
reading, as notebook 11 shows it.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from .facts import ExplainingState, Fact
from .nogoods import Nogood
from .reasons import Literal

#: how deep `implied` follows reasons before it gives up (keeps the literal)
MINIMIZE_DEPTH = 30
#: facts named on one line of `Analysis.describe` (the others are counted)
FACTS_SHOWN = 8
#: one step of an analysis: a fact, and the facts of its reason that replaced it
Step = tuple[Fact, list[Fact]]


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


@dataclass
class Analysis:
    """One conflict analysis, kept for reading (`LearningSearch.graphs`): the facts of the
    wipe-out, each fact replaced by its reason (newest first), and the nogood learnt."""

    conflict: list[Fact]
    steps: list[Step]
    nogood: Nogood

    def describe(self, most: int = FACTS_SHOWN) -> str:
        """The implication graph read backwards from the conflict, one line a step (the
        facts of the root level, true before any decision, only counted). A step that came
        from many facts (a propagator that could only blame its whole scope) names the
        `most` newest and counts the rest, so that the read-out stays readable."""
        def said(facts: Iterable[Fact]) -> str:
            facts = sorted(dict.fromkeys(facts), key=lambda f: -f.stamp)
            shown = [fact for fact in facts if fact.level > 0]
            words = [f"{fact.literal} (level {fact.level})" for fact in shown[:most]]
            if len(shown) > most:
                rest = shown[most:]
                levels = sorted({fact.level for fact in rest})
                span = f"level {levels[0]}" if len(levels) == 1 else \
                    f"levels {levels[0]}-{levels[-1]}"
                words.append(f"and {len(rest)} more ({span})")
            root = len(facts) - len(shown)
            if root:
                words.append(f"{root} fact{'s' * (root > 1)} of the root")
            return ", ".join(words) or "nothing"

        lines = [f"conflict: {said(self.conflict)} cannot all hold"]
        for fact, reason in self.steps:
            lines.append(f"  {fact.literal} came from {said(reason)}")
        lines.append(f"first UIP: {self.nogood.literals[0]}")
        lines.append(f"learnt: {self.nogood.name}")
        return "\n".join(lines)
