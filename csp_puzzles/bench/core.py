"""`csp-puzzles bench core`: our search against two peers on the same problems, one run.

Peers: AIMA's pure-Python backtracking (`aima.py` here, a labelled port of aima-python's
`csp.py`: forward checking + MRV, counting every solution) and python-constraint2's
`BacktrackingSolver` and `OptimizedBacktrackingSolver` (forward checking, compiled).
Every peer gets the same model; each time is divided by each peer's time on the same
problem, measured in the same run, so the machine's load cancels out.

The default is quick (8- and 10-queens, every solution; the first solution of a hard
Sudoku; each the best of 3 runs; under 30 seconds on an idle machine). `--full` adds every
four-colouring of AIMA's France map (1,124,352 solutions) and the first solution of
30-queens: about 2-4 minutes in all.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..core import CSP, count, solve
from ..examples import FRANCE, map_colouring, queens, sudoku
from ..examples.france import FRANCE_SPEC
from . import aima
from .options import BenchParser
from .peers import run_limited, to_python_constraint
from .report import Progress, table

PEERS = ("BacktrackingSolver", "OptimizedBacktrackingSolver")
AIMA = "AIMA fc + mrv (port)"
FC_MRV = (("fc", "mrv"),)
ALL_OURS = (("none", "input"), ("fc", "mrv"), ("mac", "mrv"))


@dataclass(frozen=True)
class Problem:
    make: Callable[[], CSP]
    every: bool  # count every solution (else: find the first)
    ours: tuple[tuple[str, str], ...]  # (inference, variable order) runs of ours
    make_aima: Callable[[], aima.CSP] | None = None  # the same model on AIMA's code
    full_only: bool = False
    repeats: int = 3  # best of: a shared machine's load only ever adds time


PROBLEMS: dict[str, Problem] = {
    "8-queens, all": Problem(lambda: queens(8), True, ALL_OURS, lambda: aima.QueensCSP(8)),
    "10-queens, all": Problem(lambda: queens(10), True, FC_MRV + (("mac", "mrv"),),
                              lambda: aima.QueensCSP(10)),
    "France 4 colours, all": Problem(lambda: map_colouring(FRANCE, "RGBY"), True, FC_MRV,
                                     lambda: aima.MapColoringCSP(list("RGBY"), FRANCE_SPEC),
                                     full_only=True),
    "30-queens, first": Problem(lambda: queens(30), False, FC_MRV + (("mac", "mrv"),),
                                full_only=True, repeats=1),
    "hard sudoku, first": Problem(sudoku, False, (("fc", "mrv"), ("mac", "mrv"))),
}


def run_ours(problem: Problem, inference: str, var_order: str,
             timeout: float) -> tuple[str, int, float]:
    if problem.every:
        counted = count(problem.make(), inference=inference, var_order=var_order,
                        timeout=timeout)
        answer = str(counted.count) if counted.complete else "limit"
        return answer, counted.stats.nodes, counted.stats.seconds
    found = solve(problem.make(), inference=inference, var_order=var_order, timeout=timeout)
    return ("1" if found.solved else found.status), found.stats.nodes, found.stats.seconds


def run_aima(problem: Problem, timeout: float) -> tuple[str, str, float]:
    assert problem.make_aima is not None
    model = problem.make_aima()
    value, seconds, finished = run_limited(lambda: aima.count_solutions(model), timeout)
    return (str(value) if finished else "limit"), "-", seconds


def run_peer(problem: Problem, solver: str, timeout: float) -> tuple[str, str, float]:
    model = to_python_constraint(problem.make(), solver)
    task = (lambda: len(model.getSolutions())) if problem.every else (
        lambda: int(model.getSolution() is not None))
    value, seconds, finished = run_limited(task, timeout)
    return (str(value) if finished else "limit"), "-", seconds


def best_runs(problem: Problem, timeout: float,
              step: Callable[[str], None]) -> dict[str, tuple[str, int | str, float]]:
    """Each solver's best run: solver -> (answer, nodes, seconds).

    The solvers take turns, `problem.repeats` times, so the machine's load hits them alike.
    """
    best: dict[str, tuple[str, int | str, float]] = {}

    def keep(solver: str, answer: str, visited: int | str, seconds: float) -> None:
        if solver not in best or seconds < best[solver][2]:
            best[solver] = (answer, visited, seconds)
        step(solver)

    for _ in range(problem.repeats):
        if problem.make_aima is not None:
            keep(AIMA, *run_aima(problem, timeout))
        for solver in PEERS:
            keep(f"python-constraint2 {solver}", *run_peer(problem, solver, timeout))
        for inference, var_order in problem.ours:
            keep(f"ours {inference} + {var_order}",
                 *run_ours(problem, inference, var_order, timeout))
    return best


def main(argv: list[str] | None = None) -> int:
    parser = BenchParser(prog="csp-puzzles bench core", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds allowed for each run (default 60)")
    parser.add_argument("--full", action="store_true",
                        help="also the France map (every colouring) and 30-queens: 2-4 minutes")
    parser.add_argument("--quick", action="store_true", help="the default (kept for scripts)")
    args = parser.parse_args(argv)
    names = [n for n, p in PROBLEMS.items() if args.full or not p.full_only]
    steps = sum(PROBLEMS[n].repeats * (len(PEERS) + len(PROBLEMS[n].ours)
                                       + (PROBLEMS[n].make_aima is not None)) for n in names)
    progress = Progress("bench core", steps)
    started = time.perf_counter()
    rows = []
    for name in names:
        best = best_runs(PROBLEMS[name], args.timeout, lambda solver: progress.step(solver))
        reference = {solver: seconds if answer != "limit" else float("nan")
                     for solver, (answer, _, seconds) in best.items()}
        for solver, (answer, visited, seconds) in best.items():
            ratios = [seconds / reference[k] if k in reference else float("nan")
                      for k in (AIMA, *(f"python-constraint2 {p}" for p in PEERS))]
            rows.append((name, solver, answer, visited, seconds, *ratios))
    print(table(("problem", "solver", "answer", "nodes", "seconds", "/ AIMA", "/ pc BT",
                 "/ pc optimized"), rows))
    print("seconds: the best of 3 runs (1 for 30-queens); answer: solutions"
          " found ('limit': stopped at the time limit); / AIMA, / pc BT, / pc optimized: time"
          " divided by that peer's time on the same problem in this run"
          " ('-': no such peer run, or it hit the limit). AIMA: a port of aima-python's"
          " backtracking_search (forward checking, MRV), counting every solution.")
    spent = time.perf_counter() - started
    more = "" if args.full else "; --full adds the France map and 30-queens (2-4 minutes)"
    print(f"this run: {spent:.0f} s{more}")
    return 0
