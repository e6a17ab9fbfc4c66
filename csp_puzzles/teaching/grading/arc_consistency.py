"""Exercise 5 (notebook 02): REVISE and AC-3 for constraints on any number of variables.

Notebook 02's AC-3 revises arcs, constraints on two variables. Here the student writes the
generalised version (GAC-3, Mackworth 1977): `revise(domains, x, constraint)` keeps a value
of `x` only when some combination of the other variables' values supports it, and
`ac3(csp, domains, revise)` keeps a queue of pairs `(x, constraint)`. Domains are held as
lists.

`check_revise` compares each removal with the supports the value had, found by brute force.
`check_ac3` and `check_ac3_queue` hand the student's `ac3` a REVISE of their own that logs
every pair revised (and the dict of domains it was given), then compare the domains with
the generalised-arc-consistent ones (brute force, every constraint swept until nothing
changes: another road to the same fixpoint) and read the log for the queue's rule: a pair
goes back into the queue only when another variable of its constraint loses a value, and
never while it waits there already (AIMA's figure 6.3 omits that test; the verdict names it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from itertools import product
from typing import Any

from ...core import CSP, Constraint, Predicate, Trace
from ...core.constraints import AllDifferent
from ...core.trace import PRUNE, REVISE, WIPEOUT
from ...examples import map_colouring
from . import CSP_DATA, draw, fail, name, own_work, values_text
from .instances import random_binary_csp

Domains = dict[Hashable, list[Any]]
Revise = Callable[[Domains, Hashable, Constraint], Any]
AC3 = Callable[[CSP, Domains, Revise], Any]
#: one revision in the log: the variable, the constraint, the values it removed from the
#: variable, and the identity of the dict of domains it worked on
Revision = tuple[Hashable, Constraint, tuple[Any, ...], int]

#: the watch's words and patterns: REVISE may test pairs with is_satisfied, AC-3 may also
#: call the revise it is given
REVISE_OWN = ("REVISE", "constraint.is_satisfied and the CSP's data", *CSP_DATA)
AC3_OWN = ("AC-3's queue", "the revise it is given, constraint.is_satisfied and the CSP's data",
           *CSP_DATA, "teaching.grading.arc_consistency:LoggingRevise.__call__")
#: the book whose AC-3 has no "unless it is waiting already"
AIMA = "AIMA's figure 6.3"


def australia(**chosen: str) -> CSP:
    """Map colouring of Australia with some regions' colours already chosen."""
    csp = CSP("Australia")
    for region, colours in map_colouring().domains.items():
        csp.add_variable(region, [chosen[region]] if region in chosen else colours)
    for constraint in map_colouring().constraints:
        csp.add_constraint(constraint)
    return csp


def _sum_is(a: int, b: int, c: int) -> bool:
    return a + b == c


def sums() -> CSP:
    """The exercise's first example: A + B = C over small domains."""
    csp = CSP("A + B = C")
    csp.add_variable("A", [1, 2, 3])
    csp.add_variable("B", [1, 2, 3])
    csp.add_variable("C", [1, 2, 3, 4])
    csp.add_constraint(Predicate(_sum_is, ("A", "B", "C"), name="A + B = C"))
    return csp


def three_different() -> CSP:
    """The exercise's second example: A and B in {1, 2}, C in {1, 2, 3}, all different."""
    csp = CSP("all different")
    csp.add_variable("A", [1, 2])
    csp.add_variable("B", [1, 2])
    csp.add_variable("C", [1, 2, 3])
    csp.add_constraint(AllDifferent(["A", "B", "C"], "A, B, C all different"))
    return csp


def _lists(csp: CSP) -> Domains:
    return {var: list(values) for var, values in csp.domains.items()}


def support(constraint: Constraint, x: Hashable, value: Any,
            domains: Mapping[Hashable, Sequence[Any]]) -> dict[Hashable, Any] | None:
    """Values of the other variables of `constraint`, from their domains, that it allows
    with x = value (None when there are none): found by trying every combination."""
    others = [var for var in constraint.scope if var != x]
    for combination in product(*(list(domains[var]) for var in others)):
        values = dict(zip(others, combination))
        values[x] = value
        if constraint.is_satisfied(values):
            return values
    return None


def _support_words(values: dict[Hashable, Any], constraint: Constraint) -> str:
    return ", ".join(f"{name(var)} = {values[var]}" for var in constraint.scope)


def _others_words(constraint: Constraint, x: Hashable,
                  domains: Mapping[Hashable, Sequence[Any]]) -> str:
    return " and ".join(f"{name(var)} = {values_text(domains[var])}"
                        for var in constraint.scope if var != x)


# -- REVISE ---------------------------------------------------------------------------------
def verify_revise(revise: Revise, domains: Domains, x: Hashable,
                  constraint: Constraint) -> None:
    """Run `revise` on one pair and say what is wrong with what it did, if anything."""
    __tracebackhide__ = True
    before = {var: list(values) for var, values in domains.items()}
    answer = revise(domains, x, constraint)
    pair = f"revise({name(x)}) against {constraint.name}"
    for var in before:
        if var != x and sorted(map(repr, domains[var])) != sorted(map(repr, before[var])):
            fail(f"{pair} changed {name(var)} from {values_text(before[var])} to "
                 f"{values_text(domains[var])}: REVISE removes values of "
                 f"{name(x)} only")
    kept = list(domains[x])
    for value in before[x]:
        found = support(constraint, x, value, before)
        if value in kept and found is None:
            fail(f"{pair} kept {value} in {name(x)}, but no values of "
                 f"{_others_words(constraint, x, before)} satisfy {constraint.name} "
                 f"with {name(x)} = {value}: it has no support, so it goes")
        if value not in kept and found is not None:
            fail(f"{pair} removed {value} from {name(x)}, but "
                 f"{_support_words(found, constraint)} satisfies {constraint.name}: a "
                 f"value with a support stays")
    if any(value not in before[x] for value in kept) or len(kept) > len(set(map(repr, kept))):
        fail(f"{pair} left {name(x)} = {kept}, with values it did not have or twice "
             f"({values_text(before[x])} before)")
    removed = len(before[x]) - len(kept)
    if bool(answer) != bool(removed):
        did = f"removed {removed} value(s)" if removed else "removed nothing"
        fail(f"{pair} {did} but returned {answer!r}: it must return True when it "
             f"removed something, False otherwise")


def _mixed_csp(rng: random.Random, variables: int = 5) -> CSP:
    """A random problem of binary relations and constraints on three variables."""
    csp = random_binary_csp(rng, variables=variables, density=0.35)
    names = list(csp.variables)
    for _ in range(rng.randint(1, 2)):
        a, b, c = rng.sample(names, 3)
        kind = rng.choice(("sum", "different", "increasing"))
        made: Constraint
        if kind == "sum":
            made = Predicate(_sum_is, (a, b, c), name=f"{a} + {b} = {c}")
        elif kind == "different":
            made = AllDifferent([a, b, c], f"{a}, {b}, {c} all different")
        else:
            made = Predicate(lambda x, y, z: x < y < z, (a, b, c), name=f"{a} < {b} < {c}")
        csp.add_constraint(made)
    return csp


@own_work(*REVISE_OWN)
def check_revise(revise: Revise, seed: Any = None, trials: int = 60) -> None:
    """The worked examples (a sum, an all-different, an arc of Australia), then `trials`
    pairs of random problems."""
    __tracebackhide__ = True
    example = sums()
    domains = _lists(example)
    for var in ("C", "A", "A", "B"):  # the second revision of A finds nothing left to do
        verify_revise(revise, domains, var, example.constraints[0])
    different = three_different()
    verify_revise(revise, _lists(different), "C", different.constraints[0])
    verify_revise(revise, _lists(different), "A", different.constraints[0])
    csp = australia(WA="red")
    border = next(c for c in csp.constraints if set(c.scope) == {"WA", "SA"})
    verify_revise(revise, _lists(csp), "SA", border)
    rng = draw("revise", seed)
    for _ in range(trials):
        csp = _mixed_csp(rng)
        constraint = rng.choice(csp.constraints)
        verify_revise(revise, _lists(csp), rng.choice(constraint.scope), constraint)


# -- AC-3 -----------------------------------------------------------------------------------
class LoggingRevise:
    """A correct REVISE that logs every pair it revises (and, given a trace, records each
    revision and removal in it): what the AC-3 checks hand to the student's `ac3`."""

    def __init__(self, trace: Trace | None = None):
        self.log: list[Revision] = []
        self.trace = trace

    def __call__(self, domains: Domains, x: Hashable, constraint: Constraint) -> bool:
        doomed = [value for value in domains[x]
                  if support(constraint, x, value, domains) is None]
        if self.trace is not None:
            self.trace.record(REVISE, x, None, constraint.name)
        for value in doomed:
            domains[x].remove(value)
            if self.trace is not None:
                self.trace.record(PRUNE, x, value, constraint.name)
        if not domains[x] and self.trace is not None:
            self.trace.record(WIPEOUT, x, None, constraint.name)
        self.log.append((x, constraint, tuple(doomed), id(domains)))
        return bool(doomed)


def gac(csp: CSP) -> dict[Hashable, set[Any]] | None:
    """The generalised-arc-consistent domains (None on a wipe-out): every constraint and
    variable swept, again and again, until a sweep removes nothing. Slow and plain, and
    independent of any queue."""
    domains = {var: list(values) for var, values in csp.domains.items()}
    changed = True
    while changed:
        changed = False
        for constraint in csp.constraints:
            for x in constraint.scope:
                kept = [v for v in domains[x] if support(constraint, x, v, domains) is not None]
                if len(kept) < len(domains[x]):
                    domains[x], changed = kept, True
                if not kept:
                    return None
    return {var: set(values) for var, values in domains.items()}


def run_ac3(ac3: AC3, csp: CSP, trace: Trace | None = None) -> tuple[Any, Domains,
                                                                      list[Revision]]:
    """Run the student's `ac3` with a logging REVISE: its answer, the domains, the log."""
    domains = _lists(csp)
    revise = LoggingRevise(trace)
    answer = ac3(csp, domains, revise)
    return answer, domains, revise.log


def replay_ac3(ac3: AC3, csp: CSP) -> Trace:
    """The student's AC-3 on `csp`, as a trace the explorer replays."""
    trace = Trace(csp.domains)
    run_ac3(ac3, csp, trace)
    return trace


def _show_domains(domains: dict[Hashable, set[Any]]) -> str:
    return ", ".join(f"{name(var)} = {values_text(values)}" for var, values in domains.items())


def _unsupported(csp: CSP, domains: Domains, var: Hashable) -> str:
    """"; against X + Y = Z, 3 of X still has no support", when some constraint on var
    leaves a value of it unsupported."""
    for constraint in csp.constraints_of[var]:
        for value in domains[var]:
            if support(constraint, var, value, domains) is None:
                return (f": against {constraint.name}, {value} of {name(var)} has no "
                        f"support in {_others_words(constraint, var, domains)}")
    return ""


def verify_fixpoint(ac3: AC3, csp: CSP, where: str) -> list[Revision]:
    """Run `ac3` and compare its answer and domains with GAC; returns the log."""
    __tracebackhide__ = True
    given = _lists(csp)
    revise = LoggingRevise()
    answer = ac3(csp, given, revise)
    log = revise.log
    expected = gac(csp)
    if not log:
        fail(f"ac3 on {where} never called revise(domains, x, constraint): it must "
             f"revise the pairs with the revise it is given")
    if any(mark != id(given) for *_, mark in log):
        fail(f"ac3 on {where} called revise with another dict of domains than the one "
             f"it was given (a copy?), so the caller's domains never change: revise "
             f"`domains` itself")
    if expected is None:
        if answer is not False:
            fail(f"ac3 on {where} returned {answer!r}, but a domain empties there: "
                 f"it must return False")
        if all(given[var] for var in csp.variables):
            fail(f"ac3 on {where} returned False with no empty domain: it must stop "
                 f"at the revision that empties one")
        return log
    if answer is not True:
        wiped = [var for var in csp.variables if not given[var]]
        said = (f"with {name(wiped[0])} emptied although every value it lost had no "
                f"support" if wiped else "and no domain is empty")
        fail(f"ac3 on {where} returned {answer!r} {said}: when the queue runs out "
             f"without a wipe-out, it must return True")
    for var in csp.variables:
        if set(given[var]) - expected[var] or expected[var] - set(given[var]):
            gap = _unsupported(csp, given, var)
            fail(f"ac3 on {where} stopped with {name(var)} = {values_text(given[var])}"
                 + (gap if gap else ", but every value it removed had a support when "
                    "it went (domains changed outside revise?)")
                 + (": a pair that can still remove something was not put back in the "
                    "queue" if gap else ""))
    return log


def _problems(seed: Any, trials: int) -> list[tuple[CSP, str]]:
    rng = draw("ac3", seed)
    drawn = [(australia(WA="red", Q="green"), "Australia with WA = red, Q = green"),
             (australia(WA="red", NT="green"), "Australia with WA = red, NT = green"),
             (sums(), "the exercise's A + B = C"),
             (three_different(), "the exercise's all-different")]
    for number in range(1, trials + 1):
        csp = _mixed_csp(rng, variables=rng.randint(3, 6))
        constraints = "; ".join(c.name for c in csp.constraints)
        domains = _show_domains({v: set(d) for v, d in csp.domains.items()})
        drawn.append((csp, f"random problem {number} ({domains}; {constraints})"))
    return drawn


@own_work(*AC3_OWN)
def check_ac3(ac3: AC3, seed: Any = None, trials: int = 40) -> None:
    """Australia twice (a wipe-out, then a fixpoint), the exercise's two examples, then
    `trials` random problems."""
    __tracebackhide__ = True
    for csp, where in _problems(seed, trials):
        verify_fixpoint(ac3, csp, where)


def _pair(x: Hashable, constraint: Constraint) -> str:
    return f"({name(x)}, {constraint.name})"


def verify_queue(log: list[Revision], csp: CSP, where: str) -> None:
    """The queue's rule, read off the log: every pair at least once (when no domain
    empties), and a pair again only after another variable of its constraint lost a value
    since its last revision (and never twice for one loss: AIMA's version)."""
    __tracebackhide__ = True
    last: dict[tuple[Hashable, int], int] = {}
    for number, (x, constraint, _, _) in enumerate(log, start=1):
        key = (x, id(constraint))
        if key in last:
            previous = last[key]
            if not _lost_since(log, constraint, x, previous, number - 1):
                fail(f"ac3 on {where} revised the pair {_pair(x, constraint)} again "
                     f"(revision {number}) although no other variable of "
                     f"{constraint.name} lost a value since its revision {previous}: "
                     + _why_again(log, constraint, x, key, previous))
        last[key] = number
    if gac(csp) is None:
        return  # AC-3 stops at the wipe-out, before some pairs come up
    for constraint in csp.constraints:
        for x in constraint.scope:
            if (x, id(constraint)) not in last:
                fail(f"ac3 on {where} never revised the pair {_pair(x, constraint)}: "
                     f"every pair starts in the queue")


def _lost_since(log: list[Revision], constraint: Constraint, x: Hashable, start: int,
                end: int) -> bool:
    """Did another variable of `constraint` lose a value in revisions start+1 .. end?"""
    return any(var != x and var in constraint.scope and removed
               for var, _, removed, _ in log[start:end])


def _why_again(log: list[Revision], constraint: Constraint, x: Hashable,
               key: tuple[Hashable, int], previous: int) -> str:
    """Why the pair came back: added a second time while it waited (AIMA's version), or
    put back with nothing changed."""
    earlier = max((n for n, (var, c, _, _) in enumerate(log[:previous - 1], start=1)
                   if (var, id(c)) == key), default=0)
    if _lost_since(log, constraint, x, earlier, previous - 1):
        return (f"it was put in the queue a second time while it was waiting there "
                f"already, as in {AIMA}, which has no such test; this exercise asks for "
                f"the queue without it (keep a set of the pairs waiting)")
    return ("AC-3 puts a pair back only when another variable of its constraint loses "
            "a value")


@own_work(*AC3_OWN)
def check_ac3_queue(ac3: AC3, seed: Any = None, trials: int = 40) -> None:
    """The same problems as `check_ac3`, read for the queue's rule."""
    __tracebackhide__ = True
    for csp, where in _problems(seed, trials):
        verify_queue(run_ac3(ac3, csp)[2], csp, where)
