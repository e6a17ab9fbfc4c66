"""The shared union-find, against groups found by a plain graph search."""

from __future__ import annotations

import random

from csp_puzzles.core.unionfind import UnionFind, components


def groups_by_search(n: int, links: list[tuple[int, int]]) -> list[set[int]]:
    around: dict[int, set[int]] = {i: set() for i in range(n)}
    for a, b in links:
        around[a].add(b)
        around[b].add(a)
    seen: set[int] = set()
    groups = []
    for start in range(n):
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            for other in around[todo.pop()] - group:
                group.add(other)
                todo.append(other)
        seen |= group
        groups.append(group)
    return groups


def test_components_match_a_graph_search():
    rng = random.Random(5)
    for _ in range(200):
        n = rng.randint(1, 30)
        links = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 2 * n))]
        roots = components(n, links)
        found = {}
        for item, root in enumerate(roots):
            found.setdefault(root, set()).add(item)
        expected = groups_by_search(n, links)
        assert sorted(map(sorted, found.values())) == sorted(map(sorted, expected))
        assert all(roots[root] == root for root in roots)  # a representative is its own


def test_union_says_whether_it_joined():
    groups = UnionFind(4)
    assert groups.union(0, 1) and groups.union(2, 3)
    assert not groups.union(1, 0)
    assert groups.union(1, 3) and groups.find(0) == groups.find(2)
