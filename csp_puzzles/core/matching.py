"""Régin's filtering for AllDifferent (see REFERENCES.md): which values belong to some
all-different matching.

Variables and values form a bipartite graph. A maximum matching gives every variable its
own value (if none covers every variable, the constraint fails). An edge variable-value
that lies in no such matching can be removed. By Berge's theorem an edge lies in some
maximum matching exactly when it is in the matching, on an alternating cycle (both ends in
the same strongly connected component of the graph oriented variable->value for unmatched
edges and value->variable for matched ones), or on an alternating path ending at a free
value.

Nodes are numbered: variables 0..n-1, values n..n+m-1, so the graph work is on small ints.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

Value = TypeVar("Value", bound=Hashable)


def alldifferent_supports(domains: Sequence[set[Value]]) -> list[set[Value]] | None:
    """For each variable (given by its domain), the values some matching can give it.

    Returns None when no matching covers every variable.
    """
    n = len(domains)
    values = list({v for d in domains for v in d})
    if len(values) < n:
        return None
    index = {v: n + k for k, v in enumerate(values)}
    adjacency = [[index[v] for v in d] for d in domains]  # variable -> value nodes

    match = _maximum_matching(adjacency, n + len(values))
    if match is None:
        return None
    value_of = match  # value_of[i]: value node matched to variable i; value_of[node]: variable

    # successors: variable -> its unmatched values; value -> its matched variable (if any)
    size = n + len(values)
    successors: list[list[int]] = [[] for _ in range(size)]
    for i, nodes in enumerate(adjacency):
        successors[i] = [node for node in nodes if node != value_of[i]]
    for node in range(n, size):
        holder = value_of[node]
        if holder >= 0:
            successors[node] = [holder]

    # values from which a free value can be reached, found by walking backwards
    predecessors: list[list[int]] = [[] for _ in range(size)]
    for node in range(size):
        for succ in successors[node]:
            predecessors[succ].append(node)
    reaches_free = [False] * size
    stack = [node for node in range(n, size) if value_of[node] < 0]
    for node in stack:
        reaches_free[node] = True
    while stack:
        node = stack.pop()
        for pred in predecessors[node]:
            if not reaches_free[pred]:
                reaches_free[pred] = True
                stack.append(pred)

    component = _strongly_connected(successors)
    supports = []
    for i, nodes in enumerate(adjacency):
        keep = {values[node - n] for node in nodes
                if node == value_of[i] or reaches_free[node] or component[node] == component[i]}
        supports.append(keep)
    return supports


def _maximum_matching(adjacency: list[list[int]], size: int) -> list[int] | None:
    """Match every variable to its own value node (augmenting paths); None if impossible.

    The result maps both ways: result[variable] = value node, result[value node] = variable
    (-1 for a free value).
    """
    n = len(adjacency)
    match = [-1] * size
    for i in sorted(range(n), key=lambda i: len(adjacency[i])):  # greedy start
        for node in adjacency[i]:
            if match[node] < 0:
                match[i], match[node] = node, i
                break
    for start in range(n):
        if match[start] >= 0:
            continue
        # breadth-first search for an augmenting path from `start`
        parent = {start: -1}  # the path's start has no parent
        frontier = [start]
        end = -1
        while frontier and end < 0:
            following = []
            for var in frontier:
                for node in adjacency[var]:
                    if node in parent:
                        continue
                    parent[node] = var
                    holder = match[node]
                    if holder < 0:
                        end = node
                        break
                    parent[holder] = node
                    following.append(holder)
                if end >= 0:
                    break
            frontier = following
        if end < 0:
            return None
        node = end
        while node >= 0:  # flip the path: each variable takes the value after it
            var = parent[node]
            previous = parent[var]
            match[var], match[node] = node, var
            node = previous
    return match


def _strongly_connected(successors: list[list[int]]) -> list[int]:
    """Tarjan's algorithm, iterative: the component number of every node."""
    size = len(successors)
    index = [-1] * size
    low = [0] * size
    on_stack = [False] * size
    stack: list[int] = []
    component = [-1] * size
    counter = 0
    for root in range(size):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            node, k = work[-1]
            children = successors[node]
            if k < len(children):
                work[-1] = (node, k + 1)
                child = children[k]
                if index[child] < 0:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack[child] = True
                    work.append((child, 0))
                elif on_stack[child]:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component[member] = node
                    if member == node:
                        break
    return component
