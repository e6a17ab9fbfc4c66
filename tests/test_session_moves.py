"""Moves that change only their variables (issue 38): what runs after a move, set and clear
on any variable at any time, values crossed out by hand, undo that never lies, redo, and
compound actions. Each is checked against domains worked out independently: by hand, or by
a fresh session making the same moves from the start."""

from __future__ import annotations

import re

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from csp_puzzles import CSP, Predicate, Session
from csp_puzzles.core import Decision
from csp_puzzles.core.moves import AFTER_MOVE, Decide, Strike
from csp_puzzles.examples import map_colouring, queens

COLOURS = ("red", "green", "blue")
NEIGHBOURS = {"WA": ("NT", "SA"), "NT": ("WA", "SA", "Q"), "SA": ("WA", "NT", "Q", "NSW", "V"),
              "Q": ("NT", "SA", "NSW"), "NSW": ("Q", "SA", "V"), "V": ("SA", "NSW"), "T": ()}


def replays(session: Session) -> bool:
    trace = session.trace
    return trace.domains_at(len(trace) - 1) == session.domains


def everything(session: Session) -> tuple:
    """What a refused action must leave alone."""
    return (session.domains, len(session.trace), session.history, session.redo_history,
            session.arcs(), session.status, session.trials, session.pencil)


def values_said(sentence: str, what: str) -> int:
    """The number a sentence gives for `what` ("put back", "removed"), 0 when it says none."""
    found = re.search(rf"(\d+) (?:values? )?{what}", sentence)
    return int(found.group(1)) if found else 0


def counts(before: dict, after: dict) -> tuple[int, int]:
    """Values removed and put back from `before` to `after`, counted on the domains."""
    gone = sum(len(set(before[v]) - set(after[v])) for v in before)
    back = sum(len(set(after[v]) - set(before[v])) for v in before)
    return gone, back


# -- after each move -------------------------------------------------------------------------
def test_the_settings_are_listed_and_checked():
    assert AFTER_MOVE == ("nothing", "forward checking", "propagation")
    s = Session(map_colouring(), inference="fc")
    assert s.after_move == "propagation"  # a plain session: assign = decision + inference
    with pytest.raises(ValueError, match="after_move is one of"):
        s.after_move = "rules"
    with pytest.raises(ValueError, match="after_move is one of"):
        Session(map_colouring(), after_move="everything")


def test_nothing_after_a_move_changes_only_its_variable():
    s = Session(map_colouring(), inference="mac", after_move="nothing")
    change = s.set("WA", "red")
    assert change == {"WA": ("green", "blue")} and change.removed == dict(change)
    assert all(s.domains[v] == COLOURS for v in NEIGHBOURS if v != "WA")
    s.set("NT", "red")  # even a move that breaks a constraint: nothing checks it
    assert s.status == "open" and s.domains["SA"] == COLOURS
    assert replays(s)


def test_forward_checking_after_a_move_under_a_mac_session():
    """Forward checking removes the value from the neighbours only (MAC would go on)."""
    colours = map_colouring(colours=("red", "green"))
    s = Session(colours, inference="mac", after_move="forward checking")
    s.set("WA", "red")
    assert s.domains["NT"] == s.domains["SA"] == ("green",)
    assert s.domains["Q"] == ("red", "green") and s.status == "open"  # MAC would wipe out
    mac = Session(map_colouring(colours=("red", "green")), inference="mac")
    mac.set("WA", "red")
    assert mac.status == "wipeout"


def test_propagate_hint_and_apply_work_whatever_the_setting():
    fixpoint = {"WA": ("red",), "NT": ("green",), "SA": ("blue",), "Q": ("red",),
                "NSW": ("green",), "V": ("red",), "T": COLOURS}
    for setting in AFTER_MOVE:
        s = Session(map_colouring(), inference="fc", after_move=setting)
        s.set("WA", "red")
        s.set("NT", "green")
        hint = s.hint()
        assert hint is not None
        s.apply(hint)
        s.propagate()
        assert s.domains == fixpoint and replays(s)


def test_the_setting_is_read_at_each_move_and_kept_by_it():
    s = Session(map_colouring(), inference="fc", after_move="nothing")
    s.set("WA", "red")
    s.after_move = "propagation"
    s.set("Q", "green")
    assert s.domains["NT"] == ("red", "blue")  # Q's forward check, not WA's
    s.set("Q", "blue")  # WA = red is made again as it was: with nothing after it
    assert s.domains["NT"] == ("red", "green") and s.domains["SA"] == ("red", "green")


# -- set and clear -------------------------------------------------------------------------------
def test_set_changes_a_decision_and_keeps_the_others():
    s = Session(map_colouring(), inference="fc")
    s.set("WA", "red")
    s.set("Q", "green")
    s.set("V", "blue")
    change = s.set("WA", "blue")
    assert s.decisions == [Decision("assign", "WA", "blue"), Decision("assign", "Q", "green"),
                           Decision("assign", "V", "blue")]
    fresh = Session(map_colouring(), inference="fc")
    for var, value in (("WA", "blue"), ("Q", "green"), ("V", "blue")):
        fresh.set(var, value)
    assert s.domains == fresh.domains and replays(s)
    assert change.words == "set WA = blue (it was red)"
    assert "2 later moves made again" in change.sentence
    kinds = [e.kind for e in s.trace]
    assert kinds.count("backtrack") == 3  # the three decisions, deepest first


def test_a_decision_that_no_longer_holds_is_said():
    s = Session(map_colouring(), inference="fc")
    s.set("WA", "red")
    s.set("NT", "green")
    change = s.set("WA", "green")  # NT loses green: NT = green cannot be made again
    assert "NT = green could not be made again" in change.sentence
    assert s.decisions == [Decision("assign", "WA", "green")] and replays(s)
    back = s.undo()
    assert s.decisions == [Decision("assign", "WA", "red"), Decision("assign", "NT", "green")]
    assert values_said(back.sentence, "put back") == sum(map(len, back.restored.values()))


def test_deductions_after_a_changed_move_are_dropped_and_said():
    s = Session(map_colouring(), inference="none")
    s.set("WA", "red")
    s.revise("WA != NT", "NT")
    s.set("Q", "green")
    change = s.set("WA", "green")
    assert "1 deduction drawn after it dropped" in change.sentence
    assert s.domains["NT"] == COLOURS and s.decisions[-1] == Decision("assign", "Q", "green")


def test_clear_takes_back_one_decision():
    s = Session(map_colouring(), inference="fc")
    s.set("WA", "red")
    s.set("Q", "green")
    change = s.clear("WA")
    assert s.decisions == [Decision("assign", "Q", "green")]
    assert s.domains["WA"] == COLOURS and s.domains["NT"] == ("red", "blue")
    assert change == change.restored and change["WA"] == ("green", "blue")
    assert change.sentence.startswith("clear WA: 4 values put back")
    assert replays(s)
    with pytest.raises(ValueError, match="no decision to clear"):
        s.clear("WA")


def test_set_and_clear_work_in_a_wipeout_and_once_solved():
    s = Session(map_colouring(colours=("red", "green")), inference="fc")
    s.set("WA", "red")
    s.set("NT", "green")
    assert s.status == "wipeout"
    s.clear("NT")
    assert s.status == "open" and s.wipeout is None
    chain = Session(chain_csp(), inference="fc")
    chain.set("y", 2)
    assert chain.status == "solved"
    chain.set("y", 3)
    assert chain.status == "wipeout"  # x < 3 leaves x two values... z has none


def chain_csp() -> CSP:
    csp = CSP("chain")
    for var in "xyz":
        csp.add_variable(var, (1, 2, 3))
    csp.add_constraint(Predicate(lambda a, b: a < b, ("x", "y"), name="x < y"))
    csp.add_constraint(Predicate(lambda a, b: a < b, ("y", "z"), name="y < z"))
    return csp


REFUSED = [
    ("set", ("WA", "red"), "is red already"),
    ("set", ("NT", "purple"), "not in the domain"),
    ("set", ("nowhere", "red"), "unknown variable"),
    ("clear", ("Q",), "no decision to clear"),
    ("remove", ("WA", "red"), "last value"),
    ("remove", ("NT", "red"), "not in the domain"),
    ("restore", ("NT", "red"), "was not crossed out"),
    ("reject", (), "no trial is open"),
    ("accept", (), "no trial is open"),
    ("redo", (), "nothing to redo"),
]


@pytest.mark.parametrize(("action", "args", "message"), REFUSED)
def test_refused_moves_change_nothing(action, args, message):
    s = Session(map_colouring(), inference="fc")
    s.set("WA", "red")
    before = everything(s)
    with pytest.raises(ValueError, match=message):
        getattr(s, action)(*args)
    assert everything(s) == before


# -- crossing out by hand -------------------------------------------------------------------------
def test_values_crossed_out_by_hand_and_put_back():
    s = Session(map_colouring(), inference="mac")  # no inference runs after a crossing-out
    s.remove("WA", "red")
    s.remove("WA", "green")
    assert s.domains["WA"] == ("blue",) and s.domains["NT"] == COLOURS
    assert s.pencil == {"WA": ("red", "green")} and s.one_value_left == ["WA"]
    assert s.decided == [] and s.trace[-1].cause == "the player"
    s.set("T", "red")
    change = s.restore("WA", "red")
    assert change == {"WA": ("red",)} and s.pencil == {"WA": ("green",)}
    assert "2 later moves made again" in change.sentence  # green crossed out, T = red
    assert s.decisions == [Decision("assign", "T", "red")] and replays(s)


def test_set_brings_back_a_value_crossed_out_by_hand():
    s = Session(map_colouring(), inference="fc")
    s.remove("Q", "red")
    s.set("WA", "green")
    s.set("Q", "red")
    assert s.pencil == {} and s.domains["Q"] == ("red",)
    assert s.decisions == [Decision("assign", "WA", "green"), Decision("assign", "Q", "red")]
    s.undo()
    assert s.pencil == {"Q": ("red",)} and s.domains["Q"] == ("green", "blue")


# -- undo that never lies, and redo ---------------------------------------------------------------
def test_undo_after_arc_consistency_puts_back_what_it_removed():
    """Issue 38: WA = red with no inference, then arc consistency, then undo."""
    s = Session(map_colouring(), inference="none")
    s.set("WA", "red")
    before = s.domains
    with s.action("arc consistency") as change:
        while s.arcs() and s.status == "open":
            s.revise(*s.arcs()[0])
    assert change == {"NT": ("red",), "SA": ("red",)}
    assert s.history == ["set WA = red", "arc consistency"]
    back = s.undo()
    assert s.domains == before and back == {"NT": ("red",), "SA": ("red",)}
    assert back.sentence == "undone: arc consistency; 2 values put back"
    assert s.trace[-1].describe() == "undo arc consistency: 2 values put back"
    assert replays(s)
    again = s.redo()
    assert again.sentence == "redone: arc consistency; 2 values removed" and not s.arcs()


def test_undo_after_a_wipeout_by_revisions():
    """Notebook 02: WA red, Q green, 20 revisions end in a wipe-out; one undo takes them all
    back, and says how many values came back."""
    s = Session(map_colouring(), inference="none")
    s.set("WA", "red")
    s.set("Q", "green")
    before, queue = s.domains, s.arcs()
    with s.action("arc consistency"):
        while s.arcs() and s.status == "open":
            s.revise(*s.arcs()[0])
    assert s.status == "wipeout" and s.wipeout.var == "SA"
    after = s.domains
    back = s.undo()
    assert s.domains == before and s.arcs() == queue and s.status == "open"
    assert back.sentence == f"undone: arc consistency; {counts(after, before)[1]} values put back"


def test_a_new_action_empties_the_redo_stack():
    s = Session(map_colouring(), inference="fc")
    s.set("WA", "red")
    s.set("Q", "green")
    s.undo()
    assert s.can_redo and s.redo_history == ["set Q = green"]
    s.set("T", "red")
    assert not s.can_redo and s.history == ["set WA = red", "set T = red"]
    with pytest.raises(ValueError, match="nothing to redo"):
        s.redo()


def test_blocks_inside_a_block_are_one_action_and_undo_waits():
    s = Session(map_colouring(), inference="fc")
    with s.action("two moves"):
        s.set("WA", "red")
        with s.action("inner"):
            s.set("Q", "green")
        with pytest.raises(ValueError, match="inside"):
            s.undo()
    assert s.history == ["two moves"]
    s.undo()
    assert s.domains == map_colouring().domains and s.decisions == []


def test_finish_is_undone_and_redone():
    s = Session(map_colouring(), inference="fc")
    s.set("WA", "green")
    before = s.domains
    s.finish()
    solved = s.domains
    assert s.status == "solved" and s.arcs() == []
    s.undo()
    assert s.domains == before and s.status == "open"
    s.redo()
    assert s.domains == solved and s.status == "solved" and replays(s)
    s.set("WA", "red")  # an engine's decision stays a decision when an old one changes
    assert len(s.decisions) > 1 and replays(s)


# -- reading: wipe-outs, counts, the queue --------------------------------------------------------
def test_the_wipeout_names_the_decision_that_led_there():
    s = Session(map_colouring(colours=("red", "green")), inference="fc")
    assert s.wipeout is None
    s.set("WA", "red")
    s.set("NT", "green")
    wipeout = s.wipeout
    assert wipeout.var == "SA" and wipeout.decision == Decision("assign", "NT", "green")
    assert wipeout.sentence == ("a wipe-out: SA has no value left (NT != SA); the last "
                                "decision, NT = green, led here: undo it")
    assert s.hint() is None
    s.undo()
    assert s.wipeout is None and s.hint() is not None  # forward checking left NT != SA


def test_decided_and_one_value_left_are_counted_apart():
    s = Session(map_colouring(), inference="fc")
    s.set("WA", "red")
    s.set("NT", "green")
    assert s.decided == ["WA", "NT"] and s.one_value_left == ["SA"]


def test_the_queue_is_empty_once_solved():
    s = Session(chain_csp(), inference="none")
    s.set("x", 1)
    s.set("y", 2)
    s.set("z", 3)
    assert s.status == "solved" and s.arcs() == []
    s.undo()
    assert s.arcs()  # the queue before the last move, as it was


# -- random sequences: every action undone and redone exactly --------------------------------
PROBLEMS = {"australia": map_colouring, "queens": lambda: queens(5), "chain": chain_csp}
ACTIONS = ["set", "clear", "remove", "restore", "revise", "propagate", "hint", "split",
           "finish", "undo", "redo", "suppose", "reject", "accept", "after"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PROBLEMS)), st.sampled_from(["none", "fc", "mac"]),
       st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 1000),
                          st.integers(0, 1000)), max_size=30))
def test_random_actions_undo_and_redo_exactly(problem, inference, actions):
    s = Session(PROBLEMS[problem](), inference=inference)
    done: list[tuple] = []  # (state before, state after) of each action undo can take back
    undone: list[tuple] = []
    for kind, a, b in actions:
        before, seen = everything(s), look(s)
        try:
            change = act(s, kind, a, b)
        except ValueError:
            assert everything(s) == before, kind
            continue
        now = look(s)
        if kind == "undo":
            pair = done.pop()
            assert now == pair[0], kind
            undone.append(pair)
        elif kind == "redo":
            pair = undone.pop()
            assert now == pair[1], kind
            done.append(pair)
        elif len(s.history) > len(before[2]):
            done.append((seen, now))
            undone.clear()
        else:  # a setting changed, or the engine stopped at its limit: nothing else did
            assert now == seen, kind
        if change is not None:
            gone, back = counts(before[0], s.domains)
            assert (sum(map(len, change.removed.values())),
                    sum(map(len, change.restored.values()))) == (gone, back), kind
            assert values_said(change.sentence, "put back") == back, change.sentence
            assert values_said(change.sentence, "removed") == gone, change.sentence
        assert replays(s), kind
        assert len(s.history) == len(done) and len(s.redo_history) == len(undone)
    while s.can_undo:
        s.undo()
    assert s.domains == {v: tuple(d) for v, d in s.csp.domains.items()} and replays(s)


def look(s: Session) -> tuple:
    return s.domains, s.arcs(), s.status, s.trials, s.pencil, s.decisions


def act(s: Session, kind: str, a: int, b: int):
    """One action of `kind`, its variable and value picked by `a` and `b`."""
    variables = s.csp.variables
    var = variables[a % len(variables)]
    values = (s.domains[var] if b % 3 else ()) or s.csp.domains[var]  # mostly values left
    value = values[b // 3 % len(values)]
    if kind == "after":
        s.after_move = AFTER_MOVE[a % 3]
        return None
    if kind in ("set", "remove", "restore", "suppose"):
        return getattr(s, kind)(var, value)
    if kind == "clear":
        return s.clear(var)
    if kind == "revise":
        arcs = s.arcs() or [(c, c.scope[0]) for c in s.csp.constraints]
        s.revise(*arcs[b % len(arcs)])
        return None
    if kind == "hint":
        hint = s.hint()
        if hint is None:
            raise ValueError("no hint")
        return s.apply(hint)
    if kind == "split":
        return s.split(var)
    if kind == "finish":
        s.finish(max_nodes=50)
        return None
    return getattr(s, kind)()


def test_moves_are_compared_by_identity():
    """Two equal decisions are two moves: the board tells them apart."""
    first, second = Decide("WA", "red", "nothing"), Decide("WA", "red", "nothing")
    assert first != second and first == first
    assert Strike("WA", "red") != Strike("WA", "red")
