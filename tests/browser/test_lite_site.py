"""The course as a JupyterLite site, offline: its notebooks run in Chromium's Pyodide.

`csp-puzzles lite --pyodide` builds the site with the npm package `pyodide` of the version
the JupyterLite kernel pins (.ci/run installs it into the cache folder, outside the
repository); the site is served on 127.0.0.1 and opened in Chromium with every request to
another host aborted. The notebooks of the student course (every run: those with a
playground, those that skip something, two exercises; `make test-full`: all of them) run cell
by cell in the page's Python, and no cell fails, except the exercise stubs a student fills
in (tagged `raises-exception`). The notebooks that need a package Pyodide cannot have offline
(python-constraint2 for 08, HiGHS for 10) say so in their own output and skip those cells:
exactly those say they skip. The explorer steps in the page, and each notebook's playground
acts there (JupyterLite has a kernel: no playground may say that acting needs one); the
puzzles of notebooks 03-06 are then played to the end by their own gestures (Bridges dragged,
Kakuro and Towers typed, Singles clicked), and each playground says "solved".
Screenshots go to tests/artifacts/.

Skipped cleanly without Chromium, playwright, a Python with the `lite` extra (this one, or
$CSP_PUZZLES_LITE_PYTHON: tests/lite.py) or the Pyodide folder.
Timings are not asserted: `python -m csp_puzzles.bench.lite` prints them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.lite import run_lite

from .pages import ARTIFACTS, CHROMIUM, launch, wait_for_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

from csp_puzzles.bench.lite import Site, Tab  # noqa: E402
from csp_puzzles.bench.playground import COURSE, gestures, perform  # noqa: E402
from csp_puzzles.puzzle.registry import puzzle_module  # noqa: E402
from csp_puzzles.teaching.lite.lock import PYODIDE_VERSION  # noqa: E402
from csp_puzzles.viz.words import PHRASES  # noqa: E402

CACHE = Path(os.environ.get("CSP_PUZZLES_CACHE", Path.home() / ".cache" / "csp-puzzles"))
PYODIDE = CACHE / "lite" / "node_modules" / "pyodide"
#: the notebooks that skip what needs a package Pyodide cannot load offline, and say so
SAYS_IT_SKIPS = {"notebooks/08_benchmarks.ipynb", "notebooks/10_integer_programs.ipynb"}
SKIP_NOTE = "is not available in this Python"
#: the notebooks that show a playground (a "your turn" section)
PLAYGROUNDS = {"notebooks/00_start_here.ipynb", "notebooks/02_arc_consistency.ipynb",
               *COURSE}
#: the notebooks whose code stepper steps offline: the book's ac3 (stepped into revise) and
#: the student's own ac3 (exercise 05, still the stub that raises, its source read from its
#: cell), both recorded by sys.settrace in Pyodide
CODE_STEPPERS = {"notebooks/02_arc_consistency.ipynb": "the book's",
                 "notebooks/exercises/05_revise_and_ac3.ipynb": "the student's"}
#: what an exported page's playground says (acting needs a kernel): never in JupyterLite
OFFLINE_NOTE = PHRASES["offline"].split(":")[0]
#: what every run checks: the playgrounds, the notebooks that skip, two exercises (one with
#: stubs that raise); `make test-full` runs every notebook of the course
SAMPLE = PLAYGROUNDS | SAYS_IT_SKIPS | {"notebooks/exercises/05_revise_and_ac3.ipynb",
                                        "notebooks/exercises/14_nogood.ipynb"}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    manifest = PYODIDE / "package.json"
    if not manifest.is_file() or json.loads(manifest.read_text())["version"] != PYODIDE_VERSION:
        pytest.skip(f"no pyodide@{PYODIDE_VERSION} in {PYODIDE.parent} (.ci/run installs it "
                    "with npm)")
    folder = tmp_path_factory.mktemp("lite") / "site"
    done = run_lite(str(folder), "--pyodide", str(PYODIDE))
    assert done.returncode == 0, done.stderr
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


def act_in_a_playground(tab: Tab, name: str) -> bool:
    """If the open notebook shows a playground, it acts in the page: it does not say that
    acting needs a kernel, and its hint button, then a value of a variable, change what it
    shows. False if there is none."""
    playground = tab.page.locator(".jp-NotebookPanel:visible .csp-playground").first
    if not playground.count():
        return False
    playground.scroll_into_view_if_needed()
    assert OFFLINE_NOTE not in playground.inner_text(), f"{name}: the playground cannot act"
    assert not playground.locator(".cx-offline").count()
    answer = playground.locator(".cx-answer")
    for act in (lambda: playground.locator("button[title^='hint']").first.click(),
                lambda: choose_a_value(playground)):
        before = answer.inner_text()
        act()
        tab.page.wait_for_function("([element, before]) => element.textContent !== before",
                                   arg=[answer.element_handle(), before], timeout=120_000)
    playground.screenshot(path=str(ARTIFACTS / f"lite_{name}_playground.png"))
    return True


def play_by_gestures(tab: Tab, path: str) -> bool:
    """The open notebook's puzzle, from the start (the value chosen before undone), played
    to the end by its gestures: the playground says it is solved. False if it has none."""
    if path not in COURSE:
        return False
    kind, text = COURSE[path]
    playground = tab.page.locator(".jp-NotebookPanel:visible .csp-playground").first
    answer = playground.locator(".cx-answer")
    playground.locator("button[title^='undo']").click()
    tab.page.wait_for_function("(e) => e.textContent.startsWith('undone')",
                               arg=answer.element_handle(), timeout=120_000)
    for move in gestures(puzzle_module(kind).parse(text)):
        perform(tab.page, playground, move)
    tab.page.wait_for_function("(e) => e.textContent.includes('The puzzle is solved')",
                               arg=answer.element_handle(), timeout=300_000)
    playground.screenshot(path=str(ARTIFACTS / f"lite_{kind}_solved.png"))
    return True


def step_the_code_stepper(tab: Tab, path: str) -> bool:
    """The open notebook's code stepper steps in the page (see `CODE_STEPPERS`). False if the
    notebook is not one of those."""
    whose = CODE_STEPPERS.get(path)
    if whose is None:
        return False
    root = tab.page.locator(".jp-NotebookPanel:visible .csp-code-stepper").first
    root.wait_for(timeout=120_000)
    root.scroll_into_view_if_needed()
    text = root.locator(".csp-stepper-text")
    wait_for_text(tab.page, text, "step 1 of ", timeout=120_000)
    root.locator("button[title^='step']").click()
    wait_for_text(tab.page, text, "step 2 of ", timeout=60_000)
    if whose == "the student's":  # the stub, from its cell
        assert root.locator(".cx-code-file").first.inner_text().startswith(
            "a cell of this notebook, lines 1–")
        assert "NotImplementedError" in root.locator(".csp-code").inner_text()
    else:  # into revise
        root.locator("button[title^='call:']").click()
        wait_for_text(tab.page, text, "of revise", timeout=60_000)
    name = path.rsplit("/", 1)[-1].removesuffix(".ipynb")
    root.screenshot(path=str(ARTIFACTS / f"code_stepper_lite_{name}.png"))
    return True


def choose_a_value(playground) -> None:
    """Click the first variable of the playground's picture, then its first value."""
    playground.locator(".cx-picture [data-var]").first.click()
    value = playground.locator(".cx-values button[data-value]").first
    value.wait_for(timeout=60_000)
    value.click()


def screenshot(tab: Tab, name: str) -> None:
    """The notebook's first explorer or picture (the page, when it has none)."""
    shown = tab.page.locator(".jp-NotebookPanel:visible").locator(
        ".csp-stepper, .csp-picture").first
    if shown.count():
        shown.scroll_into_view_if_needed()
        shown.screenshot(path=str(ARTIFACTS / f"lite_{name}.png"))
    else:
        tab.page.screenshot(path=str(ARTIFACTS / f"lite_{name}.png"))


def said(run) -> str:
    """How one notebook ran, in words."""
    words = f"{run.path}: {run.cells} cells, {len(run.errors)} with an error"
    if run.expected_errors:
        words += f" ({run.expected_errors} exercise stubs raise, as they should)"
    if says_it_skips(run):
        words += ", says what it skips"
    return words


def says_it_skips(run) -> bool:
    return any(SKIP_NOTE in text for text in run.texts)


@pytest.mark.parametrize("sample", [pytest.param(True, id="sample"),
                                    pytest.param(False, id="every", marks=pytest.mark.full)])
def test_the_notebooks_of_the_course_run_offline(site: Path, sample: bool):
    """The sample (every run) or every notebook (`make test-full`)."""
    chosen = [path for path in notebooks(site) if path in SAMPLE or not sample]
    served = Site(site)
    report, failed, skipping, acted, played, stepped = [], [], set(), set(), set(), set()
    try:
        with sync_api.sync_playwright() as playwright:
            browser = launch(playwright)
            try:
                tab = Tab(browser, served)
                ARTIFACTS.mkdir(exist_ok=True)
                for path in chosen:
                    run = tab.run(path)
                    report.append(said(run))
                    failed += [f"{path}: {run.errors}"] if run.errors else []
                    skipping |= {path} if says_it_skips(run) else set()
                    name = path.rsplit("/", 1)[-1].removesuffix(".ipynb")
                    if path.endswith("00_start_here.ipynb"):
                        step_an_explorer(tab)
                    if act_in_a_playground(tab, name):
                        acted.add(path)
                    if play_by_gestures(tab, path):
                        played.add(path)
                    if step_the_code_stepper(tab, path):
                        stepped.add(path)
                    screenshot(tab, name)
                assert tab.blocked == [], f"requests left the site: {tab.blocked[:5]}"
            finally:
                browser.close()
    finally:
        served.close()
    print("\n".join(report + [f"notebooks: {len(report)}; with an error: {len(failed)}; "
                              f"say what they skip: {len(skipping)}; playgrounds acted in: "
                              f"{len(acted)}"]))
    assert failed == []
    assert skipping == SAYS_IT_SKIPS
    assert acted == PLAYGROUNDS
    assert played == set(COURSE)
    assert stepped == set(CODE_STEPPERS)
    assert len(report) == len(SAMPLE) if sample else len(report) >= 26
