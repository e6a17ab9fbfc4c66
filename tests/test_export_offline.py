"""The exported page loads nothing: no require.js, MathJax inlined for formulas, boxes opened.

On pages made here (no kernel, no browser): nbconvert's CDN tags are found and replaced, a
page without formulas gets no MathJax at all, and a box of widgets (two pictures side by
side) is inlined as its children. The browser checks are tests/browser/test_export*.py.
"""

from __future__ import annotations

import re

import nbformat
import pytest

from csp_puzzles.core import solve
from csp_puzzles.examples import queens
from csp_puzzles.viz import Stepper, queens_view
from csp_puzzles.viz.export import (
    MATHJAX_MARK,
    OTHER_WIDGET,
    REQUIRE_MARK,
    WIDGET_STATE,
    WIDGET_VIEW,
    has_formulas,
    inline_explorers,
    offline_page,
)
from csp_puzzles.viz.stepper import EXPLORER_JS

nbconvert = pytest.importorskip("nbconvert")


def page_of(notebook) -> str:
    exporter = nbconvert.HTMLExporter(template_name="lab", mathjax_url=MATHJAX_MARK,
                                      require_js_url=REQUIRE_MARK)
    return exporter.from_notebook_node(notebook)[0]


def scripts_from_elsewhere(page: str) -> list[str]:
    return re.findall(r"<script[^>]+src=\"([^\"]+)\"", page)


def test_a_page_with_formulas_carries_mathjax_and_fetches_nothing():
    pytest.importorskip("mathjax", reason="the export extra's django-static-mathjax")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "Each cell takes one height: $\\sum_k x_{ijk} = 1$.")])
    assert has_formulas(notebook)
    page = offline_page(page_of(notebook), formulas=True)
    assert scripts_from_elsewhere(page) == []
    config = page.index("window.MathJax = {tex:")
    module = page.index("<script>", config)
    end = page.index("</script>", module)
    assert end - module > 2_000_000  # MathJax 3, TeX to SVG, whole, in one script element


def test_a_page_without_formulas_carries_no_mathjax():
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "No formula here, only 5 dollars and $ signs apart."),
        nbformat.v4.new_code_cell("x = 1")])
    assert not has_formulas(notebook)
    page = offline_page(page_of(notebook), formulas=False)
    assert scripts_from_elsewhere(page) == []
    assert "window.MathJax = {" not in page


def test_a_changed_template_is_said_not_silently_left_online():
    with pytest.raises(ValueError, match="nbconvert's page has changed"):
        offline_page("<html><script src=\"https://cdn.example/x.js\"></script></html>", True)


def test_a_box_of_pictures_is_inlined_as_its_children():
    stepper = Stepper(solve(queens(4), inference="fc", trace=True).trace, queens_view(4))
    state = {"data": stepper.data, "_esm": EXPLORER_JS}
    widgets = {"a": {"state": state}, "b": {"state": dict(state)},
               "c": {"state": {"value": 3}},
               "box": {"state": {"children": ["IPY_MODEL_a", "IPY_MODEL_b", "IPY_MODEL_c"]}}}
    cell = nbformat.v4.new_code_cell("HBox([...])")
    cell.outputs = [nbformat.v4.new_output("display_data", data={
        WIDGET_VIEW: {"model_id": "box", "version_major": 2}})]
    notebook = nbformat.v4.new_notebook(cells=[cell])
    notebook.metadata["widgets"] = {WIDGET_STATE: {"state": widgets}}
    assert inline_explorers(notebook) == 2
    html = notebook.cells[0].outputs[0]["data"]["text/html"]
    assert html.startswith('<div style="display:flex')
    assert html.count("window.cspExplorer.render(") == 2 and OTHER_WIDGET in html
