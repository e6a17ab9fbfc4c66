"""The class app under Voila (`csp-puzzles app`): axe-core finds no serious or critical
violation inside its explorers. Skipped without Chromium, Voila or axe-core."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from .pages import ARTIFACTS, CHROMIUM, axe_script, launch, serious_violations

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("voila")
if axe_script() is None:
    pytest.skip("axe-core is not installed (npm install axe-core@4 --prefix ..)",
                allow_module_level=True)

from ..test_app_browser import app_url, open_app  # noqa: E402,F401  (the app served by Voila)


def test_the_apps_explorer_has_no_serious_violation(app_url: str) -> None:  # noqa: F811
    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 1000})
            page.route("**/*", lambda route: route.continue_()
                       if urlparse(route.request.url).hostname == "127.0.0.1"
                       else route.abort())
            open_app(page, app_url)
            explorer = page.locator(".csp-app .csp-stepper").first
            explorer.wait_for(state="visible", timeout=180_000)
            explorer.locator("button[title^='step']").click()
            assert serious_violations(page, ".csp-stepper") == []
            ARTIFACTS.mkdir(exist_ok=True)
            explorer.screenshot(path=str(ARTIFACTS / "voila_explorer.png"))
        finally:
            browser.close()
