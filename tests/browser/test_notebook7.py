"""A real browser in Notebook 7 (the `notebook` package): run the first notebook, step.

The README says which front ends the explorer is tested in; this is the Notebook 7 one
(JupyterLab's is test_lab.py). The server runs on 127.0.0.1 with a token, on a copy of the
student course with autosave off; every request to another host is aborted. A screenshot
goes to tests/artifacts/. Skipped cleanly without Chromium, playwright or `notebook`.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest

from .pages import ARTIFACTS, CHROMIUM, launch, local_only, run_all_cells, wait_for_text

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("notebook", reason="Notebook 7 (the notebook package)")

NOTEBOOK = "notebooks/00_start_here.ipynb"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`jupyter notebook` on a fresh copy of the student course, stopped by its PID."""

    def __init__(self, root: Path):
        from csp_puzzles.teaching.course import write_course

        write_course(root / "course")
        self.token, self.port = secrets.token_hex(16), _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        settings = root / "settings" / "@jupyterlab" / "docmanager-extension"
        settings.mkdir(parents=True)
        (settings / "plugin.jupyterlab-settings").write_text(json.dumps({"autosave": False}))
        env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(root / "settings"),
                   JUPYTER_RUNTIME_DIR=str(root / "runtime"))
        command = [str(Path(sys.executable).parent / "jupyter"), "notebook", "--no-browser",
                   "--ip", "127.0.0.1", f"--port={self.port}",
                   f"--IdentityProvider.token={self.token}",
                   f"--ServerApp.root_dir={root / 'course'}"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-root")
        self.log = open(root / "notebook.log", "w")  # closed in stop()
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT,
                                        env=env, cwd=root / "course")
        deadline = time.monotonic() + 120
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("jupyter notebook did not start; see its log")
            time.sleep(0.5)

    def _answers(self) -> bool:
        try:
            urllib.request.urlopen(f"{self.url}/api/status?token={self.token}", timeout=5)
            return True
        except OSError:
            return False

    def stop(self) -> None:
        with suppress(OSError):
            api = f"{self.url}/api/kernels"
            with urllib.request.urlopen(f"{api}?token={self.token}", timeout=10) as answer:
                for kernel in json.loads(answer.read()):
                    urllib.request.urlopen(urllib.request.Request(
                        f"{api}/{kernel['id']}?token={self.token}", method="DELETE"),
                        timeout=10).close()
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


@pytest.fixture
def server(tmp_path) -> Iterator[Server]:
    running = Server(tmp_path)
    try:
        yield running
    finally:
        running.stop()


def test_notebook7_runs_the_first_notebook_and_its_explorer_steps(server):
    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 1000})
            page.route("**/*", local_only)
            page.goto(f"{server.url}/notebooks/{NOTEBOOK}?token={server.token}")
            # Run All is dropped until a kernel exists: wait for its name in the header
            page.wait_for_function("""() => {
                const name = document.querySelector('.jp-KernelName');
                const text = name ? name.textContent.trim() : '';
                return text !== '' && !/no kernel/i.test(text);
            }""", timeout=120_000)
            page.wait_for_selector(".jp-Notebook-cell", timeout=30_000)
            run_all_cells(page)
            explorer = page.locator(".csp-stepper").first
            explorer.wait_for(timeout=180_000)
            explorer.scroll_into_view_if_needed()
            text = explorer.locator(".csp-stepper-text")
            before = explorer.inner_html()
            explorer.locator("button[title^='step']").click()
            wait_for_text(page, text, "event 1 of")
            assert explorer.inner_html() != before
            ARTIFACTS.mkdir(exist_ok=True)
            explorer.screenshot(path=str(ARTIFACTS / "notebook7_explorer.png"))
        finally:
            browser.close()
