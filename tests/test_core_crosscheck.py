"""The core against python-constraint2 on random small CSPs: the same solution sets."""

from __future__ import annotations

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings

from csp_puzzles import CSP, AllDifferent, Predicate, Sum, Table
from csp_puzzles.core import iter_solutions
from tests.peer_oracle import peer_solutions

NAMES = ["a", "b", "c", "d", "e"]


@st.composite
def random_csps(draw):
    n = draw(st.integers(2, 5))
    names = NAMES[:n]
    csp = CSP("random")
    for name in names:
        csp.add_variable(name, sorted(draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))))
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["binary", "ternary", "alldiff", "sum", "predicate"]))
        scope = draw(st.lists(st.sampled_from(names), min_size=2, max_size=3, unique=True))
        if kind == "binary":
            scope = scope[:2]
            rows = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=10))
            csp.add_constraint(Table(scope, rows))
        elif kind == "ternary" and len(scope) == 3:
            rows = draw(st.lists(st.tuples(*[st.integers(0, 3)] * 3), max_size=12))
            csp.add_constraint(Table(scope, rows))
        elif kind == "alldiff":
            csp.add_constraint(AllDifferent(scope))
        elif kind == "sum":
            csp.add_constraint(Sum(scope, draw(st.integers(0, 9))))
        else:
            modulus = draw(st.integers(2, 3))
            csp.add_constraint(Predicate(lambda *xs, m=modulus: sum(xs) % m == 0, scope))
    return csp


def as_set(solutions):
    return {tuple(sorted(s.items())) for s in solutions}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_csps(), st.sampled_from(["none", "fc", "mac"]),
       st.sampled_from(["input", "mrv", "mrv-degree"]), st.sampled_from(["input", "lcv"]))
def test_same_solutions_as_python_constraint(csp, inference, var_order, val_order):
    ours = as_set(iter_solutions(csp, inference=inference, var_order=var_order,
                                 val_order=val_order))
    theirs = as_set(peer_solutions(csp))
    assert ours == theirs
