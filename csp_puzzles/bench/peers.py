"""The same CSP handed to python-constraint2, the peer every benchmark compares against.

`to_python_constraint` translates a core `CSP` constraint by constraint, so both solvers
run the very same model.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any

from ..core import (
    CSP,
    AllDifferent,
    AllEqual,
    Count,
    InSet,
    Linear,
    NotInSet,
    Predicate,
    Sum,
    Table,
)
from ..core.constraints import Constraint

SOLVERS = ("BacktrackingSolver", "OptimizedBacktrackingSolver")


def to_python_constraint(csp: CSP, solver: str = "OptimizedBacktrackingSolver") -> Any:
    """A `constraint.Problem` with the variables, domains and constraints of `csp`."""
    import constraint as pc

    problem = pc.Problem(getattr(pc, solver)())
    for var in csp.variables:
        problem.addVariable(var, list(csp.domains[var]))
    for c in csp.constraints:
        problem.addConstraint(*_translate(pc, c))
    return problem


def _translate(pc: Any, c: Constraint) -> tuple[Any, list[Hashable]]:
    scope = list(c.scope)
    if isinstance(c, AllDifferent):
        return pc.AllDifferentConstraint(), scope
    if isinstance(c, Sum) and all(w == 1 for w in c.weights):
        return pc.ExactSumConstraint(c.total), scope
    if isinstance(c, Sum):
        return pc.ExactSumConstraint(c.total, list(c.weights)), scope
    translated = _translate_kind(pc, c)
    if translated is not None:
        return translated, scope
    if isinstance(c, Table):
        allowed = set(c.allowed)
        return pc.FunctionConstraint(lambda *xs: xs in allowed), scope
    if isinstance(c, Predicate):
        return pc.FunctionConstraint(c.function), scope
    # any other constraint: its own full check, called once the scope is assigned
    def holds(*xs: Any, _c: Constraint = c) -> bool:
        return _c.is_satisfied(dict(zip(_c.scope, xs)))
    return pc.FunctionConstraint(holds), scope


def _translate_kind(pc: Any, c: Constraint) -> Any:
    """python-constraint2's own constraint of the same meaning, when it has one."""
    if isinstance(c, Linear) and c.op != "!=":
        kind = {"==": pc.ExactSumConstraint, "<=": pc.MaxSumConstraint,
                ">=": pc.MinSumConstraint}[c.op]
        return kind(c.total, list(c.weights))
    if isinstance(c, InSet):
        return pc.InSetConstraint(set(c.allowed))
    if isinstance(c, NotInSet):
        return pc.NotInSetConstraint(set(c.forbidden))
    if isinstance(c, AllEqual):
        return pc.AllEqualConstraint()
    if isinstance(c, Count) and c.op in ("==", ">="):
        return pc.SomeInSetConstraint({c.value}, c.k, exact=c.op == "==")
    if isinstance(c, Count) and c.op == "<=":  # at most k take it: at least n - k do not
        return pc.SomeNotInSetConstraint({c.value}, len(c.scope) - c.k)
    return None


def run_limited(function: Callable[[], Any], timeout: float) -> tuple[Any, float, bool]:
    """Run `function` for at most `timeout` seconds: (value, seconds, finished).

    python-constraint2 has no limits of its own, so this is how the benchmarks stop it:
    in a forked process, killed at the deadline, where the system can fork (Linux, macOS).
    Elsewhere (Windows) a thread runs it and the caller stops waiting at the deadline (the
    thread cannot be killed: it ends on its own, in the background). In the browser
    (Pyodide: no processes, no threads) the function runs to its end, and `finished`
    says whether that was within `timeout`.
    """
    if _can_fork():
        return _run_forked(function, timeout)
    if sys.platform != "emscripten":
        return _run_in_thread(function, timeout)
    return _run_to_the_end(function, timeout)


def _can_fork() -> bool:
    return sys.platform != "emscripten" and "fork" in multiprocessing.get_all_start_methods()


def _run_forked(function: Callable[[], Any], timeout: float) -> tuple[Any, float, bool]:
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    def child() -> None:
        start = time.perf_counter()
        value = function()
        sender.send((value, time.perf_counter() - start))

    process = context.Process(target=child, daemon=True)
    start = time.perf_counter()
    process.start()
    finished = receiver.poll(timeout)
    if finished:
        value, seconds = receiver.recv()
    else:
        value, seconds = None, time.perf_counter() - start
    process.kill()
    process.join()
    return value, seconds, finished


def _run_in_thread(function: Callable[[], Any], timeout: float) -> tuple[Any, float, bool]:
    answer: list[tuple[Any, float]] = []

    def work() -> None:
        start = time.perf_counter()
        value = function()
        answer.append((value, time.perf_counter() - start))

    start = time.perf_counter()
    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(timeout)
    if answer:
        return answer[0][0], answer[0][1], True
    return None, time.perf_counter() - start, False


def _run_to_the_end(function: Callable[[], Any], timeout: float) -> tuple[Any, float, bool]:
    start = time.perf_counter()
    value = function()
    seconds = time.perf_counter() - start
    return (value, seconds, True) if seconds <= timeout else (None, seconds, False)
