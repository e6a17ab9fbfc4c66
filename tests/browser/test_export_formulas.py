"""Exported pages need nothing from the network, formulas included.

The Markdown cells of notebook 10 (the one with the most formulas) are exported as a page of
their own, opened from file:// in Chromium with every request to a network aborted, and
MathJax must have typeset every formula (its `mjx-container` elements appear, and no raw
TeX delimiters are left in the text).
"""

from __future__ import annotations

import re

import nbformat
import pytest

from .pages import ARTIFACTS, CHROMIUM, REPO, files_only, launch

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("nbclient")
pytest.importorskip("mathjax", reason="the export extra's django-static-mathjax")

NOTEBOOK = REPO / "notebooks" / "10_integer_programs.ipynb"
INLINE = re.compile(r"(?<![\\$])\$(?!\$)[^$\n]+?\$")


def formulas_notebook(path):
    """Notebook 10's Markdown cells alone (no code to run), and how many formulas they hold."""
    source = nbformat.read(NOTEBOOK, as_version=4)
    cells = [cell for cell in source.cells if cell.cell_type == "markdown"]
    count = sum(len(INLINE.findall(cell.source)) + cell.source.count("$$") // 2
                for cell in cells)
    notebook = nbformat.v4.new_notebook(cells=cells)
    nbformat.write(notebook, path)
    return count


def test_formulas_render_with_no_network(tmp_path):
    from csp_puzzles.viz.export import export_notebook

    source = tmp_path / "formulas.ipynb"
    formulas = formulas_notebook(source)
    assert formulas >= 5, "notebook 10 no longer has formulas to test"
    out = tmp_path / "formulas.html"
    export_notebook(source, out, timeout=120)
    page_text = out.read_text(encoding="utf-8")
    assert not re.search(r"<script[^>]+src=\"https?:", page_text)
    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            blocked: list[str] = []
            page.on("request", lambda request: None if request.url.startswith(("file:", "data:"))
                    else blocked.append(request.url))
            page.route("**/*", files_only)
            page.goto(out.as_uri())
            page.wait_for_function(f"document.querySelectorAll('mjx-container').length >= "
                                   f"{formulas}", timeout=60_000)
            left = page.evaluate("document.querySelector('.jp-Notebook, body').innerText")
            assert not INLINE.search(left), "a formula was left as raw TeX"
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "export_formulas_offline.png"))
            assert blocked == []
        finally:
            browser.close()
