"""Failed-literal probing (`var_order="probe"`): what probes prove, and exact answers."""

from __future__ import annotations

import pytest

from csp_puzzles import CSP, Predicate, count, solve
from csp_puzzles.core.lookahead import probing
from csp_puzzles.core.trace import PRUNE
from csp_puzzles.examples import queens


def different(a, b):
    return a != b


def triangle(x_values: tuple[int, ...]) -> CSP:
    """x, y, z pairwise different with y, z in {1, 2}: arc consistent, yet x = 1 and x = 2
    each leave y and z the same single value, which only a look-ahead sees."""
    csp = CSP()
    csp.add_variable("x", x_values)
    csp.add_variables(["y", "z"], (1, 2))
    for a, b in (("x", "y"), ("x", "z"), ("y", "z")):
        csp.add_constraint(Predicate(different, (a, b)))
    return csp


def test_probes_remove_the_values_that_fail_and_the_search_never_backtracks():
    result = solve(triangle((1, 2, 3)), var_order="probe", trace=True)
    assert result.status == "solved" and result.solution["x"] == 3
    assert result.stats.backtracks == 0
    proved = [e.cause for e in result.trace if e.kind == PRUNE and e.var == "x"]
    assert "probe: x = 1 leads to a contradiction" in proved
    assert "probe: x = 2 leads to a contradiction" in proved


def test_mac_alone_guesses_wrong_on_the_same_problem():
    result = solve(triangle((1, 2, 3)), var_order="input")
    assert result.status == "solved" and result.stats.backtracks > 0


def test_a_node_where_every_probe_fails_branches_where_each_branch_fails_at_once():
    result = solve(triangle((1, 2)), var_order="probe")
    assert result.status == "unsatisfiable"
    assert result.stats.nodes == 2  # x = 1 and x = 2, and nothing below them


def test_a_puzzle_can_word_what_its_probes_tried():
    order = probing(lambda var, value: f"putting {value} in {var}")
    result = solve(triangle((1, 2, 3)), var_order=order, trace=True)
    assert any(e.cause == "probe: putting 1 in x leads to a contradiction"
               for e in result.trace)


@pytest.mark.parametrize("n, solutions", [(4, 2), (5, 10), (6, 4)])
def test_counting_with_probes_stays_exact(n, solutions):
    assert count(queens(n), var_order="probe").count == solutions


def test_solutions_found_with_probes_satisfy_every_constraint():
    csp = queens(8)
    result = solve(csp, var_order="probe")
    assert result.status == "solved"
    assert all(c.is_satisfied(result.solution) for c in csp.constraints)


@pytest.mark.parametrize("look_back", ["none", "cbj", "learn"])
def test_probes_and_each_look_back_count_the_same(look_back):
    """A removal a probe proves blames every decision above it: sound for any look-back."""
    assert count(queens(7), var_order="probe", look_back=look_back).count == 40
    result = solve(triangle((1, 2, 3)), var_order="probe", look_back=look_back)
    assert result.status == "solved" and result.solution["x"] == 3
