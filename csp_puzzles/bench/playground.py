"""How fast the playground answers a gesture, in Chromium: a benchmark, not a test.

    csp-puzzles bench playground [--busy 2] [--hashi ID] [--lite PYODIDE]

Each of the four puzzles is played to the end in JupyterLab by its own gestures (Bridges
dragged, Singles clicked, Towers and Kakuro typed: `gestures`), one gesture a move, each
made once the page has drawn the kernel's answer to the one before. The page keeps when
each gesture happened (the event's own time: pointer up, key down) and when it drew what
followed (`.csp-playground`'s `cspTimings`):

- gesture to the changed picture: the page's own drawing of the move (before any answer),
  to the next frame after it;
- gesture to the kernel's answer drawn: the kernel's state applied, to the next frame after.

Medians and maxima, per puzzle and over all, with `--busy N` processes spinning (two: the
load of 2 the figures are quoted at). The answer's time is also split: the round trip (the
action sent, the kernel's state received) and the page's drawing of it. `--lite PYODIDE`
also builds the course's JupyterLite site with that Pyodide folder and plays the
playgrounds of notebooks 03-06 there (the kernel in the browser, nothing installed).

Needs Chromium at /usr/bin/chromium, the `playwright` package and JupyterLab.
"""

from __future__ import annotations

import argparse
import os
import statistics
from collections.abc import Sequence
from contextlib import nullcontext
from typing import Any

from ..puzzle import picture as pic
from ..puzzle.protocol import Puzzle
from ..puzzle.registry import puzzle_module

#: the puzzles played: one of each kind (a 10x10 Bridges, as students meet them)
HASHI = "10x10m2:d1b2d1f2c2f1a4a2b6a5j1c3a2b3m3c6a6j2a5a3b4a4"
SINGLES = "6x6:423162245612521531531654415241162553"
TOWERS = "6:2/2/2/1/4/3/4/3/2/2/1/3/4/1/2/2/3/4/2/2/1/3/3/2,m1g3a1_2b1h"
KAKURO = ("6 6\n- 8, 34, - 4, 9,\n,7 0 0 14,12 0 0\n,22 0 0 0 0 -\n- 15,11 0 0 13, -\n"
          ",22 0 0 0 0 8,\n,16 0 0 ,15 0 0\n")
#: the course notebooks whose playground is a puzzle, and that puzzle (as they write it)
COURSE = {"notebooks/03_hashiwokakero.ipynb": ("hashi", "7x7m2:1a3a2i1a4h2b3a5k4a5a4a2"),
          "notebooks/04_kakuro.ipynb": ("kakuro", KAKURO),
          "notebooks/05_towers.ipynb": ("towers", "5:/4//1//3////////3///1/4//,l3l"),
          "notebooks/06_singles.ipynb": ("singles", "5x5:4112421234524525441243243")}
#: a gesture: ("drag", from cell, to cell) | ("click", cell) | ("type", cell, key)
Gesture = tuple[Any, ...]


def gestures(puzzle: Puzzle) -> list[Gesture]:
    """The gestures that play `puzzle` to its solution, one a move, read from its picture's
    `play` alone (never from its kind): a line's value n is n drags between its ends; a
    cell's value is as many clicks as its place in the cycle; a typed cell is a click and
    its key. Cells left blank (no bridge, a white cell) and given cells take none."""
    picture = puzzle.picture()
    how = picture["play"]
    solution = puzzle.solution_domains(puzzle.solve().solution)
    value_of = {pic.key(var): pic.key(values[0]) for var, values in solution.items()}
    moves: list[Gesture] = []
    for entry in picture["variables"]:
        value = value_of.get(entry["var"])
        if value is None or value == how.get("blank") or entry.get("given"):
            continue
        if how["gesture"] == pic.DRAG:
            start, end = (tuple(cell) for cell in entry["ends"])
            moves += [("drag", start, end)] * (how["cycle"].index(value) + 1)
        elif how["gesture"] == pic.CYCLE:
            moves += [("click", tuple(entry["cell"]))] * (how["cycle"].index(value) + 1)
        else:
            moves += [("type", tuple(entry["cell"]), value)]
    return moves


def cell_selector(cell: Sequence[int]) -> str:
    return f"[data-cell='{cell[0]},{cell[1]}']"


def perform(page: Any, playground: Any, gesture: Gesture, button: str = "left") -> None:
    """Make `gesture` with Playwright's mouse and keyboard on the `playground` locator."""
    if gesture[0] == "drag":
        (x1, y1), (x2, y2) = (_centre(playground, cell) for cell in gesture[1:3])
        page.mouse.move(x1, y1)
        page.mouse.down(button=button)
        page.mouse.move((x1 + x2) / 2, (y1 + y2) / 2)
        page.mouse.move(x2, y2)
        page.mouse.up(button=button)
    elif gesture[0] == "click":
        playground.locator(cell_selector(gesture[1])).first.click(button=button)
    else:
        playground.locator(cell_selector(gesture[1])).first.click()
        page.keyboard.press(gesture[2])


def _centre(playground: Any, cell: Sequence[int]) -> tuple[float, float]:
    box = playground.locator(cell_selector(cell)).first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


#: in the page: the gestures' times the playground keeps (`cspTimings`)
TIMINGS_JS = "(root) => root.cspTimings.map((t) => Object.assign({}, t))"
#: in the page: whether every action sent so far has its answer drawn
SETTLED_JS = ("(root) => root.cspTimings.length > 0 && "
              "root.cspTimings.every((t) => t.answered !== null)")


def play_through(page: Any, playground: Any, moves: list[Gesture],
                 timeout: int = 120_000) -> list[dict[str, Any]]:
    """Make each gesture once the kernel's answer to the one before is drawn; the page's
    timings of every gesture."""
    for move in moves:
        perform(page, playground, move)
        page.wait_for_function(SETTLED_JS, arg=playground.element_handle(), timeout=timeout)
    return list(page.evaluate(TIMINGS_JS, playground.element_handle()))


def latencies(timings: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Gesture to changed picture (the page's own drawing) and to the kernel's answer
    drawn, in milliseconds, for the moves (not undo or a hint); and in the latter, the
    round trip (the action sent to the kernel's state received) and the page's drawing of
    that state."""
    moves = [t for t in timings if t["action"] in ("set", "clear", "remove", "restore")]
    return {"picture": [t["drawn"] - t["at"] for t in moves if t["drawn"] is not None],
            "answer": [t["answered"] - t["at"] for t in moves],
            "trip": [t["received"] - t["sent"] for t in moves],
            "draw": [t["applied"] - t["received"] for t in moves]}


def cells(puzzles: dict[str, str]) -> list[str]:
    """A notebook of one playground a puzzle."""
    lines = ["from csp_puzzles import hashi, kakuro, singles, towers\n"
             "from csp_puzzles.viz import Playground"]
    return lines + [f"Playground({kind}.parse({text!r}), title={kind!r})"
                    for kind, text in puzzles.items()]


def measure(puzzles: dict[str, str]) -> dict[str, dict[str, list[float]]]:
    """Each puzzle played to the end in JupyterLab by its gestures; the latencies of each."""
    from .explorer import lab_page, run_all

    measured = {}
    with lab_page(cells(puzzles)) as page:
        page.set_viewport_size({"width": 1280, "height": 800})
        run_all(page, f".csp-playground >> nth={len(puzzles) - 1}")
        for number, (kind, text) in enumerate(puzzles.items()):
            playground = page.locator(".csp-playground").nth(number)
            playground.scroll_into_view_if_needed()
            moves = gestures(puzzle_module(kind).parse(text))
            timings = play_through(page, playground, moves)
            page.wait_for_function("(root) => root.querySelector('.cx-answer').textContent"
                                   ".includes('solved')", arg=playground.element_handle(),
                                   timeout=120_000)
            measured[kind] = latencies(timings)
    return measured


def measure_lite(pyodide: str) -> dict[str, dict[str, list[float]]]:
    """The course's JupyterLite site: each notebook of `COURSE` run in the browser's
    Python, then its playground played to the end by its gestures."""
    import tempfile
    from pathlib import Path

    from playwright.sync_api import sync_playwright

    from .lite import CHROMIUM, FLAGS, Site, Tab, build

    measured = {}
    with tempfile.TemporaryDirectory() as scratch:
        build(Path(pyodide), Path(scratch) / "site")
        site = Site(Path(scratch) / "site")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                tab = Tab(browser, site)
                for path, (kind, text) in COURSE.items():
                    tab.run(path)
                    playground = tab.page.locator(".jp-NotebookPanel:visible .csp-playground")
                    playground = playground.first
                    playground.scroll_into_view_if_needed()
                    moves = gestures(puzzle_module(kind).parse(text))
                    measured[kind] = latencies(play_through(tab.page, playground, moves))
                browser.close()
        finally:
            site.close()
    return measured


def report(measured: dict[str, dict[str, list[float]]], busy: int, where: str) -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [f"the playground in {where}, {busy} busy processes, load average {load} on "
             f"{os.cpu_count()} cores (ms: median / max)",
             f"{'puzzle':<10}{'moves':>6}  {'gesture to picture':>20}  {'gesture to answer':>20}"
             f"  {'of which round trip':>20}  {'drawing':>14}"]
    everything: dict[str, list[float]] = {"picture": [], "answer": [], "trip": [], "draw": []}
    for kind, found in [*measured.items(), ("all", everything)]:
        if kind != "all":
            for part in everything:
                everything[part] += found[part]
        lines.append(f"{kind:<10}{len(found['answer']):>6}  {_spread(found['picture']):>20}  "
                     f"{_spread(found['answer']):>20}  {_spread(found['trip']):>20}  "
                     f"{_spread(found['draw']):>14}")
    return "\n".join(lines)


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} / {max(values):.1f}" if values else "-"


def busy_cores(count: int) -> Any:
    from .busy import BusyCores

    return BusyCores(count) if count else nullcontext()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="csp-puzzles bench playground",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--busy", type=int, default=2, help="processes spinning meanwhile")
    parser.add_argument("--hashi", default=HASHI, metavar="TATHAM_ID")
    parser.add_argument("--lite", metavar="PYODIDE",
                        help="also in the course's JupyterLite site, with this Pyodide")
    args = parser.parse_args(argv)
    puzzles = {"hashi": args.hashi, "singles": SINGLES, "towers": TOWERS, "kakuro": KAKURO}
    with busy_cores(args.busy):
        print(report(measure(puzzles), args.busy, "JupyterLab"))
        if args.lite:
            print(report(measure_lite(args.lite), args.busy, "JupyterLite (course notebooks)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
