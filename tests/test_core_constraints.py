"""Each propagator against brute force: it must remove exactly (GAC) or only (bounds)
values that belong to no solution of its constraint."""

from __future__ import annotations

from itertools import product

import hypothesis.strategies as st
from hypothesis import given, settings

from csp_puzzles import CSP, AllDifferent, Contradiction, Predicate, Sum, Table
from csp_puzzles.core import SearchState

VALUES = range(5)


def domains_strategy(n_min=2, n_max=5):
    return st.lists(st.sets(st.sampled_from(VALUES), min_size=1, max_size=5),
                    min_size=n_min, max_size=n_max)


def run_propagator(constraint_factory, domains):
    """Propagate one constraint; return the domains left, or None on a contradiction."""
    csp = CSP()
    names = [f"x{i}" for i in range(len(domains))]
    for name, domain in zip(names, domains):
        csp.add_variable(name, sorted(domain))
    constraint = csp.add_constraint(constraint_factory(names))
    state = SearchState(csp)
    try:
        constraint.propagate(state)
    except Contradiction:
        return None, constraint, names
    return [set(state.domains[n]) for n in names], constraint, names


def brute_supports(constraint, names, domains):
    supports = [set() for _ in names]
    for combo in product(*[sorted(d) for d in domains]):
        if constraint.is_satisfied(dict(zip(names, combo))):
            for seen, x in zip(supports, combo):
                seen.add(x)
    return supports


def assert_exact(left, supports):
    """GAC: exactly the supported values stay, and no support at all means failure."""
    if not all(supports):
        assert left is None
    else:
        assert left == supports


@settings(max_examples=300, deadline=None)
@given(domains_strategy())
def test_alldifferent_gac_is_exact(domains):
    left, constraint, names = run_propagator(AllDifferent, domains)
    assert_exact(left, brute_supports(constraint, names, domains))


@settings(max_examples=200, deadline=None)
@given(domains_strategy())
def test_alldifferent_cheap_mode_is_sound(domains):
    left, constraint, names = run_propagator(lambda v: AllDifferent(v, gac=False), domains)
    supports = brute_supports(constraint, names, domains)
    if left is None:
        assert not all(supports)
    else:
        assert all(s <= d for s, d in zip(supports, left))


@settings(max_examples=300, deadline=None)
@given(domains_strategy(), st.integers(0, 16),
       st.lists(st.integers(-3, 3), min_size=5, max_size=5))
def test_sum_bounds_are_sound_and_tight_at_the_ends(domains, total, weights):
    weights = weights[: len(domains)]
    left, constraint, names = run_propagator(lambda v: Sum(v, total, weights), domains)
    supports = brute_supports(constraint, names, domains)
    if left is None:
        assert not all(supports)
        return
    assert all(s <= d for s, d in zip(supports, left))  # never removes a supported value
    if all(supports):  # bounds consistency: extreme values of each term are supported by reals
        assert all(d for d in left)


@settings(max_examples=200, deadline=None)
@given(domains_strategy(2, 4), st.data())
def test_table_gac_is_exact(domains, data):
    arity = len(domains)
    rows = data.draw(st.lists(st.tuples(*[st.sampled_from(VALUES)] * arity), max_size=12))
    left, constraint, names = run_propagator(lambda v: Table(v, rows), domains)
    assert_exact(left, brute_supports(constraint, names, domains))


@settings(max_examples=200, deadline=None)
@given(domains_strategy(2, 2), st.sets(st.tuples(st.sampled_from(VALUES),
                                                  st.sampled_from(VALUES))))
def test_binary_predicate_is_arc_consistent(domains, allowed):
    left, constraint, names = run_propagator(
        lambda v: Predicate(lambda a, b: (a, b) in allowed, v), domains)
    assert_exact(left, brute_supports(constraint, names, domains))


def test_wide_predicate_waits_until_two_variables_are_open():
    csp = CSP()
    csp.add_variables("abc", range(3))
    c = csp.add_constraint(Predicate(lambda a, b, c: a + b + c == 6, "abc"))
    state = SearchState(csp)
    c.propagate(state)
    assert all(len(state.domains[v]) == 3 for v in "abc")  # three open: no pruning yet
    state.fix("a", 2)
    c.propagate(state)
    assert state.domains["b"] == {2} and state.domains["c"] == {2}


def test_alldifferent_gac_finds_hall_sets():
    csp = CSP()
    for name, domain in {"a": [1, 2], "b": [1, 2], "c": [1, 2, 3], "d": [2, 3, 4]}.items():
        csp.add_variable(name, domain)
    c = csp.add_constraint(AllDifferent("abcd", name="row"))
    state = SearchState(csp)
    c.propagate(state)
    assert state.domains["c"] == {3} and state.domains["d"] == {4}
