"""Hashi model, rules, checker and drawing on small hand-made grids."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_puzzles import hashi
from csp_puzzles.core import Search, count, solve, solve_with_restarts
from csp_puzzles.hashi.check import check
from csp_puzzles.hashi.rules import (
    FULL,
    LEVELS,
    RULE_LEVELS,
    rule_family,
)
from csp_puzzles.viz.matplotlib_drawing import draw_puzzle
from tests.conftest import janko

SEED_000 = "1 0 2 0 0\n0 0 0 0 0\n0 0 2 0 2\n0 0 0 0 0\n0 0 2 0 3\n"


def solved(puzzle: hashi.Hashi, **options) -> dict:
    result = puzzle.solve(**options)
    assert result.status == "solved", result.status
    assert puzzle.check(result.solution, adjacent=options.get("adjacent", True)) == []
    return result.solution


def test_edges_and_crossings():
    puzzle = hashi.parse("0 2 0\n2 0 2\n0 2 0\n")
    keys = {e.key for e in puzzle.edges}
    assert keys == {(1, 0, 1, 2), (0, 1, 2, 1)}
    assert len(puzzle.crossings) == 1
    assert puzzle.edge_of[(1, 0, 1, 2)].cells == ((1, 1),)


def test_islands_block_the_view():
    puzzle = hashi.parse("1 0 2 0 1\n")
    assert {e.key for e in puzzle.edges} == {(0, 0, 0, 2), (0, 2, 0, 4)}


def test_seed_000_example():
    puzzle = hashi.parse(SEED_000)
    solution = solved(puzzle)
    assert solution[(2, 4, 4, 4)] == 2
    # the seed's own answer is one of the two solutions
    seed_answer = {(0, 0, 0, 2): 1, (0, 2, 2, 2): 1, (2, 2, 4, 2): 1, (2, 4, 4, 4): 2,
                   (4, 2, 4, 4): 1}
    assert puzzle.check(seed_answer) == []
    counted = puzzle.count(limit=5)
    assert counted.solutions == 2 and counted.unique is False


def test_seed_001_two_adjacent_ones():
    puzzle = hashi.parse("1 1\n")
    assert solved(puzzle) == {(0, 0, 0, 1): 1}
    assert puzzle.solve(adjacent=False).status == "unsatisfiable"
    assert puzzle.check({(0, 0, 0, 1): 1}, adjacent=False)


def test_odd_total_is_unsatisfiable():
    puzzle = hashi.parse("1 0 1 0 1\n")
    assert puzzle.solve().status == "unsatisfiable"
    assert puzzle.count().solutions == 0


def test_disconnected_pairs_are_unsatisfiable():
    # two 1-1 pairs would satisfy every degree but leave two groups
    assert hashi.parse("1 0 1\n0 0 0\n1 0 1\n").solve().status == "unsatisfiable"
    # and a square of 2s has a single solution, a loop
    assert solved(hashi.parse("2 0 2\n0 0 0\n2 0 2\n")) == {
        (0, 0, 0, 2): 1, (0, 0, 2, 0): 1, (0, 2, 2, 2): 1, (2, 0, 2, 2): 1}


def test_maxb_one_and_four():
    one = hashi.Hashi(3, 3, {(0, 0): 2, (0, 2): 2, (2, 0): 2, (2, 2): 2}, maxb=1)
    assert len(solved(one)) == 4
    four = hashi.Hashi(1, 3, {(0, 0): 4, (0, 2): 4}, maxb=4)
    assert solved(four) == {(0, 0, 0, 2): 4}
    assert hashi.Hashi(1, 3, {(0, 0): 4, (0, 2): 4}, maxb=3).solve().status == "unsatisfiable"


def test_no_loops_variant():
    square = {(0, 0): 2, (0, 2): 2, (2, 0): 2, (2, 2): 2}
    assert hashi.Hashi(3, 3, square, loops=True).count().solutions == 1
    assert hashi.Hashi(3, 3, square, loops=False).solve().status == "unsatisfiable"
    tree = hashi.Hashi(3, 3, {(0, 0): 1, (0, 2): 2, (2, 2): 1}, loops=False)
    solution = solved(tree)
    assert tree.check({**solution, (0, 0, 2, 0): 1}) != []


def test_no_loops_prunes_cycle_edges():
    # 3 3 / 3 3 corners: with loops it is a square with one double; L forbids it
    puzzle = hashi.parse("10x10m2L:a3a3c2a21a2e4b2d1c4g5c1a1a2o2c4a3a2h3j2c3d2")
    result = puzzle.solve(trace=True)
    assert result.status == "solved" and puzzle.check(result.solution) == []
    links = list(result.solution)
    assert len(links) == len(puzzle.islands) - 1  # a spanning tree


@pytest.mark.parametrize("inference", ["none", "fc", "mac"])
def test_every_inference_finds_a_checked_solution(inference):
    puzzle = hashi.parse("7x7m2:d3a32a2b2e3m1a3b3b4a3b3b2")
    result = puzzle.solve(inference=inference, var_order="mrv")
    assert result.status == "solved" and puzzle.check(result.solution) == []


RULE_SHOWCASE = {  # puzzles whose solving trace uses the rule (found by running them)
    "connectivity: single way out of the group":
        "10x10m2:3b6b3b1a1f2a2b3a1e4d4a4c2a3o1a2s3a4a4a2b3g2",
    "would close a group of": "7x7m2:a1d31c2i3c4j1b4a32f",
    "connectivity: maxing the other edges of": "7x7m2:a1d31c2i3c4j1b4a32f",
    "is the only link between two parts": "janko 342_10x10",
    "isolation 2=2": "5x5m2:2a2a2e1c3f1b3",
    "isolation 1-1": "5x5m2:1a1f2j2a4a4",
    "isolation 3≡3": "10x10m3:a3b3b5a33a3n3b4a5a4d5a3c6a3d3a2f4h4c1b3c3h4a4b3a5a5",
    "would close a cycle": "7x7m2L:2e3a1b2h3h3b6a5h2b2a1",  # generate(loops=False) seed 0
}


def showcase_puzzle(source: str) -> hashi.Hashi:
    """A Tatham ID, or "janko <id>" for a puzzle of the shared janko set (skips if absent)."""
    if source.startswith("janko "):
        problems = dict(janko("hashi"))
        return hashi.parse(problems[source.split()[1]]["problem"])
    return hashi.parse(source)


@pytest.mark.parametrize("rule", sorted(RULE_SHOWCASE))
def test_each_rule_prunes_in_a_trace(rule):
    puzzle = showcase_puzzle(RULE_SHOWCASE[rule])
    result = puzzle.solve(trace=True)
    assert result.status == "solved" and puzzle.check(result.solution) == []
    causes = [e.cause for e in result.trace if e.kind == "prune"]
    assert any(rule in cause for cause in causes), sorted(set(causes))


def test_trace_names_the_rules():
    puzzle = hashi.parse("10x10m2:3b6b3b1a1f2a2b3a1e4d4a4c2a3o1a2s3a4a4a2b3g2")
    result = puzzle.solve(trace=True)
    causes = {e.cause for e in result.trace if e.kind == "prune"}
    families = {rule_family(c) for c in causes}
    assert families <= set(RULE_LEVELS)
    assert {"saturation", "island complete", "crossing", "N remaining with N+1 open",
            "edge cap", "connectivity", "isolation"} <= families
    assert any(c.startswith("saturation at (") for c in causes)


def test_rule_levels_limit_the_rules():
    puzzle = hashi.parse("10x10m2:3b6b3b1a1f2a2b3a1e4d4a4c2a3o1a2s3a4a4a2b3g2")
    order = (*LEVELS, FULL)
    for level in LEVELS:
        result = solve(puzzle.to_csp(level=level), trace=True)
        assert result.status == "solved"
        assert puzzle.check(puzzle.decode(result.solution)) == []
        families = {rule_family(e.cause) for e in result.trace if e.kind == "prune"}
        allowed = {f for f, at in RULE_LEVELS.items() if order.index(at) <= order.index(level)}
        assert families <= allowed, families
    with pytest.raises(ValueError):
        puzzle.to_csp(level="extreme")


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_rules_never_lose_a_solution(data):
    """Counting with every rule must agree with plain backtracking (final checks only)."""
    height = data.draw(st.integers(2, 4))
    width = data.draw(st.integers(2, 4))
    cells = [(r, c) for r in range(height) for c in range(width)]
    chosen = data.draw(st.lists(st.sampled_from(cells), min_size=2, max_size=6, unique=True))
    maxb = data.draw(st.integers(1, 2))
    values = {pos: data.draw(st.integers(1, 2 * maxb)) for pos in chosen}
    loops = data.draw(st.booleans())
    adjacent = data.draw(st.booleans())
    puzzle = hashi.Hashi(height, width, values, maxb=maxb, loops=loops)
    plain = count(puzzle.to_csp(adjacent=adjacent), inference="none", var_order="input")
    ruled = puzzle.count(limit=None, adjacent=adjacent)
    assert ruled.solutions == plain.count
    for level in LEVELS:  # Tatham's rule families are sound too
        assert count(puzzle.to_csp(adjacent=adjacent, level=level)).count == plain.count
    full = count(puzzle.to_csp(adjacent=adjacent), keep=True, inference="mac")
    for solution in full.solutions:
        assert puzzle.check(puzzle.decode(solution), adjacent=adjacent) == []


def test_checker_reports_each_broken_rule():
    puzzle = hashi.parse("0 2 0\n2 0 2\n0 2 0\n")
    assert any("crosses" in p for p in check(puzzle, {(1, 0, 1, 2): 2, (0, 1, 2, 1): 2}))
    assert any("separate groups" in p for p in check(puzzle, {(1, 0, 1, 2): 2,
                                                               (0, 1, 2, 1): 2}))
    line = hashi.parse("2 0 2 0 2\n")
    assert any("passes over" in p for p in check(line, {(0, 0, 0, 4): 1}))
    assert any("at most 2" in p for p in check(line, {(0, 0, 0, 2): 3}))
    assert any("has 1 bridges" in p for p in check(line, {(0, 0, 0, 2): 1}))
    assert any("row or a column" in p for p in check(puzzle, {(0, 1, 1, 0): 1}))
    assert any("no island" in p for p in check(puzzle, {(0, 0, 0, 1): 1}))
    assert check(line, {"bridges": [[0, 0, 0, 2, 2], [0, 2, 0, 4, 2]]}) == [
        "island (0,2) has 4 bridges, its number is 2"]
    assert check(puzzle, None) == ["no solution given"]


def test_json_and_text_of_a_solution():
    puzzle = hashi.parse(SEED_000)
    result = puzzle.solve()
    data = result.as_dict()
    assert data["kind"] == "hashi" and data["status"] == "solved"
    bridges = data["solution"]["bridges"]
    assert all(len(b) == 5 and b[4] >= 1 and (b[0], b[1]) < (b[2], b[3]) for b in bridges)
    assert puzzle.check({"bridges": bridges}) == []
    text = puzzle.solution_to_text(result.solution)
    assert text.splitlines()[4].endswith("3") and "‖" in text


def test_render_puzzle_solution_and_state():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    puzzle = hashi.parse("7x7m2:d3a32a2b2e3m1a3b3b4a3b3b2")
    result = puzzle.solve(trace=True)
    fig, axes = plt.subplots(1, 3)
    draw_puzzle(axes[0], puzzle)
    draw_puzzle(axes[1], puzzle, domains=result.trace.domains_at(5))
    draw_puzzle(axes[2], puzzle, solution=result.solution)
    assert len(axes[0].lines) < len(axes[1].lines)
    bridges_drawn = sum(1 for line in axes[2].lines if line.get_linestyle() == "-")
    assert bridges_drawn == sum(result.solution.values())
    plt.close(fig)


def test_variable_orders_of_the_model():
    field = hashi.parse("\n".join(" ".join(["2", "0"] * 3) for _ in range(6)) + "\n")
    result = field.solve(var_order="dom-wdeg")
    assert result.status == "solved" and field.check(result.solution) == []
    assert field.count(limit=10).solutions == 4
    # the core counts failures on the constraints that fail: dom/wdeg's weights
    csp = hashi.parse("1 0 1 0 1\n").to_csp()
    search = Search(csp, var_order="dom-wdeg")
    assert list(search.solutions()) == []
    assert search.weights and all(w > 1 for w in search.weights.values())
    assert set(search.weights) <= set(csp.constraints)
    assert Search(csp, var_order="dom-wdeg").weights == {}  # a fresh search starts afresh


def test_restarts_keep_the_answer_exact():
    unsat = hashi.parse("2 0 2 0 0\n0 0 0 0 0\n2 0 3 0 1\n0 0 0 0 0\n0 0 1 0 0\n")
    plain = count(unsat.to_csp(), inference="none", var_order="input")
    result = solve_with_restarts(unsat.to_csp(), first_budget=1, growth=1.5)
    assert (result.status == "unsatisfiable") == (plain.count == 0)
    field = hashi.parse("\n".join(" ".join(["2", "0"] * 3) for _ in range(6)) + "\n")
    result = solve_with_restarts(field.to_csp(), first_budget=1, growth=1.5)
    assert result.status == "solved" and field.check(field.decode(result.solution)) == []
    limited = solve_with_restarts(field.to_csp(), max_nodes=1, first_budget=1)
    assert limited.status in ("solved", "limit") and limited.stats.nodes <= 1


def test_connectivity_failures_blame_the_closed_group():
    """A closed group fails with the edges around it as `blame`, and the core's failure
    weights then go to the local constraints on those edges, not to the global one."""
    from csp_puzzles.core import Contradiction, SearchState
    from csp_puzzles.core.heuristics import credit_failure
    from csp_puzzles.hashi.connectivity import Connectivity

    puzzle = hashi.parse("1 1 0 1 1\n")  # the two touching pairs would close each other
    csp = puzzle.to_csp(level="easy")
    connectivity = next(c for c in csp.constraints if isinstance(c, Connectivity))
    state = SearchState(csp)
    state.weights = {}
    state.fix((0, 0, 0, 1), 1)
    with pytest.raises(Contradiction) as failure:
        connectivity.propagate(state)
    assert "cut off" in failure.value.cause
    assert set(failure.value.blame) == {(0, 0, 0, 1), (0, 1, 0, 3)}
    credit_failure(state, connectivity, failure.value)
    assert connectivity not in state.weights
    credited = {c.name for c in state.weights}
    assert credited == {"degree at (0,0)", "degree at (0,1)", "degree at (0,3)"}

