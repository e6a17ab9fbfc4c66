"""The playground in JupyterLab with a running kernel, and in an exported page without one.

In JupyterLab (Chromium), a notebook holding a playground for each puzzle and one for the
map of Australia:

- each puzzle is solved by its own gestures alone, one gesture a move (Bridges dragged
  between islands, Singles clicked, Towers and Kakuro typed), and the live region says
  "solved" with the number of moves;
- every letter key, Enter and Escape typed inside a playground leave the notebook as it was
  (cells, their types and sources), and a key that means nothing there says so; Ctrl+Z and
  Ctrl+Y undo and redo;
- undo after arc consistency brings back the exact domains and says how many values;
- a trial is tried and rejected whole, and the tree shows it as a decision;
- the message line and the controls are on screen together in a 1280x800 window;
- by the keyboard alone every kind of move is made (JupyterLab Dark), and axe-core finds
  nothing serious inside `.csp-playground`, light or dark.

Screenshots of each puzzle mid-play and solved, and of the dark theme, go to tests/artifacts/.
Without a kernel (the static page of an export), the playground replays what was done and
says that acting needs a running notebook.
"""

from __future__ import annotations

import json

import pytest

from csp_puzzles import Session, hashi, kakuro, singles, towers
from csp_puzzles.bench.playground import SETTLED_JS, gestures, perform
from csp_puzzles.examples import map_colouring
from csp_puzzles.viz import Playground

from .pages import (
    ARTIFACTS,
    CHROMIUM,
    axe_checks,
    files_only,
    launch,
    no_serious_violations_last,
    tab_until,
    wait_for_text,
    widget_page,
)
from .test_lab import Lab, run_all

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

HASHI = "7x7m2:d3a32a2b2e3m1a3b3b4a3b3b2"
TOWERS = "4:1/2/3/4/2/2/2/1/1/2/2/2/4/3/2/1"
SINGLES = "5x5:4112421234524525441243243"
KAKURO = ("6 6\n- 8, 34, - 4, 9,\n,7 0 0 14,12 0 0\n,22 0 0 0 0 -\n- 15,11 0 0 13, -\n"
          ",22 0 0 0 0 8,\n,16 0 0 ,15 0 0\n")
PUZZLES = {"hashi": hashi.parse(HASHI), "singles": singles.parse(SINGLES),
           "towers": towers.parse(TOWERS), "kakuro": kakuro.parse(KAKURO)}
NOTEBOOK = "playground.ipynb"
CELLS = [
    "from csp_puzzles import Session, hashi, kakuro, singles, towers\n"
    "from csp_puzzles.examples import map_colouring\n"
    "from csp_puzzles.viz import Playground, map_view",
    f"Playground(hashi.parse({HASHI!r}), title='hashi')",
    f"Playground(singles.parse({SINGLES!r}), title='singles')",
    f"Playground(towers.parse({TOWERS!r}), title='towers')",
    f"Playground(kakuro.parse({KAKURO!r}), title='kakuro')",
    "Playground(Session(map_colouring(), 'none'), view=map_view(), title='map')",
]
MAP = len(CELLS) - 2  # the map's playground, after the four puzzles'
#: what the notebook holds, read in the page: each cell's type and source
NOTEBOOK_JS = """() => Array.from(document.querySelectorAll('.jp-NotebookPanel .jp-Cell'))
    .map((cell) => [cell.classList.contains('jp-CodeCell') ? 'code'
                    : cell.classList.contains('jp-MarkdownCell') ? 'markdown' : 'raw',
                    (cell.querySelector('.jp-InputArea-editor .cm-content') || {}).textContent])"""
#: each variable's state as the page says it (the accessible names of the picture's shapes)
STATES_JS = """(root) => Array.from(root.querySelectorAll('.cx-picture .cx-var[data-var]'))
    .map((g) => g.getAttribute('aria-label'))"""
WAIT = 180_000  # the longest an answer may take (the kernel may be busy, the machine loaded)


def notebook() -> dict:
    return {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}",
                       "metadata": {}, "outputs": [], "source": source}
                      for i, source in enumerate(CELLS)],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                        "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


def serve(tmp_path, theme: str | None = None) -> Lab:
    server = Lab(tmp_path, theme=theme)
    (server.folder / NOTEBOOK).write_text(json.dumps(notebook()), encoding="utf-8")
    return server


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    server = serve(tmp_path_factory.mktemp("lab"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def page(lab):
    """Chromium at 1280x800 on the notebook, every playground drawn."""
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            run_all(page, lab, NOTEBOOK)
            page.locator(".csp-playground").nth(MAP).wait_for(timeout=240_000)
            yield page
        finally:
            browser.close()


def says(page, playground, expected: str) -> None:
    wait_for_text(page, playground.locator(".cx-answer[aria-live='polite']"), expected,
                  timeout=WAIT)


@pytest.mark.parametrize("number, kind", list(enumerate(PUZZLES)))
def test_each_puzzle_is_solved_by_its_own_gestures_alone(page, number, kind):
    playground = page.locator(".csp-playground").nth(number)
    playground.scroll_into_view_if_needed()
    moves = gestures(PUZZLES[kind])
    half = len(moves) // 2
    for move in moves[:half]:  # as fast as a player: no waiting for the kernel
        perform(page, playground, move)
    playground.screenshot(path=str(ARTIFACTS / f"play_{kind}_mid.png"))
    for move in moves[half:]:
        perform(page, playground, move)
    says(page, playground, f"The puzzle is solved: {len(moves)} moves, 0 hints.")
    assert "solved" in playground.locator(".cx-answer").inner_text()
    playground.screenshot(path=str(ARTIFACTS / f"play_{kind}_solved.png"))


def test_no_key_typed_in_a_playground_reaches_the_notebook(page):
    before = page.evaluate(NOTEBOOK_JS)
    assert len(before) == len(CELLS)
    towers_playground = page.locator(".csp-playground").nth(2)
    towers_playground.scroll_into_view_if_needed()
    towers_playground.locator("[data-cell='0,0']").click()
    for key in "r b a m y z d d Escape Enter r".split():  # the sequence that deleted a cell
        page.keyboard.press(key)
    for key in [*"abcdefghijklmnopqrstuvwxyz", "Enter", "Escape", "Shift+Enter", "Shift+M"]:
        page.keyboard.press(key)
    page.wait_for_function(SETTLED_JS, arg=towers_playground.element_handle(), timeout=WAIT)
    page.keyboard.press("q")  # once the kernel has answered u and r (Tatham's undo, redo)
    says(page, towers_playground, "the key q does nothing here")
    towers_playground.locator("button[title^='hint']").focus()  # on a button, too
    for key in [*"abcdmyz", "d", "Escape"]:
        page.keyboard.press(key)
    # Ctrl+Z and Ctrl+Y are the playground's undo and redo, not the notebook's
    singles_playground = page.locator(".csp-playground").nth(1)
    singles_playground.scroll_into_view_if_needed()
    singles_playground.locator("[data-cell='0,0']").click()
    says(page, singles_playground, "set cell (0,0) = shaded")
    page.keyboard.press("Control+z")
    says(page, singles_playground, "undone: set cell (0,0) = shaded")
    page.keyboard.press("Control+y")
    says(page, singles_playground, "redone: set cell (0,0) = shaded")
    assert page.evaluate(NOTEBOOK_JS) == before


def test_undo_after_arc_consistency_brings_back_the_exact_domains(page):
    playground = page.locator(".csp-playground").nth(MAP)
    playground.scroll_into_view_if_needed()
    playground.locator(".cx-picture [data-var='WA']").first.click()
    playground.locator(".cx-values button[data-value='red']").click()
    says(page, playground, "assign WA = red")
    assert playground.locator(".cx-arc-front").count() == 1  # the front of AC-3's queue
    before = page.evaluate(STATES_JS, playground.element_handle())
    playground.locator("button[title^='arc consistency']").click()
    says(page, playground, "arc consistency: ")
    after = page.evaluate(STATES_JS, playground.element_handle())
    assert after != before and "AC-3's queue is empty" in playground.inner_text()
    playground.locator("button[title^='undo']").click()
    says(page, playground, "undone: arc consistency; 2 values put back")
    page.wait_for_function("([root, before]) => JSON.stringify(Array.from(root.querySelectorAll("
                           "'.cx-picture .cx-var[data-var]')).map((g) => g.getAttribute("
                           "'aria-label'))) === JSON.stringify(before)",
                           arg=[playground.element_handle(), before], timeout=WAIT)
    playground.locator("button[title^='revise the next arc']").click()
    says(page, playground, "revise ")
    playground.screenshot(path=str(ARTIFACTS / "play_map_arcs.png"))


def test_a_trial_is_tried_and_rejected_whole_and_the_tree_shows_it(page):
    playground = page.locator(".csp-playground").first
    playground.scroll_into_view_if_needed()
    first, second = gestures(PUZZLES["hashi"])[:2]
    playground.locator("button[title^='try']").click()
    perform(page, playground, first)
    says(page, playground, "suppose edge")
    wait_for_text(page, playground.locator(".cx-status"), "inside 1 trial")
    perform(page, playground, second)
    says(page, playground, "set edge")
    playground.locator("button[title^='reject']").click()
    says(page, playground, "reject the trial edge")
    playground.locator(".cx-search-box summary").click()  # the tree, one click away
    playground.locator(".cx-tree .cx-node").nth(1).wait_for(timeout=WAIT)
    playground.screenshot(path=str(ARTIFACTS / "play_hashi_trial.png"))


def test_the_message_line_and_the_controls_are_on_screen_together(page):
    for number in range(len(PUZZLES)):
        playground = page.locator(".csp-playground").nth(number)
        playground.evaluate("(root) => root.scrollIntoView({block: 'start'})")
        for part in (".cx-answer", "button[title^='hint']", "button[title^='undo']"):
            box = playground.locator(part).first.bounding_box()
            assert box and 0 <= box["y"] and box["y"] + box["height"] <= 800, (number, part)
    no_serious_violations_last(page, ".csp-playground")


@pytest.fixture
def dark_page(tmp_path):
    server = serve(tmp_path, theme="JupyterLab Dark")
    try:
        with sync_api.sync_playwright() as playwright:
            browser = launch(playwright)
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                run_all(page, server, NOTEBOOK)
                page.locator(".csp-playground").nth(MAP).wait_for(timeout=240_000)
                yield page
            finally:
                browser.close()
    finally:
        server.stop()


def test_every_kind_of_move_by_the_keyboard_alone_in_the_dark_theme(dark_page):
    page = dark_page
    assert page.evaluate("() => document.body.dataset.jpThemeLight") == "false"
    playgrounds = page.locator(".csp-playground")
    # Bridges: Ctrl+arrow lays a bridge, Shift+arrow marks none, Enter then an arrow lays one
    bridges = playgrounds.nth(0)
    bridges.scroll_into_view_if_needed()
    bridges.locator(".cx-caption").first.click()  # the keyboard starts from here
    tab_until(page, ".cx-island", most=40)
    assert page.evaluate("() => document.activeElement.dataset.cell") == "0,4"
    page.keyboard.press("Control+ArrowRight")
    says(page, bridges, "set edge (0,4)-(0,6) = 1 bridge")
    page.keyboard.press("Shift+ArrowDown")
    says(page, bridges, "set edge (0,4)-(2,4) = 0 bridges")
    page.keyboard.press("ArrowRight")  # to island (0,6)
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowLeft")
    says(page, bridges, "set edge (0,4)-(0,6) = 2 bridges")
    # Singles: the arrows move, Enter cycles
    cells = playgrounds.nth(1)
    cells.scroll_into_view_if_needed()
    cells.locator(".cx-caption").first.click()
    tab_until(page, ".cx-var", most=40)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    says(page, cells, "set cell (0,1) = shaded")
    # Towers: a digit types, Backspace clears, pencil mode crosses a value out
    digits = playgrounds.nth(2)
    digits.scroll_into_view_if_needed()
    digits.locator(".cx-caption").first.click()
    tab_until(page, ".cx-var", most=40)
    page.keyboard.press("4")
    says(page, digits, "set cell (0,0) = 4")
    page.keyboard.press("Backspace")
    says(page, digits, "clear cell (0,0)")
    tab_until(page, "button[title^='pencil']", most=40)
    page.keyboard.press("Enter")
    says(page, digits, "pencil mode: a digit now removes")
    for _ in range(60):  # back to the cell, the other way round
        page.keyboard.press("Shift+Tab")
        if page.evaluate("() => document.activeElement.matches('.cx-var')"):
            break
    page.keyboard.press("2")
    says(page, digits, "cross out 2 in cell (0,0)")
    digits.screenshot(path=str(ARTIFACTS / "play_towers_dark_keyboard.png"))
    bridges.screenshot(path=str(ARTIFACTS / "play_hashi_dark_keyboard.png"))
    no_serious_violations_last(page, ".csp-playground")


def test_without_a_kernel_the_playground_replays_and_says_why_it_cannot_act(tmp_path):
    play = Playground(hashi.parse(HASHI))
    play.act("hint")
    play.act("apply")
    other = Playground(Session(map_colouring(), "fc"))
    other.act("assign", var="WA", value="red")
    path = tmp_path / "exported.html"
    path.write_text(widget_page([play, other]), encoding="utf-8")
    with axe_checks() as no_serious_violations, sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.route("**/*", files_only)
            page.goto(path.as_uri())
            offline = page.locator(".csp-playground").first
            offline.wait_for()
            assert "acts only in a running notebook" in offline.inner_text()
            explorer = offline.locator(".csp-stepper")
            text = explorer.locator(".csp-stepper-text")
            total = len(play.session.trace)
            wait_for_text(page, text, f"event {total} of {total}")  # what was done
            explorer.locator("button[title^='first']").click()
            wait_for_text(page, text, "start")
            explorer.locator("button[title^='step']").click()
            wait_for_text(page, text, f"event 1 of {total}")
            no_serious_violations(page, ".csp-playground")
            ARTIFACTS.mkdir(exist_ok=True)
            offline.screenshot(path=str(ARTIFACTS / "playground_offline.png"))
            assert errors == []
        finally:
            browser.close()
