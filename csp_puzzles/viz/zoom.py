"""A hint's zoom as frames a page draws on the board: the supposition, each step, and back
out (core/hints.py says what a zoom is).

Each frame is plain data, variables and values named by their keys as a picture reads them
(`puzzle.picture.key`): `domains`, every variable's values in that frame; `marks`, a list of
[variable, value or None, kind] with kind "supposed" (the value supposed, in every frame of
the zoom), "read" and "removed" (a step's), "wipeout" (the variable the last step leaves
with no value) or "concluded" (what the hint removes, on the way back out); and `sentence`,
the frame in words (the lines of `zoom_lines`: a step that zooms itself is one frame, its
own zoom in its hint). The first frame is the supposition, one frame follows per step, and
the last is the board as it is, with the hint's removals marked.

A step that zooms itself (a forcing chain inside a trial of Towers' unreasonable rung) has
its own zoom in its frame's `inner`: the frames of `zoom_frames(step, domains)` from the
domains that step was made on (the frame before), so a page can open it in turn.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
from typing import Any

from ..core.hints import Hint, Words, conclusion_line, step_line, supposition_line
from ..puzzle.picture import key, keyed

Frame = dict[str, Any]


def zoom_frames(hint: Hint, domains: Mapping[Hashable, Collection[Any]],
                words: Words) -> list[Frame]:
    """The frames of `hint`'s zoom from `domains` (the domains the hint was made on, in
    their order); empty for a hint that supposes nothing."""
    if hint.supposes is None:
        return []
    var = hint.supposes[0]
    supposed = [[key(var), key(x), "supposed"] for x in hint.removals[var]]
    now = {v: [x for x in values if v != var or x in hint.removals[var]]
           for v, values in domains.items()}
    frames = [_frame(now, supposed, supposition_line(hint, words))]
    for number, step in enumerate(hint.steps, 1):
        last = number == len(hint.steps)
        marks = supposed + [[key(v), None, "read"] for v in step.because
                            if v not in step.removals]
        marks += [[key(v), key(x), "removed"] for v, values in step.removals.items()
                  for x in values]
        before, now = now, {v: [x for x in values if x not in step.removals.get(v, ())]
                            for v, values in now.items()}
        marks += [[key(v), None, "wipeout"] for v in step.removals if not now[v]]
        frames.append(_frame(now, marks, step_line(step, last)))
        if step.steps:
            frames[-1]["inner"] = zoom_frames(step, before, words)
    back = {v: list(values) for v, values in domains.items()}
    concluded = [[key(v), key(x), "concluded"] for v, values in hint.removals.items()
                 for x in values]
    frames.append(_frame(back, concluded, conclusion_line(hint, words)))
    return frames


def _frame(domains: Mapping[Hashable, Collection[Any]], marks: list[list[Any]],
           sentence: str) -> Frame:
    return {"domains": keyed(domains), "marks": marks, "sentence": sentence}
