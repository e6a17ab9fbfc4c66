"""The playground in JupyterLab with a running kernel, and in an exported page without one.

In JupyterLab: a notebook holding a playground for each puzzle and one for the map of
Australia runs; the hint, value, undo and propagate buttons change the picture; on the map's
constraint graph an arc click revises it, and the fine step goes highlighted, checked,
revised. axe-core finds no serious violation inside `.csp-playground`. Screenshots of each
puzzle's playground and of the AC-3 fine step go to tests/artifacts/.

Without a kernel (the static page of an export), the playground replays what was done and
says that acting needs a running notebook.
"""

from __future__ import annotations

import json
import re

import pytest

from csp_puzzles import Session, hashi
from csp_puzzles.examples import map_colouring
from csp_puzzles.viz import Playground

from .pages import (
    ARTIFACTS,
    CHROMIUM,
    axe_checks,
    files_only,
    launch,
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
NOTEBOOK = "playground.ipynb"
CELLS = [
    "from csp_puzzles import Session, hashi, kakuro, singles, towers\n"
    "from csp_puzzles.examples import map_colouring\n"
    "from csp_puzzles.viz import Playground",
    f"Playground(hashi.parse({HASHI!r}), title='hashi')",
    f"Playground(kakuro.parse({KAKURO!r}), title='kakuro')",
    f"Playground(towers.parse({TOWERS!r}), title='towers')",
    f"Playground(singles.parse({SINGLES!r}), title='singles')",
    "Playground(Session(map_colouring(), 'none'), title='map')",
]


def notebook() -> dict:
    return {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}",
                       "metadata": {}, "outputs": [], "source": source}
                      for i, source in enumerate(CELLS)],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                        "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


@pytest.fixture
def lab(tmp_path):
    server = Lab(tmp_path)
    (server.folder / NOTEBOOK).write_text(json.dumps(notebook()), encoding="utf-8")
    try:
        yield server
    finally:
        server.stop()


def changes(page, element, act, timeout: int = 60_000) -> None:
    """Do `act` and wait until the content of `element` changes."""
    before = element.inner_html()
    act()
    page.wait_for_function("([e, b]) => e.innerHTML !== b", arg=[element.element_handle(), before],
                           timeout=timeout)


def test_hint_values_undo_propagate_and_arcs_change_the_page(lab):
    ARTIFACTS.mkdir(exist_ok=True)
    with axe_checks() as no_serious_violations, \
            sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 1500})
            run_all(page, lab, NOTEBOOK)
            playgrounds = page.locator(".csp-playground")
            try:
                playgrounds.nth(len(CELLS) - 2).wait_for(timeout=240_000)
            finally:
                page.screenshot(path=str(ARTIFACTS / "playground_lab.png"), full_page=True)
            play = playgrounds.first
            play.scroll_into_view_if_needed()
            picture = play.locator(".cx-picture").first
            answer = play.locator(".cx-answer")
            # a hint: the picture marks what it read and what it removes
            changes(page, picture, lambda: play.locator("button[title^='hint']").click())
            wait_for_text(page, answer, "hint (")
            play.screenshot(path=str(ARTIFACTS / "playground_hint.png"))
            changes(page, picture, lambda: play.locator("button", has_text=re.compile(
                "^apply$")).click())
            # a variable's values, then one assigned; undo puts it back
            play.locator(".cx-picture [data-var]").first.click()
            value = play.locator(".cx-values button[data-value]").last
            value.wait_for()
            changes(page, picture, value.click)
            wait_for_text(page, answer, "assign ")
            changes(page, picture, lambda: play.locator("button[title^='undo']").click())
            wait_for_text(page, answer, "undone: assign")
            changes(page, picture, lambda: play.locator("button[title^='propagate']").click())
            wait_for_text(page, answer, "propagation:")
            assert play.locator(".cx-tree .cx-node").count() >= 1
            no_serious_violations(page, ".csp-playground")
            for number, name in enumerate(("hashi", "kakuro", "towers", "singles")):
                one = playgrounds.nth(number)
                one.scroll_into_view_if_needed()
                one.locator(".cx-picture [data-var]").nth(2).click()
                one.locator(".cx-values button[data-value]").first.wait_for()
                one.screenshot(path=str(ARTIFACTS / f"playground_{name}.png"))
            # the map's constraint graph: an arc click revises it; the fine step in stages
            graph = playgrounds.nth(4)
            graph.scroll_into_view_if_needed()
            graph.locator(".cx-picture [data-var='WA']").first.click()
            changes(page, graph, lambda: graph.locator(".cx-values button[data-value='red']")
                    .click())
            arc = graph.locator(".cx-arc[data-arc-var='NT']").first
            changes(page, graph.locator(".cx-answer"), lambda: arc.dispatch_event("click"))
            wait_for_text(page, graph.locator(".cx-answer"), "revise NT against")
            graph.locator("input[type=checkbox]").check()
            constraint, var = "WA != SA", "SA"  # red has no support in SA: the arc turns red
            arc = graph.locator(f".cx-arc[data-arc-var='{var}'][data-constraint='{constraint}']")
            arc.dispatch_event("click")  # (its middle may lie under a crossing arc)
            page.wait_for_selector(".csp-playground .cx-arc-highlighted")
            graph.screenshot(path=str(ARTIFACTS / "playground_ac3_highlighted.png"))
            graph.locator("button", has_text="next step").click()
            wait_for_text(page, graph.locator(".cx-answer"), f"{var} against {constraint}: "
                          "inconsistent, no support for red")
            assert graph.locator(".cx-arc-inconsistent").count() == 1
            graph.screenshot(path=str(ARTIFACTS / "playground_ac3_fine_step.png"))
            graph.locator("button", has_text="next step").click()
            wait_for_text(page, graph.locator(".cx-answer"), f"revise {var} against "
                          f"{constraint}: no support for red, removed")
            assert "red" not in graph.locator(f".cx-var[data-var='{var}']").get_attribute(
                "aria-label")
            graph.screenshot(path=str(ARTIFACTS / "playground_ac3_revised.png"))
            # by keyboard: the arrows go from arc to arc, Enter revises (fine step off)
            graph.locator("input[type=checkbox]").uncheck()
            graph.locator(".cx-arc[tabindex='0']").focus()
            first = page.evaluate("() => Number(document.activeElement.dataset.arc)")
            page.keyboard.press("ArrowRight")
            assert page.evaluate("() => Number(document.activeElement.dataset.arc)") == first + 1
            said = graph.locator(".cx-answer").inner_text()
            page.keyboard.press("Enter")
            page.wait_for_function("([e, b]) => e.textContent !== b && e.textContent.startsWith("
                                   "'revise')", arg=[graph.locator(".cx-answer")
                                                     .element_handle(), said])
            no_serious_violations(page, ".csp-playground")
        finally:
            browser.close()


def test_without_a_kernel_the_playground_replays_and_says_why_it_cannot_act(tmp_path):
    play = Playground(hashi.parse(HASHI))
    play.act("hint")
    play.act("apply")
    other = Playground(Session(map_colouring(), "fc"))
    other.act("assign", var="WA", value="red")
    path = tmp_path / "exported.html"
    path.write_text(widget_page([play, other]), encoding="utf-8")
    with axe_checks() as no_serious_violations, \
            sync_api.sync_playwright() as playwright:
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
            wait_for_text(page, text, "event 2 of 2")  # the replay of what was done
            explorer.locator("button[title^='first']").click()
            wait_for_text(page, text, "start")
            explorer.locator("button[title^='step']").click()
            wait_for_text(page, text, "event 1 of 2")
            no_serious_violations(page, ".csp-playground")
            ARTIFACTS.mkdir(exist_ok=True)
            offline.screenshot(path=str(ARTIFACTS / "playground_offline.png"))
            assert errors == []
        finally:
            browser.close()


@pytest.fixture
def dark_lab(tmp_path):
    server = Lab(tmp_path, theme="JupyterLab Dark")
    (server.folder / NOTEBOOK).write_text(json.dumps(notebook()), encoding="utf-8")
    try:
        yield server
    finally:
        server.stop()


def test_dark_theme_and_the_keyboard_alone(dark_lab):
    """JupyterLab Dark: nothing serious for axe; by keyboard alone, a variable is chosen
    (Enter), one of its values assigned (Enter), and the answer is announced."""
    ARTIFACTS.mkdir(exist_ok=True)
    with axe_checks() as no_serious_violations, \
            sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 1500})
            run_all(page, dark_lab, NOTEBOOK)
            playgrounds = page.locator(".csp-playground")
            playgrounds.nth(len(CELLS) - 2).wait_for(timeout=240_000)
            assert page.evaluate("() => document.body.dataset.jpThemeLight") == "false"
            no_serious_violations(page, ".csp-playground")
            play = playgrounds.nth(3)  # singles: shade cells
            play.scroll_into_view_if_needed()
            play.locator(".cx-caption").first.click()  # the keyboard starts from here
            tab_until(page, ".cx-var", most=40)
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            values = play.locator(".cx-values button[data-value]")
            values.first.wait_for()
            tab_until(page, "[data-value]", most=10)
            page.keyboard.press("Enter")
            wait_for_text(page, play.locator(".cx-answer[aria-live='polite']"), "assign cell")
            play.screenshot(path=str(ARTIFACTS / "playground_dark_keyboard.png"))
        finally:
            browser.close()
