"""The puzzle views and the editor on the four puzzles, driven through their widgets."""

from __future__ import annotations

import pytest

from csp_puzzles import hashi, kakuro, singles, towers
from csp_puzzles.core import Event
from csp_puzzles.viz import PuzzleEditor, Stepper, puzzle_view, shown_png

HASHI = "7x7m2:d3a32a2b2e3m1a3b3b4a3b3b2"
TOWERS = "4:1/2/3/4/2/2/2/1/1/2/2/2/4/3/2/1"
SINGLES = "5x5:4112421234524525441243243"
KAKURO = """6 6
- 8, 34, - 4, 9,
,7 0 0 14,12 0 0
,22 0 0 0 0 -
- 15,11 0 0 13, -
,22 0 0 0 0 8,
,16 0 0 ,15 0 0
"""


@pytest.mark.parametrize("module, text", [
    (hashi, HASHI), (towers, TOWERS), (singles, SINGLES), (kakuro, KAKURO),
])
def test_puzzle_stepper_draws_every_kind(module, text):
    puzzle = module.parse(text)
    result = puzzle.solve(trace=True)
    assert result.solved and puzzle.check(result.solution) == []
    stepper = Stepper(result.trace, puzzle_view(puzzle))
    start = shown_png(stepper.image)
    stepper.go(len(result.trace) // 2)
    assert shown_png(stepper.image) != start
    stepper.end_button.click()
    assert "solution found" in stepper.text.value
    assert puzzle.domains_to_solution(stepper.domains) == result.solution


def test_puzzle_words_name_edges_and_cells():
    edge = (0, 4, 0, 6)
    view = puzzle_view(hashi.parse(HASHI))
    pruned = Event("prune", edge, 0, "saturation at (0,4)", 0)
    assert view.describe(pruned) == "saturation at (0,4): edge (0,4)-(0,6) cannot carry 0 bridges"
    assert view.describe(Event("assign", edge, 2, None, 1)) == "assign edge (0,4)-(0,6) = 2 bridges"
    shading = puzzle_view(singles.parse(SINGLES))
    assert shading.describe(Event("prune", (1, 2), 0, "rule", 0)).endswith(
        "cell (1,2) cannot be unshaded")


def test_hashi_editor_click_cycles_and_solve_steps():
    editor = PuzzleEditor("hashi", (3, 3))
    corner, other = editor.buttons[0][0], editor.buttons[0][2]
    assert corner.description == "."
    corner.click()
    assert corner.description == "1" and "edited" in editor.status.value
    editor.solve()
    assert editor.stepper is None and "no solution" in editor.status.value
    other.click()
    editor.solve()
    assert editor.result.solved and "unique" in editor.status.value
    assert editor.holder.children == (editor.stepper,)
    before = shown_png(editor.stepper.image)
    editor.stepper.step_button.click()
    assert shown_png(editor.stepper.image) != before


def test_editor_reports_a_grid_that_does_not_parse():
    editor = PuzzleEditor("hashi", (3, 3))
    editor.solve()
    assert editor.status.value.startswith("<b>not a valid grid:</b>")
    assert editor.holder.children == ()


def test_editor_round_trips_each_kind():
    for module, text in ((hashi, HASHI), (towers, TOWERS), (singles, SINGLES)):
        puzzle = module.parse(text)
        editor = PuzzleEditor.from_puzzle(puzzle)
        again = module.parse(editor.text())
        assert again.solve().solution == puzzle.solve().solution
        editor.solve()
        assert "unique" in editor.status.value


def test_towers_editor_clue_click_changes_the_puzzle():
    editor = PuzzleEditor.from_puzzle(towers.parse(TOWERS))
    assert editor.buttons[0][0].disabled  # corners hold nothing
    clue = editor.buttons[0][1]
    assert clue.description == "1"
    clue.click()
    assert clue.description == "2"
    editor.solve()
    assert "no solution" in editor.status.value or "more than one" in editor.status.value
    editor.clear()
    assert all(b.description in ("-", " ") for row in editor.buttons for b in row)


def test_editor_refuses_kinds_it_cannot_edit():
    with pytest.raises(ValueError):
        PuzzleEditor("kakuro")
