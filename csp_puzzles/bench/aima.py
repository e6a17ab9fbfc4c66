"""A PORT of AIMA's backtracking search, for `csp-puzzles bench core` only.

NOT csp-puzzles code: the parts of aima-python's `csp.py` (the `aima3` 1.0.11 package on
PyPI, MIT licence) that `backtracking_search` with `mrv` and `forward_checking` runs, copied
with their logic unchanged, so the benchmark can time the textbook's own pure-Python code
beside ours without installing `aima3` (its metadata pins networkx 1.11 and pulls Jupyter).
The one addition is `count_solutions`: AIMA's `backtrack` stops at the first solution, so
here the same recursion adds up every solution instead of returning the first, and builds
each one as a dict of values (`dict(assignment)`) as the benchmark's other solvers do.

AIMA's MRV breaks ties at random: the benchmark seeds `random` so runs repeat; the count
does not depend on the ties.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


class CSP:
    """aima3.csp.CSP, with the methods backtracking search uses."""

    def __init__(self, variables: list, domains: Any, neighbors: Any,
                 constraints: Callable[[Any, Any, Any, Any], bool]):
        self.variables = variables or list(domains.keys())
        self.domains = domains
        self.neighbors = neighbors
        self.constraints = constraints
        self.curr_domains: dict | None = None
        self.nassigns = 0

    def assign(self, var, val, assignment):
        assignment[var] = val
        self.nassigns += 1

    def unassign(self, var, assignment):
        if var in assignment:
            del assignment[var]

    def nconflicts(self, var, val, assignment):
        def conflict(var2):
            return (var2 in assignment
                    and not self.constraints(var, val, var2, assignment[var2]))
        return sum(bool(conflict(v)) for v in self.neighbors[var])  # utils.count

    def support_pruning(self):
        if self.curr_domains is None:
            self.curr_domains = {v: list(self.domains[v]) for v in self.variables}

    def suppose(self, var, value):
        self.support_pruning()
        assert self.curr_domains is not None
        removals = [(var, a) for a in self.curr_domains[var] if a != value]
        self.curr_domains[var] = [value]
        return removals

    def prune(self, var, value, removals):
        assert self.curr_domains is not None
        self.curr_domains[var].remove(value)
        if removals is not None:
            removals.append((var, value))

    def choices(self, var):
        return (self.curr_domains or self.domains)[var]

    def restore(self, removals):
        assert self.curr_domains is not None
        for B, b in removals:
            self.curr_domains[B].append(b)


class UniversalDict:
    """aima3.csp.UniversalDict: every key maps to the same value."""

    def __init__(self, value):
        self.value = value

    def __getitem__(self, key):
        return self.value


def different_values_constraint(A, a, B, b):
    return a != b


def parse_neighbors(neighbors: str) -> dict[str, list[str]]:
    """aima3.csp.parse_neighbors (a region listed on both sides appears twice, as there)."""
    dic: dict[str, list[str]] = {}
    for spec in neighbors.split(";"):
        A, Aneighbors = spec.split(":")
        A = A.strip()
        for B in Aneighbors.split():
            dic.setdefault(A, []).append(B)
            dic.setdefault(B, []).append(A)
    return dic


def MapColoringCSP(colors, neighbors: str) -> CSP:  # noqa: N802 (AIMA's name)
    graph = parse_neighbors(neighbors)
    return CSP(list(graph.keys()), UniversalDict(colors), graph, different_values_constraint)


def queen_constraint(A, a, B, b):
    return A == B or (a != b and A + a != B + b and A - a != B - b)


def QueensCSP(n: int) -> CSP:  # noqa: N802
    """n-queens on AIMA's generic CSP class (NQueensCSP adds min-conflicts bookkeeping)."""
    return CSP(list(range(n)), UniversalDict(list(range(n))), UniversalDict(list(range(n))),
               queen_constraint)


def shuffled(iterable):
    items = list(iterable)
    random.shuffle(items)
    return items


def argmin_random_tie(seq, key):
    return min(shuffled(seq), key=key)


def mrv(assignment, csp):
    return argmin_random_tie([v for v in csp.variables if v not in assignment],
                             key=lambda var: num_legal_values(csp, var, assignment))


def num_legal_values(csp, var, assignment):
    if csp.curr_domains:
        return len(csp.curr_domains[var])
    return sum(csp.nconflicts(var, val, assignment) == 0 for val in csp.domains[var])


def unordered_domain_values(var, assignment, csp):
    return csp.choices(var)


def forward_checking(csp, var, value, assignment, removals):
    for B in csp.neighbors[var]:
        if B not in assignment:
            for b in csp.curr_domains[B][:]:
                if not csp.constraints(var, value, B, b):
                    csp.prune(B, b, removals)
            if not csp.curr_domains[B]:
                return False
    return True


def count_solutions(csp: CSP, select_unassigned_variable=mrv,
                    order_domain_values=unordered_domain_values,
                    inference=forward_checking) -> int:
    """AIMA's `backtracking_search`, its recursion unchanged but counting every solution,
    each built as a dict (and dropped), as python-constraint2's iterator and ours build
    theirs."""

    def backtrack(assignment):
        if len(assignment) == len(csp.variables):
            dict(assignment)  # the solution, built as the others build theirs
            return 1
        found = 0
        var = select_unassigned_variable(assignment, csp)
        for value in order_domain_values(var, assignment, csp):
            if 0 == csp.nconflicts(var, value, assignment):
                csp.assign(var, value, assignment)
                removals = csp.suppose(var, value)
                if inference(csp, var, value, assignment, removals):
                    found += backtrack(assignment)
                csp.restore(removals)
        csp.unassign(var, assignment)
        return found

    random.seed(0)
    return backtrack({})
