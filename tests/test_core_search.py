"""The search's contract: statuses, limits, determinism, custom hooks, classic problems."""

from __future__ import annotations

import pytest

from csp_puzzles import CSP, AllDifferent, LimitReached, Predicate, Sum, count_solutions, solve
from csp_puzzles.core import Search, SearchState, count, iter_solutions, mrv
from csp_puzzles.examples import map_colouring, queens, send_more_money, sudoku
from csp_puzzles.examples.australia import AUSTRALIA


def test_unsatisfiable_is_an_answer():
    csp = CSP()
    csp.add_variables("abc", (1, 2))
    csp.add_constraint(AllDifferent("abc"))
    for inference in ("none", "fc", "mac"):
        result = solve(csp, inference=inference)
        assert result.status == "unsatisfiable" and result.solution is None



@pytest.mark.parametrize("inference", ["none", "fc", "mac"])
def test_a_constraint_over_no_variable_that_cannot_hold_leaves_no_solution(inference):
    """No assignment calls it, so the final check does (a sum of nothing is never 1)."""
    csp = CSP()
    csp.add_variable("x", (0, 1))
    csp.add_constraint(Sum([], 1))
    assert count_solutions(csp, inference=inference) == 0


def test_mac_proves_pigeonhole_without_search():
    csp = CSP()
    csp.add_variables(range(5), range(4))
    csp.add_constraint(AllDifferent(range(5)))
    result = solve(csp, inference="mac")
    assert result.status == "unsatisfiable" and result.stats.nodes == 0


@pytest.mark.parametrize("inference", ["none", "fc", "mac"])
def test_node_limit_reports_limit(inference):
    result = solve(queens(30), inference=inference, var_order="input", max_nodes=5)
    assert result.status == "limit"
    assert result.stats.nodes <= 5


def test_time_limit_reports_limit():
    result = solve(send_more_money(), inference="none", timeout=0.05)
    assert result.status == "limit"
    assert result.stats.seconds < 5


def test_count_solutions_raises_at_a_search_limit():
    with pytest.raises(LimitReached):
        count_solutions(queens(8), max_nodes=10)
    assert count(queens(8), max_nodes=10).status == "limit"


def test_runs_are_deterministic():
    first = solve(queens(12), inference="fc", var_order="mrv-degree", val_order="lcv", trace=True)
    second = solve(queens(12), inference="fc", var_order="mrv-degree", val_order="lcv", trace=True)
    assert first.solution == second.solution
    assert first.stats.nodes == second.stats.nodes
    assert list(first.trace) == list(second.trace)


def test_custom_variable_order_with_the_core_signature():
    calls = []

    def last_unassigned(state: SearchState):
        calls.append(len(state.assignment))
        return [v for v in state.csp.variables if v not in state.assignment][-1]

    result = solve(queens(6), inference="fc", var_order=last_unassigned)
    assert result.solved and calls
    assert count_solutions(queens(6), var_order=last_unassigned) == 4


def test_custom_value_order_and_unknown_names():
    def descending(state, var):
        return sorted(state.values(var), reverse=True)

    result = solve(queens(5), val_order=descending, var_order="input", inference="fc")
    assert result.solution[0] == 4
    with pytest.raises(ValueError, match="unknown inference"):
        solve(queens(4), inference="magic")
    assert mrv is not None


def test_map_colouring_and_neighbours():
    csp = map_colouring()
    result = solve(csp, inference="mac", var_order="mrv-degree")
    assert result.solved
    for region, others in AUSTRALIA.items():
        for other in others:
            assert result.solution[region] != result.solution[other]
    assert csp.neighbours("SA") == {"WA", "NT", "Q", "NSW", "V"}
    assert count_solutions(csp) == 18


def test_send_more_money():
    result = solve(send_more_money(), inference="mac")
    s = result.solution
    value = lambda word: int("".join(str(s[ch]) for ch in word))  # noqa: E731
    assert value("SEND") + value("MORE") == value("MONEY") == 10652
    assert count_solutions(send_more_money(), inference="fc") == 1


def test_hard_sudoku_unique_and_valid():
    result = solve(sudoku(), inference="mac")
    grid = result.solution
    for i in range(9):
        assert sorted(grid[(i, c)] for c in range(9)) == list(range(1, 10))
        assert sorted(grid[(r, i)] for r in range(9)) == list(range(1, 10))
    assert count_solutions(sudoku()) == 1
    assert solve(sudoku(gac=False), inference="fc").solution == grid


def test_iter_solutions_lists_each_solution_once():
    solutions = list(iter_solutions(queens(6), inference="mac"))
    assert len(solutions) == 4
    assert len({tuple(sorted(s.items())) for s in solutions}) == 4


def test_all_singleton_state_is_verified_not_trusted():
    """A constraint whose propagator never prunes still cannot let a wrong answer through."""

    class Lazy(Predicate):
        def propagate(self, state):
            return None

    csp = CSP()
    csp.add_variable("x", [1])
    csp.add_variable("y", [1])
    csp.add_constraint(Lazy(lambda a, b: a != b, ["x", "y"]))
    assert solve(csp, inference="mac").status == "unsatisfiable"


def test_weighted_sum_with_negative_weights():
    csp = CSP()
    csp.add_variables("xy", range(-3, 4))
    csp.add_constraint(Sum("xy", 1, weights=[2, -1]))
    expected = {(x, y) for x in range(-3, 4) for y in range(-3, 4) if 2 * x - y == 1}
    for inference in ("none", "fc", "mac"):
        found = {(s["x"], s["y"]) for s in iter_solutions(csp, inference=inference)}
        assert found == expected


def test_search_object_streams_solutions_and_stats():
    search = Search(queens(5), inference="fc", var_order="input")
    first = next(search.solutions())
    assert first == {0: 0, 1: 2, 2: 4, 3: 1, 4: 3}
    assert search.stats.nodes >= 5


def test_bad_models_are_rejected():
    csp = CSP()
    csp.add_variable("x", [1, 2])
    with pytest.raises(ValueError):
        csp.add_variable("x", [1])
    with pytest.raises(ValueError):
        csp.add_variable("z", [])
    with pytest.raises(ValueError):
        csp.add_constraint(AllDifferent(["x", "nope"]))


def test_dom_wdeg_counts_queens_solutions_and_learns_weights():
    from csp_puzzles.core import Search

    for n, expected in ((6, 4), (8, 92)):
        assert count_solutions(queens(n), var_order="dom-wdeg") == expected
    search = Search(queens(8), inference="fc", var_order="dom-wdeg")
    list(search.solutions())
    assert search.weights and all(w > 1 for w in search.weights.values())
    fresh = Search(queens(8), inference="fc", var_order="dom-wdeg")
    assert fresh.weights == {}  # every search starts afresh: runs repeat exactly


@pytest.mark.parametrize("inference", ["fc", "mac"])
def test_restarts_stay_exact(inference):
    from csp_puzzles.core import solve_with_restarts

    result = solve_with_restarts(queens(12), inference=inference, first_budget=2, growth=1.5)
    assert result.solved
    rows = [result.solution[c] for c in range(12)]
    assert len(set(rows)) == 12
    assert all(abs(rows[a] - rows[b]) != b - a for a in range(12) for b in range(a + 1, 12))
    unsat = solve_with_restarts(queens(3), inference=inference, first_budget=1)
    assert unsat.status == "unsatisfiable"
    limited = solve_with_restarts(queens(20), inference="none", var_order="input",
                                  max_nodes=30, first_budget=4)
    assert limited.status == "limit" and limited.stats.nodes <= 30


def test_luby_sequence_and_its_budgets():
    from csp_puzzles.core.restarts import budgets, luby

    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    runs = budgets(10, 1.5, "luby")
    assert [next(runs) for _ in range(7)] == [10, 10, 20, 10, 10, 20, 40]
    runs = budgets(10, 1.5, "geometric")
    assert [next(runs) for _ in range(4)] == [10, 15, 22, 33]
    with pytest.raises(ValueError, match="schedule"):
        next(budgets(10, 1.5, "sometimes"))


def test_phase_saving_tries_the_value_last_held_first():
    from csp_puzzles.core.heuristics import saved_phase

    csp = CSP("phases")
    csp.add_variables("xy", [0, 1, 2])
    state = SearchState(csp)
    state.phases = {}
    assert saved_phase(state, "x") == [0, 1, 2]  # nothing held yet: input order
    mark = state.mark()
    state.assign("x", 2)
    state.remove("y", 0)
    state.remove("y", 2)  # y forced to 1
    state.undo(mark)
    state.retract("x")
    assert state.phases == {"x": 2, "y": 1}
    assert saved_phase(state, "x") == [2, 0, 1]
    assert saved_phase(state, "y") == [1, 0, 2]


@pytest.mark.parametrize("look_back", ["none", "learn"])
def test_luby_restarts_with_phase_saving_stay_exact(look_back):
    from csp_puzzles.core import solve_with_restarts

    result = solve_with_restarts(queens(12), val_order="phase", schedule="luby",
                                 first_budget=2, look_back=look_back)
    assert result.solved and queens(12).is_solution(result.solution)
    unsat = solve_with_restarts(queens(3), val_order="phase", schedule="luby", first_budget=1,
                                look_back=look_back)
    assert unsat.status == "unsatisfiable"



class _Clock:
    """A clock for `time.perf_counter` that moves one second each time it is read: a time
    limit then falls at the same node on any machine."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("limit", ["nodes", "time"])
def test_resume_after_a_limit_leaves_only_the_decisions_in_force(limit, monkeypatch):
    """Issue 39: `resume`'s docstring promises that without a solution the frames are back
    to the decisions in force (a session's), after a node or a time limit too."""
    import csp_puzzles.core.search as search_module

    monkeypatch.setattr(search_module, "time", _Clock())
    search = Search(queens(10), inference="none", var_order="input",
                    timeout=6 if limit == "time" else None)
    assert search.decide(0, 0) is None
    result = search.resume(max_nodes=5 if limit == "nodes" else None)
    assert result.status == "limit" and search.stats.nodes > 3  # stopped deeper down
    assert [(frame.var, frame.choice) for frame in search.frames] == [(0, 0)]
    assert search.state.depth == 1 and dict(search.state.assignment) == {0: 0}
    search.timeout = None
    again = search.resume()  # and the search goes on from there
    assert again.status == "solved" and queens(10).is_solution(again.solution)
    assert again.solution[0] == 0


@pytest.mark.parametrize("look_back", ["none", "cbj", "learn"])
def test_every_search_stopped_by_a_limit_is_back_at_the_root(look_back):
    from csp_puzzles.core.search import make_search

    search = make_search(queens(10), inference="fc", var_order="input", look_back=look_back)
    result = search.resume(max_nodes=12)
    assert result.status == "limit" and search.frames == [] and search.state.depth == 0
    again = search.resume()
    assert again.status == "solved" and queens(10).is_solution(again.solution)
