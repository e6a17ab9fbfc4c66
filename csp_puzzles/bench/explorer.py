"""How fast the trace explorer answers in Chromium: a benchmark, not a test.

    python -m csp_puzzles.bench.explorer [--parts steps,long] [--clicks 20] [--hashi ID]

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
import tempfile
import time
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
                        help="comma-separated: steps (explorer clicks), long (long traces)")
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
