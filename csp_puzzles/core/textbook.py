"""Backtracking search as the textbook writes it: read it beside AIMA, chapter 6.

`backtracking_search` is figure 6.5 of Russell and Norvig's *Artificial Intelligence: A
Modern Approach* (AIMA; see REFERENCES.md), recursive and short, with the book's names:
`select_unassigned_variable`, `order_domain_values`, `inference`. The inferences are small
functions too: `forward_checking` and `mac` (maintaining arc consistency with `ac3` and
`revise`).

The problem is read as the book draws it, a graph of arcs: a constraint on two variables
gives one arc each way, an `AllDifferent` gives an arc `x != y` for every pair, and a
constraint on one variable filters its domain once, before the search (node consistency).
Constraints over more variables (sums, tables) need the propagators of the full engine,
`csp_puzzles.solve`; this module refuses them.

Each level of the recursion works on its own copy of the domains, so undoing a choice is
simply returning: nothing to restore. The engine (`search.py`) runs the same algorithm with
a trail instead of copies, an explicit stack instead of recursion, and each constraint's own
propagator instead of arcs; under the same orders and inference the two count the same nodes
(the tests hold them to it).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from .constraints import AllDifferent, Constraint
from .csp import CSP
from .stats import Stats

Var = Hashable
Domains = dict[Var, list[Any]]
Assignment = dict[Var, Any]
#: an arc (x, y, allowed): the value a of x is supported by the value b of y if allowed(a, b)
Arc = tuple[Var, Var, Callable[[Any, Any], bool]]


class Network:
    """The CSP as a constraint graph: variables, their domains, and the arcs leaving each."""

    def __init__(self, csp: CSP):
        self.variables = list(csp.variables)
        self.domains: Domains = {var: list(csp.domains[var]) for var in self.variables}
        self.arcs: dict[Var, list[Arc]] = {var: [] for var in self.variables}
        for constraint in csp.constraints:
            scope = list(dict.fromkeys(constraint.scope))
            if len(scope) == 1:  # node consistency: keep the values the constraint allows
                var = scope[0]
                self.domains[var] = [a for a in self.domains[var]
                                     if constraint.is_satisfied({var: a})]
            elif isinstance(constraint, AllDifferent):
                for x in scope:
                    self.arcs[x] += [(x, y, Different(x, y)) for y in scope if y != x]
            elif len(scope) == 2:
                x, y = scope
                self.arcs[x].append((x, y, Allows(constraint, x, y)))
                self.arcs[y].append((y, x, Allows(constraint, y, x)))
            else:
                raise ValueError(f"{constraint.name!r} has {len(scope)} variables: the textbook "
                                 "search takes constraints on one or two (AllDifferent as its "
                                 "pairs), since ac3 revises arcs between two; use solve()")
        #: the arcs (z, x, allowed) pointing at each x: revise them when x loses a value
        self.arcs_into: dict[Var, list[Arc]] = {var: [] for var in self.variables}
        for arcs in self.arcs.values():
            for arc in arcs:
                self.arcs_into[arc[1]].append(arc)


class Different:
    """The test of an arc of an all-different: the values differ. It reads as "x != y"
    (in the code stepper, an arc then reads ('WA', 'NT', WA != NT))."""

    def __init__(self, x: Var, y: Var):
        self.name = f"{x} != {y}"

    def __call__(self, a: Any, b: Any) -> bool:
        return a != b

    def __repr__(self) -> str:
        return self.name


class Allows:
    """The test of an arc x -> y of a binary constraint: does it allow x = a with y = b?
    It reads as the constraint's name."""

    def __init__(self, constraint: Constraint, x: Var, y: Var):
        self.is_satisfied, self.x, self.y = constraint.is_satisfied, x, y
        self.name = constraint.name

    def __call__(self, a: Any, b: Any) -> bool:
        return self.is_satisfied({self.x: a, self.y: b})

    def __repr__(self) -> str:
        return self.name


# -- the search, figure 6.5 -----------------------------------------------------------------
def backtracking_search(csp: CSP, select_unassigned_variable: str | Callable = "input",
                        order_domain_values: str | Callable = "input",
                        inference: str | Callable = "none",
                        stats: Stats | None = None) -> Assignment | None:
    """A solution (every variable with its value), or None when there is none.

    The strategies are functions (below) or their names: variable order `input` or `mrv`,
    value order `input` or `lcv`, inference `none`, `fc` or `mac`. `stats`, when given,
    receives the nodes (values tried) and backtracks (values that led to no solution).
    """
    select = _pick(VARIABLE_ORDERS, select_unassigned_variable)
    order = _pick(VALUE_ORDERS, order_domain_values)
    infer = _pick(INFERENCES, inference)
    stats = stats if stats is not None else Stats()
    network = Network(csp)

    def backtrack(assignment: Assignment, domains: Domains) -> Assignment | None:
        if len(assignment) == len(network.variables):
            return assignment
        var = select(network, assignment, domains)
        for value in order(network, var, assignment, domains):
            stats.nodes += 1
            if consistent(network, var, value, assignment):
                trial = {v: list(values) for v, values in domains.items()}  # this level's copy
                trial[var] = [value]
                inferences = infer(network, var, value, {**assignment, var: value}, trial)
                if inferences is not None:
                    result = backtrack({**assignment, var: value, **inferences}, trial)
                    if result is not None:
                        return result
            stats.backtracks += 1
        return None

    domains = network.domains
    if any(not values for values in domains.values()):
        return None
    first = infer(network, None, None, {}, domains)  # the root: before any choice
    return None if first is None else backtrack(first, domains)


def consistent(network: Network, var: Var, value: Any, assignment: Assignment) -> bool:
    """Does `var = value` agree with every assigned neighbour?"""
    return all(allowed(value, assignment[y]) for _, y, allowed in network.arcs[var]
               if y in assignment)


# -- variable and value orders --------------------------------------------------------------
def first_unassigned_variable(network: Network, assignment: Assignment, domains: Domains) -> Var:
    return next(var for var in network.variables if var not in assignment)


def mrv(network: Network, assignment: Assignment, domains: Domains) -> Var:
    """Minimum remaining values; ties go to the first variable in input order."""
    unassigned = [var for var in network.variables if var not in assignment]
    return min(unassigned, key=lambda var: len(domains[var]))


def unordered_domain_values(network: Network, var: Var, assignment: Assignment,
                            domains: Domains) -> list[Any]:
    return domains[var]


def lcv(network: Network, var: Var, assignment: Assignment, domains: Domains) -> list[Any]:
    """Least constraining value first: the fewest values removed from unassigned neighbours.

    A value that would empty a neighbour's domain goes last.
    """
    arcs = [(y, allowed) for _, y, allowed in network.arcs[var] if y not in assignment]

    def cost(value: Any) -> float:
        trial = {y: domains[y] for y, _ in arcs}
        for y, allowed in arcs:
            trial[y] = [b for b in trial[y] if allowed(value, b)]
            if not trial[y]:
                return float("inf")
        return sum(len(domains[y]) - len(values) for y, values in trial.items())
    return sorted(domains[var], key=cost)


# -- inference: what the choice var = value implies ----------------------------------------
# Each returns the assignments it infers (a dict, maybe empty), or None for failure; it may
# prune `domains`, the copy that belongs to this level of the search.
def no_inference(network: Network, var: Var, value: Any, assignment: Assignment,
                 domains: Domains) -> Assignment | None:
    return {}


def forward_checking(network: Network, var: Var, value: Any, assignment: Assignment,
                     domains: Domains) -> Assignment | None:
    """Remove from each unassigned neighbour the values that conflict with var = value."""
    if var is None:
        return {}
    for _, y, allowed in network.arcs[var]:
        if y not in assignment:
            domains[y] = [b for b in domains[y] if allowed(value, b)]
            if not domains[y]:
                return None
    return {}


def mac(network: Network, var: Var, value: Any, assignment: Assignment,
        domains: Domains) -> Assignment | None:
    """Maintaining arc consistency: AC-3 from the arcs pointing at `var` (all at the root).

    Every variable left with one value is inferred, so the search never branches on it.
    """
    if var is None:
        queue = [arc for arcs in network.arcs.values() for arc in arcs]
    else:
        queue = list(network.arcs_into[var])
    if not ac3(network, domains, queue):
        return None
    return {v: values[0] for v, values in domains.items()
            if len(values) == 1 and v not in assignment}


def ac3(network: Network, domains: Domains, queue: list[Arc]) -> bool:
    """AC-3 (figure 6.3): revise arcs until none changes; False when a domain empties."""
    while queue:
        x, y, allowed = queue.pop()
        if revise(domains, x, y, allowed):
            if not domains[x]:
                return False
            queue += network.arcs_into[x]  # their values may have lost a support in x
    return True


def revise(domains: Domains, x: Var, y: Var, allowed: Callable[[Any, Any], bool]) -> bool:
    """Remove the values of x that no value of y supports; True if any was removed."""
    supported = [a for a in domains[x] if any(allowed(a, b) for b in domains[y])]
    revised = len(supported) < len(domains[x])
    domains[x] = supported
    return revised


VARIABLE_ORDERS: dict[str, Callable] = {"input": first_unassigned_variable, "mrv": mrv}
VALUE_ORDERS: dict[str, Callable] = {"input": unordered_domain_values, "lcv": lcv}
INFERENCES: dict[str, Callable] = {"none": no_inference, "fc": forward_checking, "mac": mac}


def _pick(table: dict[str, Callable], choice: str | Callable) -> Callable:
    """A strategy given as a function, or by its name in `table`."""
    if callable(choice):
        return choice
    if choice not in table:
        raise ValueError(f"unknown strategy {choice!r}; expected one of {', '.join(table)}")
    return table[choice]
