"""The course as a JupyterLite site, offline: every notebook runs in Chromium's Pyodide.

`csp-puzzles lite --pyodide` builds the site with the npm package `pyodide` of the version
the JupyterLite kernel pins (.ci/run installs it into the cache folder, outside the
repository); the site is served on 127.0.0.1 and opened in Chromium with every request to
another host aborted. Every notebook of the student course runs cell by cell in the page's
Python: no cell may fail, except the exercise stubs a student fills in (tagged
`raises-exception`), and, in a notebook that needs a package Pyodide cannot have offline
and does not say so itself, the cells from the first one that reaches for it (that one must
fail for that package and no other reason). The explorer steps in the page. Screenshots go
to tests/artifacts/.

Skipped cleanly without Chromium, playwright, the `lite` extra or the Pyodide folder.
Timings are not asserted: `python -m csp_puzzles.bench.lite` prints them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .pages import ARTIFACTS, CHROMIUM, launch

pytestmark = [pytest.mark.browser, pytest.mark.slow]

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("jupyterlite_core", reason="the lite extra")
pytest.importorskip("jupyterlite_pyodide_kernel", reason="the lite extra")

from csp_puzzles.bench.lite import Site, Tab  # noqa: E402
from csp_puzzles.lite import build_site  # noqa: E402
from csp_puzzles.lite.lock import PYODIDE_VERSION  # noqa: E402

CACHE = Path(os.environ.get("CSP_PUZZLES_CACHE", Path.home() / ".cache" / "csp-puzzles"))
PYODIDE = CACHE / "lite" / "node_modules" / "pyodide"
#: notebooks that need a package Pyodide cannot load offline: the modules a failing import
#: may name (python-constraint2's; HiGHS's, or numpy, which the MILP engine imports first)
NEEDS_OFFLINE_MISSING = {"notebooks/08_benchmarks.ipynb": ("constraint",),
                         "notebooks/10_integer_programs.ipynb": ("highspy", "numpy")}
SKIP_NOTE = "skipped"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    manifest = PYODIDE / "package.json"
    if not manifest.is_file() or json.loads(manifest.read_text())["version"] != PYODIDE_VERSION:
        pytest.skip(f"no pyodide@{PYODIDE_VERSION} in {PYODIDE.parent} (.ci/run installs it "
                    "with npm)")
    folder = tmp_path_factory.mktemp("lite") / "site"
    build_site(folder, PYODIDE)
    return folder


def notebooks(site: Path) -> list[str]:
    files = site / "files"
    return sorted(p.relative_to(files).as_posix() for p in files.rglob("*.ipynb"))


def step_an_explorer(tab: Tab) -> None:
    """The first explorer of the open notebook: a click on "step" changes what it shows."""
    explorer = tab.page.locator(".jp-NotebookPanel:visible .csp-stepper").first
    explorer.wait_for(timeout=120_000)
    explorer.scroll_into_view_if_needed()
    before = explorer.inner_html()
    explorer.locator("button[title^='step']").first.click()
    tab.page.wait_for_function("([element, before]) => element.innerHTML !== before",
                               arg=[explorer.element_handle(), before], timeout=60_000)


def act_in_a_playground(tab: Tab) -> bool:
    """If the open notebook shows a playground, its hint button changes it; False if none."""
    playground = tab.page.locator(".jp-NotebookPanel:visible .csp-playground").first
    if not playground.count():
        return False
    playground.scroll_into_view_if_needed()
    before = playground.inner_html()
    playground.locator("button[title^='hint']").first.click()
    tab.page.wait_for_function("([element, before]) => element.innerHTML !== before",
                               arg=[playground.element_handle(), before], timeout=60_000)
    return True


def screenshot(tab: Tab, name: str) -> None:
    """The notebook's first explorer or picture (the page, when it has none)."""
    shown = tab.page.locator(".jp-NotebookPanel:visible").locator(
        ".csp-stepper, .csp-picture").first
    if shown.count():
        shown.scroll_into_view_if_needed()
        shown.screenshot(path=str(ARTIFACTS / f"lite_{name}.png"))
    else:
        tab.page.screenshot(path=str(ARTIFACTS / f"lite_{name}.png"))


def check(run, missing: tuple[str, ...]) -> tuple[str, str | None]:
    """How one notebook ran, in words, and what is wrong with it (None: nothing)."""
    if not missing or not run.errors:
        if run.errors:
            return f"{run.path}: failed", f"{run.path}: cells failed: {run.errors}"
        skipped = any(SKIP_NOTE in text for text in run.texts)
        return f"{run.path}: {run.cells} cells" + (", says what it skips" if skipped else ""), None
    first_cell, first = run.errors[0]
    named = [module for module in missing if f"No module named '{module}'" in first[0]]
    if not named:
        return f"{run.path}: failed", f"{run.path}: {run.errors}"
    return (f"{run.path}: ran to cell {first_cell}, which needs {named[0]} (not in Pyodide "
            f"offline); {len(run.errors)} cells from there failed"), None


def test_every_notebook_of_the_course_runs_offline(site: Path):
    served = Site(site)
    report, wrong, playgrounds = [], [], 0
    try:
        with sync_api.sync_playwright() as playwright:
            browser = launch(playwright)
            try:
                tab = Tab(browser, served)
                ARTIFACTS.mkdir(exist_ok=True)
                for path in notebooks(site):
                    said, problem = check(tab.run(path), NEEDS_OFFLINE_MISSING.get(path, ()))
                    report.append(said)
                    wrong += [problem] if problem else []
                    if path.endswith("00_start_here.ipynb"):
                        step_an_explorer(tab)
                    playgrounds += act_in_a_playground(tab)
                    screenshot(tab, path.rsplit("/", 1)[-1].removesuffix(".ipynb"))
                assert tab.blocked == [], f"requests left the site: {tab.blocked[:5]}"
            finally:
                browser.close()
    finally:
        served.close()
    print("\n".join(report + [f"playgrounds acted in: {playgrounds}"]))
    assert wrong == []
    assert len(report) >= 12
