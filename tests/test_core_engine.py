"""The engine's own mechanisms: node consistency, declared guarantees, undo hooks, splitting."""

from __future__ import annotations

from itertools import takewhile

import pytest

from csp_puzzles import CSP, AllDifferent, Constraint, Predicate, Table, count_solutions, solve
from csp_puzzles.core import SearchState, count
from csp_puzzles.core.inference import (
    ARC_CONSISTENCY,
    establishes,
    maintain_arc_consistency,
    reaches_arc_consistency,
)
from csp_puzzles.examples import map_colouring, queens, send_more_money, sudoku

INFERENCES = ("none", "fc", "mac")


def _with_unary() -> CSP:
    csp = CSP()
    csp.add_variables("xyz", range(1, 10))
    csp.add_constraint(AllDifferent("xyz", gac=False))
    csp.add_constraint(Predicate(lambda x: x == 7, ["x"], name="x is 7"))
    csp.add_constraint(Table(["y"], [(8,), (9,)], name="y is 8 or 9"))
    return csp


@pytest.mark.parametrize("inference", INFERENCES)
def test_unary_constraints_prune_before_the_search(inference):
    result = solve(_with_unary(), inference=inference, var_order="input", trace=True)
    assert result.solution == {"x": 7, "y": 8, "z": 1}
    root = [e for e in result.trace if e.depth == 0 and e.kind == "prune"]
    assert {(e.var, e.cause) for e in root} >= {("x", "x is 7"), ("y", "y is 8 or 9")}
    assert sum(1 for e in root if e.var == "x") == 8
    # x and y have one value left (MAC decides them without branching), z finds 1 at once
    assert result.stats.nodes == (2 if inference == "mac" else 3)
    assert count_solutions(_with_unary(), inference=inference) == 14


def test_a_unary_constraint_nothing_satisfies_is_a_proof():
    csp = CSP()
    csp.add_variable("x", range(3))
    csp.add_constraint(Predicate(lambda x: x > 5, ["x"]))
    for inference in INFERENCES:
        result = solve(csp, inference=inference)
        assert result.status == "unsatisfiable" and result.stats.nodes == 0


def test_inferences_declare_what_they_guarantee():
    """An inference of one's own that declares arc consistency gets MAC's treatment."""

    @establishes(ARC_CONSISTENCY)
    def my_mac(state, var):
        maintain_arc_consistency(state, var)

    def undeclared(state, var):
        maintain_arc_consistency(state, var)

    assert reaches_arc_consistency(my_mac) and not reaches_arc_consistency(undeclared)
    mac = count(queens(8), inference="mac").stats
    mine = count(queens(8), inference=my_mac).stats
    plain = count(queens(8), inference=undeclared)
    assert mine.nodes == mac.nodes and mine.backtracks == mac.backtracks
    assert plain.count == 92 and plain.stats.nodes > mac.nodes  # it decides fixed variables too


class _Distinct(Constraint):
    """A binary != that forward checks lazily: it only fails once both ends are fixed."""

    def is_satisfied(self, values):
        a, b = (values[v] for v in self.scope)
        return a != b

    def forward_check(self, state, var):
        if all(state.is_fixed(v) for v in self.scope) and not self.is_satisfied(
                {v: state.value(v) for v in self.scope}):
            state.fail(None, self.name)


def test_forward_checking_skips_only_constraints_that_forward_check_fully():
    """A constraint of one's own is not trusted to have pruned already: it is still checked
    when both its variables are assigned, so its answers stay right."""
    assert Predicate.forward_checks_fully and AllDifferent.forward_checks_fully
    assert not _Distinct.forward_checks_fully
    csp = CSP()
    csp.add_variables("abc", range(3))
    for pair in ("ab", "bc", "ac"):
        csp.add_constraint(_Distinct(pair))
    assert count_solutions(csp, inference="fc") == 6
    mine = count(csp, inference="fc", keep=True)
    assert all(csp.is_solution(solution) for solution in mine.solutions)
    assert count_solutions(map_colouring(), inference="fc") == 18  # built-in: skipped

    class MyPredicate(Predicate):
        def forward_check(self, state, var):
            _Distinct.forward_check(self, state, var)

    mine = MyPredicate(lambda a, b: a != b, "ab")
    builtin = Predicate(lambda a, b: a != b, "ab")
    domains = {"a": (0, 1), "b": (0, 1)}
    assert mine.forward_check_from("a", domains) == (None, mine.forward_check)  # its own way
    conflicts, check = builtin.forward_check_from("a", domains)  # made ready ahead
    assert check != builtin.forward_check and conflicts[0] == {0}


def test_undo_hooks_run_last_in_first_out_at_the_right_point():
    csp = queens(4)
    state = SearchState(csp)
    calls: list[str] = []
    outer = state.mark()
    state.on_undo(lambda: calls.append("first"))
    state.remove(0, 0)
    inner = state.mark()
    state.on_undo(lambda: calls.append("second"))
    state.remove(0, 1)
    state.undo(inner)
    assert calls == ["second"] and state.values(0) == [1, 2, 3]
    state.undo(outer)
    assert calls == ["second", "first"] and state.values(0) == [0, 1, 2, 3]


def test_constraint_data_is_kept_per_search():
    csp = queens(4)
    key = csp.constraints[0]
    first, second = SearchState(csp), SearchState(csp)
    made = first.data(key, list)
    assert first.data(key, list) is made and second.data(key, list) is not made


@pytest.mark.parametrize("inference", INFERENCES)
@pytest.mark.parametrize("var_order", ["input", "mrv"])
def test_splitting_counts_every_solution_once(inference, var_order):
    for n, expected in ((4, 2), (6, 4), (8, 92)):
        result = count(queens(n), inference=inference, var_order=var_order, branching="split",
                       keep=True)
        assert result.count == expected and result.complete
        rows = {tuple(s[c] for c in range(n)) for s in result.solutions}
        assert len(rows) == expected
        assert all(len(set(r)) == n for r in rows)
    assert count_solutions(map_colouring(), inference=inference, branching="split") == 18
    if inference != "none":  # plain backtracking would enumerate 10^8 digit choices
        assert count_solutions(send_more_money(), inference=inference, branching="split") == 1


def test_splitting_solves_sudoku_and_traces_its_decisions():
    plain = solve(sudoku(), inference="mac")
    assert solve(sudoku(), inference="mac", branching="split").solution == plain.solution
    split = solve(queens(10), inference="mac", var_order="input", branching="split", trace=True)
    assert split.solved and queens(10).is_solution(split.solution)
    trace = split.trace
    assert trace.count("split") + trace.count("assign") == split.stats.nodes > 0
    event = next(i for i, e in enumerate(trace) if e.kind == "split")
    kept, var = trace[event].value, trace[event].var
    removals = list(takewhile(lambda e: e.kind == "prune" and e.cause == "split",
                              trace[event + 1:]))
    assert 1 < len(kept) and removals and all(e.var == var for e in removals)
    assert set(trace.domains_at(event + len(removals))[var]) == set(kept)
    assert "split: keep" in trace[event].describe()
    with pytest.raises(ValueError, match="unknown branching"):
        solve(queens(4), branching="halves")


def test_splitting_halves_in_value_order():
    csp = CSP()
    csp.add_variable("x", range(8))
    result = solve(csp, inference="fc", branching="split", trace=True)
    decisions = [(e.kind, e.value) for e in result.trace if e.kind in ("split", "assign")]
    assert decisions == [("split", (0, 1, 2, 3)), ("split", (0, 1)), ("assign", 0)]
    assert result.stats.nodes == 3


def test_an_inference_of_ones_own_is_never_trusted_with_the_final_check():
    """Issue 39: an inference that declares arc consistency but removes nothing must not
    make the search skip the final check: only the core's own inferences are trusted."""

    @establishes(ARC_CONSISTENCY)
    def does_nothing(state, var):
        pass

    csp = CSP()
    csp.add_variables("ab", [1, 2])
    csp.add_constraint(Predicate(lambda x, y: x != y, ["a", "b"]))
    result = solve(csp, inference=does_nothing, var_order="input")
    assert result.status == "solved" and result.solution == {"a": 1, "b": 2}
    assert csp.is_solution(result.solution)
    found = count(csp, inference=does_nothing, keep=True)
    assert found.count == 2 and all(csp.is_solution(s) for s in found.solutions)
