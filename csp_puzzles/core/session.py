"""A search the student drives: one action at a time, each one recorded and undoable.

For the page (the playground) and for students: the whole API, what each call returns.

    s = Session(csp, inference="fc", after_move=None)    # core; a puzzle: Session(puzzle, ...)
    AFTER_MOVE == ("nothing", "forward checking", "propagation")
    s.after_move = "nothing"          # what runs after each `set`/`assign`/`suppose`:
                                      #   "nothing": the decision alone (no check either);
                                      #   "forward checking": the core's forward check;
                                      #   "propagation": the session's inference (a puzzle's
                                      #   rules); the default. Settable at any time.
  moves (each is one action: `undo` takes it back whole, `redo` makes it again):
    s.set(var, value)   -> Change     decide var = value; on a decided var, its old decision
                                      is taken back, the new one made, the later decisions
                                      and pencil marks made again (deductions made after it
                                      are dropped: ask again); a value crossed out by hand
                                      comes back first
    s.clear(var)        -> Change     take back every decision on var, keep the others
    s.remove(var, value) -> Change    cross out a value by hand (a pencil mark); never the
                                      last value of a domain
    s.restore(var, value) -> Change   put back a value crossed out by hand (only those)
    s.assign(var, value) -> Change    as `set`, on a variable with no decision yet
    s.split(var), s.revise(c, var) (-> the values removed), s.propagate(), s.apply(hint),
    s.finish() (-> Result): as before, each one action
  trials (pzprjs's trial mode; backtracking by hand; nested):
    s.suppose(var, value) -> Change   a decision that opens a trial (its own level)
    s.reject()          -> Change     take back the innermost trial whole (a backtrack)
    s.accept()          -> Change     keep what was done in it as ordinary moves
    s.trials            -> [Decision] the open trials, outermost first
  several actions as one:
    with s.action("arc consistency") as change: ...   # undo takes all of it back at once;
                                      # `change` is filled in when the block ends
  undo and redo:
    s.undo() -> Change, s.redo() -> Change   (ValueError when there is nothing to)
    s.can_undo, s.can_redo -> bool;  s.history, s.redo_history -> [words], oldest first
    a new action empties the redo stack
  checking:
    s.broken()   -> [Broken]  the constraints the decisions already break whatever the
                              undecided variables take: .constraint (name), .sentence (the
                              puzzle's words: "two 3s in row 2"), .variables (decided ones
                              to mark, the page's data-var), .cells ((row, col) to mark)
    s.mistakes() -> [Decision] the decisions that disagree with the unique solution
  reading:
    s.status  "open" | "solved" | "wipeout";   s.wipeout -> WipeOut | None: .var (emptied,
              or None), .cause, .decision (the deepest decision then, or None), .sentence
    s.decided -> [var] assigned by a decision;  s.one_value_left -> [var] one value left,
              no decision;  s.pencil -> {var: values crossed out by hand}
    s.domains, s.decisions, s.arcs() (empty once solved), s.trace, s.hint() (None unless
    open), s.suggest()

A move on an old decision (`set`, `clear`, `restore`, `reject`, `undo`, `redo`) works in any
status, a wipe-out or a solved board included; a new decision needs an open board. Moves
made again that no longer hold are said in the sentence ("NT = green could not be made
again"), never dropped in silence, and `undo` brings them back.

A `Change` is a dict {var: values}: the values the action removed (for `undo`, `clear`,
`restore` and `reject`: the values it put back), with `.removed` and `.restored` (both, as
the domains before and after differ), `.words` (the action: "set cell (2,3) = 4") and
`.sentence` ("undone: arc consistency; 4 values put back"). An action that breaks a rule of
the API raises ValueError and changes nothing.


A `Session` drives the search engine (search.py) by hand: its decisions are the engine's
own (`Search.decide`, undone by `Search.cancel_to`), on the engine's state (domains, trail,
frames), and a person acts on it: decide (`assign`, `set`, `split`, `suppose`), take a
decision back (`clear`, `reject`), cross values out by hand (`remove`, `restore`), revise
one arc of AC-3 by hand (`revise`, with the queue `arcs()`), run the inference
(`propagate`), ask for the engine's choice (`suggest`) or for a deduction (`hint`, `apply`),
take anything back (`undo`, `redo`), and hand over to the engine's own search (`finish`).
Every action goes into one `Trace` with the kinds the search uses, so the explorer replays
a session as it replays a search: changing an old decision backtracks to it and makes the
later moves again, in the trace as in the engine.

The session keeps its board as the list of moves in force (moves.py): every state is what
making them in order gives, so undo, redo and a change to an old move all go back to the
first move that differs and make the rest again.

The session starts from the domains as the problem gives them: even a constraint over one
variable (a filter on its domain, which the search applies before anything else) is left to
the student's actions (its arc in `arcs()`, the inference, a hint).

An action that breaks a rule of the API (an unknown variable, a value not in the domain,
acting after a wipe-out) raises `ValueError` before anything changes. A wipe-out is not an
error: the domain emptied stays visible, and `status` says "wipeout", until `undo`.
"""


from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

from .checking import SUPPORT_TUPLES, Broken, broken, supported
from .constraints import Constraint
from .csp import CSP
from .deductions import grouped_removals
from .heuristics import VALUE_ORDERS, VARIABLE_ORDERS, ValueOrder, VariableOrder
from .hints import Hint, Known, Words, found_at_once, next_hint
from .inference import INFERENCES, Inference, node_consistency, reaches_arc_consistency
from .ladder import Rung
from .moves import (
    AFTER_MOVE,
    FORWARD_CHECKING,
    NOTHING,
    PROPAGATION,
    Board,
    Change,
    Decide,
    Deduce,
    EngineSearch,
    Move,
    Propagate,
    Revise,
    Strike,
    Trial,
    WipeOut,
    counted,
    differences,
    made_again,
)
from .options import pick
from .search import LIMIT, SOLVED, Result, Search, Split, count
from .state import Contradiction, SearchState
from .suggest import Suggestion, suggestion
from .trace import REVISE, SOLUTION, UNDO, WIPEOUT, Trace, plural, show

__all__ = ["Session", "Decision", "Change", "Broken", "WipeOut", "AFTER_MOVE", "supported",
           "SUPPORT_TUPLES"]

OPEN, SOLVED_STATUS, WIPED_OUT = "open", "solved", "wipeout"
#: nodes the count behind `mistakes` and the engine's `finish` may take
SEARCH_NODES = 200_000
#: who removes a value crossed out by hand, as the trace says it
PLAYER = "the player"

Arc = tuple[Constraint, Hashable]


class Decision(NamedTuple):
    """A decision of the path: `assign` (var = value) or `split` (var in `value`, a tuple)."""

    kind: str
    var: Hashable
    value: Any


@dataclass(frozen=True)
class _Point:
    """Where the session stood before a move: what going back there restores."""

    mark: int  # the trail
    depth: int  # the decision levels
    queue: tuple[Arc, ...]  # AC-3's queue
    status: str


@dataclass(frozen=True)
class _Action:
    """An action `undo` takes back and `redo` makes again: the boards before and after."""

    words: str  # "set cell (2,3) = 4", "arc consistency"
    before: Board
    after: Board


def _nothing(state: SearchState, var: Hashable) -> None:
    """After a move, "nothing": the decision alone, not even a check."""


class Session:
    """A search the student drives (see the module docstring).

    `Session(csp, inference="fc")`; a puzzle's session (`csp_puzzles.Session(puzzle)`)
    passes its `ladder` of rules for hints, its `words` for sentences, the `reference`
    model (or a function that makes it) whose unique solution `mistakes` compares with, and
    its `rules` (a CSP, or a function that makes it) whose constraints `broken` checks.
    """

    def __init__(self, csp: CSP, inference: str | Inference = "fc",
                 ladder: Sequence[Rung] | None = None, words: Words | None = None,
                 reference: CSP | Callable[[], CSP] | None = None,
                 rules: CSP | Callable[[], CSP] | None = None, after_move: str | None = None,
                 **search_options: Any):
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
        #: the constraints `broken` checks (or what makes them): by default the CSP's own
        self.rules = rules or csp
        #: the engine's options for `mistakes` (a puzzle's own orders)
        self.search_options = search_options
        self.after_move = after_move or PROPAGATION
        self._status = OPEN
        self._wipeout: WipeOut | None = None
        self._moves: list[Move] = []  # the board: the moves in force, and before each one
        self._points: list[_Point] = []  # where the session stood
        self._trials: tuple[Trial, ...] = ()
        self._actions: list[_Action] = []
        self._redo: list[_Action] = []
        self._grouped = False  # inside `with session.action(...)`
        #: each constraint's variables, once each: its arcs
        self._scopes = {c: tuple(dict.fromkeys(c.scope)) for c in csp.constraints}
        self._set_queue([(c, var) for c in csp.constraints for var in self._scopes[c]])
        #: per rung, what each constraint deduces on the domains now, once asked (hints.py)
        self._known: list[Known] = [Known() for _ in self.ladder]
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
    def wipeout(self) -> WipeOut | None:
        """In a wipe-out, why: the variable emptied, the cause, the deepest decision then,
        and a sentence ("... the last decision, NT = green, led here: undo it"); else None."""
        return self._wipeout

    @property
    def after_move(self) -> str:
        """What runs after each decision (`assign`, `set`, `split`, `suppose`): one of
        `AFTER_MOVE`: "nothing", "forward checking" or "propagation" (the session's
        inference, the default)."""
        return self._after_move

    @after_move.setter
    def after_move(self, setting: str) -> None:
        if setting not in AFTER_MOVE:
            raise ValueError(f"after_move is one of {', '.join(AFTER_MOVE)}, not {setting!r}")
        self._after_move = setting

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
    def decided(self) -> list[Hashable]:
        """The variables a decision assigned, in the order they were."""
        return list(self.state.assignment)

    @property
    def one_value_left(self) -> list[Hashable]:
        """The variables down to one value that no decision assigned (given, deduced, or
        crossed out down to one by hand)."""
        assigned, domains = self.state.assignment, self.state.domains
        return [var for var in self.csp.variables
                if len(domains[var]) == 1 and var not in assigned]

    @property
    def pencil(self) -> dict[Hashable, tuple[Any, ...]]:
        """The values crossed out by hand (`remove`) and still out, by variable."""
        return {var: tuple(values) for var, values in self.board.pencil().items()}

    @property
    def trials(self) -> list[Decision]:
        """The open trials (`suppose`), outermost first: the supposition of each."""
        return [Decision("assign", t.move.var, t.move.choice) for t in self._trials]

    @property
    def board(self) -> Board:
        """The moves in force and the open trials (moves.py)."""
        return Board(tuple(self._moves), self._trials)

    @property
    def history(self) -> list[str]:
        """The actions `undo` can take back, oldest first, in words ("assign WA = red")."""
        return [action.words for action in self._actions]

    @property
    def redo_history(self) -> list[str]:
        """The actions `redo` can make again, the next one first."""
        return [action.words for action in reversed(self._redo)]

    @property
    def can_undo(self) -> bool:
        return bool(self._actions)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def depth(self) -> int:
        """How many decisions are in force."""
        return self.state.depth

    def arcs(self) -> list[Arc]:
        """The arcs (constraint, variable) still to revise, in AC-3's queue order: every arc
        at first; revising an arc takes it off, and a change to a variable queues again the
        arcs that point at it (of the other constraints, when a revision made the change);
        none once solved."""
        return list(self._queue)

    # -- decisions ---------------------------------------------------------------------------
    def assign(self, var: Hashable, value: Any) -> Change:
        """Decide `var = value` (a variable with no decision yet), then what `after_move`
        says. Returns the values that left each domain (the other values of `var` too)."""
        self._check_open()
        self._check_variable(var)
        if var in self.state.assignment:
            raise ValueError(f"{self._name(var)} is assigned already (set it, or undo that "
                             "first)")
        self._check_value(var, value)
        return self._do(f"assign {self._said(var, value)}",
                        self.board.plus(Decide(var, value, self.after_move)))

    def set(self, var: Hashable, value: Any) -> Change:
        """Decide `var = value`, whether or not `var` has a decision: a decided variable's
        old decision is taken back (as the search backtracks), the new one made, and the
        later decisions and crossings-out made again (the deductions drawn after it go: ask
        again). A value crossed out by hand comes back first."""
        self._check_variable(var)
        words = f"set {self._said(var, value)}"
        board = self.board
        if var not in self.state.assignment:
            self._check_open()
            if self._in_domain(var, value):
                return self._do(words, board.plus(Decide(var, value, self.after_move)))
            struck = self._struck(var, value, self.state.values(var))
            tail, dropped = made_again(board.moves[struck + 1:])
            new = Decide(var, value, self.after_move)
            return self._rewrite(words, struck, [*tail, new], dropped, new)
        return self._decide_again(var, value, words)

    def _decide_again(self, var: Hashable, value: Any, words: str) -> Change:
        """`set` on a decided variable: its last decision replaced, the moves after it made
        again (and the value, if it was crossed out by hand before, put back first)."""
        old_value = self.state.value(var)
        if old_value == value:
            raise ValueError(f"{self._name(var)} is {self.words.value(value)} already")
        board = self.board
        at = start = board.deciding(var)[-1]
        left = self._values_before(at, var)
        if value not in left:
            start = min(at, self._struck(var, value, left))
        tail, dropped = made_again(board.moves[start:])
        tail = [move for move in tail if not (isinstance(move, Strike) and move.var == var
                                             and move.value == value)]
        last = max(i for i, move in enumerate(tail) if isinstance(move, Decide)
                   and move.var == var)
        new = Decide(var, value, self.after_move)
        old, tail[last] = tail[last], new
        return self._rewrite(f"{words} (it was {self.words.value(old_value)})", start, tail,
                             dropped, new, {old: new})

    def clear(self, var: Hashable) -> Change:
        """Take back every decision on `var` (as the search backtracks), keeping the other
        decisions and crossings-out (made again; the deductions drawn after it go)."""
        self._check_variable(var)
        board = self.board
        deciding = board.deciding(var)
        if not deciding:
            raise ValueError(f"{self._name(var)} has no decision to clear")
        if any(trial.move.var == var for trial in board.trials):
            raise ValueError(f"{self._name(var)} is the supposition of an open trial: "
                             "reject it or accept it first")
        tail, dropped = made_again(board.moves[deciding[0]:])
        tail = [move for move in tail if not (isinstance(move, Decide) and move.var == var)]
        return self._rewrite(f"clear {self._name(var)}", deciding[0], tail, dropped,
                             put_back=True)

    def split(self, var: Hashable) -> Change:
        """Decide to keep the first half of `var`'s values (the lower half, in domain order),
        then what `after_move` says (as the search does after a split)."""
        self._check_open()
        self._check_variable(var)
        values = self.state.values(var)
        if len(values) < 2:
            raise ValueError(f"{self._name(var)} has one value left: nothing to split")
        kept = Split(values[:(len(values) + 1) // 2])
        return self._do(f"split {self._name(var)}",
                        self.board.plus(Decide(var, kept, self.after_move)))

    # -- crossing out by hand ------------------------------------------------------------------
    def remove(self, var: Hashable, value: Any) -> Change:
        """Cross `value` out of `var`'s domain by hand (a pencil mark; nothing runs after
        it). Never the last value: decide the variable instead."""
        self._check_open()
        self._check_variable(var)
        self._check_value(var, value)
        if len(self.state.domains[var]) == 1:
            raise ValueError(f"{self.words.value(value)} is the last value of "
                             f"{self._name(var)}: it cannot be crossed out")
        return self._do(f"cross out {self.words.value(value)} in {self._name(var)}",
                        self.board.plus(Strike(var, value)))

    def restore(self, var: Hashable, value: Any) -> Change:
        """Put back a value crossed out by hand (only those: a value a deduction or a
        decision removed comes back by undoing it). The moves after it are made again."""
        self._check_variable(var)
        board = self.board
        at = board.struck(var, value)
        if at is None:
            raise ValueError(f"{self.words.value(value)} was not crossed out of "
                             f"{self._name(var)} by hand")
        tail, dropped = made_again(board.moves[at + 1:])
        return self._rewrite(f"put back {self.words.value(value)} in {self._name(var)}", at,
                             tail, dropped, put_back=True)

    # -- trials --------------------------------------------------------------------------------
    def suppose(self, var: Hashable, value: Any) -> Change:
        """Start a trial: decide `var = value` (a variable with no decision yet) and see
        where it leads; `reject` takes the trial back whole, `accept` keeps it. Trials
        nest: each one is a decision level, as in the search tree."""
        self._check_open()
        self._check_variable(var)
        if var in self.state.assignment:
            raise ValueError(f"{self._name(var)} is decided already: suppose a value of a "
                             "variable with no decision")
        self._check_value(var, value)
        board = self.board
        move = Decide(var, value, self.after_move)
        return self._do(f"suppose {self._said(var, value)}",
                        Board(board.moves + (move,), board.trials + (Trial(move, board),)))

    def reject(self) -> Change:
        """Take back the innermost trial whole: its supposition and every move made since
        (a backtrack). Returns the values put back."""
        trial = self._innermost()
        return self._do(f"reject the trial {self._said(trial.move.var, trial.move.choice)}",
                        trial.before, put_back=True)

    def accept(self) -> Change:
        """Close the innermost trial, keeping its supposition and what followed as ordinary
        moves."""
        trial = self._innermost()
        board = self.board
        return self._do(f"accept the trial {self._said(trial.move.var, trial.move.choice)}",
                        Board(board.moves, board.trials[:-1]))

    def _innermost(self) -> Trial:
        if not self._trials:
            raise ValueError("no trial is open (suppose starts one)")
        return self._trials[-1]

    # -- deductions --------------------------------------------------------------------------
    def revise(self, constraint: Constraint | str, var: Hashable) -> tuple[Any, ...]:
        """AC-3's REVISE of the arc (`constraint`, `var`), by hand: remove the values of `var`
        that no values of the constraint's other variables support. Returns them."""
        self._check_open()
        constraint = self._constraint(constraint)
        self._check_variable(var)
        if var not in constraint.scope:
            raise ValueError(f"{self._name(var)} is not in the scope of {constraint.name}")
        change = self._do(f"revise {self._name(var)} against {constraint.name}",
                          self.board.plus(Revise(constraint, var)))
        return change.removed.get(var, ())

    def propagate(self) -> Change:
        """The session's inference to a fixpoint: under MAC every constraint's propagator
        until nothing changes; under forward checking, a forward check from every variable
        with one value left, again while one prunes; without inference, the checks only."""
        self._check_open()
        return self._do("propagation", self.board.plus(Propagate()))

    def hint(self) -> Hint | None:
        """The cheapest deduction the rules can make now, without guessing (nothing
        changes; see hints.py); None when there is none, or the session is not open (see
        `wipeout`). A deduction that needs a supposition says so when the session's own
        propagation makes it at once."""
        if self._status != OPEN:
            return None
        hint = next_hint(self.ladder, self.state.domains, self.words, self._known)
        if hint is not None and hint.steps and reaches_arc_consistency(self.infer):
            hint = found_at_once(hint, self.csp, self.state.domains, self.words)
        return hint

    def apply(self, hint: Hint) -> Change:
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
        return self._do(f"hint: {hint.rule}", self.board.plus(Deduce(hint)))

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
        before, domains, point = self.board, self.domains, self._point()
        floor = len(engine.frames)
        engine.select, engine.order = select, order
        try:
            result = engine.resume(max_nodes)
        finally:
            engine.select, engine.order = orders
        if result.status == LIMIT:  # the engine is back at the decisions in force: take
            # back what its root propagation removed, as one undo
            self._restore(point, f"the engine's search (it stopped after "
                                 f"{result.stats.nodes} nodes)")
            return result
        solved = result.status == SOLVED
        decisions = tuple((f.var, f.choice) for f in engine.frames[floor:]) if solved else ()
        self._moves.append(EngineSearch(decisions, solved))
        self._points.append(point)
        if solved:
            self._solved()
        else:
            self._no_solution()
        self._done("the engine's search", before)
        self._change("the engine's search", domains)
        return result

    # -- undo, redo, and several actions as one ------------------------------------------------
    def undo(self) -> Change:
        """Take back the last action, whatever it was (compound ones whole). Returns the
        values put back; its sentence names the action and counts them."""
        if self._grouped:
            raise ValueError("undo cannot run inside `with session.action(...)`")
        if not self._actions:
            raise ValueError("nothing to undo")
        action = self._actions.pop()
        domains = self.domains
        self._go_to(action.before, action.words)
        self._redo.append(action)
        return self._change(action.words, domains, head=f"undone: {action.words}; ",
                            put_back=True)

    def redo(self) -> Change:
        """Make the last action undone again (until a new action is made)."""
        if self._grouped:
            raise ValueError("redo cannot run inside `with session.action(...)`")
        if not self._redo:
            raise ValueError("nothing to redo")
        action = self._redo.pop()
        domains = self.domains
        self._go_to(action.after, f"going back to redo {action.words}")
        self._actions.append(_Action(action.words, action.before, self.board))
        return self._change(action.words, domains, head=f"redone: {action.words}; ")

    @contextmanager
    def action(self, words: str) -> Iterator[Change]:
        """Group everything done inside the `with` block into one action named `words`
        ("arc consistency"): `undo` takes it back whole, `redo` makes it again. The Change
        it yields is filled in when the block ends. Blocks inside a block are part of it."""
        change = Change({}, {}, words, "")
        if self._grouped:
            yield change
            return
        before, domains, actions = self.board, self.domains, len(self._actions)
        self._grouped = True
        try:
            yield change
        finally:
            self._grouped = False
            if len(self._actions) > actions:
                del self._actions[actions:]
                self._done(words, before)
            done = self._change(words, domains, notify=False)
            change.update(done)
            change.removed, change.restored = done.removed, done.restored
            change.sentence = done.sentence

    # -- checking ----------------------------------------------------------------------------
    def broken(self) -> list[Broken]:
        """The constraints the decisions already break, whatever values the undecided
        variables take (Tatham's rule: only what is provably an error; checking.py): each
        with its sentence in the puzzle's words and what to mark."""
        if not isinstance(self.rules, CSP):
            self.rules = self.rules()
        return broken(self.rules, self.state.assignment, self.words)

    def mistakes(self) -> list[Decision]:
        """The decisions so far that disagree with the problem's one solution, in order
        ("correct so far" when empty).

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
            counted_ = count(reference, limit=2, keep=True, max_nodes=SEARCH_NODES, **options)
            if not counted_.complete:
                raise ValueError(f"mistakes: could not count the solutions within "
                                 f"{SEARCH_NODES} nodes")
            self._solutions_counted = counted_.count
            if counted_.count == 1:
                self._solution = counted_.solutions[0]
        if self._solution is None:
            many = "no solution" if self._solutions_counted == 0 else "more than one solution"
            raise ValueError(f"mistakes need a problem with exactly one solution; this one "
                             f"has {many}")
        return self._solution

    # -- the board: going to a list of moves -----------------------------------------------------
    def _do(self, words: str, target: Board, notes: Sequence[str] = (),
            put_back: bool = False) -> Change:
        """One action: go to the board `target`, keep the action for `undo`, and say what
        changed."""
        before, domains = self.board, self.domains
        _, missed = self._go_to(target, f"going back for {words}")
        self._done(words, before)
        said = [*notes, *(f"{self._move_words(move)} could not be made again"
                          for move in missed)]
        return self._change(words, domains, notes=said, put_back=put_back)

    def _rewrite(self, words: str, start: int, tail: list[Move], dropped: int,
                 new: Move | None = None, replaced: dict[Move, Decide] | None = None,
                 put_back: bool = False) -> Change:
        """An action that changes old moves: the moves before `start` stay, then `tail`
        (`new` among them); a trial whose supposition is `replaced` follows it."""
        board = self.board
        trials = tuple(Trial((replaced or {}).get(t.move, t.move), t.before)
                       for t in board.trials)
        again = sum(1 for move in tail if move is not new)
        notes = [f"{plural(again, 'later move')} made again"] if again else []
        if dropped:
            notes.append(f"{plural(dropped, 'deduction')} drawn after it dropped (ask again)")
        return self._do(words, Board(board.moves[:start] + tuple(tail), trials), notes,
                        put_back)

    def _go_to(self, target: Board, cause: str) -> tuple[list[Move], list[Move]]:
        """Make the board `target`: back to the first move that differs (undoing, as the
        search backtracks, what came after; the trace's `undo` event says `cause`), then
        make the rest. Returns the moves made and those that could not be made (a decision
        whose value is gone, anything after a wipe-out); a trial whose supposition could
        not be made closes, with the trials inside it."""
        moves, wanted = self._moves, target.moves
        same = 0
        while same < min(len(moves), len(wanted)) and moves[same] is wanted[same]:
            same += 1
        if same < len(moves):
            self._restore(self._points[same], cause)
            del moves[same:], self._points[same:]
        made: list[Move] = []
        missed: list[Move] = []
        for move in wanted[same:]:
            (made if self._status != WIPED_OUT and self._run(move) else missed).append(move)
        in_force = set(map(id, moves))
        trials: list[Trial] = []
        for trial in target.trials:
            if id(trial.move) not in in_force:
                break
            trials.append(trial)
        self._trials = tuple(trials)
        return made, missed

    def _point(self) -> _Point:
        state = self.state
        return _Point(state.mark(), state.depth, tuple(self._queue), self._status)

    def _restore(self, point: _Point, cause: str) -> None:
        """Go back to `point`: its decisions taken back deepest first (backtracks in the
        trace), then the rest as one `undo` event saying `cause`."""
        state = self.state
        opened = state.depth > point.depth
        self.engine.cancel_to(point.depth)
        rest = state.removals_since(point.mark)
        if rest or not opened:  # what it removed outside any level of its own
            state.undo(point.mark)
            self._record(UNDO, None, tuple(rest), cause)
        self._set_queue(point.queue)
        self._status = point.status
        self._wipeout = None

    def _run(self, move: Move) -> bool:
        """Make one move on the board; False (nothing changed) when it cannot be made."""
        point = self._point()
        if not self._make(move):
            return False
        self._moves.append(move)
        self._points.append(point)
        removals = grouped_removals(self.state, self.state.removals_since(point.mark))
        self._requeue(removals, move.constraint if isinstance(move, Revise) else None)
        if self._status == OPEN and self.state.unfixed == 0:
            self._final_check()
        return True

    def _make(self, move: Move) -> bool:
        """What each kind of move does to the state (see moves.py)."""
        try:
            if isinstance(move, Decide):
                return self._decide(move)
            if isinstance(move, Strike):
                domain = self.state.domains[move.var]
                if move.value not in domain or len(domain) < 2:
                    return False
                self.state.remove(move.var, move.value, PLAYER)
            elif isinstance(move, Revise):
                self._revise(move.constraint, move.var)
            elif isinstance(move, Propagate):
                self._propagate()
            elif isinstance(move, Deduce):
                for var, values in move.hint.removals.items():
                    for value in values:
                        self.state.remove(var, value, move.hint.rule)
            else:
                self._search_again(move)
        except Contradiction as failure:
            self._wiped_out(failure)
        return True

    def _decide(self, move: Decide) -> bool:
        """A decision, made by the engine as its search makes them (a split keeping one
        value is an assignment); False when its value is gone."""
        var, choice, domain = move.var, move.choice, self.state.domains[move.var]
        if var in self.state.assignment:
            return False
        if type(choice) is Split:
            choice = Split(x for x in choice if x in domain)
            if not choice:
                return False
        elif choice not in domain:
            return False
        infer = {NOTHING: _nothing, FORWARD_CHECKING: INFERENCES["fc"]}.get(move.after,
                                                                             self.infer)
        if type(choice) is Split and len(choice) > 1 and not reaches_arc_consistency(infer):
            infer = _nothing  # the other inferences act on assigned variables only
        failure = self.engine.decide(var, choice, infer)
        if failure is not None:
            self._wiped_out(failure)
        return True

    def _revise(self, constraint: Constraint, var: Hashable) -> None:
        """REVISE: take the arc off the queue, say it in the trace, remove the values with
        no support."""
        arc = (constraint, var)
        if arc in self._queued:
            self._queue.remove(arc)
            self._queued.discard(arc)
            self._waiting[constraint] -= 1
        waiting = tuple((c.name, v) for c, v in self._queue)
        self.trace.record(REVISE, var, waiting, constraint.name, self.state.depth)
        kept = supported(self.state, constraint, var)
        for value in [x for x in self.state.values(var) if x not in kept]:
            self.state.remove(var, value, constraint.name)

    def _propagate(self) -> None:
        if reaches_arc_consistency(self.infer):
            self.infer(self.state, None)
        else:
            while self._forward_pass():
                pass

    def _forward_pass(self) -> bool:
        """The inference from each variable with one value left; True if it removed any."""
        state = self.state
        before = state.mark()
        for var in self.csp.variables:
            if len(state.domains[var]) == 1:
                state.changed.clear()
                self.infer(state, var)
        return state.mark() != before

    def _search_again(self, move: EngineSearch) -> None:
        """The engine's search made again from what it left: its propagation at the start,
        then its decisions (or its verdict: no solution below)."""
        node_consistency(self.state)
        self.infer(self.state, None)
        for var, choice in move.decisions:
            failure = self.engine.decide(var, choice)
            if failure is not None:
                raise failure
        if not move.solved:
            self._no_solution()

    # -- bookkeeping -------------------------------------------------------------------------
    def _done(self, words: str, before: Board) -> None:
        """Keep the action for `undo`; a new action empties the redo stack."""
        self._actions.append(_Action(words, before, self.board))
        self._redo.clear()

    def _change(self, words: str, domains: dict[Hashable, tuple[Any, ...]],
                head: str | None = None, notes: Sequence[str] = (), put_back: bool = False,
                notify: bool = True) -> Change:
        """What changed since `domains`, said: "{words}: 3 values removed; notes"."""
        removed, restored = differences(domains, self.domains)
        if notify:
            self._changed([*removed, *restored])
        said = (head or f"{words}: ") + counted(removed, restored, put_back)
        sentence = "; ".join([said, *notes])
        return Change(removed, restored, words, sentence, put_back)

    def _requeue(self, changed: Iterable[Hashable], revised: Constraint | None) -> None:
        """AC-3: a variable that lost values may have taken the only support of a value of
        a neighbour, so the arcs pointing at it go back in the queue. Those of the
        constraint just revised need not: a value with no support was in no tuple of it."""
        waiting, queued = self._waiting, self._queued
        for var in changed:
            for constraint in self.csp.constraints_of[var]:
                scope = self._scopes[constraint]
                if constraint is revised or waiting[constraint] == len(scope):
                    continue  # (all its arcs wait already: the usual case on a puzzle)
                for other in scope:
                    arc = (constraint, other)
                    if other != var and arc not in queued:
                        self._queue.append(arc)
                        queued.add(arc)
                        waiting[constraint] += 1

    def _set_queue(self, arcs: Iterable[Arc]) -> None:
        """AC-3's queue is `arcs`, in that order."""
        self._queue = list(arcs)
        self._queued = set(self._queue)
        #: how many arcs of each constraint wait in the queue
        self._waiting = dict.fromkeys(self._scopes, 0)
        for constraint, _ in self._queue:
            self._waiting[constraint] += 1

    def _changed(self, variables: Iterable[Hashable]) -> None:
        """Constraints over variables whose domains changed may deduce again (hints)."""
        for rung, known in zip(self.ladder, self._known):
            if known:
                for var in variables:
                    known.difference_update(rung.csp.constraints_of.get(var, ()))

    def _final_check(self) -> None:
        """Every variable has one value: a solution if every constraint holds."""
        values = {var: self.state.value(var) for var in self.csp.variables}
        broken_ = self.csp.violated(values)
        if broken_:
            self._record(WIPEOUT, None, None, f"final check: {broken_[0].name}")
            self._status = WIPED_OUT
            self._wipeout = self._wipeout_of(None, f"final check: {broken_[0].name}",
                                             f"every variable has one value, but "
                                             f"{broken_[0].name} does not hold")
        else:
            self._record(SOLUTION, None, None, None)
            self._solved()

    def _solved(self) -> None:
        """Solved: no arc is left to revise (every value left is the solution's)."""
        self._status = SOLVED_STATUS
        self._set_queue(())

    def _no_solution(self) -> None:
        cause = "the engine's search: no solution below the decisions so far"
        if not self.trace or self.trace[-1].kind != WIPEOUT:
            self._record(WIPEOUT, None, None, cause)
        self._status = WIPED_OUT
        self._wipeout = self._wipeout_of(None, cause, "the engine's search found no "
                                                      "solution below the decisions")

    def _wiped_out(self, failure: Contradiction) -> None:
        self._record(WIPEOUT, failure.var, None, failure.cause)
        self._status = WIPED_OUT
        if failure.var is not None:
            what = f"{self._name(failure.var)} has no value left"
            what += f" ({failure.cause})" if failure.cause else ""
        else:
            what = failure.cause or "a constraint cannot hold"
        self._wipeout = self._wipeout_of(failure.var, failure.cause, what)

    def _wipeout_of(self, var: Hashable, cause: str | None, what: str) -> WipeOut:
        """The wipe-out said: what happened, and the deepest decision, to undo."""
        decision = self.decisions[-1] if self.engine.frames else None
        if decision is None:
            then = "no decision led here: undo the last action"
        else:
            then = f"the last decision, {self._decision_words(decision)}, led here: undo it"
        return WipeOut(var, cause, decision, f"a wipe-out: {what}; {then}")

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

    def _check_value(self, var: Hashable, value: Any) -> None:
        if not self._in_domain(var, value):
            raise ValueError(f"{show(value)} is not in the domain of {self._name(var)} "
                             f"(left: {', '.join(map(show, self.state.values(var)))})")

    def _in_domain(self, var: Hashable, value: Any) -> bool:
        try:
            return value in self.state.domains[var]
        except TypeError:  # unhashable
            return False

    def _values_before(self, at: int, var: Hashable) -> list[Any]:
        """`var`'s values just before the move at `at`."""
        gone = [x for v, x in self.state.removals_since(self._points[at].mark) if v == var]
        return [x for x in self.csp.domains[var]
                if x in gone or self._in_domain(var, x)]

    def _struck(self, var: Hashable, value: Any, left: Sequence[Any]) -> int:
        """Where `value` was crossed out of `var` by hand, to put it back; ValueError when it
        was not (it is not a value `var` can take there)."""
        at = self.board.struck(var, value)
        if at is None:
            raise ValueError(f"{show(value)} is not in the domain of {self._name(var)} "
                             f"(left: {', '.join(map(show, left))})")
        return at

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

    def _said(self, var: Hashable, value: Any) -> str:
        """"WA = red", "cell (2,3) = 4", "edge (0,0)-(0,4) = 2 bridges"."""
        return f"{self._name(var)} = {self.words.value(value)}"

    def _decision_words(self, decision: Decision) -> str:
        if decision.kind == "split":
            kept = ", ".join(map(self.words.value, decision.value))
            return f"{self._name(decision.var)} in {{{kept}}}"
        return self._said(decision.var, decision.value)

    def _move_words(self, move: Move) -> str:
        """A move that could not be made again, in words."""
        if isinstance(move, Decide):
            kind = "split" if type(move.choice) is Split else "assign"
            value = tuple(move.choice) if kind == "split" else move.choice
            return self._decision_words(Decision(kind, move.var, value))
        if isinstance(move, Strike):
            return f"crossing {self.words.value(move.value)} out of {self._name(move.var)}"
        return {Revise: "a revision", Propagate: "a propagation", Deduce: "a hint"}.get(
            type(move), "the engine's search")
