"""The JupyterLab `make lab` and `make lab-instructor` open: no error, the right tools.

Each starts from this environment as its make target starts it (the command read from the
Makefile with `make -n`: `make lab` adds the student's configuration, etc/student-lab) and
opens in Chromium, every request to another host aborted. Until the launcher shows, the
browser console logs no error and the page throws none; a screenshot of each goes to
tests/artifacts/. The student's menu bar has no Nbgrader menu, even with nbgrader installed
(`make test` and `make lab-instructor` install it into the same .venv); the instructor's
has it whenever nbgrader is installed. An environment holding the `lite` extra fails the
check: JupyterLite's kernel extension cannot load in JupyterLab (the Makefile keeps it in
.venv-lite).
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

from .pages import ARTIFACTS, CHROMIUM, REPO, launch, local_only
from .test_lab import Lab

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (/usr/bin/chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


def launch_environment(target: str) -> dict[str, str]:
    """The variables `make TARGET` sets on the line that starts JupyterLab."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed: the Makefile's commands cannot be read")
    venv = Path(sys.prefix)
    done = subprocess.run(["make", "-n", "-o", str(venv / f".installed-{target.split('-')[-1]}"),
                           target, f"VENV={venv}"],
                          cwd=REPO, capture_output=True, text=True, check=True)
    line = next(line for line in done.stdout.splitlines() if "/jupyter lab" in line)
    words = shlex.split(line)
    return dict(word.split("=", 1) for word in words[:words.index(next(
        w for w in words if w.endswith("/jupyter")))])


def on_load(lab: Lab, name: str) -> tuple[list[str], list[str]]:
    """The console's errors (and the page's) until the launcher shows; the menu bar."""
    errors: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 800})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.route("**/*", local_only)
            page.goto(f"{lab.url}/lab?token={lab.token}")
            page.locator(".jp-LauncherCard").first.wait_for(timeout=180_000)
            menus = page.locator(".lm-MenuBar-itemLabel").all_inner_texts()
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{name}_on_load.png"))
        finally:
            browser.close()
    return errors, menus


@pytest.mark.parametrize("target", ["lab", "lab-instructor"])
def test_jupyterlab_as_make_opens_it_logs_no_error(target, tmp_path):
    lab = Lab(tmp_path, env=launch_environment(target))
    try:
        errors, menus = on_load(lab, target.replace("-", "_"))
    finally:
        lab.stop()
    assert errors == []
    assert "File" in menus
    if target == "lab":
        assert "Nbgrader" not in menus
    elif find_spec("nbgrader") is not None:
        assert "Nbgrader" in menus
