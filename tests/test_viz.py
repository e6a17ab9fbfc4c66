"""The explorer's Python side, the views' picture descriptions and the comparison.

The picture is drawn in the browser (tests/browser); here the widget is driven through its
Python handles (`go`, `jump`, `position`, `domains`, `sentence`) and the data it sends once
is checked: every variable of the trace has a place in the picture, events replay to the
same domains, and a plain matplotlib `draw` still gets a PNG.
"""

from __future__ import annotations

import base64
import json

import pytest

from csp_puzzles.core import Event, Trace, solve
from csp_puzzles.core.strategies import compare
from csp_puzzles.core.trace import KINDS
from csp_puzzles.examples import map_colouring, queens, send_more_money, sudoku
from csp_puzzles.puzzle import picture as pic
from csp_puzzles.viz import (
    Comparison,
    Stepper,
    domain_grid_view,
    event_sentence,
    graph_view,
    map_view,
    queens_view,
    sudoku_view,
    table,
)


@pytest.fixture(scope="module")
def queens_trace() -> Trace:
    return solve(queens(6), inference="fc", var_order="input", trace=True).trace


def replay(run: dict, position: int) -> list[set[int]]:
    """The packed run replayed as the page does it (assign opens a level, backtrack closes)."""
    present = [set(d) for d in run["init"]]
    trail: list[tuple[int, int]] = []
    marks: list[int] = []
    stride = run["stride"]
    for at in range(position):
        kind, var, value = run["events"][at * stride:at * stride + 3]
        kind = KINDS[kind]
        if kind == "assign":
            marks.append(len(trail))
            for other in present[var] - {value}:
                present[var].discard(other)
                trail.append((var, other))
        elif kind == "prune" and value in present[var]:
            present[var].discard(value)
            trail.append((var, value))
        elif kind == "backtrack":
            mark = marks.pop() if marks else 0
            while len(trail) > mark:
                v, x = trail.pop()
                present[v].add(x)
    return present


def placed(view) -> set[str]:
    return {entry["var"] for entry in view.picture["variables"]}


def test_stepper_starts_at_the_initial_state(queens_trace):
    stepper = Stepper(queens_trace, queens_view(6))
    assert stepper.position == 0 and stepper.event is None
    assert stepper.sentence().startswith("start: the initial domains")
    run = stepper.packed[0]
    assert len(run["events"]) == len(queens_trace) * run["stride"]
    sent = stepper.data["runs"][0]  # the page receives the events as JSON text
    assert json.loads(sent["events"]) == run["events"]
    assert stepper.data["picture"] == queens_view(6).picture
    assert stepper.image == ""  # the page draws it: no PNG from the kernel


def test_the_packed_run_replays_to_the_kernels_domains(queens_trace):
    stepper = Stepper(queens_trace, queens_view(6))
    run = stepper.packed[0]
    for position in (0, 1, 9, 30, len(queens_trace) // 2, len(queens_trace)):
        stepper.go(position)
        present = replay(run, position)
        for v, var in enumerate(queens_trace.variables):
            shown = {run["values"][x] for x in present[v]}
            assert shown == {str(x) for x in stepper.domains[var]}


def test_go_clamps_and_moves_the_shared_position(queens_trace):
    stepper = Stepper(queens_trace, queens_view(6))
    stepper.go(30)
    assert stepper.position == 30 and f"event 30 of {len(queens_trace)}" in stepper.sentence()
    stepper.go(10**6)
    assert stepper.position == len(queens_trace) and "solution found" in stepper.sentence()
    stepper.go(-3)
    assert stepper.position == 0


def test_the_page_moving_the_position_moves_the_python_handles(queens_trace):
    stepper = Stepper(queens_trace, queens_view(6))
    stepper.position = 1  # what a click on "step" in the page syncs back
    assert stepper.event == queens_trace[0]
    assert "assign column 0 = row 0" in stepper.sentence()


def test_counts_follow_the_position():
    result = solve(queens(6), inference="fc", var_order="input", trace=True)
    stepper = Stepper(result.trace, queens_view(6))
    stepper.go(len(result.trace))
    counts = stepper.counts()
    assert counts["assign"] == result.stats.nodes
    assert counts["prune"] == result.stats.prunings


def test_jump_goes_to_the_next_event_of_a_kind_and_says_when_none(queens_trace):
    stepper = Stepper(queens_trace, queens_view(6))
    kinds = [event.kind for event in queens_trace]
    assert stepper.jump("wipeout") and stepper.position == kinds.index("wipeout") + 1
    assert stepper.event.kind == "wipeout" and "wipe-out" in stepper.sentence()
    second = kinds.index("wipeout", stepper.position) + 1
    assert stepper.jump("wipeout") and stepper.position == second
    stepper.go(len(queens_trace))
    assert not stepper.jump("assign")
    assert stepper.position == len(queens_trace)
    assert stepper.note == "no more choices ahead"


def test_a_custom_matplotlib_draw_gets_a_png_each_step(queens_trace):
    calls = []

    def draw(ax, domains, event):
        calls.append(event)
        ax.text(0.5, 0.5, str(len(calls)))

    stepper = Stepper(queens_trace, draw)
    assert stepper.data["picture"] is None
    first = stepper.image
    assert base64.b64decode(first.split(",", 1)[1]).startswith(b"\x89PNG")
    stepper.go(3)
    assert stepper.image != first and calls[-1] == queens_trace[2]


def test_custom_sentences_are_sent_as_sentences(queens_trace):
    stepper = Stepper(queens_trace, queens_view(6), sentences=lambda e: f"it is {e.kind}")
    run = stepper.packed[0]
    assert run["templates"][run["events"][5]] == "it is assign"
    stepper.go(1)
    assert stepper.sentence().endswith("it is assign")


def test_view_words_are_sent_for_the_pages_sentences(queens_trace):
    run = Stepper(queens_trace, queens_view(6)).packed[0]
    assert run["names"][:2] == ["column 0", "column 1"]
    assert "row 0" in run["words"]


def test_wipeout_and_backtrack_are_worded():
    trace = solve(queens(6), inference="fc", var_order="input", trace=True).trace
    view = queens_view(6)
    kinds = {}
    for event in trace:
        kinds.setdefault(event.kind, view.sentence(event))
    assert kinds["wipeout"].startswith("wipe-out")
    emptied = Event("wipeout", 3, None, "queens 1 and 3", 2)
    assert view.sentence(emptied) == "wipe-out on column 3 (queens 1 and 3)"
    assert kinds["backtrack"].startswith("backtrack: undo column")
    assert "removes row" in kinds["prune"]
    assert event_sentence(trace[0]) == trace[0].describe()
    stepper = Stepper(trace, view)  # in the explorer, a wipe-out says what follows it
    first = next(i for i, e in enumerate(trace) if e.kind == "wipeout") + 1
    stepper.go(first)
    assert stepper.sentence().endswith("): this branch fails, backtrack")


@pytest.mark.parametrize("make_view, make_csp", [
    (lambda csp: queens_view(6), lambda: queens(6)),
    (lambda csp: map_view(), map_colouring),
    (lambda csp: graph_view(csp), map_colouring),
    (lambda csp: domain_grid_view(csp), send_more_money),
    (lambda csp: sudoku_view(), sudoku),
])
def test_every_builtin_view_places_every_variable(make_view, make_csp):
    csp = make_csp()
    view = make_view(csp)
    assert pic.check(view.picture) == []
    assert placed(view) == {pic.key(v) for v in csp.variables}


def test_places_cover_every_value_of_a_variable():
    csp = send_more_money()
    view = domain_grid_view(csp)
    for entry in view.picture["variables"]:
        var = next(v for v in csp.variables if pic.key(v) == entry["var"])
        assert set(entry["places"]) == {pic.key(x) for x in csp.domains[var]}


def test_graph_view_lines_name_the_constraint_they_light():
    csp = map_colouring()
    lines = graph_view(csp).picture["shapes"]
    assert {line["cause"] for line in lines} == {c.name for c in csp.constraints}


def test_a_result_without_trace_is_refused_with_advice():
    result = solve(queens(4), inference="fc")
    with pytest.raises(TypeError, match="trace=True"):
        Stepper(result.trace, queens_view(4))


def test_a_truncated_trace_says_so():
    result = solve(queens(8), inference="none", var_order="input", trace=True, max_events=50)
    assert result.trace.truncated
    stepper = Stepper(result.trace, queens_view(8))
    assert "cut short" in stepper.sentence()
    assert stepper.data["runs"][0]["truncated"]
    stepper.go(len(result.trace))
    assert stepper.position == 50


def test_compare_orders_strategies_as_taught():
    runs = {run.label: run for run in compare(lambda: queens(8))}
    assert runs["mac / input"].nodes < runs["fc / input"].nodes < runs["none / input"].nodes
    assert all(run.result.solved for run in runs.values())
    text = table(list(runs.values()))
    assert "none / input" in text and "876" in text


def test_comparison_sends_every_run_and_replays_the_chosen_one():
    runs = compare(lambda: queens(5))
    widget = Comparison(runs, queens_view(5))
    packed = widget.data["runs"]
    assert [r["label"] for r in packed] == [run.label for run in runs]
    assert [r["nodes"] for r in packed] == [run.nodes for run in runs]
    widget.run = 2
    assert widget.trace is runs[2].result.trace
    widget.go(len(widget.trace))
    assert "solution found" in widget.sentence()


def test_comparison_needs_traced_runs():
    with pytest.raises(TypeError, match="compare"):
        Comparison(lambda: queens(5), queens_view(5))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="trace"):
        Comparison(compare(lambda: queens(4), trace=False), queens_view(4))


def test_the_front_end_is_one_module_of_short_functions_numbering_kinds_as_the_core():
    from csp_puzzles.viz.frontend import PARTS, module, prelude
    from tests.test_short_functions import longest_functions

    source = module()
    assert source.startswith(prelude()) and source.count("export default { render };") == 1
    assert f"const KIND_NAMES = {list(KINDS)!r};".replace("'", '"') in source
    longest = longest_functions(source)
    assert longest and longest[0][0] <= 80, longest[0]
    assert "function render(" in source and PARTS[-1] == "main.js"


def test_a_still_picture_draws_a_description_at_given_domains():
    from csp_puzzles import hashi
    from csp_puzzles.viz import Picture

    puzzle = hashi.parse("7x7m2:d3a32a2b2e3m1a3b3b4a3b3b2")
    csp = puzzle.to_csp()
    still = Picture(puzzle.picture(), domains=csp.domains, title="the puzzle")
    data = still.data
    assert data["widget"] == "picture" and data["title"] == "the puzzle"
    assert set(data["keys"]) == {pic.key(v) for v in csp.variables}
    assert still.domains == {pic.key(v): [pic.key(x) for x in d] for v, d in csp.domains.items()}
    assert data["domains"][0][-1][1].endswith("bridges")  # value words from the description
    still.domains = {v: (d[-1],) for v, d in csp.domains.items()}  # redrawn in the page
    assert still.domains == {pic.key(v): [pic.key(d[-1])] for v, d in csp.domains.items()}


def test_a_still_picture_without_domains_needs_listed_values():
    from csp_puzzles.viz import Picture

    view = queens_view(4)
    still = Picture(view.picture)  # each column lists its rows (its places)
    assert still.domains["0"] == ["0", "1", "2", "3"]
    with pytest.raises(ValueError, match="no values for variable"):
        Picture(map_view().picture)


def test_the_front_end_parses_as_a_module(tmp_path):
    import shutil
    import subprocess

    from csp_puzzles.viz.frontend import module

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    path = tmp_path / "front.mjs"
    path.write_text(module(), encoding="utf-8")
    done = subprocess.run([node, "--check", str(path)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
