"""The JupyterLite site of the course in Chromium: a driver, and a benchmark of its timings.

    python -m csp_puzzles.bench.lite --pyodide PATH [--notebooks 00_start_here.ipynb ...]

Builds the site (`csp-puzzles lite` with a local Pyodide), serves it on 127.0.0.1, opens it
in Chromium with every request to another host aborted, and runs notebooks there cell by
cell in one kernel (each notebook in its own tab of the site, its names cleared first, so a
notebook sees only what it defines, as in a fresh kernel). Prints the site build time, the
time Pyodide took to boot (the first kernel ready), the time until the first notebook had
run, and each notebook's run time, with the machine's load. The offline test
(tests/browser/test_lite_site.py) drives the site with the same `Site` and `Tab`.

Needs Chromium at /usr/bin/chromium, the `playwright` package and the `lite` extra.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import socketserver
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]
#: generous: kernels took 17-90 s to start on a loaded 2-core machine
BOOT_TIMEOUT_MS = 600_000
CELL_TIMEOUT_MS = 600_000

#: the open notebook's kernel is ready (the app exposed as `window.jupyterapp`)
KERNEL_IDLE_JS = """(path) => {
    const app = window.jupyterapp;
    const panel = app && app.shell.currentWidget;
    const kernel = panel && panel.context && panel.context.path === path
        && panel.sessionContext.session && panel.sessionContext.session.kernel;
    return Boolean(kernel) && kernel.status === 'idle';
}"""
#: start running cell i of the open notebook; `window.cspCell` says when it is done
RUN_CELL_JS = """(i) => {
    const app = window.jupyterapp;
    const notebook = app.shell.currentWidget.content;
    notebook.activeCellIndex = i;
    window.cspCell = {done: false};
    app.commands.execute('notebook:run-cell').then(
        () => { window.cspCell.done = true; },
        (error) => { window.cspCell = {done: true, failed: String(error)}; });
}"""
#: what cell i left: its error outputs, its printed text, its tags
CELL_JS = """(i) => {
    const cell = window.jupyterapp.shell.currentWidget.content.widgets[i];
    const outputs = cell.model.outputs ? cell.model.outputs.toJSON() : [];
    return {type: cell.model.type,
            errors: outputs.filter((o) => o.output_type === 'error')
                           .map((o) => o.ename + ': ' + o.evalue),
            text: outputs.filter((o) => o.output_type === 'stream').map((o) => o.text).join(''),
            tags: cell.model.getMetadata('tags') || []};
}"""
#: run code in the open notebook's kernel without a cell (clearing its names, moving it)
HIDDEN_JS = """async (code) => {
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const future = kernel.requestExecute({code, silent: true, store_history: false});
    const reply = await future.done;
    return reply.content.status;
}"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:  # one line a file: the page asks for hundreds
        pass


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a browser that drops a connection it no longer needs (a 404 it gave up on)


class Site:
    """A folder served on 127.0.0.1 (a thread of this process), for as long as it is open."""

    def __init__(self, folder: Path):
        handler = functools.partial(_Quiet, directory=str(folder))
        self.server = _Server(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@dataclass
class NotebookRun:
    """What running one notebook left: cells with errors, skip notes, seconds."""

    path: str
    cells: int = 0
    errors: list[tuple[int, list[str]]] = field(default_factory=list)
    expected_errors: int = 0  # in cells tagged raises-exception (stubs a student fills in)
    texts: list[str] = field(default_factory=list)
    seconds: float = 0.0


class Tab:
    """The site open in Chromium, every request to another host aborted (and counted)."""

    def __init__(self, browser: Any, site: Site):
        self.site = site
        self.blocked: list[str] = []
        self.page = browser.new_page(viewport={"width": 1400, "height": 1000})
        self.page.route("**/*", self._only_the_site)
        self.kernel_id: str | None = None

    def _only_the_site(self, route: Any) -> None:
        if urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def open(self, path: str) -> float:
        """Open the notebook at `path` (under the site's files); the first one starts the
        kernel, the others share it. Returns the seconds until its kernel was ready."""
        started = time.perf_counter()
        if self.kernel_id is None:
            self.page.goto(f"{self.site.url}/lab/index.html?path={path}")
        else:
            self.page.evaluate("async ([path, id]) => { await window.jupyterapp.commands"
                               ".execute('docmanager:open', {path, kernel: {id}}); }",
                               [path, self.kernel_id])
        self.page.wait_for_function(KERNEL_IDLE_JS, arg=path, timeout=BOOT_TIMEOUT_MS)
        self.kernel_id = self.page.evaluate(
            "window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.id")
        folder = "/drive/" + path.rsplit("/", 1)[0] if "/" in path else "/drive"
        status = self.page.evaluate(HIDDEN_JS, f"%reset -f\nimport os\nos.chdir({folder!r})")
        if status != "ok":
            raise RuntimeError(f"could not clear the kernel for {path}: {status}")
        return time.perf_counter() - started

    def run(self, path: str) -> NotebookRun:
        """Open the notebook and run its code cells in order, each to its end."""
        run = NotebookRun(path)
        started = time.perf_counter()
        self.open(path)
        count = self.page.evaluate("window.jupyterapp.shell.currentWidget.content.widgets.length")
        for i in range(count):
            if self.page.evaluate(CELL_JS, i)["type"] != "code":
                continue
            self.page.evaluate(RUN_CELL_JS, i)
            self.page.wait_for_function("window.cspCell.done", timeout=CELL_TIMEOUT_MS)
            cell = self.page.evaluate(CELL_JS, i)
            run.cells += 1
            run.texts.append(cell["text"])
            if cell["errors"] and "raises-exception" in cell["tags"]:
                run.expected_errors += 1
            elif cell["errors"]:
                run.errors.append((i, cell["errors"]))
        run.seconds = time.perf_counter() - started
        return run


def build(pyodide: Path, target: Path) -> float:
    """Build the site into `target`; returns the seconds it took."""
    from ..teaching.lite import build_site

    started = time.perf_counter()
    build_site(target, pyodide)
    return time.perf_counter() - started


def measure(pyodide: Path, notebooks: list[str]) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        seconds = {"site build": build(pyodide, Path(scratch) / "site")}
        site = Site(Path(scratch) / "site")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                tab = Tab(browser, site)
                seconds["Pyodide boot (first kernel ready)"] = tab.open(notebooks[0])
                runs = [tab.run(path) for path in notebooks]
                seconds["first notebook run (after the boot)"] = runs[0].seconds
                browser.close()
        finally:
            site.close()
    return {"seconds": seconds, "runs": runs, "blocked": tab.blocked}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m csp_puzzles.bench.lite",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--pyodide", required=True, type=Path,
                        help="the npm package pyodide@314.0.6, unpacked")
    parser.add_argument("--notebooks", nargs="+", default=["notebooks/00_start_here.ipynb"])
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        parser.exit(2, f"no Chromium at {CHROMIUM}\n")
    found = measure(args.pyodide, args.notebooks)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"JupyterLite site in Chromium; load average {load} on {os.cpu_count()} cores")
    for what, seconds in found["seconds"].items():
        print(f"{what:<40}{seconds:8.1f} s")
    for run in found["runs"]:
        print(f"{run.path:<40}{run.seconds:8.1f} s  {run.cells} cells, "
              f"{len(run.errors)} with errors")
    print(json.dumps({"blocked requests": len(found["blocked"])}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
