"""Hints: the next deduction a person can make without guessing, and why, in words.

A hint is one rule firing at one place: the removals of one cause. They are found on a
ladder of rules (ladder.py): the lowest rung first, each of its constraints run once on a
scratch copy of the domains (nothing of the session changes), then the rung's probing,
then the next rung. Applying hints one after another therefore reaches the fixpoint that
propagation reaches, and the highest rung a hint-only solve needs is the puzzle's grade.

*Why* comes from the reasons propagators give when `state.explaining` (the same reasons
looking back uses, see reasons.py: the variables, or the bounds, a deduction read); when a
propagator says nothing, from its constraint's scope. The sentence is the constraint's own
(`Constraint.explain`: Hashi's island degree says "island (2,3) needs 5 and ...") or else
`generic_sentence`: "WA != NT: NT = red, so red leaves WA".
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .constraints import Constraint
from .csp import CSP
from .inference import propagate_from
from .ladder import Rung, refutable
from .reasons import Literal
from .state import Contradiction, SearchState
from .trace import show

Removals = dict[Hashable, tuple[Any, ...]]
#: facts a generic sentence names at most (the others are counted)
FACTS_SAID = 3
_NONE = object()  # no variable (a variable may be named None, 0 or "")


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
    `constraint` the constraint that made it (None: probing)."""

    rule: str
    removals: Removals
    because: tuple[Hashable, ...]
    sentence: str
    rung: str = "rules"
    constraint: str | None = field(default=None)


class _Listening(SearchState):
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

    def fail(self, var: Hashable = None, cause: str | None = None) -> Any:
        failure = Contradiction(var, cause or self.cause)
        failure.reason, self.reason = self.reason, None
        raise failure


def next_hint(ladder: Sequence[Rung], domains: Mapping[Hashable, Collection[Any]],
              words: Words = Words(), quiet: Sequence[set[Constraint]] | None = None
              ) -> Hint | None:
    """The first deduction of the lowest rung that has one, on `domains`; None when no
    rung can deduce anything more (solved, or stuck without guessing).

    `quiet[i]`, when given, holds constraints of rung i known to deduce nothing on these
    domains (skipped; those found quiet now are added): a propagator reads only the domains
    of its scope, so its caller keeps the set true by dropping the constraints of each
    variable whose domain changes."""
    for i, rung in enumerate(ladder):
        state = _Listening(rung.csp, domains)
        known = quiet[i] if quiet is not None else set()
        for constraint in rung.csp.constraints:
            if constraint in known:
                continue
            hint = _fire(state, constraint, rung.name, words)
            if hint is not None:
                return hint
            known.add(constraint)
        hint = _probed(rung, state, words)
        if hint is not None:
            return hint
    return None


def _fire(state: _Listening, constraint: Constraint, rung: str, words: Words) -> Hint | None:
    """Run one constraint's propagator on the scratch state and undo it: its first cause's
    removals as a hint (or the contradiction it finds), None when it is quiet."""
    mark = state.mark()
    state.heard.clear()
    state.asked.clear()
    state.cause, state.constraint = constraint.name, constraint
    failure = None
    try:
        constraint.propagate(state)
    except Contradiction as found:
        failure = found
    finally:
        state.cause, state.constraint = None, None
        heard = list(state.heard)
        state.undo(mark)
    if heard:
        cause = heard[0][2] or constraint.name
        first = list(_prefix(heard, cause))
        removals = _grouped((var, value) for var, value, _, _ in first)
        because = _read(constraint, [read for _, _, _, read in first])
    elif failure is not None:
        cause = failure.cause or constraint.name
        because = _read(constraint, [state.read_by(failure.reason)])
        candidates = [failure.var] if failure.var in state.domains else []
        target = next((v for v in [*candidates, *because] if state.domains[v]), _NONE)
        if target is _NONE:
            return None
        removals = {target: tuple(state.values(target))}
    else:
        return None
    read = {v: tuple(state.values(v)) for v in (*because, *removals)}
    sentence = None if not heard else constraint.explain(cause, removals, read, words)
    if sentence is None:
        sentence = generic_sentence(cause, removals, because, read, words,
                                    contradiction=not heard, initial=state.order)
    return Hint(cause, removals, because, sentence, rung, constraint.name)


def _prefix(heard: list[tuple[Hashable, Any, str | None, Any]],
            cause: str) -> Iterable[tuple[Hashable, Any, str | None, Any]]:
    """The removals of `cause` up to the first of another cause: each was deduced from the
    domains as they were before it, so together they are one rule's deduction."""
    for entry in heard:
        if (entry[2] or cause) != cause:
            return
        yield entry


def _grouped(pairs: Iterable[tuple[Hashable, Any]]) -> Removals:
    grouped: dict[Hashable, list[Any]] = {}
    for var, value in pairs:
        grouped.setdefault(var, []).append(value)
    return {var: tuple(values) for var, values in grouped.items()}


def _read(constraint: Constraint, reads: Iterable[tuple[Hashable, ...] | None]
          ) -> tuple[Hashable, ...]:
    """The variables read for some removals (a reason left unsaid: the constraint's
    scope)."""
    found: dict[Hashable, None] = {}
    for read in reads:
        found.update(dict.fromkeys(constraint.scope if read is None else read))
    return tuple(found)


def _probed(rung: Rung, state: _Listening, words: Words) -> Hint | None:
    """The rung's probing: a value whose try leads the rules to a contradiction goes."""
    found = refutable(rung, state)
    if found is None or rung.probe is None:
        return None
    var, value = found
    trial = _Listening(rung.probe, state.domains)
    trial.heard.clear()
    cause = "the rules break"
    because: dict[Hashable, None] = {var: None}
    try:
        trial.keep_only(var, (value,), "probe")
        propagate_from(trial, var)
    except Contradiction as failure:
        cause = failure.cause or cause
        because.update(dict.fromkeys(v for v, _, _, _ in trial.heard))
        if failure.var is not None:
            because[failure.var] = None
    rule = f"forcing: {show(var)} = {show(value)} leads to a contradiction"
    sentence = (f"if {words.holds(var, (value,))}, {cause}: so "
                f"{words.removal(var, (value,))}")
    return Hint(rule, {var: (value,)}, tuple(because), sentence, rung.name, None)


def generic_sentence(rule: str, removals: Mapping[Hashable, Sequence[Any]],
                     because: Sequence[Hashable], read: Mapping[Hashable, Sequence[Any]],
                     words: Words, contradiction: bool = False,
                     initial: Mapping[Hashable, Sequence[Any]] | None = None) -> str:
    """A deduction in words for any constraint: the rule, the facts it read (the fixed
    variables first, at most `FACTS_SAID`; a variable with all its `initial` values left
    says nothing), and what goes.

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
                "(a decision so far is wrong)")
    return f"{said}, so {words.removals(removals)}"
