"""`csp-puzzles bench kakuro`: the janko.at Kakuro set, by size class, for three solvers.

- the combined model (one run constraint per run, MAC): every puzzle;
- the decomposed model (Sum + AllDifferent, MAC) and python-constraint2 on the same
  decomposed CSP: a fixed sample per size class (`--sample`), with a time limit each.

For each: puzzles solved (a solution the independent checker accepts; janko's 257_24x28 has
two solutions, so equality with janko's is left to the tests), the search-free share (no
branching at all: propagation alone fixed every cell), median and maximum seconds, and the
ratio of each peer's median to the combined model's on the same puzzles.

`--generate` times the generator instead: sizes x difficulties on fixed seeds (0, 1, ...),
median and maximum seconds, and failures (no puzzle within the generator's attempts, or one
that is not unique or not of the grade asked).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..kakuro import DIFFICULTIES, Kakuro, generate, grade, parse
from .options import BenchParser
from .peers import SOLVERS, run_limited, to_python_constraint
from .report import Progress, median, table, timed

DEFAULT_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "janko" / "kakuro.json"
CLASSES = ((100, "<=100 cells"), (150, "101-150"), (250, "151-250"), (400, "251-400"),
           (10**9, ">400"))


def size_class(rows: int, columns: int) -> str:
    cells = rows * columns
    return next(name for bound, name in CLASSES if cells <= bound)


def load(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)["data"]
    puzzles = []
    for name, entry in data.items():
        rows, columns = map(int, entry["problem"].split("\n", 1)[0].split())
        puzzles.append({"name": name, "problem": entry["problem"],
                        "class": size_class(rows, columns)})
    return puzzles


def run_core(puzzle: dict, model: str, timeout: float) -> dict:
    grid = parse(puzzle["problem"], filename=puzzle["name"])
    result, seconds = timed(lambda: grid.solve(model=model, timeout=timeout))
    solved = result.solution is not None and grid.check(result.solution) == []
    return {"solved": solved, "seconds": seconds,
            "search_free": result.solved and result.stats.nodes == 0}


def run_peer(puzzle: dict, timeout: float, solver: str) -> dict:
    grid = parse(puzzle["problem"], filename=puzzle["name"])
    csp = grid.to_csp(model="decomposed")

    def solve_once() -> Any:
        return to_python_constraint(csp, solver).getSolution()

    solution, seconds, finished = run_limited(solve_once, timeout)
    solved = finished and solution is not None and grid.check(grid.decode(solution)) == []
    return {"solved": solved, "seconds": seconds, "search_free": None}


def sample(puzzles: list[dict], per_class: int) -> list[dict]:
    """The first `per_class` puzzles of each size class, in file order (a fixed sample)."""
    taken: dict[str, int] = {}
    chosen = []
    for puzzle in puzzles:
        if taken.get(puzzle["class"], 0) < per_class:
            taken[puzzle["class"]] = taken.get(puzzle["class"], 0) + 1
            chosen.append(puzzle)
    return chosen


def summarise(label: str, puzzles: list[dict], runs: dict[str, dict],
              reference: dict[str, dict] | None) -> list[list]:
    rows = []
    for _, name in CLASSES:
        members = [p["name"] for p in puzzles if p["class"] == name and p["name"] in runs]
        if not members:
            continue
        results = [runs[m] for m in members]
        seconds = [r["seconds"] for r in results]
        free = [r["search_free"] for r in results if r["search_free"] is not None]
        ratio = float("nan")
        if reference is not None:
            ratio = median(seconds) / median([reference[m]["seconds"] for m in members])
        rows.append([label, name, len(members), sum(r["solved"] for r in results),
                     f"{100 * sum(free) / len(free):.1f}%" if free else "-",
                     median(seconds), max(seconds), ratio])
    return rows


GENERATE_SIZES = (6, 8, 10, 12, 15)


def generate_once(size: int, difficulty: str, seed: int) -> dict:
    """One generator call, timed; `ok` when the puzzle is unique and graded as asked."""
    def make() -> Kakuro | None:
        try:
            return generate(width=size, height=size, difficulty=difficulty, seed=seed)
        except ValueError:
            return None

    puzzle, seconds = timed(make)
    ok = (puzzle is not None and puzzle.count_solutions(limit=2) == 1
          and grade(puzzle) == difficulty)
    return {"ok": ok, "seconds": seconds}


def bench_generate(sizes: list[int], seeds: int) -> int:
    rows = []
    progress = Progress("generate", len(sizes) * len(DIFFICULTIES) * seeds)
    for size in sizes:
        for difficulty in DIFFICULTIES:
            runs = []
            for seed in range(seeds):
                runs.append(generate_once(size, difficulty, seed))
                progress.step(f"{size}x{size} {difficulty} seed {seed}")
            seconds = [r["seconds"] for r in runs]
            rows.append([f"{size}x{size}", difficulty, seeds, median(seconds), max(seconds),
                         sum(not r["ok"] for r in runs)])
    print(table(["size", "difficulty", "seeds", "median s", "max s", "failures"], rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.generate:
        if args.quick:
            args.sizes, args.seeds = [size for size in args.sizes if size <= 10], 2
        if args.limit:
            args.seeds = min(args.seeds, args.limit)
        return bench_generate(args.sizes, args.seeds)
    if not args.data.exists():
        print(f"csp-puzzles: error: {args.data}:1:1: no such file, expected the janko "
              f"kakuro.json (--data)", file=sys.stderr)
        return 2
    puzzles = load(args.data)
    if args.quick:
        puzzles = puzzles[::10]
        args.sample = min(args.sample, 3)
    if args.limit:
        puzzles = puzzles[:args.limit]
    combined, rows = _combined_rows(puzzles)
    if not args.no_peers:
        rows += _peer_rows(sample(puzzles, args.sample), combined, args.timeout,
                           args.peer_solver)
    print(table(["solver", "size class", "puzzles", "solved", "search-free", "median s",
                 "max s", "x combined"], rows))
    if not args.no_peers:
        print(f"(peers: a fixed sample of {args.sample} puzzles per class, {args.timeout:g} s "
              f"limit each; 'x combined' = peer median / combined median on those puzzles)")
    return 0


def _parser() -> BenchParser:
    parser = BenchParser(prog="csp-puzzles bench kakuro", description=__doc__)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--quick", action="store_true",
                        help="every 10th puzzle, 3 per class for the peers")
    parser.add_argument("--limit", type=int, help="only the first N puzzles")
    parser.add_argument("--sample", type=int, default=8,
                        help="puzzles per size class for the decomposed model and the peer")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds allowed per puzzle for the decomposed model and peer")
    parser.add_argument("--no-peers", action="store_true", help="combined model only")
    parser.add_argument("--generate", action="store_true",
                        help="time the generator instead (sizes x difficulties, fixed seeds)")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(GENERATE_SIZES),
                        help="square grid sizes for --generate")
    parser.add_argument("--seeds", type=int, default=5, help="seeds per cell for --generate")
    parser.add_argument("--peer-solver", choices=SOLVERS, default="BacktrackingSolver",
                        help="python-constraint2 solver (Optimized... is far slower on Kakuro)")
    return parser


def _combined_rows(puzzles: list[dict]) -> tuple[dict[str, dict], list[list]]:
    """The combined model on every puzzle: its runs by name, and its rows (by size class,
    then over all)."""
    combined: dict[str, dict] = {}
    progress = Progress("combined", len(puzzles))
    for puzzle in puzzles:
        combined[puzzle["name"]] = run_core(puzzle, "combined", 60.0)
        progress.step(puzzle["name"])
    rows = summarise("combined", puzzles, combined, None)
    everything = list(combined.values())
    rows.append(["combined", "all", len(everything), sum(r["solved"] for r in everything),
                 f"{100 * sum(r['search_free'] for r in everything) / len(everything):.1f}%",
                 median([r["seconds"] for r in everything]),
                 max(r["seconds"] for r in everything), float("nan")])
    return combined, rows


def _peer_rows(chosen: list[dict], combined: dict[str, dict], timeout: float,
               peer_solver: str) -> list[list]:
    """The decomposed model and python-constraint2 on the `chosen` puzzles, each row
    against the combined model's times on the same puzzles."""
    decomposed: dict[str, dict] = {}
    peer: dict[str, dict] = {}
    progress = Progress("decomposed + python-constraint2", len(chosen))
    for puzzle in chosen:
        decomposed[puzzle["name"]] = run_core(puzzle, "decomposed", timeout)
        peer[puzzle["name"]] = run_peer(puzzle, timeout, peer_solver)
        progress.step(puzzle["name"])
    return (summarise("decomposed", chosen, decomposed, combined)
            + summarise(f"python-constraint2 ({peer_solver})", chosen, peer, combined))
