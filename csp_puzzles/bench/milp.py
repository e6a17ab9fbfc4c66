"""`csp-puzzles bench milp`: the integer programs (HiGHS) against the other engines.

One run, the same puzzles for every engine, each run stopped after `--timeout` seconds:

1. Towers, the project's set (data/towers, sizes 4-9, every level): MILP against the CSP
   engine (full model, MAC).
2. Towers as in the student report the MILP models come from: random Latin squares,
   every clue, empty grid, ten each of sizes 5-8: MILP (presolve by line consistency,
   lines with few orderings as a choice among them, the others with AND-hull visibility
   rows), the report's program (every height, big-M rows) on HiGHS, the CSP engine, and
   the report's CPLEX figures.
3. Singles by size: the project's set (data/singles), ten generated puzzles of sizes 5-7
   (as in the report) and one generated 100x100: MILP against the CSP engine, with CPLEX's.
4. Hashi, the Coelho et al. benchmark (../shared/data, when present), `--per-class`
   instances spread over each size class: MILP, the CSP engine, the SAT engine, CP-SAT.

Times are seconds of `puzzle.solve(engine=...)`, model building included, by default CPU
seconds of this process (`--clock cpu`): on a shared machine, and this bench runs niced,
wall-clock seconds also count the time other programs hold the processor (a niced run on a
loaded machine once gave 4 s to a 7x7 Towers grid that takes under 0.2 s of CPU); HiGHS
solves on one thread here, so on an idle machine the two clocks agree. `--clock wall` times
wall-clock seconds instead. The time limits stay wall-clock. A run of Towers or Singles
under a second is repeated (`--repeat`, 3 times by default) and the fastest counts, as
`timeit` does: other programs only ever slow a run down (they share the processor's caches
even when not its time), so the fastest is the least disturbed; longer runs are timed once.
"goal" columns: CPLEX's time over ours (the goal is 10x) and MILP's median over CP-SAT's
(the goal is at most 2).

What the models' choices rest on: measured with this bench while the models were built
(HiGHS 1.15), and kept here rather than in the models' code or the notebooks:

- Towers (`towers/milp.py`): lines with many orderings stay visibility rows, because with 60
  orderings a line the program grew faster than the relaxation helped (7x7 and 8x8 grids
  with every clue: the times doubled); hence `ORDERINGS_LIMIT` = 24. HiGHS's symmetry
  detection is off: on 6x6 grids with every clue, median 0.025 s with it, 0.017 s without.
  The report's big-M rows often needed thousands of branch-and-bound nodes and tens of
  seconds on 8x8 grids, the AND rows a handful.
- One hard grid, `towers/8x8-unreasonable-2.txt`: HiGHS's root relaxation of the program is
  fractional, its heuristics find no grid (about 6800 of 8700 simplex iterations go to them,
  in 12 sub-programs), it restarts and then branches 19 nodes: 0.9 to 2.5 s depending on
  HiGHS's `random_seed`. An earlier engine removed fewer heights before writing rows (clue
  bounds and one pass of line orderings, not propagation to a fixed point): 536 variables
  instead of 502, 0.12 to 0.2 s on every seed, because HiGHS's own presolve shrank that
  program to 180 columns and the current one only to 254. It is not a general loss: the
  earlier program had outliers of its own (2 s on a grid of the report's 8x8 kind that the
  current one solves in 0.3 s), and the current one runs in about 40% fewer instructions on
  the report's 5x5 grids. The CSP engine solves that grid in under 0.1 s.
- Tuning HiGHS by grid size was measured and left out: switching off its probing saves a
  third of the instructions on 6x6 grids, costs a little on 5x5, gives 7x7 a better median
  but heavier tails, and turns some 8x8 grids from 0.1 s into 1.2 s; switching off its
  feasibility-jump heuristic saves 14% on 6x6 and costs 35% on 7x7 and five times as much on
  8x8.
- Singles (`singles/milp.py`): HiGHS's presolve stays on: it settles most small grids
  outright (7x7 in 2 ms with it, 11 ms without) and costs 100x100 grids little (0.8 s
  against 0.6 s).
- Hashi (`hashi/milp.py`): HiGHS's presolve is off, since it costs more than it saves on
  every round of the lazy loop (Coelho et al.'s 200-island class: median 0.54 s with it,
  0.17 s without). The guide towards plans using many edges cut the rounds of the loop on
  the densest 400-island class from over 40 to 3-5, and the time from over 20 s to under
  1.5 s.
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .. import singles, towers
from ..core.errors import LimitReached
from ..puzzle.protocol import Puzzle
from ..solvers import milp
from ..towers import milp as towers_milp
from ..towers.generate import clues_of, latin_square
from .hashi import SHARED, _cpsat_available, _timing, run_cpsat, run_ours, sample, stopwatch
from .options import BenchParser, at_least_one, names_from
from .report import Progress, median, table
from .towers import CPLEX_BASELINE as TOWERS_CPLEX

DATA = Path(__file__).resolve().parents[2] / "data"
# the report's Singles CPLEX times (seconds): median and max of its ten puzzles per size,
# and its one 100x100
SINGLES_CPLEX = {5: (0.045, 0.22), 6: (0.03, 0.03), 7: (0.04, 0.04), 100: (33.0, 33.0)}


#: runs slower than this (seconds) are timed once, whatever `--repeat` says
REPEAT_BELOW = 1.0


def fastest(run: Callable[[], float | None], repeat: int) -> float | None:
    """The fastest of `repeat` timed runs (None: the time limit came first); a run slower
    than `REPEAT_BELOW` is not repeated."""
    best: float | None = None
    for _ in range(repeat):
        seconds = run()
        if seconds is None:
            return None
        best = seconds if best is None else min(best, seconds)
        if seconds > REPEAT_BELOW:
            break
    return best


def timed_solve(puzzle: Puzzle, engine: str, timeout: float, clock: str = "cpu",
                repeat: int = 1) -> float | None:
    """Seconds to a checked solution, or None when the time limit came first."""
    def run() -> float | None:
        elapsed = stopwatch()
        result = puzzle.solve(engine=engine, timeout=timeout)
        seconds = _timing(elapsed, clock)["seconds"]
        if result.status != "solved":
            return None
        problems = puzzle.check(result.solution)
        if problems:
            raise AssertionError(f"{engine} engine: invalid solution of {puzzle!r}: {problems}")
        return seconds

    return fastest(run, repeat)


def timed_big_m(puzzle: towers.Towers, timeout: float, clock: str = "cpu",
                repeat: int = 1) -> float | None:
    """The report's program (every height, big-M rows) on HiGHS, timed as `timed_solve`."""
    def run() -> float | None:
        elapsed = stopwatch()
        try:
            grid = next(towers_milp.solutions(puzzle, time.perf_counter() + timeout,
                                              visibility="big-m", preprocess=False))
        except LimitReached:
            return None
        seconds = _timing(elapsed, clock)["seconds"]
        assert not puzzle.check(grid)
        return seconds

    return fastest(run, repeat)


def summary(times: list[float | None], timeout: float) -> tuple[str, float, float]:
    """(solved/n, median, max), unsolved runs counted at the time limit."""
    done = [t for t in times if t is not None]
    full = [t if t is not None else timeout for t in times]
    return f"{len(done)}/{len(times)}", median(full), max(full) if full else float("nan")


def run_engines(puzzles: Sequence[Puzzle], runners: dict[str, Callable[[Any], float | None]],
                progress: Progress, note: str) -> dict[str, list[float | None]]:
    times: dict[str, list[float | None]] = {name: [] for name in runners}
    for puzzle in puzzles:
        for name, run in runners.items():
            times[name].append(run(puzzle))
        progress.step(note)
    return times


def warm_up() -> None:
    """Solve two small puzzles with every engine, so that no timing includes the import of
    an engine's module."""
    for puzzle in (towers.Towers.from_sides(3, clues_of(latin_square(3, random.Random(0)))),
                   singles.generate(width=4, height=4, seed=1)):
        for engine in ("milp", "csp"):
            timed_solve(puzzle, engine, 10.0)


# -- Towers ---------------------------------------------------------------------------------
def towers_levels(sizes: list[int], per_level: int, timeout: float, clock: str = "cpu",
                  repeat: int = 1) -> str:
    groups = []
    for n in sizes:
        for level in towers.DIFFICULTIES:
            files = sorted((DATA / "towers").glob(f"{n}x{n}-{level}-*.txt"))[:per_level]
            if files:
                groups.append((n, level, [towers.parse(f.read_text()) for f in files]))
    progress = Progress("towers levels", sum(len(g[2]) for g in groups))
    runners = {"milp": lambda p: timed_solve(p, "milp", timeout, clock, repeat),
               "csp": lambda p: timed_solve(p, "csp", timeout, clock, repeat)}
    rows = []
    for n, level, puzzles in groups:
        times = run_engines(puzzles, runners, progress, f"{n}x{n} {level}")
        rows.append((f"{n}x{n}", level, *summary(times["milp"], timeout),
                     *summary(times["csp"], timeout)[1:]))
    return ("Towers, the project's set (data/towers)\n" + table(
        ("size", "level", "milp solved", "milp med s", "milp max s", "csp med s", "csp max s"),
        rows))


def towers_report(per_size: int, timeout: float, clock: str = "cpu",
                  repeat: int = 1) -> str:
    runners = {"milp": lambda p: timed_solve(p, "milp", timeout, clock, repeat),
               "big-m": lambda p: timed_big_m(p, timeout, clock, repeat),
               "csp": lambda p: timed_solve(p, "csp", timeout, clock, repeat)}
    progress = Progress("towers, the report's experiment", 4 * per_size)
    rows = []
    for n in (5, 6, 7, 8):
        grids = [latin_square(n, random.Random(f"seed004-{n}-{i}"))
                 for i in range(1, per_size + 1)]
        puzzles = [towers.Towers.from_sides(n, clues_of(grid)) for grid in grids]
        times = run_engines(puzzles, runners, progress, f"{n}x{n}")
        ours = summary(times["milp"], timeout)
        _, cplex_median, cplex_max = TOWERS_CPLEX[n]
        rows.append((f"{n}x{n}", per_size, *ours, *summary(times["big-m"], timeout),
                     *summary(times["csp"], timeout)[1:], cplex_median, cplex_max,
                     f"{cplex_median / ours[1]:.1f}x", f"{cplex_max / ours[2]:.1f}x"))
    return ("Towers as in the report: Latin squares, every clue, empty grid (big-m: the "
            "report's rows on HiGHS; cplex: the report's own times)\n" + table(
                ("size", "n", "milp solved", "milp med s", "milp max s", "big-m solved",
                 "big-m med s", "big-m max s", "csp med s", "csp max s", "cplex med s",
                 "cplex max s", "goal med", "goal max"), rows))


# -- Singles --------------------------------------------------------------------------------
def singles_sizes(per_size: int, big: int, timeout: float, clock: str = "cpu",
                  repeat: int = 1) -> str:
    groups: list[tuple[str, list[Puzzle], tuple[float, float] | None]] = []
    project: dict[int, list[Puzzle]] = {}
    for path in sorted((DATA / "singles").glob("*.txt")):
        puzzle = singles.parse(path.read_text())
        project.setdefault(puzzle.width, []).append(puzzle)
    for size in sorted(project):
        groups.append((f"data {size}x{size}", project[size], None))
    for size in (5, 6, 7):
        generated: list[Puzzle] = [singles.generate(width=size, height=size, seed=seed)
                                   for seed in range(1, per_size + 1)]
        groups.append((f"report {size}x{size}", generated, SINGLES_CPLEX[size]))
    big_puzzle = singles.generate(width=big, height=big, seed=1)
    groups.append((f"{big}x{big}", [big_puzzle], SINGLES_CPLEX.get(big)))
    progress = Progress("singles", sum(len(g[1]) for g in groups))
    runners = {"milp": lambda p: timed_solve(p, "milp", timeout, clock, repeat),
               "csp": lambda p: timed_solve(p, "csp", timeout, clock, repeat)}
    rows = []
    for label, puzzles, cplex in groups:
        times = run_engines(puzzles, runners, progress, label)
        ours = summary(times["milp"], timeout)
        goal = (f"{cplex[0] / ours[1]:.1f}x", f"{cplex[1] / ours[2]:.1f}x") if cplex else ("-",) * 2
        rows.append((label, len(puzzles), *ours, *summary(times["csp"], timeout)[1:],
                     *(cplex or (float("nan"),) * 2), *goal))
    return ("Singles by size (data: the project's set; report: generated like the report's "
            "ten per size; cplex: the report's own times)\n" + table(
                ("puzzles", "n", "milp solved", "milp med s", "milp max s", "csp med s",
                 "csp max s", "cplex med s", "cplex max s", "goal med", "goal max"), rows))


# -- Hashi ----------------------------------------------------------------------------------
def hashi_coelho(folder: Path, per_class: int, timeout: float, clock: str = "cpu") -> str:
    from .. import hashi

    if not folder.exists():
        return f"Hashi: {folder} not found, skipped"
    cpsat = _cpsat_in_child()
    classes = [(size, sample(sorted((folder / size).glob("*.has")), per_class))
               for size in ("100", "200", "300", "400")]
    progress = Progress("hashi coelho", sum(len(files) for _, files in classes))
    runners: dict[str, Callable[[Any], float | None]] = {
        engine: _ours(engine, timeout, clock) for engine in ("milp", "csp", "sat")}
    rows = []
    for size, files in classes:
        puzzles: list[Puzzle] = [hashi.parse(f.read_text()) for f in files]
        times = run_engines(puzzles, runners, progress, f"{size} islands")
        if cpsat:
            times["cp-sat"] = _cpsat_times(files, timeout, clock)
        cells: list[Any] = [size, len(files)]
        for engine in times:
            cells.extend(summary(times[engine], timeout))
        if cpsat:
            milp_median = summary(times["milp"], timeout)[1]
            cells.append(f"{milp_median / summary(times['cp-sat'], timeout)[1]:.1f}")
        rows.append(cells)
    headers = ["islands", "n"]
    for engine in [*runners, *(["cp-sat"] if cpsat else [])]:
        headers += [f"{engine} solved", f"{engine} med s", f"{engine} max s"]
    if cpsat:
        headers.append("milp/cp-sat med")
    note = "" if cpsat else " (ortools not installed: CP-SAT skipped)"
    return (f"Hashi, Coelho et al., {per_class} instances a class spread over the densities"
            f"{note}\n" + table(headers, rows))


# OR-Tools ships its own HiGHS, and the two libraries cannot be loaded into one process:
# CP-SAT runs in a fresh ("spawned") process, which times itself as `run_cpsat` does.
def _cpsat_in_child() -> bool:
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return bool(pool.apply(_cpsat_available))


def _cpsat_times(files: list[Path], timeout: float, clock: str) -> list[float | None]:
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.starmap(_cpsat_file, [(f, timeout, clock) for f in files])


def _cpsat_file(path: Path, timeout: float, clock: str) -> float | None:
    from .. import hashi

    return _seconds(run_cpsat(hashi.parse(path.read_text()), timeout, clock))


def _ours(engine: str, timeout: float, clock: str) -> Callable[[Any], float | None]:
    return lambda puzzle: _seconds(run_ours(puzzle, timeout, engine, clock=clock))


def _seconds(run: dict[str, Any]) -> float | None:
    return run["seconds"] if run["solved"] else None

PARTS = ("towers", "report", "singles", "hashi")


def main(argv: list[str]) -> int:
    parser = BenchParser(prog="csp-puzzles bench milp",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="one puzzle per size and level, 3 per report size, 30x30, "
                             "2 Hashi instances a class, 10 s limit")
    parser.add_argument("--parts", type=names_from(PARTS), default=list(PARTS),
                        help="comma-separated: towers, report, singles, hashi")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds per puzzle and engine (default 30)")
    parser.add_argument("--per-level", type=int, default=2, help="Towers puzzles per level")
    parser.add_argument("--per-size", type=int, default=10, help="report puzzles per size")
    parser.add_argument("--per-class", type=int, default=6, help="Hashi instances a class")
    parser.add_argument("--big", type=int, default=100, help="side of the large Singles grid")
    parser.add_argument("--data", type=Path, default=SHARED, help="the shared data folder")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="CPU seconds of this process (default: steady on a shared "
                             "machine) or wall-clock seconds")
    parser.add_argument("--repeat", type=at_least_one, default=3,
                        help="Towers and Singles: solve each puzzle this many times, count "
                             "the fastest (runs over a second: once; default 3)")
    args = parser.parse_args(argv)
    per_level, per_size, per_class, big = args.per_level, args.per_size, args.per_class, args.big
    timeout, clock, repeat = args.timeout, args.clock, args.repeat
    if args.quick:
        per_level, per_size, per_class = 1, min(per_size, 3), min(per_class, 2)
        big, timeout = min(big, 30), min(timeout, 10.0)
    parts = set(args.parts)
    milp._highspy()  # load HiGHS once, before any clock starts
    warm_up()
    sections = []
    if "towers" in parts:
        sections.append(towers_levels([4, 5, 6, 7, 8, 9], per_level, timeout, clock,
                                      repeat))
    if "report" in parts:
        sections.append(towers_report(per_size, timeout, clock, repeat))
    if "singles" in parts:
        sections.append(singles_sizes(per_size, big, timeout, clock, repeat))
    if "hashi" in parts:
        sections.append(hashi_coelho(args.data / "coelho-hashi", per_class, timeout, clock))
    print(f"({clock} seconds, Towers and Singles the fastest of {repeat} runs under "
          f"{REPEAT_BELOW:g} s; each run stopped after {timeout:g} s of wall-clock time, "
          "unsolved runs count at that time)\n")
    print("\n\n".join(sections))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
