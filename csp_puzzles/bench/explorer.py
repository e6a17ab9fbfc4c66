"""How fast the trace explorer answers in Chromium: a benchmark, not a test.

    python -m csp_puzzles.bench.explorer [--parts steps,long] [--clicks 20] [--hashi ID]

Part `playground`: a 15x15 Hashi playground in JupyterLab, the kernel in the loop, over
`--clicks` clicks (a value, then undo), with the load: click to changed picture (the page
shows at once what it knows: the value chosen, or the state before the last action), and
click to the kernel's answer drawn (propagation, the words), median and worst.

Part `lab`: the long traces' steppers in JupyterLab: from running the cell (the trace made
before) to the first picture, the kernel's build and the sending included.

Part `long`: a long trace (14-queens with no inference, 77,573 events, and 20-queens cut at
the 200,000-event cap): the `Stepper` built in Python, the size sent to the page, the time
from opening the page to the first picture, and stepping there (click to changed picture).

For a 15x15 Hashi trace and a 9x9 Sudoku trace, on the page `csp-puzzles export` writes (the
same ES module JupyterLab runs; the kernel is not in the loop of a step):

- click to changed picture, median and worst over `--clicks` clicks on "step", timed inside
  the page from the click to the next frame after the picture changed (and the script's own
  work in that time), and end to end from Playwright (mouse click to the sentence read back,
  the browser protocol's round trips included);
- play at 20 events/s: the rate reached over 3 seconds, and the events shown after pause;
- for comparison, the kernel's work per step on the matplotlib PNG path (the only path before,
  still the one of a custom `draw` function), network and browser not included.

Needs Chromium at /usr/bin/chromium and the `playwright` package; prints the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..core import solve
from ..examples import sudoku
from ..hashi import parse as parse_hashi
from ..viz import Stepper, puzzle_view, sudoku_view
from ..viz.export import standalone_page

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]
#: a 15x15 Tatham Bridges game, solved with forward checking in input order so it searches
HASHI_15 = ("15x15m2:1d2h2a2a4c4d3f3d3a1a1f2b3c2f3d4c2f4b3b1b3i6b3v2r2b1f2c4e5c3b4b3c1b3l5p3"
            "a4j4")
SUDOKU = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
PLAY_RATE = 20  # events per second
PLAY_SECONDS = 3.0

#: in the page: click "step" n times, each time waiting for the picture to change and the
#: next frame; returns the milliseconds of each click, and of the script's work alone
CLICKS_JS = """async ([index, n]) => {
    const root = document.querySelectorAll('.csp-stepper')[index];
    const step = root.querySelector("button[title^='step']");
    const picture = root.querySelector('.cx-picture');
    const times = [], work = [];
    for (let i = 0; i < n; i++) {
        const changed = new Promise((resolve) => {
            const watch = new MutationObserver(() => {
                watch.disconnect();
                requestAnimationFrame(() => resolve(performance.now()));
            });
            watch.observe(picture, {subtree: true, childList: true, attributes: true,
                                    characterData: true});
        });
        const start = performance.now();
        step.click();
        work.push(performance.now() - start);
        times.push((await changed) - start);
    }
    return [times, work];
}"""

#: in the page: play at `rate` for `seconds`, pause, and count events shown after the pause
PLAY_JS = """async ([index, rate, seconds]) => {
    const root = document.querySelectorAll('.csp-stepper')[index];
    const slider = root.querySelector('input[type=range]');
    const speed = root.querySelector("select[title='events per second']");
    const play = root.querySelector("button[title='play / pause']");
    speed.value = String(rate);
    const position = () => Number(slider.value);
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const start = position();
    const t0 = performance.now();
    play.click();
    while (performance.now() - t0 < seconds * 1000) await frame();
    const played = position() - start;
    const elapsed = (performance.now() - t0) / 1000;
    play.click();  // pause
    const paused = position();
    const t1 = performance.now();
    while (performance.now() - t1 < 1000) await frame();
    return {rate: played / elapsed, after_pause: position() - paused};
}"""


def traces(hashi_id: str) -> dict[str, Stepper]:
    """The two explorers measured: a 15x15 Hashi and a 9x9 Sudoku, each searching."""
    puzzle = parse_hashi(hashi_id)
    grid = sudoku(SUDOKU)
    givens = {v: d[0] for v, d in grid.domains.items() if len(d) == 1}
    hashi_trace = puzzle.solve(trace=True, inference="fc", var_order="input").trace
    sudoku_trace = solve(grid, inference="fc", var_order="mrv", trace=True).trace
    assert hashi_trace is not None and sudoku_trace is not None  # trace=True records one
    return {
        "hashi 15x15": Stepper(hashi_trace, puzzle_view(puzzle)),
        "sudoku 9x9": Stepper(sudoku_trace, sudoku_view(givens)),
    }


def png_path_ms(widget: Stepper, steps: int = 5) -> list[float]:
    """The kernel's own work per step on the matplotlib path (what every step cost before,
    and what a custom `draw(ax, domains, event)` still costs): draw the state, encode a PNG."""
    view = widget.draw
    png = Stepper(widget.trace, lambda ax, domains, event: view(ax, domains, event))
    times = []
    for position in range(1, steps + 1):
        started = time.perf_counter()
        png.go(position)
        times.append((time.perf_counter() - started) * 1000)
    return times


def measure(explorers: dict[str, Stepper], clicks: int) -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        page_file = Path(folder) / "explorers.html"
        page_file.write_text(standalone_page(list(explorers.values())), encoding="utf-8")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.route("**/*", lambda route: route.continue_()
                       if route.request.url.startswith("file:") else route.abort())
            page.goto(page_file.as_uri())
            page.wait_for_selector(".csp-stepper")
            for index, (name, widget) in enumerate(explorers.items()):
                in_page, work = page.evaluate(CLICKS_JS, [index, clicks])
                root = page.locator(".csp-stepper").nth(index)
                root.scroll_into_view_if_needed()
                text = root.locator(".csp-stepper-text")
                step = root.locator("button[title^='step']")
                end_to_end = []
                for _ in range(clicks):
                    before = text.inner_text()
                    started = time.perf_counter()
                    step.click()
                    page.wait_for_function("([e, b]) => e.textContent !== b",
                                           arg=[text.element_handle(), before])
                    end_to_end.append((time.perf_counter() - started) * 1000)
                root.locator("button[title^='first']").click()
                played = page.evaluate(PLAY_JS, [index, PLAY_RATE, PLAY_SECONDS])
                rows.append({"trace": name, "events": len(widget.trace), "png": png_path_ms(widget),
                             "variables": len(widget.trace.variables),
                             "in_page": in_page, "work": work, "end_to_end": end_to_end,
                             **played})
            browser.close()
    return rows


#: in the page: milliseconds from the start of navigation to the first picture and sentence
FIRST_PICTURE_JS = """() => new Promise((resolve) => {
    const ready = () => {
        const root = document.querySelector('.csp-stepper');
        const text = root && root.querySelector('.csp-stepper-text');
        if (root && root.querySelector('.cx-picture svg .cx-var') && text && text.textContent) {
            resolve(performance.now());
        } else {
            requestAnimationFrame(ready);
        }
    };
    ready();
})"""


def long_traces() -> list[tuple[str, Any]]:
    """The two long traces: 14-queens (no inference) and 20-queens cut at the cap."""
    from ..examples import queens

    made = []
    for n in (14, 20):
        result = solve(queens(n), inference="none", var_order="input", trace=True)
        assert result.trace is not None
        made.append((f"{n}-queens, no inference", result.trace))
    return made


def measure_long(clicks: int) -> list[dict[str, Any]]:
    """Build each long trace's stepper (best of 3), then time its page to the first picture
    and its steps."""
    import json

    from playwright.sync_api import sync_playwright

    from ..viz import queens_view

    rows = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for name, trace in long_traces():
            view = queens_view(len(trace.variables))
            builds = []
            for _ in range(3):
                started = time.perf_counter()
                widget = Stepper(trace, view)
                builds.append(time.perf_counter() - started)
            sent = len(json.dumps(widget.data))
            page_file = Path(folder) / "long.html"
            page_file.write_text(standalone_page([widget]), encoding="utf-8")
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.route("**/*", lambda route: route.continue_()
                       if route.request.url.startswith("file:") else route.abort())
            page.goto(page_file.as_uri(), wait_until="commit")
            first = page.evaluate(FIRST_PICTURE_JS)
            in_page, work = page.evaluate(CLICKS_JS, [0, clicks])
            page.locator("input[type=range]").fill(str(len(trace) // 2))
            started = time.perf_counter()
            page.locator("button[title^='end']").click()
            page.wait_for_function("() => document.querySelector('.csp-stepper-text')"
                                   ".textContent.includes('solution') || document.querySelector"
                                   "('.csp-stepper-text').textContent.includes('event "
                                   f"{len(trace)} of')")
            to_end = (time.perf_counter() - started) * 1000
            rows.append({"trace": name, "events": len(trace), "build": min(builds),
                         "sent": sent, "first": first, "in_page": in_page, "work": work,
                         "end": to_end})
            page.close()
        browser.close()
    return rows


def report_long(rows: list[dict[str, Any]]) -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [f"long traces; load average {load} on {os.cpu_count()} cores",
             f"{'trace':<26}{'events':>8}  {'build s':>7}  {'sent MB':>7}  "
             f"{'first picture ms':>16}  {'step ms (median/worst)':>22}  {'middle→end ms':>13}"]
    for row in rows:
        steps = row["in_page"]
        lines.append(f"{row['trace']:<26}{row['events']:>8}  {row['build']:>7.2f}  "
                     f"{row['sent'] / 1e6:>7.1f}  {row['first']:>16.0f}  "
                     f"{statistics.median(steps):>11.1f} / {max(steps):<8.1f}  "
                     f"{row['end']:>13.0f}")
    return "\n".join(lines)


def report(rows: list[dict[str, Any]]) -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [f"explorer in Chromium; load average {load} on {os.cpu_count()} cores",
             f"{'trace':<13}{'events':>7}{'vars':>6}  {'click→picture ms (median/worst)':>32}"
             f"  {'script ms':>9}"
             f"  {'end-to-end ms':>15}  {'play 20/s reached':>17}  {'after pause':>11}"
             f"  {'kernel PNG ms':>13}"]
    for row in rows:
        inside, outside = row["in_page"], row["end_to_end"]
        lines.append(
            f"{row['trace']:<13}{row['events']:>7}{row['variables']:>6}  "
            f"{statistics.median(inside):>20.1f} / {max(inside):<9.1f}"
            f"  {statistics.median(row['work']):>9.1f}"
            f"  {statistics.median(outside):>7.1f} / {max(outside):<6.1f}"
            f"  {row['rate']:>12.1f} ev/s  {row['after_pause']:>11}"
            f"  {statistics.median(row['png']):>13.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m csp_puzzles.bench.explorer",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="steps,long",
                        help="comma-separated: steps (explorer clicks), long (long traces), "
                             "playground (clicks with a kernel), lab (long traces in "
                             "JupyterLab)")
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--hashi", default=HASHI_15, metavar="TATHAM_ID")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        parser.exit(2, f"no Chromium at {CHROMIUM}\n")
    parts = args.parts.split(",")
    if "steps" in parts:
        print(report(measure(traces(args.hashi), args.clicks)))
    if "long" in parts:
        print(report_long(measure_long(args.clicks)))
    if "playground" in parts:
        print(report_playground(measure_playground(args.hashi, args.clicks)))
    if "lab" in parts:
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"long traces in JupyterLab; load average {load} on {os.cpu_count()} cores")
        for row in measure_long_in_lab():
            print(f"{row['trace']:<26} run the cell to the first picture: {row['first']:.0f} ms")
    return 0



# -- the playground, with a running kernel ---------------------------------------------------
#: in the page: `n` clicks on the playground, a value button (an assignment) then undo, each
#: timed from the click to the next frame after the picture changed (the kernel answers in
#: between: the page sends the action, the kernel acts and sends the new state)
PLAYGROUND_CLICKS_JS = """async ([n]) => {
    const root = document.querySelector('.csp-playground');
    const picture = root.querySelector('.cx-picture');
    const changed = () => new Promise((resolve) => {
        const watch = new MutationObserver(() => {
            watch.disconnect();
            requestAnimationFrame(() => resolve(performance.now()));
        });
        watch.observe(picture, {subtree: true, childList: true, attributes: true,
                                characterData: true});
    });
    const answer = root.querySelector('.cx-answer');
    const answered = () => new Promise((resolve) => {
        const watch = new MutationObserver(() => {
            watch.disconnect();
            requestAnimationFrame(() => resolve(performance.now()));
        });
        watch.observe(answer, {subtree: true, childList: true, characterData: true});
    });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
    const times = [], answers = [];
    for (let i = 0; i < n; i++) {
        let button;
        if (i % 2 === 0) {
            const shapes = root.querySelectorAll('.cx-picture [data-var]');
            shapes[Math.floor(i / 2) % shapes.length].dispatchEvent(
                new MouseEvent('click', {bubbles: true}));
            button = root.querySelector('.cx-values button[data-value]');
        } else {
            button = root.querySelector("button[title^='undo']");
        }
        const done = changed(), said = answered();
        const start = performance.now();
        button.click();
        times.push((await done) - start);
        answers.push((await said) - start);
        await settle();
    }
    return [times, answers];
}"""


@contextmanager
def lab_page(cells: list[str]) -> Iterator[Any]:
    """A JupyterLab on a temporary folder holding one notebook of `cells`, opened in
    Chromium and run: yields the page (the server stops after)."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        _write_notebook(root / "bench.ipynb", cells)
        server, url, token = _start_lab(root)
        try:
            _wait_until_up(url, token)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                page = browser.new_page(viewport={"width": 1300, "height": 1200})
                page.goto(f"{url}/lab/tree/bench.ipynb?token={token}")
                page.wait_for_function("() => { const k = document.querySelector("
                                       "'.jp-KernelName'); return k && k.textContent.trim() "
                                       "&& k.textContent.trim() !== 'No Kernel'; }",
                                       timeout=120_000)
                yield page
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)


def _write_notebook(path: Path, cells: list[str]) -> None:
    """A notebook of code `cells`, never run."""
    import json

    notebook = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}",
                           "metadata": {}, "outputs": [], "source": source}
                          for i, source in enumerate(cells)],
                "metadata": {"kernelspec": {"name": "python3", "language": "python",
                                            "display_name": "Python 3"}},
                "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(notebook), encoding="utf-8")


def _start_lab(root: Path) -> tuple[subprocess.Popen, str, str]:
    """A JupyterLab starting to serve `root` on a free port, its settings (no autosave) in
    `root`: the server, its address and its token."""
    import json
    import secrets
    import shutil
    import socket
    import sys

    settings = root / "settings" / "@jupyterlab" / "docmanager-extension"
    settings.mkdir(parents=True)
    (settings / "plugin.jupyterlab-settings").write_text(json.dumps({"autosave": False}))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    token = secrets.token_hex(16)
    jupyter = shutil.which("jupyter", path=str(Path(sys.executable).parent)) or "jupyter"
    command = [jupyter, "lab", "--no-browser", "--ip", "127.0.0.1", f"--port={port}",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(root / "settings"),
               JUPYTER_RUNTIME_DIR=str(root / "runtime"))
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env=env, cwd=root)
    return server, f"http://127.0.0.1:{port}", token


def _wait_until_up(url: str, token: str) -> None:
    """Poll the server at `url` until it answers (300 tries, 0.3 s apart)."""
    import urllib.request

    for _ in range(300):
        try:
            urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2).close()
            return
        except OSError:
            time.sleep(0.3)


def run_all(page: Any, ready: str) -> None:
    """Run every cell (again if the first Run All was dropped) until `ready` is in the page."""
    started = ("() => Array.from(document.querySelectorAll('.jp-InputPrompt'))"
               ".some((p) => /\\[[0-9*]+\\]/.test(p.textContent))")
    for attempt in range(4):
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.get_by_text("Run All Cells", exact=True).click()
        try:
            page.wait_for_function(started, timeout=30_000)
            page.wait_for_selector(ready, timeout=300_000)
            return
        except Exception:  # Playwright's timeout: a Run All sent too early is dropped
            if attempt == 3:
                raise


def measure_playground(hashi_id: str, clicks: int) -> dict[str, Any]:
    """A 15x15 Hashi playground in JupyterLab: click to changed picture with the kernel in
    the loop, median and worst of `clicks` clicks."""
    cells = ["from csp_puzzles import hashi\nfrom csp_puzzles.viz import Playground",
             f"Playground(hashi.parse({hashi_id!r}), title='hashi 15x15')"]
    with lab_page(cells) as page:
        run_all(page, ".csp-playground .cx-picture svg")
        page.locator(".csp-playground").scroll_into_view_if_needed()
        times, answers = page.evaluate(PLAYGROUND_CLICKS_JS, [clicks])
    return {"clicks": times, "answers": answers}


def measure_long_in_lab() -> list[dict[str, Any]]:
    """The long traces' steppers in JupyterLab: from running the cell (the trace already
    made) to the first picture in the page, the kernel's build and sending included."""
    rows = []
    for n, label in ((14, "14-queens, no inference"), (20, "20-queens, no inference")):
        cells = ["from csp_puzzles.core import solve\nfrom csp_puzzles.examples import queens\n"
                 "from csp_puzzles.viz import Stepper, queens_view\n"
                 f"trace = solve(queens({n}), inference='none', var_order='input', "
                 "trace=True).trace",
                 f"Stepper(trace, queens_view({n}))"]
        with lab_page(cells) as page:
            run_all(page, ".csp-stepper .cx-picture svg .cx-var")
            page.evaluate("() => document.querySelectorAll('.csp-stepper').forEach("
                          "(e) => e.remove())")
            page.locator(".jp-Notebook-cell .jp-InputPrompt").last.click()  # its cell
            started = time.perf_counter()
            page.keyboard.press("Shift+Enter")  # run it again
            page.wait_for_selector(".csp-stepper .cx-picture svg .cx-var", timeout=300_000)
            rows.append({"trace": label, "first": (time.perf_counter() - started) * 1000})
    return rows


def report_playground(row: dict[str, Any]) -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    times, answers = row["clicks"], row["answers"]
    return (f"playground (15x15 Hashi, JupyterLab, kernel in the loop); load average {load} "
            f"on {os.cpu_count()} cores; {len(times)} clicks (a value assigned, then undo)\n"
            f"click to changed picture: median {statistics.median(times):.1f} ms, worst "
            f"{max(times):.1f} ms\n"
            f"click to the kernel's answer in the page (propagation drawn, words said): "
            f"median {statistics.median(answers):.1f} ms, worst {max(answers):.1f} ms")


if __name__ == "__main__":
    raise SystemExit(main())
