"""Tree-structured CSPs and cutset conditioning against brute force, with their traces."""

from __future__ import annotations

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from csp_puzzles import CSP, InSet, Predicate, Sum, Table
from csp_puzzles.core import iter_solutions
from csp_puzzles.core.structure import cutset_solve, cycle_cutset, is_tree, tree_solve
from csp_puzzles.examples import map_colouring


@st.composite
def binary_problems(draw, tree: bool):
    """A random binary CSP; with `tree`, each new variable joins exactly one earlier one."""
    n = draw(st.integers(1, 7))
    csp = CSP("random binary")
    for i in range(n):
        csp.add_variable(i, range(draw(st.integers(1, 3))))
    edges = [(draw(st.integers(0, i - 1)), i) for i in range(1, n)] if tree else draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
                 .filter(lambda e: e[0] != e[1]), max_size=9))
    for a, b in edges:
        rows = draw(st.sets(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=1))
        csp.add_constraint(Table((a, b), rows))
    if draw(st.booleans()):
        csp.add_constraint(InSet(0, draw(st.sets(st.integers(0, 2), min_size=1))))
    return csp


def brute_force_solvable(csp) -> bool:
    return next(iter_solutions(csp, inference="fc"), None) is not None


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(binary_problems(tree=True))
def test_tree_solver_never_backtracks_and_agrees_with_search(csp):
    assert is_tree(csp)
    result = tree_solve(csp, trace=True)
    assert result.solved == brute_force_solvable(csp)
    if result.solved:
        assert csp.is_solution(result.solution)
    assert result.stats.backtracks == 0
    kinds = [e.kind for e in result.trace]
    assert "backtrack" not in kinds
    if "assign" in kinds:  # the arc consistency pass first, then only assignments
        first = kinds.index("assign")
        assert set(kinds[first:]) <= {"assign", "solution"}
        assert kinds.count("assign") == len(csp.variables)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(binary_problems(tree=False))
def test_cutset_conditioning_agrees_with_search(csp):
    cutset = cycle_cutset(csp)
    rest = CSP("rest")
    for var in csp.variables:
        rest.add_variable(var, csp.domains[var])
    for c in csp.constraints:
        if not set(c.scope) & set(cutset):
            rest.add_constraint(c)
    assert is_tree(rest)  # what the cutset leaves is a tree
    result = cutset_solve(csp, trace=True)
    assert result.solved == brute_force_solvable(csp)
    if result.solved:
        assert csp.is_solution(result.solution)
        final = result.trace.domains_at(len(result.trace) - 1)
        assert {v: d[0] for v, d in final.items()} == result.solution


def test_australia_is_a_tree_once_sa_is_fixed():
    australia = map_colouring()
    assert not is_tree(australia)
    assert cycle_cutset(australia) == ["SA"]
    result = cutset_solve(australia, trace=True)
    assert result.solved and australia.is_solution(result.solution)
    first = result.trace[0]
    assert (first.kind, first.var) == ("assign", "SA")
    assert result.stats.backtracks == 0


def test_two_colours_for_australia_is_unsatisfiable():
    result = cutset_solve(map_colouring(colours=("red", "green")), cutset=["SA"])
    assert result.status == "unsatisfiable"
    assert result.stats.backtracks == 2  # both colours of SA tried


def test_refusals_are_clear():
    australia = map_colouring()
    with pytest.raises(ValueError, match="cycle through"):
        tree_solve(australia)
    with pytest.raises(ValueError, match="removing WA leaves a cycle"):
        cutset_solve(australia, cutset=["WA"])
    three = CSP()
    three.add_variables("abc", range(3))
    three.add_constraint(Sum("abc", 3))
    with pytest.raises(ValueError, match="relates 3 variables: the constraint graph has binary"):
        is_tree(three)


def test_a_chain_is_solved_leaves_first_then_root_first():
    csp = CSP("chain")
    csp.add_variables("abc", range(3))
    csp.add_constraint(Predicate(lambda a, b: a < b, "ab"))
    csp.add_constraint(Predicate(lambda b, c: b < c, "bc"))
    result = tree_solve(csp, trace=True)
    assert result.solution == {"a": 0, "b": 1, "c": 2}
    prunes = [(e.var, e.value) for e in result.trace if e.kind == "prune"]
    assert prunes == [("b", 2), ("a", 1), ("a", 2)]  # b revised against c, then a against b
