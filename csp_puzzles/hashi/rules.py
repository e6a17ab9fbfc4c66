"""The deduction rules a Hashi player uses, each a propagator on the generic core.

Every pruning names the rule and the place, so a trace reads like a player's reasoning.

Two sets of island rules share the crossings and the connectivity propagators:

- `IslandCounting`, Tatham's island rules, level by level (the ladder that grades puzzles,
  see `grade.py`). `easy` (his solver's stage 1):
  - "small island at (r,c)": an edge carries at most the number of either island;
  - "island complete at (r,c)": no bridge left to place, every other edge stays as it is;
  - "saturation at (r,c)": the room left on the edges (each counted up to what the island
    still needs) is exactly what it needs, so every edge takes all of it ("one open
    neighbour at (r,c)" when a single edge has room);
  - "a bridge to every neighbour at (r,c)": a number above maxb times (neighbours - 1)
    cannot be made without each neighbour;
  and `medium` (stage 2) adds
  - "edge minimum at (r,c)": the other edges together carry less than the number, so this
    one carries at least one bridge;
  - "no loops" (the `L` variant, `connectivity.NoLoops`): never join two islands already
    joined.
  `hard` (stage 3) adds the trials of `trials.py`.
- `IslandDegree`, the solver's island rule (the default model, `level="full"`): bounds
  reasoning on the sum, as strong as it goes, named by the cases players know (the first
  four above, "N remaining with N+1 open", "edge minimum", "edge cap").
- `NoCrossing` ("a bridge blocks the neighbours behind it"): "crossing: (a)-(b) blocks (c)-(d)".
- `PairIsolation` (full model): "isolation 1-1 (a)-(b)" and "isolation 2=2 (a)-(b)": two
  equal islands joined by all their bridges would form a closed group.
- the connectivity rules live in `connectivity.py`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from operator import ne
from typing import TYPE_CHECKING, Any

from ..core import Constraint, Literal, SearchState, Sum
from ..core.checking import Breach
from ..core.trace import plural

if TYPE_CHECKING:
    from ..core.hints import Words
    from .model import Edge, Hashi, Island

#: Tatham's levels, easiest first: the rungs of the ladder (`Hashi.ladder`)
LEVELS = ("easy", "medium", "hard")
#: every rule: the solver's default model, beyond Tatham's levels
FULL = "full"
#: the rule families of the causes, by the level that introduces them (`FULL`: only the
#: solver's default model uses them)
RULE_LEVELS: dict[str, str] = {
    "small island": "easy",
    "island complete": "easy",
    "saturation": "easy",
    "one open neighbour": "easy",
    "a bridge to every neighbour": "easy",
    "crossing": "easy",
    "edge minimum": "medium",
    "no loops": "medium",
    "trial": "hard",
    "maxing the other edges": "hard",
    "N remaining with N+1 open": FULL,
    "edge cap": FULL,
    "isolation": FULL,
    "connectivity": FULL,
}


def rule_family(cause: str) -> str:
    """The rule family of a trace cause ("saturation at (2,3)" -> "saturation")."""
    for family in RULE_LEVELS:
        if cause.startswith(family):
            return family
    return cause


def check_level(level: str) -> None:
    if level not in (*LEVELS, FULL):
        raise ValueError(f"unknown rule level {level!r}, expected one of "
                         f"{', '.join((*LEVELS, FULL))}")


def edge_bounds(domains: Sequence[set[int]], top: int) -> tuple[list[int], list[int], int]:
    """The least and the most bridges each edge can still take (its domain's min and max),
    and the widest gap between the two (0 when every edge is fixed).

    min() and max() on a set look at every value. Edge domains are subsets of 0..top, so
    membership tests, several times faster, give the usual answers: a domain holding 0 has
    least 0, else one holding 1 has least 1; a fixed domain has most its least, else one
    holding top has most top.
    """
    lows: list[int] = []
    highs: list[int] = []
    widest = 0
    for domain in domains:  # a plain loop: comprehensions are calls of their own
        low = 0 if 0 in domain else 1 if 1 in domain else min(domain)
        high = low if len(domain) == 1 else top if top in domain else max(domain)
        lows.append(low)
        highs.append(high)
        if high - low > widest:
            widest = high - low
    return lows, highs, widest


@dataclass(frozen=True)
class _IslandSeen:
    """What an island rule read, for its hint: `need` ("island (2,3) needs 4"), the counts
    each edge could still carry (`edges`, in the rule's scope order) and what the rule
    removed, in words (`said`)."""

    need: str
    edges: list[Sequence[int]]
    said: str

    @property
    def low(self) -> int:
        """The bridges the edges carry already."""
        return sum(map(min, self.edges))

    @property
    def high(self) -> int:
        """The most bridges the edges can carry."""
        return sum(map(max, self.edges))

    @property
    def open_edges(self) -> int:
        """How many edges can still take a bridge."""
        return sum(1 for values in self.edges if max(values) > 0)


class _IslandRule(Sum):
    """The bridges around the island at `where` add up to its number, `value`; the hints of
    both island rules below start alike."""

    where: str
    value: int
    cell: tuple[int, int]  # the island's place, to mark it when broken
    top: int  # the most bridges an edge can carry

    def explain(self, cause: str, removals: Mapping[Hashable, Sequence[Any]],
                read: Mapping[Hashable, Sequence[Any]], words: Words) -> str | None:
        """A hint's sentence: what the island needs, what its edges carry and can still
        take (as the rule read them), and so what goes."""
        if any(var not in read for var in self.scope):
            return None
        seen = _IslandSeen(f"island {self.where} needs {self.value}",
                           [read[var] for var in self.scope], _bounds(removals, read, words))
        family = rule_family(cause)
        if family == "island complete":
            return f"{seen.need} and its edges carry {seen.low} already: no more bridges, " \
                   f"so {seen.said}"
        return self._sentence(family, seen, removals)

    def _sentence(self, family: str, seen: _IslandSeen,
                  removals: Mapping[Hashable, Sequence[Any]]) -> str | None:
        """The hint of a rule of `family` (other than "island complete"); None for one this
        rule does not word. Each island rule below words its own families."""
        return None

    def breach(self, values: Mapping[Hashable, Any], words: Words) -> Breach:
        """"island (2,3) has 5 bridges; it needs 4", or "... can have 3 at most"."""
        carried = sum(values.values())
        bridges = plural(carried, "bridge")
        if len(values) == len(self.scope) or carried > self.value:
            already = "" if len(values) == len(self.scope) else " already"
            said = f"island {self.where} has {bridges}{already}; it needs {self.value}"
        else:
            most = carried + self.top * (len(self.scope) - len(values))
            said = f"island {self.where} needs {self.value} and can have {most} at most"
        return Breach(said, (self.cell,))


class IslandDegree(_IslandRule):
    """The bridges around an island add up to its number, pruned with named rules.

    The reasoning is bounds reasoning on a sum, split into the cases players name. With
    `lo`/`hi` the least/most bridges each edge can still take, `low`/`high` their totals and
    `v` the island's number: every edge needs at least `v - (high - hi)` and takes at most
    `v - (low - lo)`.
    """

    idempotent = True
    proven_when_fixed = True  # all edges fixed: low = high, which fails unless it is v

    def __init__(self, puzzle: Hashi, island: Island, edges: Sequence[Edge]):
        self.where = str(island)
        super().__init__([e.key for e in edges], island.value, name=f"degree at {self.where}")
        self.value = island.value
        self.top = puzzle.maxb  # the most bridges an edge can carry
        self.cell = (island.row, island.col)

    def propagate(self, state: SearchState) -> None:
        edges = state.scope_domains(self)
        scope, value, where, top = self.scope, self.value, self.where, self.top
        while True:
            los, his, widest = edge_bounds(edges, top)
            low, high = sum(los), sum(his)
            if low > value:
                if state.explaining:  # what the edges already carry
                    state.reason = bounds_read(state, scope, least=True)
                state.fail(None, f"too many bridges at {where}: {low} > {value}")
            if high < value:
                if state.explaining:  # what the edges can no longer carry
                    state.reason = bounds_read(state, scope, least=False)
                state.fail(None, f"not enough room at {where}: {value} needed, {high} possible")
            # an edge is capped when its span (hi - lo) exceeds what the island still needs
            # (value - low), and raised when it exceeds the others' slack (high - value):
            # most calls find every span within both, and have nothing to prune
            if widest <= min(value - low, high - value):
                return
            open_edges = sum(map(ne, los, his))
            # when no domain misses a value between its least and its most, one pass of
            # these bounds reaches the fixpoint (each bound read from the sums before the
            # pass still holds after it); a domain with a hole moves past its bound, and
            # then the new bounds are read again
            intervals = sum(map(len, edges)) == high - low + len(edges)
            pruned = False
            for var, lo, hi in zip(scope, los, his):
                if lo == hi:
                    continue
                most = value - (low - lo)
                if hi > most:
                    cause = (f"island complete at {where}" if low == value
                             else f"edge cap at {where}")
                    carried = bounds_read(state, scope, least=True, skip=var) \
                        if state.explaining else None
                    pruned |= _keep_between(state, var, lo, most, cause, carried)
                least = value - (high - hi)
                if lo < least:
                    rule = self._minimum_cause(value, high, open_edges)
                    room = bounds_read(state, scope, least=False, skip=var) \
                        if state.explaining else None
                    pruned |= _keep_between(state, var, least, hi, rule, room)
            if not pruned or intervals:
                return

    def _sentence(self, family: str, seen: _IslandSeen,
                  removals: Mapping[Hashable, Sequence[Any]]) -> str | None:
        need, said = seen.need, seen.said
        room = f"{need} and has {plural(seen.open_edges, 'neighbour')}, which can take " \
               f"{seen.high} bridges at most"
        if family == "saturation":
            return f"{room}: every edge takes all it can, so {said}"
        if family == "N remaining with N+1 open":
            open_edges = [var for var, values in zip(self.scope, seen.edges) if max(values) > 0]
            if all(tuple(removals.get(var, ())) == (0,) for var in open_edges):
                said = "at least one bridge to each"
            return f"{room}: one to spare, so {said}"
        if family == "one open neighbour":
            return f"{need}, and only one of its edges can still change: it takes the rest, " \
                   f"so {said}"
        if family == "edge minimum":
            return f"{room}: an edge takes what the others cannot, so {said}"
        if family == "edge cap":
            return f"{need} and its edges carry {seen.low} already: an edge takes at most " \
                   f"what is still needed, so {said}"
        return None

    def _minimum_cause(self, value: int, high: int, open_edges: int) -> str:
        """Which rule raises an edge's minimum."""
        if high == value:
            return f"saturation at {self.where}"
        if open_edges == 1:
            return f"one open neighbour at {self.where}"
        if high - value == 1:
            return f"N remaining with N+1 open at {self.where}"
        return f"edge minimum at {self.where}"


class IslandCounting(_IslandRule):
    """Tatham's island rules at one island (his solver's stages 1 and 2), a rung at a time.

    With `lo`/`hi` the least/most bridges each edge can still take and `v` the island's
    number, the island still needs `missing = v - sum(lo)`, and an edge's room is
    `min(hi - lo, missing)`. Unlike `IslandDegree`, no edge is capped by what the island at
    its other end still needs: Tatham's easy and medium levels never look there.
    """

    idempotent = True
    proven_when_fixed = True  # all edges fixed: low = high, which fails unless it is v

    def __init__(self, island: Island, edges: Sequence[Edge], maxb: int, level: str):
        check_level(level)
        self.where = str(island)
        super().__init__([e.key for e in edges], island.value,
                         name=f"degree at {self.where}")
        self.value, self.maxb = island.value, maxb
        self.top, self.cell = maxb, (island.row, island.col)
        self.minimum = level != "easy"  # the edge minimum of stage 2

    def propagate(self, state: SearchState) -> None:
        while self._one_rule(state):
            pass

    def _sentence(self, family: str, seen: _IslandSeen,
                  removals: Mapping[Hashable, Sequence[Any]]) -> str | None:
        need, said, reachable = seen.need, seen.said, seen.open_edges
        if family == "small island":
            return f"{need}: no edge of it carries more than {self.value}, so {said}"
        if family == "saturation":
            return f"{need} and its edges carry {seen.low}: the room left on them is exactly " \
                   f"what it still needs, so {said}"
        if family == "one open neighbour":
            return f"{need}, and only one of its edges can still take a bridge: it takes the " \
                   f"rest, so {said}"
        if family == "a bridge to every neighbour":
            return f"{need} and has {plural(reachable, 'neighbour')}; without one of them the " \
                   f"others carry {(reachable - 1) * self.maxb} at most, so {said}"
        if family == "edge minimum":
            return f"{need} and its edges can take {seen.high} bridges at most: without an " \
                   f"edge, the others cannot make {self.value}, so {said}"
        return None

    def _one_rule(self, state: SearchState) -> bool:
        """Apply the first rule that prunes something; False when none does."""
        scope, v, where = self.scope, self.value, self.where
        edges = [state.domains[var] for var in scope]
        los, his = [min(d) for d in edges], [max(d) for d in edges]
        low, high = sum(los), sum(his)
        if low > v:
            state.fail(None, f"too many bridges at {where}: {low} > {v}")
        if high < v:
            state.fail(None, f"not enough room at {where}: {v} needed, {high} possible")
        if max(his, default=0) > v:
            return _keep_all(state, scope, [min(lo, v) for lo in los], [min(hi, v) for hi in his],
                             f"small island at {where}: no edge carries more than {v}")
        if low == v:
            return _keep_all(state, scope, los, los, f"island complete at {where}")
        missing = v - low
        rooms = [min(hi - lo, missing) for lo, hi in zip(los, his)]
        if sum(rooms) == missing:
            rule = "one open neighbour" if sum(map(bool, rooms)) == 1 else "saturation"
            return _keep_all(state, scope, [lo + room for lo, room in zip(los, rooms)], his,
                             f"{rule} at {where}")
        reachable = sum(hi > 0 for hi in his)
        if v > (reachable - 1) * self.maxb and _keep_all(
                state, scope, [max(lo, min(hi, 1)) for lo, hi in zip(los, his)], his,
                f"a bridge to every neighbour at {where}: {v} > {reachable - 1} x {self.maxb}"):
            return True
        if self.minimum:
            needed = [1 if lo == 0 < hi and high - hi < v else lo for lo, hi in zip(los, his)]
            return _keep_all(state, scope, needed, his,
                             f"edge minimum at {where}: the other edges cannot carry {v}")
        return False


def _keep_all(state: SearchState, scope: Sequence[Hashable], least: Sequence[int],
              most: Sequence[int], cause: str) -> bool:
    """Keep each variable of `scope` within its [least, most]; True if anything went."""
    pruned = False
    for var, lo, hi in zip(scope, least, most):
        pruned |= _keep_between(state, var, lo, hi, cause)
    return pruned


def _bounds(removals: Mapping[Hashable, Sequence[Any]], read: Mapping[Hashable, Sequence[Any]],
            words: Words) -> str:
    """What removals leave of each edge, as a player says it: "edge A carries at least 1
    bridge", "at most 1", or its one count left."""
    said = []
    for var, gone in removals.items():
        left = [x for x in read[var] if x not in gone]
        if len(left) == 1 or not left:
            said.append(words.holds(var, left) if left else words.removal(var, gone))
        elif max(gone) < min(left):
            said.append(f"{words.name(var)} carries at least {words.value(min(left))}")
        elif min(gone) > max(left):
            said.append(f"{words.name(var)} carries at most {words.value(max(left))}")
        else:
            said.append(words.removal(var, gone))
    return ", ".join(said[:-1]) + f" and {said[-1]}" if len(said) > 1 else said[0]


def bounds_read(state: SearchState, edges: Sequence[Hashable], least: bool,
                skip: Hashable = None) -> list[Literal]:
    """The least (or greatest) bridges of some edges (but `skip`), as a reason: what a
    rule that reads only those bounds read (see `core.reasons`)."""
    bound = state.below if least else state.above
    return [literal for edge in edges if edge != skip for literal in bound(edge)]


def _keep_between(state: SearchState, var: Hashable, least: int, most: int, cause: str,
                  reason: Sequence[Any] | None = None) -> bool:
    """Keep `var` within [least, most]; `reason` says why, when the search looks back.

    The cap reads only the other edges' least values, the minimum only their greatest
    ones (see `core.reasons`).
    """
    domain, pruned = state.domains[var], False
    for x in state.order[var]:  # a plain loop: a comprehension is a call of its own
        if x in domain and not least <= x <= most:
            state.reason = reason
            state.remove(var, x, cause)
            pruned = True
    return pruned


class NoCrossing(Constraint):
    """Two edges whose bridges would cross: at most one of them carries bridges."""

    idempotent = True
    proven_when_fixed = True  # both fixed above 0: the first blocks the second, which fails

    def __init__(self, first: Edge, second: Edge):
        self.labels: dict[Hashable, str] = {first.key: str(first), second.key: str(second)}
        super().__init__(self.labels, f"no crossing {' / '.join(self.labels.values())}")

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        a, b = self.scope
        return values[a] == 0 or values[b] == 0

    def propagate(self, state: SearchState) -> None:
        a, b = self.scope
        first, second = state.scope_domains(self)
        if 0 not in first:  # edge a surely carries bridges (no domain is ever empty here)
            self._block(state, a, b)
        elif 0 not in second:
            self._block(state, b, a)

    def explain(self, cause: str, removals: Mapping[Hashable, Sequence[Any]],
                read: Mapping[Hashable, Sequence[Any]], words: Words) -> str | None:
        """"edge A carries 1 bridge or 2 bridges, and edge B crosses it, so ..."."""
        bridge = next((var for var in self.scope if var not in removals and var in read), None)
        if bridge is None or len(removals) != 1:
            return None
        (blocked,) = removals
        return f"{words.holds(bridge, read[bridge])}, and {words.name(blocked)} crosses " \
               f"it, so {words.removals(removals)}"

    def breach(self, values: Mapping[Hashable, Any], words: Words) -> Breach:
        """"the bridges (0,1)-(4,1) and (2,0)-(2,3) cross"."""
        first, second = self.labels.values()
        return Breach(f"the bridges {first} and {second} cross")

    def _block(self, state: SearchState, bridge: Hashable, blocked: Hashable) -> None:
        """`bridge` surely carries bridges (why: its 0 is gone), so `blocked` carries none."""
        if 0 not in state.domains[blocked]:
            if state.explaining:
                state.reason = [*state.below(bridge), *state.below(blocked)]
            state.fail(blocked, f"crossing: {self.labels[bridge]} blocks {self.labels[blocked]}")
        _keep_between(state, blocked, 0, 0,
                      f"crossing: {self.labels[bridge]} blocks {self.labels[blocked]}",
                      state.below(bridge) if state.explaining else None)


ISOLATION_NAMES = {1: "1-1", 2: "2=2", 3: "3≡3", 4: "4≣4"}


class PairIsolation(Constraint):
    """Two islands of number k joined by k bridges would be a closed group of two.

    Only valid when the puzzle has more than two islands (the model checks that).
    """

    idempotent = True
    proven_when_fixed = True  # fixed to k: removing k empties the domain

    def __init__(self, edge: Edge, k: int):
        super().__init__([edge.key], f"isolation {ISOLATION_NAMES.get(k, k)} {edge}")
        self.k = k

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return values[self.scope[0]] != self.k

    def propagate(self, state: SearchState) -> None:
        state.remove(self.scope[0], self.k, self.name)

    def explain(self, cause: str, removals: Mapping[Hashable, Sequence[Any]],
                read: Mapping[Hashable, Sequence[Any]], words: Words) -> str | None:
        """Why the two islands cannot use all their bridges on each other."""
        edge = words.name(self.scope[0])
        return f"the islands at both ends of {edge} need {self.k} each: {self.k} bridges " \
               f"between them would make a group cut off from the others, so " \
               f"{words.removals(removals)}"
