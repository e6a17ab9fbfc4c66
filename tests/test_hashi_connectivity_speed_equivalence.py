"""The fast paths of the Hashi search give exactly what the plain computations give.

Connectivity and the island rule read bounds with membership tests, Connectivity keeps its
groups up to date (undone on backtracking) instead of building them at every call, the
island rule stops after one pass when its edges' domains are intervals, and dom/wdeg keeps
weighted degrees up to date instead of summing them at every node: each is compared here
with the plain version it replaces (min/max, find/union, passes to the fixpoint, the sum).
"""

from __future__ import annotations

import random
from itertools import combinations

from csp_puzzles import hashi
from csp_puzzles.core import Contradiction, Search, SearchState, solve, solve_with_restarts
from csp_puzzles.core.heuristics import dom_wdeg
from csp_puzzles.core.unionfind import UnionFind
from csp_puzzles.hashi.connectivity import _Groups, _Seen
from csp_puzzles.hashi.rules import IslandDegree, edge_bounds
from tests.conftest import REPO, data_available, shared_file


def test_bounds_are_min_and_max_of_every_domain():
    for top in range(1, 5):
        values = range(top + 1)
        domains = [set(c) for size in range(1, top + 2) for c in combinations(values, size)]
        lows, highs, widest = edge_bounds(domains, top)
        assert lows == [min(d) for d in domains]
        assert highs == [max(d) for d in domains]
        assert widest == max(max(d) - min(d) for d in domains)
        assert edge_bounds(domains[:top + 1], top)[2] == 0  # the fixed ones come first


def test_one_pass_of_the_island_rule_reaches_its_fixpoint():
    """Whatever the island's number and its edges' domains (intervals or with holes), a
    call of the island rule leaves nothing for a second call to prune."""
    rng = random.Random(11)
    puzzle = hashi.parse("3 0 3 0 3\n0 0 0 0 0\n3 0 8 0 3\n0 0 0 0 0\n3 0 3 0 3\n")
    csp = puzzle.to_csp()
    rules = [c for c in csp.constraints if isinstance(c, IslandDegree)]
    tried = 0
    for _ in range(3000):
        rule = rng.choice(rules)
        state = SearchState(csp)
        for var in rule.scope:
            for value in rng.sample(range(3), rng.randint(0, 2)):
                state.remove(var, value)
        try:
            rule.propagate(state)
        except Contradiction:
            continue
        pruned = state.stats.prunings
        rule.propagate(state)
        assert state.stats.prunings == pruned
        tried += 1
    assert tried > 500


def _plain_groups(n, values, ends, lows):
    """Each island's group named by its first island, and each group's need and size."""
    plain = UnionFind(n)
    for (a, b), lo in zip(ends, lows):
        if lo:
            plain.union(a, b)
    first = {}
    for i in range(n):
        first.setdefault(plain.find(i), i)
    root = [first[plain.find(i)] for i in range(n)]
    need = [0] * n
    for i, r in enumerate(root):
        need[r] += values[i]
    for (a, _), lo in zip(ends, lows):
        need[root[a]] -= 2 * lo
    return root, {r: need[r] for r in set(root)}, {r: root.count(r) for r in set(root)}


def _seen(groups):
    """The groups as `_plain_groups` gives them, once each group's island list (and the
    list of groups kept along the way) is checked."""
    roots = list(groups.roots)
    assert [i for i, r in enumerate(groups.root) if r == i] == roots  # found afresh
    for r in roots:
        assert sorted(groups.members[r]) == [i for i, x in enumerate(groups.root) if x == r]
    return (list(groups.root), {r: groups.need[r] for r in roots},
            {r: groups.size[r] for r in roots})


def test_groups_kept_up_to_date_match_plain_find_and_union_and_roll_back():
    """Raising edges one at a time (as a branch does) gives the groups a plain union-find
    gives, and rolling back each step's log gives back the groups before it."""
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 30)
        values = [rng.randint(1, 8) for _ in range(n)]
        ends = [tuple(rng.sample(range(n), 2)) for _ in range(rng.randint(0, 2 * n))] \
            if n > 1 else []
        groups = _Groups(n, values, ends)
        lows = [0] * len(ends)
        history = []
        for _ in range(rng.randint(0, 3 * len(ends))):
            k = rng.randrange(len(ends))
            if lows[k] == 2:
                continue
            before = _seen(groups)
            lows[k] += rng.randint(1, 2 - lows[k])
            log = []
            groups.raise_low(k, lows[k], log)
            history.append((before, log))
            assert _seen(groups) == _plain_groups(n, values, ends, lows)
        for before, log in reversed(history):
            groups.roll_back(log)
            assert _seen(groups) == before
        assert groups.lows == [0] * len(ends)


def test_groups_kept_along_a_search_match_the_domains_at_every_call(monkeypatch):
    """Through backtracks, backjumps and restarts, what Connectivity has seen is what the
    domains say at each of its calls."""
    refresh = _Seen.refresh
    calls = []
    puzzle = _puzzle_with_failures()
    values = [island.value for island in puzzle.islands]

    def checked(seen, state):
        refresh(seen, state)
        lows, highs, _ = edge_bounds(seen.domains, seen.top)
        assert seen.groups.lows == lows and seen.highs == highs
        room = [0] * len(values)
        for (a, b), lo, hi in zip(seen.groups.ends, lows, highs):
            room[a] += hi - lo
            room[b] += hi - lo
        assert seen.room == room
        groups = seen.groups
        assert _seen(groups) == _plain_groups(len(values), values, groups.ends, lows)
        root = groups.root
        links = [(k, root[a], root[b]) for k, ((a, b), lo, hi) in
                 enumerate(zip(groups.ends, lows, highs)) if lo != hi and root[a] != root[b]]
        for r in groups.roots:  # each group's open edges to other groups
            assert groups.links[r] == {k for k, ra, rb in links if r in (ra, rb)}
        outward = [0] * len(values)
        for k, _, _ in links:
            for i in groups.ends[k]:
                outward[i] += 1
        assert groups.outward == outward
        assert groups.free == [sum(map(min, groups.remaining, outward))]
        calls.append(1)

    monkeypatch.setattr(_Seen, "refresh", checked)
    result = solve_with_restarts(puzzle.to_csp(), first_budget=5, look_back="learn")
    assert result.status == "solved" and not puzzle.check(puzzle.decode(result.solution))
    assert result.stats.backtracks > 0 and len(calls) > result.stats.nodes / 2


def _plain_dom_wdeg(state):
    """dom/wdeg summing the weights afresh, as it did before the degrees were kept."""
    best, best_score = None, 0.0
    for var in state.unassigned():
        wdeg = sum(state.weights.get(c, 1) for c in state.csp.constraints_of[var]) or 1
        score = len(state.domains[var]) / wdeg
        if best is None or score < best_score:
            best, best_score = var, score
    return best


def _checked_dom_wdeg(state):
    chosen = dom_wdeg(state)
    assert chosen == _plain_dom_wdeg(state)
    assert state.wdeg == {var: sum(state.weights.get(c, 1) for c in constraints)
                          for var, constraints in state.csp.constraints_of.items()}
    return chosen


def _puzzle_with_failures() -> hashi.Hashi:
    """A puzzle whose searches fail, backtrack and learn: a Coelho instance, or without
    the shared data the project's own 129-island random grid."""
    if data_available("coelho-hashi"):
        path = shared_file("coelho-hashi", "200", "Hs_24_200_75_00_002.has")
    else:
        path = REPO / "data" / "random" / "hashi-20x20.txt"
    return hashi.parse(path.read_text(), str(path))


def test_kept_weighted_degrees_choose_as_the_plain_sum():
    """At every node, and across restarts that share the weights."""
    csp = _puzzle_with_failures().to_csp()
    result = solve_with_restarts(csp, var_order=_checked_dom_wdeg, first_budget=5)
    assert result.status == "solved"
    search = Search(csp, var_order=_checked_dom_wdeg, max_nodes=50)
    list(search.solutions())
    again = Search(csp, var_order=_checked_dom_wdeg, max_nodes=50, weights=search.weights)
    list(again.solutions())
    assert again.weights is search.weights


def _look_everywhere(monkeypatch):
    """Make Connectivity read every group and edge at each call, as if all were news."""
    refresh = _Seen.refresh

    def everything(seen, state):
        refresh(seen, state)
        seen.touched, seen.frontier, seen.lost_link = None, None, True

    monkeypatch.setattr(_Seen, "refresh", everything)


def test_connectivity_looking_only_where_things_changed_prunes_the_same(monkeypatch):
    """The rules that look only at the groups and edges changed since the last call (and
    at the graph of groups only when it lost a link) prune the same values in the same
    order, with the same reasons, as reading everything again at each call."""
    csp = _puzzle_with_failures().to_csp()

    def runs():
        traced = solve(csp, var_order="dom-wdeg", trace=True, max_nodes=400)
        learning = solve_with_restarts(csp, first_budget=20, max_nodes=400, look_back="learn")
        return ([(e.kind, e.var, e.value, e.cause) for e in traced.trace], traced.stats.nodes,
                learning.status, learning.solution, learning.stats.nodes,
                learning.stats.learnt, learning.stats.backjumps)

    fast = runs()
    _look_everywhere(monkeypatch)
    assert runs() == fast
    assert fast[1] > 50 and fast[-2] > 0  # the searches failed, backtracked and learnt
