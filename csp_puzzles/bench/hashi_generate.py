"""Benchmark of the Hashi generator (time per size and difficulty) and of the SAT back end.

    python -m csp_puzzles.bench.hashi_generate [--quick] [--count N] [--sat]

The generator's goal: a 25x25 hard puzzle in under 2 seconds on average. The
table gives, per size and difficulty, the mean / median / max seconds of `generate` over
`--count` seeds and the mean island count. `--sat` adds a table of the SAT back end
(lazy cuts and the complete level encoding) against the CSP solver on the shared
Tatham and janko puzzles; its `ok` column counts CSP solutions that pass the checker and
SAT solutions equal to the CSP's. `generation_table` and `sat_table` are what `bench/hashi.py`
can call. `--write-data data/hashi` rewrites the project's own puzzle files.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from ..hashi.generate import generate
from .report import Progress, median, table, timed

DATA = Path(os.environ.get("CSP_PUZZLES_SHARED",
                           Path(__file__).resolve().parents[3] / "shared")) / "data"
SIZES = (5, 7, 10, 15, 20, 25, 30, 40)
QUICK_SIZES = (7, 10, 25)
LEVELS = ("easy", "medium", "hard", "fiendish")


def generation_table(sizes: Sequence[int] = SIZES, difficulties: Sequence[str] = LEVELS,
                     count: int = 5, first_seed: int = 0) -> str:
    """Seconds to generate `count` puzzles of each size (square) and difficulty."""
    rows = []
    progress = Progress("hashi generate", len(sizes) * len(difficulties) * count)
    for size in sizes:
        for level in difficulties:
            seconds, cpu, islands, failed = [], [], [], 0
            for seed in range(first_seed, first_seed + count):
                started = time.process_time()
                try:
                    puzzle, spent = timed(partial(
                        generate, width=size, height=size, difficulty=level, seed=seed))
                except ValueError:
                    failed += 1
                    progress.step(f"{size}x{size} {level}: none")
                    continue
                cpu.append(time.process_time() - started)
                seconds.append(spent)
                islands.append(len(puzzle.islands))
                progress.step(f"{size}x{size} {level}")
            rows.append([f"{size}x{size}", level, len(seconds), failed,
                         statistics.fmean(islands) if islands else float("nan"),
                         statistics.fmean(seconds) if seconds else float("nan"),
                         median(seconds), max(seconds, default=float("nan")),
                         statistics.fmean(cpu) if cpu else float("nan")])
    return table(["size", "difficulty", "made", "failed", "islands", "mean s", "median s",
                  "max s", "mean cpu s"], rows)


def sat_table(limit: int | None = None) -> str:
    """SAT (lazy cuts, complete levels encoding) against the CSP solver, shared puzzles."""
    from ..hashi import parse
    from ..hashi.sat import solve_sat

    sets = []
    try:
        with open(DATA / "tatham" / "bridges.tsv", encoding="utf-8") as handle:
            ids = [line.split("\t")[1].strip() for line in handle if line.strip()]
        sets.append(("tatham", ids))
        with open(DATA / "janko" / "hashi.json", encoding="utf-8") as handle:
            sets.append(("janko", [e["problem"] for e in json.load(handle)["data"].values()]))
    except OSError:
        return f"shared data not available at {DATA}: no SAT table"
    rows = []
    for name, texts in sets:
        texts = texts[:limit] if limit else texts
        times: dict[str, list[float]] = {"csp": [], "sat cuts": [], "sat levels": []}
        agree = dict.fromkeys(times, 0)
        progress = Progress(f"hashi sat {name}", len(texts))
        for text in texts:
            puzzle = parse(text)
            result, spent = timed(partial(puzzle.solve, timeout=60))
            times["csp"].append(spent)
            agree["csp"] += result.solution is not None and puzzle.check(result.solution) == []
            for mode in ("cuts", "levels"):
                solution, spent = timed(partial(solve_sat, puzzle, connectivity=mode))
                times[f"sat {mode}"].append(spent)
                agree[f"sat {mode}"] += solution is not None and solution == result.solution
            progress.step()
        for method, values in times.items():
            rows.append([name, method, len(values), agree[method], statistics.fmean(values),
                         median(values), max(values)])
    return table(["puzzles", "method", "n", "ok", "mean s", "median s", "max s"], rows)


DATA_SET = [(level, size) for size in (7, 10, 15) for level in ("easy", "medium", "hard")]


def write_data_set(directory: Path, seed: int = 1) -> list[Path]:
    """(Re)write the project's own puzzles, `data/hashi/LEVEL-NxN.txt`, from their seed.

    Run it after a change to the generator or to the rule levels (the tests check that
    each file's seed still gives it back, with the grade its comment states).
    """
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for level, size in DATA_SET:
        puzzle = generate(width=size, height=size, difficulty=level, seed=seed)
        path = directory / f"{level}-{size}x{size}.txt"
        path.write_text(
            f"# hashi {size}x{size}, grade {level}, {len(puzzle.islands)} islands, seed {seed}\n"
            f"# csp-puzzles generate hashi --size {size}x{size} --difficulty {level} "
            f"--seed {seed}\n{puzzle.to_text().rstrip()}\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hashi_generate", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="7x7, 10x10 and 25x25 only")
    parser.add_argument("--count", type=int, default=5, help="puzzles per size and level")
    parser.add_argument("--sat", action="store_true", help="also benchmark the SAT back end")
    parser.add_argument("--limit", type=int, help="SAT table: first N puzzles of each set")
    parser.add_argument("--write-data", metavar="DIR",
                        help="only rewrite the data set (data/hashi) into DIR")
    args = parser.parse_args(argv)
    if args.write_data:
        for path in write_data_set(Path(args.write_data)):
            print(path)
        return 0
    sizes = QUICK_SIZES if args.quick else SIZES
    print(generation_table(sizes, LEVELS, args.count))
    if args.sat:
        print()
        print(sat_table(args.limit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
