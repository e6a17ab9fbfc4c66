"""What holds and what cannot: the supports of a value (AC-3's REVISE), and the constraints a
board already breaks (Tatham's rule: mark only what is provably an error).

A constraint is *broken* by some decisions when its relation cannot hold whatever values its
undecided variables take from their domains as the problem gives them. `broken` asks each
constraint that reads a decided variable the same question REVISE asks of one value:
`supported` tries the tuples while there are few (`SUPPORT_TUPLES`), and past that lets
the constraint's own propagator decide (sound: it never calls a constraint broken that can
still hold, though it may miss one). Each broken constraint is said in the puzzle's words
when the constraint can say it (`Constraint.breach`: "two 3s in row 2"), else generically
("WA != NT cannot hold with WA = red and NT = red").
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, Any

from .state import Contradiction, SearchState

if TYPE_CHECKING:
    from .constraints import Constraint
    from .csp import CSP
    from .hints import Words

#: the largest number of tuples `supported` enumerates; past it, the constraint's own
#: propagator decides (sound, maybe weaker)
SUPPORT_TUPLES = 20_000
#: decided variables a generic sentence names at most (the others are counted)
NAMED = 3


@dataclass(frozen=True)
class Breach:
    """What a constraint says of itself when broken: a sentence in the puzzle's words, the
    cells to mark (the puzzle's (row, col), or () for none) and the variables to mark (None:
    every decided variable of its scope)."""

    sentence: str
    cells: tuple[Any, ...] = ()
    variables: tuple[Hashable, ...] | None = None


@dataclass(frozen=True)
class Broken:
    """A constraint the decisions already break: its name, the sentence that says why, the
    decided variables to mark and the puzzle's cells to mark."""

    constraint: str
    sentence: str
    variables: tuple[Hashable, ...]
    cells: tuple[Any, ...] = ()


def broken(csp: CSP, decided: Mapping[Hashable, Any], words: Words) -> list[Broken]:
    """The constraints of `csp` that cannot hold given the `decided` values, whatever the
    other variables take from their domains (as `csp` gives them), in `csp`'s order; one
    entry per sentence (two constraints saying the same thing are one error)."""
    state = SearchState(csp)
    for var, value in decided.items():
        if var in state.domains and len(state.domains[var]) > 1:
            state.keep_only(var, (value,))
    found: dict[str, Broken] = {}
    for constraint in csp.constraints:
        scope = tuple(dict.fromkeys(constraint.scope))
        read = [var for var in scope if var in decided]
        if not read or supported(state, constraint, read[0]):
            continue
        fixed = {var: state.value(var) for var in scope if len(state.domains[var]) == 1}
        said = constraint.breach(fixed, words) or Breach(generic(constraint, fixed, words))
        variables = said.variables if said.variables is not None else tuple(read)
        if said.sentence not in found:
            found[said.sentence] = Broken(constraint.name, said.sentence, variables,
                                          said.cells)
    return list(found.values())


def generic(constraint: Constraint, fixed: Mapping[Hashable, Any], words: Words) -> str:
    """"WA != NT cannot hold with WA = red and NT = red"."""
    named = [words.holds(var, (value,)) for var, value in fixed.items()]
    if len(named) > NAMED:
        named = named[:NAMED] + [f"{len(named) - NAMED} more"]
    if len(named) > 1:
        named = [", ".join(named[:-1]) + " and " + named[-1]]
    return f"{constraint.name} cannot hold with {named[0]}"


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
    domains: Sequence[list[Any]] = [state.values(other) for other in others]
    kept = set()
    for value in state.values(var):
        for combo in product(*domains):
            state.stats.checks += 1
            if constraint.is_satisfied({var: value, **dict(zip(others, combo))}):
                kept.add(value)
                break
    return kept


def _kept_by_propagator(state: SearchState, constraint: Constraint, var: Hashable) -> set[Any]:
    """The values of `var` left once the constraint's propagator, alone, changes nothing
    more on a scratch copy of the domains (none when it fails)."""
    scratch = SearchState(state.csp, domains=state.domains)
    try:
        while True:  # (a propagator's undo hooks go on the trail: count the removals)
            before = scratch.stats.prunings
            constraint.propagate(scratch)
            if scratch.stats.prunings == before:
                break
    except Contradiction:
        return set()
    return set(scratch.domains[var])


def repeated(values: Mapping[Hashable, Any]) -> tuple[Any, list[Hashable]] | None:
    """The first value that more than one variable of `values` holds, and those variables
    (what an all-different rule says when broken)."""
    holders: dict[Any, list[Hashable]] = {}
    for var, value in values.items():
        holders.setdefault(value, []).append(var)
    return next(((value, where) for value, where in holders.items() if len(where) > 1), None)


def how_many(count: int) -> str:
    """"two", "three", ... "nine", then digits."""
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    return words[count] if 0 <= count < len(words) else str(count)
