"""Exercise 14 (notebook 11): reading a nogood off an implication graph.

The student writes `first_uip(conflict, reason, level, order)`, notebook 11's conflict
analysis on a graph given as plain data, and returns the first UIP and the nogood. The
checks draw random implication graphs (decisions, facts forced by older facts, a conflict)
and verify the answer from the definitions instead of by the same procedure: the UIP is the
fact of the conflict's level, on every path from that level's decision to the conflict,
nearest the conflict (found by deleting facts and searching for paths), and the nogood is
that fact plus the earlier facts with an arrow into the conflict side.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import draw, fail

Fact = str
CONFLICT = "conflict"


@dataclass
class Graph:
    """An implication graph: facts in the order they were made, each with its level and the
    older facts it came from (none for a decision and for facts of the root)."""

    order: list[Fact] = field(default_factory=list)
    level: dict[Fact, int] = field(default_factory=dict)
    reason: dict[Fact, list[Fact]] = field(default_factory=dict)
    conflict: list[Fact] = field(default_factory=list)

    def add(self, fact: Fact, level: int, reason: list[Fact]) -> None:
        self.order.append(fact)
        self.level[fact] = level
        self.reason[fact] = reason

    def as_text(self) -> str:
        """The graph on one line: each fact, its level and where it came from."""
        lines = [f"{fact} (level {self.level[fact]})"
                 + (f" <- {', '.join(self.reason[fact])}" if self.reason[fact] else
                    " decision" if self.level[fact] else "")
                 for fact in self.order]
        return "; ".join(lines) + f"; conflict <- {', '.join(self.conflict)}"


def example() -> Graph:
    """A small graph: x = 1 decided at level 1, y = 2 at level 2, and what they force."""
    graph = Graph()
    graph.add("x = 1", 1, [])
    graph.add("w ≠ 3", 1, ["x = 1"])
    graph.add("y = 2", 2, [])
    graph.add("z ≠ 2", 2, ["y = 2"])
    graph.add("z ≠ 1", 2, ["z ≠ 2", "x = 1"])
    graph.add("u ≠ 0", 2, ["z ≠ 1", "z ≠ 2"])
    graph.add("u ≠ 1", 2, ["z ≠ 2", "w ≠ 3"])
    graph.conflict = ["u ≠ 0", "u ≠ 1"]
    return graph


def random_graph(rng: random.Random) -> Graph:
    """Root facts, then 2 to 4 levels: a decision and facts forced by older ones (at least
    one of the same level), then a conflict among the last level's facts."""
    graph = Graph()
    for k in range(rng.randint(0, 2)):
        graph.add(f"r{k} ≠ 0", 0, [])
    levels = rng.randint(2, 4)
    for level in range(1, levels + 1):
        graph.add(f"d{level} = 1", level, [])
        for k in range(rng.randint(1 if level < levels else 3, 5)):
            here = [f for f in graph.order if graph.level[f] == level]
            older = [f for f in graph.order if graph.level[f] < level]
            reason = rng.sample(here, rng.randint(1, min(2, len(here))))
            reason += rng.sample(older, rng.randint(0, min(2, len(older))))
            graph.add(f"v{level}{k} ≠ {rng.randint(0, 3)}", level, reason)
    last = [f for f in graph.order if graph.level[f] == levels]
    older = [f for f in graph.order if 0 < graph.level[f] < levels]
    graph.conflict = rng.sample(last[-3:], 2) + rng.sample(older, min(len(older),
                                                                      rng.randint(0, 1)))
    return graph


def _reaches(graph: Graph, start: Fact, removed: Fact | None) -> bool:
    """Is there a path of arrows (reason -> fact) from `start` to the conflict that does
    not pass through `removed`?"""
    forced: dict[Fact, list[Fact]] = {fact: [] for fact in graph.order}
    for fact in graph.order:
        for source in graph.reason[fact]:
            forced[source].append(fact)
    for source in graph.conflict:
        forced[source].append(CONFLICT)
    seen, todo = {start}, [start]
    while todo:
        for nxt in forced.get(todo.pop(), []):
            if nxt == CONFLICT:
                return True
            if nxt != removed and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def expected(graph: Graph) -> tuple[Fact, set[Fact]]:
    """The first UIP and the nogood, from the definitions."""
    top = max(graph.level[f] for f in graph.conflict)
    decision = next(f for f in graph.order if graph.level[f] == top and not graph.reason[f])
    on_every_path = [f for f in graph.order if graph.level[f] == top
                     and (f == decision or not _reaches(graph, decision, f))]
    uip = max(on_every_path, key=graph.order.index)  # the one nearest the conflict
    side, todo = set(), list(graph.conflict)  # the conflict side: behind the UIP's back
    while todo:
        fact = todo.pop()
        if fact in side or fact == uip or graph.level[fact] != top:
            continue
        side.add(fact)
        todo.extend(graph.reason[fact])
    arrows_in = set(graph.conflict) | {f for fact in side for f in graph.reason[fact]}
    return uip, {uip} | {f for f in arrows_in if 0 < graph.level[f] < top}


def _answer(first_uip: Callable[..., Any], graph: Graph) -> tuple[Fact, set[Fact]]:
    __tracebackhide__ = True
    answer = first_uip(list(graph.conflict), {f: list(r) for f, r in graph.reason.items()},
                       dict(graph.level), list(graph.order))
    try:
        uip, nogood = answer
        return uip, set(nogood)
    except (TypeError, ValueError):
        fail(f"first_uip returned {answer!r}: it must return (uip, nogood), the "
             f"nogood a set of facts")


def _graphs(seed: Any, trials: int) -> list[tuple[Graph, str]]:
    rng = draw("nogoods", seed)
    return [(example(), "the exercise's graph")] + [
        (random_graph(rng), f"random graph {k}") for k in range(1, trials + 1)]


def check_uip(first_uip: Callable[..., Any], seed: Any = None, trials: int = 60) -> None:
    """The exercise's graph, then `trials` random graphs: the first UIP."""
    __tracebackhide__ = True
    for graph, where in _graphs(seed, trials):
        uip, _ = _answer(first_uip, graph)
        want = expected(graph)[0]
        if uip != want:
            fail(f"on {where} [{graph.as_text()}], first_uip gave the UIP {uip!r}; "
                 f"the first UIP is {want!r}: the fact of the conflict's level, "
                 f"nearest the conflict, that every path from that level's "
                 f"decision to the conflict goes through")


def check_nogood(first_uip: Callable[..., Any], seed: Any = None, trials: int = 60) -> None:
    """The same graphs: the nogood."""
    __tracebackhide__ = True
    for graph, where in _graphs(seed, trials):
        _, nogood = _answer(first_uip, graph)
        want = expected(graph)[1]
        if nogood != want:
            extra, missing = sorted(nogood - want), sorted(want - nogood)
            said = "; ".join(part for part in (
                f"{', '.join(extra)} should not be in it" if extra else "",
                f"{', '.join(missing)} is missing" if missing else "") if part)
            fail(f"on {where} [{graph.as_text()}], first_uip gave the nogood "
                 f"{sorted(nogood)}; {said}. The nogood is the UIP and the facts "
                 f"of earlier levels (not the root) met while resolving")
