"""`Sum` computes exactly, so every inference finds every solution (and agrees with brute force).

Floats count as the decimal they print as: 0.95 is 19/20, so a sum of cents in dollars
loses nothing to binary rounding.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_puzzles import CSP, AllDifferent, Predicate, Sum, count_solutions, solve
from csp_puzzles.core.constraints import exact

INFERENCES = ("none", "fc", "mac")

weights = st.one_of(
    st.integers(-4, 4),
    st.fractions(min_value=-3, max_value=3, max_denominator=7),
    st.decimals(min_value=-3, max_value=3, places=2),
    st.sampled_from([0.01, 0.05, 0.1, 0.25, 0.5, 0.95, -0.3, 1.5]),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(weights, min_size=1, max_size=3), st.lists(st.integers(-3, 5), min_size=3,
                                                          max_size=3, unique=True),
       st.data())
def test_sum_counts_equal_brute_force(ws, domain, data):
    names = [f"x{i}" for i in range(len(ws))]
    # a reachable total half the time, an arbitrary one otherwise
    picked = data.draw(st.lists(st.sampled_from(domain), min_size=len(ws), max_size=len(ws)))
    total = data.draw(st.one_of(st.just(sum(exact(w, "w") * x for w, x in zip(ws, picked))),
                                weights))
    expected = sum(1 for values in product(domain, repeat=len(ws))
                   if sum(exact(w, "w") * x for w, x in zip(ws, values)) == exact(total, "t"))
    for inference in INFERENCES:
        csp = CSP()
        csp.add_variables(names, domain)
        csp.add_constraint(Sum(names, total, weights=ws))
        assert count_solutions(csp, inference=inference) == expected, inference


def test_cents_in_dollars_lose_no_solution():
    csp = CSP()
    csp.add_variables(["x", "y"], range(100))
    csp.add_constraint(Sum(["x", "y"], 0.95, weights=[0.01, 0.05]))
    assert [count_solutions(csp, inference=i) for i in INFERENCES] == [20, 20, 20]


def test_fractional_values_and_decimal_totals():
    csp = CSP()
    csp.add_variable("a", [Fraction(1, 3), Fraction(2, 3), 1])
    csp.add_variable("b", [0.5, 1.5, Decimal("2.5")])
    csp.add_constraint(Sum(["a", "b"], Fraction(13, 6)))
    for inference in INFERENCES:
        result = solve(csp, inference=inference)
        assert result.solution == {"a": Fraction(2, 3), "b": 1.5}


def test_python_constraint_coins_example_as_written():
    """python-constraint's coins example (100 coins make $5.00), in dollars: 104 ways."""
    total = 5.00
    names = ("0.01", "0.05", "0.10", "0.50", "1.00")
    values = [float(x) for x in names]
    csp = CSP()
    for name, value in zip(names, values):
        csp.add_variable(name, range(int(total / value)))
    csp.add_constraint(Sum(names, total, weights=values))
    csp.add_constraint(Sum(names, 100))
    assert count_solutions(csp, inference="mac") == 104


# -- misuse fails early, with the library's own words -----------------------------------
def test_sum_over_non_numbers_fails_when_added():
    csp = CSP()
    csp.add_variables(["x", "y"], ["red", "green"])
    with pytest.raises(TypeError, match="not a number"):
        csp.add_constraint(Sum(["x", "y"], 3))


@pytest.mark.parametrize("total, weights", [("3", None), (float("nan"), None),
                                            (3, [1]), (3, [1, "2"])])
def test_sum_with_bad_numbers_fails_when_made(total, weights):
    with pytest.raises((TypeError, ValueError)):
        Sum(["x", "y"], total, weights=weights)


def test_solve_needs_a_csp():
    with pytest.raises(TypeError, match="needs a CSP"):
        solve("csp")


def test_predicate_with_its_arguments_swapped():
    with pytest.raises(TypeError, match="function comes first"):
        Predicate(["x", "y"], lambda x, y: x < y)


def test_add_constraint_needs_a_constraint():
    csp = CSP()
    csp.add_variable("x", [1, 2])
    with pytest.raises(TypeError, match="expects a Constraint"):
        csp.add_constraint(lambda x: x)
    with pytest.raises(TypeError, match="collection of values"):
        csp.add_variable("y", 5)


def test_singles_needs_a_grid():
    from csp_puzzles.singles import Singles

    for grid in ((), ((),), ((1, 2), (1,)), ((0, 1),)):
        with pytest.raises(ValueError):
            Singles(grid)


def test_integer_sums_still_use_integers():
    csp = CSP()
    csp.add_variables("abc", range(1, 10))
    csp.add_constraint(Sum("abc", 24))
    csp.add_constraint(AllDifferent("abc"))
    assert count_solutions(csp) == 6
