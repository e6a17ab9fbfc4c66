"""Looking back (backjumping and learning): the same answers as chronological search.

Backjumping and learning may only skip what cannot hold a solution, so every count must
equal the count without them, and every solution must satisfy every constraint.
"""

from __future__ import annotations

from itertools import product

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from csp_puzzles import CSP, AllDifferent, Predicate, Sum, Table, count, solve
from csp_puzzles.core import Search
from csp_puzzles.core.facts import ExplainingState
from csp_puzzles.core.learning import LearningSearch
from csp_puzzles.core.lookback import levels
from csp_puzzles.core.nogoods import Nogood, NogoodStore
from csp_puzzles.core.reasons import Literal
from csp_puzzles.core.trace import BACKJUMP, BACKTRACK, LEARN
from csp_puzzles.examples import queens, sudoku

from .conftest import REPO

LOOK_BACKS = ("none", "cbj", "learn")
INFERENCES = ("none", "fc", "mac")
NAMES = "abcdefg"


@st.composite
def random_csps(draw):
    """Sparse random CSPs: failures far from their causes, where backjumping pays."""
    n = draw(st.integers(3, 7))
    names = list(NAMES[:n])
    csp = CSP("random")
    for name in names:
        csp.add_variable(name, sorted(draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))))
    for _ in range(draw(st.integers(1, 7))):
        kind = draw(st.sampled_from(["table", "table", "alldiff", "sum", "predicate"]))
        scope = draw(st.lists(st.sampled_from(names), min_size=2, max_size=3, unique=True))
        if kind == "table":
            scope = scope[:2]
            rows = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=12))
            csp.add_constraint(Table(scope, rows))
        elif kind == "alldiff":
            csp.add_constraint(AllDifferent(scope))
        elif kind == "sum":
            csp.add_constraint(Sum(scope, draw(st.integers(0, 9))))
        else:
            modulus = draw(st.integers(2, 3))
            csp.add_constraint(Predicate(lambda *xs, m=modulus: sum(xs) % m == 0, scope))
    return csp


def brute_force(csp: CSP) -> set[tuple]:
    found = set()
    for values in product(*(csp.domains[v] for v in csp.variables)):
        assignment = dict(zip(csp.variables, values))
        if csp.is_solution(assignment):
            found.add(tuple(sorted(assignment.items())))
    return found


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_csps(), st.sampled_from(INFERENCES), st.sampled_from(["cbj", "learn"]),
       st.sampled_from(["input", "mrv", "dom-wdeg", "activity"]))
def test_every_solution_found_once(csp, inference, look_back, var_order):
    result = count(csp, keep=True, inference=inference, var_order=var_order,
                   look_back=look_back)
    found = [tuple(sorted(s.items())) for s in result.solutions]
    assert len(found) == len(set(found)) == result.count
    assert set(found) == brute_force(csp)


@pytest.mark.parametrize("inference", INFERENCES)
@pytest.mark.parametrize("look_back", LOOK_BACKS)
def test_eight_queens_count(inference, look_back):
    assert count(queens(8), inference=inference, var_order="mrv", look_back=look_back).count == 92


def test_backjumping_skips_work_on_queens():
    plain = count(queens(8), inference="none", var_order="input")
    jumping = count(queens(8), inference="none", var_order="input", look_back="cbj")
    learning = count(queens(8), inference="none", var_order="input", look_back="learn")
    assert jumping.count == learning.count == plain.count == 92
    assert jumping.stats.backjumps > 0
    assert learning.stats.nodes < jumping.stats.nodes < plain.stats.nodes
    assert learning.stats.learnt > 0


@pytest.mark.parametrize("look_back", ["cbj", "learn"])
def test_sudoku_solution_is_valid(look_back):
    csp = sudoku()
    result = solve(csp, inference="fc", var_order="mrv", look_back=look_back)
    assert result.status == "solved"
    assert csp.is_solution(result.solution)


def pigeons(n: int) -> CSP:
    """n pigeons, n - 1 holes, written as pairwise inequalities (no global reasoning)."""
    csp = CSP("pigeons")
    csp.add_variables(range(n), range(n - 1))
    for i in range(n):
        for j in range(i + 1, n):
            csp.add_constraint(Predicate(lambda a, b: a != b, [i, j]))
    return csp


@pytest.mark.parametrize("inference", INFERENCES)
@pytest.mark.parametrize("look_back", ["cbj", "learn"])
def test_unsatisfiable_is_reported(inference, look_back):
    assert solve(pigeons(5), inference=inference, look_back=look_back).status == "unsatisfiable"


def test_a_failure_far_below_its_cause_jumps_over_the_levels_between():
    # x decides the failure of z; y1..y3 are free and sit between them in the input order
    csp = CSP("jump")
    csp.add_variable("x", [0, 1])
    for name in ("y1", "y2", "y3"):
        csp.add_variable(name, [0, 1])
    csp.add_variable("z", [0, 1])
    csp.add_constraint(Table(["x", "z"], [(1, 0), (1, 1)]))  # x = 0 leaves z nothing
    csp.add_constraint(Table(["y1", "y2"], [(0, 0), (1, 1)]))
    plain = solve(csp, inference="none", var_order="input")
    jumping = solve(csp, inference="none", var_order="input", look_back="cbj", trace=True)
    assert jumping.solution == plain.solution
    assert jumping.stats.nodes < plain.stats.nodes
    jumps = [e for e in jumping.trace if e.kind == BACKJUMP]
    assert jumps and jumps[0].depth == 1  # straight back to x, over y1..y3
    assert "conflict with x = 0;" in jumps[0].describe()
    assert len(jumps) == jumping.stats.backjumps


@pytest.mark.parametrize("look_back", ["cbj", "learn"])
def test_trace_replays_through_backjumps_and_learning(look_back):
    csp = queens(6)
    result = count(csp, inference="none", var_order="input", look_back=look_back, trace=True,
                   keep=True)
    trace = result.trace
    assert trace.count(BACKJUMP if look_back == "cbj" else LEARN) > 0
    # every backtrack closes one level
    assert trace.count(BACKTRACK) <= trace.count("assign")
    if look_back == "cbj":  # after the last event the replay is back at the root
        assert all(len(d) >= 1 for d in trace.domains_at(len(trace) - 1).values())
    else:  # learning ends on a wipe-out that no decision is left to undo
        assert trace[-1].kind == "wipeout"
        assert not all(trace.domains_at(len(trace) - 1).values())
    solutions = [trace.domains_at(i) for i, e in enumerate(trace) if e.kind == "solution"]
    assert len(solutions) == result.count == 4
    for domains in solutions:  # the replay holds each solution where the search found it
        assert csp.is_solution({v: d[0] for v, d in domains.items()})
    if look_back == "learn":
        learn = next(e for e in trace if e.kind == LEARN)
        assert learn.describe().startswith("learn: ") and "cannot all hold" in learn.describe()


def test_limits_are_honoured():
    result = count(queens(10), inference="none", look_back="learn", max_nodes=50)
    assert result.status == "limit" and result.stats.nodes <= 50


def test_unknown_look_back_is_refused():
    with pytest.raises(ValueError, match="look_back"):
        solve(queens(4), look_back="sideways")
    with pytest.raises(ValueError, match="look_back"):
        Search(queens(4), look_back="sideways")


def test_levels_are_listed_deepest_first():
    assert levels(0b10110) == [4, 2, 1]
    assert levels(0) == []


def test_a_nogood_fires_when_all_but_one_literal_holds():
    csp = CSP("three")
    csp.add_variables("abc", [0, 1, 2])
    state = ExplainingState(csp)
    store = NogoodStore()
    a1, b0, c2 = Literal("a", True, 1), Literal("b", False, 0), Literal("c", True, 2)
    store.add(Nogood([a1, b0, c2]))  # not (a = 1 and b ≠ 0 and c = 2)
    state.assign("a", 1)
    store.propagate(state, [a1])  # the watch moves to c = 2
    assert state.domains["c"] == {0, 1, 2}
    state.remove("b", 0)
    store.propagate(state, [b0])  # a = 1 and b ≠ 0 hold: c = 2 must not
    assert state.domains["c"] == {0, 1}
    assert state.removed["c"][2][0] == [a1, b0]  # its reason: the other literals


def test_a_nogood_can_force_a_value():
    csp = CSP("two")
    csp.add_variables("ab", [0, 1, 2])
    state = ExplainingState(csp)
    store = NogoodStore()
    store.add(Nogood([Literal("a", True, 1), Literal("b", False, 2)]))  # a = 1 forces b = 2
    state.assign("a", 1)
    store.propagate(state, [Literal("a", True, 1)])
    assert state.domains["b"] == {2}


def test_the_explorer_numbers_event_kinds_as_the_trace_does():
    import re

    from csp_puzzles.core.trace import KINDS
    from csp_puzzles.viz.frontend import module

    source = module()  # the front end, joined from csp_puzzles/viz/front/
    names = re.search(r"const KIND_NAMES = \[(.*?)\];", source, re.S).group(1)
    assert re.findall(r'"(\w+)"', names) == list(KINDS)


def test_a_learn_event_names_the_nogood_and_its_variables():
    result = count(queens(5), inference="none", var_order="input", look_back="learn",
                   trace=True)
    learn = next(e for e in result.trace if e.kind == LEARN)
    assert learn.var is None and len(learn.value) >= 1
    for var, sign, value in learn.value:
        assert sign in ("=", "≠") and f"{var} {sign} {value}" in learn.describe()


def test_a_bound_is_explained_by_the_values_beyond_it_alone():
    from csp_puzzles.core.reasons import Literal

    csp = CSP("bounds")
    csp.add_variables("xyz", [0, 1, 2])
    state = ExplainingState(csp)
    state.start_blaming()
    state.assign("y", 1)  # level 1
    state.reason = state.lost("y")
    state.remove("x", 2)  # x's greatest value went because of level 1
    state.assign("z", 0)  # level 2
    state.reason = state.lost("z")
    state.remove("x", 0)  # x's least value went because of level 2
    assert state.below("x") == [Literal("x", False, 0)]
    assert state.above("x") == [Literal("x", False, 2)]
    assert state.levels_read(state.lost("x")) == 0b110  # the whole domain: both levels
    assert state.levels_read(state.below("x")) == 0b100
    assert state.levels_read(state.above("x")) == 0b010
    # the decisions: y lost 0 and 2 at level 1, z its 1 and 2 at level 2; a value the
    # decision took away reads as the decision
    assert state.below("y") == [Literal("y", True, 1)]
    assert state.levels_read([*state.below("y"), *state.above("z")]) == 0b110
    assert state.levels_read([*state.above("y"), *state.below("z")]) == 0b010


def test_hashi_degree_rule_caps_an_edge_for_what_the_others_carry_only():
    from csp_puzzles import hashi
    from csp_puzzles.hashi.rules import IslandDegree

    puzzle = hashi.parse("2.2.2\n.....\n..2..\n.....\n2.2.2\n")
    csp = puzzle.to_csp()
    degree = next(c for c in csp.constraints
                  if isinstance(c, IslandDegree) and c.where == "(0,2)")
    left, right, down = sorted(degree.scope)  # (0,0)-(0,2), (0,2)-(0,4), (0,2)-(2,2)
    elsewhere = [v for v in csp.variables if v not in degree.scope]
    state = ExplainingState(csp)
    state.start_blaming()
    state.assign(elsewhere[0], 0)  # level 1 takes a bridge of room from the left edge
    state.reason = state.lost(elsewhere[0])
    state.remove(left, 2)
    state.assign(elsewhere[1], 0)  # level 2 puts a sure bridge on the right edge
    state.reason = state.lost(elsewhere[1])
    state.remove(right, 0)
    degree.propagate(state)  # 2 at (0,2), 1 sure on the right: the others take at most 1
    assert 2 not in state.domains[down]
    assert state.levels_of_variable(down) == 0b100  # level 2 alone: the left edge's room
    # did not count


def test_the_stats_count_the_literals_of_the_nogoods_learnt():
    result = count(queens(6), inference="none", var_order="input", look_back="learn",
                   trace=True)
    learnt = [e for e in result.trace if e.kind == LEARN]
    assert result.stats.learnt == len(learnt) > 0
    assert result.stats.learnt_literals == sum(len(e.value) for e in learnt)


def test_the_first_uip_can_be_a_removal_rather_than_the_decision():
    # x = 0 at level 1; y = 1 at level 2 forces u = 1, which forces a = 1 and b = 0, and
    # (a, b, x) = (1, 0, 0) is forbidden. Every path from y = 1 to the wipe-out runs
    # through the removal u ≠ 0: that is the first UIP, and y itself is not in the nogood.
    csp = CSP("uip")
    csp.add_variable("x", [0, 1])
    csp.add_variable("y", [1, 0])
    for name in ("u", "a", "b"):
        csp.add_variable(name, [0, 1])
    csp.add_constraint(Table(["y", "u"], [(0, 0), (0, 1), (1, 1)]))
    csp.add_constraint(Table(["u", "a"], [(0, 0), (0, 1), (1, 1)]))
    csp.add_constraint(Table(["u", "b"], [(0, 0), (0, 1), (1, 0)]))
    csp.add_constraint(Table(["a", "b", "x"],
                             [t for t in product((0, 1), repeat=3) if t != (1, 0, 0)]))
    search = LearningSearch(csp, inference="mac", var_order="input", trace=True)
    search.graphs = []
    solution = next(search.solutions())
    assert csp.is_solution(solution) and solution["y"] == 0
    first = search.graphs[0]
    assert first.nogood.words() == (("u", "≠", 0), ("x", "=", 0))
    assert "first UIP: u ≠ 0" in first.describe()
    learn = next(e for e in search.trace if e.kind == LEARN)
    assert learn.describe() == "learn: u ≠ 0 and x = 0 cannot all hold"
    # back at level 1 the nogood makes u ≠ 0 false at once: u = 1 goes, before any decision
    assert any(e.kind == "prune" and e.var == "u" and e.value == 1 and e.depth == 1
               and e.cause.startswith("nogood") for e in search.trace)


def test_forgetting_keeps_the_nogoods_over_fewest_levels():
    store = NogoodStore(limit=4)
    made = [Nogood([Literal("a", True, i), Literal("b", False, i)], glue=glue)
            for i, glue in enumerate([5, 2, 9, 2, 3])]
    for nogood in made:
        store.add(nogood)  # the fifth finds the store full: the better half stays
    assert store.nogoods == [made[1], made[3], made[4]]
    assert store.learnt == 5
    watched = {n for waiting in store.watches.values() for n in waiting}
    assert watched == set(store.nogoods)  # the forgotten ones no longer wake up


def test_a_long_reason_is_read_out_newest_first_and_the_rest_counted():
    """A propagator that blames its whole scope gives a step many facts: the read-out names
    the newest few and counts the others, and leaves nothing out of the count."""
    search = LearningSearch(queens(8), inference="fc", var_order="input", trace=True)
    search.graphs = []
    next(search.solutions())

    def facts_beyond_root(reason):
        return len({fact for fact in reason if fact[2] > 0})

    many, graph, fact = 0, None, None
    for analysis in search.graphs:
        for step, reason in analysis.steps:
            if facts_beyond_root(reason) > many:
                many, graph, fact = facts_beyond_root(reason), analysis, step
    assert many > 2
    line = next(line for line in graph.describe(most=2).splitlines()
                if line.startswith(f"  {fact[0]} came from"))
    assert line.count("(level ") == 2 and f"and {many - 2} more (level" in line
    full = next(line for line in graph.describe().splitlines()
                if line.startswith(f"  {fact[0]} came from"))
    assert full.count("(level ") == min(many, 8)

def test_a_failure_keeps_the_reason_its_propagator_gave():
    from csp_puzzles.core.reasons import Literal
    from csp_puzzles.core.state import Contradiction

    csp = CSP("fail")
    csp.add_variables("xy", [0, 1, 2])
    state = ExplainingState(csp)
    state.assign("y", 1)
    state.reason = state.lost("y")
    state.remove("x", 0)
    state.reason = state.below("x")
    with pytest.raises(Contradiction) as failure:
        state.fail(None, "too many")
    assert failure.value.reason == [Literal("x", False, 0)] and state.reason is None


def test_a_cut_edge_is_explained_by_the_closed_edges_across_the_cut():
    from csp_puzzles import hashi
    from csp_puzzles.hashi.connectivity import Connectivity

    # a b c
    # d e f   closing b-e and e-f leaves the path f-c-b-a-d-e: a-b cuts {a, d, e} off
    puzzle = hashi.parse("2.2.2\n.....\n2.2.2\n")
    csp = puzzle.to_csp()
    connectivity = next(c for c in csp.constraints if isinstance(c, Connectivity))
    b_e, e_f, a_b = (0, 2, 2, 2), (2, 2, 2, 4), (0, 0, 0, 2)
    state = ExplainingState(csp)
    for edge in (b_e, e_f):
        state.remove(edge, 1)
        state.remove(edge, 2)
    k = connectivity.scope.index(a_b)
    assert set(connectivity._closed_across(state, k)) == {b_e, e_f}


def test_backjumping_reads_a_whole_variable_as_the_facts_it_lost():
    """`blamed[x]` (what backjumping reads of a variable read whole) holds exactly the
    levels behind the facts of `lost(x)`, the literals learning reads: one reading of a
    reason, checked at every conflict of real searches (bounds from Hashi's rules)."""
    from csp_puzzles import hashi
    from csp_puzzles.core.lookback import LookBackSearch

    checked = []

    class Checking(LookBackSearch):
        def _conflict(self, failure):
            state = self.state
            for var in state.csp.variables:
                facts = state.facts_of(state.lost(var), state.clock + 1)
                assert state.blamed[var] == state.levels_behind(facts), var
            checked.append(failure)
            return super()._conflict(failure)

    puzzle = hashi.parse("2.3.2\n.....\n3.4.3\n.....\n2.3.2\n")
    for csp, inference in ((queens(6), "fc"), (queens(6), "mac"), (puzzle.to_csp(), "mac")):
        list(Checking(csp, inference=inference, var_order="input",
                      look_back="cbj").solutions())
    assert len(checked) > 20


def test_every_reason_is_literals_older_than_its_fact_that_hold_while_it_stands():
    """One kind of reason: at every conflict of real searches (Hashi's bounds and group
    rules, Kakuro's sums, queens under forward checking, nogoods firing), every removal in
    force has a reason made of literals only, each true now, each fact older than the
    removal; a decision's removals have none. (The variable the failure emptied has no
    value now: `x = v` on it held until its last removal.)"""
    from csp_puzzles import hashi, kakuro

    checked = []

    class Checking(LearningSearch):
        def _conflict(self, failure):
            state = self.state
            wiped = getattr(failure, "wiped", None)

            def holds(literal):
                return state.holds(literal) or literal.var == wiped and literal.equal

            for var, entries in state.removed.items():
                for value, (reason, fact, _) in entries.items():
                    if value in state.domains[var]:
                        continue  # put back since: not in force
                    if fact.literal.equal:
                        assert reason == () and state.decided[var] == fact
                        continue
                    assert all(type(literal) is Literal for literal in reason), reason
                    assert all(holds(literal) for literal in reason), (fact, reason)
                    assert all(f.stamp < fact.stamp for f in state.facts_of(reason, fact.stamp))
                    checked.append(fact)
            return super()._conflict(failure)

    islands = hashi.parse("2.3.2\n.....\n3.4.3\n.....\n2.3.2\n")
    sums = kakuro.parse((REPO / "data" / "kakuro" / "hard-8x8-seed1.txt").read_text())
    problems = [(queens(8), "fc"), (queens(8), "mac"), (islands.to_csp(), "mac"),
                (sums.to_csp(), "mac")]
    for csp, inference in problems:
        list(Checking(csp, inference=inference, var_order="input").solutions())
    assert len(checked) > 100


def test_a_finished_search_is_freed_without_the_garbage_collector():
    """A search keeps no reference cycle (no bound method of itself, no failure holding
    its traceback): once dropped, reference counting frees it and its state at once, and
    Python's collector has nothing to walk when a solve ends."""
    import gc
    import weakref

    from csp_puzzles import hashi

    puzzle = hashi.parse("2.3.2\n.....\n3.4.3\n.....\n2.3.2\n")
    runs = [(LearningSearch, queens(8), "fc"), (LearningSearch, puzzle.to_csp(), "mac"),
            (Search, queens(8), "fc")]
    enabled = gc.isenabled()
    gc.disable()
    try:
        for kind, csp, inference in runs:
            search = kind(csp, inference=inference, var_order="input")
            assert list(search.solutions())  # every solution, failures on the way
            search_ref, state_ref = weakref.ref(search), weakref.ref(search.state)
            del search
            assert search_ref() is None and state_ref() is None, kind.__name__
    finally:
        if enabled:
            gc.enable()
