"""One conflict analysis, kept for reading (`LearningSearch.graphs`), as notebook 11 shows it.

The analysis itself (the first unique implication point, the nogood said shortly) is
learning.py's: `first_uip`, `implied`, `shorter`. An `Analysis` keeps what it read: the
facts of the wipe-out, each fact replaced by its reason, and the nogood learnt.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .facts import Fact
from .nogoods import Nogood

#: facts named on one line of `Analysis.describe` (the others are counted)
FACTS_SHOWN = 8
#: one step of an analysis: a fact, and the facts of its reason that replaced it
Step = tuple[Fact, list[Fact]]


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
