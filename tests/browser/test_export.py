"""`csp-puzzles export`: a notebook as one HTML page that steps with no kernel and no network.

The export runs the notebook in a fresh kernel and inlines each explorer; the page is then
opened from file:// in Chromium with every request to a network aborted, and it must still
step, draw the search tree and answer "why?".
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from .pages import (
    ARTIFACTS,
    CHROMIUM,
    REPO,
    axe_checks,
    files_only,
    launch,
    wait_for_text,
)

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("nbclient")

NOTEBOOK = REPO / "notebooks" / "00_start_here.ipynb"


def test_an_exported_notebook_steps_offline(tmp_path):
    out = tmp_path / "start_here.html"
    done = subprocess.run([sys.executable, "-m", "csp_puzzles", "export", str(NOTEBOOK),
                           "-o", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "explorer(s)" in done.stdout and out.is_file()
    with axe_checks() as no_serious_violations, \
            sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.route("**/*", files_only)
            page.goto(out.as_uri())
            explorer = page.locator(".csp-stepper").first
            explorer.wait_for(timeout=30_000)
            explorer.scroll_into_view_if_needed()
            text = explorer.locator(".csp-stepper-text")
            picture = explorer.locator(".cx-picture svg")
            before = picture.inner_html()
            assert text.inner_text().startswith("start")
            explorer.locator("button[title^='step']").click()
            wait_for_text(page, text, "event 1 of")
            explorer.locator("button[title^='step']").click()
            wait_for_text(page, text, "event 2 of")
            assert picture.inner_html() != before
            assert explorer.locator(".cx-tree .cx-node").count() >= 2
            explorer.locator(".cx-picture .cx-var").first.click()
            wait_for_text(page, explorer.locator(".cx-why"), "removed at event")
            ARTIFACTS.mkdir(exist_ok=True)
            explorer.screenshot(path=str(ARTIFACTS / "export_offline.png"))
            # WCAG 2.1 AA: nothing serious in any explorer
            no_serious_violations(page, ".csp-stepper")
            assert errors == []
        finally:
            browser.close()
