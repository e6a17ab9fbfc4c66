"""The structure of problems (AIMA section 6.5): trees need no search, cutsets make trees.

The constraint graph joins two variables when a constraint relates them. When that graph
has no cycle (a tree, or a forest of trees), one pass of *directional* arc consistency
from the leaves to the root, then one pass of assignments from the root to the leaves,
solves the problem without ever backtracking: every value left in a parent's domain has a
support in each child's. Cutset conditioning brings other problems to that shape: give
values to a few variables (the cycle cutset) so that the rest of the graph is a tree, and
solve that tree for each choice. Australia becomes a tree once SA has its colour.

Only binary constraints draw the graph (unary ones are applied first and draw nothing); a
constraint over three or more variables has no place in it, so these functions refuse such
a problem with a ValueError instead of answering about a graph that is not the problem's.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from .constraints import Constraint
from .csp import CSP
from .search import SOLVED, UNSATISFIABLE, Result
from .state import Contradiction, SearchState
from .stats import Stats
from .trace import BACKTRACK, SOLUTION, WIPEOUT, Trace, show

Graph = dict[Hashable, dict[Hashable, list[Constraint]]]


def constraint_graph(csp: CSP) -> Graph:
    """For each variable, its neighbours and the constraints on each edge.

    Raises ValueError when a constraint relates three or more variables.
    """
    graph: Graph = {var: {} for var in csp.variables}
    for constraint in csp.constraints:
        scope = list(dict.fromkeys(constraint.scope))
        if len(scope) > 2:
            raise ValueError(
                f"{constraint.name} relates {len(scope)} variables: the constraint graph has "
                "binary constraints only (write it as binary constraints, or use solve)")
        if len(scope) == 2:
            a, b = scope
            graph[a].setdefault(b, []).append(constraint)
            graph[b].setdefault(a, []).append(constraint)
    return graph


def is_tree(csp: CSP) -> bool:
    """True when the constraint graph has no cycle (each connected part is a tree)."""
    return not _cycle_members(constraint_graph(csp), csp.variables)


def cycle_cutset(csp: CSP) -> list[Hashable]:
    """A small set of variables whose removal leaves no cycle (greedy, not always smallest).

    Peel off every variable with at most one neighbour (it lies on no cycle), then take the
    variable with the most neighbours left into the cutset, and repeat.
    """
    graph = constraint_graph(csp)
    cutset: list[Hashable] = []
    while True:
        core = _cycle_members(graph, csp.variables)
        if not core:
            return cutset
        chosen = max(core, key=lambda v: sum(1 for n in graph[v] if n in core))
        cutset.append(chosen)
        graph = _without(graph, [chosen])


def tree_solve(csp: CSP, trace: bool = False) -> Result:
    """Solve a tree-structured CSP with no backtracking.

    The trace shows the directional arc consistency pass (prunings, leaves first), then
    the assignment pass (root first). Raises ValueError if the graph has a cycle.
    """
    graph = constraint_graph(csp)
    cycle = _cycle_members(graph, csp.variables)
    if cycle:
        raise ValueError(f"the constraint graph has a cycle through {_names(cycle)}: "
                         "tree_solve needs a tree (try cutset_solve)")
    return _StructuredSolver(csp, graph, [], trace).run()


def cutset_solve(csp: CSP, cutset: Iterable[Hashable] | None = None,
                 trace: bool = False) -> Result:
    """Cutset conditioning: try the values of the cutset, solve the tree that remains.

    Without `cutset`, `cycle_cutset` finds one. Each cutset value prunes its neighbours
    (forward checking); a tree that fails its arc consistency pass sends the search back
    to the next cutset value. Raises ValueError if removing `cutset` leaves a cycle.
    """
    graph = constraint_graph(csp)
    chosen = cycle_cutset(csp) if cutset is None else list(dict.fromkeys(cutset))
    unknown = [v for v in chosen if v not in graph]
    if unknown:
        raise ValueError(f"cutset: unknown variable(s) {_names(unknown)}")
    cycle = _cycle_members(_without(graph, chosen), csp.variables)
    if cycle:
        raise ValueError(f"removing {_names(chosen)} leaves a cycle through {_names(cycle)}")
    return _StructuredSolver(csp, graph, chosen, trace).run()


class _StructuredSolver:
    """Conditioning on the cutset (possibly empty), then the tree algorithm on the rest."""

    def __init__(self, csp: CSP, graph: Graph, cutset: list[Hashable], trace: bool):
        self.csp, self.graph, self.cutset = csp, graph, cutset
        self.stats = Stats()
        self.trace = Trace(dict(csp.domains)) if trace else None
        self.state = SearchState(csp, self.stats, self.trace)
        self.rest = [v for v in csp.variables if v not in set(cutset)]

    def run(self) -> Result:
        start = time.perf_counter()
        solved = False
        try:
            self._node_consistency()
            solved = self._condition(0)
        except Contradiction as failure:
            self._record(WIPEOUT, failure.var, None, failure.cause)
        self.stats.seconds = time.perf_counter() - start
        if not solved:
            return Result(UNSATISFIABLE, None, self.stats, self.trace)
        solution = {var: self.state.value(var) for var in self.csp.variables}
        broken = self.csp.violated(solution)
        if broken:  # cannot happen on a tree after directional arc consistency
            raise AssertionError(f"tree solver: {broken[0].name} is violated")
        self._record(SOLUTION, None, None, None)
        return Result(SOLVED, solution, self.stats, self.trace)

    def _node_consistency(self) -> None:
        for constraint in self.csp.constraints:
            if len(set(constraint.scope)) == 1:
                self.state.cause = constraint.name
                constraint.propagate(self.state)
        self.state.cause = None

    # -- cutset conditioning -------------------------------------------------------------
    def _condition(self, index: int) -> bool:
        """Try each value of cutset variable `index`; past the last one, solve the tree."""
        state = self.state
        if index == len(self.cutset):
            try:
                self._solve_tree()
                return True
            except Contradiction as failure:
                self._record(WIPEOUT, failure.var, None, failure.cause)
                return False
        var = self.cutset[index]
        for value in state.values(var):
            mark = state.mark()
            self.stats.nodes += 1
            state.assign(var, value)
            try:
                for other in self.graph[var]:
                    if other not in state.assignment:
                        self._revise(other, var, f"cutset {show(var)} = {show(value)}")
                if self._condition(index + 1):
                    return True
            except Contradiction as failure:
                self._record(WIPEOUT, failure.var, None, failure.cause)
            state.undo(mark)
            state.retract(var)
            self.stats.backtracks += 1
            self._record(BACKTRACK, var, value, None)
        return False

    # -- the tree algorithm --------------------------------------------------------------
    def _solve_tree(self) -> None:
        """Directional arc consistency leaves-to-root, then assignments root-to-leaves."""
        order, parent = _topological_order(self.graph, self.rest, set(self.cutset))
        for child in reversed(order):
            if child in parent:
                self._revise(parent[child], child,
                             f"arc consistency of {show(parent[child])} with {show(child)}")
        for var in order:
            if var in parent:
                value = self._support(var, parent[var])
            else:
                value = self.state.values(var)[0]
            self.stats.nodes += 1
            self.state.assign(var, value)

    def _revise(self, var: Hashable, other: Hashable, cause: str) -> None:
        """Remove the values of `var` that no value of `other` supports."""
        for value in self.state.values(var):
            if not any(self._holds(var, value, other, x) for x in self.state.values(other)):
                self.state.remove(var, value, cause)

    def _support(self, var: Hashable, parent: Hashable) -> Any:
        """The first value of `var` that agrees with its parent's (one exists after DAC)."""
        fixed = self.state.assignment[parent]
        for value in self.state.values(var):
            if self._holds(var, value, parent, fixed):
                return value
        raise AssertionError(f"no support for {parent!r} = {fixed!r} in {var!r}")

    def _holds(self, a: Hashable, x: Any, b: Hashable, y: Any) -> bool:
        self.stats.checks += 1
        pair = {a: x, b: y}
        return all(c.is_satisfied(pair) for c in self.graph[a][b])

    def _record(self, kind: str, var: Hashable, value: Any, cause: str | None) -> None:
        if self.trace is not None:
            self.trace.record(kind, var, value, cause, self.state.depth)


def _topological_order(graph: Graph, variables: Sequence[Hashable],
                       skip: set[Hashable]) -> tuple[list[Hashable], dict[Hashable, Hashable]]:
    """Breadth-first order of each tree (roots in input order) and each variable's parent."""
    order: list[Hashable] = []
    parent: dict[Hashable, Hashable] = {}
    seen = set(skip)
    for root in variables:
        if root in seen:
            continue
        seen.add(root)
        queue = [root]
        for var in queue:
            order.append(var)
            for child in graph[var]:
                if child not in seen:
                    seen.add(child)
                    parent[child] = var
                    queue.append(child)
    return order, parent


def _cycle_members(graph: Graph, variables: Sequence[Hashable]) -> list[Hashable]:
    """Variables left after repeatedly removing those with at most one neighbour.

    What is left lies on cycles or on paths between them; an empty list means no cycle.
    """
    degree = {v: len(graph[v]) for v in variables if v in graph}
    leaves = [v for v, d in degree.items() if d <= 1]
    removed = set()
    while leaves:
        var = leaves.pop()
        if var in removed:
            continue
        removed.add(var)
        for other in graph[var]:
            if other not in removed:
                degree[other] -= 1
                if degree[other] <= 1:
                    leaves.append(other)
    return [v for v in degree if v not in removed]


def _without(graph: Graph, removed: Iterable[Hashable]) -> Graph:
    gone = set(removed)
    return {v: {n: cs for n, cs in edges.items() if n not in gone}
            for v, edges in graph.items() if v not in gone}


def _names(variables: Iterable[Hashable]) -> str:
    return ", ".join(show(v) for v in variables)
