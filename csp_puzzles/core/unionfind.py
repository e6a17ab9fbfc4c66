"""Union-find (disjoint sets): which items a set of links joins into groups.

Used by the puzzles' connectivity rules and by the Hashi SAT loop. Items are the numbers
0..n-1. `find` halves the path it walks (each node visited is pointed at its grandparent),
so paths stay short without recursion; `union(a, b)` puts a's root under b's root, so a
group's representative depends only on the order of the unions.
"""

from __future__ import annotations

from collections.abc import Iterable


class UnionFind:
    """Disjoint sets of 0..n-1; at first every item is a group of its own."""

    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        """The representative (root) of the group of `i`."""
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(self, a: int, b: int) -> bool:
        """Join the groups of `a` and `b`; False when they were one group already."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[ra] = rb
        return True

    def representatives(self) -> list[int]:
        """The representative of every item's group, item by item."""
        return [self.find(i) for i in range(len(self.parent))]


def components(n: int, links: Iterable[tuple[int, int]]) -> list[int]:
    """The group (its representative) of each of the items 0..n-1 joined by `links`."""
    groups = UnionFind(n)
    for a, b in links:
        groups.union(a, b)
    return groups.representatives()
