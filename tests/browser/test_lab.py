"""A real browser in JupyterLab: open the Hashiwokakero notebook, run it, step the stepper.

Skipped cleanly unless Debian's Chromium (/usr/bin/chromium) and the `playwright` Python
package are both present (`playwright install` is never used: it would download a browser).
The server runs on 127.0.0.1 with a token, on a temporary copy of the notebooks with
autosave off, so the test never rewrites the repository; every request to another host is
aborted. Screenshots go to tests/artifacts/ (git-ignored).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from urllib.parse import urlparse

import pytest

from .pages import (
    ARTIFACTS,
    CHROMIUM,
    REPO,
    axe_checks,
    launch,
    run_all_cells,
    wait_for_text,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "03_hashiwokakero.ipynb"

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read()


class Lab:
    """A JupyterLab server on a temporary copy of the notebooks (`env`: variables to add to
    its environment, as a make target sets them)."""

    def __init__(self, root: Path, theme: str | None = None,
                 env: dict[str, str] | None = None):
        self.token = secrets.token_hex(16)
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        work = root / "work"
        self.folder = work / "notebooks"  # what the server serves
        shutil.copytree(REPO / "notebooks", work / "notebooks",
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        if (REPO / "data").is_dir():
            shutil.copytree(REPO / "data", work / "data")  # notebooks read ../data
        settings = root / "settings" / "@jupyterlab"
        (settings / "docmanager-extension").mkdir(parents=True)
        (settings / "docmanager-extension" / "plugin.jupyterlab-settings").write_text(
            json.dumps({"autosave": False}))
        (settings / "apputils-extension").mkdir(parents=True)  # no news pop-up, no update check
        (settings / "apputils-extension" / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}))
        (settings / "notebook-extension").mkdir(parents=True)  # every cell in the page
        (settings / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
            json.dumps({"windowingMode": "none"}))
        if theme:
            (settings / "apputils-extension" / "themes.jupyterlab-settings").write_text(
                json.dumps({"theme": theme}))
        env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(root / "settings"),
                   JUPYTERLAB_WORKSPACES_DIR=str(root / "workspaces"),
                   JUPYTER_RUNTIME_DIR=str(root / "runtime"), **(env or {}))
        command = [str(Path(sys.executable).parent / "jupyter"), "lab", "--no-browser",
                   "--ip", "127.0.0.1", f"--port={self.port}",
                   f"--IdentityProvider.token={self.token}",
                   f"--ServerApp.root_dir={work / 'notebooks'}"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-root")
        self.log = open(root / "lab.log", "w")  # closed in stop()
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT,
                                        env=env, cwd=work / "notebooks")
        self._wait_ready()

    def _wait_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("jupyter lab exited early; see its log")
            try:
                _get(f"{self.url}/api/status?token={self.token}")
                return
            except OSError:
                time.sleep(0.5)
        raise TimeoutError("jupyter lab did not answer in time")

    def stop(self) -> None:
        """Shut the kernels down through the API, then stop the server by its PID."""
        with suppress(OSError):  # a server that is down already has no kernels left
            kernels = json.loads(_get(f"{self.url}/api/kernels?token={self.token}"))
            for kernel in kernels:
                request = urllib.request.Request(
                    f"{self.url}/api/kernels/{kernel['id']}?token={self.token}",
                    method="DELETE")
                urllib.request.urlopen(request, timeout=10).close()
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


@pytest.fixture
def lab(tmp_path) -> Iterator[Lab]:
    server = Lab(tmp_path)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def dark_lab(tmp_path) -> Iterator[Lab]:
    server = Lab(tmp_path, theme="JupyterLab Dark")
    try:
        yield server
    finally:
        server.stop()


def _local_only(route) -> None:
    if urlparse(route.request.url).hostname == "127.0.0.1":
        route.continue_()
    else:
        route.abort()


def run_all(page, lab: Lab, notebook: str = NOTEBOOK, workspace: str | None = None) -> None:
    """Open `notebook` and run every cell, once its kernel is there. In a `workspace` of its
    own, if named: a server shared by several tests then reopens no other test's notebook."""
    page.route("**/*", _local_only)
    where = f"workspaces/{workspace}/tree" if workspace else "tree"
    page.goto(f"{lab.url}/lab/{where}/{notebook}?token={lab.token}")
    # The execution indicator says "idle" before any kernel exists: wait for a named
    # kernel, or Run All is silently dropped.
    page.wait_for_function(
        """() => {
            const name = document.querySelector('.jp-NotebookPanel .jp-KernelName')
                || document.querySelector('.jp-KernelName');
            const text = name ? name.textContent.trim() : '';
            return text !== '' && text !== 'No Kernel';
        }""", timeout=90_000)
    page.wait_for_selector(".jp-Notebook-cell", timeout=30_000)
    run_all_cells(page)


def test_run_all_then_step_click_the_tree_and_ask_why(lab):
    ARTIFACTS.mkdir(exist_ok=True)
    with axe_checks() as no_serious_violations, \
            sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            run_all(page, lab)
            stepper = page.locator(".csp-stepper").first
            picture = stepper.locator(".csp-stepper-image svg")
            picture.wait_for(state="attached", timeout=120_000)
            stepper.scroll_into_view_if_needed()
            picture.wait_for(state="visible", timeout=30_000)
            page.screenshot(path=str(ARTIFACTS / "lab_before_steps.png"))

            # steps: the sentence and the picture change, in the page
            text = stepper.locator(".csp-stepper-text")
            step = stepper.locator("button[title^='step']")
            pictures = [picture.inner_html()]
            sentences = [text.inner_text()]
            assert sentences[0].startswith("start")
            for clicks in range(1, 5):
                step.click()
                wait_for_text(page, text, f"event {clicks} of")
                pictures.append(picture.inner_html())
                sentences.append(text.inner_text())
            stepper.screenshot(path=str(ARTIFACTS / "lab_stepper_after_steps.png"))
            assert len(set(pictures)) == len(pictures)
            assert len(set(sentences)) == len(sentences)
            # with the explorer focused, the arrow keys step (JupyterLab keeps out of it)
            stepper.press("ArrowLeft")
            wait_for_text(page, text, "event 3 of")
            stepper.press("ArrowRight")
            wait_for_text(page, text, "event 4 of")

            # why?: a click on an edge lists each removed value; a click on one goes there
            stepper.locator("button[title^='end']").click()
            wait_for_text(page, text, "solution found")
            stepper.locator(".cx-picture .cx-var").first.click()
            entry = stepper.locator(".cx-why li.cx-entry").first
            entry.wait_for(timeout=30_000)
            assert re.search(r"removed at event \d+ by ", entry.inner_text())
            target = entry.get_attribute("data-event")
            entry.click()
            wait_for_text(page, text, f"event {target} of")

            # the tree: the comparison's first run searched; a click on a node goes there
            comparison = page.locator(".csp-stepper", has=page.locator(".cx-runs .cx-run"))
            comparison.scroll_into_view_if_needed()
            node = comparison.locator(".cx-tree .cx-node").nth(2)
            start = node.get_attribute("data-start")
            node.click()
            wait_for_text(page, comparison.locator(".csp-stepper-text"), f"event {start} of")
            comparison.screenshot(path=str(ARTIFACTS / "lab_comparison_tree.png"))
            # JupyterLab Light: nothing serious either
            no_serious_violations(page, ".csp-stepper")
        finally:
            browser.close()


def test_dark_theme_keyboard_only_and_no_serious_violation(dark_lab):
    """JupyterLab Dark: axe finds nothing serious in the explorers; from the notebook, Tab
    reaches a tree node (Enter goes there) and a variable (its history is announced)."""
    from .pages import tab_until

    ARTIFACTS.mkdir(exist_ok=True)
    with axe_checks() as no_serious_violations, \
            sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            run_all(page, dark_lab)
            stepper = page.locator(".csp-stepper").first
            stepper.locator(".csp-stepper-image svg").wait_for(state="attached", timeout=180_000)
            stepper.scroll_into_view_if_needed()
            assert page.evaluate("() => document.body.dataset.jpThemeLight") == "false"
            stepper.screenshot(path=str(ARTIFACTS / "lab_dark_explorer.png"))
            no_serious_violations(page, ".csp-stepper")
            # keyboard only, from the notebook: the cell of an explorer that searched, then Tab
            comparison = page.locator(".csp-stepper", has=page.locator(".cx-runs .cx-run"))
            comparison.wait_for(timeout=180_000)
            comparison.scroll_into_view_if_needed()
            text = comparison.locator(".csp-stepper-text")
            comparison.locator(".cx-caption").first.click()
            tab_until(page, ".cx-tree .cx-node", most=60)
            page.keyboard.press("ArrowDown")
            start = page.evaluate("() => document.activeElement.dataset.start")
            page.keyboard.press("Enter")
            wait_for_text(page, text, f"event {start} of", timeout=30_000)
            live = comparison.locator(".cx-live")
            wait_for_text(page, live, f"event {start} of", timeout=30_000)
            page.keyboard.press("Shift+Tab")
            for _ in range(60):
                if page.evaluate("() => document.activeElement.matches('.cx-picture .cx-var')"):
                    break
                page.keyboard.press("Shift+Tab")
            else:
                raise AssertionError("Shift+Tab never reached a variable of the picture")
            name = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
            wait_for_text(page, live, name, timeout=30_000)
            comparison.screenshot(path=str(ARTIFACTS / "lab_dark_keyboard.png"))
        finally:
            browser.close()
