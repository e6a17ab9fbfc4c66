"""One deduction: a rule firing at one place, found on a scratch copy of the domains, with
what it read, what it costs, and what it says.

A deduction is one cause's removals (`Hint`). It is found by running one constraint's
propagator on a `Listening` state (a scratch copy: nothing of the session changes), which
notes each removal with its cause and the variables its rule read. *What it read* comes
from the reasons propagators give when `state.explaining` (the same reasons looking back
uses, see reasons.py: the variables, or the bounds, a deduction read); when a propagator
says nothing, from its constraint's scope.

A deduction's **cost** is the number of variables it involves (those it read and those it
changes) plus, for a rung of the ladder above the first, that rung's `unit` per rung: a
deduction of a higher rung always costs more than any of a lower rung. A deduction that
needs a supposition costs one more than everything its zoom reads (hints.py).

The sentence is the constraint's own (`Constraint.explain`: Hashi's island degree says
"island (2,3) needs 5 and ...") or else `generic_sentence`: "WA != NT: NT = red, so red
leaves WA".
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .constraints import Constraint
from .csp import CSP
from .reasons import Literal
from .state import Contradiction, SearchState
from .trace import show

Removals = dict[Hashable, tuple[Any, ...]]
#: facts a generic sentence names at most (the others are counted)
FACTS_SAID = 3
_NONE = object()  # no variable (a variable may be named None, 0 or "")
#: what a contradiction blames: in a session, and inside a supposition
DECISION_WRONG, SUPPOSITION_WRONG = "a decision so far is wrong", "the supposition is wrong"


@dataclass(frozen=True)
class Words:
    """How a session names things: a variable ("edge (2,0)-(2,5)", "NT"), a value ("2
    bridges", "red"), and the verb that joins them ("carry"; None: "NT = red")."""

    name: Callable[[Hashable], str] = show
    value: Callable[[Any], str] = show
    verb: str | None = None

    def holds(self, var: Hashable, values: Sequence[Any]) -> str:
        """What `var` may still be: "NT = red", "NT is red or green", "edge (0,0)-(0,4)
        carries 1 bridge or 2 bridges"."""
        said = _either([self.value(x) for x in values], "or")
        if self.verb is None:
            return f"{self.name(var)} {'=' if len(values) == 1 else 'is'} {said}"
        return f"{self.name(var)} {_third_person(self.verb)} {said}"

    def removal(self, var: Hashable, values: Sequence[Any]) -> str:
        """`values` leave `var`: "red leaves WA", "edge (0,0)-(0,4) cannot carry 0 bridges"."""
        if self.verb is None:
            said = _either([self.value(x) for x in values], "and")
            return f"{said} {'leaves' if len(values) == 1 else 'leave'} {self.name(var)}"
        return f"{self.name(var)} cannot {self.verb} {_either(list(map(self.value, values)), 'or')}"

    def removals(self, removals: Mapping[Hashable, Sequence[Any]]) -> str:
        """Every removal of a deduction, joined: "red leaves WA and red leaves SA"."""
        return _either([self.removal(var, values) for var, values in removals.items()], "and")


def _either(words: list[str], joint: str) -> str:
    """"a", "a or b", "a, b or c"."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {joint} {words[-1]}"


def _third_person(verb: str) -> str:
    if verb == "be":
        return "is"
    return verb[:-1] + "ies" if verb.endswith("y") else verb + "s"


@dataclass(frozen=True)
class Hint:
    """One deduction: the rule that fires (its cause, "saturation at (2,3)"), the values it
    removes (`removals`, never empty), the variables whose domains it read (`because`), and
    the deduction in words (`sentence`). `rung` names the ladder's rung it comes from and
    `constraint` the constraint that made it (None: a trial of the rung's own).

    `cost` says how hard it is (lower is easier; see the module docstring). A deduction
    that needs a supposition has `supposes = (var, value)`: the zoom supposes that `var`
    takes one of the values the hint removes from it (`value` is the least of them), and
    `steps` are the deductions that then follow, each a `Hint` of lower cost made in the
    supposed state, the last emptying a domain; `because` is then everything the steps
    read. `at_once` names the rule of the session's own model that makes the same
    deduction at once, without a supposition, when there is one (None otherwise)."""

    rule: str
    removals: Removals
    because: tuple[Hashable, ...]
    sentence: str
    rung: str = "rules"
    constraint: str | None = None
    cost: int = 0
    steps: tuple[Hint, ...] = ()
    supposes: tuple[Hashable, Any] | None = None
    at_once: str | None = None

    @property
    def involved(self) -> set[Hashable]:
        """The variables the deduction reads or changes."""
        return {*self.because, *self.removals}


def plain_cost(base: int, because: Iterable[Hashable], removals: Iterable[Hashable]) -> int:
    """The cost of a deduction without a supposition: `base` (its rung's) plus the
    variables it reads or changes."""
    return base + len({*because, *removals})


class Listening(SearchState):
    """A scratch state that notes each removal with its cause and the variables its rule
    read: those its reason names, and those the rule asked about in building it (a least
    value that nothing lowered gives no literal, but the rule read it)."""

    explaining = True  # propagators then say what they read (state.reason)

    def __init__(self, csp: CSP, domains: Mapping[Hashable, Collection[Any]]):
        super().__init__(csp, domains=domains)  # as they are: nothing on the trail
        #: (variable, value, cause, variables read or None: the scope) of each removal
        #: since the last `heard.clear()`
        self.heard: list[tuple[Hashable, Any, str | None, Any]] = []
        #: the variables the rule at work asked about so far (`lost`, `below`, `above`)
        self.asked: dict[Hashable, None] = {}

    def lost(self, var: Hashable) -> list[Literal]:
        self.asked[var] = None
        return super().lost(var)

    def below(self, var: Hashable) -> list[Literal]:
        self.asked[var] = None
        return super().below(var)

    def above(self, var: Hashable) -> list[Literal]:
        self.asked[var] = None
        return super().above(var)

    def read_by(self, reason: Any) -> tuple[Hashable, ...] | None:
        """The variables behind a reason: asked about, or named (None: no reason)."""
        if reason is None:
            return None
        return tuple(dict.fromkeys([*self.asked, *(literal.var for literal in reason)]))

    def remove(self, var: Hashable, value: Any, cause: str | None = None) -> bool:
        reason, self.reason = self.reason, None
        if value not in self.domains[var]:
            return False
        self.heard.append((var, value, cause or self.cause, self.read_by(reason)))
        return super().remove(var, value, cause)


@dataclass(frozen=True)
class Fired:
    """What one run of a constraint's propagator deduced first: its cause, its removals
    (one cause's, or the values left to the variable a failure names), what it read, and
    whether it was a failure of the constraint itself (a contradiction)."""

    cause: str
    removals: Removals
    because: tuple[Hashable, ...]
    failed: bool


def fire(state: Listening, constraint: Constraint) -> Fired | None:
    """Run one constraint's propagator on the scratch state and undo what it deduced: its
    first cause's removals (or the contradiction it finds), None when it is quiet. A quiet
    run changed no domain, and keeps the data its rule built (connectivity's groups, say),
    so that the next run updates it rather than building it again."""
    mark = state.mark()
    state.heard.clear()
    state.asked.clear()
    state.cause, state.constraint = constraint.name, constraint
    failure = None
    try:
        constraint.propagate(state)
    except Contradiction as found:
        failure = found
    except BaseException:
        state.undo(mark)
        raise
    finally:
        state.cause, state.constraint, state.reason = None, None, None
    heard = list(state.heard)
    if heard or failure is not None:
        state.undo(mark)
    if heard:
        cause = heard[0][2] or constraint.name
        first = list(_prefix(heard, cause))
        removals = grouped_removals(state, ((var, value) for var, value, _, _ in first))
        return Fired(cause, removals, _read(constraint, [read for _, _, _, read in first]),
                     False)
    if failure is None:
        return None
    because = _read(constraint, [state.read_by(failure.reason)])
    candidates = [failure.var] if failure.var in state.domains else []
    target = next((v for v in [*candidates, *because] if state.domains[v]), _NONE)
    if target is _NONE:
        return None
    return Fired(failure.cause or constraint.name, {target: tuple(state.values(target))},
                 because, True)


def said(fired: Fired, constraint: Constraint, state: SearchState, words: Words,
         supposing: bool = False) -> str:
    """A deduction in words: the constraint's own sentence, or the generic one (a
    contradiction blames a decision, or the supposition when `supposing`)."""
    read = {v: tuple(state.values(v)) for v in (*fired.because, *fired.removals)}
    sentence = None if fired.failed else constraint.explain(fired.cause, fired.removals,
                                                            read, words)
    if sentence is None:
        blame = SUPPOSITION_WRONG if supposing else DECISION_WRONG
        sentence = generic_sentence(fired.cause, fired.removals, fired.because, read, words,
                                    contradiction=blame if fired.failed else None,
                                    initial=state.order)
    return sentence


def _prefix(heard: list[tuple[Hashable, Any, str | None, Any]],
            cause: str) -> Iterable[tuple[Hashable, Any, str | None, Any]]:
    """The removals of `cause` up to the first of another cause: each was deduced from the
    domains as they were before it, so together they are one rule's deduction."""
    for entry in heard:
        if (entry[2] or cause) != cause:
            return
        yield entry


def grouped_removals(state: SearchState, pairs: Iterable[tuple[Hashable, Any]]) -> Removals:
    """{var: values removed}, each variable's values in its domain's order."""
    grouped: dict[Hashable, list[Any]] = {}
    for var, value in pairs:
        grouped.setdefault(var, []).append(value)
    return {var: tuple(sorted(values, key=state.rank[var].__getitem__))
            for var, values in grouped.items()}


def _read(constraint: Constraint, reads: Iterable[tuple[Hashable, ...] | None]
          ) -> tuple[Hashable, ...]:
    """The variables read for some removals (a reason left unsaid: the constraint's
    scope)."""
    found: dict[Hashable, None] = {}
    for read in reads:
        found.update(dict.fromkeys(constraint.scope if read is None else read))
    return tuple(found)


def generic_sentence(rule: str, removals: Mapping[Hashable, Sequence[Any]],
                     because: Sequence[Hashable], read: Mapping[Hashable, Sequence[Any]],
                     words: Words, contradiction: str | None = None,
                     initial: Mapping[Hashable, Sequence[Any]] | None = None) -> str:
    """A deduction in words for any constraint: the rule, the facts it read (the fixed
    variables first, at most `FACTS_SAID`; a variable with all its `initial` values left
    says nothing), and what goes; for a contradiction, what must be wrong.

    "WA != NT: NT = red, so red leaves WA"."""
    others = [v for v in because if v not in removals and v in read
              and (initial is None or len(read[v]) < len(initial.get(v, ())))]
    fixed = [v for v in others if len(read[v]) == 1]
    named = fixed or others
    facts = [words.holds(v, read[v]) for v in named[:FACTS_SAID]]
    if len(named) > FACTS_SAID:
        facts.append(f"and {len(named) - FACTS_SAID} more")
    said = f"{rule}: {', '.join(facts)}" if facts else rule
    if contradiction:
        (var,) = list(removals)[:1]
        return (f"{said}: this cannot hold, so no value of {words.name(var)} is left "
                f"({contradiction})")
    return f"{said}, so {words.removals(removals)}"
