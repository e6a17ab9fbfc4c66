"""The front end of every widget, one ES module joined from parts with one job each.

anywidget takes one module string, and `csp-puzzles export` inlines the same string in a
static page, so the parts in `front/` are joined here, in order, once per import. They share
one scope (no imports between them). The prelude gives them the core's own numbering of
event kinds, the fields of a packed event and the nouns the phrases count (words.py), so
that nothing is written twice.

- base.js: SVG and HTML helpers, filling Python's words, a packed run read as numbers;
- style.js: the theme (JupyterLab's variables, with fallbacks);
- replay.js: the domains after any event (the solver's trail);
- shapes.js, picture.js: the picture of a state, its marks, its keyboard;
- tree.js: the search tree;
- why.js: "why?", the summary and the line under the tree;
- predict.js: predict, then check (the next choice, the next removals);
- explorer.js: the explorer's controls and what it shows;
- code.js: your code, stepped (the code stepper: source, stack, values, picture);
- still.js: a still picture;
- board.js: a puzzle played by its own gestures (drag, click, type), Tatham's;
- graph.js: the constraint graph, AC-3 arc by arc (its queue, AISpace2's fine step);
- session_tree.js: a session's search tree and "why?", replayed while shown;
- zoom.js: a hint that supposes, zoomed into: its frames on the board, step by step;
- playground.js: a search the student drives, or a puzzle played;
- main.js: `render`, which draws the widget the data names.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..core.trace import KINDS
from . import packing, recorder
from .words import COUNTED

FOLDER = Path(__file__).parent / "front"
PARTS = ("base.js", "style.js", "replay.js", "shapes.js", "picture.js", "tree.js", "why.js",
         "predict.js", "explorer.js", "code.js", "still.js", "board.js", "graph.js",
         "session_tree.js", "zoom.js", "playground.js", "main.js")
FIELDS = ("KIND", "VAR", "VALUE", "CAUSE", "DEPTH", "SAID", "ROW", "CLOSED")
#: the fields of a recorded step (recorder.py), C_ before each name in the page
CODE_FIELDS = ("KIND", "LINE", "CODE", "FRAME", "DEPTH", "CALLER", "SNAP", "SOURCE", "PLACE",
               "VALUE")


def prelude() -> str:
    """The constants the parts share, from the core's and the packing's own lists."""
    kinds = ", ".join(f"{kind.upper()} = {i}" for i, kind in enumerate(KINDS))
    fields = ", ".join(f"{name} = {getattr(packing, name)}" for name in FIELDS)
    code_fields = ", ".join(f"C_{name} = {getattr(recorder, name)}" for name in CODE_FIELDS)
    return (f"const KIND_NAMES = {json.dumps(list(KINDS))};\n"
            f"const {kinds};\n"
            f"const STRIDE = {packing.STRIDE}, {fields};\n"
            f"const COUNTED = {json.dumps(list(COUNTED))};\n"
            f"const {code_fields}, C_STRIDE = {recorder.STRIDE}, "
            f"C_LINE_STEP = {recorder.LINE_STEP}, C_RETURN = {recorder.RETURN_STEP};\n")


def module() -> str:
    """The whole ES module: the prelude, then each part present, in order."""
    parts = [prelude()]
    for name in PARTS:
        path = FOLDER / name
        if path.exists():
            parts.append(f"// ---- {name} " + "-" * (80 - len(name)) + "\n"
                         + path.read_text(encoding="utf-8"))
    return "\n".join(parts)
