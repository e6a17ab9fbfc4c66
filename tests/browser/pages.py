"""Shared pieces of the browser tests: Chromium flags, the request filter, explorer pages."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

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


def wait_for_text(page, locator, expected: str, timeout: int = 30_000) -> None:
    """Wait until the element's text contains `expected`."""
    page.wait_for_function("([element, expected]) => element.textContent.includes(expected)",
                           arg=[locator.element_handle(), expected], timeout=timeout)
