"""Exercise 14 (notebook 11): reading a nogood off an implication graph.

The student writes `first_uip(conflict, reason, level, order)`, notebook 11's conflict
analysis on a graph given as plain data, and returns the first UIP and the nogood. The
checks draw random implication graphs (decisions, facts forced by older facts, a conflict)
and verify the answer from the definitions instead of by the same procedure: the UIP is the
fact of the conflict's level, on every path from that level's decision to the conflict,
nearest the conflict (found by deleting facts and searching for paths), and the nogood is
that fact plus the earlier facts with an arrow into the conflict side.

The two checks do not fall together: the nogood is judged with the student's own UIP (when
it is a fact of the conflict's level), so a wrong UIP costs the UIP's points only. A verdict
says what is wrong with the student's answer (a path that avoids their UIP, a fact that
does not belong in their nogood) and never names the answer of the exercise's own graph,
which students work out by hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import draw, fail, own_work

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


def _forward(graph: Graph) -> dict[Fact, list[Fact]]:
    """The arrows of the graph, from each fact to the facts (and the conflict) it forced."""
    forced: dict[Fact, list[Fact]] = {fact: [] for fact in graph.order}
    for fact in graph.order:
        for source in graph.reason[fact]:
            forced[source].append(fact)
    for source in graph.conflict:
        forced[source].append(CONFLICT)
    return forced


def path_avoiding(graph: Graph, start: Fact, removed: Fact | None) -> list[Fact] | None:
    """A path of arrows (reason -> fact) from `start` to the conflict that does not pass
    through `removed` (None when there is none)."""
    forced = _forward(graph)
    came_from: dict[Fact, Fact | None] = {start: None}
    todo = [start]
    while todo:
        fact = todo.pop()
        for nxt in forced.get(fact, []):
            if nxt == CONFLICT:
                path = [fact]
                while came_from[path[-1]] is not None:
                    path.append(came_from[path[-1]])  # type: ignore[arg-type]
                return path[::-1] + [CONFLICT]
            if nxt != removed and nxt not in came_from:
                came_from[nxt] = fact
                todo.append(nxt)
    return None


def top_level(graph: Graph) -> int:
    return max(graph.level[f] for f in graph.conflict)


def decision(graph: Graph) -> Fact:
    """The decision of the conflict's level."""
    top = top_level(graph)
    return next(f for f in graph.order if graph.level[f] == top and not graph.reason[f])


def uips(graph: Graph) -> list[Fact]:
    """The facts of the conflict's level on every path from its decision to the conflict,
    oldest first (the decision is one)."""
    top, start = top_level(graph), decision(graph)
    return [f for f in graph.order if graph.level[f] == top
            and (f == start or path_avoiding(graph, start, f) is None)]


def first_uip_of(graph: Graph) -> Fact:
    """The first UIP, from the definition: the UIP nearest the conflict."""
    return uips(graph)[-1]


def resolved_away(graph: Graph, uip: Fact) -> set[Fact]:
    """The facts of the conflict's level between `uip` and the conflict: those reached
    reading back from the conflict without passing `uip`."""
    top = top_level(graph)
    side: set[Fact] = set()
    todo = list(graph.conflict)
    while todo:
        fact = todo.pop()
        if fact in side or fact == uip or graph.level[fact] != top:
            continue
        side.add(fact)
        todo.extend(graph.reason[fact])
    return side


def nogood_for(graph: Graph, uip: Fact) -> set[Fact]:
    """The nogood that resolving up to `uip` gives: `uip`, and the facts of earlier levels
    (not the root) in the conflict or in the reason of a fact resolved away."""
    top = top_level(graph)
    side = resolved_away(graph, uip)
    arrows_in = set(graph.conflict) | {f for fact in side for f in graph.reason[fact]}
    return {uip} | {f for f in arrows_in if 0 < graph.level[f] < top}


def expected(graph: Graph) -> tuple[Fact, set[Fact]]:
    """The first UIP and its nogood, from the definitions."""
    uip = first_uip_of(graph)
    return uip, nogood_for(graph, uip)


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


#: the graph whose answer the exercise asks students to work out by hand: its verdicts
#: never name a fact of the answer that the student's code did not give
EXAMPLE = "the exercise's graph"


def _graphs(seed: Any, trials: int) -> list[tuple[Graph, str]]:
    """Random graphs first, the exercise's graph last: a wrong answer is usually told about
    a random graph, in full; about the exercise's own graph the verdict gives nothing away."""
    rng = draw("nogoods", seed)
    return [(random_graph(rng), f"random graph {k}") for k in range(1, trials + 1)] + [
        (example(), EXAMPLE)]


def _arrows(path: list[Fact]) -> str:
    return " → ".join(path)


def uip_fault(graph: Graph, uip: Any, hidden: bool = False) -> str | None:
    """What is wrong with `uip` as the first UIP of `graph`, in words; None if nothing.
    `hidden`: the graph is the one students work out by hand, so no path is shown."""
    top = top_level(graph)
    if uip not in graph.level:
        return f"{uip!r} is not a fact of the graph"
    if graph.level[uip] != top:
        return (f"{uip} is of level {graph.level[uip]}, but the conflict's level is "
                f"{top}: the UIP is a fact of that level")
    start = decision(graph)
    avoiding = path_avoiding(graph, start, uip) if uip != start else None
    if avoiding is not None:
        shown = "a path avoids it" if hidden else f"{_arrows(avoiding)} avoids it"
        return (f"{uip} is not on every path from the level's decision to the conflict: "
                f"{shown}")
    if uip != first_uip_of(graph):
        where = ("is the level's decision, through which every path passes" if uip == start
                 else "is on every path from the level's decision to the conflict")
        return (f"{uip} {where}, but another fact of level {top}, nearer the conflict, is "
                f"on every path too: the first UIP is the one met first, reading back from "
                f"the conflict")
    return None


@own_work("the conflict analysis", "the graph's data (lists and dicts)")
def check_uip(first_uip: Callable[..., Any], seed: Any = None, trials: int = 60) -> None:
    """`trials` random graphs, then the exercise's graph: the first UIP."""
    __tracebackhide__ = True
    for graph, where in _graphs(seed, trials):
        uip, _ = _answer(first_uip, graph)
        fault = uip_fault(graph, uip, hidden=where == EXAMPLE)
        if fault:
            fail(f"on {where} [{graph.as_text()}], first_uip gave the UIP {uip!r}: {fault}")


def _extra_words(graph: Graph, fact: Fact, uip: Fact, top: int) -> str:
    level = graph.level.get(fact)
    if level is None:
        return f"{fact!r} is not a fact of the graph"
    if level == 0:
        return f"{fact} is of level 0, which always holds: leave it out"
    if level == top:
        return (f"{fact} is of the conflict's level: of that level the nogood keeps the "
                f"UIP ({uip}) alone")
    return (f"{fact}, of level {level}, is neither in the conflict nor a reason of a fact "
            f"resolved away between the UIP and the conflict")


def _missing_words(graph: Graph, fact: Fact, uip: Fact, where: str) -> str:
    if fact == uip and where == EXAMPLE:
        return ("the first UIP is missing: the nogood holds it, the one fact of the "
                "conflict's level")
    if fact == uip:
        return f"the UIP itself ({uip}) is missing: the nogood holds it"
    if where == EXAMPLE:
        return ("a fact of an earlier level is missing: one the conflict, or a fact "
                "resolved away, came from")
    if fact in graph.conflict:
        return f"{fact}, of level {graph.level[fact]} and in the conflict, is missing"
    side = resolved_away(graph, uip)
    source = next(f for f in graph.order if f in side and fact in graph.reason[f])
    return (f"{fact}, of level {graph.level[fact]}, is missing: {source}, resolved away, "
            f"came from it")


@own_work("the conflict analysis", "the graph's data (lists and dicts)")
def check_nogood(first_uip: Callable[..., Any], seed: Any = None, trials: int = 60) -> None:
    """The same graphs: the nogood, judged with the student's own UIP when it is a fact
    of the conflict's level (a wrong UIP costs the UIP's points, not these too)."""
    __tracebackhide__ = True
    for graph, where in _graphs(seed, trials):
        uip, nogood = _answer(first_uip, graph)
        top = top_level(graph)
        own = uip in graph.level and graph.level[uip] == top
        reference = uip if own else first_uip_of(graph)
        want = nogood_for(graph, reference)
        if nogood == want:
            continue
        extra = sorted(nogood - want, key=str)
        missing = sorted(want - nogood, key=lambda f: (f != reference, str(f)))
        said = (_extra_words(graph, extra[0], reference, top) if extra
                else _missing_words(graph, missing[0], reference, where))
        judged = f"with your UIP {uip}, " if own and uip != first_uip_of(graph) else ""
        fail(f"on {where} [{graph.as_text()}], {judged}first_uip gave the nogood "
             f"{sorted(nogood, key=str)}: {said}. The nogood is the UIP and the facts of "
             f"earlier levels (not the root) met while resolving")
