"""`csp-puzzles bench local`: min-conflicts on n-queens, n = 100 .. 100,000.

AIMA (section 6.4) says min-conflicts solves even a million queens in about 50 steps after
a greedy start. Each row gives the median number of repair steps and seconds over a few
seeds, for our `min_conflicts` on two models: the pairwise one (n(n-1)/2 binary
`Predicate`s, small n only) and the one whose single constraint counts queens per line.
python-constraint2's `MinConflictsSolver` runs on the very same models in the same run
(its steps are sweeps over every variable and it does not report them); it is not run
where it would copy n domains of n values each (n > 1,000).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core import CSP
from ..core.local import min_conflicts
from ..examples import queens, queens_by_lines
from .options import BenchParser, whole_numbers
from .peers import run_limited, to_python_constraint
from .report import Progress, median, table

MODELS: dict[str, tuple[Callable[[int], CSP], int]] = {
    # name: (model builder, largest n it is run at)
    "pairwise": (queens, 200),
    "line counters": (queens_by_lines, 100_000),
}
SIZES = (100, 200, 1_000, 10_000, 100_000)
PEER_LARGEST_N = 1_000
PEER_TIMEOUT = 20.0  # seconds a peer run, by default: it runs out of time beyond 200 queens
OUR_TIMEOUT = 300.0
MAX_STEPS = 100_000


def run_ours(csp: CSP, seeds: range, timeout: float) -> tuple[str, float, float]:
    """(answer, median steps, median seconds) over one run per seed."""
    results = [min_conflicts(csp, max_steps=MAX_STEPS, seed=s, timeout=timeout) for s in seeds]
    solved = sum(r.solved for r in results)
    for r in results:
        if r.solution is not None and csp.violated(r.solution):
            raise AssertionError("min-conflicts returned a wrong solution")
    answer = f"{solved}/{len(results)} solved"
    return (answer, median([r.stats.nodes for r in results]),
            median([r.stats.seconds for r in results]))


def run_peer(csp: CSP, seeds: range, timeout: float) -> tuple[str, float]:
    """(answer, median seconds) of python-constraint2's MinConflictsSolver, one run a seed."""
    import constraint as pc

    solved, seconds = 0, []
    for seed in seeds:
        problem = to_python_constraint(csp)
        problem.setSolver(pc.MinConflictsSolver(steps=MAX_STEPS, rand=random.Random(seed)))
        solution, elapsed, finished = run_limited(problem.getSolution, timeout)
        seconds.append(elapsed)
        if finished and solution is not None:
            if csp.violated(solution):
                raise AssertionError("python-constraint2 returned a wrong solution")
            solved += 1
    return f"{solved}/{len(seeds)} solved", median(seconds)


def main(argv: list[str] | None = None) -> int:
    parser = BenchParser(prog="csp-puzzles bench local", description=__doc__)
    parser.add_argument("--sizes", type=whole_numbers,
                        default=list(SIZES), help="board sizes, comma-separated")
    parser.add_argument("--runs", type=int, default=3, help="seeds per row (default 3)")
    parser.add_argument("--timeout", type=float, default=OUR_TIMEOUT,
                        help=f"seconds allowed for each of our runs (default {OUR_TIMEOUT:g})")
    parser.add_argument("--peer-timeout", type=float, default=PEER_TIMEOUT,
                        help="seconds allowed for each python-constraint2 run "
                             f"(default {PEER_TIMEOUT:g})")
    args = parser.parse_args(argv)
    seeds = range(args.runs)
    plan = [(model, n) for n in args.sizes for model, (_, largest) in MODELS.items()
            if n <= largest]
    progress = Progress("bench local", len(plan))
    rows = []
    for model, n in plan:
        csp = MODELS[model][0](n)
        answer, steps, seconds = run_ours(csp, seeds, args.timeout)
        peer_answer, peer_seconds = ("not run", float("nan"))
        if n <= PEER_LARGEST_N:
            peer_answer, peer_seconds = run_peer(csp, seeds, args.peer_timeout)
        rows.append((f"{n}-queens", model, answer, steps, seconds, peer_answer, peer_seconds,
                     seconds / peer_seconds))
        progress.step(f"{model} {n}")
    print(table(("problem", "model", "ours", "steps", "seconds", "python-constraint2",
                 "pc seconds", "/ pc"), rows))
    print(f"medians over {args.runs} seeds; steps: repairs after the greedy start (AIMA: about"
          " 50); / pc: our seconds divided by python-constraint2's MinConflictsSolver's on the"
          " same model in this run ('-' where it was not run); seconds exclude building the"
          " model")
    return 0
