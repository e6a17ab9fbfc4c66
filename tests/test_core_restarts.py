"""Restarts in place: one learning search, run again and again from level 0.

`solve_with_restarts(look_back="learn")` keeps one `LearningSearch` and restarts it as SAT
solvers do; these tests check that what it keeps (the root's fixpoint, the nogoods, unit
nogoods above all) keeps answers right, counts exact and limits honoured.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from csp_puzzles import CSP, Predicate, count_solutions, hashi
from csp_puzzles.core import solve_with_restarts
from csp_puzzles.core.learning import LearningSearch
from csp_puzzles.examples import queens, send_more_money

HASHI_20 = Path(__file__).parents[1] / "data" / "random" / "hashi-20x20.txt"


def _x_zero_fails_deep() -> CSP:
    """a and b are free; x = 0 leaves y no value. Input order decides a, b, then x = 0:
    the conflict is x's alone, so the nogood learnt at level 3 is the unit `x = 0`."""
    csp = CSP("unit deep down")
    csp.add_variables("ab", [0, 1])
    csp.add_variable("x", [0, 1, 2])
    csp.add_variable("y", [0, 1])
    csp.add_constraint(Predicate(lambda x, y: x != 0 or y == 0, ["x", "y"]))
    csp.add_constraint(Predicate(lambda x, y: x != 0 or y == 1, ["x", "y"]))
    return csp


def test_a_unit_nogood_learnt_deep_holds_at_level_0_after_a_restart():
    search = LearningSearch(_x_zero_fails_deep(), inference="fc", var_order="input")
    first = search.run(max_nodes=3)  # a = 0, b = 0, x = 0: fails, learns x ≠ 0 at level 2
    assert first.status == "limit" and first.stats.nodes == 3
    assert [str(unit.literals[0]) for unit in search.store.units] == ["x = 0"]
    # the limit unwound the run to level 0: x ≠ 0, asserted at level 2, went with it
    assert search.state.depth == 0 and 0 in search.state.domains["x"]
    search.restart()
    assert search.state.depth == 0 and 0 in search.state.domains["x"]
    root = search.run(max_nodes=0)  # the run's root, then the limit: level 0 stays
    assert root.status == "limit" and search.state.depth == 0
    assert search.state.domains["x"] == {1, 2}  # the unit holds from level 0 on
    last = search.run()
    assert last.status == "solved" and last.solution["x"] != 0
    assert _x_zero_fails_deep().is_solution(last.solution)


def test_runs_add_up_and_a_restarted_search_still_counts_exactly():
    search = LearningSearch(queens(8), inference="mac", var_order="activity",
                            val_order="phase")
    nodes = 0
    for _ in range(4):
        run = search.run(max_nodes=3)
        assert run.status == "limit" and run.stats.nodes == 3
        nodes += run.stats.nodes
    assert search.stats.nodes == nodes and search.store.learnt > 0
    search.restart()
    search.max_nodes = None  # now every solution, from the level 0 the runs left
    assert sum(1 for _ in search.leaves()) == 92 == count_solutions(queens(8))


def test_restarted_in_place_hashi_solutions_check():
    if not HASHI_20.exists():
        pytest.skip("no random Hashi puzzle in data/")
    puzzle = hashi.parse(HASHI_20.read_text())
    for schedule, first in (("luby", 1), ("geometric", 2)):
        result = solve_with_restarts(puzzle.to_csp(), var_order="activity",
                                     val_order="phase", first_budget=first,
                                     look_back="learn", schedule=schedule)
        assert result.solved and puzzle.check(puzzle.decode(result.solution)) == []
        again = solve_with_restarts(puzzle.to_csp(), var_order="activity",
                                    val_order="phase", first_budget=first,
                                    look_back="learn", schedule=schedule)
        assert again.solution == result.solution  # the same problem, the same runs
        assert again.stats.nodes == result.stats.nodes
    unsat = solve_with_restarts(queens(3), first_budget=1, look_back="learn")
    assert unsat.status == "unsatisfiable"


def test_limits_hold_across_restarted_runs():
    limited = solve_with_restarts(queens(30), inference="fc", var_order="input",
                                  max_nodes=40, first_budget=3, look_back="learn")
    assert limited.status == "limit" and limited.stats.nodes == 40
    timed = solve_with_restarts(send_more_money(), inference="none", timeout=0.05,
                                first_budget=3, look_back="learn")
    assert timed.status == "limit" and timed.stats.nodes > 3  # more than one run
    assert timed.stats.seconds < 5


def test_restarts_rephase_to_the_best_assignment_and_now_and_then_to_none():
    """Each restart starts from the values of the assignment that fixed most variables
    before a conflict; every ORIGINAL_PHASE_EVERY-th forgets the phases instead."""
    from csp_puzzles.core.learning import ORIGINAL_PHASE_EVERY

    class Recorded(LearningSearch):
        def _rephase(self) -> None:
            super()._rephase()
            seen.append((self.restarts, dict(self.best_phases), dict(self.phases)))

    seen: list = []
    n = 10
    search = Recorded(queens(n), inference="mac", var_order="activity", val_order="phase")
    for _ in range(2 * ORIGINAL_PHASE_EVERY + 1):
        assert search.run(max_nodes=4).status == "limit"
    assert [restart for restart, _, _ in seen] == list(range(1, 2 * ORIGINAL_PHASE_EVERY + 1))
    sizes = []
    for restart, best, phases in seen:
        rows = list(best.items())  # the best assignment is consistent: no two queens attack
        assert rows and all(c1 != c2 and abs(c1 - c2) != abs(r1 - r2)
                            for i, (r1, c1) in enumerate(rows) for r2, c2 in rows[i + 1:])
        if restart % ORIGINAL_PHASE_EVERY == 0:
            assert phases == {}
        else:
            assert best.items() <= phases.items()
        sizes.append(len(best))
    assert sizes == sorted(sizes) and search.best_size == sizes[-1]  # the best only grows
    assert queens(n).is_solution(search.run().solution)
