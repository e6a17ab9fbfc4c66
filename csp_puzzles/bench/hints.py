"""`csp-puzzles bench hints`: how long a hint takes, and our explanation sequences beside
the easiest-first greedy one of step-wise explanations.

Two tables:

1. **hint time**: a hint-only solve of each puzzle (those of notebooks 03, 05 and 06, and
   larger grids of Tatham's from ../shared when it is there), the CPU seconds of every
   `hint()` call: the first, the median, the largest, the total, and how many hints (and
   how many of them suppose something).
2. **sequences**: Tatham's hard Bridges and extreme and unreasonable Towers (../shared),
   the project's Kakuro and tricky Singles: our explanation (`puzzle.explain()`: the
   ladder's rungs, the cheapest deduction first, suppositions zoomed) beside the
   easiest-first greedy sequence of step-wise explanations (Bogaerts, Gamba and Guns, AIJ
   2021): at every step the cheapest single-constraint deduction of the puzzle's own model
   (the constraints its solver propagates, one rung, no supposition), its cost counted the
   same way (the variables a step involves). Per set: puzzles, median and largest number of
   steps, median and largest cost of a sequence's largest step, the steps that suppose
   (ours), and the puzzles each sequence finishes. A cost here leaves out the rung's unit:
   it is what a step involves (plus one for a supposition).

demystify (the step-wise explainer whose models include Kakuro and Skyscrapers) is not run:
see BENCHMARKS.md.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

from .. import hashi, kakuro, singles, towers
from ..core.hints import cost_unit
from ..core.ladder import Rung
from ..core.session import Session as CoreSession
from ..puzzle.protocol import Puzzle
from ..puzzle.session import Session, puzzle_words
from .options import BenchParser
from .report import Progress, median, table

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "data" / "tatham-graded"
#: the puzzles of notebooks 03, 05 and 06
NOTEBOOKS = [
    ("03 hashi easy 7x7", hashi, "7x7m2:d3a32a2b2e3m1a3b3b4a3b3b2"),
    ("03 hashi hard 7x7", hashi, "7x7m2:1a3a2i1a4h2b3a5k4a5a4a2"),
    ("03 hashi hard 10x10", hashi, "10x10m2:d1b2d1f2c2f1a4a2b6a5j1c3a2b3m3c6a6j2a5a3b4a4"),
    ("05 towers 5x5 hard", towers, REPO / "data" / "towers" / "5x5-hard-1.txt"),
    ("05 towers 6x6 extreme", towers, REPO / "data" / "towers" / "6x6-extreme-1.txt"),
    ("05 towers 4x4 extreme", towers, "4:/2/2/////3////2////,l2c"),
    ("05 towers 4x4 unreasonable", towers, "4:/3///2////2////1/3//"),
    ("06 singles 5x5", singles, "5x5:4112421234524525441243243"),
]
#: larger grids of Tatham's: (label, module, file, his parameters)
LARGE = [
    ("hashi 30x30 hard", hashi, "tatham_bridges.jsonl", "30x30i30e10m2d2"),
    ("hashi 40x40 hard", hashi, "tatham_bridges-big.jsonl", "40x40i30e10m2d2"),
    ("towers 9x9 extreme", towers, "tatham_towers.jsonl", "9dx"),
    ("towers 9x9 unreasonable", towers, "tatham_towers.jsonl", "9du"),
    ("singles 12x12 tricky", singles, "tatham_singles.jsonl", "12x12dk"),
]
#: the sets of the second table: (label, module, file, his grades, largest side, how many)
SETS = [
    ("Tatham Bridges hard", hashi, "tatham_bridges.jsonl", {"hard"}, 15, 30),
    ("Tatham Towers extreme", towers, "tatham_towers.jsonl", {"extreme"}, 7, 30),
    ("Tatham Towers unreasonable", towers, "tatham_towers.jsonl", {"unreasonable"}, 7, 30),
    ("Tatham Singles tricky", singles, "tatham_singles.jsonl", {"tricky"}, 10, 30),
]


def _read(source: Any) -> str:
    return source.read_text() if isinstance(source, Path) else source


def _his(name: str, field: str, wanted: set[str]) -> list[dict]:
    """His rows whose `field` (params, grade) is one of `wanted` (none without
    ../shared)."""
    path = SHARED / name
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as f:
        return [row for row in map(json.loads, f) if row[field] in wanted]


# -- 1. how long a hint takes ------------------------------------------------------------------
def hint_times(puzzle: Puzzle) -> list[Any]:
    """A hint-only solve: its hints' CPU seconds and what they were."""
    session = Session(puzzle)
    seconds, trials, count = [], 0, 0
    while True:
        start = time.process_time()
        hint = session.hint()
        seconds.append(time.process_time() - start)
        if hint is None:
            break
        count += 1
        trials += bool(hint.steps)
        session.apply(hint)
    return [count, trials, session.status, seconds[0], median(seconds), max(seconds),
            sum(seconds)]


def bench_times() -> str:
    cases = [(label, module.parse(_read(source))) for label, module, source in NOTEBOOKS]
    for label, module, name, params in LARGE:
        rows = _his(name, "params", {params})
        if rows:
            cases.append((label, module.parse(rows[0]["id"])))
    progress = Progress("hint times", len(cases))
    lines = []
    for label, puzzle in cases:
        lines.append([label, *hint_times(puzzle)])
        progress.step(label)
    return ("hint(): CPU seconds of each call along a hint-only solve\n" + table(
        ["puzzle", "hints", "suppose", "end", "first s", "median s", "max s", "total s"],
        lines))


# -- 2. our sequences beside the easiest-first greedy one --------------------------------------
def greedy(puzzle: Puzzle) -> tuple[int, int, bool]:
    """The easiest-first greedy sequence on the puzzle's own model: (steps, the largest
    step's cost, whether it ends solved)."""
    csp = puzzle.to_csp()
    session = CoreSession(csp, "none", [Rung("model", csp)], puzzle_words(puzzle))
    steps, largest = 0, 0
    while session.status == "open" and (hint := session.hint()) is not None:
        steps += 1
        largest = max(largest, hint.cost)
        session.apply(hint)
    return steps, largest, session.status == "solved"


def ours(puzzle: Puzzle) -> tuple[int, int, int, bool]:
    """Our explanation: (steps, the largest step's cost less its rung's unit, the steps
    that suppose, whether it ends solved)."""
    hints = puzzle.explain()
    unit = cost_unit(puzzle.ladder())
    domains = {var: set(values) for var, values in puzzle.to_csp().domains.items()}
    for hint in hints:
        for var, values in hint.removals.items():
            domains[var] -= set(values)
    largest = max((hint.cost % unit for hint in hints), default=0)
    return (len(hints), largest, sum(bool(hint.steps) for hint in hints),
            all(len(domain) == 1 for domain in domains.values()))


def _sets() -> list[tuple[str, list[Puzzle]]]:
    found = []
    for label, module, name, grades, side, count in SETS:
        rows = _his(name, "grade", grades)
        puzzles = [module.parse(row["id"]) for row in rows]
        puzzles = [p for p in puzzles
                   if (getattr(p, "size", None) or max(p.width, p.height)) <= side]
        if puzzles:
            step = max(1, len(puzzles) // count)
            found.append((f"{label} (up to {side}x{side})", puzzles[::step][:count]))
    found.append(("project Kakuro (data/kakuro)",
                  [kakuro.parse(path.read_text()) for path in
                   sorted((REPO / "data" / "kakuro").glob("*.txt"))]))
    return found


def bench_sequences() -> str:
    lines = []
    for label, puzzles in _sets():
        progress = Progress(label, len(puzzles))
        mine, theirs = [], []
        for puzzle in puzzles:
            mine.append(ours(puzzle))
            theirs.append(greedy(puzzle))
            progress.step()
        lines.append([label, len(puzzles),
                      _spread([m[0] for m in mine]), _spread([t[0] for t in theirs]),
                      _spread([m[1] for m in mine]), _spread([t[1] for t in theirs]),
                      _spread([m[2] for m in mine]),
                      sum(m[3] for m in mine), sum(t[2] for t in theirs)])
    return ("our explanations (ladder, cheapest first, suppositions zoomed) beside the "
            "easiest-first greedy sequence on the model's own constraints; median / largest\n"
            + table(["set", "puzzles", "steps ours", "steps greedy", "largest step ours",
                     "largest step greedy", "suppose ours", "solved ours",
                     "solved greedy"], lines))


def _spread(values: list[int]) -> str:
    return f"{statistics.median(values):g} / {max(values)}" if values else "-"


def main(argv: list[str]) -> int:
    parser = BenchParser(prog="csp-puzzles bench hints", description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("times", "sequences"),
                        help="one of the two tables")
    args = parser.parse_args(argv)
    if args.only != "sequences":
        print(bench_times(), flush=True)
    if args.only != "times":
        print(bench_sequences(), flush=True)
    return 0
