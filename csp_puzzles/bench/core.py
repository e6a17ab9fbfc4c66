"""`csp-puzzles bench core`: our search against two peers on the same problems, one run.

Peers: AIMA's pure-Python backtracking (`aima.py` here, a labelled port of aima-python's
`csp.py`: forward checking + MRV, counting every solution) and python-constraint2's
`BacktrackingSolver` and `OptimizedBacktrackingSolver` (forward checking, compiled).
Every peer gets the same model and the same work, timed the same way (`WHAT_IS_TIMED`):
each solver builds every solution it finds as a dict of values and counts it, keeping none
(the first solution only, for the problems marked "first"); the model is built before the
clock starts; every run of every solver is a forked child process of its own, timed inside
it. Each time is divided by each peer's time on the same problem, measured in the same
run, so the machine's load cancels out.

The default is quick (8- and 10-queens, every solution; the first solution of a hard
Sudoku; each the best of 3 runs; under 30 seconds on an idle machine). `--full` adds every
four-colouring of AIMA's France map (1,124,352 solutions) and the first solution of
30-queens: about 2-4 minutes in all.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from typing import Any

from ..core import CSP
from ..core.search import make_search
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


#: what every figure times, for every solver alike (the output and BENCHMARKS.md say it)
WHAT_IS_TIMED = (
    "cpu s, wall s: one solver's search, from a model built beforehand (untimed) to its "
    "last solution (its first, for the problems marked 'first'), each solution built as a "
    "dict of values and counted, none kept; every run in a forked child process of its own "
    "(a thread where the system cannot fork), timed inside it: the CPU seconds it took "
    "(what the ratios divide: a shared machine's load adds wall time, not CPU time) and the "
    "wall-clock seconds; the run of least CPU time of 3 (1 for 30-queens)")

#: a solver's run on a built model: (solutions found, nodes or "-")
Task = Callable[[], tuple[int, int | str]]


def tasks(problem: Problem) -> dict[str, Task]:
    """Each solver's run on `problem`, its model built here, before any clock starts."""
    runs: dict[str, Task] = {}
    if problem.make_aima is not None:
        runs[AIMA] = _aima_task(problem.make_aima())
    for solver in PEERS:
        runs[f"python-constraint2 {solver}"] = _peer_task(
            to_python_constraint(problem.make(), solver), problem.every)
    for inference, var_order in problem.ours:
        runs[f"ours {inference} + {var_order}"] = _our_task(problem.make(), problem.every,
                                                             inference, var_order)
    return runs


def _aima_task(model: aima.CSP) -> Task:
    return lambda: (aima.count_solutions(model), "-")


def _peer_task(model: Any, every: bool) -> Task:
    if every:
        return lambda: (sum(1 for _ in model.getSolutionIter()), "-")
    return lambda: (int(model.getSolution() is not None), "-")


def _our_task(csp: CSP, every: bool, inference: str, var_order: str) -> Task:
    def run() -> tuple[int, int | str]:
        search = make_search(csp, inference=inference, var_order=var_order)
        with closing(search.solutions()) as solutions:
            found = sum(1 for _ in solutions) if every else int(next(solutions, None)
                                                                is not None)
        return found, search.stats.nodes
    return run


def on_cpu(task: Task) -> Callable[[], tuple[tuple[int, int | str], float]]:
    """`task`, returning its value and the CPU seconds it took (in the process it runs in)."""
    def run() -> tuple[tuple[int, int | str], float]:
        start = time.process_time()
        value = task()
        return value, time.process_time() - start
    return run


#: a solver's best run: (answer, nodes, CPU seconds, wall-clock seconds)
Run = tuple[str, int | str, float, float]


def best_runs(problem: Problem, timeout: float, step: Callable[[str], None]) -> dict[str, Run]:
    """Each solver's run of least CPU time.

    The solvers take turns, `problem.repeats` times, so the machine's load hits them alike.
    A run stopped at `timeout` (wall-clock) has no CPU time.
    """
    best: dict[str, Run] = {}
    for _ in range(problem.repeats):
        for solver, task in tasks(problem).items():
            value, wall, finished = run_limited(on_cpu(task), timeout)
            if finished:
                (found, visited), cpu = value
                run: Run = (str(found), visited, cpu, wall)
            else:
                run = ("limit", "-", float("nan"), wall)
            if solver not in best or run[2] < best[solver][2]:
                best[solver] = run
            step(solver)
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
        reference = {solver: cpu for solver, (_, _, cpu, _) in best.items()}
        for solver, (answer, visited, cpu, wall) in best.items():
            ratios = [cpu / reference[k] if k in reference else float("nan")
                      for k in (AIMA, *(f"python-constraint2 {p}" for p in PEERS))]
            rows.append((name, solver, answer, visited, cpu, wall, *ratios))
    print(table(("problem", "solver", "answer", "nodes", "cpu s", "wall s", "/ AIMA",
                 "/ pc BT", "/ pc optimized"), rows))
    print(f"{WHAT_IS_TIMED}. answer: solutions found ('limit': stopped at the time limit);"
          " / AIMA, / pc BT, / pc optimized: CPU time divided by that peer's on the same"
          " problem in this run ('-': no such peer run, or it hit the limit). AIMA: a port of"
          " aima-python's backtracking_search (forward checking, MRV), counting every"
          " solution.")
    spent = time.perf_counter() - started
    more = "" if args.full else "; --full adds the France map and 30-queens (2-4 minutes)"
    print(f"this run: {spent:.0f} s{more}")
    return 0
