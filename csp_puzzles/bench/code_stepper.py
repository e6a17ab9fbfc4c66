"""What the code stepper costs: a benchmark, not a test.

    python -m csp_puzzles.bench.code_stepper [--parts overhead,long] [--clicks 20] [--runs 5]

Part `overhead`: the textbook search (`core/textbook.py`, figure 6.5) on 8 queens, input
order, with each inference, run plainly and run under the recorder (`viz/recorder.py`,
`sys.settrace`): median seconds of `--runs` runs each, the ratio, the lines recorded and the
cost of one recorded line.

Part `long`: a recording of 100,000 lines (14-queens with no inference, stopped at the cap):
the recording itself, then building the stepper from it (the page's data packed, the widget
made), the size sent to the page; then, on the page `csp-puzzles export` would write, the
time from opening it to the first line marked, and in the page, click to next frame for
`--clicks` steps and for each jump (median and worst).

Needs Chromium at /usr/bin/chromium and the `playwright` package for the page; prints the
machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..core.textbook import backtracking_search
from ..examples import queens
from ..viz import queens_view
from ..viz.code_page import page_data
from ..viz.export import standalone_page
from ..viz.recorder import record

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]
LONG_LINES = 100_000

#: in the page: press a control `n` times, each time timing from the click to the next frame
#: after the marked line moved, and the script's own work; the milliseconds of each press
PRESS_JS = """async ([title, n]) => {
    const root = document.querySelector('.csp-code-stepper');
    const button = root.querySelector(`button[title^='${title}']`);
    const text = root.querySelector('.csp-stepper-text');
    const times = [], work = [];
    for (let i = 0; i < n; i++) {
        const before = text.textContent;
        const start = performance.now();
        button.click();
        work.push(performance.now() - start);
        await new Promise((resolve) => requestAnimationFrame(resolve));
        if (text.textContent === before) { work.pop(); break; }  // nothing of that kind ahead
        times.push(performance.now() - start);
    }
    return [times, work];
}"""


def timed(call: Callable[[], Any], runs: int) -> float:
    """The median seconds of `runs` calls."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def overhead(runs: int) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for inference in ("none", "fc", "mac"):
        arguments = (queens(8), "input", "input", inference)

        def plainly(a: tuple = arguments) -> Any:
            return backtracking_search(*a)

        def recording(a: tuple = arguments) -> Any:
            return record(backtracking_search, a)

        plain, recorded = timed(plainly, runs), timed(recording, runs)
        lines = len(record(backtracking_search, arguments))
        rows.append((f"8-queens, {inference}", f"{plain * 1000:.1f} ms",
                     f"{recorded * 1000:.0f} ms", f"{recorded / plain:.0f}x", str(lines),
                     f"{(recorded - plain) / lines * 1e6:.1f} µs"))
    return rows


def long_run(clicks: int) -> list[tuple[str, str]]:
    from ..viz.code_stepper import CodeStepper

    started = time.perf_counter()
    recording = record(backtracking_search, (queens(14), "input", "input", "none"),
                       max_lines=LONG_LINES)
    recorded = time.perf_counter() - started
    view = queens_view(14)
    packing = timed(lambda: page_data(recording, view), 3)
    started = time.perf_counter()
    stepper = CodeStepper.replay(recording, view=view, problem=queens(14))
    built = time.perf_counter() - started
    sent = sum(len(str(value)) for value in stepper.data.values())
    rows = [("lines recorded", f"{len(recording):,} (cut: {recording.truncated})"),
            ("recording (the search under sys.settrace)", f"{recorded:.2f} s"),
            ("packing the page's data", f"{packing:.2f} s"),
            ("building the stepper from the recording", f"{built:.2f} s"),
            ("sent to the page", f"{sent / 1e6:.1f} MB")]
    if Path(CHROMIUM).exists():
        rows += in_the_page(stepper, clicks)
    return rows


def in_the_page(stepper: Any, clicks: int) -> list[tuple[str, str]]:
    from playwright.sync_api import sync_playwright

    rows = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        page_file = Path(folder) / "code.html"
        page_file.write_text(standalone_page([stepper]), encoding="utf-8")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 1000})
            page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
                "file:") else route.abort())
            started = time.perf_counter()
            page.goto(page_file.as_uri())
            page.wait_for_selector(".csp-code [aria-current='step']", timeout=120_000)
            rows.append(("page opened to the first line marked",
                         f"{time.perf_counter() - started:.2f} s"))
            for label, title, n in (("step", "step", clicks), ("back", "back", clicks),
                                    ("next call", "call:", clicks),
                                    ("next shrink", "shrink:", clicks),
                                    ("next return", "return:", clicks),
                                    ("end (the last step)", "end", 1),
                                    ("first (from the end)", "first", 1)):
                times, work = page.evaluate(PRESS_JS, [title, n])
                rows.append((f"{label}: click to next frame (script's work)",
                             f"median {statistics.median(times):.1f} ms "
                             f"({statistics.median(work):.1f} ms), worst {max(times):.1f} ms "
                             f"({max(work):.1f} ms), {len(times)} clicks" if times else "none"))
        finally:
            browser.close()
    return rows


def table(title: str, header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    lines = [title, "  ".join(h.ljust(w) for h, w in zip(header, widths))]
    lines += ["  ".join(str(c).ljust(w) for c, w in zip(row, widths)) for row in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m csp_puzzles.bench.code_stepper")
    parser.add_argument("--parts", default="overhead,long")
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    parts = args.parts.split(",")
    print(f"load average: {os.getloadavg()[0]:.1f} (1 min), {os.cpu_count()} cores",
          file=sys.stderr)
    if "overhead" in parts:
        print(table("the recording's overhead: the textbook search, plain and recorded",
                    ("run", "plain", "recorded", "ratio", "lines", "per line"),
                    overhead(args.runs)))
    if "long" in parts:
        print(table(f"{LONG_LINES:,} recorded lines", ("what", "measured"), long_run(args.clicks)))
    print(f"load average after: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
