"""`csp-puzzles bench singles`: janko.at and Tatham sets, a CPLEX baseline, and 100x100.

Four tables:

1. janko.at Hitori (../shared/data, when present): per size, how many, median and max
   seconds to solve (goal: every puzzle under 0.2 s) and to prove uniqueness by counting,
   and the most search nodes; every answer is compared with janko's solution.
2. Tatham's Singles IDs (when present), the same per parameter string.
3. the CPLEX baseline: ten generated puzzles of sizes 5, 6 and 7 (seeds 1..10, easy), our
   solver against python-constraint2 on the very same CSP (bench/peers.py, each run stopped
   after `--peer-timeout` seconds), beside the times an earlier student project reported
   for its CPLEX integer program on puzzles of those sizes.
4. large grids: generate a `--big` x `--big` puzzle (default 100; goal < 10 s), solve it
   (goal < 3 s) and count its solutions (uniqueness proof).

`--write-data DIR` writes the project's puzzle set (data/singles/) instead.
"""

from __future__ import annotations

import json
import sys
import time
from functools import partial
from pathlib import Path

from ..singles import Singles, generate, grade, parse
from ..singles.model import first_undecided
from .options import BenchParser
from .peers import run_limited, to_python_constraint
from .report import Progress, median, table

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
# that project's CPLEX times per size (10 instances each, seconds): median and max of its
# table; its 100x100 took 33 s to solve and 5 min 40 s to generate
CPLEX_BASELINE = {5: (0.045, 0.22), 6: (0.03, 0.03), 7: (0.04, 0.04)}
DATA_PLAN = [(5, "easy", 1), (5, "easy", 2), (5, "tricky", 1), (5, "fiendish", 1),
             (6, "easy", 1), (6, "tricky", 1), (6, "fiendish", 1), (7, "easy", 1),
             (7, "tricky", 1), (7, "fiendish", 1), (8, "easy", 1), (8, "tricky", 1),
             (8, "fiendish", 1), (10, "easy", 1), (10, "tricky", 1), (10, "fiendish", 1),
             (12, "easy", 1), (12, "tricky", 1), (15, "tricky", 1), (15, "fiendish", 1),
             (20, "tricky", 1), (20, "fiendish", 1)]


def write_data(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    progress = Progress("writing data/singles", len(DATA_PLAN))
    for size, difficulty, seed in DATA_PLAN:
        puzzle = generate(width=size, height=size, difficulty=difficulty, seed=seed)
        header = (f"# singles {size}x{size}, made by: csp-puzzles generate singles --difficulty "
                  f"{difficulty} --size {size} --seed {seed}\n"
                  f"# (that is csp_puzzles.singles.generate(width={size}, height={size}, "
                  f"difficulty={difficulty!r}, seed={seed}))\n"
                  f"# grade: {grade(puzzle)} (Tatham's levels); exactly one solution "
                  "(counted)\n")
        name = f"{difficulty}-{size}x{size}-seed{seed}.txt"
        (directory / name).write_text(header + puzzle.to_text(), encoding="utf-8")
        progress.step(name)


def _timed_solve(puzzle: Singles, expected: frozenset | None = None) -> tuple[float, float, int]:
    start = time.perf_counter()
    result = puzzle.solve(timeout=60)
    solve_seconds = time.perf_counter() - start
    if result.status != "solved" or puzzle.check(result.solution):
        raise RuntimeError(f"wrong answer ({result.status}) on\n{puzzle.to_text()}")
    if expected is not None and result.solution != expected:
        raise RuntimeError(f"solution differs from the published one on\n{puzzle.to_text()}")
    start = time.perf_counter()
    counted = puzzle.count(limit=2, timeout=60)
    count_seconds = time.perf_counter() - start
    if counted.solutions != 1 or counted.status != "solved":
        raise RuntimeError(f"not proved unique ({counted.status}) on\n{puzzle.to_text()}")
    return solve_seconds, count_seconds, max(result.stats.nodes, counted.stats.nodes)


def _summary(groups: dict[str, list[tuple[float, float, int]]], goal: float) -> list[list]:
    rows = []
    for key, runs in groups.items():
        solves = [r[0] for r in runs]
        counts = [r[1] for r in runs]
        rows.append([key, len(runs), median(solves), max(solves), median(counts), max(counts),
                     max(r[2] for r in runs), sum(s < goal for s in solves)])
    return rows


def bench_janko(limit: int | None) -> str | None:
    path = SHARED / "janko" / "hitori.json"
    if not path.exists():
        return None
    items = list(json.loads(path.read_text())["data"].items())[:limit]
    progress = Progress("janko hitori", len(items))
    groups: dict[str, list[tuple[float, float, int]]] = {}
    for name, item in items:
        puzzle = parse(item["problem"], filename=name)
        rows = [line.split() for line in item["solution"].strip().splitlines()[1:]]
        expected = frozenset((r, c) for r, row in enumerate(rows)
                             for c, x in enumerate(row) if x == "x")
        key = f"{puzzle.height}x{puzzle.width}"
        groups.setdefault(key, []).append(_timed_solve(puzzle, expected))
        progress.step(name)
    ordered = dict(sorted(groups.items(), key=lambda kv: tuple(map(int, kv[0].split("x")))))
    return "janko.at Hitori (goal: every solve < 0.2 s)\n" + table(
        ["size", "puzzles", "solve med s", "solve max s", "count med s", "count max s",
         "max nodes", "< 0.2 s"], _summary(ordered, 0.2))


def bench_tatham() -> str | None:
    path = SHARED / "tatham" / "singles-solutions.jsonl"
    if not path.exists():
        return None
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    progress = Progress("tatham singles", len(rows))
    groups: dict[str, list[tuple[float, float, int]]] = {}
    for row in rows:
        shaded = frozenset((int(y), int(x)) for part in row["solve_move"].split(";")[1:]
                           if part.startswith("B") for x, y in [part[1:].split(",")])
        groups.setdefault(row["params"], []).append(_timed_solve(parse(row["id"]), shaded))
        progress.step(row["params"])
    return "Tatham Singles IDs\n" + table(
        ["params", "puzzles", "solve med s", "solve max s", "count med s", "count max s",
         "max nodes", "< 0.2 s"], _summary(groups, 0.2))


def _peer_solve(puzzle: Singles) -> bool:
    problem = to_python_constraint(puzzle.to_csp())
    return problem.getSolution() is not None


def bench_cplex_baseline(per_size: int, peer_timeout: float) -> str:
    sizes = (5, 6, 7)
    progress = Progress("CPLEX baseline sizes 5-7", len(sizes) * per_size)
    rows = []
    for size in sizes:
        ours, plain, peer, peer_done = [], [], [], 0
        for seed in range(1, per_size + 1):
            puzzle = generate(width=size, height=size, difficulty="easy", seed=seed)
            ours.append(_timed_solve(puzzle)[0])
            start = time.perf_counter()
            result = puzzle.solve(var_order=first_undecided, inference="fc")
            plain.append(time.perf_counter() - start)
            assert result.solved and not puzzle.check(result.solution)
            found, seconds, finished = run_limited(partial(_peer_solve, puzzle), peer_timeout)
            peer.append(seconds)
            peer_done += bool(finished and found)
            progress.step(f"{size}x{size} seed {seed}")
        cplex = CPLEX_BASELINE[size]
        rows.append([f"{size}x{size}", per_size, median(ours), max(ours), median(plain),
                     max(plain), median(peer), max(peer), f"{peer_done}/{per_size}",
                     median(peer) / max(median(ours), 1e-9), cplex[0], cplex[1]])
    return ("CPLEX baseline, sizes 5-7 (ours: MAC + probing; fc: forward checking, first "
            f"undecided; python-constraint2 stopped at {peer_timeout:g} s)\n" + table(
                ["size", "puzzles", "ours med s", "ours max s", "fc med s", "fc max s",
                 "peer med s", "peer max s", "peer solved", "peer/ours",
                 "cplex med s", "cplex max s"], rows))


def bench_big(size: int, seeds: int) -> str:
    progress = Progress(f"{size}x{size}", seeds)
    rows = []
    for seed in range(1, seeds + 1):
        start = time.perf_counter()
        puzzle = generate(width=size, height=size, difficulty="easy", seed=seed)
        generated = time.perf_counter() - start
        solved, counted, nodes = _timed_solve(puzzle)
        rows.append([f"{size}x{size}", seed, generated, solved, counted, nodes])
        progress.step(f"seed {seed}")
    return (f"{size}x{size} (goals: generate < 10 s, solve < 3 s; the CPLEX baseline: 5 min 40 s "
            "and 33 s)\n" + table(
                ["size", "seed", "generate s", "solve s", "count s", "nodes"], rows))


def main(argv: list[str]) -> int:
    parser = BenchParser(prog="csp-puzzles bench singles",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="the first 60 janko puzzles, 3 puzzles per seed-004 size, 30x30")
    parser.add_argument("--limit", type=int, help="only the first N janko puzzles")
    parser.add_argument("--per-size", type=int, default=10, help="seed-004 puzzles per size")
    parser.add_argument("--peer-timeout", type=float, default=10.0)
    parser.add_argument("--big", type=int, default=100, help="side of the large grid")
    parser.add_argument("--big-seeds", type=int, default=1)
    parser.add_argument("--write-data", metavar="DIR", help="write data/singles and stop")
    args = parser.parse_args(argv)
    if args.write_data:
        write_data(Path(args.write_data))
        return 0
    limit, per_size, big = args.limit, args.per_size, args.big
    if args.quick:
        limit, per_size, big = limit or 60, min(per_size, 3), min(big, 30)
    sections = [bench_janko(limit), bench_tatham(),
                bench_cplex_baseline(per_size, args.peer_timeout), bench_big(big, args.big_seeds)]
    print("\n\n".join(s for s in sections if s))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
