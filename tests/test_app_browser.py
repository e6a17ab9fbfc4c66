"""The class app in a real browser: Voila serves it on 127.0.0.1, nothing leaves the machine.

Loads the page in Chromium (Debian's, driven by Playwright; skipped without it or Voila),
steps the explorer's stepper, then solves the editor's puzzle and steps that. Every
request not addressed to 127.0.0.1 is aborted and recorded: the test fails if there was
one. Waits on conditions, never on sleeps.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlparse
from urllib.request import urlopen

import pytest

from tests.browser.pages import CHROMIUM, launch

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("voila")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers_http(port: int) -> bool:
    """Whether an HTTP server answers on `port` (any status: a static file that is not there
    is enough, and asks no kernel for anything)."""
    try:
        urlopen(f"http://127.0.0.1:{port}/voila/static/no-such-file", timeout=10).close()
    except HTTPError:
        return True
    except OSError:
        return False
    return True


def open_app(page, url: str) -> None:
    """Load the app's page; a load the busy machine broke off (Chromium's `net::ERR_...`,
    seen once as ERR_INVALID_HTTP_RESPONSE) is tried again, up to three times."""
    for attempt in range(3):
        try:
            page.goto(url, timeout=180_000)
            return
        except sync_api.Error as error:
            if "net::ERR_" not in str(error) or attempt == 2:
                raise


@pytest.fixture
def app_url(tmp_path: Path) -> Iterator[str]:
    """`csp-puzzles app` (its Voila command line) on a free port, stopped by its PID."""
    from csp_puzzles.teaching.app import voila_command

    port = _free_port()
    argv, env = voila_command(port, open_browser=False)
    env.update(JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    with open(tmp_path / "voila.log", "w") as log:
        process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env,
                                   cwd=tmp_path)
        try:
            deadline = time.monotonic() + 90
            while not _answers_http(port):  # Voila's server is up once it answers
                assert process.poll() is None, (tmp_path / "voila.log").read_text()[-2000:]
                assert time.monotonic() < deadline, "Voila did not answer within 90 s"
                time.sleep(0.2)
            yield f"http://127.0.0.1:{port}/"
        finally:
            os.kill(process.pid, signal.SIGTERM)  # Voila shuts its kernel down
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()


def step_and_watch(page, stepper, times: int) -> list[str]:
    """Click the stepper's step button `times` times; its content must change each time."""
    step = stepper.locator("button[title^='step']").first
    contents = [stepper.inner_html()]
    for _ in range(times):
        step.click()
        page.wait_for_function("([element, before]) => element.innerHTML !== before",
                               arg=[stepper.element_handle(), contents[-1]], timeout=60_000)
        contents.append(stepper.inner_html())
    return contents


def test_the_app_loads_offline_and_both_steppers_step(app_url: str) -> None:
    off_machine: list[str] = []

    def local_only(route) -> None:
        if urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            off_machine.append(route.request.url)
            route.abort()

    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 1000})
            page.route("**/*", local_only)
            open_app(page, app_url)
            explorer = page.locator(".csp-app .csp-stepper").first
            explorer.wait_for(state="visible", timeout=180_000)
            contents = step_and_watch(page, explorer, 3)
            assert len(set(contents)) == 4

            page.get_by_text("edit a puzzle", exact=True).click()
            page.get_by_role("button", name="solve and step").click()
            editor = page.locator(".csp-app .csp-stepper").nth(1)
            editor.wait_for(state="visible", timeout=120_000)
            assert len(set(step_and_watch(page, editor, 2))) == 3
        finally:
            browser.close()
    assert off_machine == []
