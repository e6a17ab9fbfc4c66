"""Exercise 12 (notebook 09): forests and cycle cutsets.

The student writes `is_forest(variables, edges)` and `cycle_cutset_of(csp)`. The checks
draw random constraint graphs and ask the library's structure functions (`is_tree` on a CSP
built from the graph, written apart from anything the student sees) whether a graph, or what
is left of it once a cutset is removed, has a cycle; a cutset must leave none, and must not
hold a variable that could be put back without making one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from ...core import CSP, count
from ...core.structure import cutset_solve, is_tree
from ...examples import map_colouring
from . import CSP_DATA, draw, fail, listed, name, own_work, unwatched
from .instances import relation

Edge = tuple[Hashable, Hashable]
#: the watch's words and patterns: what the student's code may call in csp_puzzles
OWN = ("the forest test and the cutset", "the CSP's data", *CSP_DATA)


def graph_csp(variables: Iterable[Hashable], edges: Iterable[Edge], colours: int = 3) -> CSP:
    """A colouring problem whose constraint graph is the given graph."""
    csp = CSP("graph")
    for var in variables:
        csp.add_variable(var, range(colours))
    for a, b in edges:
        csp.add_constraint(relation(a, "!=", b))
    return csp


def without(csp: CSP, removed: Iterable[Hashable]) -> CSP:
    """The constraint graph of `csp` less the `removed` variables, as a CSP."""
    gone = set(removed)
    rest = CSP(csp.name)
    for var in csp.variables:
        if var not in gone:
            rest.add_variable(var, csp.domains[var])
    for constraint in csp.constraints:
        if not gone & set(constraint.scope):
            rest.add_constraint(constraint)
    return rest


def random_graph(rng: random.Random) -> tuple[list[Hashable], list[Edge]]:
    """A random graph on A, B, ...: some trees, some with a cycle or several."""
    n = rng.randint(3, 9)
    names: list[Hashable] = [chr(ord("A") + i) for i in range(n)]
    edges: list[Edge] = [(names[i], names[rng.randrange(i)]) for i in range(1, n)
                         if rng.random() < 0.9]
    for _ in range(rng.choice((0, 0, 1, 2, 4))):
        a, b = rng.sample(names, 2)
        if (a, b) not in edges and (b, a) not in edges:
            edges.append((a, b))
    return names, edges


def _edges_words(edges: list[Edge]) -> str:
    return ", ".join(f"{name(a)}-{name(b)}" for a, b in edges) or "no edge"


@own_work(*OWN)
def check_is_forest(is_forest: Callable[..., Any], seed: Any = None, trials: int = 80) -> None:
    """A triangle, a path, Australia's borders, then `trials` random graphs."""
    __tracebackhide__ = True
    australia = map_colouring()
    graphs: list[tuple[list[Hashable], list[Edge]]] = [
        (list("ABC"), [("A", "B"), ("B", "C"), ("C", "A")]),
        (list("ABCD"), [("A", "B"), ("B", "C"), ("C", "D")]),
        (australia.variables, [(c.scope[0], c.scope[1]) for c in australia.constraints])]
    rng = draw("forests", seed)
    graphs += [random_graph(rng) for _ in range(trials)]
    for variables, edges in graphs:
        answer = is_forest(list(variables), list(edges))
        with unwatched():
            expected = is_tree(graph_csp(variables, edges))
        if not isinstance(answer, bool):
            fail(f"is_forest returned {answer!r}, of type {type(answer).__name__}, for the "
                 f"graph on {', '.join(map(name, variables))} with edges "
                 f"{_edges_words(edges)}: it must return True (no cycle) or False, the "
                 f"bools themselves")
        if answer is not expected:
            has = "no cycle" if expected else "a cycle"
            fail(f"is_forest says {answer!r} for the graph on "
                 f"{', '.join(map(name, variables))} with edges "
                 f"{_edges_words(edges)}, which has {has}")


def _cutset(cycle_cutset_of: Callable[..., Any], csp: CSP, where: str) -> list[Hashable]:
    __tracebackhide__ = True
    cutset = listed(cycle_cutset_of(csp), "cycle_cutset_of")
    strangers = [var for var in cutset if var not in csp.domains]
    if strangers or len(set(cutset)) != len(cutset):
        fail(f"for {where}, cycle_cutset_of returned {cutset}: a list of distinct "
             f"variables of the problem")
    if not is_tree(without(csp, cutset)):
        fail(f"for {where}, removing {', '.join(map(name, cutset)) or 'nothing'} "
             f"still leaves a cycle: that is not a cycle cutset")
    return cutset


def _problems(seed: Any, trials: int) -> list[tuple[CSP, str]]:
    rng = draw("cutsets", seed)
    problems = [(map_colouring(), "Australia")]
    for _ in range(trials):
        variables, edges = random_graph(rng)
        problems.append((graph_csp(variables, edges), f"the graph {_edges_words(edges)}"))
    return problems


@own_work(*OWN)
def check_cutset(cycle_cutset_of: Callable[..., Any], seed: Any = None,
                 trials: int = 40) -> None:
    """Australia, then `trials` random graphs: what is left must have no cycle, and cutset
    conditioning with it must answer as the problem's solution count says."""
    __tracebackhide__ = True
    for csp, where in _problems(seed, trials):
        cutset = _cutset(cycle_cutset_of, csp, where)
        result = cutset_solve(csp, cutset=cutset)
        if result.solved != (count(csp, limit=1).count > 0):
            fail(f"cutset conditioning on {cutset} answered {result.status!r} for "
                 f"{where}")


@own_work(*OWN)
def check_irredundant(cycle_cutset_of: Callable[..., Any], seed: Any = None,
                      trials: int = 40) -> None:
    """The same problems: no variable of the cutset may be put back without a cycle."""
    __tracebackhide__ = True
    for csp, where in _problems(seed, trials):
        cutset = _cutset(cycle_cutset_of, csp, where)
        for var in cutset:
            if is_tree(without(csp, [v for v in cutset if v != var])):
                fail(f"for {where}, the cutset {', '.join(map(name, cutset))} holds "
                     f"{name(var)}, but without it in the cutset the rest still has "
                     f"no cycle: conditioning costs a factor of the domain size per "
                     f"cutset variable, so drop the ones not needed")
