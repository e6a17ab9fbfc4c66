"""Exercise 5 (notebook 02): REVISE, and AC-3's queue.

The student writes `revise(domains, x, y, constraint)` and `ac3(csp, domains, revise)`, over
domains held as lists. `check_revise` compares each removal with the partners the value
had; `check_ac3` and `check_ac3_queue` hand the student's `ac3` a REVISE of their own that
keeps a log of the arcs revised, then compare the domains with the core's arc consistency
(`core.propagate`, written independently) and read the log for AC-3's rule: an arc goes
back into the queue only when the variable it points at loses a value.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from ...core import CSP, Constraint, Contradiction, SearchState, Trace, propagate
from ...core.trace import PRUNE, WIPEOUT
from ...examples import map_colouring
from . import draw, fail, name, values_text
from .instances import random_binary_csp

Domains = dict[Hashable, list[Any]]
Revise = Callable[[Domains, Hashable, Hashable, Constraint], Any]
AC3 = Callable[[CSP, Domains, Revise], Any]
#: one revision in the log: the arc (x, y, constraint) and the values it removed from x
Revision = tuple[Hashable, Hashable, Constraint, tuple[Any, ...]]


def australia(**chosen: str) -> CSP:
    """Map colouring of Australia with some regions' colours already chosen."""
    csp = CSP("Australia")
    for region, colours in map_colouring().domains.items():
        csp.add_variable(region, [chosen[region]] if region in chosen else colours)
    for constraint in map_colouring().constraints:
        csp.add_constraint(constraint)
    return csp


def _lists(csp: CSP) -> Domains:
    return {var: list(values) for var, values in csp.domains.items()}


def _partner(constraint: Constraint, x: Hashable, value: Any, y: Hashable,
             values: list[Any]) -> Any:
    """A value of y that `constraint` allows with x = value (None when there is none)."""
    return next((other for other in values if constraint.is_satisfied({x: value, y: other})),
                None)


def _has_partner(constraint: Constraint, x: Hashable, value: Any, y: Hashable,
                 values: list[Any]) -> bool:
    return any(constraint.is_satisfied({x: value, y: other}) for other in values)


# -- REVISE ---------------------------------------------------------------------------------
def verify_revise(revise: Revise, domains: Domains, x: Hashable, y: Hashable,
                  constraint: Constraint) -> None:
    """Run `revise` on one arc and say what is wrong with what it did, if anything."""
    __tracebackhide__ = True
    before = {var: list(values) for var, values in domains.items()}
    answer = revise(domains, x, y, constraint)
    arc = f"revise({name(x)}, {name(y)}) under {constraint.name}"
    for var in before:
        if var != x and sorted(map(repr, domains[var])) != sorted(map(repr, before[var])):
            fail(f"{arc} changed {name(var)} from {values_text(before[var])} to "
                 f"{values_text(domains[var])}: REVISE removes values of "
                 f"{name(x)} only")
    kept, ys = list(domains[x]), before[y]
    for value in before[x]:
        partner = _partner(constraint, x, value, y, ys)
        if value in kept and partner is None:
            fail(f"{arc} kept {value} in {name(x)}, but {value} has no partner in "
                 f"{name(y)} = {values_text(ys)}")
        if value not in kept and partner is not None:
            fail(f"{arc} removed {value} from {name(x)}, but {name(y)} = {partner} "
                 f"is a partner for it")
    if any(value not in before[x] for value in kept):
        fail(f"{arc} left {name(x)} = {values_text(kept)}, with values it never had "
             f"({values_text(before[x])} before)")
    removed = len(before[x]) - len(kept)
    if bool(answer) != bool(removed):
        did = f"removed {removed} value(s)" if removed else "removed nothing"
        fail(f"{arc} {did} but returned {answer!r}: it must return True when it "
             f"removed something, False otherwise")


def check_revise(revise: Revise, seed: Any = None, trials: int = 60) -> None:
    """The worked example (WA = red against SA), then `trials` arcs of random problems."""
    __tracebackhide__ = True
    csp = australia(WA="red")
    border = next(c for c in csp.constraints if set(c.scope) == {"WA", "SA"})
    domains = _lists(csp)
    verify_revise(revise, domains, "SA", "WA", border)  # red goes
    verify_revise(revise, domains, "SA", "WA", border)  # nothing left to remove
    verify_revise(revise, domains, "WA", "SA", border)  # red has partners
    rng = draw("revise", seed)
    for _ in range(trials):
        csp = random_binary_csp(rng)
        constraint = rng.choice(csp.constraints)
        x, y = constraint.scope if rng.random() < 0.5 else constraint.scope[::-1]
        verify_revise(revise, _lists(csp), x, y, constraint)


# -- AC-3 -----------------------------------------------------------------------------------
class LoggingRevise:
    """A correct REVISE that logs every arc it revises (and, given a trace, records each
    removal in it): what the AC-3 checks hand to the student's `ac3`."""

    def __init__(self, trace: Trace | None = None):
        self.log: list[Revision] = []
        self.trace = trace

    def __call__(self, domains: Domains, x: Hashable, y: Hashable,
                 constraint: Constraint) -> bool:
        doomed = [value for value in domains[x]
                  if not _has_partner(constraint, x, value, y, domains[y])]
        for value in doomed:
            domains[x].remove(value)
            if self.trace is not None:
                self.trace.record(PRUNE, x, value,
                                  f"arc {name(x)} → {name(y)}: {value} has no partner in "
                                  f"{name(y)}")
        if not domains[x] and self.trace is not None:
            self.trace.record(WIPEOUT, x, None, f"arc {name(x)} → {name(y)}")
        self.log.append((x, y, constraint, tuple(doomed)))
        return bool(doomed)


def arc_consistent(csp: CSP) -> dict[Hashable, set[Any]] | None:
    """The arc-consistent domains of a binary CSP (the core's propagation), None on a
    wipe-out."""
    state = SearchState(csp)
    try:
        propagate(state, csp.constraints)
    except Contradiction:
        return None
    return state.domains


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


def verify_fixpoint(ac3: AC3, csp: CSP, where: str) -> list[Revision]:
    """Run `ac3` and compare its answer and domains with arc consistency; returns the log."""
    __tracebackhide__ = True
    answer, domains, log = run_ac3(ac3, csp)
    expected = arc_consistent(csp)
    if not log:
        fail(f"ac3 on {where} never called revise(domains, x, y, constraint): it "
             f"must revise the arcs with the revise it is given")
    if expected is None:
        if answer is not False:
            fail(f"ac3 on {where} returned {answer!r}, but arc consistency empties a "
                 f"domain there: it must return False")
        if all(domains[var] for var in csp.variables):
            fail(f"ac3 on {where} returned False with no empty domain: it must stop "
                 f"at the revision that empties one")
        return log
    if answer is not True:
        fail(f"ac3 on {where} returned {answer!r}, but the problem is arc consistent "
             f"once domains shrink to {_show_domains(expected)}: it must return True")
    for var in csp.variables:
        if set(domains[var]) != expected[var]:
            fail(f"ac3 on {where} left {name(var)} = {values_text(domains[var])}; "
                 f"arc consistency leaves {values_text(expected[var])}"
                 f"{_unsupported(csp, domains, var)}")
    return log


def _show_domains(domains: dict[Hashable, set[Any]]) -> str:
    return ", ".join(f"{name(var)} = {values_text(values)}" for var, values in domains.items())


def _unsupported(csp: CSP, domains: Domains, var: Hashable) -> str:
    """"; the arc X → Y still has no partner for v", when some arc of var has one."""
    for constraint in csp.constraints_of[var]:
        other = next(v for v in constraint.scope if v != var)
        for value in domains[var]:
            if not _has_partner(constraint, var, value, other, domains[other]):
                return (f"; the arc {name(var)} → {name(other)} still has no partner for "
                        f"{value} ({name(other)} = {values_text(domains[other])})")
    return ""


def _problems(seed: Any, trials: int) -> list[tuple[CSP, str]]:
    rng = draw("ac3", seed)
    drawn = [(australia(WA="red", Q="green"), "Australia with WA = red, Q = green"),
             (australia(WA="red", NT="green"), "Australia with WA = red, NT = green")]
    for number in range(1, trials + 1):
        csp = random_binary_csp(rng, variables=rng.randint(3, 6), density=0.6)
        constraints = "; ".join(c.name for c in csp.constraints)
        drawn.append((csp, f"random problem {number} ({constraints})"))
    return drawn


def check_ac3(ac3: AC3, seed: Any = None, trials: int = 40) -> None:
    """Australia twice (a wipe-out, then a fixpoint), then `trials` random problems."""
    __tracebackhide__ = True
    for csp, where in _problems(seed, trials):
        verify_fixpoint(ac3, csp, where)


def verify_queue(log: list[Revision], csp: CSP, where: str) -> None:
    """AC-3's rule, read off the log: every arc at least once (when no domain empties), and
    an arc again only after the variable it points at lost a value."""
    __tracebackhide__ = True
    last: dict[tuple[Hashable, Hashable, int], int] = {}
    for number, (x, y, constraint, _) in enumerate(log, start=1):
        arc = (x, y, id(constraint))
        if arc in last:
            since = log[last[arc]:number - 1]
            if not any(target == y and removed for target, _, _, removed in since):
                fail(
                     f"ac3 on {where} revised {name(x)} → {name(y)} again (revision {number}) "
                     f"although {name(y)} lost no value since revision {last[arc]}: AC-3 puts "
                     f"an arc back in the queue only when the variable it points at loses a "
                     f"value, and never adds an arc that is waiting in the queue already")
        last[arc] = number
    if arc_consistent(csp) is None:
        return  # AC-3 stops at the wipe-out, before some arcs come up
    for constraint in csp.constraints:
        for x, y in (constraint.scope, constraint.scope[::-1]):
            if (x, y, id(constraint)) not in last:
                fail(f"ac3 on {where} never revised the arc {name(x)} → {name(y)}: "
                     f"every arc starts in the queue")


def check_ac3_queue(ac3: AC3, seed: Any = None, trials: int = 40) -> None:
    """The same problems as `check_ac3`, read for the queue's rule."""
    __tracebackhide__ = True
    for csp, where in _problems(seed, trials):
        verify_queue(run_ac3(ac3, csp)[2], csp, where)
