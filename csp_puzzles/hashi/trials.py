"""Tatham's hard level (his Bridges solver's stage 3): try something on one edge, look one
step ahead, and keep what the look proves.

The groups are the islands joined by sure bridges (edges whose least value is at least 1);
an island is full when its sure bridges make its number. Two rules, tried island by island
in reading order, one deduction per call (the island rules run again in between):

- "trial at (r,c): n bridges on (a)-(b) would ...": put n bridges on an edge of the island
  (each n its room allows, smallest first). If that closes a group (every island of it
  full) that is not every island, or leaves some island unable to finish (too many
  bridges, or its neighbours cannot take what it still needs), the edge is capped below n.
- "maxing the other edges of (r,c) would isolate a group": if giving every other edge of
  the island all its room fills the island and closes a group that is not every island,
  the edge (still without a bridge) needs one.

Only the edge tried, the edges it crosses and the islands next to them change in a trial,
so only those islands are looked at (the others were fine before it).

Both rules suppose something ("n bridges or more on this edge", "no bridge on it"), so a
hint from them zooms in (`core.hints`): the easy and medium rules, from the supposition,
reach the contradiction step by step. `suppositions` lists every deduction they can make
now, for the cheapest hint; the ladder's propagation makes the first only.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core import Constraint, SearchState
from ..core.constraints import Supposition
from ..core.unionfind import UnionFind

if TYPE_CHECKING:
    from ..core.hints import Words
    from .model import Edge, Hashi


class _Board:
    """The state a trial starts from: each edge's bounds, each island's sure bridges and
    group, and how many islands of each group are not full yet."""

    def __init__(self, trials: TrialBridges, state: SearchState):
        domains = [state.domains[key] for key in trials.scope]
        self.lows = [min(d) for d in domains]
        self.highs = [max(d) for d in domains]
        self.bridges = [0] * trials.n
        groups = UnionFind(trials.n)
        for (a, b), lo in zip(trials.ends, self.lows):
            self.bridges[a] += lo
            self.bridges[b] += lo
            if lo:
                groups.union(a, b)
        self.group = [groups.find(i) for i in range(trials.n)]
        self.size = [0] * trials.n
        self.open = [0] * trials.n  # islands of the group that are not full
        for i, g in enumerate(self.group):
            self.size[g] += 1
            self.open[g] += self.bridges[i] != trials.values[i]


class TrialBridges(Constraint):
    """Tatham's stage 3 over every edge (see the module docstring).

    A rule, not a relation: `is_satisfied` accepts everything, the island sums and
    connectivity are constraints of their own.
    """

    priority = 1  # global and costly: runs once the island rules have settled
    proven_when_fixed = True  # its relation accepts everything

    def __init__(self, puzzle: Hashi, edges: Sequence[Edge]):
        super().__init__([e.key for e in edges], "trials")
        self.n = len(puzzle.islands)
        self.values = [island.value for island in puzzle.islands]
        self.places = [str(island) for island in puzzle.islands]
        self.ends = [(e.a, e.b) for e in edges]
        self.labels = [str(e) for e in edges]
        index = {e.index: k for k, e in enumerate(edges)}
        self.edges_at: list[list[int]] = [[] for _ in range(self.n)]
        for k, (a, b) in enumerate(self.ends):
            self.edges_at[a].append(k)
            self.edges_at[b].append(k)
        self.crossing: list[list[int]] = [[] for _ in edges]
        for h, v in puzzle.crossings:
            if h in index and v in index:
                self.crossing[index[h]].append(index[v])
                self.crossing[index[v]].append(index[h])

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return True

    def explain(self, cause: str, removals: Mapping[Hashable, Sequence[Any]],
                read: Mapping[Hashable, Sequence[Any]], words: Words) -> str | None:
        """A hint's sentence: what the trial showed, in the rule's words, and what goes:
        "2 on (0,0)-(0,4) would close a group of 3 islands, so edge (0,0)-(0,4) cannot
        carry 2 bridges"."""
        return f"{cause.split(': ', 1)[-1]}, so {words.removals(removals)}"

    def propagate(self, state: SearchState) -> None:
        board = _Board(self, state)
        for island in range(self.n):
            if self._stuck(board, island, {}, {}):
                if state.explaining:  # it read the edges of the island and its neighbours
                    state.reason = [literal for i in (island, *self._others(island))
                                    for k in self.edges_at[i]
                                    for literal in state.lost(self.scope[k])]
                why = "its bridges are too many" if board.bridges[island] > \
                    self.values[island] else "its neighbours cannot take what it still needs"
                state.fail(None, f"{self.places[island]} cannot finish: {why}")
        for key, values, cause in self._deductions(state, board):
            for value in values:
                state.remove(key, value, cause)
            return

    def suppositions(self, state: SearchState) -> list[Supposition]:
        """Every trial that fails now (each edge capped at its least failing n, from either
        end) and every edge that maxing the others shows is needed: a supposition each
        ("n bridges or more", "no bridge")."""
        return list(dict.fromkeys(self._deductions(state, _Board(self, state))))

    def _deductions(self, state: SearchState, board: _Board) -> Iterator[Supposition]:
        """The deductions of the two rules, island by island in reading order: on each
        island the caps first (an edge at a time, at its least failing n), then the edges
        that maxing the others shows are needed."""
        for island in range(self.n):
            missing = self.values[island] - board.bridges[island]
            if missing > 0:
                yield from self._caps(state, board, island, missing)
                yield from self._needed(board, island, missing)

    def _caps(self, state: SearchState, board: _Board, island: int,
              missing: int) -> Iterator[Supposition]:
        """A trial on an edge of `island` that fails caps that edge below its n."""
        for k in self.edges_at[island]:
            lo = board.lows[k]
            for n in range(lo + 1, lo + min(board.highs[k] - lo, missing) + 1):
                why = self._trial(board, k, n)
                if why:
                    key = self.scope[k]
                    values = tuple(v for v in range(n, board.highs[k] + 1)
                                   if v in state.domains[key])
                    yield Supposition(key, values, f"trial at {self.places[island]}: {n} on "
                                                   f"{self.labels[k]} would {why}")
                    break

    def _trial(self, board: _Board, k: int, n: int) -> str:
        """What goes wrong with n bridges on edge k ('' if nothing visibly does).

        The edge keeps its room above n (as in Tatham's solver, so a failure at n is a
        failure at every larger n too): the trial asks "at least n"."""
        a, b = self.ends[k]
        gained = n - board.lows[k]
        bridges = {a: board.bridges[a] + gained, b: board.bridges[b] + gained}
        bounds = {k: (n, board.highs[k])}
        near = {a, b, *self._others(a), *self._others(b)}
        for j in self.crossing[k]:
            bounds[j] = (board.lows[j], board.lows[j])
            near.update(self.ends[j])
        closed = self._closed(board, bridges, {board.group[a], board.group[b]})
        if closed:
            return f"close a group of {closed} islands"
        for i in sorted(near):
            if self._stuck(board, i, bridges, bounds):
                return f"leave {self.places[i]} unable to finish"
        return ""

    def _needed(self, board: _Board, island: int, missing: int) -> Iterator[Supposition]:
        """An edge without a bridge is needed if maxing the others closes a group."""
        lows, highs = board.lows, board.highs
        for k in self.edges_at[island]:
            if lows[k] or min(highs[k], missing) <= 0:
                continue
            bridges = {island: board.bridges[island]}
            groups = {board.group[island]}
            for j in self.edges_at[island]:
                extra = min(highs[j] - lows[j], missing)
                if j == k or extra <= 0:
                    continue
                a, b = self.ends[j]
                other = b if a == island else a
                bridges[island] += extra
                bridges[other] = board.bridges[other] + extra
                groups.add(board.group[other])
            if bridges[island] == self.values[island] and self._closed(board, bridges, groups):
                yield Supposition(self.scope[k], (0,), f"maxing the other edges of "
                                                       f"{self.places[island]} would isolate "
                                                       "a group")

    def _closed(self, board: _Board, bridges: dict[int, int], groups: set[int]) -> int:
        """The size of the union of `groups` if every island in it is full (with the sure
        bridges of `board`, changed by `bridges`) and it is not every island; else 0."""
        size = sum(board.size[g] for g in groups)
        if size >= self.n:
            return 0
        still_open = sum(board.open[g] for g in groups)
        for i, count in bridges.items():
            if board.group[i] in groups:
                still_open += ((count != self.values[i])
                               - (board.bridges[i] != self.values[i]))
        return size if still_open == 0 else 0

    def _others(self, island: int) -> list[int]:
        return [b if a == island else a for a, b in (self.ends[k] for k in self.edges_at[island])]

    def _stuck(self, board: _Board, island: int, bridges: Mapping[int, int],
               bounds: Mapping[int, tuple[int, int]]) -> bool:
        """Can `island` no longer finish? Too many bridges, or the neighbours it can still
        reach cannot take what it needs (each neighbour counted up to what it needs itself,
        and up to the room on the edge). `bridges` and `bounds` override the board's."""
        values = self.values
        need = values[island] - bridges.get(island, board.bridges[island])
        if need <= 0:
            return need < 0
        offered = 0
        for k in self.edges_at[island]:
            lo, hi = bounds.get(k, (board.lows[k], board.highs[k]))
            a, b = self.ends[k]
            other = b if a == island else a
            free = values[other] - bridges.get(other, board.bridges[other])
            if hi > lo and free > 0:
                offered += min(free, hi - lo)
        return offered < need
