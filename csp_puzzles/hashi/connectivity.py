"""All islands connected (and, in Tatham's `L` variant, no loops): global propagators.

A final check that the bridges connect everything would find a wrong guess only when the
grid is full. These propagators reason on the partial state instead, as a player does.

They group the islands already joined by sure bridges (edges whose least value is at least
1) with a union-find, and give each group its *open capacity*: how many bridges its islands
still need beyond the sure ones. Then:

- "connectivity: group at (r,c) is cut off": a group that is not every island has no edge
  left to the outside, or needs no more bridges (a closed group): this branch fails;
- "connectivity: k groups need k-1 more links, only m link ends are free": each new link
  between groups uses a bridge at both ends, and the islands cannot supply enough;
- "connectivity: single way out of the group at (r,c)": a group with exactly one edge to
  the outside must use it;
- "connectivity: (a)-(b) is the only link between two parts": the same for any edge whose
  loss would split the graph of groups (a cut edge, found by Tarjan's depth-first search);
- "connectivity: n on (a)-(b) would close a group of k islands": a value that would join
  groups (or grow a bridge inside one) so that the result needs nothing more, while other
  islands remain outside, is removed (1-1 and 2=2 isolation are special cases);
- "connectivity: maxing the other edges of (r,c) isolates a group" (Tatham's stage 3): if
  an island could only reach its number without edge e by maxing all its other edges, and
  that would close a group, then e needs one more bridge.

`NoLoops` forbids an edge between two islands of the same group ("no loops: ...").

The groups are kept from call to call (`_Seen`, undone on backtracking with the domains),
and each rule looks only where something changed since the last call: that call pruned
everything else already.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import compress
from operator import ne
from typing import TYPE_CHECKING, Any

from ..core import Constraint, Contradiction, Literal, SearchState
from ..core.checking import Breach
from ..core.unionfind import UnionFind
from .rules import FULL, bounds_read, check_level, edge_bounds

if TYPE_CHECKING:
    from ..core.hints import Words
    from .model import Edge, Hashi


def _read(state: SearchState, edges: list[Hashable]) -> list[Literal]:
    """What a rule about groups reads of the edges around them (a reason, see
    `core.reasons`): why each sure bridge is sure (its 0 went) and why each closed edge is
    closed (its bridges went). Open edges say nothing about the groups as they stand."""
    reason: list[Literal] = []
    for key in edges:
        domain = state.domains[key]
        if 0 not in domain:
            reason += state.below(key)
        elif len(domain) == 1:
            reason += state.above(key)
    return reason


class _Groups:
    """The islands joined by sure bridges, in groups, with each group's open capacity.

    A group is named by its first island (in reading order): `root[i]` is that island for
    island `i`, `members[r]` the islands of the group named `r`, `need[r]` what its islands
    still need beyond their sure bridges (a sure bridge inside the group counts at both
    ends), `size[r]` how many islands it holds, `links[r]` the open edges from it to other
    groups; `outward[i]` counts island i's open edges to other groups.

    Along a branch of the search, edges only gain sure bridges, so the groups only merge:
    `raise_low` records each change in a log, and `roll_back` undoes a log, latest first,
    when the search backtracks. Merging moves the smaller group's islands into the larger
    one's list, so an island moves O(log n) times down a branch (and is renamed when the
    name goes with the smaller group).
    """

    def __init__(self, n: int, values: Sequence[int], ends: Sequence[tuple[int, int]]):
        self.ends = ends
        self.lows = [0] * len(ends)  # the sure bridges on each edge
        self.remaining = list(values)  # what each island needs beyond its sure bridges
        self.root = list(range(n))
        self.members = [[i] for i in range(n)]  # by root
        self.need = list(values)  # by root
        self.size = [1] * n  # by root
        self.roots = list(range(n))  # the groups' names, in order, kept up to date
        self.links: list[set[int]] = [set() for _ in range(n)]  # by root; all edges open
        self.outward = [0] * n
        for k, (a, b) in enumerate(ends):
            self.links[a].add(k)
            self.links[b].add(k)
            self.outward[a] += 1
            self.outward[b] += 1
        #: the sum over the islands of min(remaining, outward): the link ends still free
        #: (in a list of one, so that a log can restore it)
        self.free = [sum(map(min, self.remaining, self.outward))]

    def close(self, k: int, log: list[tuple[Any, int, Any]]) -> None:
        """Edge k can take no more bridges than it holds: if it linked two groups, it no
        longer does."""
        a, b = self.ends[k]
        ra, rb = self.root[a], self.root[b]
        if ra != rb:
            for group in (self.links[ra], self.links[rb]):
                group.discard(k)
                log.append((group, ADD, k))
            self._lower(self.outward, a, 1, log)
            self._lower(self.outward, b, 1, log)

    def _lower(self, counts: list[int], i: int, by: int, log: list[tuple[Any, int, Any]]
               ) -> None:
        """Lower island i's count in `remaining` or `outward` by `by`, and `free` with it."""
        remaining, outward, free = self.remaining, self.outward, self.free
        before = min(remaining[i], outward[i])
        log.append((counts, i, counts[i]))
        counts[i] -= by
        change = min(remaining[i], outward[i]) - before
        if change:
            log.append((free, 0, free[0]))
            free[0] += change

    def raise_low(self, k: int, low: int, log: list[tuple[Any, int, Any]]) -> None:
        """Edge k now holds at least `low` bridges (more than before): update the groups."""
        a, b = self.ends[k]
        lows, remaining, need, root = self.lows, self.remaining, self.need, self.root
        gained = low - lows[k]
        log.append((lows, k, lows[k]))
        lows[k] = low
        ra, rb = root[a], root[b]
        self._lower(remaining, a, gained, log)
        self._lower(remaining, b, gained, log)
        log.append((need, ra, need[ra]))
        if rb != ra:
            log.append((need, rb, need[rb]))
        need[ra] -= gained
        need[rb] -= gained
        if ra != rb:
            self._merge(ra, rb, log)

    def _merge(self, ra: int, rb: int, log: list[tuple[Any, int, Any]]) -> None:
        """Join two groups; the joined group is named by the first of the two names.

        The links between the two (in both groups' sets) stop being links: the joined
        group's links are the symmetric difference of the two sets.
        """
        members, root, need, size = self.members, self.root, self.need, self.size
        big, small = (ra, rb) if size[ra] >= size[rb] else (rb, ra)
        name = min(ra, rb)
        links, outward, ends = self.links, self.outward, self.ends
        for k in links[big] & links[small]:
            for i in ends[k]:
                self._lower(outward, i, 1, log)
        kept = links[big]
        kept ^= links[small]
        log.append((kept, XOR, links[small]))  # (A ^ B) ^ B is A again
        log.append((links, name, links[name]))
        links[name] = kept
        gone = max(ra, rb)  # no longer a group's name
        self.roots.remove(gone)
        log.append((self.roots, INSORT, gone))
        joined, moved = members[big], members[small]
        log.append((joined, CUT, len(joined)))
        joined.extend(moved)
        for i in (joined if name != big else moved):  # every island whose name changes
            log.append((root, i, root[i]))
            root[i] = name
        log.append((members, name, members[name]))
        members[name] = joined
        log.append((need, name, need[name]))
        log.append((size, name, size[name]))
        need[name] = need[ra] + need[rb]
        size[name] = size[ra] + size[rb]

    @staticmethod
    def roll_back(log: list[tuple[Any, int, Any]]) -> None:
        """Undo the changes of `log`, latest first."""
        for target, i, old in reversed(log):
            if i >= 0:
                target[i] = old
            elif i == CUT:
                del target[old:]
            elif i == ADD:
                target.add(old)
            elif i == XOR:
                target ^= old
            else:
                insort(target, old)


#: in a `_Groups` log, (a list, CUT, n) says the list held n items before; (a set, ADD, x)
#: that x was taken out of the set; (a set, XOR, other) that the set was XORed with other;
#: (a sorted list, INSORT, x) that x was taken out of the list
CUT, ADD, XOR, INSORT = -1, -2, -3, -4


class _Seen:
    """What `Connectivity` saw of the domains at its last call in one search, kept up to
    date rather than rebuilt at each call: the edges' sizes, most bridges and groups, and
    the islands' room.

    The edges that lost values since the last call are those the search's trail names
    since then (`SearchState.changed_since`); only those are read again. Each call's
    changes go on the trail as one undo step, so a backtrack restores what was seen at
    that point (and where on the trail it was seen), in step with the domains.

    `refresh` also says what changed since that last call, so that the rules can look only
    there (the last call pruned everything else already, and what it pruned is still gone):
    `touched`, the groups whose islands, need or size changed (None: assume every group
    did), `frontier`, their islands with an open edge left (the others have nothing left
    to prune or to be read through; None: every island), `moved`, the islands with an
    edge that changed, and `lost_link`, whether an edge
    between two groups lost its last possible bridge (only that can make a new cut edge:
    joining groups never does, and a new cut edge separates the two ends of a lost link).
    """

    def __init__(self, constraint: Connectivity, state: SearchState):
        self.top = constraint.top
        self.domains = [state.domains[key] for key in constraint.scope]
        self.index = {key: k for k, key in enumerate(constraint.scope)}
        self.seen_at: int | None = None  # the trail's length when last seen (None: never)
        self.highs = [constraint.top] * len(self.domains)
        self.groups = _Groups(constraint.n, constraint.values, constraint.ends)
        #: how many more bridges each island's edges could still take (all edges open)
        self.room = [constraint.top * len(edges) for edges in constraint.edges_at]
        self.touched: set[int] | None = None
        self.frontier: list[int] | None = None
        self.moved: set[int] = set()
        self.lost_link = True

    def refresh(self, state: SearchState) -> None:
        """Read again the edges that changed since the last call; list the groups."""
        domains, highs, groups = self.domains, self.highs, self.groups
        room, ends, seen_lows = self.room, groups.ends, groups.lows
        seen_at = self.seen_at
        everything = seen_at is None  # the first call: every edge is news
        if seen_at is None:
            changed = list(range(len(domains)))
        else:
            index = self.index
            changed = sorted(index[var] for var in state.changed_since(seen_at)
                             if var in index)
        raised: list[int] = []  # the edges whose least value rose
        emptied: list[int] = []  # the edges that lost their last possible bridge
        log: list[tuple[Any, int, Any]] = []
        if changed:
            lows, new_highs, _ = edge_bounds([domains[k] for k in changed], self.top)
            for k, low, high in zip(changed, lows, new_highs):
                old_low, old_high = seen_lows[k], highs[k]
                lost = (old_high - old_low) - (high - low)  # room the edge lost
                if lost:
                    a, b = ends[k]
                    log.append((room, a, room[a]))
                    log.append((room, b, room[b]))
                    room[a] -= lost
                    room[b] -= lost
                if high != old_high:
                    log.append((highs, k, old_high))
                    highs[k] = high
                    if not high:
                        emptied.append(k)
                if low != old_low:
                    groups.raise_low(k, low, log)
                    raised.append(k)
                if low == high and old_low != old_high:  # it was open
                    groups.close(k, log)

        def undo() -> None:
            _Groups.roll_back(log)
            self.seen_at = seen_at

        state.on_undo(undo)
        self.seen_at = state.mark()
        root = groups.root
        if everything:
            self.touched = self.frontier = None
        else:
            self.touched = {root[i] for k in raised for i in ends[k]}
            members = groups.members
            self.frontier = [i for r in self.touched  # room[i] > 0: an open edge left
                             for i in compress(members[r], map(room.__getitem__, members[r]))]
        # a link lost: an emptied edge between two groups (one inside a group links nothing)
        self.lost_link = everything or any(root[ends[k][0]] != root[ends[k][1]] for k in emptied)
        self.moved = {i for k in changed for i in ends[k]}


class Connectivity(Constraint):
    """Every island ends up in one group, propagated on groups of sure bridges."""

    priority = 1  # global and costly: MAC runs it once the island rules have settled
    #: every edge fixed: no group has a link left, so any group but the whole is cut off
    proven_when_fixed = True

    def __init__(self, puzzle: Hashi, edges: Sequence[Edge], level: str = FULL):
        check_level(level)
        super().__init__([e.key for e in edges], "connectivity")
        self.prune = level == FULL  # at Tatham's levels, a check only
        self.top = puzzle.maxb  # the most bridges an edge can carry
        self.n = len(puzzle.islands)
        self.values = [island.value for island in puzzle.islands]
        self.ends = [(e.a, e.b) for e in edges]
        self.labels = [str(e) for e in edges]
        self.places = [str(island) for island in puzzle.islands]
        self.island_cells = [(island.row, island.col) for island in puzzle.islands]
        self.firsts = [a for a, _ in self.ends]
        self.seconds = [b for _, b in self.ends]
        self.edges_at: list[list[int]] = [[] for _ in range(self.n)]
        self.others_at: list[list[int]] = [[] for _ in range(self.n)]  # the island across
        for k, (a, b) in enumerate(self.ends):
            self.edges_at[a].append(k)
            self.others_at[a].append(b)
            self.edges_at[b].append(k)
            self.others_at[b].append(a)

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        groups = _Groups(self.n, self.values, self.ends)
        for k, key in enumerate(self.scope):
            if values[key]:
                groups.raise_low(k, values[key], [])
        return len(groups.roots) == 1

    def breach(self, values: Mapping[Hashable, Any], words: Words) -> Breach:
        """"the islands (0,0) and (0,2) are cut off from the others": the smallest group of
        islands joined by the bridges placed that has no way out left (its edges out are
        settled, or its islands need nothing more)."""
        groups = _Groups(self.n, self.values, self.ends)
        log: list[tuple[Any, int, Any]] = []
        for k, key in enumerate(self.scope):
            if values.get(key):
                groups.raise_low(k, values[key], log)
        for k, key in enumerate(self.scope):
            if key in values:
                groups.close(k, log)
        closed = [r for r in groups.roots if groups.need[r] <= 0 or not groups.links[r]]
        if len(groups.roots) < 2 or not closed:
            return Breach("the islands cannot all be joined into one group")
        members = sorted(groups.members[min(closed, key=groups.size.__getitem__)])
        places = [self.places[i] for i in members]
        named = places[0] if len(places) == 1 else f"{', '.join(places[:-1])} and {places[-1]}"
        return Breach(f"{'the island' if len(places) == 1 else 'the islands'} {named} "
                      f"{'is' if len(places) == 1 else 'are'} cut off from the others",
                      tuple(self.island_cells[i] for i in members))

    def propagate(self, state: SearchState) -> None:
        scope, n = self.scope, self.n
        seen = state.data(self, lambda: _Seen(self, state))
        seen.refresh(state)
        groups, lows, highs = seen.groups, seen.groups.lows, seen.highs
        if len(groups.roots) == 1:
            return
        remaining, room, need, links = groups.remaining, seen.room, groups.need, groups.links
        for r in groups.roots:
            if need[r] <= 0 or not links[r]:
                self._fail_at(state, groups, r, f"connectivity: group at {self.places[r]} is cut "
                                         f"off ({groups.size[r]} of {n} islands)")
        self._enough_link_ends(groups)
        if not self.prune:
            return
        # Since the last call, groups that only joined stay linked to the rest and keep
        # their other links (and that call found every cut edge then): only a lost link
        # makes the graph of groups worth reading again.
        if seen.lost_link:
            for r in groups.roots:
                if len(links[r]) == 1:
                    (k,) = links[r]
                    if state.explaining:  # the group's bridges, and its other edges closed
                        state.reason = _read(state, self._around(groups, {r}, skip=k))
                    state.remove(scope[k], 0, f"connectivity: single way out of the group at "
                                              f"{self.places[r]}")
            for k in self._cut_edges(state, groups):
                if state.explaining:  # the closed edges across the cut
                    state.reason = bounds_read(state, self._closed_across(state, k),
                                               least=False)
                state.remove(scope[k], 0, f"connectivity: {self.labels[k]} is the only link "
                                          "between two parts")
        self._closing_values(state, groups, lows, highs, seen.frontier)
        self._maxing_others(state, groups, lows, highs, remaining, room, seen)

    def _fail_at(self, state: SearchState, groups: _Groups, group: int, cause: str,
                 apart: set[int] | None = None) -> None:
        """Fail, blaming the edges around one group: the search's dom/wdeg weights then
        point at that corner of the grid rather than at the whole puzzle.

        `apart` (all the groups cut off with it, when more than one) gives the reason: the
        bridges inside them and their edges to the rest, all closed.
        """
        failure = Contradiction(None, cause)
        failure.blame = tuple(self._around(groups, {group}))
        if state.explaining:
            failure.reason = _read(state, self._around(groups, apart or {group}))
        raise failure

    def _around(self, groups: _Groups, roots: set[int], skip: int = -1) -> list[Hashable]:
        """The edges at the islands of some groups (but `skip`): inside and leaving them."""
        root, scope = groups.root, self.scope
        return [scope[k] for i in range(self.n) if root[i] in roots
                for k in self.edges_at[i] if k != skip]

    def _inside(self, groups: _Groups, roots: set[int]) -> list[Hashable]:
        """The sure bridges inside some groups (what joins them and what they use up), in
        edge order."""
        lows, members, edges_at, scope = groups.lows, groups.members, self.edges_at, self.scope
        sure = {k for r in roots for i in members[r] for k in edges_at[i] if lows[k]}
        return [scope[k] for k in sorted(sure)]

    def _enough_link_ends(self, groups: _Groups) -> None:
        """g groups need at least g - 1 new links, and each link uses a bridge at each end.

        An island can start at most min(bridges it still needs, links it has to other
        groups) new links; if all islands together cannot supply 2 (g - 1) link ends, the
        groups can never be joined.
        """
        ends = groups.free[0]  # sum(map(min, remaining, groups.outward)), kept
        needed = 2 * (len(groups.roots) - 1)
        if ends < needed:
            raise Contradiction(None, f"connectivity: {len(groups.roots)} groups need "
                                      f"{needed // 2} more links, only {ends} link ends "
                                      "are free")

    def _cut_edges(self, state: SearchState, groups: _Groups) -> list[int]:
        """Edges every path between two groups uses (bridges of the graph of groups).

        The groups are the nodes and the possible edges between them the links; a link
        whose removal disconnects that graph must carry a bridge. Tarjan's depth-first
        search finds them all at once (a link is a cut edge when nothing below it in the
        search tree reaches back above it). Fails when the graph is already disconnected.

        The search follows each group's links in any order, but the cut edges are the
        same whatever the order: they come back in edge order, so that the removals always
        come in the same order.
        """
        return sorted(self._tarjan(state, groups))

    def _closed_across(self, state: SearchState, k: int) -> list[Hashable]:
        """Why edge k is a cut edge: the other edges between the two parts it joins, all
        closed (no bridge left on them). Groups need not be read: without k, the islands
        fall apart into the same two parts whatever the sure bridges are.

        The parts are found by growing both at once from k's two ends along the edges that
        can still carry a bridge; the smaller one is complete first, and the closed edges
        leaving it are the reason.
        """
        domains, scope, ends = state.domains, self.scope, self.ends
        edges_at, others_at = self.edges_at, self.others_at
        parts = [{ends[k][0]}, {ends[k][1]}]
        stacks = [[ends[k][0]], [ends[k][1]]]
        side = 0
        while stacks[side]:
            island = stacks[side].pop()
            for e, other in zip(edges_at[island], others_at[island]):
                if e != k and other not in parts[side] and max(domains[scope[e]]) > 0:
                    parts[side].add(other)
                    stacks[side].append(other)
            if stacks[side]:  # not complete yet: the other part's turn
                side = 1 - side
        part = parts[side]
        return [scope[e] for i in sorted(part) for e, other in zip(edges_at[i], others_at[i])
                if e != k and other not in part]

    def _tarjan(self, state: SearchState, groups: _Groups) -> list[int]:
        """The cut edges, in the order Tarjan's search finishes them."""
        root, firsts, seconds, links = groups.root, self.firsts, self.seconds, groups.links
        start = groups.roots[0]
        order = [-1] * self.n  # when the search first met each group (-1: not yet)
        reach = [0] * self.n  # the earliest group reachable from below it
        order[start] = reach[start] = 0
        seen = 1
        stack = [(start, -1, iter(links[start]))]
        cuts = []
        while stack:
            node, via, ways = stack[-1]
            for k in ways:
                if k == via:
                    continue
                other = root[firsts[k]]  # the group at the link's other end
                if other == node:
                    other = root[seconds[k]]
                if order[other] >= 0:
                    if order[other] < reach[node]:
                        reach[node] = order[other]
                    continue
                order[other] = reach[other] = seen
                seen += 1
                stack.append((other, k, iter(links[other])))
                break
            else:
                stack.pop()
                if stack:
                    parent = stack[-1][0]
                    if reach[node] < reach[parent]:
                        reach[parent] = reach[node]
                    if reach[node] > order[parent]:
                        cuts.append(via)
        if seen < len(groups.roots):
            apart = {r for r in groups.roots if order[r] < 0}
            lost = min(apart)
            self._fail_at(state, groups, lost, f"connectivity: {self.places[lost]} cannot reach "
                                        f"{self.places[start]}", apart)
        return cuts

    def _closing_values(self, state: SearchState, groups: _Groups, lows: list[int],
                        highs: list[int], frontier: list[int] | None) -> None:
        """Remove values that would make a group need nothing more while others remain.

        Raising edge k from its least value `lo` to `value` uses 2 * (value - lo) of the
        open capacity of the group(s) it touches; the value that uses exactly all of it
        closes the group. (Only the open edges of groups that changed since the last call
        can have a new such value: those at the `frontier` islands, or every one when None.)
        """
        root, need, size, n = groups.root, groups.need, groups.size, self.n
        domains, scope, ends = state.domains, self.scope, self.ends
        if frontier is None:
            open_edges = list(compress(range(len(lows)), map(ne, lows, highs)))
        else:
            edges_at = self.edges_at
            open_edges = sorted({k for i in frontier for k in edges_at[i] if lows[k] != highs[k]})
        for k in open_edges:
            a, b = ends[k]
            ra, rb = root[a], root[b]
            if ra == rb:
                joined_need, joined_size = need[ra], size[ra]
            else:
                joined_need, joined_size = need[ra] + need[rb], size[ra] + size[rb]
            if joined_size >= n or joined_need % 2 or joined_need <= 0:
                continue
            value = lows[k] + joined_need // 2
            if value in domains[scope[k]]:
                if state.explaining:  # the bridges that make the groups and their needs
                    state.reason = bounds_read(
                        state, [*self._inside(groups, {ra, rb}), scope[k]], least=True)
                state.remove(scope[k], value,
                             f"connectivity: {value} on {self.labels[k]} would close a group "
                             f"of {joined_size} islands")

    def _maxing_others(self, state: SearchState, groups: _Groups, lows: list[int],
                       highs: list[int], remaining: list[int], room: list[int],
                       seen: _Seen) -> None:
        """Tatham's stage 3: an edge is needed if maxing the others would close a group.

        If island i still needs `left` bridges and its edges other than k have exactly
        `left` bridges of room, then leaving k as it is maxes all of them; when that joins
        groups whose needs add up to 2 * left (each bridge serves two ends), the joined
        group needs nothing more, so unless it holds every island, k must grow.
        (Only an island whose edges changed since the last call, or which is in or next to
        a group that changed, can have a new such edge.)
        """
        root, need, size, n, ends = groups.root, groups.need, groups.size, self.n, self.ends
        edges_at, others_at = self.edges_at, self.others_at
        islands: Iterable[int] = range(n)
        if seen.frontier is not None:
            near = set(seen.moved)
            near.update(seen.frontier)
            for i in seen.frontier:
                for k, j in zip(edges_at[i], others_at[i]):
                    if lows[k] != highs[k]:
                        near.add(j)
            islands = sorted(near)
        for island in islands:
            left = remaining[island]
            if left <= 0:
                continue
            own = root[island]
            target = room[island] - left  # the room edge k must have for the rule to apply
            if target <= 0 or need[own] > 2 * left:
                continue
            edges = edges_at[island]
            for k in edges:
                if highs[k] - lows[k] != target:
                    continue
                merged = {own}
                total = need[own]
                for other in edges:
                    if other != k and highs[other] > lows[other]:
                        a, b = ends[other]
                        group = root[b] if a == island else root[a]
                        if group not in merged:
                            merged.add(group)
                            total += need[group]
                if total == 2 * left and sum(size[r] for r in merged) < n:
                    if state.explaining:  # the island's edges and the groups they reach
                        state.reason = [*state.read([self.scope[e] for e in edges]),
                                        *bounds_read(state, self._inside(groups, merged),
                                                     least=True)]
                    state.remove(self.scope[k], lows[k],
                                 f"connectivity: maxing the other edges of "
                                 f"{self.places[island]} isolates a group")


class NoLoops(Constraint):
    """Tatham's `L` variant: the bridges form no cycle (with connectivity: a tree)."""

    priority = 1  # global: runs after the island rules
    proven_when_fixed = True  # every edge fixed: a cycle of sure bridges fails at once

    def __init__(self, puzzle: Hashi, edges: Sequence[Edge], level: str = FULL):
        check_level(level)
        super().__init__([e.key for e in edges], "no loops")
        self.prune = level != "easy"
        self.n = len(puzzle.islands)
        self.values = [island.value for island in puzzle.islands]
        self.ends = [(e.a, e.b) for e in edges]
        self.labels = [str(e) for e in edges]

    def breach(self, values: Mapping[Hashable, Any], words: Words) -> Breach:
        return Breach("the bridges make a loop (this puzzle forbids loops)")

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        groups = UnionFind(self.n)
        return all(groups.union(a, b) for (a, b), key in zip(self.ends, self.scope)
                   if values[key])

    def propagate(self, state: SearchState) -> None:
        domains = state.domains
        groups = UnionFind(self.n)
        for (a, b), key in zip(self.ends, self.scope):
            if min(domains[key]) and not groups.union(a, b):
                state.fail(None, "no loops: the sure bridges already form a cycle")
        if not self.prune:
            return
        for k, ((a, b), key) in enumerate(zip(self.ends, self.scope)):
            if min(domains[key]) == 0 and len(domains[key]) > 1 \
                    and groups.find(a) == groups.find(b):
                state.fix(key, 0, f"no loops: {self.labels[k]} would close a cycle")
