"""`csp-puzzles bench tatham`: our grades against Simon Tatham's, both ways.

1. **His puzzles graded by ours**: `../shared/data/tatham-graded/` holds puzzles his
   generator made, each with the level his own solver gives it; per kind and level, how
   many `grade()` puts at the same level.
2. **Ours graded by his**: our generator's puzzles at each level and a few sizes, graded
   by his solver, with the seconds each took to generate. His solvers are his games' own
   code: `tatham_driver.c` (beside this file) is compiled against a copy of his source
   given with `--tatham-src DIR` or `$TATHAM_SRC` (a directory holding `bridges.c`,
   `towers.c`, `singles.c`, ...; Debian's `apt-get source sgt-puzzles` unpacks one). Without
   it this part is skipped. Nothing of his is kept in this project.

Levels beyond his hardest solver (Hashi and Singles `fiendish`) are what his driver calls
"beyond"; Towers `unreasonable` is his own (his solver recurses).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from importlib import import_module
from pathlib import Path
from typing import Any

from ..puzzle.registry import puzzle_module
from .options import BenchParser
from .report import Progress, median, table

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "tatham-graded"
DRIVER = Path(__file__).with_name("tatham_driver.c")
#: his game of each kind, and the data files of his puzzles
GAMES = {"hashi": "bridges", "towers": "towers", "singles": "singles"}
DATA_FILES = {"hashi": ("bridges", "bridges-ie", "bridges-big"), "towers": ("towers",),
              "singles": ("singles", "singles-big")}
#: what his driver says of a puzzle his hardest level cannot finish, by our name for it
BEYOND = {"fiendish": "beyond"}
#: his files the driver links with
LIBRARY = ("malloc", "misc", "random", "dsf", "tree234", "findloop", "latin", "matching",
           "sort", "nullfe")
#: sizes generated for part 2 at each level (the smallest each level offers, and more)
SIDES = {"hashi": (7, 10, 15), "towers": (4, 5, 6), "singles": (6, 8, 10)}


def build_driver(source: Path, kind: str, cache: Path) -> Path:
    """His `kind` game's solver, compiled once per source tree into `cache`."""
    game = GAMES[kind]
    key = hashlib.sha256(DRIVER.read_bytes() + (source / f"{game}.c").read_bytes()).hexdigest()
    binary = cache / f"{game}-{key[:16]}"
    if not binary.exists():
        cache.mkdir(parents=True, exist_ok=True)
        files = [str(source / f"{name}.c") for name in LIBRARY]
        subprocess.run([os.environ.get("CC", "cc"), "-O2", "-w", "-I", str(source),
                        f"-DGAME_{game.upper()}", str(DRIVER), *files, "-lm", "-o",
                        str(binary)], check=True)
    return binary


def his_grades(binary: Path, ids: list[str]) -> list[str]:
    """His level for each game ID (`invalid` when his game refuses it)."""
    out = subprocess.run([str(binary), "grade"], input="".join(f"{i}\n" for i in ids),
                         capture_output=True, text=True, check=True).stdout
    return [line.split("\t")[0] for line in out.splitlines()]


def his_level(ours: str) -> str:
    return BEYOND.get(ours, ours)


# -- 1. his puzzles, our grades -------------------------------------------------------------------
def graded_rows(kind: str, max_side: int) -> list[dict[str, Any]]:
    """His puzzles of `kind` no wider than `max_side`, from the shared data."""
    rows = []
    for name in DATA_FILES[kind]:
        path = SHARED / f"tatham_{name}.jsonl"
        if path.exists():
            with open(path, encoding="utf-8") as handle:
                rows += [json.loads(line) for line in handle if line.strip()]
    module = puzzle_module(kind)
    return [row for row in rows if _side(module.parse(row["id"])) <= max_side]


def _side(puzzle: Any) -> int:
    return getattr(puzzle, "size", None) or max(puzzle.width, puzzle.height)


def his_graded_by_ours(kind: str, max_side: int) -> list[tuple[Any, ...]]:
    """(kind, his level, puzzles, ours the same, %, what ours said otherwise)."""
    module = puzzle_module(kind)
    rows = graded_rows(kind, max_side)
    progress = Progress(f"{kind}: his puzzles", len(rows))
    said: dict[str, Counter[str]] = {}
    for row in rows:
        ours = his_level(module.parse(row["id"]).grade())
        said.setdefault(row["grade"], Counter())[ours] += 1
        progress.step()
    return [_agreement(kind, level, said[level]) for level in _in_order(kind, said)]


def _agreement(kind: str, level: str, said: Counter[str]) -> tuple[Any, ...]:
    total, same = sum(said.values()), said[level]
    others = ", ".join(f"{name} {n}" for name, n in said.most_common() if name != level)
    return (kind, level, total, same, f"{100 * same / total:.1f}", others or "-")


def _in_order(kind: str, said: dict[str, Any]) -> list[str]:
    order = [his_level(level) for level in puzzle_module(kind).DIFFICULTIES]
    return [level for level in order if level in said] + sorted(set(said) - set(order))


# -- 2. our puzzles, his grades -------------------------------------------------------------------
def ours_graded_by_his(kind: str, binary: Path, count: int) -> list[tuple[Any, ...]]:
    """(kind, our level, side, puzzles, his the same, %, his otherwise, median s, max s)."""
    module = puzzle_module(kind)
    sizes = import_module(f"csp_puzzles.{kind}.generate").SIZES
    rows = []
    jobs = [(level, side) for level in module.DIFFICULTIES for side in SIDES[kind]
            if sizes[level][0] <= side <= sizes[level][1]]
    progress = Progress(f"{kind}: ours", len(jobs) * count)
    for level, side in jobs:
        ids, seconds = [], []
        for seed in range(1, count + 1):
            start = time.process_time()
            puzzle = module.generate(width=side, height=side, difficulty=level, seed=seed)
            seconds.append(time.process_time() - start)
            ids.append(puzzle.to_tatham())
            progress.step()
        said = Counter(his_grades(binary, ids))
        agreement = _agreement(kind, his_level(level), said)
        rows.append((kind, level, side, *agreement[2:], f"{median(seconds):.2f}",
                     f"{max(seconds):.2f}"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = BenchParser(prog="csp-puzzles bench tatham", description=__doc__)
    parser.add_argument("--kinds", default="hashi,towers,singles")
    parser.add_argument("--max-side", type=int, default=30,
                        help="part 1: his puzzles up to this side (default 30)")
    parser.add_argument("--count", type=int, default=20,
                        help="part 2: puzzles generated per level and size (default 20)")
    parser.add_argument("--tatham-src", type=Path, default=os.environ.get("TATHAM_SRC"),
                        help="a copy of Tatham's puzzle source (part 2); default $TATHAM_SRC")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    if SHARED.exists():
        rows = [row for kind in kinds for row in his_graded_by_ours(kind, args.max_side)]
        print("His puzzles (shared/data/tatham-graded) graded by ours\n" + table(
            ("kind", "his level", "puzzles", "ours the same", "%", "ours otherwise"), rows))
    else:
        print(f"part 1 skipped: {SHARED} not found")
    source = args.tatham_src
    if source is None or not (Path(source) / "bridges.c").exists() or not shutil.which(
            os.environ.get("CC", "cc")):
        print("part 2 skipped: no copy of Tatham's source (--tatham-src or $TATHAM_SRC) or "
              "no C compiler")
        return 0
    cache = Path(tempfile.gettempdir()) / "csp-puzzles-tatham"
    rows = []
    for kind in kinds:
        rows += ours_graded_by_his(kind, build_driver(Path(source), kind, cache), args.count)
    print("\nOur puzzles graded by his solver (seconds: CPU to generate one)\n" + table(
        ("kind", "our level", "side", "puzzles", "his the same", "%", "his otherwise",
         "median s", "max s"), rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
