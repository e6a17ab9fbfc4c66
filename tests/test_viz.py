"""The stepper, the views and the comparison widget, driven as a notebook user would.

Setting a control's value fires its observers synchronously in plain pytest, so each test
changes a control and checks the picture (the Output's PNG) and the text that followed.
"""

from __future__ import annotations

import pytest

from csp_puzzles.core import Event, Trace, solve
from csp_puzzles.examples import map_colouring, queens, send_more_money
from csp_puzzles.viz import (
    Comparison,
    Stepper,
    compare,
    describe,
    domain_grid_view,
    graph_view,
    map_view,
    queens_view,
    shown_png,
    table,
)


@pytest.fixture(scope="module")
def queens_trace() -> Trace:
    return solve(queens(6), inference="fc", var_order="input", trace=True).trace


def test_stepper_starts_at_the_initial_state(queens_trace):
    stepper = Stepper(queens_trace, queens_view(6))
    assert stepper.position == 0
    assert stepper.event is None
    assert shown_png(stepper.image).startswith(b"\x89PNG")
    assert stepper.text.value.startswith("<b>start")
    assert stepper.slider.max == len(queens_trace)
    assert all(len(d) == 6 for d in stepper.domains.values())


def test_step_button_changes_picture_text_and_panel(queens_trace):
    stepper = Stepper(queens_trace, queens_view(6))
    before = (shown_png(stepper.image), stepper.text.value, stepper.panel.value)
    stepper.step_button.click()
    assert stepper.position == 1
    after = (shown_png(stepper.image), stepper.text.value, stepper.panel.value)
    assert all(a != b for a, b in zip(before, after))
    assert "assign column 0 = row 0" in stepper.text.value
    assert len(stepper.image.outputs) == 1  # replaced, not appended


def test_slider_jump_rebuilds_the_state_and_back_goes_back(queens_trace):
    stepper = Stepper(queens_trace, queens_view(6))
    stepper.slider.value = 30
    assert stepper.domains == queens_trace.domains_at(29)
    assert f"event 30 of {len(queens_trace)}" in stepper.text.value
    picture_30 = shown_png(stepper.image)
    stepper.back_button.click()
    assert stepper.position == 29
    assert stepper.domains == queens_trace.domains_at(28)
    stepper.step_button.click()
    assert shown_png(stepper.image) == picture_30  # the same state draws the same picture


def test_first_end_and_clamping(queens_trace):
    stepper = Stepper(queens_trace, queens_view(6))
    stepper.end_button.click()
    assert stepper.position == len(queens_trace)
    assert "solution found" in stepper.text.value
    stepper.step_button.click()
    assert stepper.position == len(queens_trace)
    stepper.first_button.click()
    assert stepper.position == 0
    stepper.back_button.click()
    assert stepper.position == 0


def test_play_drives_the_slider_and_speed_sets_the_interval(queens_trace):
    stepper = Stepper(queens_trace, queens_view(6))
    stepper.play.value = 5  # what the front end's timer does on each tick
    assert stepper.position == 5
    assert "event 5 of" in stepper.text.value
    stepper.speed.value = 150
    assert stepper.play.interval == 150
    assert stepper.play.max == len(queens_trace)


def test_panel_counts_what_happened_so_far():
    result = solve(queens(6), inference="fc", var_order="input", trace=True)
    stepper = Stepper(result.trace, queens_view(6))
    stepper.go(len(result.trace))
    assert f"<b>{result.stats.nodes}</b>" in stepper.panel.value
    assert f"<b>{result.stats.prunings}</b>" in stepper.panel.value
    assert "<b>6 of 6</b>" in stepper.panel.value


def test_map_view_words_and_draws_every_state():
    result = solve(map_colouring(), inference="fc", trace=True)
    stepper = Stepper(result.trace, map_view())
    pictures = set()
    for position in range(len(result.trace) + 1):
        stepper.go(position)
        pictures.add(shown_png(stepper.image))
    assert len(pictures) > len(result.trace) // 2
    assert "solution found" in stepper.sentence()


def test_domain_grid_view_handles_any_csp():
    csp = send_more_money()
    result = solve(csp, inference="mac", trace=True)
    stepper = Stepper(result.trace, domain_grid_view(csp))
    stepper.go(len(result.trace))
    assert all(len(d) == 1 for d in stepper.domains.values())
    assert shown_png(stepper.image).startswith(b"\x89PNG")


def test_wipeout_and_backtrack_are_worded():
    trace = solve(queens(6), inference="fc", var_order="input", trace=True).trace
    view = queens_view(6)
    kinds = {}
    for event in trace:
        kinds.setdefault(event.kind, view.describe(event))
    assert kinds["wipeout"].startswith("wipe-out")
    assert kinds["wipeout"].endswith("): backtrack")
    emptied = Event("wipeout", 3, None, "queens 1 and 3", 2)
    assert view.describe(emptied) == "wipe-out on column 3 (queens 1 and 3): backtrack"
    assert kinds["backtrack"].startswith("backtrack: undo column")
    assert "removes row" in kinds["prune"]
    assert describe(trace[0]) == trace[0].describe()


def test_compare_orders_strategies_as_taught():
    runs = {run.label: run for run in compare(lambda: queens(8))}
    assert runs["mac / input"].nodes < runs["fc / input"].nodes < runs["none / input"].nodes
    assert all(run.result.solved for run in runs.values())
    text = table(list(runs.values()))
    assert "none / input" in text and "876" in text


def test_comparison_widget_replays_the_chosen_run():
    widget = Comparison(lambda: queens(5), queens_view(5))
    assert shown_png(widget.chart).startswith(b"\x89PNG")
    first = widget.stepper
    widget.choice.value = 2
    assert widget.stepper is not first
    assert widget.stepper.trace is widget.runs[2].result.trace
    assert widget.holder.children == (widget.stepper,)
    widget.stepper.end_button.click()
    assert "solution found" in widget.stepper.text.value


def test_jump_goes_to_the_next_event_of_a_kind(queens_trace):
    stepper = Stepper(queens_trace, queens_view(6))
    kinds = [event.kind for event in queens_trace]
    stepper.jump_kind.value = "wipeout"
    stepper.jump_button.click()
    assert stepper.position == kinds.index("wipeout") + 1
    assert stepper.event.kind == "wipeout" and "wipe-out" in stepper.text.value
    second = kinds.index("wipeout", stepper.position) + 1
    assert stepper.jump("wipeout") and stepper.position == second
    stepper.go(len(queens_trace))
    assert not stepper.jump("assign")
    assert stepper.position == len(queens_trace)


def test_a_result_without_trace_is_refused_with_advice():
    result = solve(queens(4), inference="fc")
    with pytest.raises(TypeError, match="trace=True"):
        Stepper(result.trace, queens_view(4))


def test_a_truncated_trace_says_so():
    result = solve(queens(8), inference="none", var_order="input", trace=True, max_events=50)
    assert result.trace.truncated
    stepper = Stepper(result.trace, queens_view(8))
    assert "cut short" in stepper.sentence()
    stepper.end_button.click()
    assert stepper.position == 50


def test_graph_view_draws_any_csp_and_marks_the_constraint_at_work():
    csp = map_colouring()
    result = solve(csp, inference="fc", trace=True)
    view = graph_view(csp)
    stepper = Stepper(result.trace, view)
    prune = next(i for i, e in enumerate(result.trace) if e.kind == "prune") + 1
    stepper.go(prune - 1)
    before = shown_png(stepper.image)
    stepper.go(prune)
    assert shown_png(stepper.image) != before
    assert "removes" in stepper.sentence()
