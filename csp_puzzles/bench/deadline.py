"""How long `csp-puzzles solve --timeout T` really takes, the whole process counted.

`--timeout` is one deadline for the command: reading, parsing, building the model and the
search. This runs the command as a separate process on puzzle files (by default the
Coelho et al. 400-island Hashi instances, the slowest to load and to propagate) and prints
each process's wall-clock time against T, with the CPU seconds it got (on a busy machine a
process waits for a core: wall time is what the deadline bounds).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from .options import BenchParser

DEFAULT_FOLDER = Path(os.environ.get("CSP_PUZZLES_SHARED", "../shared")) / "data" / \
    "coelho-hashi" / "400"


def run_once(kind: str, path: Path, timeout: float) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, status) of one `solve --json --timeout` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "csp_puzzles", "solve", kind, str(path),
                           "--timeout", str(timeout), "--json"],
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        status = json.loads(done.stdout)["status"]
    except (ValueError, KeyError):
        status = f"exit {done.returncode}"
    return wall, cpu, status


def main(argv: list[str]) -> int:
    parser = BenchParser(prog="csp-puzzles bench deadline", description=__doc__)
    parser.add_argument("--kind", default="hashi")
    parser.add_argument("--folder", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--timeout", type=float, default=1.0, metavar="T")
    parser.add_argument("--limit", type=int, default=10, metavar="N",
                        help="puzzles, spread over the folder (default 10)")
    args = parser.parse_args(argv)
    files = sorted(p for p in args.folder.glob("*") if p.is_file())
    if not files:
        print(f"no puzzle files in {args.folder}", file=sys.stderr)
        return 2
    picked = files[::max(1, len(files) // args.limit)][:args.limit]
    print(f"{'puzzle':<28} {'status':<14} {'wall s':>7} {'cpu s':>6} {'wall - T':>8}")
    worst = 0.0
    for path in picked:
        wall, cpu, status = run_once(args.kind, path, args.timeout)
        worst = max(worst, wall - args.timeout)
        print(f"{path.name:<28} {status:<14} {wall:7.2f} {cpu:6.2f} {wall - args.timeout:8.2f}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"worst wall - T: {worst:.2f} s over {len(picked)} processes "
          f"(T = {args.timeout} s, load average {load:.1f})")
    return 0
