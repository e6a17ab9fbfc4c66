"""Sessions: every action against values worked out by hand or by brute force; bad actions
change nothing; undo restores exactly; the trace replays to the session's own domains."""

from __future__ import annotations

import io

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from csp_puzzles import CSP, Predicate, Session
from csp_puzzles.core import Decision, Hint, Trace
from csp_puzzles.core.trace import KINDS
from csp_puzzles.examples import map_colouring, queens

COLOURS = ("red", "green", "blue")


def chain() -> CSP:
    """x < y < z over 1..3: one solution, (1, 2, 3)."""
    csp = CSP("chain")
    for var in "xyz":
        csp.add_variable(var, (1, 2, 3))
    csp.add_constraint(Predicate(lambda a, b: a < b, ("x", "y"), name="x < y"))
    csp.add_constraint(Predicate(lambda a, b: a < b, ("y", "z"), name="y < z"))
    return csp


def replays(session: Session) -> bool:
    trace = session.trace
    return trace.domains_at(len(trace) - 1) == session.domains


def everything(session: Session) -> tuple:
    """What a bad action must leave alone: domains, trace, undo stack, queue, status."""
    return (session.domains, len(session.trace), session.history, session.arcs(),
            session.status)


# -- decisions -------------------------------------------------------------------------------
def test_assign_forward_checks_the_neighbours():
    s = Session(map_colouring(), inference="fc")
    assert s.status == "open" and s.domains["WA"] == COLOURS
    removed = s.assign("WA", "red")
    assert removed == {"WA": ("green", "blue"), "NT": ("red",), "SA": ("red",)}
    assert s.domains["NT"] == s.domains["SA"] == ("green", "blue")
    assert s.domains["Q"] == COLOURS
    assert s.decisions == [Decision("assign", "WA", "red")]
    assert [e.kind for e in s.trace] == ["assign", "prune", "prune"]
    assert replays(s)


def test_assign_under_fc_matches_brute_force_on_4_queens():
    csp = queens(4)
    s = Session(csp, inference="fc")
    s.assign(0, 1)
    for other in (1, 2, 3):
        allowed = tuple(b for b in range(4) if all(
            c.is_satisfied({0: 1, other: b}) for c in csp.constraints
            if set(c.scope) == {0, other}))
        assert s.domains[other] == allowed
    assert replays(s)


def arc_consistent(csp: CSP, domains: dict) -> dict:
    """Brute force: remove unsupported values pair by pair until nothing changes (AC-1)."""
    domains = {v: list(d) for v, d in domains.items()}
    changed = True
    while changed:
        changed = False
        for c in csp.constraints:
            for x in c.scope:
                (y,) = [v for v in c.scope if v != x]
                kept = [a for a in domains[x] if any(c.is_satisfied({x: a, y: b})
                                                     for b in domains[y])]
                if kept != domains[x]:
                    domains[x], changed = kept, True
    return {v: tuple(d) for v, d in domains.items()}


def test_propagate_under_mac_reaches_arc_consistency():
    csp = queens(6)
    s = Session(csp, inference="mac")
    s.assign(0, 1)  # MAC propagates at once
    expected = arc_consistent(csp, {**csp.domains, 0: (1,)})
    assert s.domains == expected
    assert s.propagate() == {}  # a fixpoint already
    assert replays(s)


def test_propagate_under_fc_forward_checks_until_nothing_changes():
    s = Session(chain(), inference="fc")
    s.revise("x < y", "x")  # x loses 3
    s.revise("y < z", "z")  # z loses 1
    s.assign("y", 2)
    assert s.domains == {"x": (1,), "y": (2,), "z": (3,)}
    assert s.status == "solved" and s.trace[-1].kind == "solution"


def test_wipeout_stays_visible_until_undone():
    s = Session(map_colouring(colours=("red", "green")), inference="fc")
    s.assign("WA", "red")
    s.assign("NT", "green")  # SA loses green too: empty
    assert s.status == "wipeout" and s.domains["SA"] == ()
    assert s.trace[-1].kind == "wipeout" and s.trace[-1].var == "SA"
    assert replays(s)
    with pytest.raises(ValueError, match="undo first"):
        s.assign("Q", "red")
    s.undo()
    assert s.status == "open" and s.domains["SA"] == ("green",)
    assert s.trace[-1].kind == "backtrack" and s.trace[-1].var == "NT"
    assert replays(s)


def test_split_keeps_the_lower_half_and_is_a_decision():
    s = Session(queens(4), inference="mac")
    s.split(0)
    assert s.domains[0] == (0, 1)
    assert s.decisions == [Decision("split", 0, (0, 1))]
    assert s.trace[0].kind == "split" and s.trace[0].value == (0, 1)
    assert replays(s)
    s.undo()
    assert s.domains == {v: tuple(range(4)) for v in range(4)}
    assert s.trace[-1].kind == "backtrack" and replays(s)


def test_a_split_down_to_one_value_is_an_assignment():
    s = Session(chain(), inference="fc")
    s.revise("x < y", "x")  # x in {1, 2}
    assert s.split("x") == {"x": (2,), "y": (1,)}
    assert s.decisions == [Decision("split", "x", (1,))]  # the engine assigns it
    assert [e.kind for e in s.trace][-3:] == ["prune", "assign", "prune"]
    assert replays(s)


# -- arc consistency by hand -------------------------------------------------------------------
def test_revise_returns_the_unsupported_values():
    s = Session(chain(), inference="none")
    assert s.revise("x < y", "x") == (3,)
    assert s.revise("x < y", "y") == (1,)
    assert s.revise("y < z", "y") == (3,)
    assert s.domains == {"x": (1, 2), "y": (2,), "z": (1, 2, 3)}
    event = s.trace[0]
    assert event.kind == "revise" and event.var == "x" and event.cause == "x < y"
    assert event.value == (("x < y", "y"), ("y < z", "y"), ("y < z", "z"))
    assert s.trace[1].kind == "prune" and s.trace[1].cause == "x < y"
    assert replays(s)


def test_the_queue_is_ac3s():
    """The session's queue revises the arcs as AC-3 does (notebook 02): Australia with WA
    red and Q green takes 20 revisions, and the last one empties SA."""
    s = Session(map_colouring(), inference="none")
    s.assign("WA", "red")
    s.assign("Q", "green")
    first = s.arcs()[0]
    assert (first[0].name, first[1]) == ("WA != NT", "WA")
    revisions = []
    while s.status == "open" and s.arcs():
        constraint, var = s.arcs()[0]
        removed = s.revise(constraint, var)
        revisions.append((var, constraint.name, removed))
    assert len(revisions) == 20 and s.status == "wipeout"
    assert revisions[-1] == ("SA", "NT != SA", ("blue",))
    assert s.trace.count("revise") == 20 and replays(s)


def test_a_change_queues_the_arcs_pointing_at_it():
    s = Session(chain(), inference="none")
    for arc in s.arcs():
        s.revise(*arc)
    # (y < z, y) took 3 from y, which queued (x < y, x) again
    assert [(c.name, v) for c, v in s.arcs()] == [("x < y", "x")]
    while s.arcs():
        s.revise(*s.arcs()[0])
    assert s.domains == {"x": (1,), "y": (2,), "z": (3,)} and s.status == "solved"
    s.undo()
    s.undo()  # (y < z, z)
    assert [(c.name, v) for c, v in s.arcs()] == [("y < z", "z"), ("x < y", "x")]
    s.undo()  # (y < z, y)
    assert [(c.name, v) for c, v in s.arcs()] == [("y < z", "y"), ("y < z", "z")]


def test_revise_by_propagator_past_the_tuple_cap():
    from csp_puzzles import AllDifferent

    csp = CSP("wide")
    names = [f"v{i}" for i in range(12)]
    csp.add_variables(names, range(12))
    csp.add_constraint(AllDifferent(names))
    s = Session(csp, inference="none")
    s.assign("v0", 0)
    assert s.revise(csp.constraints[0], "v1") == (0,)


# -- hints -------------------------------------------------------------------------------------
def test_hint_by_hand_on_australia():
    s = Session(map_colouring(), inference="fc")
    s.assign("WA", "red")
    assert s.hint() is None  # forward checking left it arc consistent
    s.assign("NT", "green")
    hint = s.hint()
    assert hint == Hint("SA != Q", {"Q": ("blue",)}, ("SA", "Q"),
                        "SA != Q: SA = blue, so blue leaves Q", "constraints", "SA != Q",
                        cost=2)  # two variables involved, on the first rung
    before = everything(s)
    assert s.hint() == hint and everything(s) == before  # hint changes nothing
    assert s.apply(hint) == {"Q": ("blue",)}
    assert s.trace[-1].cause == "SA != Q" and replays(s)


def test_hints_to_exhaustion_reach_the_propagation_fixpoint():
    csp = queens(6)
    s = Session(csp, inference="fc")
    s.assign(0, 1)
    while (hint := s.hint()) is not None:
        assert hint.removals and all(hint.removals.values())
        s.apply(hint)
    assert s.domains == arc_consistent(csp, {**csp.domains, 0: (1,)})


def test_a_contradiction_is_a_hint_that_empties_a_domain():
    csp = CSP("no")
    csp.add_variables("ab", (1, 2))
    csp.add_constraint(Predicate(lambda a, b: a < b, ("a", "b"), name="a < b"))
    csp.add_constraint(Predicate(lambda a, b: a > b, ("a", "b"), name="a > b"))
    s = Session(csp, inference="none")
    seen = []
    while s.status == "open" and (hint := s.hint()) is not None:
        seen.append(hint.rule)
        s.apply(hint)
    assert s.status == "wipeout" and seen


def test_all_different_says_which_value_leaves():
    from csp_puzzles import AllDifferent

    csp = CSP("three")
    csp.add_variables(["WA", "NT", "SA"], COLOURS)
    csp.add_constraint(AllDifferent(["WA", "NT", "SA"]))
    s = Session(csp, inference="none")
    s.assign("NT", "red")
    hint = s.hint()
    assert hint.sentence == "AllDifferent(WA, NT, SA): NT = red, so red leaves WA and red " \
                            "leaves SA"
    assert hint.removals == {"WA": ("red",), "SA": ("red",)}


# -- suggestions -------------------------------------------------------------------------------
def test_suggest_says_what_the_orders_would_do():
    s = Session(map_colouring(), inference="fc")
    s.assign("WA", "red")
    s.assign("NT", "green")
    suggestion = s.suggest()
    assert (suggestion.var, suggestion.value) == ("SA", "blue")
    assert suggestion.sentence == ("MRV would choose SA: 1 value left; LCV would try blue "
                                   "first: it rules out 3 values of its neighbours")
    assert s.suggest("input", "input").sentence == (
        "input order would choose SA: the first variable still to decide; its first value "
        "is blue")
    with pytest.raises(ValueError, match="unknown variable order"):
        s.suggest("smallest")


# -- the engine takes over ---------------------------------------------------------------------
def test_finish_solves_below_the_decisions_and_undo_takes_it_back():
    s = Session(map_colouring(), inference="fc")
    s.assign("WA", "green")
    before = s.domains
    result = s.finish()
    assert result.status == "solved" and s.status == "solved"
    assert map_colouring().is_solution(result.solution) and result.solution["WA"] == "green"
    assert s.domains == {var: (value,) for var, value in result.solution.items()}
    assert replays(s)
    s.undo()
    assert s.domains == before and s.status == "open" and replays(s)


def test_finish_without_a_solution_below_is_a_wipeout():
    s = Session(chain(), inference="fc")
    s.assign("x", 2)
    result = s.finish()
    assert result.status == "unsatisfiable" and s.status == "wipeout"
    assert replays(s)
    s.undo()
    assert s.status == "open" and s.domains["y"] == (3,) and replays(s)


def test_finish_at_a_limit_changes_nothing():
    s = Session(queens(8), inference="none")
    before = s.domains
    result = s.finish(max_nodes=3)
    assert result.status == "limit"
    assert s.domains == before and s.status == "open" and s.history == [] and replays(s)


# -- mistakes ----------------------------------------------------------------------------------
def test_mistakes_lists_the_wrong_decisions_in_order():
    with pytest.raises(ValueError, match="more than one solution"):
        Session(queens(4)).mistakes()
    none = CSP("none")
    none.add_variables("ab", (1,))
    none.add_constraint(Predicate(lambda a, b: a != b, "ab", name="a != b"))
    with pytest.raises(ValueError, match="has no solution"):
        Session(none).mistakes()
    s = Session(chain(), inference="fc")
    assert s.mistakes() == []
    s.assign("y", 2)
    assert s.status == "solved" and s.mistakes() == []
    s.undo()
    s.assign("x", 2)
    s.split("z")  # keeps 1 and 2, where the solution has 3
    assert s.mistakes() == [Decision("assign", "x", 2), Decision("split", "z", (1, 2))]


# -- bad actions change nothing ------------------------------------------------------------------
BAD = [
    ("assign", ("nowhere", "red"), "unknown variable"),
    ("assign", ("Q", "purple"), "not in the domain"),
    ("assign", ([1], "red"), "unknown variable"),
    ("assign", ("Q", ["red"]), "not in the domain"),
    ("revise", ("WA != NT", "Q"), "not in the scope"),
    ("revise", ("WA == NT", "WA"), "no constraint named"),
    ("split", ("T",), "nothing to split"),
    ("apply", ("not a hint",), "apply takes a Hint"),
]


@pytest.mark.parametrize(("action", "args", "message"), BAD)
def test_bad_actions_raise_and_change_nothing(action, args, message):
    s = Session(map_colouring(), inference="fc")
    s.assign("WA", "red")
    s.revise("NT != SA", "NT")
    if action == "split":
        s.assign("T", "red")
    before = everything(s)
    with pytest.raises(ValueError, match=message):
        getattr(s, action)(*args)
    assert everything(s) == before


def test_more_bad_actions():
    s = Session(map_colouring(), inference="fc")
    with pytest.raises(ValueError, match="nothing to undo"):
        s.undo()
    s.assign("WA", "red")
    before = everything(s)
    with pytest.raises(ValueError, match="assigned already"):
        s.assign("WA", "red")
    s2 = Session(map_colouring(), inference="fc")
    s2.assign("SA", "blue")
    s2.assign("NT", "green")
    stale = s2.hint()
    s2.apply(stale)
    before = everything(s2)
    with pytest.raises(ValueError, match="out of date"):
        s2.apply(stale)
    assert everything(s2) == before
    with pytest.raises(ValueError, match="unknown inference"):
        Session(map_colouring(), inference="ac5")
    with pytest.raises(TypeError):
        Session("WA")


def test_a_solved_session_refuses_actions():
    s = Session(chain(), inference="mac")
    s.propagate()
    assert s.status == "solved" and s.hint() is None
    before = everything(s)
    for action, args in (("assign", ("x", 1)), ("propagate", ()), ("suggest", ())):
        with pytest.raises(ValueError, match="solved"):
            getattr(s, action)(*args)
    assert everything(s) == before


# -- the trace -----------------------------------------------------------------------------------
def test_new_kinds_come_last_in_the_numbering():
    assert KINDS[-2:] == ("revise", "undo")


def test_undo_events_name_what_came_back():
    s = Session(chain(), inference="none")
    s.revise("x < y", "x")
    s.undo()
    event = s.trace[-1]
    assert event.kind == "undo" and event.var is None and event.value == (("x", 3),)
    assert event.cause == "revise x against x < y" and event.depth == 0
    assert event.describe() == "undo revise x against x < y: 1 value put back"
    assert s.trace[0].describe() == "revise x against x < y (3 arcs waiting)"
    assert replays(s)


def test_session_traces_survive_json_lines():
    s = Session(map_colouring(), inference="fc")
    s.assign("WA", "red")
    s.revise("NT != SA", "NT")
    s.assign("NT", "green")
    s.apply(s.hint())
    s.undo()
    buffer = io.StringIO()
    s.trace.write_jsonl(buffer)
    back = Trace.read_jsonl(io.StringIO(buffer.getvalue()))
    assert list(back) == list(s.trace)
    assert back.domains_at(len(back) - 1) == s.domains


# -- random sequences: undo and the replay stay exact --------------------------------------------
PROBLEMS = {"australia": map_colouring, "queens": lambda: queens(5), "chain": chain}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PROBLEMS)), st.sampled_from(["none", "fc", "mac"]),
       st.lists(st.tuples(st.sampled_from(["assign", "split", "revise", "propagate", "hint",
                                           "undo", "finish"]),
                          st.integers(0, 1000), st.integers(0, 1000)), max_size=25))
def test_random_actions_undo_exactly_and_replay(problem, inference, actions):
    s = Session(PROBLEMS[problem](), inference=inference)
    snapshots = []
    for kind, a, b in actions:
        before = everything(s)
        try:
            act(s, kind, a, b)
        except ValueError:
            assert everything(s) == before
            continue
        if kind == "undo":
            assert (s.domains, s.arcs(), s.status) == snapshots.pop()
        elif len(s.history) > len(before[2]):
            snapshots.append((before[0], before[3], before[4]))
        assert replays(s), kind
    while s.history:
        s.undo()
        assert (s.domains, s.arcs(), s.status) == snapshots.pop()
        assert replays(s)
    assert s.domains == {v: tuple(d) for v, d in s.csp.domains.items()}


def act(s: Session, kind: str, a: int, b: int) -> None:
    variables = s.csp.variables
    var = variables[a % len(variables)]
    if kind == "assign":
        values = s.domains[var] or ("none left",)
        s.assign(var, values[b % len(values)])
    elif kind == "split":
        s.split(var)
    elif kind == "revise":
        arcs = s.arcs() or [(c, c.scope[0]) for c in s.csp.constraints]
        s.revise(*arcs[b % len(arcs)])
    elif kind == "propagate":
        s.propagate()
    elif kind == "hint":
        hint = s.hint()
        if hint is None:
            raise ValueError("no hint")
        s.apply(hint)
    elif kind == "undo":
        s.undo()
    else:
        s.finish(max_nodes=50)
