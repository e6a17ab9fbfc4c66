"""Min-conflicts: solutions verified independently, conflict counts checked against a
recount from scratch, traces that replay, and limits that are reported."""

from __future__ import annotations

from itertools import combinations

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from csp_puzzles import CSP, AllDifferent, Linear, Predicate, Table
from csp_puzzles.core.local import min_conflicts
from csp_puzzles.examples import map_colouring, queens, queens_by_lines


def attacking_pairs(rows: dict) -> int:
    """Pairs of queens on one row or diagonal, counted from scratch."""
    return sum(1 for (a, ra), (b, rb) in combinations(rows.items(), 2)
               if ra == rb or abs(ra - rb) == abs(a - b))


def no_attacks(rows: dict) -> bool:
    """The same in linear time: n distinct rows, rising and falling diagonals."""
    n = len(rows)
    return n == len(set(rows.values())) == len({r + c for c, r in rows.items()}) == len(
        {r - c for c, r in rows.items()})


def final_conflicts(result) -> int:
    repairs = [e for e in result.trace if e.kind == "repair"]
    return repairs[-1].depth


@pytest.mark.parametrize("make", [queens, queens_by_lines])
def test_queens_are_solved_and_checked_independently(make):
    result = min_conflicts(make(30), seed=3)
    assert result.status == "solved"
    assert len(result.solution) == 30 and attacking_pairs(result.solution) == 0


def test_line_counters_keep_aima_step_count_at_a_few_thousand_queens():
    result = min_conflicts(queens_by_lines(3000), seed=1, max_steps=1000)
    assert result.solved and len(result.solution) == 3000 and no_attacks(result.solution)
    assert result.stats.nodes < 300  # AIMA: about 50 steps after a greedy start, whatever n


def test_australia_and_a_repeatable_run():
    runs = [min_conflicts(map_colouring(), seed=7) for _ in range(2)]
    assert runs[0].solved and map_colouring().is_solution(runs[0].solution)
    assert runs[0].solution == runs[1].solution and runs[0].stats.nodes == runs[1].stats.nodes


def test_no_solution_is_a_limit_never_a_no():
    result = min_conflicts(queens(3), seed=1, max_steps=200)
    assert result.status == "limit" and result.solution is None
    assert result.stats.nodes == 200


def test_trace_replays_the_repairs():
    csp = queens(8)
    result = min_conflicts(csp, seed=2, trace=True)
    assert result.solved and result.stats.nodes > 0
    trace = result.trace
    kinds = [e.kind for e in trace]
    assert kinds[:8] == ["repair"] * 8 and kinds[-1] == "solution"
    assert len(trace) == 8 + result.stats.nodes + 1
    assert {e.cause for e in trace[:8]} == {"greedy start"}
    assert final_conflicts(result) == 0
    last = trace.domains_at(len(trace) - 1)
    assert {v: d[0] for v, d in last.items()} == result.solution
    assert all(len(d) == 1 for d in last.values())
    halfway = trace.domains_at(3)  # four queens placed, four columns still open
    assert [len(halfway[c]) for c in range(8)] == [1, 1, 1, 1, 8, 8, 8, 8]
    step = trace[8]
    assert step.describe() == (f"min-conflicts: {step.var} = {step.value}, "
                               f"{step.depth} conflict{'s' if step.depth != 1 else ''} left")
    for i, event in enumerate(trace):  # each repair's count is a recount of its assignment
        if event.kind == "repair" and i >= 7:
            assert event.depth == attacking_pairs(trace.assignment_at(i))


def test_line_counter_totals_match_a_recount():
    result = min_conflicts(queens_by_lines(40), seed=2, trace=True, max_steps=5)
    trace = result.trace
    for i in range(39, len(trace)):
        if trace[i].kind == "repair":
            assert trace[i].depth == attacking_pairs(trace.assignment_at(i))


@st.composite
def small_problems(draw):
    csp = CSP("random")
    names = "abcde"[: draw(st.integers(2, 5))]
    for name in names:
        csp.add_variable(name, range(draw(st.integers(1, 4))))
    for _ in range(draw(st.integers(1, 5))):
        scope = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
        kind = draw(st.sampled_from(["table", "alldiff", "linear", "predicate"]))
        if kind == "table":
            rows = draw(st.lists(st.tuples(*[st.integers(0, 3)] * len(scope)), max_size=8))
            csp.add_constraint(Table(scope, rows))
        elif kind == "alldiff":
            csp.add_constraint(AllDifferent(scope))
        elif kind == "linear":
            csp.add_constraint(Linear(scope, None, draw(st.sampled_from(["<=", ">=", "!="])),
                                      draw(st.integers(0, 6))))
        else:
            csp.add_constraint(Predicate(lambda *xs: sum(xs) % 2 == 0, scope))
    return csp


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_problems(), st.integers(0, 99))
def test_incremental_counts_equal_a_recount(csp, seed):
    result = min_conflicts(csp, seed=seed, max_steps=30, trace=True)
    trace = result.trace
    n = len(csp.variables)
    for i in range(n - 1, len(trace)):
        if trace[i].kind == "repair":
            assert trace[i].depth == len(csp.violated(trace.assignment_at(i)))
    if result.solved:
        assert csp.is_solution(result.solution)


def test_bench_local_prints_both_solvers(capsys):
    from csp_puzzles.bench import local

    assert local.main(["--sizes", "50", "--runs", "1", "--peer-timeout", "1"]) == 0
    out = capsys.readouterr().out
    assert "50-queens" in out and "line counters" in out and "pairwise" in out
    assert "1/1 solved" in out  # ours, checked against the model inside the benchmark


def test_the_explorer_front_end_numbers_event_kinds_as_the_core_does():
    """The browser receives kinds as numbers (their place in KINDS): repair events must
    replay there too."""
    import re

    from csp_puzzles.core.trace import KINDS
    from csp_puzzles.viz.frontend import module

    script = module()  # the front end, joined from csp_puzzles/viz/front/
    names = re.search(r"const KIND_NAMES = \[([^\]]*)\]", script)
    assert names is not None
    assert [n.strip().strip('"') for n in names.group(1).split(",")] == list(KINDS)
    numbers = re.search(r"const (ASSIGN = 0[^;]*);", script)
    assert numbers is not None
    pairs = [part.split("=") for part in numbers.group(1).split(",")]
    numbered = {name.strip().lower(): int(n) for name, n in pairs}
    assert numbered == {kind: i for i, kind in enumerate(KINDS)}
