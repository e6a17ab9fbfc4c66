"""`csp-puzzles bench core`: our search against two peers on the same problems, one run.

Peers: AIMA's pure-Python backtracking (`aima.py` here, a labelled port of aima-python's
`csp.py`: forward checking + MRV, counting every solution) and python-constraint2's
`BacktrackingSolver` and `OptimizedBacktrackingSolver` (forward checking, compiled).
Every peer gets the same model; each time is divided by each peer's time on the same
problem, measured in the same run, so the machine's load cancels out.

The default is quick (8- and 10-queens, every solution; the first solution of a hard
Sudoku; under 30 seconds on an idle machine). `--full` adds every four-colouring of AIMA's
France map (1,124,352 solutions) and the first solution of 30-queens: about 2-4 minutes.
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
from .peers import run_limited, to_python_constraint
from .report import Progress, table

PEERS = ("BacktrackingSolver", "OptimizedBacktrackingSolver")
FC_MRV = (("fc", "mrv"),)
ALL_OURS = (("none", "input"), ("fc", "mrv"), ("mac", "mrv"))


@dataclass(frozen=True)
class Problem:
    make: Callable[[], CSP]
    every: bool  # count every solution (else: find the first)
    ours: tuple[tuple[str, str], ...]  # (inference, variable order) runs of ours
    make_aima: Callable[[], aima.CSP] | None = None  # the same model on AIMA's code
    full_only: bool = False


PROBLEMS: dict[str, Problem] = {
    "8-queens, all": Problem(lambda: queens(8), True, ALL_OURS, lambda: aima.QueensCSP(8)),
    "10-queens, all": Problem(lambda: queens(10), True, FC_MRV + (("mac", "mrv"),),
                              lambda: aima.QueensCSP(10)),
    "France 4 colours, all": Problem(lambda: map_colouring(FRANCE, "RGBY"), True, FC_MRV,
                                     lambda: aima.MapColoringCSP(list("RGBY"), FRANCE_SPEC),
                                     full_only=True),
    "30-queens, first": Problem(lambda: queens(30), False, ALL_OURS, full_only=True),
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


def run_aima(problem: Problem, timeout: float) -> tuple[str, float]:
    assert problem.make_aima is not None
    model = problem.make_aima()
    value, seconds, finished = run_limited(lambda: aima.count_solutions(model), timeout)
    return (str(value) if finished else "limit"), seconds


def run_peer(problem: Problem, solver: str, timeout: float) -> tuple[str, float]:
    model = to_python_constraint(problem.make(), solver)
    task = (lambda: len(model.getSolutions())) if problem.every else (
        lambda: int(model.getSolution() is not None))
    value, seconds, finished = run_limited(task, timeout)
    return (str(value) if finished else "limit"), seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="csp-puzzles bench core", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds allowed for each run (default 60)")
    parser.add_argument("--full", action="store_true",
                        help="also the France map (every colouring) and 30-queens: 2-4 minutes")
    parser.add_argument("--quick", action="store_true", help="the default (kept for scripts)")
    args = parser.parse_args(argv)
    names = [n for n, p in PROBLEMS.items() if args.full or not p.full_only]
    steps = sum(len(PEERS) + len(PROBLEMS[n].ours) + (PROBLEMS[n].make_aima is not None)
                for n in names)
    progress = Progress("bench core", steps)
    started = time.perf_counter()
    rows = []
    for name in names:
        problem = PROBLEMS[name]
        measured: list[tuple[str, str, int | str, float]] = []
        reference: dict[str, float] = {}
        if problem.make_aima is not None:
            answer, seconds = run_aima(problem, args.timeout)
            measured.append(("AIMA fc + mrv (port)", answer, "-", seconds))
            reference["aima"] = seconds if answer != "limit" else float("nan")
            progress.step(f"{name}: AIMA")
        for solver in PEERS:
            answer, seconds = run_peer(problem, solver, args.timeout)
            measured.append((f"python-constraint2 {solver}", answer, "-", seconds))
            reference[solver] = seconds if answer != "limit" else float("nan")
            progress.step(f"{name}: {solver}")
        for inference, var_order in problem.ours:
            answer, visited, seconds = run_ours(problem, inference, var_order, args.timeout)
            measured.append((f"ours {inference} + {var_order}", answer, visited, seconds))
            progress.step(f"{name}: {inference}")
        for solver, answer, nodes, seconds in measured:
            ratios = [seconds / reference[k] if k in reference else float("nan")
                      for k in ("aima", *PEERS)]
            rows.append((name, solver, answer, nodes, seconds, *ratios))
    print(table(("problem", "solver", "answer", "nodes", "seconds", "/ AIMA", "/ pc BT",
                 "/ pc optimized"), rows))
    print("answer: solutions found ('limit': stopped at the time limit); / AIMA, / pc BT,"
          " / pc optimized: time divided by that peer's time on the same problem in this run"
          " ('-': no such peer run, or it hit the limit). AIMA: a port of aima-python's"
          " backtracking_search (forward checking, MRV), counting every solution.")
    spent = time.perf_counter() - started
    more = "" if args.full else "; --full adds the France map and 30-queens (2-4 minutes)"
    print(f"this run: {spent:.0f} s{more}")
    return 0
