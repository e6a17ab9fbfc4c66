"""Régin's filtering for AllDifferent: which values belong to some all-different matching.

Variables and values form a bipartite graph. A maximum matching gives every variable its
own value (if one cannot be found, the constraint fails). An edge variable-value that lies
in no maximum matching can be removed. By Berge's theorem an edge lies in some maximum
matching exactly when it is in the matching, on an alternating cycle (both ends in the same
strongly connected component of the graph oriented variable->value for unmatched edges and
value->variable for matched ones), or on an alternating path ending at a free value.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def alldifferent_supports(domains: Sequence[set[Hashable]]) -> list[set[Hashable]] | None:
    """For each variable (given by its domain), the values some matching can give it.

    Returns None when no matching covers every variable.
    """
    n = len(domains)
    match_of_var: list[Hashable] = [None] * n
    var_of_value: dict[Hashable, int] = {}

    def augment(i: int, seen: set[Hashable]) -> bool:
        # iterative would be faster; recursion depth is at most the number of variables
        for value in domains[i]:
            if value in seen:
                continue
            seen.add(value)
            holder = var_of_value.get(value)
            if holder is None or augment(holder, seen):
                match_of_var[i] = value
                var_of_value[value] = i
                return True
        return False

    # greedy start, then augmenting paths for the rest
    for i in sorted(range(n), key=lambda i: len(domains[i])):
        for value in domains[i]:
            if value not in var_of_value:
                match_of_var[i] = value
                var_of_value[value] = i
                break
    for i in range(n):
        if match_of_var[i] is None and not augment(i, set()):
            return None

    # Graph: node i (variable) -> value for unmatched edges; value -> its matched variable.
    values = set().union(*domains) if domains else set()
    free_values = [v for v in values if v not in var_of_value]

    # Values from which a free value can be reached along alternating paths: walk backwards
    # from free values (value <- variable via unmatched edge, variable <- its matched value).
    holders_of: dict[Hashable, list[int]] = {v: [] for v in values}
    for i, domain in enumerate(domains):
        for value in domain:
            if value != match_of_var[i]:
                holders_of[value].append(i)
    reaches_free: set[Hashable] = set(free_values)
    stack = list(free_values)
    while stack:
        value = stack.pop()
        for i in holders_of[value]:
            matched = match_of_var[i]
            if matched not in reaches_free:
                reaches_free.add(matched)
                stack.append(matched)

    component = _strongly_connected(domains, match_of_var, var_of_value)
    supports: list[set[Hashable]] = []
    for i, domain in enumerate(domains):
        keep = set()
        for value in domain:
            if (value == match_of_var[i] or value in reaches_free
                    or component[("var", i)] == component[("val", value)]):
                keep.add(value)
        supports.append(keep)
    return supports


def _strongly_connected(domains, match_of_var, var_of_value) -> dict[tuple, int]:
    """Tarjan's algorithm (iterative) over the oriented matching graph."""
    def successors(node):
        kind, key = node
        if kind == "var":
            return [("val", v) for v in domains[key] if v != match_of_var[key]]
        holder = var_of_value.get(key)
        return [("var", holder)] if holder is not None else []

    nodes = [("var", i) for i in range(len(domains))]
    nodes += [("val", v) for v in {v for d in domains for v in d}]
    index: dict[tuple, int] = {}
    low: dict[tuple, int] = {}
    on_stack: set[tuple] = set()
    stack: list[tuple] = []
    component: dict[tuple, int] = {}
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(successors(root)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(successors(child))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component[member] = index[node]
                    if member == node:
                        break
    return component
