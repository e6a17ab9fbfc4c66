"""Conflict activity (`var_order="activity"`): the bumps, the order, and exact answers."""

from __future__ import annotations

import pytest

from csp_puzzles import count, solve
from csp_puzzles.core.activity import GROWTH, OLD_ENTRIES, RESCALE_ABOVE, Activity
from csp_puzzles.core.heuristics import activity_order
from csp_puzzles.core.learning import LearningSearch
from csp_puzzles.core.nogoods import NogoodStore
from csp_puzzles.core.restarts import solve_with_restarts
from csp_puzzles.core.state import SearchState
from csp_puzzles.examples import queens
from tests.conftest import decoded


def test_each_bump_is_larger_than_the_last_and_counts_a_variable_once():
    activity = Activity()
    activity.bump(["x", "y", "x"])
    activity.bump(["y"])
    assert activity.scores == {"x": 1.0, "y": 1.0 + GROWTH}
    assert activity.bump_size == GROWTH ** 2


def test_large_activities_are_scaled_down_together():
    activity = Activity()
    activity.bump_size = RESCALE_ABOVE
    activity.bump(["x"])
    activity.bump(["y"])
    assert activity.bump_size < RESCALE_ABOVE
    assert activity.scores["y"] / activity.scores["x"] == GROWTH


def test_without_conflicts_the_smallest_domain_goes_first():
    csp = queens(4)
    state = SearchState(csp)
    state.domains[csp.variables[2]].discard(0)
    assert activity_order(state) == csp.variables[2]


def test_the_most_active_variable_goes_first_ties_to_the_smallest_domain():
    csp = queens(4)
    search = LearningSearch(csp, var_order="activity")
    a, b, c, _ = csp.variables
    search.store.activity.bump([b, c])
    search.state.domains[c].discard(0)
    assert search.select(search.state) == c
    search.store.activity.bump([b])
    assert search.select(search.state) == b


def test_learning_bumps_the_conflicts_variables_and_restarts_keep_them():
    store = NogoodStore()
    result = solve(queens(8), var_order="activity", look_back="learn", nogoods=store)
    assert result.solved and queens(8).is_solution(result.solution)
    assert result.stats.learnt > 0 and store.activity.scores
    assert store.activity.bump_size == pytest.approx(GROWTH ** result.stats.learnt)


def test_counts_stay_exact():
    for inference in ("fc", "mac"):
        assert count(queens(8), inference=inference, var_order="activity",
                     look_back="learn").count == 92


def test_a_traced_hashi_search_on_activity_replays_to_its_checked_solution():
    from pathlib import Path

    from csp_puzzles import hashi
    from csp_puzzles.core.trace import LEARN
    from csp_puzzles.viz.packing import pack_run

    text = (Path(__file__).parents[1] / "data" / "random" / "hashi-20x20.txt").read_text()
    puzzle = hashi.parse(text)
    result = puzzle.solve(var_order="activity", look_back="learn", trace=True)
    assert result.status == "solved" and puzzle.check(result.solution) == []
    trace = result.trace
    assert trace.count(LEARN) == result.stats.learnt > 0
    last = max(i for i, e in enumerate(trace) if e.kind == "solution")
    assert decoded(puzzle, trace.domains_at(last)) == result.solution
    assert len(pack_run(trace)["keys"]) == len(puzzle.to_csp().variables)


def _most_active_by_scan(state):
    """The activity order read off every open variable: what the heap must find."""
    open_vars = state.unassigned()
    if not open_vars:
        return None
    scores = [state.activity.scores.get(var, 0.0) if state.activity else 0.0
              for var in open_vars]
    best = max(scores)
    tied = [var for var, score in zip(open_vars, scores) if score == best]
    return min(tied, key=lambda var: len(state.domains[var]))


@pytest.mark.parametrize("inference", ["fc", "mac"])
def test_the_heap_chooses_as_a_scan_of_every_variable_would(inference, monkeypatch):
    """At every decision of learning searches (restarts, backjumps, ties and all)."""
    from pathlib import Path

    from csp_puzzles import hashi
    from csp_puzzles.core import heuristics

    decisions = []

    def checked(state):
        chosen = activity_order(state)
        assert chosen == _most_active_by_scan(state)
        decisions.append(chosen)
        return chosen

    checked.reads_activity = True
    monkeypatch.setitem(heuristics.VARIABLE_ORDERS, "activity", checked)
    text = (Path(__file__).parents[1] / "data" / "random" / "hashi-20x20.txt").read_text()
    csp = hashi.parse(text).to_csp()
    assert solve_with_restarts(csp, inference=inference, var_order="activity",
                               look_back="learn").solved
    assert count(queens(8), inference=inference, var_order="activity",
                 look_back="learn").count == 92
    assert len(decisions) > 100


def test_the_heap_stays_small_however_many_bumps():
    csp = queens(8)
    search = LearningSearch(csp, var_order="activity")
    state, activity = search.state, search.store.activity
    for i in range(1000):
        activity.bump([csp.variables[i % 3]])
        assert activity_order(state) == csp.variables[i % 3]  # the last bumped: the highest
    heap = state.activity_heap
    assert len(heap.entries) <= OLD_ENTRIES * len(csp.variables) + 3
