"""A hint's zoom as the frames a page draws: the supposition marked in every frame, each
step's removals taken from the frame before, the last step leaving a variable with no
value, and back out to the board as it is; the words are the zoom's own lines."""

from __future__ import annotations

from csp_puzzles import Session, hashi, towers
from csp_puzzles.core.hints import zoom_lines
from csp_puzzles.puzzle.picture import key, keyed
from csp_puzzles.viz.zoom import zoom_frames

HARD_7X7 = "7x7m2:1a3a2i1a4h2b3a5k4a5a4a2"  # notebook 03's hard 7x7
UNREASONABLE_4X4 = "4:/3///2////2////1/3//"  # notebook 05's unreasonable 4x4


def first_trial(session: Session):
    while (hint := session.hint()) is not None and not hint.steps:
        session.apply(hint)
    assert hint is not None
    return hint


def test_frames_follow_the_zoom_and_come_back_out():
    for puzzle in (hashi.parse(HARD_7X7), towers.parse(UNREASONABLE_4X4)):
        session = Session(puzzle)
        hint = first_trial(session)
        frames = zoom_frames(hint, session.domains, session.words)
        assert len(frames) == len(hint.steps) + 2
        var, value = hint.supposes
        supposed = [key(var), key(value), "supposed"]
        first = frames[0]["domains"]
        assert first[key(var)] == [key(x) for x in hint.removals[var]]
        for before, after, step in zip(frames, frames[1:], hint.steps):
            assert supposed in after["marks"]
            for v, values in step.removals.items():
                assert {key(x) for x in values} <= set(before["domains"][key(v)])
                assert not {key(x) for x in values} & set(after["domains"][key(v)])
                assert all([key(v), key(x), "removed"] in after["marks"] for x in values)
        emptied = [mark[0] for mark in frames[-2]["marks"] if mark[2] == "wipeout"]
        assert emptied and all(frames[-2]["domains"][v] == [] for v in emptied)
        assert frames[-1]["domains"] == keyed(session.domains)  # back out: the board
        concluded = [[key(v), key(x), "concluded"] for v, values in hint.removals.items()
                     for x in values]
        assert frames[-1]["marks"] == concluded
        lines = [line for line in zoom_lines(hint, session.words) if not line.startswith(" ")]
        assert [frame["sentence"] for frame in frames] == lines


def test_a_hint_that_supposes_nothing_has_no_frames():
    session = Session(hashi.parse(HARD_7X7))
    hint = session.hint()
    assert hint is not None and not hint.steps
    assert zoom_frames(hint, session.domains, session.words) == []
