"""The code stepper in Chromium: on a static page as `csp-puzzles export` inlines it, in an
exported notebook, and in JupyterLab on a function typed in a cell.

(In JupyterLite: tests/browser/test_lite_site.py steps the course's code steppers offline.)
The marked line (`aria-current="step"`) moves with the step button, each jump lands on the
step Python's `Shown.target` names, a clicked breakpoint stops there, predict-then-check says
what Python says, the keyboard does what the buttons do, and axe-core finds nothing serious
or critical (light, dark, 390 px). Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from csp_puzzles.core import textbook
from csp_puzzles.examples import map_colouring
from csp_puzzles.viz import CodeStepper, map_view

from .pages import (
    ARTIFACTS,
    CHROMIUM,
    axe_script,
    files_only,
    launch,
    no_serious_violations_last,
    open_widget_page,
    serious_violations,
    tab_until,
    wait_for_text,
)

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

CURRENT = ".csp-code [aria-current='step']"


def figure_6_5() -> CodeStepper:
    return CodeStepper(textbook.backtracking_search, map_colouring(), "input", "input", "fc",
                       view=map_view(), watch=["trial"], title="figure 6.5, forward checking")


def ac3() -> CodeStepper:
    network = textbook.Network(map_colouring())
    network.domains["WA"] = ["red"]
    queue = [arc for arcs in network.arcs.values() for arc in arcs]
    return CodeStepper(textbook.ac3, network, network.domains, queue, view=map_view(),
                       title="AC-3 with WA red")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


def open_page(browser, tmp_path, widgets, width=1100, dark=False):
    return open_widget_page(browser, tmp_path / "code.html", widgets, ".csp-code",
                            width=width, height=1000, dark=dark)


def marked(root) -> tuple[int, str]:
    """The marked line's number and the sentence under the code."""
    line = root.locator(CURRENT)
    return int(line.get_attribute("data-line")), root.locator(".csp-stepper-text").inner_text()


def expect(page, root, stepper: CodeStepper, position: int) -> None:
    """Wait until the page shows step `position` as Python says it."""
    said = stepper.shown.sentence(position)
    wait_for_text(page, root.locator(".csp-stepper-text"), said)
    assert marked(root) == (stepper.steps[position].line, said)


def test_the_marked_line_moves_with_the_step_button_and_the_jumps(browser, tmp_path):
    stepper = figure_6_5()
    page = open_page(browser, tmp_path, [stepper])
    root = page.locator(".csp-code-stepper")
    expect(page, root, stepper, 0)
    assert root.locator(".cx-recorded").inner_text() == f"{len(stepper.steps)} steps recorded"
    step = root.locator("button[title^='step']")
    assert step.count() == 1
    for position in (1, 2, 3):
        step.click()
        expect(page, root, stepper, position)
        # the legend's › marks the line that ran just before (when it is another line)
        ran = root.locator(".csp-code .cx-ran")
        before = stepper.steps[position - 1]
        if before.line != stepper.steps[position].line:
            assert int(ran.get_attribute("data-line")) == before.line
    picture = root.locator(".cx-picture svg").inner_html()
    for kind, title in (("call", "call:"), ("shrink", "shrink:"), ("over", "over:"),
                        ("return", "return:"), ("call", "call:")):
        target = stepper.shown.target(page_position(root, stepper), kind)
        root.locator(f"button[title^='{title}']").click()
        expect(page, root, stepper, target)
        if kind == "shrink":  # the picture shows the domains with a value fewer
            assert root.locator(".cx-picture svg").inner_html() != picture
    root.locator("button[title^='back']").click()
    expect(page, root, stepper, target - 1)
    ARTIFACTS.mkdir(exist_ok=True)
    root.screenshot(path=str(ARTIFACTS / "code_stepper_page.png"))
    assert page.errors == []


def page_position(root, stepper: CodeStepper) -> int:
    """The step the page shows, read from its sentence ("step 12 of 409: ...")."""
    return int(root.locator(".csp-stepper-text").inner_text().split()[1]) - 1


def test_a_clicked_breakpoint_stops_there(browser, tmp_path):
    stepper = figure_6_5()
    page = open_page(browser, tmp_path, [stepper])
    root = page.locator(".csp-code-stepper")
    # the line where the search counts a node, in backtrack
    line = next(s.line for s in stepper.steps if s.function == "backtrack"
                and root.locator(f".csp-code [data-line='{s.line}']").inner_text()
                .strip().endswith("stats.nodes += 1"))
    row = root.locator(f".csp-code [data-line='{line}']")
    row.click()
    assert row.get_attribute("aria-pressed") == "true"
    stepper.toggle_breakpoint(line)
    go = root.locator("button[title^='continue to the next breakpoint']")
    at = 0
    for _ in range(3):
        at = stepper.shown.target(at, "breakpoint", map(tuple, stepper.breakpoints))
        go.click()
        expect(page, root, stepper, at)
        assert int(root.locator(CURRENT).get_attribute("data-line")) == line
    row.click()  # cleared: nothing ahead now stops
    assert row.get_attribute("aria-pressed") == "false"
    go.click()
    wait_for_text(page, root.locator(".cx-note"), "no breakpoint ahead")
    assert page.errors == []


def test_predict_then_check_says_what_python_says(browser, tmp_path):
    stepper = ac3()
    shown = stepper.shown
    removing = next(i for i in range(len(stepper.steps))
                    if shown.question(i)["ask"] == "removals")
    returning = next(i for i in range(len(stepper.steps))
                     if stepper.steps[i].function == "revise"
                     and shown.question(i)["ask"] == "return")
    stepper.go(removing)
    page = open_page(browser, tmp_path, [stepper])
    root = page.locator(".csp-code-stepper")
    expect(page, root, stepper, removing)
    root.locator("button[title^='predict']").click()
    asked = shown.question(removing)
    wait_for_text(page, root.locator(".cx-question"), asked["text"])
    # pick one right value and one wrong one
    v, x = asked["answer"][0]
    keys, values = stepper.data["keys"], stepper.data["values"]
    root.locator(f".cx-picture .cx-var[data-var='{keys[v]}']").click()
    root.locator(f".cx-values button[data-value='{values[x]}']").click()
    wrong = next(y for y in stepper.shown.state(removing)[v] if (v, y) not in asked["answer"])
    root.locator(f".cx-values button[data-value='{values[wrong]}']").click()
    root.locator(".cx-check").click()
    said = shown.check_removals(removing, [(v, x), (v, wrong)])
    wait_for_text(page, root.locator(".cx-feedback"), said)
    root.locator(".cx-show").click()
    expect(page, root, stepper, asked["k"])
    # at a line of revise: what will it return?
    root.locator("input[type=range]").evaluate(
        "(el, p) => { el.value = String(p); el.dispatchEvent(new Event('input')); }", returning)
    expect(page, root, stepper, returning)
    root.locator("button[title^='predict']").click()
    asked = shown.question(returning)
    wait_for_text(page, root.locator(".cx-question"), "What will revise return?")
    other = next(c for c in asked["choices"] if c != asked["answer"])
    root.locator(".cx-choice", has_text=other).click()
    wait_for_text(page, root.locator(".cx-feedback"), shown.check_return(returning, other))
    assert page.errors == []


def test_the_keyboard_steps_and_jumps_and_sets_breakpoints(browser, tmp_path):
    stepper = figure_6_5()
    page = open_page(browser, tmp_path, [stepper])
    root = page.locator(".csp-code-stepper")
    tab_until(page, ".csp-code-stepper")
    live = root.locator(".cx-live")
    page.keyboard.press("ArrowRight")
    expect(page, root, stepper, 1)
    assert live.inner_text().startswith(stepper.shown.sentence(1))
    target = stepper.shown.target(1, "call")
    page.keyboard.press("c")
    expect(page, root, stepper, target)
    # the live region says the line's source and the values there
    step = stepper.steps[target]
    for name, value in step.locals.items():
        assert f"{name} = {value[:40]}" in live.inner_text()
    page.keyboard.press("End")
    expect(page, root, stepper, len(stepper.steps) - 1)
    page.keyboard.press("Home")
    expect(page, root, stepper, 0)
    # Tab into the listing; the arrows move between lines; Enter sets a breakpoint
    tab_until(page, ".csp-code .cx-code-line")
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("() => document.activeElement.dataset.line")
    page.keyboard.press("Enter")
    assert root.locator(f".csp-code [data-line='{focused}']").first.get_attribute(
        "aria-pressed") == "true"
    wait_for_text(page, live, f"breakpoint set at line {focused}")
    assert page.errors == []


@pytest.mark.parametrize("look", ["light", "dark", "390px"])
def test_no_serious_violation(browser, tmp_path, look):
    if axe_script() is None:
        pytest.skip("axe-core is not installed (npm install axe-core@4 --prefix ..)")
    stepper = figure_6_5()
    stepper.jump("shrink")
    page = open_page(browser, tmp_path, [stepper, ac3()], width=390 if look == "390px" else 1100,
                     dark=look == "dark")
    page.locator(".csp-code-stepper button[title^='predict']").first.click()
    assert serious_violations(page, ".csp-code-stepper") == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".csp-code-stepper").first.screenshot(
        path=str(ARTIFACTS / f"code_stepper_{look}.png"))
    assert page.errors == []


def test_an_exported_notebook_steps_code_offline(browser, tmp_path):
    pytest.importorskip("nbclient")
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell("from csp_puzzles.examples import map_colouring\n"
                                  "from csp_puzzles.viz import CodeStepper, map_view"),
        nbformat.v4.new_code_cell("def colour(csp):\n"
                                  "    domains = {v: list(d) for v, d in csp.domains.items()}\n"
                                  "    for var in csp.variables:\n"
                                  "        domains[var] = domains[var][:1]\n"
                                  "    return domains\n"),
        nbformat.v4.new_code_cell("CodeStepper(colour, map_colouring(), view=map_view())"),
    ]
    source = tmp_path / "code.ipynb"
    nbformat.write(notebook, source)
    out = tmp_path / "code.html"
    done = subprocess.run([sys.executable, "-m", "csp_puzzles", "export", str(source), "-o",
                           str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "1 explorer(s)" in done.stdout
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("**/*", files_only)
    page.goto(out.as_uri())
    root = page.locator(".csp-code-stepper")
    root.wait_for(timeout=30_000)
    # the cell's own lines, numbered as in the cell
    assert root.locator(".csp-code [data-line='1']").inner_text().strip().endswith(
        "def colour(csp):")
    assert root.locator(CURRENT).get_attribute("data-line") == "2"
    step = root.locator("button[title^='step']")
    picture = root.locator(".cx-picture svg").inner_html()
    for line in ("3", "4", "3", "4"):
        step.click()
        page.wait_for_function("([s, l]) => document.querySelector(s).dataset.line === l",
                               arg=[CURRENT, line])
    assert root.locator(".cx-picture svg").inner_html() != picture  # WA has one colour
    root.locator(".csp-code [data-line='5']").click()
    root.locator("button[title^='continue to the next breakpoint']").click()
    page.wait_for_function("([s, l]) => document.querySelector(s).dataset.line === l",
                           arg=[CURRENT, "5"])
    ARTIFACTS.mkdir(exist_ok=True)
    root.screenshot(path=str(ARTIFACTS / "code_stepper_export.png"))
    assert errors == []
    no_serious_violations_last(page, ".csp-code-stepper")


# -- JupyterLab: a function typed in a cell, its source read from the cell ---------------------
CELLS = ["from csp_puzzles.examples import map_colouring\n"
         "from csp_puzzles.viz import CodeStepper, map_view",
         "def first_colour(csp, var):\n"
         "    colours = csp.domains[var]\n"
         "    return colours[0]",
         "def colour(csp):\n"
         "    domains = {v: list(d) for v, d in csp.domains.items()}\n"
         "    for var in csp.variables:\n"
         "        domains[var] = [first_colour(csp, var)]\n"
         "    return domains",
         "stepper = CodeStepper(colour, map_colouring(), view=map_view())\n"
         "stepper"]


def same_cells() -> CodeStepper:
    """The cells' functions compiled here as IPython compiles cells (one name each, their
    lines in linecache), stepped: what the kernel's stepper records."""
    import linecache

    namespace: dict = {"__name__": "__main__"}
    for number, source in enumerate(CELLS[1:3]):
        name = f"<ipython-input-{number}-feedc0ffee00>"
        linecache.cache[name] = (len(source), None, source.splitlines(True), name)
        exec(compile(source, name, "exec"), namespace)
    return CodeStepper(namespace["colour"], map_colouring(), view=map_view())


@pytest.fixture
def lab(tmp_path):
    import nbformat

    from .test_lab import Lab

    server = Lab(tmp_path)
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    nbformat.write(notebook, server.folder / "code_stepper.ipynb")
    try:
        yield server
    finally:
        server.stop()


def test_in_jupyterlab_a_cells_function_steps(browser, lab):
    from .test_lab import run_all

    expected = same_cells()
    steps = expected.steps
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    page.set_default_timeout(60_000)
    run_all(page, lab, "code_stepper.ipynb")
    root = page.locator(".csp-code-stepper")
    root.wait_for(timeout=180_000)
    root.scroll_into_view_if_needed()
    # the two cells' functions, their lines numbered as in their cells
    assert root.locator(".cx-code-file").all_inner_texts() == [
        "a cell of this notebook, lines 1–5", "a cell of this notebook, lines 1–3"]
    assert root.locator(".cx-code-line[data-file='1'][data-line='3']").inner_text().strip() \
        .endswith("return colours[0]")

    def shown() -> tuple[str, str]:
        line = root.locator(CURRENT)
        return line.get_attribute("data-file"), line.get_attribute("data-line")

    def wait_for(position: int) -> None:
        wait_for_text(page, root.locator(".csp-stepper-text"),
                      expected.shown.sentence(position))
        file = expected.data["codes"][expected.recording.get(position, 2)][1]
        assert shown() == (str(file), str(steps[position].line))

    wait_for(0)
    step = root.locator("button[title^='step']")
    for position in range(1, 6):
        step.click()
        wait_for(position)
    root.locator("button[title^='call:']").click()
    wait_for(expected.shown.target(5, "call"))
    assert steps[expected.shown.target(5, "call")].function == "first_colour"
    root.press("ArrowRight")  # JupyterLab keeps out of the stepper's keys
    at = expected.shown.target(5, "call") + 1
    wait_for(at)
    cells = page.locator(".jp-Notebook-cell").count()
    for key, kind in (("r", "return"), ("c", "call"), ("b", "breakpoint"), ("s", "shrink")):
        target = expected.shown.target(at, kind)  # no breakpoint set yet: "b" stays
        root.press(key)  # in command mode, JupyterLab's r, c, b and s act on cells
        if target is not None:
            wait_for(target)
            at = target
    wait_for(at)
    assert page.locator(".jp-Notebook-cell").count() == cells
    assert page.locator(".jp-RawCell").count() == 0
    # a breakpoint on `return domains`: the run stops there, at the end of the loop
    root.locator(".cx-code-line[data-file='0'][data-line='5']").click()
    root.locator("button[title^='continue to the next breakpoint']").click()
    wait_for(len(steps) - 2)
    assert steps[len(steps) - 2].line == 5
    ARTIFACTS.mkdir(exist_ok=True)
    root.screenshot(path=str(ARTIFACTS / "code_stepper_lab.png"))
    try:
        no_serious_violations_last(page, ".csp-code-stepper")
    finally:
        page.close()


# -- the notebooks' own code steppers ----------------------------------------------------------
NOTEBOOKS = ["01_backtracking", "02_arc_consistency", "09_local_search_and_structure",
             "11_looking_back"]


def notebook_stepper(name: str) -> CodeStepper:
    """The code stepper a notebook's cell `code-stepper` makes (the cell imports what it
    uses, so it runs alone)."""
    from .pages import REPO

    cells = json.loads((REPO / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))
    source = "".join(next(c for c in cells["cells"] if c["id"] == "code-stepper")["source"])
    namespace: dict = {}
    exec(compile(source, f"{name}.ipynb", "exec"), namespace)
    return next(v for v in namespace.values() if isinstance(v, CodeStepper))


def test_the_four_notebooks_code_steppers(browser, tmp_path):
    steppers = [notebook_stepper(name) for name in NOTEBOOKS]
    page = open_page(browser, tmp_path, steppers, width=1200)
    roots = page.locator(".csp-code-stepper")
    assert roots.count() == 4
    ARTIFACTS.mkdir(exist_ok=True)
    for number, (name, stepper) in enumerate(zip(NOTEBOOKS, steppers)):
        root = roots.nth(number)
        root.scroll_into_view_if_needed()
        expect(page, root, stepper, stepper.position)
        # the first jump of these that lands (the analysis of notebook 11 shrinks nothing)
        kind, target = next((kind, found) for kind in ("shrink", "call")
                            if (found := stepper.shown.target(stepper.position, kind)))
        root.locator(f"button[title^='{kind}:']").click()
        expect(page, root, stepper, target)
        root.screenshot(path=str(ARTIFACTS / f"code_stepper_{name}.png"))
    assert page.errors == []
    no_serious_violations_last(page, ".csp-code-stepper")
