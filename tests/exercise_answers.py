"""Submissions the exercise tests hand in: the instructor's solutions, and for each exercise a
half-right one (a mistake a student makes) with the graded cells it must fail.

`submission(instructor, student, answers)` writes answers into the solution cells of a
student notebook, as a student would; `solutions(instructor)` reads the instructor's.
"""

from __future__ import annotations

import json
from typing import Any

from csp_puzzles.teaching.course import BEGIN_SOLUTION, END_SOLUTION

#: exercise -> (the solution cells a half-right student writes, the graded cells that fail)
HALF_RIGHT: dict[str, tuple[dict[str, str], set[str]]] = {
    "01_variable_order": ({"dom_over_deg": '''
def dom_over_deg(state):
    # counts every constraint of a variable, assigned neighbours or not (a static degree)
    best, best_ratio = None, None
    for var in state.csp.variables:
        if var in state.assignment:
            continue
        ratio = len(state.domains[var]) / max(len(state.csp.constraints_of[var]), 1)
        if best_ratio is None or ratio < best_ratio:
            best, best_ratio = var, ratio
    return best
'''}, {"test_dom_over_deg"}),
    "02_propagator": ({"less_than": '''
class LessThan(Constraint):
    # right pruning, but each removal carries a cause of its own: the trace loses the name
    def __init__(self, x, y):
        super().__init__((x, y), name=f"{x} < {y}")
        self.x, self.y = x, y

    def is_satisfied(self, values):
        return values[self.x] < values[self.y]

    def propagate(self, state):
        for value in state.values(self.x):
            if value >= state.max(self.y):
                state.remove(self.x, value, "bounds")
        for value in state.values(self.y):
            if value <= state.min(self.x):
                state.remove(self.y, value, "bounds")
'''}, {"test_less_than_trace"}),
    "03_futoshiki": ({"futoshiki": '''
def futoshiki(n, givens, smaller):
    # forgets the givens
    csp = CSP(f"futoshiki {n}x{n}")
    for row in range(n):
        for col in range(n):
            csp.add_variable((row, col), range(1, n + 1))
    for i in range(n):
        csp.add_constraint(AllDifferent([(i, c) for c in range(n)]))
        csp.add_constraint(AllDifferent([(r, i) for r in range(n)]))
    for a, b in smaller:
        csp.add_constraint(Predicate(lambda x, y: x < y, (a, b)))
    return csp
'''}, {"test_futoshiki_counts"}),
    "04_hashi_propagator": ({"saturation": '''
class Saturation(DegreeCheck):
    # maxes the edges when the room is exact, but never fails when the room is too small
    def __init__(self, edges, number, where):
        super().__init__(edges, number, where)
        self.name = f"saturation at {where}"

    def propagate(self, state):
        if sum(state.max(edge) for edge in self.scope) == self.number:
            for edge in self.scope:
                for value in state.values(edge):
                    if value != state.max(edge):
                        state.remove(edge, value)
        super().propagate(state)
'''}, {"test_saturation"}),
    "05_revise_and_ac3": ({"ac3": '''
def ac3(csp, domains, revise):
    # AC-1: goes over every arc again after any change
    arcs = [(x, y, c) for c in csp.constraints for x, y in (c.scope, c.scope[::-1])]
    changed = True
    while changed:
        changed = False
        for x, y, c in arcs:
            if revise(domains, x, y, c):
                if not domains[x]:
                    return False
                changed = True
    return True
'''}, {"test_ac3_queue"}),
    "06_kakuro_runs": ({"run_filter": '''
class RunFilter(Constraint):
    # keeps every candidate that is in some fitting set, wherever it would have to go
    def __init__(self, cells, total):
        super().__init__(cells, name=f"run of {len(cells)} with sum {total}")
        self.total = total

    def is_satisfied(self, values):
        digits = [values[cell] for cell in self.scope]
        return len(set(digits)) == len(digits) and sum(digits) == self.total

    def propagate(self, state):
        domains = [set(state.values(cell)) for cell in self.scope]
        union = set().union(*fitting_sets(domains, self.total))
        for cell in self.scope:
            for d in state.values(cell):
                if d not in union:
                    state.remove(cell, d)
'''}, {"test_run_filter", "test_run_filter_solves"}),
    "07_towers_clues": ({"clue_filter": '''
class ClueFilter(Constraint):
    # reads the front clue only
    def __init__(self, cells, size, front, back):
        super().__init__(cells, name=f"clues on {cells[0]}..{cells[-1]}")
        self.size, self.front, self.back = size, front, back

    def is_satisfied(self, values):
        heights = [values[cell] for cell in self.scope]
        return (sorted(heights) == list(range(1, self.size + 1))
                and (not self.front or visible(heights) == self.front)
                and (not self.back or visible(heights[::-1]) == self.back))

    def propagate(self, state):
        keep = [set() for _ in self.scope]
        for order in permutations(range(1, self.size + 1)):
            if all(h in state.domains[cell] for h, cell in zip(order, self.scope)) and (
                    not self.front or visible(order) == self.front):
                for kept, h in zip(keep, order):
                    kept.add(h)
        for cell, kept in zip(self.scope, keep):
            for h in state.values(cell):
                if h not in kept:
                    state.remove(cell, h)
'''}, {"test_both_clues", "test_clue_filter_solves"}),
    "08_singles_connectivity": ({"connected_rule": '''
class ConnectedRule(Constraint):
    # the cut rule, but no failure when the open cells are already apart
    def __init__(self, height, width):
        super().__init__([(r, c) for r in range(height) for c in range(width)],
                         name="unshaded cells connected (yours)")

    def is_satisfied(self, values):
        return connected({cell for cell in self.scope if values[cell] == UNSHADED})

    def propagate(self, state):
        open_cells = {cell for cell in self.scope if UNSHADED in state.domains[cell]}
        for cell in cut_cells(open_cells):
            if len(state.domains[cell]) == 2:
                state.remove(cell, SHADED)
'''}, {"test_connected_rule"}),
    "09_hashi_cnf": ({"degree_clauses": '''
def degree_clauses(ladders, n):
    # "at most n" only
    clauses = []
    for counts in product(*(range(len(ladder) + 1) for ladder in ladders)):
        if sum(counts) > n:
            clauses.append([-ladder[c - 1] for ladder, c in zip(ladders, counts) if c > 0])
    return clauses
'''}, {"test_at_least", "test_puzzles"}),
    "10_benchmark": ({"run_benchmark": '''
def run_benchmark(instances, methods, max_nodes):
    # trusts every answer
    rows = []
    for name, make in instances:
        for label, run in methods:
            result = run(make(), max_nodes)
            rows.append({"instance": name, "method": label, "status": result.status,
                         "nodes": result.stats.nodes})
    return rows
'''}, {"test_run_benchmark"}),
    "11_min_conflicts": ({"repair": '''
def repair(csp, assignment, rng):
    # always repairs the first variable in conflict, not one at random
    conflicted = [var for var in csp.variables
                  if conflicts(csp, assignment, var, assignment[var]) > 0]
    if not conflicted:
        return None
    var = conflicted[0]
    counts = {value: conflicts(csp, assignment, var, value) for value in csp.domains[var]}
    fewest = min(counts.values())
    assignment[var] = rng.choice([value for value, n in counts.items() if n == fewest])
    return var
'''}, {"test_repair", "test_min_conflicts"}),
    "12_cutset": ({"cycle_cutset_of": '''
def cycle_cutset_of(csp):
    # every variable with two neighbours or more: a cutset, with much it can do without
    return [var for var in csp.variables if len(csp.neighbours(var)) >= 2]
'''}, {"test_cutset_irredundant"}),
    "13_milp_rows": ({"open_around": '''
def open_around(puzzle, shade, group):
    # counts the group's own cells among the cells around it
    around = {other for cell in group for other in puzzle.neighbours(cell)} | set(group)
    return at_most([shade[cell] for cell in around], len(around) - 1)
'''}, {"test_open_around", "test_puzzles"}),
    "14_nogood": ({"first_uip": '''
def first_uip(conflict, reason, level, order):
    # the right UIP, but the nogood keeps only the earlier facts of the conflict itself
    top = max(level[fact] for fact in conflict)
    position = {fact: i for i, fact in enumerate(order)}
    here = {fact for fact in conflict if level[fact] == top}
    while len(here) > 1:
        newest = max(here, key=position.get)
        here.remove(newest)
        here |= {fact for fact in reason[newest] if level[fact] == top}
    uip = here.pop()
    return uip, {uip} | {fact for fact in conflict if 0 < level[fact] < top}
'''}, {"test_nogood"}),
}


def text(cell: dict[str, Any]) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def grading(cell: dict[str, Any]) -> dict[str, Any]:
    return cell.get("metadata", {}).get("nbgrader", {})


def solutions(instructor: dict[str, Any]) -> dict[str, str]:
    """The instructor's solution cells without their markers: what a good student writes."""
    return {grading(cell)["grade_id"]: "\n".join(
                line for line in text(cell).split("\n")
                if line.strip() not in (BEGIN_SOLUTION, END_SOLUTION))
            for cell in instructor["cells"] if grading(cell).get("solution")}


def submission(student: dict[str, Any], answers: dict[str, str]) -> dict[str, Any]:
    """A copy of the student notebook with `answers` written into its solution cells."""
    handed = json.loads(json.dumps(student))
    for cell in handed["cells"]:
        grade_id = grading(cell).get("grade_id")
        if grading(cell).get("solution") and grade_id in answers:
            cell["source"] = answers[grade_id].strip("\n")
    return handed


def half_right(instructor: dict[str, Any], student: dict[str, Any],
               exercise: str) -> dict[str, Any]:
    """The instructor's solutions, with the half-right student's cells in their place."""
    return submission(student, {**solutions(instructor), **HALF_RIGHT[exercise][0]})
