"""A search the student drives: one action at a time, each one recorded and undoable.

A `Session` drives the search engine (search.py) by hand: its decisions are the engine's
own (`Search.decide`, undone by `Search.cancel_to`), on the engine's state (domains, trail,
frames), and a person acts on it: decide (`assign`, `split`), revise one arc of AC-3 by hand
(`revise`, with the queue `arcs()`), run the inference (`propagate`), ask for the engine's
choice (`suggest`) or for a deduction (`hint`, `apply`), take anything back (`undo`), and
hand over to the engine's own search (`finish`). Every action goes into one `Trace` with
the kinds the search uses, so the explorer replays a session as it replays a search.

The session starts from the domains as the problem gives them: even a constraint over one
variable (a filter on its domain, which the search applies before anything else) is left to
the student's actions (its arc in `arcs()`, the inference, a hint).

An action that breaks a rule of the API (an unknown variable, a value not in the domain,
acting after a wipe-out) raises `ValueError` before anything changes. A wipe-out is not an
error: the domain emptied stays visible, and `status` says "wipeout", until `undo`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, NamedTuple

from .constraints import Constraint
from .csp import CSP
from .heuristics import VALUE_ORDERS, VARIABLE_ORDERS, ValueOrder, VariableOrder
from .hints import Hint, Removals, Words, next_hint
from .inference import Inference, reaches_arc_consistency
from .ladder import Rung
from .options import pick
from .search import LIMIT, SOLVED, Result, Search, Split, count
from .state import Contradiction, SearchState
from .suggest import Suggestion, suggestion
from .trace import REVISE, SOLUTION, UNDO, WIPEOUT, Trace, show

OPEN, SOLVED_STATUS, WIPED_OUT = "open", "solved", "wipeout"
#: nodes the count behind `mistakes` and the engine's `finish` may take
SEARCH_NODES = 200_000
#: the largest number of tuples `revise` enumerates to find supports; past it, the
#: constraint's own propagator decides (sound, maybe weaker)
SUPPORT_TUPLES = 20_000

Arc = tuple[Constraint, Hashable]


class Decision(NamedTuple):
    """A decision of the path: `assign` (var = value) or `split` (var in `value`, a tuple)."""

    kind: str
    var: Hashable
    value: Any


@dataclass
class _Action:
    """What `undo` needs to take an action back."""

    words: str  # what was taken back, for the trace: "hint: saturation at (2,3)"
    mark: int  # the trail before it
    depth: int  # the decision levels before it
    queue: list[Arc]  # AC-3's queue before it
    status: str


class Session:
    """A search the student drives (see the module docstring).

    `Session(csp, inference="fc")`; a puzzle's session (`csp_puzzles.Session(puzzle)`)
    passes its `ladder` of rules for hints, its `words` for sentences, and the
    `reference` model (or a function that makes it) whose unique solution `mistakes`
    compares with.
    """

    def __init__(self, csp: CSP, inference: str | Inference = "fc",
                 ladder: Sequence[Rung] | None = None, words: Words | None = None,
                 reference: CSP | Callable[[], CSP] | None = None, **search_options: Any):
        if not isinstance(csp, CSP):
            raise TypeError(f"a Session needs a CSP (or a puzzle, through csp_puzzles."
                            f"Session), not {type(csp).__name__}")
        #: the engine the session drives: its decisions are the engine's (`decide`,
        #: `cancel_to`), and "let the engine finish" is its own loop (`resume`)
        self.engine = Search(csp, inference=inference, trace=True, **search_options)
        self.state = self.engine.state
        self.csp = csp
        self.inference = inference
        self.infer: Inference = self.engine.infer
        self.ladder = list(ladder) if ladder is not None else [Rung("constraints", csp)]
        self.words = words or Words()
        #: the model whose one solution `mistakes` compares with (or what makes it, on
        #: first use): by default the CSP itself
        self.reference = reference or csp
        #: the engine's options for `mistakes` (a puzzle's own orders)
        self.search_options = search_options
        self._status = OPEN
        self._actions: list[_Action] = []
        self._queue: list[Arc] = [(c, var) for c in csp.constraints
                                  for var in dict.fromkeys(c.scope)]
        self._queued = set(self._queue)
        #: per rung, the constraints known to deduce nothing on the domains now (hints.py)
        self._quiet: list[set[Constraint]] = [set() for _ in self.ladder]
        self._solution: dict[Hashable, Any] | None = None
        self._solutions_counted: int | None = None

    # -- reading -----------------------------------------------------------------------------
    @property
    def domains(self) -> dict[Hashable, tuple[Any, ...]]:
        """Each variable's values now, in the order its domain was given."""
        return {var: tuple(self.state.values(var)) for var in self.csp.variables}

    @property
    def status(self) -> str:
        """"open", "solved" (every variable has one value, every constraint holds) or
        "wipeout" (a domain is empty, or a constraint cannot hold: undo)."""
        return self._status

    @property
    def trace(self) -> Trace:
        """Everything done so far, replayable (`trace.domains_at(len(trace) - 1)` is
        `domains`)."""
        assert self.state.trace is not None
        return self.state.trace

    @property
    def decisions(self) -> list[Decision]:
        """The decisions in force, shallowest first."""
        return [Decision("split" if type(frame.choice) is Split else "assign", frame.var,
                         tuple(frame.choice) if type(frame.choice) is Split else frame.choice)
                for frame in self.engine.frames]

    @property
    def history(self) -> list[str]:
        """The actions `undo` can take back, oldest first, in words ("assign WA = red")."""
        return [action.words for action in self._actions]

    @property
    def depth(self) -> int:
        """How many decisions are in force."""
        return self.state.depth

    def arcs(self) -> list[Arc]:
        """The arcs (constraint, variable) still to revise, in AC-3's queue order: every arc
        at first; revising an arc takes it off, and a change to a variable queues again the
        arcs that point at it (of the other constraints, when a revision made the change)."""
        return list(self._queue)

    # -- decisions ---------------------------------------------------------------------------
    def assign(self, var: Hashable, value: Any) -> Removals:
        """Decide `var = value`, then run the session's inference. Returns the values that
        left each domain (the other values of `var` included)."""
        self._check_open()
        self._check_variable(var)
        if var in self.state.assignment:
            raise ValueError(f"{self._name(var)} is assigned already (undo that first)")
        if not self._in_domain(var, value):
            raise ValueError(f"{show(value)} is not in the domain of {self._name(var)} "
                             f"(left: {', '.join(map(show, self.state.values(var)))})")
        action = self._begin(f"assign {show(var)} = {show(value)}")
        self._decide(var, value)
        return self._end(action)

    def split(self, var: Hashable) -> Removals:
        """Decide to keep the first half of `var`'s values (the lower half, in domain order),
        then run the inference as the search does after a split."""
        self._check_open()
        self._check_variable(var)
        values = self.state.values(var)
        if len(values) < 2:
            raise ValueError(f"{self._name(var)} has one value left: nothing to split")
        kept = tuple(values[:(len(values) + 1) // 2])
        action = self._begin(f"split {show(var)}")
        self._decide(var, Split(kept))
        return self._end(action)

    def _decide(self, var: Hashable, choice: Any) -> None:
        """One decision, made by the engine as its search makes them (a split keeping one
        value is an assignment)."""
        failure = self.engine.decide(var, choice)
        if failure is not None:
            self._wiped_out(failure)

    # -- deductions --------------------------------------------------------------------------
    def revise(self, constraint: Constraint | str, var: Hashable) -> tuple[Any, ...]:
        """AC-3's REVISE of the arc (`constraint`, `var`), by hand: remove the values of `var`
        that no values of the constraint's other variables support. Returns them."""
        self._check_open()
        constraint = self._constraint(constraint)
        self._check_variable(var)
        if var not in constraint.scope:
            raise ValueError(f"{self._name(var)} is not in the scope of {constraint.name}")
        action = self._begin(f"revise {show(var)} against {constraint.name}")
        arc = (constraint, var)
        if arc in self._queued:
            self._queue.remove(arc)
            self._queued.discard(arc)
        waiting = tuple((c.name, v) for c, v in self._queue)
        self.trace.record(REVISE, var, waiting, constraint.name, self.state.depth)
        kept = supported(self.state, constraint, var)
        doomed = [x for x in self.state.values(var) if x not in kept]
        try:
            for value in doomed:
                self.state.remove(var, value, constraint.name)
        except Contradiction as failure:
            self._wiped_out(failure)
        self._end(action, revised=constraint)
        return tuple(doomed)

    def propagate(self) -> Removals:
        """The session's inference to a fixpoint: under MAC every constraint's propagator
        until nothing changes; under forward checking, a forward check from every variable
        with one value left, again while one prunes; without inference, the checks only."""
        self._check_open()
        action = self._begin("propagation")
        state = self.state
        try:
            if reaches_arc_consistency(self.infer):
                self.infer(state, None)
            else:
                while self._forward_pass():
                    pass
        except Contradiction as failure:
            self._wiped_out(failure)
        return self._end(action)

    def _forward_pass(self) -> bool:
        """The inference from each variable with one value left; True if it removed any."""
        state = self.state
        before = state.mark()
        for var in self.csp.variables:
            if len(state.domains[var]) == 1:
                state.changed.clear()
                self.infer(state, var)
        return state.mark() != before

    def hint(self) -> Hint | None:
        """The next deduction the rules can make now, without guessing (nothing changes);
        None when there is none, or the session is not open."""
        if self._status != OPEN:
            return None
        return next_hint(self.ladder, self.state.domains, self.words, self._quiet)

    def apply(self, hint: Hint) -> Removals:
        """Make the deduction `hint` (an action `undo` takes back)."""
        self._check_open()
        if not isinstance(hint, Hint):
            raise ValueError(f"apply takes a Hint (from hint()), not {type(hint).__name__}")
        for var, values in hint.removals.items():
            self._check_variable(var)
            gone = [x for x in values if not self._in_domain(var, x)]
            if gone:
                raise ValueError(f"this hint is out of date: {', '.join(map(show, gone))} "
                                 f"left {self._name(var)} already")
        action = self._begin(f"hint: {hint.rule}")
        try:
            for var, values in hint.removals.items():
                for value in values:
                    self.state.remove(var, value, hint.rule)
        except Contradiction as failure:
            self._wiped_out(failure)
        return self._end(action)

    def suggest(self, var_order: str | VariableOrder = "mrv",
                val_order: str | ValueOrder = "lcv") -> Suggestion:
        """The engine's choice here, without making it: `.var`, `.value` and `.sentence`
        ("MRV would choose SA: 1 value left; ...")."""
        self._check_open()
        return suggestion(self.state, pick(var_order, VARIABLE_ORDERS, "variable order"),
                          pick(val_order, VALUE_ORDERS, "value order"), self.words)

    # -- the engine takes over -----------------------------------------------------------------
    def finish(self, var_order: str | VariableOrder | None = None,
               val_order: str | ValueOrder | None = None,
               max_nodes: int | None = SEARCH_NODES) -> Result:
        """Let the engine's search go on from here, below the decisions made so far, in the
        same trace. Solved: the solution stays (undo takes the engine's decisions back);
        no solution below: status "wipeout"; a limit reached: everything is as before."""
        self._check_open()
        engine = self.engine
        orders = engine.select, engine.order
        select = orders[0] if var_order is None else pick(var_order, VARIABLE_ORDERS,
                                                           "variable order")
        order = orders[1] if val_order is None else pick(val_order, VALUE_ORDERS,
                                                          "value order")
        action = self._begin("the engine's search")
        engine.select, engine.order = select, order
        try:
            result = engine.resume(max_nodes)
        finally:
            engine.select, engine.order = orders
        if result.status == LIMIT:  # the engine is back at the decisions in force: take
            self._actions.append(action)  # back what its root propagation removed, as undo
            self._take_back(f"the engine's search (it stopped after {result.stats.nodes} "
                            "nodes)")
            return result
        if result.status == SOLVED:
            self._status = SOLVED_STATUS
        else:
            if not self.trace or self.trace[-1].kind != WIPEOUT:
                self._record(WIPEOUT, None, None, "the engine's search: no solution below "
                             "the decisions so far")
            self._status = WIPED_OUT
        self._end(action)
        return result

    # -- undo --------------------------------------------------------------------------------
    def undo(self) -> Removals:
        """Take back the last action, whatever it was. Returns the values put back."""
        if not self._actions:
            raise ValueError("nothing to undo")
        return self._take_back()

    def _take_back(self, words: str | None = None) -> Removals:
        """Undo the last action: its decisions as the search backtracks (deepest first),
        the rest as one `undo` event (saying `words`, or the action's own)."""
        action = self._actions.pop()
        state = self.state
        back = _grouped_removals(state, state.removals_since(action.mark))
        opened = state.depth > action.depth
        self.engine.cancel_to(action.depth)  # its decisions, deepest first, as backtracks
        rest = state.removals_since(action.mark)
        if rest or not opened:  # what it removed outside any level of its own
            state.undo(action.mark)
            self._record(UNDO, None, tuple(rest), words or action.words)
        self._queue = action.queue
        self._queued = set(self._queue)
        self._status = action.status
        self._changed(back)
        return back

    # -- mistakes ----------------------------------------------------------------------------
    def mistakes(self) -> list[Decision]:
        """The decisions so far that disagree with the problem's one solution, in order.

        Raises ValueError when the problem has no solution or more than one (or the count
        cannot tell within `SEARCH_NODES` nodes)."""
        solution = self._unique_solution()
        wrong = []
        for decision in self.decisions:
            kept = decision.value if decision.kind == "split" else (decision.value,)
            if solution[decision.var] not in kept:
                wrong.append(decision)
        return wrong

    def _unique_solution(self) -> dict[Hashable, Any]:
        """The reference model's solution, counted once (lazily) to be sure it is unique."""
        if self._solutions_counted is None:
            options = {"inference": "mac", **self.search_options}
            reference = self.reference if isinstance(self.reference, CSP) else self.reference()
            counted = count(reference, limit=2, keep=True, max_nodes=SEARCH_NODES, **options)
            if not counted.complete:
                raise ValueError(f"mistakes: could not count the solutions within "
                                 f"{SEARCH_NODES} nodes")
            self._solutions_counted = counted.count
            if counted.count == 1:
                self._solution = counted.solutions[0]
        if self._solution is None:
            many = "no solution" if self._solutions_counted == 0 else "more than one solution"
            raise ValueError(f"mistakes need a problem with exactly one solution; this one "
                             f"has {many}")
        return self._solution

    # -- bookkeeping -------------------------------------------------------------------------
    def _begin(self, words: str) -> _Action:
        state = self.state
        return _Action(words, state.mark(), state.depth, list(self._queue), self._status)

    def _end(self, action: _Action, revised: Constraint | None = None) -> Removals:
        """Queue the arcs that point at what changed, see whether the problem is solved,
        and keep the action for `undo`. Returns what it removed."""
        removals = _grouped_removals(self.state, self.state.removals_since(action.mark))
        self._requeue(removals, revised)
        self._changed(removals)
        if self._status == OPEN and self.state.unfixed == 0:
            self._final_check()
        self._actions.append(action)
        return removals

    def _requeue(self, changed: Iterable[Hashable], revised: Constraint | None) -> None:
        """AC-3: a variable that lost values may have taken the only support of a value of
        a neighbour, so the arcs pointing at it go back in the queue. Those of the
        constraint just revised need not: a value with no support was in no tuple of it."""
        for var in changed:
            for constraint in self.csp.constraints_of[var]:
                if constraint is revised:
                    continue
                for other in dict.fromkeys(constraint.scope):
                    arc = (constraint, other)
                    if other != var and arc not in self._queued:
                        self._queue.append(arc)
                        self._queued.add(arc)

    def _changed(self, variables: Iterable[Hashable]) -> None:
        """Constraints over variables whose domains changed may deduce again (hints)."""
        for rung, quiet in zip(self.ladder, self._quiet):
            if quiet:
                for var in variables:
                    quiet.difference_update(rung.csp.constraints_of.get(var, ()))

    def _final_check(self) -> None:
        """Every variable has one value: a solution if every constraint holds."""
        values = {var: self.state.value(var) for var in self.csp.variables}
        broken = self.csp.violated(values)
        if broken:
            self._record(WIPEOUT, None, None, f"final check: {broken[0].name}")
            self._status = WIPED_OUT
        else:
            self._record(SOLUTION, None, None, None)
            self._status = SOLVED_STATUS

    def _wiped_out(self, failure: Contradiction) -> None:
        self._record(WIPEOUT, failure.var, None, failure.cause)
        self._status = WIPED_OUT

    def _record(self, kind: str, var: Hashable, value: Any, cause: str | None) -> None:
        self.trace.record(kind, var, value, cause, self.state.depth)

    def _check_open(self) -> None:
        if self._status == WIPED_OUT:
            raise ValueError("a domain is empty (or a constraint cannot hold): undo first")
        if self._status == SOLVED_STATUS:
            raise ValueError("the problem is solved: nothing is left to do (undo to go back)")

    def _check_variable(self, var: Any) -> None:
        try:
            known = var in self.state.domains
        except TypeError:  # unhashable
            known = False
        if not known:
            raise ValueError(f"unknown variable {var!r}")

    def _in_domain(self, var: Hashable, value: Any) -> bool:
        try:
            return value in self.state.domains[var]
        except TypeError:  # unhashable
            return False

    def _constraint(self, constraint: Constraint | str) -> Constraint:
        """The constraint itself, or the one of that name."""
        if isinstance(constraint, Constraint):
            if not any(c is constraint for c in self.csp.constraints):
                raise ValueError(f"{constraint.name} is not a constraint of this problem")
            return constraint
        named = [c for c in self.csp.constraints if c.name == constraint]
        if len(named) != 1:
            problem = "no constraint" if not named else f"{len(named)} constraints"
            raise ValueError(f"{problem} named {constraint!r} in this problem")
        return named[0]

    def _name(self, var: Hashable) -> str:
        return self.words.name(var)


def _grouped_removals(state: SearchState, pairs: Iterable[tuple[Hashable, Any]]) -> Removals:
    """{var: values removed}, each variable's values in its domain's order."""
    grouped: dict[Hashable, list[Any]] = {}
    for var, value in pairs:
        grouped.setdefault(var, []).append(value)
    return {var: tuple(sorted(values, key=state.rank[var].__getitem__))
            for var, values in grouped.items()}


def supported(state: SearchState, constraint: Constraint, var: Hashable) -> set[Any]:
    """The values of `var` that some values of the constraint's other variables support
    (REVISE's test), by trying the tuples; past `SUPPORT_TUPLES` of them, the values the
    constraint's own propagator keeps on a scratch copy."""
    others = [v for v in dict.fromkeys(constraint.scope) if v != var]
    size = 1
    for other in others:
        size *= len(state.domains[other])
    if size > SUPPORT_TUPLES:
        return _kept_by_propagator(state, constraint, var)
    domains = [state.values(other) for other in others]
    kept = set()
    for value in state.values(var):
        for combo in product(*domains):
            state.stats.checks += 1
            if constraint.is_satisfied({var: value, **dict(zip(others, combo))}):
                kept.add(value)
                break
    return kept


def _kept_by_propagator(state: SearchState, constraint: Constraint, var: Hashable) -> set[Any]:
    scratch = SearchState(state.csp, domains=state.domains)
    try:
        constraint.propagate(scratch)
    except Contradiction:
        return set()
    return set(scratch.domains[var])
