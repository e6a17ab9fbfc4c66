"""Exercise 10 (notebook 08): a fair benchmark, and a question answered from its table.

The student writes `run_benchmark(instances, methods, max_nodes)` (every method on every
instance under the same node limit, every answer checked, failures kept as rows),
`solved_within(rows, budget)` (a performance profile in nodes) and `compare(rows, a, b)`
(two methods compared only where both solved, the rest reported apart). The checks run the
benchmark themselves on drawn instances, one of the methods a solver that forgets a
constraint (its answers must be caught), and feed the two readers random tables.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from ...core import CSP, Result, solve
from ...examples import queens
from . import CSP_DATA, draw, fail, listed, own_work
from .instances import random_binary_csp

Method = Callable[[CSP, int], Result]
Row = dict[str, Any]
STATUSES = ("solved", "unsatisfiable", "limit", "wrong")
#: the watch's words and patterns: what the student's code may call in csp_puzzles
OWN = ("the benchmark", "csp.is_solution, the results' data and the methods and instances "
       "given", *CSP_DATA, "core.search:Result.*", "core.stats",
       "teaching.grading.benchmark:method.<locals>.run", "teaching.grading.benchmark:forgetful",
       "teaching.grading.benchmark:_queens.<locals>.<lambda>",
       "teaching.grading.benchmark:_random.<locals>.<lambda>")


def method(inference: str, var_order: str = "input") -> Method:
    """A method of the benchmark: `solve` with these options, under the node limit given."""
    def run(csp: CSP, max_nodes: int) -> Result:
        return solve(csp, inference=inference, var_order=var_order, max_nodes=max_nodes)

    run.__name__ = f"{inference}/{var_order}"
    return run


def forgetful(csp: CSP, max_nodes: int) -> Result:
    """A solver under test with a bug: it drops the last constraint of every problem."""
    loose = CSP(csp.name)
    for var in csp.variables:
        loose.add_variable(var, csp.domains[var])
    for constraint in csp.constraints[:-1]:
        loose.add_constraint(constraint)
    return solve(loose, inference="fc", max_nodes=max_nodes)


def _expected_row(make: Callable[[], CSP], run: Method, max_nodes: int) -> tuple[str, int]:
    csp = make()
    result = run(csp, max_nodes)
    status = result.status
    if result.solved and not make().is_solution(result.solution or {}):
        status = "wrong"
    return status, result.stats.nodes


def _queens(n: int) -> Callable[[], CSP]:
    return lambda: queens(n)


def _random(seed: int) -> Callable[[], CSP]:
    return lambda: random_binary_csp(random.Random(seed), variables=7, values=4, density=0.5)


def drawn_benchmark(seed: Any = None) -> tuple[list[tuple[str, Callable[[], CSP]]],
                                               list[tuple[str, Method]], int]:
    """Instances, methods and a node limit drawn from the grading seed."""
    rng = draw("benchmark", seed)
    sizes = sorted(rng.sample(range(5, 12), 3))
    instances = [(f"{n}-queens", _queens(n)) for n in sizes]
    instances += [(f"random problem {k}", _random(rng.randrange(10**6))) for k in (1, 2, 3)]
    methods = [("backtracking", method("none")), ("forward checking", method("fc", "mrv")),
               ("MAC", method("mac", "mrv")), ("no last constraint", forgetful)]
    return instances, methods, rng.choice((60, 120, 250, 400))


def verify_benchmark(run_benchmark: Callable[..., Any],
                     instances: list[tuple[str, Callable[[], CSP]]],
                     methods: list[tuple[str, Method]], max_nodes: int) -> None:
    __tracebackhide__ = True
    rows = listed(run_benchmark(instances, methods, max_nodes), "run_benchmark")
    seen: dict[tuple[Any, Any], Row] = {}
    for row in rows:
        if not isinstance(row, dict):
            fail(f"run_benchmark gave the row {row!r}: each row is a dict with the keys "
                 f"instance, method, status and nodes")
        key = (row.get("instance"), row.get("method"))
        if key in seen:
            fail(f"run_benchmark gave two rows for {key[1]} on {key[0]}: one row per "
                 f"method and instance")
        seen[key] = row
    for name, make in instances:
        for label, run in methods:
            row = seen.get((name, label))
            if row is None:
                fail(f"run_benchmark has no row for {label} on {name}: every method "
                     f"runs on every instance, and a failure is a row too")
            status, nodes = _expected_row(make, run, max_nodes)
            if row.get("status") != status:
                why = {"limit": f"it reaches the limit of {max_nodes} nodes",
                       "wrong": "its answer breaks a constraint of the problem (check every "
                                "answer with csp.is_solution)"}.get(status, "")
                fail(f"run_benchmark says {row.get('status')!r} for {label} on "
                     f"{name}; it should say {status!r}" + (f": {why}" if why else ""))
            if row.get("nodes") != nodes:
                fail(f"run_benchmark says {row.get('nodes')} nodes for {label} on "
                     f"{name}; the run takes {nodes} under the limit of {max_nodes}")
    if len(rows) != len(instances) * len(methods):
        fail(f"run_benchmark gave {len(rows)} rows for {len(instances)} instances "
             f"and {len(methods)} methods")


@own_work(*OWN)
def check_run_benchmark(run_benchmark: Callable[..., Any], seed: Any = None) -> None:
    """A drawn benchmark: queens and random problems, four methods, one node limit."""
    __tracebackhide__ = True
    verify_benchmark(run_benchmark, *drawn_benchmark(seed))


# -- reading a table ----------------------------------------------------------------------------
def random_rows(rng: Any) -> list[Row]:
    """A made-up table: a few methods and instances, random statuses and node counts."""
    methods = rng.sample(["bt", "fc", "mac", "mrv", "lcv"], rng.randint(2, 4))
    rows = []
    for k in range(rng.randint(1, 7)):
        for label in methods:
            status = rng.choice(STATUSES + ("solved", "solved"))
            rows.append({"instance": f"p{k}", "method": label, "status": status,
                         "nodes": rng.randint(0, 50)})
    rng.shuffle(rows)
    return rows


def profile_of(rows: list[Row], budget: int) -> dict[Hashable, int]:
    counts: dict[Hashable, int] = {row["method"]: 0 for row in rows}
    for row in rows:
        if row["status"] == "solved" and row["nodes"] <= budget:
            counts[row["method"]] += 1
    return counts


def _table(rows: list[Row]) -> str:
    return "; ".join(f"{r['method']} on {r['instance']}: {r['status']}, {r['nodes']} nodes"
                     for r in sorted(rows, key=lambda r: (r["instance"], r["method"])))


@own_work(*OWN)
def check_solved_within(solved_within: Callable[..., Any], seed: Any = None,
                        trials: int = 60) -> None:
    """Random tables, each read at a random budget."""
    __tracebackhide__ = True
    rng = draw("benchmark profile", seed)
    for _ in range(trials):
        rows = random_rows(rng)
        budget = rng.randint(0, 50)
        answer = solved_within([dict(row) for row in rows], budget)
        if not isinstance(answer, dict):
            fail(f"solved_within returned {answer!r}: it must return a dict (method: count)")
        mine = dict(answer)
        expected = profile_of(rows, budget)
        if mine != expected:
            label = next((m for m in expected if mine.get(m) != expected[m]), None)
            if label is None:
                label = next(iter(set(mine) - set(expected)))
                fail(f"solved_within names {label!r}, which is not a method of the "
                     f"table [{_table(rows)}]")
            fail(f"with a budget of {budget} nodes, solved_within says {label} solves "
                 f"{mine.get(label)} instance(s); it solves {expected[label]} "
                 f"(status 'solved' and at most {budget} nodes; every method appears, "
                 f"with 0 if need be) in the table [{_table(rows)}]")


def comparison_of(rows: list[Row], a: str, b: str) -> dict[str, Any]:
    solved = {(r["instance"], r["method"]): r["nodes"] for r in rows if r["status"] == "solved"}
    instances = sorted({r["instance"] for r in rows})
    both = [i for i in instances if (i, a) in solved and (i, b) in solved]
    return {"a_better": sum(solved[i, a] < solved[i, b] for i in both),
            "b_better": sum(solved[i, b] < solved[i, a] for i in both),
            "ties": sum(solved[i, a] == solved[i, b] for i in both),
            "only_a": [i for i in instances if (i, a) in solved and (i, b) not in solved],
            "only_b": [i for i in instances if (i, b) in solved and (i, a) not in solved]}


@own_work(*OWN)
def check_compare(compare: Callable[..., Any], seed: Any = None, trials: int = 60) -> None:
    """Random tables, two of their methods compared."""
    __tracebackhide__ = True
    rng = draw("benchmark compare", seed)
    for _ in range(trials):
        rows = random_rows(rng)
        a, b = rng.sample(sorted({row["method"] for row in rows}), 2)
        answer = compare([dict(row) for row in rows], a, b)
        expected = comparison_of(rows, a, b)
        for key, want in expected.items():
            got = answer.get(key) if isinstance(answer, dict) else None
            if isinstance(want, list):
                got = sorted(got) if isinstance(got, (list, tuple, set)) else got
            if got != want:
                fail(f"compare(rows, {a!r}, {b!r}) gives {key} = {got!r}; it should "
                     f"be {want!r} for the table [{_table(rows)}] (only instances "
                     f"both solved are compared by nodes)")

