"""The offline export's inlining, on a notebook built here (no kernel, no browser).

A notebook run with its widget state saved holds, for each widget output, the model's state;
the export swaps each explorer's output for its HTML (the module once, then the data) and
every other widget's output for a note, and drops the state so no page loads a CDN manager.
"""

from __future__ import annotations

import json

import nbformat
import pytest

from csp_puzzles.core import solve
from csp_puzzles.examples import queens
from csp_puzzles.viz import Stepper, queens_view
from csp_puzzles.viz.export import (
    EXPLORER_TRAITS,
    OTHER_WIDGET,
    WIDGET_STATE,
    WIDGET_VIEW,
    classic_script,
    inline_explorers,
    standalone_page,
)
from csp_puzzles.viz.stepper import EXPLORER_JS


def _saved(stepper: Stepper) -> dict:
    state = {name: getattr(stepper, name) for name in EXPLORER_TRAITS
             if stepper.has_trait(name)}
    return {"model_name": "AnyModel", "state": {**state, "_esm": EXPLORER_JS}}


def _notebook(models: dict[str, dict]) -> nbformat.NotebookNode:
    notebook = nbformat.v4.new_notebook()
    for model_id in models:
        cell = nbformat.v4.new_code_cell("shown")
        cell.outputs = [nbformat.v4.new_output(
            "display_data", data={WIDGET_VIEW: {"model_id": model_id, "version_major": 2}})]
        notebook.cells.append(cell)
    notebook.metadata["widgets"] = {WIDGET_STATE: {"state": models, "version_major": 2}}
    return notebook


@pytest.fixture(scope="module")
def stepper() -> Stepper:
    trace = solve(queens(4), inference="fc", var_order="input", trace=True).trace
    return Stepper(trace, queens_view(4))


def test_explorers_are_inlined_once_and_other_widgets_get_a_note(stepper):
    slider = {"model_name": "IntSliderModel", "state": {"value": 3}}
    notebook = _notebook({"a": _saved(stepper), "b": slider, "c": _saved(stepper)})
    assert inline_explorers(notebook) == 2
    shown = [cell.outputs[0]["data"]["text/html"] for cell in notebook.cells]
    assert shown[1] == OTHER_WIDGET
    assert "window.cspExplorer = { render };" in shown[0]
    assert "window.cspExplorer" in shown[2] and "window.cspExplorer = {" not in shown[2]
    assert 'id="csp-explorer-0"' in shown[0] and 'id="csp-explorer-1"' in shown[2]
    assert "widgets" not in notebook.metadata


def test_the_inlined_data_is_the_widgets_state(stepper):
    notebook = _notebook({"a": _saved(stepper)})
    inline_explorers(notebook)
    html = notebook.cells[0].outputs[0]["data"]["text/html"]
    payload = html.split("cspStaticModel(", 2)[-1].rsplit("), el:", 1)[0]
    data = json.loads(payload.replace("<\\/", "</"))
    assert data["data"] == json.loads(json.dumps(stepper.data))
    assert "</script" not in payload


def test_the_module_becomes_a_classic_script():
    script = classic_script(EXPLORER_JS)
    assert "export default" not in script
    assert script.rstrip().endswith("window.cspExplorer = { render };")
    with pytest.raises(ValueError, match="imports"):
        classic_script('import x from "y";\nexport default { render };\n')


def test_a_standalone_page_holds_every_explorer(stepper):
    page = standalone_page([stepper, stepper], title="two")
    assert page.count("window.cspExplorer.render(") == 2
    assert page.startswith("<!DOCTYPE html>") and "<title>two</title>" in page
