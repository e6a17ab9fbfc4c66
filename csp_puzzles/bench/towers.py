"""`csp-puzzles bench towers`: Towers at sizes 4-9 and every Tatham level, a CPLEX baseline.

Three tables:

1. levels: our solver (full model, MAC, MRV) on the project's set `data/towers/` (or, when
   it is absent, puzzles generated on the spot with seeds 1..limit) and on Tatham's set in
   ../shared/data when present: median and max seconds and nodes per size and level;
   python-constraint2 (bench/peers.py) on the plain model of the same puzzles (the
   Latin square and the clues, checked on complete lines: what a generic solver can use)
   for the sizes in `--peer-sizes`, stopped after `--peer-timeout` seconds, with the ratio.
2. grading: our grade against Tatham's level on Tatham's set (when present).
3. the CPLEX baseline: an earlier student project's experiment again (random Latin
   squares, every clue, empty grid; one instance of size 3 and ten of sizes 5-8), our
   solver in place of its CPLEX integer program and of its heuristic, beside the times
   that project reported.

`--write-data DIR` writes the project's puzzle set instead (one file per puzzle).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from ..towers import DIFFICULTIES, Towers, generate, grade, parse
from ..towers.generate import clues_of, latin_square
from .options import BenchParser, whole_numbers
from .peers import run_limited, to_python_constraint
from .report import Progress, median, table

DATA = Path(__file__).resolve().parents[2] / "data" / "towers"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "tatham"
LEVEL_OF = {"e": "easy", "h": "hard", "x": "extreme", "u": "unreasonable"}
# that project's CPLEX times (seconds), per size: (instances, median, max) as it reported them
CPLEX_BASELINE = {3: (1, 0.03, 0.03), 5: (10, 0.085, 0.11), 6: (10, 0.195, 0.83),
                 7: (10, 0.87, 4.08), 8: (10, 20.98, 103.69)}


def data_file(n: int, difficulty: str, seed: int) -> str:
    return f"{n}x{n}-{difficulty}-{seed}.txt"


def write_data(directory: Path, sizes: list[int], per_level: int) -> None:
    """Generate the project's own set: `per_level` puzzles per size and level."""
    directory.mkdir(parents=True, exist_ok=True)
    progress = Progress("writing data/towers", len(sizes) * len(DIFFICULTIES) * per_level)
    for n in sizes:
        for difficulty in DIFFICULTIES:
            for seed in range(1, per_level + 1):
                puzzle = generate(size=n, difficulty=difficulty, seed=seed)
                header = (f"# towers {n}x{n}, difficulty {difficulty}, seed {seed}, grade "
                          f"{grade(puzzle)}, {puzzle.clue_count()} clues, "
                          f"{len(puzzle.given_cells())} givens, unique (counted)\n"
                          f"# csp-puzzles generate towers --size {n} --difficulty {difficulty}"
                          f" --seed {seed}\n# {puzzle.to_tatham()}\n")
                (directory / data_file(n, difficulty, seed)).write_text(
                    header + puzzle.to_text(), encoding="utf-8")
                progress.step(f"{n}x{n} {difficulty} {seed}")


def project_set(sizes: list[int], limit: int) -> list[tuple[str, int, str, Towers]]:
    """(source, size, level, puzzle) from data/towers, generating what is missing."""
    found = []
    for n in sizes:
        for difficulty in DIFFICULTIES:
            for seed in range(1, limit + 1):
                path = DATA / data_file(n, difficulty, seed)
                if path.exists():
                    puzzle = parse(path.read_text(encoding="utf-8"), str(path))
                else:
                    puzzle = generate(size=n, difficulty=difficulty, seed=seed)
                found.append(("project", n, difficulty, puzzle))
    return found


def tatham_set(sizes: list[int], limit: int) -> list[tuple[str, int, str, Towers]]:
    path = SHARED / "towers.tsv"
    if not path.exists():
        return []
    found: list[tuple[str, int, str, Towers]] = []
    taken: dict[tuple[int, str], int] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        params, game_id = line.split("\t")
        n, level = int(params[0]), LEVEL_OF[params[-1]]
        if n in sizes and taken.get((n, level), 0) < limit:
            taken[(n, level)] = taken.get((n, level), 0) + 1
            found.append(("tatham", n, level, parse(game_id)))
    return found


def solve_once(puzzle: Towers) -> tuple[float, float, int, bool]:
    """Wall seconds, CPU seconds, nodes, and whether the checker accepts the solution.

    CPU time is reported beside wall time because the benchmark machine may be shared.
    """
    cpu = time.process_time()
    result = puzzle.solve()
    cpu = time.process_time() - cpu
    ok = result.solution is not None and not puzzle.check(result.solution)
    return result.stats.seconds, cpu, result.stats.nodes, ok


def peer_once(puzzle: Towers, timeout: float, model: str = "plain") -> tuple[float, bool]:
    """python-constraint2 on `model`, the plain one by default (all-different lines, clues
    checked on complete lines): the full model's clue propagators are only checks to it,
    and the full model leaves all-different to them on clued lines."""
    csp = puzzle.to_csp(model=model)

    def run() -> Any:
        return to_python_constraint(csp).getSolution()

    value, seconds, finished = run_limited(run, timeout)
    if finished and value is not None:
        grid = puzzle.decode(value)
        finished = not puzzle.check(grid)
    return seconds, finished


def levels_table(puzzles: list[tuple[str, int, str, Towers]], peer_sizes: set[int],
                 peer_timeout: float, peer_model: str = "plain") -> str:
    groups: dict[tuple[str, int, str], list[Towers]] = {}
    for source, n, level, puzzle in puzzles:
        groups.setdefault((source, n, level), []).append(puzzle)
    progress = Progress("towers levels", len(puzzles))
    rows = []
    for (source, n, level), members in groups.items():
        seconds, cpus, nodes, solved, peer_s, peer_done, ratios = [], [], [], 0, [], 0, []
        for puzzle in members:
            s, cpu, k, ok = solve_once(puzzle)
            seconds.append(s)
            cpus.append(cpu)
            nodes.append(k)
            solved += ok
            if n in peer_sizes:
                ps, done = peer_once(puzzle, peer_timeout, peer_model)
                peer_s.append(ps)
                peer_done += done
                ratios.append(ps / max(s, 1e-6))
            progress.step(f"{source} {n}x{n} {level}")
        peer = f"{peer_done}/{len(members)}" if peer_s else "-"
        ratio = f"{min(ratios):.0f}x" if ratios else "-"
        overall = f"{sum(peer_s) / sum(seconds):.0f}x" if peer_s else "-"
        rows.append((source, f"{n}x{n}", level, len(members), f"{solved}/{len(members)}",
                     median(seconds), max(seconds), max(cpus), int(median(nodes)), max(nodes),
                     peer,
                     median(peer_s) if peer_s else float("nan"),
                     max(peer_s) if peer_s else float("nan"), ratio, overall))
    headers = ("source", "size", "level", "n", "solved", "median s", "max s", "max cpu s",
               "median nodes", "max nodes", "pc2 done", "pc2 median s", "pc2 max s", "min ratio",
               "total ratio")
    return table(headers, rows)


def grading_table(puzzles: list[tuple[str, int, str, Towers]]) -> str:
    counts: dict[tuple[str, str], int] = {}
    for source, _, level, puzzle in puzzles:
        if source == "tatham":
            key = (level, grade(puzzle))
            counts[key] = counts.get(key, 0) + 1
    rows = [(level, *(counts.get((level, ours), 0) for ours in DIFFICULTIES))
            for level in DIFFICULTIES]
    return table(("tatham level", *(f"ours {d}" for d in DIFFICULTIES)), rows)


def cplex_baseline_table(per_size: int) -> str:
    sizes = [(3, 1)] + [(n, per_size) for n in (5, 6, 7, 8)]
    progress = Progress("CPLEX baseline", sum(k for _, k in sizes))
    rows = []
    for n, k in sizes:
        seconds, solved, unique = [], 0, 0
        for i in range(1, k + 1):
            grid = latin_square(n, random.Random(f"seed004-{n}-{i}"))
            puzzle = Towers.from_sides(n, clues_of(grid))
            s, _, _, ok = solve_once(puzzle)
            counted = puzzle.count(limit=2)
            seconds.append(s + counted.stats.seconds)
            solved += ok
            unique += counted.unique is True
            progress.step(f"t{n}_{i}")
        cplex = CPLEX_BASELINE[n]
        rows.append((n, k, f"{solved}/{k}", f"{unique}/{k}", statistics.median(seconds),
                     max(seconds), cplex[1], cplex[2], "1/1" if n == 3 else "0/10"))
    headers = ("size", "instances", "solved", "unique", "ours median s", "ours max s",
               "cplex median s", "cplex max s", "heuristic solved")
    # ours = solve plus the count that proves (non-)uniqueness; cplex and heuristic are the
    # figures that project reported for its own instances (the heuristic solved only size 3)
    return table(headers, rows)


def main(argv: list[str]) -> int:
    parser = BenchParser(prog="csp-puzzles bench towers", description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="one puzzle per size and level, peer stopped after 5 s")
    parser.add_argument("--limit", type=int, default=3, metavar="N",
                        help="puzzles per size and level (default 3)")
    parser.add_argument("--sizes", type=whole_numbers, default=[4, 5, 6, 7, 8, 9])
    parser.add_argument("--peer-sizes", type=whole_numbers, default=[4, 5, 6],
                        help="sizes python-constraint2 runs on (default 4,5,6)")
    parser.add_argument("--peer-timeout", type=float, default=20.0, metavar="SECONDS")
    parser.add_argument("--peer-model", choices=("plain", "full"), default="plain",
                        help="the model python-constraint2 runs (default plain)")
    parser.add_argument("--write-data", metavar="DIR",
                        help="write the project's puzzle set to DIR and stop")
    args = parser.parse_args(argv)
    sizes, peer_sizes = args.sizes, set(args.peer_sizes)
    if args.quick:
        args.limit, args.peer_timeout = 1, min(args.peer_timeout, 5.0)
    if args.write_data:
        write_data(Path(args.write_data), sizes, args.limit)
        return 0
    puzzles = project_set(sizes, args.limit) + tatham_set(sizes, args.limit)
    print("Towers by size and level (full model, MAC + MRV; pc2 = python-constraint2 on "
          f"the {args.peer_model} model, stopped after {args.peer_timeout:g} s; ratio = pc2 s "
          "/ our s, per puzzle (min) and summed (total), lower bounds when pc2 was stopped)")
    print(levels_table(puzzles, peer_sizes, args.peer_timeout, args.peer_model))
    if any(source == "tatham" for source, *_ in puzzles):
        print("\nOur grade of Tatham's puzzles (rows: Tatham's level)")
        print(grading_table(puzzles))
    print("\nThe CPLEX baseline again: every clue, empty grid; ours = solve + count to 2 "
          "(cplex and heuristic: as that project reported them)")
    print(cplex_baseline_table(3 if args.quick else 10))
    sys.stdout.flush()
    return 0
