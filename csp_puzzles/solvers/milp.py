"""Integer programs for the puzzles: a small model builder, HiGHS, and the lazy cut loop.

An integer program has variables with bounds (here nearly all 0/1), linear rows
`lower <= sum(coefficient * variable) <= upper`, and an objective; a puzzle has no
objective, so any feasible point will do. Each puzzle's `milp.py` writes its rules as rows
with `IntegerProgram`, and `solutions` runs them through the lazy cut loop of
`csp_puzzles.solvers.lazy_cuts`, which the SAT engine shares:

1. solve the program (HiGHS: branch and bound on the linear relaxation);
2. ask the puzzle's `cuts` for rows the answer breaks but every solution keeps (for
   connectivity: "some bridge leaves this group"); if there are any, add them and go to 1;
3. otherwise the answer is a solution: yield it, then add a *no-good* row that forbids
   exactly that answer, and go to 1 to look for a second one.

Connectivity has exponentially many rows of the kind in step 2, so they are added only when
an answer breaks one ("lazily"); a handful of rounds is usually enough. Counting to two by a
no-good row is how integer programming checks that a puzzle has a unique solution.

HiGHS comes from the `highspy` package (the optional `milp` extra): a 5 MB wheel, also
built for Pyodide, against 35 MB for SciPy, whose `milp` runs the same HiGHS but rebuilds
the program from scratch on every call. HiGHS writes nothing: no banner, no log (a program
printing JSON on its standard output must print nothing else).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from ..core.errors import LimitReached, MissingExtra
from .lazy_cuts import LoopStats, lazy_solutions

__all__ = ["INFINITY", "IntegerProgram", "LoopStats", "Row", "at_least", "at_most", "exactly",
           "no_good", "relaxation", "solutions"]

INFINITY = math.inf


class Row(NamedTuple):
    """`lower <= sum(coefficient * x[variable]) <= upper`."""

    terms: Mapping[int, float]
    lower: float = -INFINITY
    upper: float = INFINITY


def at_most(variables: Iterable[int], bound: float) -> Row:
    """The sum of these 0/1 variables is at most `bound`."""
    return Row(dict.fromkeys(variables, 1.0), upper=bound)


def at_least(variables: Iterable[int], bound: float) -> Row:
    """The sum of these 0/1 variables is at least `bound`."""
    return Row(dict.fromkeys(variables, 1.0), lower=bound)


def exactly(variables: Iterable[int], total: float) -> Row:
    """The sum of these 0/1 variables is exactly `total`."""
    return Row(dict.fromkeys(variables, 1.0), total, total)


def no_good(binaries: Sequence[int], values: Sequence[int]) -> Row:
    """Forbid one assignment of `binaries`: at least one of them must change.

    With ones = the variables at 1 in `values`: sum(x over ones) - sum(x over the rest)
    <= |ones| - 1. Every other 0/1 assignment keeps it; this one breaks it by exactly one.
    """
    ones = [v for v in binaries if values[v]]
    terms = {v: (1.0 if values[v] else -1.0) for v in binaries}
    return Row(terms, upper=len(ones) - 1)


class IntegerProgram:
    """Integer variables with bounds and linear rows, built up by a puzzle's model."""

    def __init__(self, name: str = "", **highs_options: Any) -> None:
        self.name = name
        #: HiGHS options for this program (`presolve="off"`, say), set before solving
        self.highs_options = highs_options
        self.names: list[Any] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.rows: list[Row] = []
        #: a guide, not a goal: a linear objective to minimise, but HiGHS stops at the first
        #: feasible point it finds (the gap tolerances are infinite), never proving optimality
        self.guide: dict[int, float] = {}

    def binary(self, name: Any = None) -> int:
        """A new 0/1 variable; returns its index."""
        return self.integer(0, 1, name)

    def integer(self, lower: int, upper: int, name: Any = None) -> int:
        """A new integer variable in lower..upper; returns its index."""
        self.names.append(name)
        self.lower.append(lower)
        self.upper.append(upper)
        return len(self.names) - 1

    def add(self, row: Row) -> None:
        self.rows.append(row)

    def __len__(self) -> int:
        return len(self.names)

    def __repr__(self) -> str:
        return f"IntegerProgram({self.name!r}: {len(self)} variables, {len(self.rows)} rows)"


#: a puzzle's separation: the rows that the integer answer breaks (empty: it is a solution)
Cuts = Callable[[Sequence[int]], list[Row]]


def solutions(program: IntegerProgram, cuts: Cuts, distinct: Sequence[int],
              deadline: float | None = None,
              stats: LoopStats | None = None) -> Iterator[list[int]]:
    """Every solution of `program` that `cuts` accepts, as integer values, one at a time.

    Two solutions differ on the 0/1 variables `distinct` (the no-good rows use them only).
    `deadline` is a `time.perf_counter()` value bounding the whole loop: each HiGHS run gets
    the time left as its limit, and `LimitReached` is raised when it runs out.
    """
    stats = stats if stats is not None else LoopStats()
    if not len(program):  # nothing to decide (HiGHS would call it an empty model)
        if all(row.lower <= 0 <= row.upper for row in program.rows):
            yield []
        return
    highs = _new_highs(program)
    yield from lazy_solutions(lambda: _run(highs, len(program), deadline, stats), cuts,
                              lambda rows: _add_rows(highs, rows),
                              lambda values: no_good(distinct, values), stats)


def relaxation(program: IntegerProgram) -> list[float]:
    """The linear relaxation's values: the same rows, every variable continuous.

    Where it is already 0 or 1, the rows alone decided the variable; the fewer fractions,
    the tighter the formulation and the less branch and bound has left to do.
    """
    highs = _new_highs(program, integer=False)
    highs.run()
    return list(highs.getSolution().col_value[:len(program)])


def _highspy() -> Any:
    try:
        import highspy
    except ImportError:
        raise MissingExtra("the MILP engine needs highspy: pip install 'csp-puzzles[milp]'"
                           ) from None
    return highspy


def _quiet_highs() -> Any:
    """A HiGHS instance that writes nothing, not even its banner.

    highspy's `Highs()` turns its callbacks on while it is built, and that writes HiGHS's
    two-line banner to the process's standard output (from C++, so no Python redirection
    sees it) before any option can be set. The plain instance underneath, `_Highs`, writes
    nothing until it logs, so switch logging off on it first. (Older highspy releases have
    no `_Highs`; their `Highs()` writes nothing when it is built.)
    """
    highspy = _highspy()
    highs = getattr(highspy, "_Highs", highspy.Highs)()
    highs.setOptionValue("output_flag", False)
    return highs


def _new_highs(program: IntegerProgram, integer: bool = True) -> Any:
    """A HiGHS instance holding `program` (its variables continuous unless `integer`),
    handed over in one call: bounds, objective and rows as arrays."""
    import numpy as np

    highs = _quiet_highs()
    for option, value in program.highs_options.items():
        highs.setOptionValue(option, value)
    n = len(program)
    cost = np.zeros(n, dtype=np.float64)
    if program.guide:
        cost[list(program.guide)] = list(program.guide.values())
        highs.setOptionValue("mip_rel_gap", INFINITY)
        highs.setOptionValue("mip_abs_gap", INFINITY)
    lower, upper, starts, index, value = _sparse_rows(program.rows)
    integrality = np.full(n, 1 if integer else 0, dtype=np.int32)  # HiGHS: 1 = integer
    highs.passModel(n, len(program.rows), len(index), ROW_WISE, MINIMISE, 0.0, cost,
                    np.array(program.lower, dtype=np.float64),
                    np.array(program.upper, dtype=np.float64),
                    lower, upper, starts, index, value, integrality)
    return highs


#: HiGHS's codes for a matrix given row by row, and for minimising the objective
ROW_WISE, MINIMISE = 2, 1


def _sparse_rows(rows: Sequence[Row]) -> tuple[Any, Any, Any, Any, Any]:
    """`rows` as arrays: lower and upper bounds, and the matrix in compressed sparse rows
    (where each row starts in `index`, the variables, their coefficients)."""
    import numpy as np

    starts: list[int] = []
    index: list[int] = []
    value: list[float] = []
    for row in rows:
        starts.append(len(index))
        index.extend(row.terms)
        value.extend(row.terms.values())
    return (np.array([r.lower for r in rows], dtype=np.float64),
            np.array([r.upper for r in rows], dtype=np.float64),
            np.array(starts, dtype=np.int32), np.array(index, dtype=np.int32),
            np.array(value, dtype=np.float64))


def _add_rows(highs: Any, rows: Sequence[Row]) -> None:
    """Add `rows` to a program HiGHS holds already (lazy rows, no-good rows)."""
    if rows:
        lower, upper, starts, index, value = _sparse_rows(rows)
        highs.addRows(len(rows), lower, upper, len(index), starts, index, value)


def _run(highs: Any, n: int, deadline: float | None, stats: LoopStats) -> list[int] | None:
    """One HiGHS run: the integer values, or None when the program is infeasible."""
    highspy = _highspy()
    if deadline is not None:
        left = deadline - time.perf_counter()
        if left <= 0:
            raise LimitReached("MILP engine: time limit reached")
        highs.setOptionValue("time_limit", left)
    highs.run()
    stats.nodes += max(0, highs.getInfo().mip_node_count)
    status = highs.getModelStatus()
    if status == highspy.HighsModelStatus.kSolveError and _presolve(highs) != "off":
        # HiGHS 1.15's presolve can postsolve an answer that breaks a row (seen once no-good
        # rows are added); HiGHS notices and says so: solve that run again without presolve
        presolve = _presolve(highs)
        highs.setOptionValue("presolve", "off")
        highs.run()
        highs.setOptionValue("presolve", presolve)
        stats.nodes += max(0, highs.getInfo().mip_node_count)
        status = highs.getModelStatus()
    if status == highspy.HighsModelStatus.kOptimal:
        return [round(v) for v in highs.getSolution().col_value[:n]]
    if status in (highspy.HighsModelStatus.kInfeasible,
                  highspy.HighsModelStatus.kUnboundedOrInfeasible):
        return None
    if status in (highspy.HighsModelStatus.kTimeLimit, highspy.HighsModelStatus.kInterrupt):
        raise LimitReached("MILP engine: time limit reached")
    raise RuntimeError(f"HiGHS stopped with {highs.modelStatusToString(status)}")


def _presolve(highs: Any) -> str:
    value = highs.getOptionValue("presolve")  # some highspy versions add a status first
    return str(value[-1] if isinstance(value, tuple) else value)
