"""Shared pieces of the browser tests: Chromium flags, the request filter, explorer pages."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

CHROMIUM = Path("/usr/bin/chromium")
REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "tests" / "artifacts"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]

#: the smallest on-screen font size (px) of the text in an explorer's picture and tree
SMALLEST_TEXT_JS = """(root) => {
    let smallest = Infinity;
    for (const t of root.querySelectorAll('svg text')) {
        if (!t.getBoundingClientRect().width) continue;
        const scale = t.getScreenCTM().a;
        smallest = Math.min(smallest, parseFloat(t.getAttribute('font-size')) * scale);
    }
    return smallest;
}"""


def local_only(route) -> None:
    """Let requests to 127.0.0.1 through, abort the rest."""
    if urlparse(route.request.url).hostname == "127.0.0.1":
        route.continue_()
    else:
        route.abort()


def files_only(route) -> None:
    """Let file:// requests through, abort every request to a network."""
    if route.request.url.startswith("file:"):
        route.continue_()
    else:
        route.abort()


def launch(playwright):
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)


#: true once a cell of the page shows it ran or waits to run ("[1]", "[*]")
CELLS_STARTED = """() => Array.from(document.querySelectorAll('.jp-InputPrompt'))
    .some((prompt) => /\\[[0-9*]+\\]/.test(prompt.textContent))"""


def run_all_cells(page, attempts: int = 4) -> None:
    """Run All Cells from the Run menu (JupyterLab and Notebook 7 alike). Sent while a new
    kernel settles on a busy machine, it can be dropped in silence: it is sent again while
    no cell shows that it ran or waits to run."""
    from playwright.sync_api import TimeoutError as Timeout

    for attempt in range(attempts):
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
        try:
            page.wait_for_function(CELLS_STARTED, timeout=30_000)
            return
        except Timeout:
            if attempt == attempts - 1:
                raise


def tab_until(page, selector: str, most: int = 200) -> None:
    """Press Tab until the focused element matches `selector`."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def wait_for_text(page, locator, expected: str, timeout: int = 30_000) -> None:
    """Wait until the element's text contains `expected`."""
    page.wait_for_function("([element, expected]) => element.textContent.includes(expected)",
                           arg=[locator.element_handle(), expected], timeout=timeout)


# -- accessibility: axe-core, installed from npm outside the repository ----------------------
#: where axe-core's script is looked for: $AXE_CORE_JS, else `npm install axe-core@4
#: --prefix ..` run from the repository (its node_modules beside the checkout)
AXE_PLACES = [REPO.parent / "node_modules" / "axe-core" / "axe.min.js",
              REPO / "node_modules" / "axe-core" / "axe.min.js"]


#: how to install it, as a skip says
AXE_HOW = "npm install axe-core@4 --prefix .., or set AXE_CORE_JS to its axe.min.js"


def axe_script() -> Path | None:
    """axe-core's script, or None when it is not installed (the checks then skip: see
    `axe_checks`)."""
    import os

    given = os.environ.get("AXE_CORE_JS")
    for place in ([Path(given)] if given else []) + AXE_PLACES:
        if place.is_file():
            return place
    return None


#: in the page: axe on each element matching the selector (scrolled into view first, as
#: some rules judge only what is on screen); the serious and critical violations
AXE_RUN_JS = """async (selector) => {
    const found = [];
    for (const element of document.querySelectorAll(selector)) {
        element.scrollIntoView();
        const result = await axe.run(element, {resultTypes: ['violations']});
        for (const v of result.violations) {
            if (v.impact !== 'serious' && v.impact !== 'critical') continue;
            const where = v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': '
                                                        + n.failureSummary);
            found.push({id: v.id, impact: v.impact, help: v.help, nodes: where});
        }
    }
    return found;
}"""


@contextmanager
def axe_checks() -> Iterator[Callable[[Any, str], None]]:
    """axe-core's checks of one test: `check(page, selector)` asserts that axe finds no
    serious or critical violation inside the elements matching `selector`.

    Without axe-core the test's other checks still run, and at the end of the block the
    test skips, naming the checks it could not make: it never passes as if the page had
    been checked. Use it outside the browser's block, so the skip comes once all is closed.
    """
    missed: list[str] = []

    def check(page: Any, selector: str) -> None:
        if axe_script() is None:
            missed.append(selector)
        else:
            assert serious_violations(page, selector) == []

    yield check
    if missed:
        _skip_unchecked(missed)


def no_serious_violations_last(page: Any, selector: str) -> None:
    """The last check of a test: axe-core finds no serious or critical violation inside
    `selector`; without axe-core the test skips, saying so (every check before it passed)."""
    if axe_script() is None:
        _skip_unchecked([selector])
    assert serious_violations(page, selector) == []


def _skip_unchecked(selectors: list[str]) -> None:
    pytest.skip(f"axe-core is not installed ({AXE_HOW}): no accessibility check of "
                f"{', '.join(dict.fromkeys(selectors))}; the test's other checks passed")


def serious_violations(page, selector: str) -> list[dict]:
    """axe-core's serious and critical violations inside every element matching `selector`."""
    script = axe_script()
    assert script is not None
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(script))
    return page.evaluate(AXE_RUN_JS, selector)


def widget_page(widgets, title: str = "csp-puzzles widgets") -> str:
    """A static page holding widgets of the package (explorers, pictures, playgrounds), as
    `csp-puzzles export` inlines them: the module once, then each widget's state."""
    from csp_puzzles.viz.export import explorer_html, saved_state

    parts = []
    for number, widget in enumerate(widgets):
        parts.append(explorer_html(saved_state(widget), number, with_library=number == 0))
    body = "\n".join(f"<div style=\"margin:12px 0\">{part}</div>" for part in parts)
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width\"><title>{title}</title>"
            f"</head><body style=\"max-width:960px;margin:auto\">\n{body}\n</body></html>\n")


#: JupyterLab Dark's theme variables, as its stylesheet sets them
DARK = """:root { --jp-layout-color0: #111; --jp-layout-color1: #212121;
  --jp-layout-color2: #424242;
  --jp-ui-font-color0: #fff; --jp-ui-font-color1: rgba(255,255,255,.87);
  --jp-ui-font-color2: rgba(255,255,255,.54); --jp-border-color1: #616161;
  --jp-brand-color1: #2196f3; } body { background: #111; color: rgba(255,255,255,.87); }"""


def open_widget_page(browser, path: Path, widgets, ready: str, width: int = 1000,
                     height: int = 900, dark: bool = False):
    """`widgets` on a page of their own (`widget_page`) written to `path` and opened, once
    `ready` is there; JupyterLab Dark's colours if `dark`. The page's JavaScript errors are
    kept in `page.errors`."""
    path.write_text(widget_page(widgets), encoding="utf-8")
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("**/*", files_only)
    page.goto(path.as_uri())
    page.wait_for_selector(ready)
    if dark:
        page.add_style_tag(content=DARK)
    page.errors = errors
    return page
