"""The puzzle pictures and the editor on the four puzzles, driven through their widgets."""

from __future__ import annotations

import pytest

from csp_puzzles import hashi, kakuro, singles, towers
from csp_puzzles.core import Event
from csp_puzzles.puzzle import picture as pic
from csp_puzzles.puzzle.registry import KINDS, puzzle_class
from csp_puzzles.viz import PuzzleEditor, Stepper, editable_kinds, puzzle_view
from tests.conftest import decoded

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


PUZZLES = [(hashi, HASHI), (towers, TOWERS), (singles, SINGLES), (kakuro, KAKURO)]


@pytest.mark.parametrize("module, text", PUZZLES)
def test_puzzle_stepper_replays_every_kind(module, text):
    puzzle = module.parse(text)
    result = puzzle.solve(trace=True)
    assert result.solved and puzzle.check(result.solution) == []
    stepper = Stepper(result.trace, puzzle_view(puzzle))
    assert stepper.data["picture"] is not None and stepper.image == ""
    stepper.go(len(result.trace))
    assert "solution found" in stepper.sentence()
    assert decoded(puzzle, stepper.domains) == result.solution


@pytest.mark.parametrize("module, text", PUZZLES)
def test_every_variable_of_the_csp_has_a_place_in_the_picture(module, text):
    puzzle = module.parse(text)
    picture = puzzle.picture()
    assert pic.check(picture) == []
    keys = [entry["var"] for entry in picture["variables"]]
    assert len(keys) == len(set(keys))
    assert set(keys) == {pic.key(v) for v in puzzle.to_csp().variables}
    x0, y0, x1, y1 = picture["bounds"]
    for entry in picture["variables"]:
        for x, y in _corners(entry):
            assert x0 <= x <= x1 and y0 <= y <= y1, entry


def _corners(entry):
    if entry["show"] == pic.BRIDGES:
        return [(entry["x1"], entry["y1"]), (entry["x2"], entry["y2"])]
    if "r" in entry:
        return [(entry["x"] - entry["r"], entry["y"] - entry["r"])]
    return [(entry["x"], entry["y"]), (entry["x"] + entry["w"], entry["y"] + entry["h"])]


@pytest.mark.parametrize("module, text", PUZZLES)
def test_grid_pictures_number_rows_and_columns_as_the_sentences_do(module, text):
    puzzle = module.parse(text)
    picture = puzzle.picture()
    axes = picture["axes"]
    assert (axes["rows"], axes["cols"]) == (puzzle.height if hasattr(puzzle, "height")
                                            else puzzle.size,
                                            puzzle.width if hasattr(puzzle, "width")
                                            else puzzle.size)
    # the cell named (r, c) in the sentences lies in row r and column c of the numbering
    for entry in picture["variables"]:
        if entry["show"] in (pic.DIGITS, pic.SHADE):
            r, c = (int(part) for part in entry["var"].strip("()").split(","))
            assert entry["x"] == axes["x"] + c and entry["y"] == axes["y"] + r
        elif entry["show"] == pic.BRIDGES:
            r1, c1, _, _ = (int(part) for part in entry["var"].strip("()").split(","))
            assert entry["x1"] == axes["x"] + c1 + 0.5 and entry["y1"] == axes["y"] + r1 + 0.5


def test_hashi_islands_turn_green_from_their_own_edges():
    puzzle = hashi.parse(HASHI)
    discs = [s for s in puzzle.picture()["over"] if s["type"] == "circle"]
    assert len(discs) == len(puzzle.islands)
    edges = {pic.key(e.key) for e in puzzle.edges}
    assert all(set(d["decided"]) <= edges and d["decided"] for d in discs)


def test_puzzle_words_name_edges_and_cells():
    edge = (0, 4, 0, 6)
    view = puzzle_view(hashi.parse(HASHI))
    pruned = Event("prune", edge, 0, "saturation at (0,4)", 0)
    assert view.sentence(pruned) == "saturation at (0,4): edge (0,4)-(0,6) cannot carry 0 bridges"
    assert view.sentence(Event("assign", edge, 2, None, 1)) == "assign edge (0,4)-(0,6) = 2 bridges"
    shading = puzzle_view(singles.parse(SINGLES))
    assert shading.sentence(Event("prune", (1, 2), 0, "rule", 0)).endswith(
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
    editor.stepper.go(1)
    assert editor.stepper.event is not None


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


def test_the_editor_asks_the_puzzle_classes_what_is_editable():
    assert editable_kinds() == [k for k in KINDS if k != "kakuro"]
    assert not puzzle_class("kakuro").editable()
    with pytest.raises(ValueError, match="cannot be edited"):
        kakuro.parse(KAKURO).editor_cells()
