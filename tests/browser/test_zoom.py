"""Zooming into a hint in the playground, and "why?" on what propagation finds at once, in
JupyterLab (Chromium), issue 41.

A notebook holds notebook 03's hard 7x7 Bridges at its first trial, Tatham's unreasonable
6x6 Towers at the trial that holds forcing chains, and that Towers from the start:

- by the keyboard alone: the hint asked, the zoom entered, stepped forward and back (each
  frame's sentence in the live region, the supposed variable's accessible name saying the
  frame's values), a forcing chain inside the trial opened and left, the zoom left with
  Escape: the board is drawn exactly as before, the focus is back on "zoom in", and no
  action went to the kernel (a zoom is a picture, not a move);
- axe-core finds nothing serious or critical inside `.csp-playground` while a zoom is
  drawn, in JupyterLab's light and dark themes;
- after propagation, "why?" of a cell says "propagation finds this at once" of the removals
  the kernel found (tests/test_playground_zoom.py holds those to the ladder), and only of
  those.

Screenshots of the zooms go to tests/artifacts/zoom_*.png.
"""

from __future__ import annotations

import json

import pytest

from csp_puzzles.viz.words import PHRASES

from .pages import ARTIFACTS, CHROMIUM, launch, no_serious_violations_last, tab_until, wait_for_text
from .test_lab import Lab, run_all

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

HARD_7X7 = "7x7m2:1a3a2i1a4h2b3a5k4a5a4a2"
NESTED_6X6 = "6://2/2//4///2/2/3/////1//4/3/3////,l1o3g"
NOTEBOOK = "zoom.ipynb"
CELLS = [
    "from csp_puzzles import Session, hashi, towers\n"
    "from csp_puzzles.viz import Playground\n\n"
    "def at_the_first_trial(puzzle, nested=False):\n"
    "    session = Session(puzzle)\n"
    "    while (hint := session.hint()) is not None and not (\n"
    "            any(step.steps for step in hint.steps) if nested else hint.steps):\n"
    "        session.apply(hint)\n"
    "    return session",
    f"Playground(at_the_first_trial(hashi.parse({HARD_7X7!r})), title='hashi trial')",
    f"Playground(at_the_first_trial(towers.parse({NESTED_6X6!r}), nested=True), "
    "title='towers trial')",
    f"Playground(towers.parse({NESTED_6X6!r}), title='towers from the start')",
]
HASHI, TOWERS, WHY = 0, 1, 2
WAIT = 180_000  # the longest an answer may take (the kernel may be busy, the machine loaded)
#: what the picture shows: each variable's accessible name, and the drawing itself
BOARD_JS = """(root) => [Array.from(root.querySelectorAll('.cx-picture .cx-var[data-var]'))
    .map((g) => g.getAttribute('aria-label')),
    root.querySelector('.cx-picture svg').innerHTML]"""
#: how many actions the page has sent to the kernel (each is timed: playground.js)
SENT_JS = "(root) => root.cspTimings.length"


def notebook() -> dict:
    return {"cells": [{"cell_type": "code", "execution_count": None, "id": f"z{i}",
                       "metadata": {}, "outputs": [], "source": source}
                      for i, source in enumerate(CELLS)],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                        "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


def opened(tmp_path, theme: str | None = None) -> Lab:
    """A JupyterLab server (in `theme`) serving the notebook."""
    server = Lab(tmp_path, theme=theme)
    (server.folder / NOTEBOOK).write_text(json.dumps(notebook()), encoding="utf-8")
    return server


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    server = opened(tmp_path_factory.mktemp("zoom"))
    try:
        yield server
    finally:
        server.stop()


def drawn(lab):
    """Chromium at 1280x800 on the notebook, run, every playground drawn."""
    ARTIFACTS.mkdir(exist_ok=True)
    playwright = sync_api.sync_playwright().start()
    browser = launch(playwright)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    run_all(page, lab, NOTEBOOK)
    page.locator(".csp-playground").nth(WHY).wait_for(timeout=240_000)
    return playwright, browser, page


@pytest.fixture
def page(lab):
    playwright, browser, page = drawn(lab)
    try:
        yield page
    finally:
        browser.close()
        playwright.stop()


def says(page, playground, expected: str) -> None:
    wait_for_text(page, playground.locator(".cx-answer[aria-live='polite']"), expected,
                  timeout=WAIT)


def focused_title(page) -> str:
    return page.evaluate("() => document.activeElement.getAttribute('title') || ''")


def label_of(playground, var: str) -> str:
    board = playground.locator(".cx-picture").first  # (the constraint graph comes after)
    return board.locator(f".cx-var[data-var='{var}']").get_attribute("aria-label")


def ask_for_the_hint(page, playground) -> None:
    """From the playground's first caption, by the keyboard: Tab to "hint", Enter."""
    playground.scroll_into_view_if_needed()
    playground.locator(".cx-caption").first.click()  # the keyboard starts from here
    tab_until(page, "button[title^='hint']", most=60)
    page.keyboard.press("Enter")
    says(page, playground, "hint (")
    playground.locator("button[title^='zoom in']").wait_for(timeout=WAIT)


# first: its own server stops before the module's starts (one JupyterLab at a time)
def test_a_zoom_drawn_by_the_keyboard_in_the_dark_theme(tmp_path):
    server = opened(tmp_path, theme="JupyterLab Dark")
    try:
        playwright, browser, page = drawn(server)
        try:
            assert page.evaluate("() => document.body.dataset.jpThemeLight") == "false"
            playground = page.locator(".csp-playground").nth(TOWERS)
            ask_for_the_hint(page, playground)
            tab_until(page, "button[title^='zoom in']", most=40)
            page.keyboard.press("Enter")
            says(page, playground, "zoom, 1 of 45")
            page.keyboard.press("Enter")
            says(page, playground, "zoom, 2 of 45")
            playground.screenshot(path=str(ARTIFACTS / "zoom_towers_dark.png"))
            no_serious_violations_last(page, ".csp-playground")
        finally:
            browser.close()
            playwright.stop()
    finally:
        server.stop()


def test_a_hashi_trial_zoomed_by_the_keyboard_and_left_as_it_was(page):
    playground = page.locator(".csp-playground").nth(HASHI)
    ask_for_the_hint(page, playground)
    says(page, playground, "propagation finds this at once")  # the hint says so
    before, sent = page.evaluate(BOARD_JS, playground.element_handle()), \
        page.evaluate(SENT_JS, playground.element_handle())
    tab_until(page, "button[title^='zoom in']", most=40)
    page.keyboard.press("Enter")
    says(page, playground, "zoom, 1 of 3: suppose edge (0,0)-(2,0) carries 1 bridge")
    assert focused_title(page).startswith("zoom forward")
    assert label_of(playground, "(0,0,2,0)") == "edge (0,0)-(2,0): 1 bridge"
    playground.screenshot(path=str(ARTIFACTS / "zoom_hashi_1_supposed.png"))
    page.keyboard.press("Enter")
    says(page, playground, "zoom, 2 of 3: contradiction: connectivity: group at (0,0) is cut off")
    assert label_of(playground, "(0,0,2,0)") == "edge (0,0)-(2,0): no value left"
    playground.screenshot(path=str(ARTIFACTS / "zoom_hashi_2_contradiction.png"))
    page.keyboard.press("Enter")
    says(page, playground, "zoom, 3 of 3: so edge (0,0)-(2,0) cannot carry 1 bridge")
    page.keyboard.press("Enter")
    says(page, playground, str(PHRASES["zoom_last"]))
    page.keyboard.press("Shift+Tab")  # back
    assert focused_title(page).startswith("zoom back")
    page.keyboard.press("Enter")
    says(page, playground, "zoom, 2 of 3: contradiction")
    page.keyboard.press("Escape")
    says(page, playground, str(PHRASES["zoom_left"]))
    assert focused_title(page).startswith("zoom in")
    after = page.evaluate(BOARD_JS, playground.element_handle())
    assert after == before  # the board as it was, drawn the same
    assert page.evaluate(SENT_JS, playground.element_handle()) == sent  # nothing sent


def test_a_forcing_chain_inside_a_towers_trial_opened_and_left(page):
    playground = page.locator(".csp-playground").nth(TOWERS)
    ask_for_the_hint(page, playground)
    before, sent = page.evaluate(BOARD_JS, playground.element_handle()), \
        page.evaluate(SENT_JS, playground.element_handle())
    tab_until(page, "button[title^='zoom in']", most=40)
    page.keyboard.press("Enter")
    says(page, playground, "zoom, 1 of 45: suppose cell (4,3) is 1")
    assert label_of(playground, "(4,3)") == "cell (4,3): 1"
    for _ in range(3):
        page.keyboard.press("Enter")
    says(page, playground, "zoom, 4 of 45: then: clue 2 top of column 2")
    playground.screenshot(path=str(ARTIFACTS / "zoom_towers_trial_step_3.png"))
    for _ in range(11):
        page.keyboard.press("Enter")
    says(page, playground, "zoom, 15 of 45: then: forcing chain: 4 is at (0,2) or (5,4)")
    says(page, playground, "(this step zooms too: open it)")
    tab_until(page, "button[title^='zoom deeper']", most=5)
    page.keyboard.press("Enter")
    says(page, playground, "zoom, level 2, 1 of 10: suppose cell (5,2) is 4")
    assert label_of(playground, "(5,2)") == "cell (5,2): 4"
    page.keyboard.press("Shift+Tab")  # forward
    page.keyboard.press("Enter")
    says(page, playground, "zoom, level 2, 2 of 10: then: row 5: 4 is placed at (5,2)")
    playground.screenshot(path=str(ARTIFACTS / "zoom_towers_forcing_chain_inside.png"))
    page.keyboard.press("Escape")
    says(page, playground, "zoom, 15 of 45: then: forcing chain")
    page.keyboard.press("Escape")
    says(page, playground, str(PHRASES["zoom_left"]))
    assert page.evaluate(BOARD_JS, playground.element_handle()) == before
    assert page.evaluate(SENT_JS, playground.element_handle()) == sent


def test_why_says_what_propagation_finds_at_once(page):
    playground = page.locator(".csp-playground").nth(WHY)
    playground.scroll_into_view_if_needed()
    playground.locator("button[title^='propagate']").click()
    says(page, playground, "propagation: ")
    playground.locator(".cx-search-box summary").click()
    why = playground.locator(".cx-why")
    board = playground.locator(".cx-picture").first
    board.locator("[data-var='(2,2)']").click()
    wait_for_text(page, why, "cell (2,2)")
    wait_for_text(page, why, "by column 2 orderings showing top 2, bottom 2"
                  + str(PHRASES["at_once"]))
    assert why.inner_text().count("finds this at once") == 1
    board.locator("[data-var='(0,0)']").click()
    wait_for_text(page, why, "cell (0,0)")
    assert "finds this at once" not in why.inner_text()


def test_a_zoom_drawn_meets_wcag_in_the_light_theme(page):
    playground = page.locator(".csp-playground").nth(HASHI)
    ask_for_the_hint(page, playground)
    playground.locator("button[title^='zoom in']").click()
    says(page, playground, "zoom, 1 of 3")
    no_serious_violations_last(page, ".csp-playground")
