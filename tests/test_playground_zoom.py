"""The playground's side of issue 41, without a browser: what the page is sent for a hint's
zoom, and what "why?" says of the removals of the session's propagation.

- The zoom the page receives with a hint is `zoom_frames` of that hint from the domains it
  was made on: one frame for the supposition, one per step of `hint.steps`, one back out;
  a step that zooms itself carries its own zoom (`inner`), as `zoom_lines` indents it.
- "why?" adds "propagation finds this at once ..." to exactly the removals of the session's
  own propagation that the ladder's rules that suppose nothing do not reach from the
  domains just before them, each judged here afresh by `supposed_only`; in the issue's
  example the ladder does reach that value by a trial. A hint applied, a value crossed out
  by hand and a decision never get the words.
"""

from __future__ import annotations

import json
from typing import Any

from csp_puzzles import Session, hashi, towers
from csp_puzzles.core.hints import Hint, available, supposed_only, zoom_lines
from csp_puzzles.core.session import PLAYER
from csp_puzzles.core.trace import PRUNE
from csp_puzzles.puzzle.picture import key, keyed
from csp_puzzles.viz import Playground, shown
from csp_puzzles.viz.packing import CLOSED, STRIDE
from csp_puzzles.viz.words import PHRASES
from csp_puzzles.viz.zoom import zoom_frames

HARD_7X7 = "7x7m2:1a3a2i1a4h2b3a5k4a5a4a2"  # notebook 03's hard 7x7: a trial, one step
EXTREME_4X4 = "4:/3///2////2////1/3//"  # notebook 05's 4x4: a forcing chain, 7 steps
NESTED_6X6 = "6://2/2//4///2/2/3/////1//4/3/3////,l1o3g"  # a trial holding forcing chains
AT_ONCE = str(PHRASES["at_once"])


def at_the_first(session: Session, nested: bool = False) -> Hint:
    """Apply hints until the next one supposes (and, `nested`, has a step that does too)."""
    def wanted(hint: Hint) -> bool:
        return any(step.steps for step in hint.steps) if nested else bool(hint.steps)

    while (hint := session.hint()) is not None and not wanted(hint):
        session.apply(hint)
    assert hint is not None
    return hint


def frame_lines(frames: list[dict[str, Any]], indent: str = "") -> list[str]:
    """The frames' sentences, each zoom inside a step indented under it, as `zoom_lines`
    says them."""
    lines = []
    for frame in frames:
        lines.append(indent + frame["sentence"])
        lines += frame_lines(frame.get("inner", []), indent + "    ")
    return lines


def check_zoom(frames: list[dict[str, Any]], hint: Hint, domains: dict, words: Any) -> None:
    """The frames are the hint's zoom from `domains`: its supposition, its steps in order
    (each step's removals marked, and gone from the frame), back out to `domains`; a step
    that zooms carries its own frames, from the domains before it."""
    assert frames == zoom_frames(hint, domains, words)
    var, value = hint.supposes
    assert frames[0]["marks"] == [[key(var), key(x), "supposed"] for x in hint.removals[var]]
    assert len(frames) == len(hint.steps) + 2
    now = {v: list(values) for v, values in domains.items()}
    now[var] = [x for x in now[var] if x in hint.removals[var]]
    for frame, step in zip(frames[1:], hint.steps):
        removed = sorted([k, x] for k, x, how in frame["marks"] if how == "removed")
        assert removed == sorted([key(v), key(x)] for v, xs in step.removals.items() for x in xs)
        before = {v: list(values) for v, values in now.items()}
        now = {v: [x for x in values if x not in step.removals.get(v, ())]
               for v, values in now.items()}
        assert frame["domains"] == keyed(now)
        assert ("inner" in frame) == bool(step.steps)
        if step.steps:
            check_zoom(frame["inner"], step, before, words)
    assert any(not values for values in now.values())  # the last step: a wipe-out
    assert frames[-1]["domains"] == keyed(domains)  # back out: the board as it was


def test_the_page_is_sent_the_zoom_of_the_hint_shown() -> None:
    for text, nested in ((HARD_7X7, False), (EXTREME_4X4, False), (NESTED_6X6, True)):
        puzzle = (hashi if text.startswith("7x7") else towers).parse(text)
        session = Session(puzzle)
        hint = at_the_first(session, nested)
        play = Playground(session)
        domains = session.domains
        said = play.act("hint")
        assert play.hinted == hint and play.state["hint_steps"] == [s.sentence for s in hint.steps]
        assert hint.sentence in said  # the engine's words, "found at once" included
        assert ("propagation finds this at once" in said) == (hint.at_once is not None)
        frames = play.state["zoom"]
        check_zoom(frames, hint, domains, session.words)
        assert frame_lines(frames) == zoom_lines(hint, session.words)
        assert json.loads(json.dumps(frames)) == frames  # what the page receives, as it is
        if nested:
            assert any("inner" in frame for frame in frames)
        else:
            assert hint.at_once is not None or text != HARD_7X7
        assert session.domains == domains and play.state["zoom"] == frames
        play.act("apply")  # the hint gone, its zoom goes too
        assert play.state["zoom"] == [] and play.state["hint"] is False


def test_a_hint_that_supposes_nothing_sends_no_zoom() -> None:
    play = Playground(hashi.parse(HARD_7X7))
    play.act("hint")
    assert play.hinted is not None and not play.hinted.steps
    assert play.state["zoom"] == [] and play.state["hint_steps"] == []


def removal_events(play: Playground) -> list[int]:
    """The removals of the session's propagation still in force (events from 1): no
    decision, no value crossed out by hand, no hint applied."""
    run = play.replay
    events = json.loads(run["events"])
    trace = play.session.trace
    hinted = {(v, x) for h in play.applied for v, xs in h.removals.items() for x in xs}
    return [at for at, event in enumerate(trace, 1)
            if event.kind == PRUNE and event.cause not in (PLAYER, "split")
            and (event.var, event.value) not in hinted
            and events[(at - 1) * STRIDE + CLOSED] == 0]


class Played(Playground):
    """A playground that remembers the hints applied (to tell their removals apart)."""

    def __init__(self, subject: Any):
        self.applied: list[Hint] = []
        super().__init__(subject)

    def _apply(self) -> str:
        if self.hinted is not None:
            self.applied.append(self.hinted)
        return super()._apply()


def check_why(play: Played) -> list[int]:
    """`at_once` holds exactly the removals of the propagation the rules that suppose
    nothing do not reach from the domains just before them, and "why?" says so of exactly
    those; returns them."""
    trace, ladder = play.session.trace, play.session.ladder
    found = play.replay["at_once"]
    expected = [at for at in removal_events(play)
                if supposed_only(ladder, trace.domains_at(at - 2),
                                 {trace[at - 1].var: (trace[at - 1].value,)})]
    assert found == expected
    run = {**play.replay, "events": json.loads(play.replay["events"])}
    position = len(trace)
    final = trace.domains_at(position - 1)
    present = [[number for number, x in zip(run["init"][v], trace.initial[var])
                if x in final[var]] for v, var in enumerate(trace.variables)]
    said = [line for v in range(len(trace.variables))
            for line in shown.why(run, position, v, present)]
    noted = [line for line in said if line.endswith(AT_ONCE)]
    assert len(noted) == len(found)
    for at in found:
        event = trace[at - 1]
        assert any(f"removed at event {at} by {event.cause}{AT_ONCE}" in line for line in noted)
    return found


def test_why_says_what_propagation_finds_at_once_that_a_person_must_suppose() -> None:
    """Notebook 03's hard 7x7, propagated from the start: of its 30 removals, only the
    isolation rule's refusal to join (0,0) and (2,0) by 1 bridge is out of reach of the
    rules that suppose nothing, and the ladder reaches it by a trial, as the issue says."""
    play = Played(hashi.parse(HARD_7X7))
    play.act("propagate")
    (at,) = check_why(play)
    event = play.session.trace[at - 1]
    assert (event.var, event.value) == ((0, 0, 2, 0), 1)
    assert event.cause.startswith("isolation 1-1")
    before = play.session.trace.domains_at(at - 2)
    trials = [hint for hint in available(play.session.ladder, before)
              if hint.steps and 1 in hint.removals.get((0, 0, 2, 0), ())]
    assert trials and all(hint.supposes == ((0, 0, 2, 0), 1) for hint in trials)


def test_a_hint_applied_a_value_crossed_out_and_a_decision_never_get_the_words() -> None:
    """The trial hint applied removes the same value as the isolation rule would, but a
    person made it: no words; nor for a value crossed out by hand or a decision. Propagation
    after them is judged from where they left the board; an undo leaves nothing wrong."""
    session = Session(hashi.parse(HARD_7X7))
    at_the_first(session)
    play = Played(session)
    play.act("hint")
    play.act("apply")
    assert check_why(play) == []
    play.act("remove", var="(0,0,0,2)", value="0")
    play.act("set", var="(6,4,6,6)", value="2")
    play.act("propagate")
    check_why(play)
    play.act("undo")
    play.act("undo")
    play.act("propagate")
    check_why(play)


def test_towers_full_model_refutes_at_once_what_the_ladder_must_suppose() -> None:
    """The Towers model's clue rule reads both clues of a line at once; from the start of
    this unreasonable 6x6, four of its removals are out of reach of the ladder's rules that
    suppose nothing. Also after moves, with forward checking or propagation after each."""
    play = Played(towers.parse(NESTED_6X6))
    play.act("propagate")
    assert len(check_why(play)) == 4
    play.act("after", how="propagation")
    play.act("set", var="(0,0)", value="4")
    check_why(play)
    play.act("after", how="forward checking")
    play.act("set", var="(5,0)", value="2")
    check_why(play)
