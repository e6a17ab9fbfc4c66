"""Backtracking search over a `CSP`: solve, count, or list every solution.

The search is depth-first and chronological. At each node it picks a variable (the
variable order), tries its values one by one (the value order), and after each assignment
runs the chosen inference; a `Contradiction` undoes the assignment and everything it
pruned, and the next value is tried. It is written as a loop over an explicit stack of
frames, so it handles problems with many thousands of variables and can stop cleanly at a
node or time limit.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Hashable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

from .budget import TimeUp, check_count_limit, check_max_nodes, check_timeout
from .constraints import Constraint
from .csp import CSP
from .heuristics import VALUE_ORDERS, VARIABLE_ORDERS, ValueOrder, VariableOrder
from .inference import INFERENCES, Inference
from .state import Contradiction, SearchState
from .stats import Stats
from .trace import BACKTRACK, MAX_EVENTS, SOLUTION, WIPEOUT, Trace

SOLVED, UNSATISFIABLE, LIMIT = "solved", "unsatisfiable", "limit"


@dataclass
class Result:
    """The answer of `solve`: a status, the solution (or None), statistics and the trace."""

    status: str
    solution: dict[Hashable, Any] | None
    stats: Stats
    trace: Trace | None = None

    @property
    def solved(self) -> bool:
        return self.status == SOLVED


@dataclass
class CountResult:
    """The answer of `count`: how many solutions, and whether the count is complete.

    `status` is `complete` when the search finished or stopped at `limit` solutions, and
    `limit` when a node or time limit cut it short (then `count` is only a lower bound).
    """

    count: int
    status: str
    stats: Stats
    solutions: list[dict[Hashable, Any]] = field(default_factory=list)
    trace: Trace | None = None

    @property
    def complete(self) -> bool:
        return self.status == "complete"


class _LimitHit(Exception):
    """A node or time limit stopped the search (caught by `Search.solutions`)."""


@dataclass
class _Frame:
    var: Hashable
    values: list[Any]
    next: int = 0
    value: Any = None
    assigned: bool = False
    mark: int = 0
    solutions_before: int = 0


def _resolve(name_or_fn: Any, table: dict[str, Any], what: str) -> Any:
    if callable(name_or_fn):
        return name_or_fn
    try:
        return table[name_or_fn]
    except KeyError:
        choices = ", ".join(table)
        raise ValueError(f"unknown {what} {name_or_fn!r}; expected one of {choices}") from None


class Search:
    """One run of backtracking search; iterate `solutions()` to get solutions one by one."""

    def __init__(self, csp: CSP, inference: str | Inference = "mac",
                 var_order: str | VariableOrder = "mrv", val_order: str | ValueOrder = "input",
                 timeout: float | None = None, max_nodes: int | None = None,
                 trace: bool | Trace = False, max_events: int = MAX_EVENTS,
                 weights: dict[Constraint, int] | None = None):
        if not isinstance(csp, CSP):
            raise TypeError(f"the search needs a CSP, not {type(csp).__name__} (build one "
                            "with CSP(), add_variable and add_constraint)")
        self.csp = csp
        self.infer: Inference = _resolve(inference, INFERENCES, "inference")
        self.select: VariableOrder = _resolve(var_order, VARIABLE_ORDERS, "variable order")
        self.order: ValueOrder = _resolve(val_order, VALUE_ORDERS, "value order")
        self.stats = Stats()
        if trace is True:
            trace = Trace(csp.domains, max_events=max_events)
        self.trace: Trace | None = trace if isinstance(trace, Trace) else None
        self.state = SearchState(csp, self.stats, self.trace)
        #: failure weights of the constraints, for dom/wdeg; a fresh search starts afresh
        #: (so runs repeat exactly) unless it is handed the weights of earlier runs
        self.weights: dict[Constraint, int] = {} if weights is None else weights
        self.state.weights = self.weights
        self.state.fixed_is_decided = self.infer is INFERENCES["mac"]
        self.timeout = timeout
        self.max_nodes = max_nodes
        check_timeout(timeout)
        check_max_nodes(max_nodes)
        self.limit_hit = False
        self.exhausted = False
        self._full_fixpoint = self.infer is INFERENCES["mac"]

    # -- the search loop -------------------------------------------------------------------
    def solutions(self) -> Generator[dict[Hashable, Any], None, None]:
        """Yield solutions in search order; stops early (setting `limit_hit`) at a limit."""
        start = time.perf_counter()
        self._deadline = None if self.timeout is None else start + self.timeout
        self.state.deadline = self._deadline  # propagation checks it too
        try:
            yield from self._dfs()
            self.exhausted = True
        except (_LimitHit, TimeUp):
            self.limit_hit = True
        finally:
            self.stats.seconds += time.perf_counter() - start

    def _dfs(self) -> Iterator[dict[Hashable, Any]]:
        state, stats = self.state, self.stats
        try:
            self.infer(state, None)
        except Contradiction as failure:
            self._record(WIPEOUT, failure.var, None, failure.cause)
            return
        if self._complete():
            solution = self._solution()
            if solution is not None:
                yield solution
            return
        found = 0
        frames = [self._frame()]
        while frames:
            frame = frames[-1]
            if frame.assigned:  # coming back: undo the last value of this frame
                state.undo(frame.mark)
                state.unassign(frame.var)
                frame.assigned = False
                if found == frame.solutions_before:
                    stats.backtracks += 1
                self._record(BACKTRACK, frame.var, frame.value, None)
            if frame.next == len(frame.values):
                frames.pop()
                continue
            value = frame.values[frame.next]
            frame.next += 1
            self._check_limits()
            stats.nodes += 1
            frame.value, frame.assigned = value, True
            frame.mark, frame.solutions_before = state.mark(), found
            state.changed.clear()
            try:
                state.assign(frame.var, value)
                self.infer(state, frame.var)
            except Contradiction as failure:
                self._record(WIPEOUT, failure.var, None, failure.cause)
                continue
            if self._complete():
                solution = self._solution()
                if solution is not None:
                    found += 1
                    yield solution
                continue
            frames.append(self._frame())

    def _frame(self) -> _Frame:
        var = self.select(self.state)
        return _Frame(var, list(self.order(self.state, var)))

    def _complete(self) -> bool:
        """All variables assigned, or (under MAC, at a fixpoint) all domains down to one."""
        state = self.state
        if len(state.assignment) == len(self.csp.variables):
            return True
        return self._full_fixpoint and state.unfixed == 0

    def _solution(self) -> dict[Hashable, Any] | None:
        """The current values, verified against every constraint (a failed check backtracks)."""
        state = self.state
        solution = {var: state.value(var) for var in self.csp.variables}
        self.stats.checks += len(self.csp.constraints)
        broken = self.csp.violated(solution)
        if broken:
            self._record(WIPEOUT, None, None, f"final check: {broken[0].name}")
            return None
        self._record(SOLUTION, None, None, None)
        return solution

    def _check_limits(self) -> None:
        if self.max_nodes is not None and self.stats.nodes >= self.max_nodes:
            raise _LimitHit
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise _LimitHit

    def _record(self, kind: str, var: Hashable, value: Any, cause: str | None) -> None:
        if self.trace is not None:
            self.trace.record(kind, var, value, cause, self.state.depth)


def make_search(csp: CSP, look_back: str = "none", **options: Any) -> Any:
    """The search for `look_back`: chronological ("none"), or looking back ("cbj", "learn").

    Looking back (backjumping, learning) lives in lookback.py.
    """
    if look_back == "none":
        return Search(csp, **options)
    from .lookback import LookBackSearch

    return LookBackSearch(csp, look_back=look_back, **options)


def solve(csp: CSP, inference: str | Inference = "mac", var_order: str | VariableOrder = "mrv",
          val_order: str | ValueOrder = "input", timeout: float | None = None,
          max_nodes: int | None = None, trace: bool = False, max_events: int = MAX_EVENTS,
          weights: dict[Constraint, int] | None = None, look_back: str = "none",
          **look_back_options: Any) -> Result:
    """Find one solution. `status` says `solved`, `unsatisfiable` or `limit`.

    `weights` (failure weights for dom/wdeg) carries what earlier runs learnt; see
    restarts.py. `look_back` chooses chronological backtracking ("none"), conflict-directed
    backjumping ("cbj") or backjumping with nogood learning ("learn").
    """
    search = make_search(csp, look_back, inference=inference, var_order=var_order,
                         val_order=val_order, timeout=timeout, max_nodes=max_nodes, trace=trace,
                         max_events=max_events, weights=weights, **look_back_options)
    with closing(search.solutions()) as solutions:
        solution = next(solutions, None)
    if solution is not None:
        status = SOLVED
    elif search.limit_hit:
        status = LIMIT
    else:
        status = UNSATISFIABLE
    return Result(status, solution, search.stats, search.trace)


def iter_solutions(csp: CSP, **options: Any) -> Iterator[dict[Hashable, Any]]:
    """Every solution, one at a time (options as for `solve`)."""
    yield from make_search(csp, **options).solutions()


def count(csp: CSP, limit: int | None = None, keep: bool = False, **options: Any) -> CountResult:
    """Count solutions, stopping at `limit` of them; `keep=True` also returns them."""
    check_count_limit(limit)
    search = make_search(csp, **options)
    found: list[dict[Hashable, Any]] = []
    number = 0
    with closing(search.solutions()) as solutions:
        for solution in solutions:
            number += 1
            if keep:
                found.append(solution)
            if limit is not None and number >= limit:
                break
    status = "limit" if search.limit_hit else "complete"
    return CountResult(number, status, search.stats, found, search.trace)


def count_solutions(csp: CSP, limit: int | None = None, **options: Any) -> int:
    """The number of solutions (at most `limit`).

    Raises `LimitReached` when a node or time limit stops the count before it is certain.
    """
    from ..errors import LimitReached

    result = count(csp, limit=limit, **options)
    if not result.complete:
        raise LimitReached(f"search limit reached after {result.count} solution(s)")
    return result.count

