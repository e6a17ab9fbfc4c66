"""The "your turn" sections of notebooks 00-06, done by clicking as their prose says, in
JupyterLab with Chromium.

Each test runs one course notebook, then does what its section asks of a student: 00 a
search by hand in the playground (assign, a wipe-out, undo, suggest, finish); 01 and 02
predict, then check in the explorer; 02 an arc by hand (arc clicks, the fine step, arc
consistency); 03 a puzzle played by drags (hint, apply, a wrong move, mistakes, undo, a trial
rejected, hints to the end); 04 and 05 digits typed, the domains shown, a check, a pencil
mark; 06 a Singles shaded by clicks. Each step waits for the answer the prose promises.
Screenshots of each section go to tests/artifacts/your_turn_*.png.
"""

from __future__ import annotations

import re

import pytest

from csp_puzzles.bench.playground import perform

from .pages import ARTIFACTS, CHROMIUM, launch, wait_for_text
from .test_lab import Lab, run_all

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

#: every code cell has run: a number in each prompt, none still running
ALL_RUN_JS = """() => {
    const prompts = Array.from(document.querySelectorAll(
        '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt'));
    return prompts.length > 0 && prompts.every((p) => /\\[[0-9]+\\]/.test(p.textContent));
}"""
#: the longest a step may take to be answered (the kernel may be busy, the machine loaded)
WAIT = 180_000


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """One JupyterLab for the module: each test opens a notebook of its own in it."""
    server = Lab(tmp_path_factory.mktemp("your-turn"))
    try:
        yield server
    finally:
        server.stop()


def open_and_run(playwright, lab: Lab, notebook: str):
    """Chromium on `notebook`, every cell run; returns (browser, page)."""
    ARTIFACTS.mkdir(exist_ok=True)
    browser = launch(playwright)
    page = browser.new_page(viewport={"width": 1400, "height": 1100})
    run_all(page, lab, notebook, workspace=notebook.split(".")[0])
    page.wait_for_function(ALL_RUN_JS, timeout=600_000)
    return browser, page


def act(page, playground, click, expected: str) -> None:
    """Click, then wait until the playground's answer says `expected`."""
    click()
    wait_for_text(page, playground.locator(".cx-answer"), expected, timeout=WAIT)


def assign(page, playground, var: str, value: str, expected: str) -> None:
    playground.locator(f".cx-picture [data-var='{var}']").first.click()
    act(page, playground, playground.locator(f".cx-values button[data-value='{value}']").click,
        expected)


def button(playground, title: str):
    return playground.locator(f"button[title^='{title}']").first


def test_00_a_search_by_hand(lab):
    with sync_api.sync_playwright() as playwright:
        browser, page = open_and_run(playwright, lab, "00_start_here.ipynb")
        try:
            play = page.locator(".csp-playground").first
            play.scroll_into_view_if_needed()
            assign(page, play, "WA", "red", "assign WA = red: 4 values removed")
            assign(page, play, "NT", "green", "assign NT = green: 3 values removed")
            assign(page, play, "Q", "blue", "A wipe-out")
            play.locator(".cx-tree .cx-node").nth(2).wait_for(timeout=WAIT)  # the tree follows
            play.screenshot(path=str(ARTIFACTS / "your_turn_00_wipeout.png"))
            act(page, play, button(play, "undo").click, "undone: assign Q = blue")
            act(page, play, button(play, "suggest").click, "MRV would choose SA: 1 value left")
            play.screenshot(path=str(ARTIFACTS / "your_turn_00_suggest.png"))
            act(page, play, button(play, "finish").click, "found a solution")
            play.screenshot(path=str(ARTIFACTS / "your_turn_00_solved.png"))
        finally:
            browser.close()


def explorer_of(page, source: str):
    """The explorer shown by the code cell whose source holds `source`."""
    cell = page.locator(".jp-CodeCell", has_text=source)
    explorer = cell.locator(".csp-stepper").first
    explorer.scroll_into_view_if_needed()
    return explorer


def step_to(page, stepper, position: int) -> None:
    text = stepper.locator(".csp-stepper-text")
    stepper.locator("button[title^='first']").click()
    wait_for_text(page, text, "start")
    for k in range(1, position + 1):
        stepper.locator("button[title^='step']").click()
        wait_for_text(page, text, f"event {k} of")


def predict(page, stepper, position: int, picks: dict[str, list[str]], expected: str,
            shot: str) -> None:
    """Step the explorer to `position`, ask it to predict the removals, pick, check."""
    step_to(page, stepper, position)
    stepper.locator(".cx-predict button").first.click()
    for var, values in picks.items():
        stepper.locator(f".cx-picture [data-var='{var}']").first.click()
        for value in values:
            stepper.locator(f".cx-predict .cx-values button[data-value='{value}']").click()
    stepper.locator(".cx-predict .cx-check").click()
    wait_for_text(page, stepper.locator(".cx-feedback"), expected)
    stepper.screenshot(path=str(ARTIFACTS / shot))


def test_01_predict_then_check(lab):
    with sync_api.sync_playwright() as playwright:
        browser, page = open_and_run(playwright, lab, "01_backtracking.ipynb")
        try:
            fc = explorer_of(page, "fc_stepper = Stepper(")
            predict(page, fc, 1, {"1": ["0", "1"]}, "2 of 14 right.",
                    "your_turn_01_predict_removals.png")
            mrv = explorer_of(page, "mrv_stepper = Stepper(")
            step_to(page, mrv, 3)
            mrv.locator(".cx-predict button").first.click()
            mrv.locator(".cx-picture [data-var='SA']").first.click()
            wait_for_text(page, mrv.locator(".cx-feedback"),
                          "Not this time: the search chose NT at event 4")
            mrv.screenshot(path=str(ARTIFACTS / "your_turn_01_predict_choice.png"))
        finally:
            browser.close()


def test_02_predict_and_an_arc_by_hand(lab):
    with sync_api.sync_playwright() as playwright:
        browser, page = open_and_run(playwright, lab, "02_arc_consistency.ipynb")
        try:
            replay = explorer_of(page, "ac3_stepper = Stepper(")  # AC-3's, with its queue
            predict(page, replay, 9, {"NT": ["green"]}, "Right",
                    "your_turn_02_predict.png")
            assert replay.locator(".cx-queue").inner_text().startswith(
                "AC-3's queue as event 9 revised NT against NT != Q")
            play = page.locator(".csp-playground").first
            play.scroll_into_view_if_needed()

            def arc(constraint: str, var: str):
                return play.locator(f".cx-arc[data-constraint='{constraint}']"
                                    f"[data-arc-var='{var}']")

            # (the middle of an arc may lie under another one: the event goes to the arc)
            act(page, play, lambda: arc("WA != NT", "WA").dispatch_event("click"),
                "revise WA against WA != NT: every value has a support")
            act(page, play, lambda: arc("WA != NT", "NT").dispatch_event("click"),
                "revise NT against WA != NT: no support for red")
            play.locator("input[type=checkbox]").check()  # the fine step
            act(page, play, lambda: arc("WA != SA", "SA").dispatch_event("click"),
                "the arc is highlighted")
            act(page, play, play.locator("button", has_text="next step").click,
                "SA against WA != SA: inconsistent, no support for red")
            assert play.locator(".cx-arc-inconsistent").count() == 1
            play.screenshot(path=str(ARTIFACTS / "your_turn_02_fine_step.png"))
            act(page, play, play.locator("button", has_text="next step").click,
                "revise SA against WA != SA: no support for red")
            play.locator("input[type=checkbox]").uncheck()
            act(page, play, button(play, "arc consistency").click, "A wipe-out")
            play.screenshot(path=str(ARTIFACTS / "your_turn_02_arc_consistency.png"))
        finally:
            browser.close()


def test_03_a_puzzle_played_by_drags_with_a_trial_and_hints(lab):
    with sync_api.sync_playwright() as playwright:
        browser, page = open_and_run(playwright, lab, "03_hashiwokakero.ipynb")
        try:
            play = page.locator(".csp-playground").first
            play.scroll_into_view_if_needed()
            act(page, play, button(play, "hint").click, "one open neighbour at (6,6)")
            play.screenshot(path=str(ARTIFACTS / "your_turn_03_hint.png"))
            act(page, play, play.locator("button", has_text=re.compile("^apply$")).click,
                "applied one open neighbour at (6,6)")
            down = ("drag", (0, 0), (2, 0))  # the wrong move: (0,0)'s one bridge goes down
            act(page, play, lambda: perform(page, play, down), "set edge (0,0)-(2,0) = 1 bridge")
            act(page, play, button(play, "mistakes").click, "edge (0,0)-(2,0)")
            play.screenshot(path=str(ARTIFACTS / "your_turn_03_mistakes.png"))
            act(page, play, button(play, "undo").click, "undone")
            play.locator("select[title^='after each move']").select_option("propagation")
            wait_for_text(page, play.locator(".cx-answer"), "after each move: the puzzle's rules")
            act(page, play, button(play, "try").click, "try: your next move is a supposition")
            act(page, play, lambda: perform(page, play, down), "A wipe-out")
            assert "suppose edge (0,0)-(2,0) = 1 bridge" in play.locator(".cx-answer").inner_text()
            play.screenshot(path=str(ARTIFACTS / "your_turn_03_trial.png"))
            act(page, play, button(play, "reject").click, "reject the trial edge (0,0)-(2,0)")
            for _ in range(40):  # the hints to the end
                act(page, play, button(play, "hint").click, "hint")
                if "Press apply" not in play.locator(".cx-answer").inner_text():
                    break
                act(page, play, play.locator("button", has_text=re.compile("^apply$")).click,
                    "applied")
            wait_for_text(page, play.locator(".cx-answer"), "solved")
            play.screenshot(path=str(ARTIFACTS / "your_turn_03_solved.png"))
        finally:
            browser.close()


@pytest.mark.parametrize("notebook, digit, cells, pencilled, crossed, broken", [
    ("04_kakuro.ipynb", "4", [(1, 1), (1, 2)], (2, 1), "9", "run across 7 at (1,0)"),
    ("05_towers.ipynb", "5", [(0, 1), (0, 2)], (0, 0), "5", "two 5s in row 0")])
def test_04_and_05_digits_typed_pencil_marks_and_a_check(lab, notebook, digit, cells,
                                                           pencilled, crossed, broken):
    name = notebook[:2]
    with sync_api.sync_playwright() as playwright:
        browser, page = open_and_run(playwright, lab, notebook)
        try:
            play = page.locator(".csp-playground").first
            play.scroll_into_view_if_needed()
            shown = play.locator(".cx-picture svg text").count()
            button(play, "show domains").click()  # every cell's candidates
            page.wait_for_function("([e, n]) => e.querySelectorAll('.cx-picture svg text')"
                                   ".length > n", arg=[play.element_handle(), shown])
            for row, col in cells:
                play.locator(f"[data-cell='{row},{col}']").click()
                page.keyboard.press(digit)
                wait_for_text(page, play.locator(".cx-answer"),
                              f"set cell ({row},{col}) = {digit}", timeout=WAIT)
            act(page, play, button(play, "check").click, broken)
            play.screenshot(path=str(ARTIFACTS / f"your_turn_{name}_check.png"))
            button(play, "pencil").click()
            play.locator(f"[data-cell='{pencilled[0]},{pencilled[1]}']").click()
            page.keyboard.press(crossed)
            wait_for_text(page, play.locator(".cx-answer"), f"cross out {crossed} in cell "
                          f"({pencilled[0]},{pencilled[1]})", timeout=WAIT)
            play.screenshot(path=str(ARTIFACTS / f"your_turn_{name}_pencil.png"))
        finally:
            browser.close()


def test_06_shaded_by_clicks(lab):
    from csp_puzzles import singles
    from csp_puzzles.bench.playground import gestures

    clicks = gestures(singles.parse("5x5:4112421234524525441243243"))
    with sync_api.sync_playwright() as playwright:
        browser, page = open_and_run(playwright, lab, "06_singles.ipynb")
        try:
            play = page.locator(".csp-playground").first
            play.scroll_into_view_if_needed()
            for click in clicks:
                perform(page, play, click)
            wait_for_text(page, play.locator(".cx-answer"),
                          f"The puzzle is solved: {len(clicks)} moves", timeout=WAIT)
            play.screenshot(path=str(ARTIFACTS / "your_turn_06_solved.png"))
        finally:
            browser.close()
