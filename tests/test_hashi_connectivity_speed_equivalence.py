"""The fast paths of the Hashi search give exactly what the plain computations give.

Connectivity reads bounds with membership tests and builds its union-find inline, and
dom/wdeg keeps weighted degrees up to date instead of summing them at every node: each is
compared here with the plain version it replaces (min/max, find/union, the sum).
"""

from __future__ import annotations

import random
from itertools import combinations

from csp_puzzles import hashi
from csp_puzzles.core import Search, solve_with_restarts
from csp_puzzles.core.heuristics import dom_wdeg
from csp_puzzles.hashi.connectivity import _bounds, _Groups
from tests.conftest import data_available, shared_file


def test_bounds_are_min_and_max_of_every_domain():
    for top in range(1, 5):
        values = range(top + 1)
        domains = [set(c) for size in range(1, top + 2) for c in combinations(values, size)]
        lows, highs = _bounds(domains, top)
        assert lows == [min(d) for d in domains]
        assert highs == [max(d) for d in domains]


def test_groups_match_plain_find_and_union():
    """Same roots (the representatives order the failures), needs and sizes."""
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 30)
        values = [rng.randint(1, 8) for _ in range(n)]
        ends = [tuple(rng.sample(range(n), 2)) for _ in range(rng.randint(0, 2 * n))] \
            if n > 1 else []
        lows = [rng.choice((0, 0, 1, 2)) for _ in ends]
        fast = _Groups(n, values, ends, lows)
        plain = _Groups(n, values, [], [])
        for (a, b), lo in zip(ends, lows):
            if lo:
                plain.union(a, b)
        root = [plain.find(i) for i in range(n)]
        need = [0] * n
        for i, r in enumerate(root):
            need[r] += values[i]
        for (a, _), lo in zip(ends, lows):
            need[root[a]] -= 2 * lo
        assert fast.root == root
        assert fast.roots == [i for i in range(n) if root[i] == i]
        assert [fast.need[r] for r in fast.roots] == [need[r] for r in fast.roots]
        assert [fast.size[r] for r in fast.roots] == [root.count(r) for r in fast.roots]


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
    if data_available("coelho-hashi"):
        path = shared_file("coelho-hashi", "200", "Hs_24_200_75_00_002.has")
        return hashi.parse(path.read_text(), str(path))
    return hashi.parse("\n".join(" ".join(["2", "0"] * 3) for _ in range(6)) + "\n")


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
