"""Trials are decisions (issue 38, pzprjs's trial mode): `suppose` opens one (a decision
level of its own), `reject` takes it back whole as a backtrack, `accept` keeps what was done
in it; trials nest, and undo and redo cross them."""

from __future__ import annotations

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings

from csp_puzzles import Session
from csp_puzzles.core import Decision
from csp_puzzles.examples import map_colouring, queens
from tests.test_session_moves import act, replays


def test_a_trial_is_a_decision_level_and_reject_is_a_backtrack():
    s = Session(map_colouring(), inference="fc")
    s.set("WA", "red")
    before = s.domains
    s.suppose("NT", "green")
    assert s.trials == [Decision("assign", "NT", "green")] and s.depth == 2
    assert s.trace[-3].kind == "assign" and s.trace[-3].depth == 2  # then NT's prunes
    s.set("Q", "red")
    s.remove("NSW", "blue")
    change = s.reject()
    assert s.domains == before and s.trials == [] and s.depth == 1 and s.pencil == {}
    assert change == change.restored and change.words == "reject the trial NT = green"
    assert [(e.kind, e.var) for e in s.trace[-2:]] == [("backtrack", "Q"), ("backtrack", "NT")]
    assert replays(s)


def test_accept_keeps_the_moves_as_ordinary_ones():
    s = Session(map_colouring(), inference="fc")
    s.suppose("WA", "red")
    s.set("Q", "green")
    after = s.domains
    s.accept()
    assert s.trials == [] and s.domains == after
    assert s.decisions == [Decision("assign", "WA", "red"), Decision("assign", "Q", "green")]
    s.clear("WA")  # an accepted supposition is an ordinary decision
    assert s.decisions == [Decision("assign", "Q", "green")]


def test_trials_nest_and_reject_takes_the_innermost():
    s = Session(queens(6), inference="fc")
    start = s.domains
    s.suppose(0, 1)
    first = s.domains
    s.suppose(1, 3)
    s.set(2, 5)
    assert [d.var for d in s.trials] == [0, 1]
    s.reject()
    assert s.domains == first and [d.var for d in s.trials] == [0]
    s.reject()
    assert s.domains == start and s.trials == [] and replays(s)


def test_a_wipeout_inside_a_trial_is_what_reject_is_for():
    s = Session(map_colouring(colours=("red", "green")), inference="fc")
    s.set("WA", "red")
    s.suppose("NT", "green")
    assert s.status == "wipeout" and "NT = green" in s.wipeout.sentence
    s.reject()
    assert s.status == "open" and s.wipeout is None


def test_a_move_inside_a_trial_on_an_older_decision_goes_with_the_trial():
    s = Session(map_colouring(), inference="fc")
    s.set("WA", "red")
    before = s.domains
    s.suppose("T", "green")
    s.set("WA", "blue")  # changes a decision made before the trial
    assert s.decisions[0] == Decision("assign", "WA", "blue") and len(s.trials) == 1
    s.reject()
    assert s.domains == before and s.decisions == [Decision("assign", "WA", "red")]


def test_changing_the_supposition_keeps_the_trial_and_clearing_it_is_refused():
    s = Session(map_colouring(), inference="fc")
    s.suppose("WA", "red")
    s.set("WA", "green")
    assert s.trials == [Decision("assign", "WA", "green")]
    try:
        s.clear("WA")
    except ValueError as refused:
        assert "supposition of an open trial" in str(refused)
    else:
        raise AssertionError("clearing a supposition must be refused")
    s.reject()
    assert s.decisions == [] and s.domains == map_colouring().domains


def test_undo_and_redo_cross_trials():
    s = Session(map_colouring(), inference="fc")
    s.suppose("WA", "red")
    s.set("Q", "green")
    inside = s.domains
    s.reject()
    s.undo()  # the trial is open again, with its moves
    assert s.domains == inside and s.trials == [Decision("assign", "WA", "red")]
    s.undo()
    s.undo()  # the supposition itself
    assert s.trials == [] and s.decisions == []
    s.redo()
    s.redo()
    s.redo()  # the reject again
    assert s.trials == [] and s.decisions == [] and replays(s)
    s.undo()
    s.accept()
    s.undo()  # the trial is open again
    assert s.trials == [Decision("assign", "WA", "red")]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["none", "fc", "mac"]),
       st.lists(st.tuples(st.sampled_from(["set", "clear", "remove", "restore", "revise",
                                           "propagate", "hint", "suppose", "accept", "undo",
                                           "redo", "after"]),
                          st.integers(0, 1000), st.integers(0, 1000)), max_size=25),
       st.integers(0, 6), st.integers(0, 2))
def test_reject_restores_the_domains_exactly(inference, moves, var, value):
    """Whatever is done inside a trial (moves, deductions, nested trials accepted, undo and
    redo), rejecting it gives back the domains, decisions and pencil marks of before."""
    s = Session(map_colouring(), inference=inference)
    s.set("T", "red")
    regions = s.csp.variables
    trial_var = regions[var % 6]  # T (the last) is decided already
    before = (s.domains, s.decisions, s.pencil, s.arcs())
    s.suppose(trial_var, s.domains[trial_var][value % len(s.domains[trial_var])])
    for kind, a, b in moves:
        try:
            if kind == "undo" and len(s.history) <= 2:
                continue  # keep the trial itself
            if kind == "accept" and len(s.trials) < 2:
                continue  # accept only trials opened inside it
            act(s, kind, a, b)
        except ValueError:
            continue
    while len(s.trials) > 1:
        s.reject()
    s.reject()
    assert (s.domains, s.decisions, s.pencil, s.arcs()) == before and replays(s)
