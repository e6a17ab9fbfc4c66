"""Exercise 4 (notebook 03): two Hashiwokakero rules as propagators.

The student writes `OneOpenNeighbour` and `Saturation` on top of `DegreeCheck`, a degree
constraint that only checks. The checks put each rule on random islands (one to four edges,
each with some of 0, 1, 2 bridges left) and compare with what the rule, as the exercise
states it, must do; then they solve puzzles with a bare model built on the student's rules
and hand every answer to the puzzle's own checker.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from ... import hashi
from ...core import CSP, Constraint, Contradiction, Predicate, SearchState, solve
from ...hashi.connectivity import Connectivity
from . import CSP_DATA, STATE, draw, fail, own_work, solved_with, unwatched, values_text

#: a subclass of DegreeCheck: Rule(edges, number, where)
Rule = Callable[[Sequence[Hashable], int, str], Constraint]
#: the puzzle of notebook 03 (and of the exercise's examples)
PUZZLE = "7x7m2:d3a32a2b2e3m1a3b3b4a3b3b2"
#: the watch's words and patterns: what the student's code may call in csp_puzzles
OWN = ("the two rules", "the state's methods and DegreeCheck", *CSP_DATA, *STATE,
       "teaching.grading.hashi_rules:DegreeCheck.*")


class DegreeCheck(Constraint):
    """The island's edges add up to its number: checked once they are all fixed, no pruning."""

    def __init__(self, edges: Sequence[Hashable], number: int, where: str):
        super().__init__(edges, name=f"degree at {where}")
        self.number = number

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return sum(values[edge] for edge in self.scope) == self.number

    def propagate(self, state: SearchState) -> None:
        if all(state.is_fixed(edge) for edge in self.scope):
            if sum(state.value(edge) for edge in self.scope) != self.number:
                state.fail(None, self.name)


def _different_edges(x: int, y: int) -> bool:
    return x == 0 or y == 0


def bare_model(puzzle: hashi.Hashi, rules: Sequence[Rule] = (DegreeCheck,)) -> CSP:
    """Edges with 0..maxb bridges, one constraint per island and rule, no crossing, and
    connectivity checked simply (its "easy" level)."""
    csp = CSP("bare hashi")
    for edge in puzzle.edges:
        csp.add_variable(edge.key, range(puzzle.maxb + 1))
    for island in puzzle.islands:
        edges = [puzzle.edges[k].key for k in puzzle.edges_at[island.index]]
        for rule in rules:
            csp.add_constraint(rule(edges, island.value, str(island)))
    for h, v in puzzle.crossings:
        a, b = puzzle.edges[h].key, puzzle.edges[v].key
        csp.add_constraint(Predicate(_different_edges, (a, b), name=f"no crossing {a} {b}"))
    csp.add_constraint(Connectivity(puzzle, list(puzzle.edges), "easy"))
    return csp


# -- the rules, one island at a time ---------------------------------------------------------
def _one_open_neighbour(domains: list[list[int]], number: int) -> list[list[int]] | None:
    """What the rule leaves (None: it must fail)."""
    open_edges = [i for i, values in enumerate(domains) if len(values) > 1]
    placed = sum(values[0] for values in domains if len(values) == 1)
    if not open_edges:
        return None if placed != number else domains
    if len(open_edges) > 1:
        return domains
    last = open_edges[0]
    kept = [v for v in domains[last] if v == number - placed]
    return None if not kept else [kept if i == last else d for i, d in enumerate(domains)]


def _saturation(domains: list[list[int]], number: int) -> list[list[int]] | None:
    room = sum(max(values) for values in domains)
    if room < number:
        return None
    if room == number:
        return [[max(values)] for values in domains]
    if all(len(values) == 1 for values in domains):
        return None  # all fixed and too many: the degree check fails
    return domains


EXPECTED = {"OneOpenNeighbour": _one_open_neighbour, "Saturation": _saturation}
WHY = {
    "OneOpenNeighbour": "when exactly one edge is open it must take what the island still "
                        "needs; with two or more open edges the rule does nothing; with none "
                        "it fails when the sum is wrong",
    "Saturation": "when the edges can take exactly what the island needs (the sum of their "
                  "largest values) every edge is maxed; when they can take less, it fails",
}


def _island(domains: list[list[int]]) -> CSP:
    csp = CSP("one island")
    for edge, values in zip("abcd", domains):
        csp.add_variable(edge, values)
    return csp


def verify_island(rule: Rule, kind: str, domains: list[list[int]], number: int) -> None:
    """Propagate the rule once on one island and compare with what it must do."""
    __tracebackhide__ = True
    edges = list("abcd"[:len(domains)])
    state = SearchState(_island(domains))
    start = (f"on an island of number {number} with "
             + ", ".join(f"{e} = {values_text(d)}" for e, d in zip(edges, domains))
             + f", {kind}")
    expected = EXPECTED[kind](domains, number)
    try:
        rule(edges, number, "(0,0)").propagate(state)
    except Contradiction:
        if expected is not None:
            fail(f"{start} failed, but {WHY[kind]}: here it leaves "
                 + ", ".join(f"{e} = {values_text(d)}" for e, d in
                 zip(edges, expected)))
        return
    if expected is None:
        fail(f"{start} did not fail, but {WHY[kind]}: here no value of the edges "
             f"is left that the rule allows")
    for edge, want in zip(edges, expected):
        if sorted(state.values(edge)) != sorted(want):
            fail(f"{start} left {edge} = {values_text(state.values(edge))}, but "
                 f"{WHY[kind]}: {edge} = {values_text(want)}")


def _random_island(rng: Any) -> tuple[list[list[int]], int]:
    size = rng.randint(1, 4)
    domains = []
    for _ in range(size):
        roll = rng.random()
        values = [rng.randint(0, 2)] if roll < 0.5 else sorted(rng.sample(range(3),
                                                                          rng.randint(2, 3)))
        domains.append(values)
    room = sum(max(values) for values in domains)
    least = sum(min(values) for values in domains)
    number = rng.choice([room, room, least, rng.randint(1, 8), room + 1])
    return domains, max(number, 1)


def check_rule(rule: Rule, kind: str, seed: Any = None, trials: int = 150) -> None:
    """The rule on the exercise's islands, then on `trials` random ones."""
    __tracebackhide__ = True
    examples = {"OneOpenNeighbour": [([[0, 1, 2]] * 3, 3), ([[1], [0], [0, 1, 2]], 3),
                                     ([[2], [2], [0, 1, 2]], 3), ([[1], [1], [1]], 3)],
                "Saturation": [([[0, 1, 2], [0, 1], [0, 1, 2]], 5), ([[0, 1, 2]] * 3, 5),
                               ([[0, 1], [0, 1]], 3)]}
    for domains, number in examples[kind]:
        verify_island(rule, kind, domains, number)
    rng = draw(f"hashi {kind}", seed)
    for _ in range(trials):
        verify_island(rule, kind, *_random_island(rng))


@own_work(*OWN)
def check_one_open_neighbour(rule: Rule, seed: Any = None) -> None:
    __tracebackhide__ = True
    check_rule(rule, "OneOpenNeighbour", seed)


@own_work(*OWN)
def check_saturation(rule: Rule, seed: Any = None) -> None:
    __tracebackhide__ = True
    check_rule(rule, "Saturation", seed)


# -- the rules at work ----------------------------------------------------------------------
def verify_puzzle(rules: Sequence[Rule], puzzle: hashi.Hashi, where: str) -> int:
    """Solve the bare model with the rules; returns the nodes it needed."""
    __tracebackhide__ = True
    with unwatched():
        plain = solve(bare_model(puzzle), inference="mac").stats.nodes
    return solved_with("your rules", bare_model(puzzle, rules), puzzle, where, plain,
                       f"with the degree only checked it needs {plain}").stats.nodes


@own_work(*OWN)
def check_rules_in_search(one_open: Rule, saturation: Rule, seed: Any = None,
                          trials: int = 6) -> None:
    """Notebook 03's 7x7 puzzle (both rules must show in the trace), then `trials` puzzles
    of the generator."""
    __tracebackhide__ = True
    rules = (one_open, saturation)
    puzzle = hashi.parse(PUZZLE)
    verify_puzzle(rules, puzzle, "the 7x7 puzzle")
    trace = solve(bare_model(puzzle, rules), inference="mac", trace=True).trace
    causes = [e.cause or "" for e in trace or () if e.kind == "prune"]
    for family in ("one open neighbour at", "saturation at"):
        if not any(cause.startswith(family) for cause in causes):
            fail(f"on the 7x7 puzzle no removal in the trace names "
                 f"{family!r}: each rule's removals should carry its name (set in "
                 f"__init__), and both rules fire on this puzzle")
    rng = draw("hashi rules in search", seed)
    for number in range(1, trials + 1):
        size = rng.choice((6, 7, 8))
        with unwatched():
            generated = hashi.generate(size, size, difficulty="easy", seed=rng.randrange(10**6))
        verify_puzzle(rules, generated, f"generated puzzle {number} "
                                        f"({generated.to_tatham()})")
