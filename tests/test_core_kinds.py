"""Linear, InSet, NotInSet, AllEqual and Count: each propagator against brute force, exact
arithmetic, and the same solutions as python-constraint2's constraints of the same meaning."""

from __future__ import annotations

import operator
from decimal import Decimal
from fractions import Fraction

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from csp_puzzles import (
    CSP,
    AllEqual,
    Count,
    InSet,
    Linear,
    NotInSet,
    Predicate,
    count_solutions,
    solve,
)
from csp_puzzles.core import iter_solutions
from tests.peer_oracle import peer_solutions

from .test_core_constraints import assert_exact, brute_supports, run_propagator

OPS = ["==", "<=", ">=", "!="]
SIGNED = range(-2, 4)


def domains(n_min=1, n_max=4, values=SIGNED):
    return st.lists(st.sets(st.sampled_from(values), min_size=1, max_size=5),
                    min_size=n_min, max_size=n_max)


def assert_sound(left, supports):
    """Only unsupported values go; failure only when some variable has no support."""
    if left is None:
        assert not all(supports)
    else:
        assert all(s <= d for s, d in zip(supports, left))


@settings(max_examples=300, deadline=None)
@given(domains(), st.lists(st.integers(-3, 3), min_size=4, max_size=4),
       st.sampled_from(OPS), st.integers(-8, 12))
def test_linear_against_brute_force(doms, weights, op, total):
    weights = weights[: len(doms)]
    left, constraint, names = run_propagator(lambda v: Linear(v, weights, op, total), doms)
    supports = brute_supports(constraint, names, doms)
    if op == "==":
        assert_sound(left, supports)  # bounds only: a hole inside a domain is not seen
    else:
        assert_exact(left, supports)  # inequalities and != are arc consistent


@settings(max_examples=200, deadline=None)
@given(domains(1, 1), st.sets(st.sampled_from(SIGNED)), st.booleans())
def test_inset_and_notinset_are_exact(doms, values, inside):
    kind = InSet if inside else NotInSet
    left, constraint, names = run_propagator(lambda v: kind(v[0], values), doms)
    assert_exact(left, brute_supports(constraint, names, doms))


@settings(max_examples=200, deadline=None)
@given(domains(2, 4))
def test_allequal_is_exact(doms):
    left, constraint, names = run_propagator(AllEqual, doms)
    assert_exact(left, brute_supports(constraint, names, doms))


@settings(max_examples=300, deadline=None)
@given(domains(1, 5, range(3)), st.sampled_from(range(3)), st.sampled_from(OPS),
       st.integers(0, 5))
def test_count_is_exact(doms, value, op, k):
    left, constraint, names = run_propagator(lambda v: Count(v, value, op, k), doms)
    assert_exact(left, brute_supports(constraint, names, doms))


def test_linear_arithmetic_is_exact():
    csp = CSP()
    csp.add_variable("x", [Decimal("0.1"), Decimal("0.2"), Decimal("0.3")])
    csp.add_variable("y", [Fraction(1, 10), Fraction(2, 10), Fraction(1, 3)])
    csp.add_constraint(Linear(["x", "y"], [1, 1], "==", Decimal("0.3")))
    solutions = {tuple(s.values()) for s in iter_solutions(csp)}
    assert solutions == {(Decimal("0.1"), Fraction(1, 5)), (Decimal("0.2"), Fraction(1, 10))}


def test_linear_reads_floats_as_the_decimals_they_print():
    csp = CSP()
    csp.add_variables("xy", [0.1, 0.2, 0.5])
    csp.add_constraint(Linear("xy", [1, 1], "==", 0.3))
    assert {tuple(s.values()) for s in iter_solutions(csp)} == {(0.1, 0.2), (0.2, 0.1)}


@pytest.mark.parametrize("bad, error", [({"total": "3"}, TypeError),
                                        ({"total": float("nan")}, ValueError),
                                        ({"weights": [1]}, ValueError),
                                        ({"op": "<"}, ValueError)])
def test_linear_refuses_what_it_cannot_compute(bad, error):
    options = {"weights": [1, 1], "op": "==", "total": 1, **bad}
    with pytest.raises(error):
        Linear(["x", "y"], **options)


def test_count_says_exactly_four_of_each_letter():
    """python-constraint's student desks: 16 desks, four of each letter, as four Counts."""
    csp = CSP("desks")
    desks = range(16)
    csp.add_variables(desks, "ABCD")
    for letter in "ABCD":
        csp.add_constraint(Count(desks, letter, "==", 4))
    for row in range(4):  # neighbours in a row differ; no D by the window (column 0)
        csp.add_constraint(NotInSet(4 * row, "D"))
        for col in range(3):
            csp.add_constraint(Predicate(operator.ne, (4 * row + col, 4 * row + col + 1)))
    result = solve(csp, inference="mac")
    assert result.solved and csp.is_solution(result.solution)
    desks = result.solution
    assert all(sum(v == letter for v in desks.values()) == 4 for letter in "ABCD")
    assert all(desks[4 * row] != "D" for row in range(4))
    assert all(desks[4 * r + c] != desks[4 * r + c + 1] for r in range(4) for c in range(3))


@st.composite
def problems_with_kinds(draw):
    names = ["a", "b", "c", "d"][: draw(st.integers(2, 4))]
    csp = CSP("random kinds")
    for name in names:
        csp.add_variable(name, sorted(draw(st.sets(st.integers(-1, 3), min_size=1, max_size=4))))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["linear", "inset", "notinset", "allequal", "count"]))
        scope = draw(st.lists(st.sampled_from(names), min_size=1, max_size=4, unique=True))
        if kind == "linear":
            weights = draw(st.lists(st.integers(-2, 3), min_size=len(scope),
                                    max_size=len(scope)))
            op = draw(st.sampled_from(["==", "<=", ">="]))
            csp.add_constraint(Linear(scope, weights, op, draw(st.integers(-3, 8))))
        elif kind in ("inset", "notinset"):
            values = draw(st.sets(st.integers(-1, 3), max_size=3))
            csp.add_constraint((InSet if kind == "inset" else NotInSet)(scope[0], values))
        elif kind == "allequal":
            csp.add_constraint(AllEqual(scope))
        else:
            op = draw(st.sampled_from(["==", "<=", ">="]))
            csp.add_constraint(Count(scope, draw(st.integers(-1, 3)), op,
                                     draw(st.integers(0, len(scope)))))
    return csp


def as_set(solutions):
    return {tuple(sorted(s.items())) for s in solutions}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems_with_kinds(), st.sampled_from(["none", "fc", "mac"]))
def test_same_solutions_as_python_constraint_kinds(csp, inference):
    ours = as_set(iter_solutions(csp, inference=inference, var_order="mrv"))
    assert ours == as_set(peer_solutions(csp))
    assert all(csp.is_solution(dict(s)) for s in ours)
    assert count_solutions(csp, inference="fc") == len(ours)


@pytest.mark.parametrize("inference", ["none", "fc", "mac"])
def test_unary_kinds_prune_before_the_search_starts(inference):
    csp = CSP("unary")
    csp.add_variables("abc", range(10))
    csp.add_constraint(InSet("a", [7]))
    csp.add_constraint(NotInSet("b", range(9)))
    csp.add_constraint(AllEqual(["c"]))
    result = solve(csp, inference=inference, var_order="input")
    assert result.solution == {"a": 7, "b": 9, "c": 0}
    assert result.stats.backtracks == 0  # no value outside the sets was ever tried
