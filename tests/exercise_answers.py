"""What the exercise tests (and the instructor's guide) hand in: the instructor's solutions,
the mistakes students make, and answers that hand their work to the grader or the library.

- `MISTAKES`: for each exercise, typical wrong answers. Each names its bug in words (the
  guide prints them), replaces some solution cells, and lists the graded cells that must
  fail with the words their verdict must hold: a verdict that points at the bug.
- `HANDING_OVER`: for each exercise, an answer whose every function calls the grader's
  reference or the library's own version of the exercise. Every graded cell must fail,
  with a verdict that says so.

`submission(student, answers)` writes answers into the solution cells of a student notebook,
as a student would; `solutions(instructor)` reads the instructor's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from csp_puzzles.teaching.course import BEGIN_SOLUTION, END_SOLUTION

#: the words of a verdict on a call to the grader's code, and to the library's
GRADERS = "the grader's own code"
LIBRARYS = "from csp_puzzles itself"


@dataclass(frozen=True)
class Mistake:
    """A wrong answer a student writes: `what` it gets wrong, the solution `cells` it
    replaces, and for each graded cell that must fail, words its verdict must hold."""

    exercise: str
    what: str
    cells: dict[str, str]
    fails: dict[str, tuple[str, ...]] = field(default_factory=dict)


MISTAKES: list[Mistake] = [
    # -- 01 ---------------------------------------------------------------------------------
    Mistake("01_variable_order", "a static degree: every constraint of the variable counts, "
            "even those whose other variables are all assigned", {"dom_over_deg": '''
def dom_over_deg(state):
    best, best_ratio = None, None
    for var in state.csp.variables:
        if var in state.assignment:
            continue
        ratio = len(state.domains[var]) / max(len(state.csp.constraints_of[var]), 1)
        if best_ratio is None or ratio < best_ratio:
            best, best_ratio = var, ratio
    return best
'''}, {"test_dom_over_deg": ("static degree", "counts only the constraints with another "
                            "unassigned variable")}),
    Mistake("01_variable_order", "ties go to the last variable (`<=` where `<` is meant)",
            {"dom_over_deg": '''
def dom_over_deg(state):
    assigned = state.assignment
    best, best_ratio = None, None
    for var in state.csp.variables:
        if var in assigned:
            continue
        degree = sum(1 for c in state.csp.constraints_of[var]
                     if any(other != var and other not in assigned for other in c.scope))
        ratio = len(state.domains[var]) / max(degree, 1)
        if best_ratio is None or ratio <= best_ratio:
            best, best_ratio = var, ratio
    return best
'''}, {"test_dom_over_deg": ("a tie", "comes first in state.csp.variables")}),
    Mistake("01_variable_order", "the values counted are the initial domain's "
            "(state.csp.domains), not those left (state.domains)", {"dom_over_deg": '''
def dom_over_deg(state):
    assigned = state.assignment
    best, best_ratio = None, None
    for var in state.csp.variables:
        if var in assigned:
            continue
        degree = sum(1 for c in state.csp.constraints_of[var]
                     if any(other != var and other not in assigned for other in c.scope))
        ratio = len(state.csp.domains[var]) / max(degree, 1)
        if best_ratio is None or ratio < best_ratio:
            best, best_ratio = var, ratio
    return best
'''}, {"test_dom_over_deg": ("value(s) left", "the smallest ratio wins"),
       "test_dom_over_deg_solves": ("dom/deg should need fewer",)}),
    # -- 02 ---------------------------------------------------------------------------------
    Mistake("02_propagator", "each removal is given a cause of its own, so the trace loses "
            "the constraint's name", {"less_than": '''
class LessThan(Constraint):
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
'''}, {"test_less_than_trace": ("'bounds'", "carry its constraint's name")}),
    Mistake("02_propagator", "an off-by-one bound: x keeps the value equal to y's largest",
            {"less_than": '''
class LessThan(Constraint):
    def __init__(self, x, y):
        super().__init__((x, y), name=f"{x} < {y}")
        self.x, self.y = x, y

    def is_satisfied(self, values):
        return values[self.x] < values[self.y]

    def propagate(self, state):
        for value in state.values(self.x):
            if value > state.max(self.y):
                state.remove(self.x, value)
        for value in state.values(self.y):
            if value < state.min(self.x):
                state.remove(self.y, value)
'''}, {"test_less_than": ("has no larger value of y", "it must go"),
       "test_less_than_trace": ("bounds reasoning alone fixes every variable",)}),
    Mistake("02_propagator", "values are taken out of state.domains directly, not with "
            "state.remove", {"less_than": '''
class LessThan(Constraint):
    def __init__(self, x, y):
        super().__init__((x, y), name=f"{x} < {y}")
        self.x, self.y = x, y

    def is_satisfied(self, values):
        return values[self.x] < values[self.y]

    def propagate(self, state):
        largest_y = state.max(self.y)
        for value in state.values(self.x):
            if value >= largest_y:
                state.domains[self.x].discard(value)
        smallest_x = state.min(self.x)
        for value in state.values(self.y):
            if value <= smallest_x:
                state.domains[self.y].discard(value)
'''}, {"test_less_than": ("state.remove", "never by changing state.domains yourself"),
       "test_less_than_trace": ("broke down inside the library", "state.remove")}),
    # -- 03 ---------------------------------------------------------------------------------
    Mistake("03_futoshiki", "the givens are forgotten", {"futoshiki": '''
def futoshiki(n, givens, smaller):
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
'''}, {"test_futoshiki_counts": ("is given as",)}),
    Mistake("03_futoshiki", "each sign is read the wrong way round", {"futoshiki": '''
def futoshiki(n, givens, smaller):
    csp = CSP(f"futoshiki {n}x{n}")
    for row in range(n):
        for col in range(n):
            cell = (row, col)
            csp.add_variable(cell, [givens[cell]] if cell in givens else range(1, n + 1))
    for i in range(n):
        csp.add_constraint(AllDifferent([(i, c) for c in range(n)]))
        csp.add_constraint(AllDifferent([(r, i) for r in range(n)]))
    for a, b in smaller:
        csp.add_constraint(Predicate(lambda x, y: x > y, (a, b)))
    return csp
'''}, {"test_futoshiki": ("the sign says",), "test_futoshiki_counts": ("the sign says",)}),
    Mistake("03_futoshiki", "the columns have no all-different constraint",
            {"futoshiki": '''
def futoshiki(n, givens, smaller):
    csp = CSP(f"futoshiki {n}x{n}")
    for row in range(n):
        for col in range(n):
            cell = (row, col)
            csp.add_variable(cell, [givens[cell]] if cell in givens else range(1, n + 1))
    for i in range(n):
        csp.add_constraint(AllDifferent([(i, c) for c in range(n)]))
    for a, b in smaller:
        csp.add_constraint(Predicate(lambda x, y: x < y, (a, b)))
    return csp
'''}, {"test_futoshiki": ("column",), "test_futoshiki_counts": ("column",)}),
    # -- 04 ---------------------------------------------------------------------------------
    Mistake("04_hashi_propagator", "saturation never fails when the room is too small",
            {"saturation": '''
class Saturation(DegreeCheck):
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
'''}, {"test_saturation": ("did not fail", "when they can take less, it fails")}),
    Mistake("04_hashi_propagator", "one open neighbour forgets to check the sum once every "
            "edge is fixed", {"one_open_neighbour": '''
class OneOpenNeighbour(DegreeCheck):
    def __init__(self, edges, number, where):
        super().__init__(edges, number, where)
        self.name = f"one open neighbour at {where}"

    def propagate(self, state):
        open_edges = [edge for edge in self.scope if not state.is_fixed(edge)]
        placed = sum(state.value(edge) for edge in self.scope if state.is_fixed(edge))
        if len(open_edges) == 1:
            last = open_edges[0]
            for value in state.values(last):
                if value != self.number - placed:
                    state.remove(last, value)
'''}, {"test_one_open_neighbour": ("did not fail", "with none it fails when the sum is "
                                   "wrong")}),
    Mistake("04_hashi_propagator", "saturation maxes the edges whenever the room is at "
            "least the number", {"saturation": '''
class Saturation(DegreeCheck):
    def __init__(self, edges, number, where):
        super().__init__(edges, number, where)
        self.name = f"saturation at {where}"

    def propagate(self, state):
        room = sum(state.max(edge) for edge in self.scope)
        if room < self.number:
            state.fail(None, self.name)
        if room >= self.number:
            for edge in self.scope:
                for value in state.values(edge):
                    if value != state.max(edge):
                        state.remove(edge, value)
        super().propagate(state)
'''}, {"test_saturation": ("when the edges can take exactly what the island needs",),
       "test_rules_in_search": ()}),
    # -- 05 ---------------------------------------------------------------------------------
    Mistake("05_revise_and_ac3", "REVISE removes values from the list it is looping over, "
            "so it skips the value after each one it removes", {"revise": '''
def revise(domains, x, constraint):
    others = [var for var in constraint.scope if var != x]
    removed = False
    for vx in domains[x]:
        supported = any(constraint.is_satisfied({**dict(zip(others, combination)), x: vx})
                        for combination in product(*(domains[var] for var in others)))
        if not supported:
            domains[x].remove(vx)
            removed = True
    return removed
'''}, {"test_revise": ("it has no support, so it goes",)}),
    Mistake("05_revise_and_ac3", "AC-3 works on a copy of the domains", {"ac3": '''
def ac3(csp, domains, revise):
    domains = {var: list(values) for var, values in domains.items()}
    queue = deque((x, c) for c in csp.constraints for x in c.scope)
    waiting = set(queue)
    while queue:
        x, constraint = queue.popleft()
        waiting.discard((x, constraint))
        if revise(domains, x, constraint):
            if not domains[x]:
                return False
            for other in csp.constraints_of[x]:
                if other is not constraint:
                    for z in other.scope:
                        if z != x and (z, other) not in waiting:
                            queue.append((z, other))
                            waiting.add((z, other))
    return True
'''}, {"test_ac3": ("another dict of domains", "a copy?")}),
    Mistake("05_revise_and_ac3", "AC-3 as AIMA's figure 6.3 prints it: a pair goes back into "
            "the queue even when it is waiting there already", {"ac3": '''
def ac3(csp, domains, revise):
    queue = deque((x, c) for c in csp.constraints for x in c.scope)
    while queue:
        x, constraint = queue.popleft()
        if revise(domains, x, constraint):
            if not domains[x]:
                return False
            for other in csp.constraints_of[x]:
                if other is not constraint:
                    for z in other.scope:
                        if z != x:
                            queue.append((z, other))
    return True
'''}, {"test_ac3_queue": ("AIMA's figure 6.3", "waiting there already")}),
    Mistake("05_revise_and_ac3", "AC-1: every pair revised again after any change", {"ac3": '''
def ac3(csp, domains, revise):
    pairs = [(x, c) for c in csp.constraints for x in c.scope]
    changed = True
    while changed:
        changed = False
        for x, constraint in pairs:
            if revise(domains, x, constraint):
                if not domains[x]:
                    return False
                changed = True
    return True
'''}, {"test_ac3_queue": ("puts a pair back only when another variable of its constraint "
                          "loses a value",)}),
    # -- 06 ---------------------------------------------------------------------------------
    Mistake("06_kakuro_runs", "the filter keeps every candidate found in some fitting set, "
            "wherever that set would have to put it", {"run_filter": '''
class RunFilter(Constraint):
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
'''}, {"test_run_filter": ("no fitting digit set puts",),
       "test_run_filter_solves": ("needs more than", "should prune at least as much")}),
    Mistake("06_kakuro_runs", "a set fits as soon as each of its digits is some cell's "
            "candidate (no check that they can go one to each cell)", {"fitting_sets": '''
def fitting_sets(domains, total):
    candidates = set().union(*domains)
    return [set(digits_of(mask)) for mask in combinations(len(domains), total)
            if set(digits_of(mask)) <= candidates]
'''}, {"test_fitting_sets": ("cannot be given one to each cell",)}),
    # -- 07 ---------------------------------------------------------------------------------
    Mistake("07_towers_clues", "the back clue is never read", {"clue_filter": '''
class ClueFilter(Constraint):
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
'''}, {"test_both_clues": ("back clue", "no ordering that shows the clues puts"),
       "test_clue_filter_solves": ()}),
    Mistake("07_towers_clues", "the back clue is counted from the front", {"clue_filter": '''
class ClueFilter(Constraint):
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
            if not all(h in state.domains[cell] for h, cell in zip(order, self.scope)):
                continue
            if self.front and visible(order) != self.front:
                continue
            if self.back and visible(order) != self.back:
                continue
            for kept, h in zip(keep, order):
                kept.add(h)
        for cell, kept in zip(self.scope, keep):
            for h in state.values(cell):
                if h not in kept:
                    state.remove(cell, h)
'''}, {"test_both_clues": ("back clue",), "test_clue_filter_solves": ()}),
    # -- 08 ---------------------------------------------------------------------------------
    Mistake("08_singles_connectivity", "the rule never fails when the open cells are "
            "already apart", {"connected_rule": '''
class ConnectedRule(Constraint):
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
'''}, {"test_connected_rule": ("did not fail", "split the others")}),
    Mistake("08_singles_connectivity", "the open cells are taken to be the decided "
            "unshaded cells only, leaving out the undecided ones", {"connected_rule": '''
class ConnectedRule(Constraint):
    def __init__(self, height, width):
        super().__init__([(r, c) for r in range(height) for c in range(width)],
                         name="unshaded cells connected (yours)")

    def is_satisfied(self, values):
        return connected({cell for cell in self.scope if values[cell] == UNSHADED})

    def propagate(self, state):
        open_cells = {cell for cell in self.scope if state.domains[cell] == {UNSHADED}}
        if not connected(open_cells):
            state.fail(None, self.name)
        for cell in cut_cells(open_cells):
            if len(state.domains[cell]) == 2:
                state.remove(cell, SHADED)
'''}, {"test_connected_rule": ("the unshaded and the undecided ones", "must stay unshaded"),
       "test_connected_rule_solves": ()}),
    Mistake("08_singles_connectivity", "cut cells found the wrong way round: the cells "
            "whose removal leaves the rest connected", {"cut_cells": '''
def cut_cells(open_cells):
    return {cell for cell in open_cells if connected(open_cells - {cell})}
'''}, {"test_cut_cells": ("but the others stay connected without it",),
       "test_connected_rule": (), "test_connected_rule_solves": ()}),
    # -- 09 ---------------------------------------------------------------------------------
    Mistake("09_hashi_cnf", "only \"at most n\": the counts below n are never ruled out",
            {"degree_clauses": '''
def degree_clauses(ladders, n):
    clauses = []
    for counts in product(*(range(len(ladder) + 1) for ladder in ladders)):
        if sum(counts) > n:
            clauses.append([-ladder[c - 1] for ladder, c in zip(ladders, counts) if c > 0])
    return clauses
'''}, {"test_at_least": ("at least",), "test_puzzles": ()}),
    Mistake("09_hashi_cnf", "each clause says \"edge e has exactly c[e] bridges\" where it "
            "must say it has not: the signs are the wrong way round", {"degree_clauses": '''
def degree_clauses(ladders, n):
    clauses = []
    for counts in product(*(range(len(ladder) + 1) for ladder in ladders)):
        if sum(counts) == n:
            continue
        clause = []
        for ladder, c in zip(ladders, counts):
            if c > 0:
                clause.append(ladder[c - 1])
            if c < len(ladder):
                clause.append(-ladder[c])
        clauses.append(clause)
    return clauses
'''}, {"test_at_most": ("yet they break your clause",), "test_at_least": (),
       "test_puzzles": ()}),
    # -- 10 ---------------------------------------------------------------------------------
    Mistake("10_benchmark", "every answer is trusted: a wrong solution counts as solved",
            {"run_benchmark": '''
def run_benchmark(instances, methods, max_nodes):
    rows = []
    for name, make in instances:
        for label, run in methods:
            result = run(make(), max_nodes)
            rows.append({"instance": name, "method": label, "status": result.status,
                         "nodes": result.stats.nodes})
    return rows
'''}, {"test_run_benchmark": ("'wrong'", "csp.is_solution")}),
    Mistake("10_benchmark", "a method that solved nothing is left out of the profile",
            {"solved_within": '''
def solved_within(rows, budget):
    counts = {}
    for row in rows:
        if row["status"] == "solved" and row["nodes"] <= budget:
            counts[row["method"]] = counts.get(row["method"], 0) + 1
    return counts
'''}, {"test_solved_within": ("every method appears, with 0",)}),
    Mistake("10_benchmark", "an instance only one method solved is counted as a win for it",
            {"compare": '''
def compare(rows, a, b):
    solved = {(r["instance"], r["method"]): r["nodes"] for r in rows if r["status"] == "solved"}
    instances = sorted({r["instance"] for r in rows})
    big = float("inf")
    wins_a = sum(solved.get((i, a), big) < solved.get((i, b), big) for i in instances)
    wins_b = sum(solved.get((i, b), big) < solved.get((i, a), big) for i in instances)
    both = [i for i in instances if (i, a) in solved and (i, b) in solved]
    return {"a_better": wins_a, "b_better": wins_b,
            "ties": sum(solved[i, a] == solved[i, b] for i in both),
            "only_a": [i for i in instances if (i, a) in solved and (i, b) not in solved],
            "only_b": [i for i in instances if (i, b) in solved and (i, a) not in solved]}
'''}, {"test_compare": ("only instances both solved are compared by nodes",)}),
    # -- 11 ---------------------------------------------------------------------------------
    Mistake("11_min_conflicts", "the repair always takes the first variable in conflict, "
            "never one at random", {"repair": '''
def repair(csp, assignment, rng):
    conflicted = [var for var in csp.variables
                  if conflicts(csp, assignment, var, assignment[var]) > 0]
    if not conflicted:
        return None
    var = conflicted[0]
    counts = {value: conflicts(csp, assignment, var, value) for value in csp.domains[var]}
    fewest = min(counts.values())
    assignment[var] = rng.choice([value for value, n in counts.items() if n == fewest])
    return var
'''}, {"test_repair": ("all chose", "choose the variable at random"),
       "test_min_conflicts": ("found a solution", "a right one finds it nearly every time")}),
    Mistake("11_min_conflicts", "conflicts tries the value on the assignment itself and "
            "leaves it there", {"conflicts": '''
def conflicts(csp, assignment, var, value):
    assignment[var] = value
    return sum(1 for c in csp.constraints_of[var] if not c.is_satisfied(assignment))
'''}, {"test_conflicts": ("changed the assignment it was given",)}),
    Mistake("11_min_conflicts", "the repair gives the variable a value with the most "
            "conflicts", {"repair": '''
def repair(csp, assignment, rng):
    conflicted = [var for var in csp.variables
                  if conflicts(csp, assignment, var, assignment[var]) > 0]
    if not conflicted:
        return None
    var = rng.choice(conflicted)
    counts = {value: conflicts(csp, assignment, var, value) for value in csp.domains[var]}
    most = max(counts.values())
    assignment[var] = rng.choice([value for value, n in counts.items() if n == most])
    return var
'''}, {"test_repair": ("it takes a value with the fewest conflicts",),
       "test_min_conflicts": ()}),
    # -- 12 ---------------------------------------------------------------------------------
    Mistake("12_cutset", "is_forest answers 1 and 0 instead of True and False",
            {"is_forest": '''
def is_forest(variables, edges):
    part = {var: var for var in variables}

    def root(var):
        while part[var] != var:
            var = part[var]
        return var

    for a, b in edges:
        ra, rb = root(a), root(b)
        if ra == rb:
            return 0
        part[ra] = rb
    return 1
'''}, {"test_is_forest": ("of type int", "True (no cycle) or False")}),
    Mistake("12_cutset", "every variable with two neighbours or more goes into the cutset",
            {"cycle_cutset_of": '''
def cycle_cutset_of(csp):
    return [var for var in csp.variables if len(csp.neighbours(var)) >= 2]
'''}, {"test_cutset_irredundant": ("the rest still has no cycle",
                                   "a factor of the domain size")}),
    Mistake("12_cutset", "a graph with fewer edges than vertices is taken for a forest",
            {"is_forest": '''
def is_forest(variables, edges):
    return len(edges) < len(variables)
'''}, {"test_is_forest": ("which has a cycle",), "test_cutset": (),
       "test_cutset_irredundant": ()}),
    # -- 13 ---------------------------------------------------------------------------------
    Mistake("13_milp_rows", "the row around a group counts the group's own cells",
            {"open_around": '''
def open_around(puzzle, shade, group):
    around = {other for cell in group for other in puzzle.neighbours(cell)} | set(group)
    return at_most([shade[cell] for cell in around], len(around) - 1)
'''}, {"test_open_around": ("still allows this answer", "must cut it off"),
       "test_puzzles": ()}),
    Mistake("13_milp_rows", "k equal numbers in a line: at most one of them shaded, where "
            "at least k - 1 are meant", {"no_repeat_rows": '''
def no_repeat_rows(puzzle, shade):
    rows = []
    for _, cells in puzzle.lines():
        copies = {}
        for r, c in cells:
            copies.setdefault(puzzle.grid[r][c], []).append((r, c))
        for where in copies.values():
            if len(where) > 1:
                rows.append(at_most([shade[cell] for cell in where], 1))
    return rows
'''}, {"test_no_repeat_rows": ("yet it satisfies all your rows",), "test_puzzles": ()}),
    # -- 14 ---------------------------------------------------------------------------------
    Mistake("14_nogood", "the nogood keeps the earlier facts of the conflict only, not "
            "those met in the reasons resolved away", {"first_uip": '''
def first_uip(conflict, reason, level, order):
    top = max(level[fact] for fact in conflict)
    position = {fact: i for i, fact in enumerate(order)}
    here = {fact for fact in conflict if level[fact] == top}
    while len(here) > 1:
        newest = max(here, key=position.get)
        here.remove(newest)
        here |= {fact for fact in reason[newest] if level[fact] == top}
    uip = here.pop()
    return uip, {uip} | {fact for fact in conflict if 0 < level[fact] < top}
'''}, {"test_nogood": ("is missing", "resolved away, came from it")}),
    Mistake("14_nogood", "resolving goes on down to the level's decision (the last UIP, "
            "not the first)", {"first_uip": '''
def first_uip(conflict, reason, level, order):
    top = max(level[fact] for fact in conflict)
    position = {fact: i for i, fact in enumerate(order)}
    here = {fact for fact in conflict if level[fact] == top}
    earlier = {fact for fact in conflict if 0 < level[fact] < top}
    while any(reason[fact] for fact in here):
        newest = max((fact for fact in here if reason[fact]), key=position.get)
        here.remove(newest)
        for fact in reason[newest]:
            if level[fact] == top:
                here.add(fact)
            elif level[fact] > 0:
                earlier.add(fact)
    uip = here.pop()
    return uip, {uip} | earlier
'''}, {"test_first_uip": ("is the level's decision", "nearer the conflict")}),
    Mistake("14_nogood", "the oldest fact is resolved first, not the newest",
            {"first_uip": '''
def first_uip(conflict, reason, level, order):
    top = max(level[fact] for fact in conflict)
    position = {fact: i for i, fact in enumerate(order)}
    here = {fact for fact in conflict if level[fact] == top}
    earlier = {fact for fact in conflict if 0 < level[fact] < top}
    while len(here) > 1:
        oldest = min(here, key=position.get)
        here.remove(oldest)
        for fact in reason[oldest]:
            if level[fact] == top:
                here.add(fact)
            elif level[fact] > 0:
                earlier.add(fact)
    uip = here.pop()
    return uip, {uip} | earlier
'''}, {"test_first_uip": ("the UIP",)}),
]

#: for each exercise, an answer that hands every function's work to the grader or to the
#: library: every graded cell fails, with one of these words
HANDING_OVER: dict[str, dict[str, str]] = {
    "01_variable_order": {"dom_over_deg": '''
def dom_over_deg(state):
    # the grader's own ratio
    unassigned = [v for v in state.csp.variables if v not in state.assignment]
    return min(unassigned, key=lambda v: grader._ratio(state, v))
'''},
    "02_propagator": {"less_than": '''
import operator

from csp_puzzles import Predicate


class LessThan(Constraint):
    # the library's own propagator for x < y
    def __init__(self, x, y):
        super().__init__((x, y), name=f"{x} < {y}")
        self.x, self.y = x, y

    def is_satisfied(self, values):
        return values[self.x] < values[self.y]

    def propagate(self, state):
        Predicate(operator.lt, (self.x, self.y), name=self.name).propagate(state)
'''},
    "03_futoshiki": {"futoshiki": '''
from csp_puzzles.core import Table


def futoshiki(n, givens, smaller):
    # the grader's own Latin squares, as one table
    cells = [(r, c) for r in range(n) for c in range(n)]
    csp = CSP("futoshiki")
    for cell in cells:
        csp.add_variable(cell, range(1, n + 1))
    fitting = [sum(square, ()) for square in grader.latin_squares(n)
               if grader._breaks(square, n, givens, smaller) is None]
    csp.add_constraint(Table(cells, fitting))
    return csp
'''},
    "04_hashi_propagator": {"one_open_neighbour": '''
from csp_puzzles.teaching.grading import hashi_rules


class OneOpenNeighbour(DegreeCheck):
    # the grader's own reading of the rule
    def __init__(self, edges, number, where):
        super().__init__(edges, number, where)
        self.name = f"one open neighbour at {where}"

    def propagate(self, state):
        domains = [state.values(edge) for edge in self.scope]
        kept = hashi_rules._one_open_neighbour(domains, self.number)
        if kept is None:
            state.fail(None, self.name)
        for edge, values in zip(self.scope, kept):
            for value in state.values(edge):
                if value not in values:
                    state.remove(edge, value)
''', "saturation": '''
from csp_puzzles.teaching.grading import hashi_rules


class Saturation(DegreeCheck):
    # the grader's own reading of the rule
    def __init__(self, edges, number, where):
        super().__init__(edges, number, where)
        self.name = f"saturation at {where}"

    def propagate(self, state):
        domains = [state.values(edge) for edge in self.scope]
        kept = hashi_rules._saturation(domains, self.number)
        if kept is None:
            state.fail(None, self.name)
        for edge, values in zip(self.scope, kept):
            for value in state.values(edge):
                if value not in values:
                    state.remove(edge, value)
'''},
    "05_revise_and_ac3": {"revise": '''
def revise(domains, x, constraint):
    # the grader's own REVISE
    return grader.LoggingRevise()(domains, x, constraint)
''', "ac3": '''
from csp_puzzles.core import Contradiction, SearchState, propagate


def ac3(csp, domains, revise):
    # the library's propagation, copied back
    revise(domains, csp.constraints[0].scope[0], csp.constraints[0])
    state = SearchState(csp)
    try:
        propagate(state, csp.constraints)
    except Contradiction:
        return False
    for var in domains:
        domains[var][:] = [v for v in domains[var] if v in state.domains[var]]
    return True
'''},
    "06_kakuro_runs": {"fitting_sets": '''
from csp_puzzles.kakuro.combinations import mask_of
from csp_puzzles.kakuro.rules import run_supports


def fitting_sets(domains, total):
    # the library's run constraint
    answer = run_supports(tuple(mask_of(d) for d in domains), total)
    return [] if answer is None else [set(digits_of(m)) for m in answer[1]]
''', "run_filter": '''
class RunFilter(Constraint):
    # the grader's own answer
    def __init__(self, cells, total):
        super().__init__(cells, name=f"run of {len(cells)} with sum {total}")
        self.total = total

    def is_satisfied(self, values):
        digits = [values[cell] for cell in self.scope]
        return len(set(digits)) == len(digits) and sum(digits) == self.total

    def propagate(self, state):
        answer = grader.library_answer([set(state.values(c)) for c in self.scope], self.total)
        kept = answer[0] if answer else [set() for _ in self.scope]
        for cell, keep in zip(self.scope, kept):
            for d in state.values(cell):
                if d not in keep:
                    state.remove(cell, d)
'''},
    "07_towers_clues": {"clue_filter": '''
from csp_puzzles.towers.rules import line_supports


class ClueFilter(Constraint):
    # the library's line supports
    def __init__(self, cells, size, front, back):
        super().__init__(cells, name=f"clues on {cells[0]}..{cells[-1]}")
        self.size, self.front, self.back = size, front, back

    def is_satisfied(self, values):
        heights = [values[cell] for cell in self.scope]
        return (sorted(heights) == list(range(1, self.size + 1))
                and (not self.front or visible(heights) == self.front)
                and (not self.back or visible(heights[::-1]) == self.back))

    def propagate(self, state):
        masks = [sum(1 << h for h in state.domains[cell]) for cell in self.scope]
        kept = line_supports(self.size, self.front, self.back, masks) or [0] * self.size
        for cell, mask in zip(self.scope, kept):
            for h in state.values(cell):
                if not mask >> h & 1:
                    state.remove(cell, h)
'''},
    "08_singles_connectivity": {"cut_cells": '''
def cut_cells(open_cells):
    # the grader's (and the library's) rule
    rows = 1 + max(r for r, _ in open_cells)
    columns = 1 + max(c for _, c in open_cells)
    every = {(r, c) for r in range(rows) for c in range(columns)}
    return grader.library_rule(rows, columns, every - open_cells, set(open_cells))
''', "connected_rule": '''
from csp_puzzles.singles.connectivity import Connected


class ConnectedRule(Constraint):
    # the library's connectivity constraint
    def __init__(self, height, width):
        super().__init__([(r, c) for r in range(height) for c in range(width)],
                         name="unshaded cells connected (yours)")
        self.size = (height, width)

    def is_satisfied(self, values):
        return connected({cell for cell in self.scope if values[cell] == UNSHADED})

    def propagate(self, state):
        Connected(*self.size).propagate(state)
'''},
    "09_hashi_cnf": {"degree_clauses": '''
from csp_puzzles.hashi import sat


def degree_clauses(ladders, n):
    # the library's encoding
    cnf = sat.Cnf()
    sat.exactly_on_ladders(cnf, ladders, n)
    return cnf.clauses
'''},
    "10_benchmark": {"run_benchmark": '''
def run_benchmark(instances, methods, max_nodes):
    # the grader's own rows
    rows = []
    for name, make in instances:
        for label, run in methods:
            status, nodes = grader._expected_row(make, run, max_nodes)
            rows.append({"instance": name, "method": label, "status": status, "nodes": nodes})
    return rows
''', "solved_within": '''
def solved_within(rows, budget):
    return grader.profile_of(rows, budget)
''', "compare": '''
def compare(rows, a, b):
    return grader.comparison_of(rows, a, b)
'''},
    "11_min_conflicts": {"conflicts": '''
def conflicts(csp, assignment, var, value):
    return grader.broken(csp, assignment, var, value)
''', "repair": '''
def repair(csp, assignment, rng):
    # the grader's counts
    conflicted = [var for var in csp.variables
                  if grader.broken(csp, assignment, var, assignment[var]) > 0]
    if not conflicted:
        return None
    var = rng.choice(conflicted)
    counts = {value: grader.broken(csp, assignment, var, value) for value in csp.domains[var]}
    fewest = min(counts.values())
    assignment[var] = rng.choice([value for value, n in counts.items() if n == fewest])
    return var
''', "min_conflicts": '''
def min_conflicts(csp, max_steps, rng):
    # the library's min-conflicts
    result = library_min_conflicts(csp, max_steps=max_steps, seed=rng.randrange(10**6))
    return result.solution if result.solved else None
'''},
    "12_cutset": {"is_forest": '''
from csp_puzzles.core.structure import is_tree


def is_forest(variables, edges):
    # the library's is_tree
    return is_tree(grader.graph_csp(variables, edges))
''', "cycle_cutset_of": '''
from csp_puzzles.core.structure import cycle_cutset


def cycle_cutset_of(csp):
    return cycle_cutset(csp)
'''},
    "13_milp_rows": {"no_repeat_rows": '''
from csp_puzzles.singles.milp import SinglesProgram


def no_repeat_rows(puzzle, shade):
    # the library's program, its rows renumbered to ours
    library = SinglesProgram(puzzle)
    ours = {library.shade[cell]: shade[cell] for cell in puzzle.cells()}
    return [Row({ours[v]: c for v, c in row.terms.items()}, row.lower, row.upper)
            for row in library.program.rows if row.lower > 0]
''', "open_around": '''
def open_around(puzzle, shade, group):
    # the grader's own search of the groups, then the row
    around = {other for cell in group for other in puzzle.neighbours(cell)} - set(group)
    grader._components(puzzle, set(group))
    return at_most([shade[cell] for cell in around], len(around) - 1)
'''},
    "14_nogood": {"first_uip": '''
from csp_puzzles.teaching import grading


def first_uip(conflict, reason, level, order):
    # the grader's own reading of the graph
    graph = grading.nogoods.Graph(order=order, level=level, reason=reason, conflict=conflict)
    return grading.nogoods.expected(graph)
'''},
}


def text(cell: dict[str, Any]) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def grading(cell: dict[str, Any]) -> dict[str, Any]:
    return cell.get("metadata", {}).get("nbgrader", {})


def solutions(instructor: dict[str, Any]) -> dict[str, str]:
    """The instructor's solution cells without their markers: what a good student writes
    (the written answers hold the model answer and its rubric)."""
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


def mistakes_of(exercise: str) -> list[Mistake]:
    return [mistake for mistake in MISTAKES if mistake.exercise == exercise]


def with_mistake(instructor: dict[str, Any], student: dict[str, Any],
                 mistake: Mistake) -> dict[str, Any]:
    """The instructor's solutions, with the mistaken cells in their place."""
    return submission(student, {**solutions(instructor), **mistake.cells})


def handing_over(instructor: dict[str, Any], student: dict[str, Any],
                 exercise: str) -> dict[str, Any]:
    """The instructor's solutions (written answers included), every function replaced by one
    that hands its work over."""
    return submission(student, {**solutions(instructor), **HANDING_OVER[exercise]})
