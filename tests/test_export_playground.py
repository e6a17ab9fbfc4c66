"""An exported playground carries what was done: its data, its `state` and its `replay`.

A notebook run with its widget state saved holds each playground's traits; the export inlines
them, `state` (history, answer, status) and `replay` (the packed trace) included, so the page
replays the session as it was left. Built here without a kernel; `export_notebook` end to end when
nbclient is there.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from csp_puzzles import Session
from csp_puzzles.examples import map_colouring
from csp_puzzles.viz import Playground
from csp_puzzles.viz.export import (
    EXPLORER_TRAITS,
    WIDGET_STATE,
    WIDGET_VIEW,
    inline_explorers,
    saved_state,
    standalone_page,
)
from csp_puzzles.viz.stepper import EXPLORER_JS


def played() -> Playground:
    """A playground on the map of Australia after an assignment and a wipe-out taken back."""
    play = Playground(Session(map_colouring(), "fc"))
    play.act("assign", var="WA", value="red")
    play.act("assign", var="NT", value="green")
    play.act("assign", var="Q", value="blue")  # SA's last colour: a wipe-out
    play.act("undo")
    return play


def models(page: str) -> list[dict]:
    """The state each widget of the page is rendered from (the argument of cspStaticModel)."""
    return [json.loads(found.replace("<\\/", "</"))
            for found in re.findall(r"cspStaticModel\((\{.*?\})\), el:", page)]


def test_the_state_is_among_the_traits_a_page_carries():
    assert {"state", "replay"} <= set(EXPLORER_TRAITS)
    play = played()
    saved = saved_state(play)
    assert set(saved) == {"data", "state", "replay"}
    assert saved["state"]["history"] == ["assign WA = red", "assign NT = green"]
    assert saved["state"]["status"] == "open" and "undone" in saved["state"]["answer"]


def test_an_exported_playground_replays_what_was_done():
    play = played()
    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("play")
    cell.outputs = [nbformat.v4.new_output(
        "display_data", data={WIDGET_VIEW: {"model_id": "p", "version_major": 2}})]
    notebook.cells.append(cell)
    state = {**saved_state(play), "_esm": EXPLORER_JS}
    notebook.metadata["widgets"] = {WIDGET_STATE: {"state": {"p": {"state": state}},
                                                   "version_major": 2}}
    assert inline_explorers(notebook) == 1
    (model,) = models(notebook.cells[0].outputs[0]["data"]["text/html"])
    assert model["state"]["history"] == play.session.history
    assert model["state"]["events"] == len(play.session.trace)
    assert model["replay"]["events"] == play.replay["events"]
    # the page replays the session: every event of it, the wipe-out and its undo included
    kinds = [event.kind for event in play.session.trace]
    assert kinds.count("wipeout") == 1 and len(kinds) == model["state"]["events"]


def test_a_standalone_page_holds_playgrounds_with_their_state():
    play = played()
    (model,) = models(standalone_page([play]))
    assert model["state"] == json.loads(json.dumps(play.state))


def test_export_notebook_keeps_a_playgrounds_state(tmp_path: Path):
    pytest.importorskip("nbclient")
    pytest.importorskip("nbconvert")
    from csp_puzzles.viz.export import export_notebook

    source = tmp_path / "played.ipynb"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from csp_puzzles import Session\n"
        "from csp_puzzles.examples import map_colouring\n"
        "from csp_puzzles.viz import Playground\n"
        "play = Playground(Session(map_colouring(), 'fc'))\n"
        "play.act('assign', var='SA', value='blue')\n"
        "play")])
    nbformat.write(notebook, source)
    assert export_notebook(source, tmp_path / "played.html") == 1
    (model,) = models((tmp_path / "played.html").read_text(encoding="utf-8"))
    assert model["state"]["history"] == ["assign SA = blue"]
