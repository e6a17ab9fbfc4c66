"""`csp-puzzles bench core`: our backtracking, forward checking and MAC against
python-constraint2's `BacktrackingSolver` and `OptimizedBacktrackingSolver`, same models.

Problems: all solutions of 8- and 10-queens, the first solution of 30-queens, and a hard
Sudoku. The last columns divide each time by each peer's time on the same problem,
measured in the same run.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..core import CSP, count, solve
from ..examples import queens, sudoku
from .peers import run_limited, to_python_constraint
from .report import Progress, table

PROBLEMS: dict[str, tuple[Callable[[], CSP], bool]] = {
    "8-queens, all": (lambda: queens(8), True),
    "10-queens, all": (lambda: queens(10), True),
    "30-queens, first": (lambda: queens(30), False),
    "hard sudoku, first": (sudoku, False),
}
OURS = (("none", "input"), ("fc", "mrv"), ("mac", "mrv"))
PEERS = ("BacktrackingSolver", "OptimizedBacktrackingSolver")


def run_ours(make: Callable[[], CSP], every: bool, inference: str, var_order: str,
             timeout: float) -> tuple[str, int, float]:
    if every:
        counted = count(make(), inference=inference, var_order=var_order, timeout=timeout)
        answer = str(counted.count) if counted.complete else "limit"
        stats = counted.stats
    else:
        result = solve(make(), inference=inference, var_order=var_order, timeout=timeout)
        answer = "1" if result.solved else result.status
        stats = result.stats
    return answer, stats.nodes, stats.seconds


def run_peer(make: Callable[[], CSP], every: bool, solver: str,
             timeout: float) -> tuple[str, float]:
    problem = to_python_constraint(make(), solver)
    task = (lambda: len(problem.getSolutions())) if every else (
        lambda: int(problem.getSolution() is not None))
    value, seconds, finished = run_limited(task, timeout)
    return (str(value) if finished else "limit"), seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="csp-puzzles bench core", description=__doc__)
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds allowed for each run (default 30)")
    parser.add_argument("--quick", action="store_true", help="8-queens and sudoku only")
    args = parser.parse_args(argv)
    names = [n for n in PROBLEMS if not args.quick or n in ("8-queens, all", "hard sudoku, first")]
    progress = Progress("bench core", len(names) * (len(OURS) + len(PEERS)))
    rows = []
    for name in names:
        make, every = PROBLEMS[name]
        measured: list[tuple[str, str, int | str, float]] = []
        reference = {}
        for solver in PEERS:
            answer, seconds = run_peer(make, every, solver, args.timeout)
            measured.append((f"python-constraint2 {solver}", answer, "-", seconds))
            reference[solver] = seconds if answer != "limit" else float("nan")
            progress.step(f"{name}: {solver}")
        for inference, var_order in OURS:
            answer, nodes, seconds = run_ours(make, every, inference, var_order, args.timeout)
            measured.append((f"ours {inference} + {var_order}", answer, nodes, seconds))
            progress.step(f"{name}: {inference}")
        for solver, answer, effort, seconds in measured:
            rows.append((name, solver, answer, effort, seconds,
                         *(seconds / reference[peer] for peer in PEERS)))
    print(table(("problem", "solver", "answer", "nodes", "seconds", "/ pc BT", "/ pc optimized"),
                rows))
    print("answer: solutions found ('limit': stopped at the time limit); / pc BT, / pc optimized:"
          " time divided by python-constraint2's BacktrackingSolver, OptimizedBacktrackingSolver"
          " time on the same problem in this run ('-' when that peer hit the limit)")
    print()
    local_search_section(args.quick, args.timeout)
    return 0


def local_search_section(quick: bool, timeout: float) -> None:
    """Min-conflicts rows (`csp-puzzles bench local`): n-queens to n = 100,000, or 1,000."""
    from . import local

    sizes = "100,1000" if quick else "100,200,1000,10000,100000"
    local.main(["--sizes", sizes, "--runs", "1" if quick else "3",
                "--peer-timeout", str(min(timeout, local.PEER_TIMEOUT))])
