"""WCAG 2.1 AA in Chromium, on the static page `csp-puzzles export` writes: axe-core finds no
serious or critical violation inside the widgets (light, dark, 390 px wide); the keyboard
reaches everything the mouse does; a step and a variable's history are announced.

axe-core comes from npm, outside the repository (`npm install axe-core@4 --prefix ..`, or
$AXE_CORE_JS naming its axe.min.js); without it the axe checks skip. Screenshots go to
tests/artifacts/ (light, dark, 390 px).
"""

from __future__ import annotations

import pytest

from csp_puzzles import hashi
from csp_puzzles.puzzle import picture as pic
from csp_puzzles.viz import Picture, Stepper, puzzle_view

from .pages import (
    ARTIFACTS,
    CHROMIUM,
    axe_script,
    files_only,
    launch,
    open_widget_page,
    serious_violations,
    tab_until,
    wait_for_text,
    widget_page,
)
from .test_explorer_page import HASHI, explorers

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

WIDGETS = ".csp-stepper, .csp-picture"


def needs_axe() -> None:
    if axe_script() is None:
        pytest.skip("axe-core is not installed (npm install axe-core@4 --prefix ..)")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def open_widgets(browser, tmp_path, widgets, width=1000, dark=False):
    return open_widget_page(browser, tmp_path / "widgets.html", widgets, WIDGETS, width=width,
                            height=900, dark=dark)


def every_widget() -> list:
    made = list(explorers().values())
    puzzle = hashi.parse(HASHI)
    made.append(Picture(puzzle.picture(), domains=puzzle.to_csp().domains, title="a Hashi"))
    return made


def step_to_the_middle(page, widgets) -> None:
    """Each explorer to the middle of its run, so the tree, why? and the marks show."""
    for number, widget in enumerate(w for w in widgets if isinstance(w, Stepper)):
        explorer = page.locator(".csp-stepper").nth(number)
        middle = len(widget.trace) // 2
        explorer.locator("input[type=range]").fill(str(middle))
        wait_for_text(page, explorer.locator(".csp-stepper-text"), f"event {middle} of")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_no_serious_violation_in_any_widget(browser, tmp_path, theme):
    needs_axe()
    widgets = every_widget()
    page = open_widgets(browser, tmp_path, widgets, dark=theme == "dark")
    step_to_the_middle(page, widgets)
    page.locator(".csp-stepper .cx-var").nth(3).hover()  # why? lists a variable's history
    assert serious_violations(page, WIDGETS) == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".csp-stepper").nth(5).screenshot(path=str(ARTIFACTS / f"a11y_{theme}.png"))
    assert page.errors == []
    page.close()


def test_at_390_px_the_picture_shrinks_and_buttons_stay_large(browser, tmp_path):
    needs_axe()
    widgets = every_widget()
    page = open_widgets(browser, tmp_path, widgets, width=390)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    for number in range(page.locator(".csp-stepper").count()):
        explorer = page.locator(".csp-stepper").nth(number)
        box = explorer.bounding_box()
        picture = explorer.locator(".cx-picture svg, .cx-picture img").first.bounding_box()
        assert picture["x"] + picture["width"] <= box["x"] + box["width"] + 1
    sizes = page.evaluate("""() => Array.from(document.querySelectorAll(
        '.csp-stepper button, .csp-stepper select')).filter((b) => b.offsetParent)
        .map((b) => { const r = b.getBoundingClientRect(); return [r.width, r.height]; })""")
    assert sizes and all(w >= 24 and h >= 24 for w, h in sizes)
    assert serious_violations(page, WIDGETS) == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".csp-stepper").nth(5).screenshot(path=str(ARTIFACTS / "a11y_390px.png"))
    page.close()


def test_the_keyboard_reaches_the_tree_the_picture_and_why(browser, tmp_path):
    puzzle = hashi.parse(HASHI)
    widget = Stepper(puzzle.solve(trace=True, inference="fc", var_order="input").trace,
                     puzzle_view(puzzle))
    page = open_widgets(browser, tmp_path, [widget])
    explorer = page.locator(".csp-stepper")
    text = explorer.locator(".csp-stepper-text")
    live = explorer.locator(".cx-live")
    explorer.locator("button[title^='end']").click()  # the whole tree is there
    wait_for_text(page, text, "solution found")
    page.evaluate("() => document.activeElement.blur()")
    # a tree node: Enter goes there, and the step is announced
    tab_until(page, ".cx-tree .cx-node")
    page.keyboard.press("ArrowUp")
    node = page.evaluate("() => document.activeElement.dataset.start")
    page.keyboard.press("Enter")
    wait_for_text(page, text, f"event {node} of")
    wait_for_text(page, live, f"event {node} of")
    widget.go(int(node))
    assert live.inner_text() == widget.sentence()
    # a variable: focusing it reads its history out; the arrows move to the next one
    tab_until(page, ".cx-picture .cx-var")
    page.keyboard.press("ArrowRight")
    key = page.evaluate("() => document.activeElement.dataset.var")
    var = next(v for v in widget.trace.variables if pic.key(v) == key)
    assert explorer.locator(".cx-focus > *").count() > 0  # the focus ring is drawn
    expected = ". ".join(widget.why(var))
    wait_for_text(page, live, expected)
    page.keyboard.press("Enter")  # pins it
    wait_for_text(page, explorer.locator(".cx-why"), "pinned")
    # a why? entry: Enter goes to its event
    tab_until(page, ".cx-why button.cx-link")
    target = page.evaluate("() => document.activeElement.parentElement.dataset.event")
    page.keyboard.press("Enter")
    wait_for_text(page, text, f"event {target} of")
    assert page.errors == []
    page.close()


def test_reduced_motion_slows_the_play_speeds(browser, tmp_path):
    puzzle = hashi.parse(HASHI)
    widget = Stepper(puzzle.solve(trace=True).trace, puzzle_view(puzzle))
    path = tmp_path / "motion.html"
    path.write_text(widget_page([widget]), encoding="utf-8")
    for motion, fastest in (("reduce", 5), ("no-preference", 100)):
        page = browser.new_page()
        page.emulate_media(reduced_motion=motion)
        page.route("**/*", files_only)
        page.goto(path.as_uri())
        speeds = page.locator("select[title='events per second'] option")
        speeds.first.wait_for(state="attached")
        rates = [int(speeds.nth(i).get_attribute("value")) for i in range(speeds.count())]
        assert max(rates) == fastest
        page.close()
