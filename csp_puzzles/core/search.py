"""Backtracking search over a `CSP`: solve, count, or list every solution.

This is the algorithm of `textbook.py` (AIMA's figure 6.5), and under the same orders and
inference it visits the same nodes. It is written as one loop (`Search._loop`), in the
spirit of MiniSat's `search()` (see REFERENCES.md): propagate; on a conflict, look back and
back up; at a solution, report it and back up; otherwise decide. Chronological backtracking
(here), conflict-directed backjumping (lookback.py) and nogood learning (learning.py) differ
only in what they do on a conflict and after a solution (`_conflict`, `_passed`), and
learning in how it branches (`_open`, `_propagate`); the root, the decisions, the limits and
the trace are written once, here. A `Session` (session.py) drives the same engine by hand:
its decisions are `decide`, its undo `cancel_to`, and "let the engine finish" is `resume`.

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

import gc
import time
from collections.abc import Callable, Generator, Hashable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from .csp import CSP
from .errors import LimitReached
from .heuristics import credit_failure
from .inference import INFERENCES, node_consistency, reaches_arc_consistency
from .options import Options, check_count_limit, check_max_nodes
from .state import Contradiction, SearchState
from .stats import Stats
from .trace import BACKTRACK, SOLUTION, WIPEOUT, Trace

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


class Split(tuple):
    """A choice of domain splitting: the values to keep (a tuple, told apart from a value
    that happens to be a tuple)."""

    __slots__ = ()


@dataclass(slots=True)  # slots: quicker attribute access, one frame per node
class Frame:
    """One level of the search: its variable and the choices left for it.

    A choice is a value, or a `Split` (the values to keep). `mark` is the trail before the
    decision, `found` the solutions found before it (a backtrack is counted only when none
    came since). Backjumping (lookback.py) also keeps, over every value tried at the level,
    the earlier levels to blame (`conflict`, bit L for level L) and whether a solution lay
    below (`had_solution`); the other searches leave them as they are. A frame's level is
    its place in `Search.frames`, counted from 1.
    """

    var: Hashable
    choices: list[Any]
    next: int = 0
    choice: Any = None
    decided: bool = False
    mark: int = 0
    found: int = 0
    conflict: int = 0
    had_solution: bool = False


class Search:
    """One run of backtracking search; iterate `solutions()` to get solutions one by one.

    `Search(csp, options)`, or the options as keywords (`Search(csp, inference="fc")`); see
    `Options`. With `branching="split"` a decision halves the domain instead (keep the
    first half of the values in value order, then the second half), so a decision is a
    smaller domain, and a variable is assigned once its domain is down to one value.
    Either way each decision tried is one node in `stats.nodes`; after a split that leaves
    several values, only an inference that establishes arc consistency runs (the others
    act on assigned variables). `state` makes it go on from a state someone left (a
    `Session`'s): its trace and counters go on too.
    """

    #: the state it searches in; a look-back search asks for one that keeps explanations
    state_class: type[SearchState] = SearchState
    #: what the search adds at its root once the inference is done (a method of a subclass:
    #: learning asserts its unit nogoods there), or None
    at_root: Callable[[], None] | None = None
    trace: Trace | None

    def __init__(self, csp: CSP, options: Options | None = None,
                 state: SearchState | None = None, **keywords: Any):
        if not isinstance(csp, CSP):
            raise TypeError(f"the search needs a CSP, not {type(csp).__name__} (build one "
                            "with CSP(), add_variable and add_constraint)")
        self.options = options = Options.of(options, **keywords)
        self.csp = csp
        self.infer, self.select, self.order = options.infer, options.select, options.order
        self.split = options.branching == "split"
        self._start(options, state)
        #: an inference that leaves the domains arc consistent makes a variable with one
        #: value left decided already: the search neither branches on it nor waits for it
        self.arc_consistent = reaches_arc_consistency(self.infer)
        self.state.fixed_is_decided = self.arc_consistent
        #: the constraints the final check of a solution tests (see `_verified`): the
        #: core's own inferences are trusted with what they declare, no other
        trusted = any(self.infer is core for core in INFERENCES.values())
        self._unproven = [c for c in csp.constraints
                          if not (trusted and c.proven_when_fixed and c.scope)]
        self._unproven_scope = list(dict.fromkeys(v for c in self._unproven for v in c.scope))
        self._variables = len(csp.variables)  # how many a complete assignment holds
        self.timeout, self.max_nodes = options.timeout, options.max_nodes
        self.limit_hit = False
        self._deadline: float | None = None
        self._limited = False  # whether a node or time limit applies (see `leaves`)
        #: the decisions in force, one frame per level; `floor` frames were there when the
        #: loop began (a session's decisions), and the loop never backs up past them
        self.frames: list[Frame] = []
        self.floor = 0
        self.found = 0  # solutions found so far
        #: True when the state is the fixpoint of an earlier root's propagation (a learning
        #: search restarted in place): the next root then propagates no more than it adds
        self.root_kept = False
        #: what propagates after a decision on a variable: the inference (learning adds
        #: its nogoods)
        self._propagate: Callable[[Any, Hashable], None] = self.infer

    def _start(self, options: Options, state: SearchState | None) -> None:
        """The state, its trace and counters, and what earlier runs hand on."""
        if state is not None:
            self.state, self.stats, self.trace = state, state.stats, state.trace
        else:
            self.stats = Stats()
            trace = options.trace
            if trace is True:
                trace = Trace(self.csp.domains, max_events=options.max_events)
            self.trace = trace if isinstance(trace, Trace) else None
            self.state = self.state_class(self.csp, self.stats, self.trace)
        #: failure weights of the constraints, for dom/wdeg; a fresh search starts afresh
        #: (so runs repeat exactly) unless it is handed the weights of earlier runs
        self.weights = {} if options.weights is None else options.weights
        self.state.weights = self.weights
        #: the value each variable last held (phase saving, for `val_order="phase"`); like
        #: the weights, fresh unless handed those of earlier runs
        self.phases = {} if options.phases is None else options.phases
        #: the undo keeps them only when something reads them: a value order that says it
        #: `reads_phases`, or later runs that were handed this dict (it costs at every node)
        self.keeps_phases = (options.phases is not None
                             or getattr(self.order, "reads_phases", False))
        self.state.phases = self.phases if self.keeps_phases else None

    # -- running ---------------------------------------------------------------------------
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
            with fewer_collections():
                yield from self._loop()
        except LimitReached:
            self.limit_hit = True
        finally:
            self.stats.seconds += time.perf_counter() - start

    def _loop(self) -> Generator[None, None, None]:
        """The search: propagate (the root, then each decision); on a conflict, look back
        and back up (`_conflict`); at a solution, yield and back up (`_passed`); else
        decide, on the deepest level backed up to, or on a new level (`_open`).

        It runs at every node, so what it reads is kept in local names.
        """
        frames, limited = self.frames, self._limited
        floor = self.floor = len(frames)
        failed, conflict, complete, decide = self._failed, self._conflict, self._complete, \
            self._decide
        failure = self._root()
        while True:
            if failure is not None:
                failed(failure)
                if not conflict(failure):
                    return
            frame = frames[-1] if len(frames) > floor else None
            if frame is None or frame.decided:  # a new node: a solution, or a new level
                if complete():
                    found = self._verified()
                    if found:
                        self.found += 1
                        yield None
                    if not self._passed(found):
                        return
                    failure = None
                    continue
                if limited:
                    self._check_limits()
                frame = self._open()
                frames.append(frame)
            elif limited:
                self._check_limits()
            failure = decide(frame)

    # -- what the loop calls (a look-back search changes some) ---------------------------------
    def _root(self) -> Contradiction | None:
        """Before any decision: node consistency and the inference (unless the state is
        the root's fixpoint already: `root_kept`), then what this search adds at its root,
        if anything (`at_root`)."""
        try:
            if not self.root_kept:
                node_consistency(self.state)
                self.infer(self.state, None)
            if self.at_root is not None:
                self.at_root()
        except Contradiction as failure:
            return failure.with_traceback(None)  # see `_decide`
        return None

    def _open(self) -> Frame:
        """A new level: the variable the order chooses, and its choices."""
        var = self.select(self.state)
        return Frame(var, self._choices(var))

    def _choices(self, var: Hashable) -> list[Any]:
        """The branches for `var`: each value, or (split) the two halves of the values."""
        values = self.order(self.state, var)
        if type(values) is not list:  # the orders of the core give a list of their own
            values = list(values)
        if not self.split:
            return values
        if len(values) < 2:
            return [Split(values)]
        half = (len(values) + 1) // 2
        return [Split(values[:half]), Split(values[half:])]

    def _decide(self, frame: Frame) -> Contradiction | None:
        """Take the frame's next choice and propagate; the failure, if the branch fails."""
        state, var = self.state, frame.var
        choice = frame.choices[frame.next]
        frame.next += 1
        self.stats.nodes += 1
        frame.choice, frame.decided = choice, True
        frame.mark, frame.found = state.mark(), self.found
        state.changed.clear()
        try:
            if type(choice) is not Split:
                state.assign(var, choice)
            elif len(choice) == 1:
                state.assign(var, choice[0])
            else:
                state.restrict(var, choice)
                if not self.arc_consistent:
                    return None  # the other inferences act on assigned variables only
            self._propagate(state, var)
        except Contradiction as failure:
            # kept after the propagation it ended: without its traceback, whose frames
            # would hold the search and the failure itself in a cycle that only the
            # garbage collector frees
            return failure.with_traceback(None)
        return None

    def _passed(self, found: bool) -> bool:
        """After a leaf (a solution if `found`): back up to what is left to search."""
        return self._conflict(None)

    def _conflict(self, failure: Contradiction | None) -> bool:
        """A branch failed (or, `failure` None, a leaf was passed): back up, as
        chronological backtracking does, to the deepest level with a choice left; False
        when there is none (nothing is left to search)."""
        frames, floor, stats, state, trace = (self.frames, self.floor, self.stats, self.state,
                                              self.trace)
        while len(frames) > floor:
            frame = frames[-1]
            if frame.decided:  # `cancel(frame)`, written out: it runs at nearly every node
                state.undo(frame.mark)
                state.retract(frame.var)
                frame.decided = False
                if self.found == frame.found:
                    stats.backtracks += 1
                if trace is not None:
                    trace.record(BACKTRACK, frame.var, frame.choice, None, state.depth)
            if frame.next < len(frame.choices):
                return True
            frames.pop()
        return False

    def cancel(self, frame: Frame) -> None:
        """Undo the frame's decision and everything that followed from it."""
        state = self.state
        state.undo(frame.mark)
        state.retract(frame.var)
        frame.decided = False
        if self.trace is not None:
            self.trace.record(BACKTRACK, frame.var, frame.choice, None, state.depth)

    # -- driven from outside (a Session) --------------------------------------------------------
    def decide(self, var: Hashable, choice: Any,
               infer: Callable[[Any, Hashable], None] | None = None) -> Contradiction | None:
        """A decision made from outside the loop (a person's): a new level with `var =
        choice` (a `Split`: keep those values), then the inference (`infer`, or the
        search's own), as the loop decides. Returns the failure, when the decision fails."""
        frame = Frame(var, [choice])
        self.frames.append(frame)
        if infer is None:
            return self._decide(frame)
        own, self._propagate = self._propagate, infer
        try:
            return self._decide(frame)
        finally:
            self._propagate = own

    def cancel_to(self, level: int) -> None:
        """Undo every decision deeper than `level`, deepest first, each one a backtrack."""
        self.stats.backtracks += sum(frame.decided for frame in self.frames[level:])
        self._undo_to(level)

    def _undo_to(self, level: int) -> None:
        """Undo every decision deeper than `level`, deepest first, and what followed."""
        frames = self.frames
        while len(frames) > level:
            frame = frames.pop()
            if frame.decided:
                self.cancel(frame)

    def resume(self, max_nodes: int | None = None) -> Result:
        """Search below the decisions in force (they stay: the loop never backs up past
        them) for a solution, with at most `max_nodes` more nodes. A solution stays in the
        state and `frames`; otherwise (no solution below, or a node or time limit reached
        first) the frames are back to the decisions in force. The look-back searches
        (lookback.py, learning.py) resume from the root only: they back up past any level."""
        check_max_nodes(max_nodes)
        self.max_nodes = None if max_nodes is None else self.stats.nodes + max_nodes
        self.limit_hit = False
        floor, before = len(self.frames), replace(self.stats)
        result = first_solution(self)
        if result.status == LIMIT:  # the limit stopped the loop wherever it was
            self._undo_to(floor)
        result.stats = self.stats.minus(before)
        return result

    # -- the leaves ---------------------------------------------------------------------------
    def _failed(self, failure: Contradiction) -> None:
        """A branch failed: say so in the trace, and weigh the culprit for dom/wdeg."""
        self._record(WIPEOUT, failure.var, None, failure.cause)
        if failure.constraint is not None:
            credit_failure(self.state, failure.constraint, failure)

    def _complete(self) -> bool:
        """All variables assigned, or (under MAC, at a fixpoint) all domains down to one."""
        state = self.state
        return (len(state.assignment) == self._variables
                or self.arc_consistent and state.unfixed == 0)

    def _verified(self) -> bool:
        """Check the values against the constraints propagation has not proven already.

        This final check is what makes every answer trustworthy, whatever a propagator of
        one's own does. It checks each constraint with `is_satisfied`, except those that
        declare `proven_when_fixed` when the inference is one of the core's own
        (`INFERENCES`): these failed as soon as their scope was fixed to wrong
        values, so checking them again at every one of a million solutions would only
        repeat the search's own work. An inference of one's own is never trusted so,
        whatever it declares: its solutions are checked against every constraint. (A
        constraint over no variable is checked: no assignment ever calls it.)
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

    def _record(self, kind: str, var: Hashable, value: Any, cause: str | None,
                depth: int | None = None) -> None:
        """An event at the current level, or at the level `depth` it names (a backjump's
        target, a nogood's)."""
        if self.trace is not None:
            self.trace.record(kind, var, value, cause,
                              self.state.depth if depth is None else depth)


#: while a search runs, Python's cyclic garbage collector waits for this many new objects
#: (its default is 700) and looks at its older generations this much less often (see
#: `fewer_collections`)
COLLECT_EVERY = (50_000, 50, 50)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run Python's cyclic garbage collector less often while a search runs.

    A search makes many small objects that live on for a while (trail entries, the
    reasons of removals, frames, nogoods), and the collector, run every 700 new objects,
    walks all of them again each time, which costs as much as a good part of the search.
    Collecting less often frees the same memory a little later: the objects a search
    drops as it goes are freed when their last reference goes, and only what lies in a
    cycle (a failure kept with its traceback, say) waits for the collector. The thresholds
    in force before come back afterwards; a window opened inside another changes nothing.
    """
    before = gc.get_threshold()
    if before == COLLECT_EVERY:  # inside another such window (a puzzle's whole solve)
        yield
        return
    gc.set_threshold(*COLLECT_EVERY)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def make_search(csp: CSP, options: Options | None = None, **keywords: Any) -> Search:
    """The search for `options.look_back`: chronological ("none"), backjumping ("cbj",
    lookback.py) or learning ("learn", learning.py)."""
    options = Options.of(options, **keywords)
    if options.look_back == "learn":
        from .learning import LearningSearch

        return LearningSearch(csp, options)
    if options.look_back == "cbj":
        from .lookback import LookBackSearch

        return LookBackSearch(csp, options)
    return Search(csp, options)


def solve(csp: CSP, options: Options | None = None, **keywords: Any) -> Result:
    """Find one solution. `status` says `solved`, `unsatisfiable` or `limit`.

    The options (`Options`, or the same names as keywords): `inference`, `var_order`,
    `val_order`, `branching`, `look_back`, `timeout`, `max_nodes`, `trace`, and what
    earlier runs hand on (`weights`, `phases`; see restarts.py).
    """
    return first_solution(make_search(csp, options, **keywords))


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


def iter_solutions(csp: CSP, options: Options | None = None,
                   **keywords: Any) -> Iterator[dict[Hashable, Any]]:
    """Every solution, one at a time (options as for `solve`)."""
    yield from make_search(csp, options, **keywords).solutions()


def count(csp: CSP, limit: int | None = None, keep: bool = False,
          options: Options | None = None, **keywords: Any) -> CountResult:
    """Count solutions, stopping at `limit` of them; `keep=True` also returns them."""
    check_count_limit(limit)
    search = make_search(csp, options, **keywords)
    found: list[dict[Hashable, Any]] = []
    number = 0
    run: Generator[dict[Hashable, Any] | None, None, None] = (
        search.solutions() if keep else search.leaves())  # leaves: no copy of each solution
    with closing(run) as solutions:
        for solution in solutions:
            number += 1
            if keep and solution is not None:
                found.append(solution)
            if limit is not None and number >= limit:
                break
    status = "limit" if search.limit_hit else "complete"
    return CountResult(number, status, search.stats, found, search.trace)


def count_solutions(csp: CSP, limit: int | None = None, options: Options | None = None,
                    **keywords: Any) -> int:
    """The number of solutions (at most `limit`).

    Raises `LimitReached` when a node or time limit stops the count before it is certain.
    """
    result = count(csp, limit=limit, options=options, **keywords)
    if not result.complete:
        raise LimitReached(f"search limit reached after {result.count} solution(s)")
    return result.count
