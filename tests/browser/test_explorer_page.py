"""The explorer in Chromium, on a static page: every view and puzzle, stepping, the tree, why?.

The page is what `csp-puzzles export` writes for one explorer: the ES module inlined and the
data of a `Stepper`, no kernel, no server (file://), every other request aborted. Each
explorer is screenshotted into tests/artifacts/ (git-ignored) for a look.
"""

from __future__ import annotations

import re

import pytest

from csp_puzzles import hashi, kakuro, singles, towers
from csp_puzzles.core import solve
from csp_puzzles.core.strategies import compare
from csp_puzzles.examples import map_colouring, queens, send_more_money, sudoku
from csp_puzzles.puzzle import picture as pic
from csp_puzzles.viz import (
    Comparison,
    Stepper,
    domain_grid_view,
    graph_view,
    map_view,
    puzzle_view,
    queens_view,
    sudoku_view,
)
from csp_puzzles.viz.export import standalone_page

from .pages import ARTIFACTS, CHROMIUM, SMALLEST_TEXT_JS, files_only, launch, wait_for_text

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

SUDOKU = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
HASHI = "10x10m2:d1b2d1f2c2f1a4a2b6a5j1c3a2b3m3c6a6j2a5a3b4a4"
KAKURO = """6 6
- 8, 34, - 4, 9,
,7 0 0 14,12 0 0
,22 0 0 0 0 -
- 15,11 0 0 13, -
,22 0 0 0 0 8,
,16 0 0 ,15 0 0
"""
TOWERS = "4:1/2/3/4/2/2/2/1/1/2/2/2/4/3/2/1"
SINGLES = "7x7:1764433252724624516614231671714211314437155176525"


def explorers() -> dict[str, Stepper]:
    """One explorer per built-in view and per puzzle, each on a search with some choices."""
    made: dict[str, Stepper] = {}
    made["queens"] = Stepper(solve(queens(6), inference="fc", var_order="input",
                                   trace=True).trace, queens_view(6))
    made["map"] = Stepper(solve(map_colouring(), inference="fc", trace=True).trace, map_view())
    graph = map_colouring()
    made["graph"] = Stepper(solve(graph, inference="fc", trace=True).trace, graph_view(graph))
    money = send_more_money()
    made["domain_grid"] = Stepper(solve(money, inference="mac", trace=True).trace,
                                  domain_grid_view(money))
    grid = sudoku(SUDOKU)
    givens = {v: d[0] for v, d in grid.domains.items() if len(d) == 1}
    made["sudoku"] = Stepper(solve(grid, inference="fc", var_order="mrv", trace=True).trace,
                             sudoku_view(givens))
    for name, module, text, options in (
            ("hashi", hashi, HASHI, {"level": "easy"}), ("kakuro", kakuro, KAKURO, {}),
            ("towers", towers, TOWERS, {"inference": "fc"}), ("singles", singles, SINGLES, {})):
        puzzle = module.parse(text)
        made[name] = Stepper(puzzle.solve(trace=True, **options).trace, puzzle_view(puzzle))
    return made


@pytest.fixture(scope="module")
def page_of(tmp_path_factory):
    """Open one explorer alone on a static page; returns (page, stepper widget)."""
    made = explorers()
    folder = tmp_path_factory.mktemp("explorer")
    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)

        def open_page(name: str, widget=None):
            widget = widget or made[name]
            shown = widget if isinstance(widget, list) else [widget]
            path = folder / f"{name}.html"
            path.write_text(standalone_page(shown, title=name), encoding="utf-8")
            page = browser.new_page(viewport={"width": 1000, "height": 900})
            page.set_default_timeout(60_000)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.route("**/*", files_only)
            page.goto(path.as_uri())
            page.wait_for_selector(".csp-stepper")
            page.errors = errors
            return page, widget

        yield open_page
        browser.close()


def test_every_view_draws_every_variable_readably(page_of):
    made = explorers()
    page, _ = page_of("all", list(made.values()))
    ARTIFACTS.mkdir(exist_ok=True)
    for number, (name, widget) in enumerate(made.items()):
        explorer = page.locator(".csp-stepper").nth(number)
        placed = {entry["var"] for entry in widget.data["picture"]["variables"]}
        assert explorer.locator(".cx-picture .cx-var").count() == len(placed), name
        # the middle of the search: the tree, the highlight and "why?" have something to show
        middle = len(widget.trace) // 2
        explorer.locator("input[type=range]").fill(str(middle))
        wait_for_text(page, explorer.locator(".csp-stepper-text"), f"event {middle} of")
        assert explorer.evaluate(SMALLEST_TEXT_JS) >= 11 - 1e-6, name
        explorer.screenshot(path=str(ARTIFACTS / f"explorer_{name}.png"))
    assert page.errors == []
    page.close()


def test_steps_words_and_keys_match_the_python_side(page_of):
    page, widget = page_of("queens")
    explorer = page.locator(".csp-stepper")
    text = explorer.locator(".csp-stepper-text")
    step = explorer.locator("button[title^='step']")
    picture = explorer.locator(".cx-picture")
    before = picture.inner_html()
    for position in range(1, 6):
        step.click()
        wait_for_text(page, text, f"event {position} of")
        widget.go(position)
        assert text.inner_text() == widget.sentence()
    assert picture.inner_html() != before
    explorer.press("ArrowLeft")
    wait_for_text(page, text, "event 4 of")
    explorer.press("ArrowRight")
    wait_for_text(page, text, "event 5 of")
    page.close()


def test_a_tree_click_moves_the_stepper_and_why_lists_removals(page_of):
    page, widget = page_of("queens")
    explorer = page.locator(".csp-stepper")
    text = explorer.locator(".csp-stepper-text")
    explorer.locator("button[title^='end']").click()
    wait_for_text(page, text, "solution found")
    node = explorer.locator(".cx-tree .cx-node").nth(3)
    start = int(node.get_attribute("data-start"))
    node.click()
    wait_for_text(page, text, f"event {start} of")
    assert widget.trace[start - 1].kind == "assign"

    explorer.locator(".cx-picture .cx-var[data-var='3']").click()
    why = explorer.locator(".cx-why")
    wait_for_text(page, why, "column 3")
    entry = why.locator("li.cx-entry").first
    target = int(entry.get_attribute("data-event"))
    assert re.search(r"removed at event \d+ by ", entry.inner_text())
    entry.click()
    wait_for_text(page, text, f"event {target} of")
    page.close()


def test_jump_says_when_no_choice_is_ahead(page_of):
    page, _ = page_of("hashi_solved_by_rules", Stepper(
        hashi.parse(HASHI).solve(trace=True).trace, puzzle_view(hashi.parse(HASHI))))
    explorer = page.locator(".csp-stepper")
    explorer.locator("button", has_text=re.compile("^jump$")).click()
    wait_for_text(page, explorer.locator(".cx-note"), "no more choices ahead")
    assert "still with several values" in explorer.locator(".cx-path").inner_text()
    explorer.locator("button[title^='end']").click()
    wait_for_text(page, explorer.locator(".cx-path"), "propagation alone decided every variable")
    page.close()


def test_a_comparison_shows_each_runs_tree_and_replays_the_chosen_one(page_of):
    runs = compare(lambda: queens(5))
    page, _ = page_of("comparison", Comparison(runs, queens_view(5)))
    explorer = page.locator(".csp-stepper")
    boxes = explorer.locator(".cx-run")
    assert boxes.count() == len(runs)
    assert all(boxes.nth(i).locator("svg .cx-node").count() == runs[i].nodes + 1
               for i in range(len(runs)) if runs[i].nodes < 300)
    boxes.nth(2).click()
    wait_for_text(page, explorer.locator(".csp-stepper-text"),
                  f"{len(runs[2].result.trace)} events follow")
    ARTIFACTS.mkdir(exist_ok=True)
    explorer.screenshot(path=str(ARTIFACTS / "explorer_comparison.png"))
    page.close()


def test_a_large_tree_shows_the_path_and_folds_the_rest(page_of):
    result = solve(queens(8), inference="none", var_order="input", trace=True)
    assert result.stats.nodes > 300
    page, _ = page_of("large_tree", Stepper(result.trace, queens_view(8)))
    explorer = page.locator(".csp-stepper")
    text = explorer.locator(".csp-stepper-text")
    middle = len(result.trace) // 2
    explorer.locator("input[type=range]").fill(str(middle))
    wait_for_text(page, text, f"event {middle} of")
    drawn = explorer.locator(".cx-tree .cx-node")
    assert 1 < drawn.count() < result.stats.nodes // 2
    folded = explorer.locator(".cx-tree .cx-node:has(polygon)").first
    assert "folded" in folded.get_attribute("aria-label")
    start = folded.get_attribute("data-start")
    folded.click()
    wait_for_text(page, text, f"event {start} of")
    # why? also lists what backtracking undid on a column tried many times
    explorer.locator("button[title^='end']").click()
    wait_for_text(page, text, "solution found")
    explorer.locator(".cx-picture .cx-var[data-var='7']").click()
    wait_for_text(page, explorer.locator(".cx-why"), "undone by backtracking")
    page.close()


def test_a_custom_matplotlib_draw_shows_the_kernels_png(page_of):
    def draw(ax, domains, event):
        ax.text(0.5, 0.5, f"{sum(len(d) for d in domains.values())} values left")

    trace = solve(queens(4), inference="fc", var_order="input", trace=True).trace
    page, widget = page_of("png", Stepper(trace, draw))
    image = page.locator(".csp-stepper .cx-picture img")
    assert image.get_attribute("src") == widget.image
    assert widget.image.startswith("data:image/png;base64,")
    page.close()


def test_predict_then_check_says_what_python_says(page_of):
    page, widget = page_of("queens")
    explorer = page.locator(".csp-stepper")
    text = explorer.locator(".csp-stepper-text")
    feedback = explorer.locator(".cx-feedback")
    events = list(widget.trace)
    # the next event is a choice: click a wrong variable, then ask again and click the right
    before_choice = next(i for i, e in enumerate(events) if e.kind == "assign" and i > 0)
    explorer.locator("input[type=range]").fill(str(before_choice))
    wait_for_text(page, text, f"event {before_choice} of")
    widget.go(before_choice)
    chosen = events[before_choice].var
    wrong = next(v for v in widget.trace.variables if v != chosen)
    for var in (wrong, chosen):
        explorer.locator("button[title^='predict']").click()
        wait_for_text(page, explorer.locator(".cx-question"), widget.question())
        explorer.locator(f".cx-picture .cx-var[data-var='{var}']").click()
        wait_for_text(page, feedback, widget.check_choice(var))
    assert feedback.inner_text().startswith("Right")
    # the next events are removals: pick them all but one, check, then show them
    explorer.locator("button.cx-show").click()
    wait_for_text(page, text, f"event {before_choice + 1} of")
    widget.go(before_choice + 1)
    explorer.locator("button[title^='predict']").click()
    wait_for_text(page, explorer.locator(".cx-question"), widget.question())
    block = []
    for event in events[before_choice + 1:]:
        if event.kind != "prune":
            break
        block.append(event)
    for event in block[1:]:
        explorer.locator(f".cx-picture .cx-var[data-var='{event.var}']").first.click()
        explorer.locator(f".cx-values button[data-value='{event.value}']").click()
    explorer.locator("button.cx-check").click()
    said = widget.check_removals([(e.var, e.value) for e in block[1:]])
    wait_for_text(page, feedback, said)
    assert "missed" in said
    page.close()


def page_why(explorer) -> list[str]:
    """The lines of "why?" as the page shows them (the pin note left out)."""
    head = explorer.locator(".cx-why .cx-why-head")
    pin = head.locator(".cx-pin")
    first = head.inner_text()
    if pin.count():
        first = first.removesuffix(pin.inner_text()).rstrip()
    rest = explorer.locator(".cx-why > .cx-caption, .cx-why li.cx-entry").all_inner_texts()
    return [first] + rest


@pytest.mark.parametrize("name", ["queens", "hashi", "singles", "towers"])
def test_the_page_shows_what_python_computes(page_of, name):
    """The summary, the line under the tree, why? and (for a session) AC-3's queue, at
    positions across the run, are the Python side's (which tests/test_viz_words.py holds to
    the trace)."""
    page, widget = page_of(name)
    explorer = page.locator(".csp-stepper")
    text = explorer.locator(".csp-stepper-text")
    total = len(widget.trace)
    for position in sorted({1, total // 3, total // 2, total}):
        explorer.locator("input[type=range]").fill(str(position))
        wait_for_text(page, text, f"event {position} of")
        widget.go(position)
        rows = [[cell.strip() for cell in row.split("\t")]
                for row in explorer.locator(".cx-stats tr").all_inner_texts()]
        assert [tuple(row) for row in rows] == widget.summary()
        assert explorer.locator(".cx-path").inner_text() == widget.path()
        for var in widget.trace.variables[:3]:
            shape = explorer.locator(f".cx-picture .cx-var[data-var='{pic.key(var)}']")
            shape.click()  # pins it
            assert page_why(explorer) == widget.why(var)
            shape.click()  # releases it
    page.close()


def test_a_session_replays_with_ac3s_queue_beside_it(page_of):
    from csp_puzzles import Session

    session = Session(map_colouring(), "none")
    session.assign("WA", "red")
    for constraint, var in session.arcs()[:5]:
        session.revise(constraint, var)
    session.undo()
    widget = Stepper(session.trace, map_view())
    page, _ = page_of("session", widget)
    explorer = page.locator(".csp-stepper")
    text = explorer.locator(".csp-stepper-text")
    for position in range(len(session.trace) + 1):
        explorer.locator("input[type=range]").fill(str(position))
        wait_for_text(page, text, "start" if position == 0 else f"event {position} of")
        widget.go(position)
        assert explorer.locator(".cx-queue").inner_text() == widget.queue()
        assert text.inner_text() == widget.sentence()
    explorer.locator("input[type=range]").fill(str(len(session.trace) - 1))
    ARTIFACTS.mkdir(exist_ok=True)
    explorer.screenshot(path=str(ARTIFACTS / "explorer_ac3_queue.png"))
    page.close()
