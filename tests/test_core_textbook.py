"""The textbook search (AIMA figure 6.5) against the engine: same answers, same node counts."""

from __future__ import annotations

import pytest

from csp_puzzles import CSP, Predicate, Sum, solve
from csp_puzzles.core import Stats
from csp_puzzles.core.textbook import backtracking_search
from csp_puzzles.examples import map_colouring, queens, sudoku

STRATEGIES = [(inference, var_order, val_order) for inference in ("none", "fc", "mac")
              for var_order in ("input", "mrv") for val_order in ("input", "lcv")]


def pairwise_sudoku() -> CSP:
    """The hard Sudoku written as the book does: one `!=` arc per pair of cells in a unit."""
    units = sudoku()
    csp = CSP("sudoku, pairwise")
    for var in units.variables:
        csp.add_variable(var, units.domains[var])
    pairs = {frozenset((x, y)) for c in units.constraints for x in c.scope for y in c.scope
             if x != y}
    for pair in sorted(tuple(sorted(p)) for p in pairs):
        csp.add_constraint(Predicate(lambda a, b: a != b, pair))
    return csp


def _both(csp_maker, inference, var_order, val_order):
    counted = Stats()
    answer = backtracking_search(csp_maker(), var_order, val_order, inference, counted)
    engine = solve(csp_maker(), inference=inference, var_order=var_order, val_order=val_order)
    return answer, counted, engine


@pytest.mark.parametrize(("inference", "var_order", "val_order"), STRATEGIES)
@pytest.mark.parametrize("problem", ["8-queens", "12-queens", "australia"])
def test_same_nodes_as_the_engine(problem, inference, var_order, val_order):
    make = {"8-queens": lambda: queens(8), "12-queens": lambda: queens(12),
            "australia": map_colouring}[problem]
    answer, counted, engine = _both(make, inference, var_order, val_order)
    assert answer == engine.solution and make().is_solution(answer)
    assert (counted.nodes, counted.backtracks) == (engine.stats.nodes, engine.stats.backtracks)


@pytest.mark.parametrize("inference", ["fc", "mac"])
def test_same_nodes_on_sudoku(inference):
    answer, counted, engine = _both(pairwise_sudoku, inference, "mrv", "input")
    assert answer == engine.solution and sudoku().is_solution(answer)
    assert (counted.nodes, counted.backtracks) == (engine.stats.nodes, engine.stats.backtracks)
    # an all-different as its pairs: forward checking is the same either way, while MAC on
    # the engine's AllDifferent (matching-based) prunes more than the book's arcs
    answer, counted, engine = _both(sudoku, inference, "mrv", "input")
    assert answer == engine.solution
    if inference == "fc":
        assert counted.nodes == engine.stats.nodes
    else:
        assert engine.stats.nodes < counted.nodes


def test_unsatisfiable_unary_and_refused_constraints():
    assert backtracking_search(queens(3), inference="fc") is None
    csp = CSP()
    csp.add_variables("xy", range(4))
    csp.add_constraint(Predicate(lambda x: x > 1, ["x"]))  # node consistency
    csp.add_constraint(Predicate(lambda x, y: x + y == 3, ["x", "y"]))
    counted = Stats()
    assert backtracking_search(csp, stats=counted) == {"x": 2, "y": 1}
    assert counted.nodes == solve(csp, inference="none", var_order="input").stats.nodes == 3
    csp.add_constraint(Predicate(lambda x: x > 5, ["y"]))
    assert backtracking_search(csp, inference="mac") is None
    csp.add_variable("z", range(4))
    csp.add_constraint(Sum("xyz", 5))
    with pytest.raises(ValueError, match="textbook search takes"):
        backtracking_search(csp)
