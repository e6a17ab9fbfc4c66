"""Backtracking search over a `CSP`: solve, count, or list every solution.

This is the algorithm of `textbook.py` (AIMA's figure 6.5), and under the same orders and
inference it visits the same nodes. The search is depth-first and chronological: at each
node it picks a variable (the variable order), tries its values one by one (the value
order), and after each assignment runs the chosen inference; a `Contradiction` undoes the
assignment and everything it pruned, and the next value is tried.

What differs from the textbook, and why:

- an explicit stack of frames instead of recursion, so problems with many thousands of
  variables fit, and a node or time limit can stop the search cleanly between two nodes;
- a trail instead of a copy of the domains at each level: undoing a choice puts back only
  what it removed (state.py);
- the constraints' own propagators instead of arcs (inference.py), so global constraints
  (all-different by matching, sums, connectivity) prune as strongly as they can;
- a final check of each solution against the constraints propagation has not proven
  (`Search._verified`), and counting without copying each solution out (`Search.leaves`).
"""

from __future__ import annotations

import time
from collections.abc import Generator, Hashable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

from .budget import LimitReached, check_count_limit, check_max_nodes, check_timeout
from .constraints import Constraint
from .csp import CSP
from .heuristics import VALUE_ORDERS, VARIABLE_ORDERS, ValueOrder, VariableOrder, credit_failure
from .inference import INFERENCES, Inference, node_consistency, reaches_arc_consistency
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


BRANCHINGS = ("assign", "split")


@dataclass(slots=True)  # slots: quicker attribute access, one frame per node
class _Frame:
    """One level of the search tree: a variable and the choices left for it.

    A choice is a value (branching `assign`) or a tuple of values to keep (`split`).
    """

    var: Hashable
    choices: list[Any]
    next: int = 0
    choice: Any = None
    decided: bool = False
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
    """One run of backtracking search; iterate `solutions()` to get solutions one by one.

    `branching="assign"` tries one value at a time (`var = value`, then the next value);
    `branching="split"` halves the domain instead (keep the first half of the values in
    value order, then the second half), so a decision is a smaller domain, and a variable
    is assigned once its domain is down to one value. Either way each decision tried is one
    node in `stats.nodes`; after a split that leaves several values, only an inference that
    establishes arc consistency runs (the others act on assigned variables).
    """

    #: the state it searches in; a look-back search asks for one that keeps explanations
    state_class: type[SearchState] = SearchState
    trace: Trace | None

    def __init__(self, csp: CSP, inference: str | Inference = "mac",
                 var_order: str | VariableOrder = "mrv", val_order: str | ValueOrder = "input",
                 timeout: float | None = None, max_nodes: int | None = None,
                 trace: bool | Trace = False, max_events: int = MAX_EVENTS,
                 weights: dict[Constraint, int] | None = None, branching: str = "assign",
                 phases: dict[Hashable, Any] | None = None, state: SearchState | None = None):
        if not isinstance(csp, CSP):
            raise TypeError(f"the search needs a CSP, not {type(csp).__name__} (build one "
                            "with CSP(), add_variable and add_constraint)")
        self.csp = csp
        self.infer: Inference = _resolve(inference, INFERENCES, "inference")
        self.select: VariableOrder = _resolve(var_order, VARIABLE_ORDERS, "variable order")
        self.order: ValueOrder = _resolve(val_order, VALUE_ORDERS, "value order")
        if branching not in BRANCHINGS:
            raise ValueError(f"unknown branching {branching!r}; expected one of "
                             f"{', '.join(BRANCHINGS)}")
        self.split = branching == "split"
        if state is not None:  # go on from where someone left it (a `Session`): its
            # decisions stay above the search's own, its trace and counters go on
            self.state, self.stats, self.trace = state, state.stats, state.trace
        else:
            self.stats = Stats()
            if trace is True:
                trace = Trace(csp.domains, max_events=max_events)
            self.trace = trace if isinstance(trace, Trace) else None
            self.state = self.state_class(csp, self.stats, self.trace)
        #: failure weights of the constraints, for dom/wdeg; a fresh search starts afresh
        #: (so runs repeat exactly) unless it is handed the weights of earlier runs
        self.weights: dict[Constraint, int] = {} if weights is None else weights
        self.state.weights = self.weights
        #: the value each variable last held (phase saving, for `val_order="phase"`); like
        #: the weights, fresh unless handed those of earlier runs
        self.phases: dict[Hashable, Any] = {} if phases is None else phases
        #: the undo keeps them only when something reads them: a value order that says it
        #: `reads_phases`, or later runs that were handed this dict (it costs at every node)
        self.keeps_phases = phases is not None or getattr(self.order, "reads_phases", False)
        self.state.phases = self.phases if self.keeps_phases else None
        #: an inference that leaves the domains arc consistent makes a variable with one
        #: value left decided already: the search neither branches on it nor waits for it
        self.arc_consistent = reaches_arc_consistency(self.infer)
        self.state.fixed_is_decided = self.arc_consistent
        #: the constraints the final check of a solution tests (see `_verified`)
        declared = getattr(self.infer, "establishes", None) is not None
        self._unproven = [c for c in csp.constraints if not (declared and c.proven_when_fixed)]
        self._unproven_scope = list(dict.fromkeys(v for c in self._unproven for v in c.scope))
        self.timeout = timeout
        self.max_nodes = max_nodes
        check_timeout(timeout)
        check_max_nodes(max_nodes)
        self.limit_hit = False
        self.exhausted = False
        self._deadline: float | None = None
        self._limited = False  # whether a node or time limit applies (see `leaves`)

    # -- the search loop -------------------------------------------------------------------
    def solutions(self) -> Generator[dict[Hashable, Any], None, None]:
        """Yield solutions in search order; stops early (setting `limit_hit`) at a limit."""
        domains, variables = self.state.domains, self.csp.variables
        with closing(self.leaves()) as leaves:
            for _ in leaves:
                yield {var: next(iter(domains[var])) for var in variables}

    def leaves(self) -> Generator[None, None, None]:
        """Stop at each solution, without copying it out (what counting needs); the state
        holds the solution's values meanwhile. Stops early (setting `limit_hit`) at a limit."""
        start = time.perf_counter()
        self._deadline = None if self.timeout is None else start + self.timeout
        self._limited = self.max_nodes is not None or self._deadline is not None
        self.state.deadline = self._deadline  # propagation checks it too
        try:
            yield from self._dfs()
            self.exhausted = True
        except LimitReached:
            self.limit_hit = True
        finally:
            self.stats.seconds += time.perf_counter() - start

    def _dfs(self) -> Generator[None, None, None]:
        """Depth-first search over an explicit stack of frames (deep problems need no recursion).

        Each turn: if the last decision (or, the first time, the root) survived its
        inference, either every variable is decided (a solution) or a new frame opens on the
        next variable; then the search backs up to the deepest frame with a choice left,
        undoing decisions on the way, and makes that choice.

        The turn runs at every node, so it is written out in one place (undoing a decision
        included) with what it reads kept in local names (3-5% of the time on the France
        map and queens).
        """
        frames: list[_Frame] = []
        found = 0
        state, stats, select, limited = self.state, self.stats, self.select, self._limited
        complete = self._complete
        survived = self._root()
        while True:
            if survived:
                if complete():
                    if self._verified():
                        found += 1
                        yield None
                else:
                    var = select(state)
                    frames.append(_Frame(var, self._choices(var)))
            while frames:  # back up to the deepest frame with a choice left
                frame = frames[-1]
                if frame.decided:  # undo its last decision, and all its inference pruned
                    state.undo(frame.mark)
                    state.retract(frame.var)
                    frame.decided = False
                    if found == frame.solutions_before:
                        stats.backtracks += 1
                    if self.trace is not None:
                        self._record(BACKTRACK, frame.var, frame.choice, None)
                if frame.next < len(frame.choices):
                    break
                frames.pop()
            else:
                return
            if limited:
                self._check_limits()
            survived = self._decide(frame, found)

    def _root(self) -> bool:
        """Before any decision: node consistency, then the inference (False: no solution)."""
        try:
            node_consistency(self.state)
            self.infer(self.state, None)
        except Contradiction as failure:
            self._failed(failure)
            return False
        return True

    def _choices(self, var: Hashable) -> list[Any]:
        """The branches for `var`: each value, or (split) the two halves of the values."""
        values = list(self.order(self.state, var))
        if not self.split:
            return values
        if len(values) < 2:
            return [tuple(values)]
        half = (len(values) + 1) // 2
        return [tuple(values[:half]), tuple(values[half:])]

    def _decide(self, frame: _Frame, found: int) -> bool:
        """Take the frame's next choice and run the inference; False if the branch fails."""
        state, var = self.state, frame.var
        choice = frame.choices[frame.next]
        frame.next += 1
        self.stats.nodes += 1
        frame.choice, frame.decided = choice, True
        frame.mark, frame.solutions_before = state.mark(), found
        state.changed.clear()
        try:
            if not self.split:
                state.assign(var, choice)
            elif len(choice) == 1:
                state.assign(var, choice[0])
            else:
                state.restrict(var, choice)
                if not self.arc_consistent:
                    return True  # the other inferences act on assigned variables only
            self.infer(state, var)
        except Contradiction as failure:
            self._failed(failure)
            return False
        return True

    def _failed(self, failure: Contradiction) -> None:
        """A branch failed: say so in the trace, and weigh the culprit for dom/wdeg."""
        self._record(WIPEOUT, failure.var, None, failure.cause)
        if failure.constraint is not None:
            credit_failure(self.state, failure.constraint, failure)

    def _complete(self) -> bool:
        """All variables assigned, or (under MAC, at a fixpoint) all domains down to one."""
        state = self.state
        return (len(state.assignment) == len(self.csp.variables)
                or self.arc_consistent and state.unfixed == 0)

    def _verified(self) -> bool:
        """Check the values against the constraints propagation has not proven already.

        This final check is what makes every answer trustworthy, whatever a propagator of
        one's own does. It checks each constraint with `is_satisfied`, except those that
        declare `proven_when_fixed` when the inference is a declared one of the core: these
        failed as soon as their scope was fixed to wrong values, so checking them again at
        every one of a million solutions would only repeat the search's own work.
        A failed check is a wipe-out: the search backtracks.
        """
        unproven = self._unproven
        if unproven:
            domains = self.state.domains
            values = {var: next(iter(domains[var])) for var in self._unproven_scope}
            self.stats.checks += len(unproven)
            for constraint in unproven:
                if not constraint.is_satisfied(values):
                    self._record(WIPEOUT, None, None, f"final check: {constraint.name}")
                    return False
        self._record(SOLUTION, None, None, None)
        return True

    def _check_limits(self) -> None:
        if self.max_nodes is not None and self.stats.nodes >= self.max_nodes:
            raise LimitReached(f"node limit reached ({self.max_nodes})")
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise LimitReached("time limit reached")

    def _record(self, kind: str, var: Hashable, value: Any, cause: str | None) -> None:
        if self.trace is not None:
            self.trace.record(kind, var, value, cause, self.state.depth)


def make_search(csp: CSP, look_back: str = "none", **options: Any) -> Any:
    """The search for `look_back`: chronological ("none"), or looking back ("cbj", "learn").

    Backjumping lives in lookback.py, learning in learning.py.
    """
    if look_back == "none":
        return Search(csp, **options)
    if options.pop("branching", "assign") != "assign":
        raise ValueError("looking back (look_back='cbj' or 'learn') branches by assignment only")
    if look_back == "learn":
        from .learning import LearningSearch

        return LearningSearch(csp, **options)
    from .lookback import LookBackSearch

    return LookBackSearch(csp, look_back=look_back, **options)


def solve(csp: CSP, inference: str | Inference = "mac", var_order: str | VariableOrder = "mrv",
          val_order: str | ValueOrder = "input", timeout: float | None = None,
          max_nodes: int | None = None, trace: bool = False, max_events: int = MAX_EVENTS,
          weights: dict[Constraint, int] | None = None, branching: str = "assign",
          look_back: str = "none", phases: dict[Hashable, Any] | None = None,
          **look_back_options: Any) -> Result:
    """Find one solution. `status` says `solved`, `unsatisfiable` or `limit`.

    `weights` (failure weights for dom/wdeg) and `phases` (the values variables last held,
    for `val_order="phase"`) carry what earlier runs learnt; see restarts.py. `branching`
    is `assign` (one value at a time) or `split` (halve the domain); see `Search`.
    `look_back` chooses chronological backtracking ("none"), conflict-directed
    backjumping ("cbj") or backjumping with nogood learning ("learn").
    """
    search = make_search(csp, look_back, inference=inference, var_order=var_order,
                         val_order=val_order, timeout=timeout, max_nodes=max_nodes, trace=trace,
                         max_events=max_events, weights=weights, branching=branching,
                         phases=phases, **look_back_options)
    return first_solution(search)


def first_solution(search: Search) -> Result:
    """Run `search` until its first solution, its end (no solution) or a limit."""
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
    counting_only = not keep and isinstance(search, Search)  # no copy of each solution
    run: Generator[dict[Hashable, Any] | None, None, None] = (
        search.leaves() if counting_only else search.solutions())
    with closing(run) as solutions:
        for solution in solutions:
            number += 1
            if keep and solution is not None:
                found.append(solution)
            if limit is not None and number >= limit:
                break
    status = "limit" if search.limit_hit else "complete"
    return CountResult(number, status, search.stats, found, search.trace)


def count_solutions(csp: CSP, limit: int | None = None, **options: Any) -> int:
    """The number of solutions (at most `limit`).

    Raises `LimitReached` when a node or time limit stops the count before it is certain.
    """
    result = count(csp, limit=limit, **options)
    if not result.complete:
        raise LimitReached(f"search limit reached after {result.count} solution(s)")
    return result.count

