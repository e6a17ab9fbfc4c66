"""A recording (`recorder.py`) as the code stepper's page receives it, and what the page
shows at a step, computed in Python from the same data.

The page (front/code.js) gets the steps as one flat list of numbers, the source of every
function that ran, and, when there is a picture, each distinct state of the domains keyed
as the picture names variables and values. It moves, jumps and asks by itself; the
functions here (`sentence`, `target`, `question`, `check_removals`, `check_return`) say
the same in Python, and the tests hold the two to each other.

Positions count from 0: position i shows step i, whose line is about to run (or, for a
return, has just returned).
"""

from __future__ import annotations

import base64
import os
import sys
from array import array
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

from ..core.trace import show
from . import recorder as rec
from .still import listed_values
from .words import PHRASES, fill

#: the words of the code stepper (the slots are words.fill's)
CODE_PHRASES = {
    "heading": "step {k} of {n}: ",
    "line": "line {m} of {name}, depth {depth}",
    "returns": "{name} returns {value}, depth {depth}",
    "raises": "{name} {value}, depth {depth}",
    "summary": "{n} steps recorded",
    "no_source": ("the source of {name} is not available ({other}: code typed at a prompt or "
                  "run from a string); its lines are numbered, not shown"),
    "missing_line": "(no source)",
    "cut": ("the recording stopped at {n} steps (the cap, max_lines); the function ran on "
            "to its end"),
    "raised": "the function raised {value}",
    "no_picture": "no domains in this frame or its callers: every value shown",
    "picture_of": "the picture shows {name} of {other}",
    "stack": "calls: {values}",
    "frame": "{name} (line {m})",
    "watched": "values",
    "absent": "(none of the watched names is defined here)",
    "changed": "changed",
    "code": ("the source: Tab to it, then the up and down arrows move between lines; Enter "
             "or a click sets or clears a breakpoint"),
    "breakpoint_on": "breakpoint set at line {m}",
    "breakpoint_off": "breakpoint cleared at line {m}",
    "keys": ("keys: → step, ← back, ↓ over (the next line of this function), c next call, "
             "s next time a domain shrinks, r next return, b next breakpoint, Home, End"),
    "legend": ("the current line (about to run) is marked ▶ and bold; the line that ran just "
               "before is marked ›; ● a breakpoint. In the picture, dashed orange outlines "
               "the variables that lost values at this step"),
    "cell": "a cell of this notebook",
    # jumps
    "jump_line": "no more steps ahead",
    "jump_over": "no more steps ahead",
    "jump_call": "no more calls ahead",
    "jump_shrink": "no domain shrinks after this step",
    "jump_return": "no more returns ahead",
    "jump_breakpoint": "no breakpoint ahead (click a line to set one)",
    # predict, then check
    "ask_removals": ("Which values will go when line {m} runs? Click a variable in the "
                     "picture, pick its values, then press check."),
    "ask_return": "What will {name} return?",
    "ask_return_free": "What will {name} return? Type its repr, then press check.",
    "ask_nothing_return": "Nothing to predict here: {name} returns {value}.",
    "ask_nothing_raise": "Nothing to predict here: {name} {value}.",
    "ask_nothing_end": "Nothing to predict here: the recording ends before {name} returns.",
    "right_return": "Right: {name} returns {value} (step {k}).",
    "wrong_return": "Not this time: {name} returns {value} (step {k}), not {other}.",
    "right_removals": "Right: exactly those go ({n} values).",
    "some_removals": "{right} of {total} right.",
    "missed": "missed: {value} from {name}",
    "not_removed": "not removed: {value} from {name}",
    "answer": "your answer",
    "predict": "predict what this line does",
}
#: the jumps, in the order of the buttons
JUMP_KINDS = ("line", "over", "call", "shrink", "return", "breakpoint")
#: at most this many distinct return values are offered as buttons; beyond, the answer is typed
MOST_CHOICES = 6
#: the longest a watched value is said in the live region
SAID_LENGTH = 80

Run = dict[str, Any]


def page_data(recording: rec.Recording, view: Any = None, title: str = "",
              initial: Mapping[Hashable, Sequence[Any]] | None = None) -> Run:
    """The recording as the page receives it; `view` (a `View`) draws the domains, and
    `initial` (the CSP's domains, when known) gives the values a variable may take."""
    codes, files = listing(recording)
    data: Run = {
        "widget": "code", "title": title, "watch": recording.watch,
        "stride": recording.stride, "fields": rec.STRIDE,
        "steps": numbers_text(recording.flat),
        "total": len(recording), "texts": recording.texts, "codes": codes, "files": files,
        "returns": returns_of(recording), "truncated": recording.truncated,
        "places": [[place, code] for place, code in recording.places],
        "note": note(recording), "phrases": {**PHRASES, **CODE_PHRASES},
        "most_choices": MOST_CHOICES, "said_length": SAID_LENGTH, "picture": None,
    }
    if view is not None and getattr(view, "picture", None) is not None:
        data.update(pictured(recording, view, initial))
        data["shrinks"] = shrinks(recording, Shown(recording, data).removed_between)
    else:
        snaps = recording.snapshots
        data["shrinks"] = shrinks(recording, lambda a, b: removals(snaps[a], snaps[b]))
    return data


def numbers_text(numbers: list[int]) -> str:
    """Numbers as text the page reads at once: base64 of 32-bit little-endian integers. The
    widget machinery passes a string on as it is, an exported page inlines it, and neither
    walks through a million numbers (JSON text of them takes a second to write here)."""
    packed = array("i", numbers)
    if sys.byteorder == "big":
        packed.byteswap()
    return base64.b64encode(packed.tobytes()).decode("ascii")


def numbers_of(text: str) -> list[int]:
    """The numbers `numbers_text` wrote."""
    packed = array("i")
    packed.frombytes(base64.b64decode(text))
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tolist()


def note(recording: rec.Recording) -> str:
    """What the page says of the recording, above the code: how many steps, the cap
    reached, an exception raised."""
    said = [fill(CODE_PHRASES["summary"], n=len(recording)), *missing_sources(recording)]
    if recording.truncated:
        said.append(fill(CODE_PHRASES["cut"], n=len(recording)))
    if recording.exception is not None:
        said.append(fill(CODE_PHRASES["raised"], value=repr(recording.exception)))
    return "; ".join(said)


# -- the source ---------------------------------------------------------------------------
def file_label(path: str, module_globals: Mapping[str, Any]) -> str:
    """How the page names a file: a notebook cell, or the module's path."""
    base = os.path.basename(path)
    if path.startswith("<ipython-input") or "ipykernel_" in path or path.startswith("<cell"):
        return CODE_PHRASES["cell"]
    module = module_globals.get("__name__", "")
    if module and module != "__main__" and module_globals.get("__file__") == path:
        return module.replace(".", "/") + ".py"
    return base


def listing(recording: rec.Recording) -> tuple[list[list[Any]], list[dict[str, Any]]]:
    """Each function that ran as [name, file number, first line, last line], and each file
    as its label and blocks of source lines [first line number, [lines]] (the spans of the
    functions that ran, merged where they overlap)."""
    paths: list[str] = []
    for info in recording.codes:
        if info.file not in paths:
            paths.append(info.file)
    codes = [[info.label, paths.index(info.file), info.first, info.last]
             for info in recording.codes]
    files = []
    for path in paths:
        first_code = next(i for i in recording.codes if i.file == path)
        lines = rec.source_lines(first_code, recording.globals)
        spans = sorted((info.first, info.last) for info in recording.codes if info.file == path)
        merged: list[list[int]] = []
        for first, last in spans:
            if merged and first <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], last)
            else:
                merged.append([first, last])
        blocks = [[first, [line.rstrip("\r\n").expandtabs() for line in lines[first - 1:last]]
                   if lines else [CODE_PHRASES["missing_line"]] * (last - first + 1)]
                  for first, last in merged]
        files.append({"label": file_label(path, recording.globals), "path": path,
                      "blocks": blocks, "missing": not lines})
    return codes, files


def missing_sources(recording: rec.Recording) -> list[str]:
    """What the page says of each file whose source is not available."""
    said, seen = [], set()
    for info in recording.codes:
        if info.file not in seen and not rec.source_lines(info, recording.globals):
            said.append(fill(CODE_PHRASES["no_source"], name=info.name, other=info.file))
        seen.add(info.file)
    return said


def returns_of(recording: rec.Recording) -> dict[str, list[int]]:
    """For each function (by number), the distinct values it returned, in order seen."""
    found: dict[str, list[int]] = {}
    flat, stride = recording.flat, recording.stride
    for kind, code, value in zip(flat[rec.KIND::stride], flat[rec.CODE::stride],
                                 flat[rec.VALUE::stride]):
        if kind != rec.LINE_STEP:
            values = found.setdefault(str(code), [])
            if value not in values:
                values.append(value)
    return found


# -- the domains ----------------------------------------------------------------------------
def removals(before: tuple[str, tuple], after: tuple[str, tuple]) -> list[tuple[Hashable, Any]]:
    """The (variable, value) pairs of `before` gone in `after`, variables in `before`'s order."""
    now = rec.values_of(after)
    gone = []
    for var, values in rec.values_of(before).items():
        if var in now:
            left = set(now[var])
            gone += [(var, x) for x in values if x not in left]
    return gone


def shrinks(recording: rec.Recording,
            removed: Callable[[int, int], Sequence[Any]]) -> list[int]:
    """The steps at which a domain shrank: the same domains as the step before (the same
    source), and `removed(snapshot before, snapshot after)` not empty."""
    flat, stride = recording.flat, recording.stride
    snaps, sources = flat[rec.SNAP::stride], flat[rec.SOURCE::stride]
    found: list[int] = []
    known: dict[tuple[int, int], bool] = {}
    for i in range(1, len(snaps)):
        a, b = snaps[i - 1], snaps[i]
        if a == b or b < 0 or sources[i] != sources[i - 1]:
            continue
        gone = known.get((a, b))
        if gone is None:
            gone = known[a, b] = bool(removed(a, b))
        if gone:
            found.append(i)
    return found


class _Values:
    """Values numbered by their keys in the picture (`show`), each with its words."""

    def __init__(self, word_of: Callable[[Any], str]):
        self.word_of = word_of
        self.number: dict[str, int] = {}
        self.keys: list[str] = []
        self.words: list[str] = []
        self.worded: set[int] = set()  # the values whose words came from a real value
        self.domains: dict[tuple, list[int]] = {}

    def of_key(self, key: str) -> int:
        if key not in self.number:
            self.number[key] = len(self.keys)
            self.keys.append(key)
            self.words.append(key)
        return self.number[key]

    def of(self, x: Any) -> int:
        n = self.of_key(show(x))
        if n not in self.worded:
            self.worded.add(n)
            self.words[n] = self.word_of(x)
        return n

    def of_domain(self, domain: tuple) -> list[int]:
        """A domain's value numbers (kept per domain: 1 and True are told apart)."""
        known = (tuple(map(type, domain)), domain)
        found = self.domains.get(known)
        if found is None:
            found = self.domains[known] = [self.of(x) for x in domain]
        return found


def pictured(recording: rec.Recording, view: Any,
             initial: Mapping[Hashable, Sequence[Any]] | None) -> Run:
    """The picture and every distinct state in its keys: `sets` are value lists (numbers
    into `values`), and each snapshot is one set number per variable of the picture; `all`
    lists each variable's values (the description's, the CSP's, then any seen)."""
    entries = view.picture["variables"]
    keys = [entry["var"] for entry in entries]
    by_key = {k: v for v, k in enumerate(keys)}
    values = _Values(getattr(view, "value", None) or str)
    seen: list[list[int]] = [[values.of_key(k) for k in listed_values(entry) or ()]
                             for entry in entries]
    for var, domain in (initial or {}).items():
        at = by_key.get(show(var))
        if at is not None:
            seen[at] += [n for n in values.of_domain(tuple(domain)) if n not in seen[at]]
    states = []
    for snap in recording.snapshots:
        state = {}
        for var, domain in rec.values_of(snap).items():
            at = by_key.get(show(var))
            if at is not None:
                state[at] = values.of_domain(domain)
                seen[at] += [n for n in state[at] if n not in seen[at]]
        states.append(state)
    sets: dict[tuple[int, ...], int] = {}
    flat: list[int] = []
    orders = [_order(numbers) for numbers in seen]
    for state in states:
        for v in range(len(keys)):
            ordered = tuple(sorted(state.get(v, seen[v]), key=orders[v]))
            flat.append(sets.setdefault(ordered, len(sets)))
    name = getattr(view, "name", None) or show
    return {"picture": view.picture, "keys": keys, "values": values.keys,
            "words": values.words, "all": seen, "sets": [list(s) for s in sets],
            "names": [entry.get("name") or name(entry["var"]) for entry in entries],
            "snapshots": numbers_text(flat)}


def _order(numbers: list[int]) -> Any:
    rank = {n: i for i, n in enumerate(numbers)}
    return lambda n: rank.get(n, len(rank) + n)


# -- what the page shows at a step ----------------------------------------------------------
class Shown:
    """What the page shows and answers at each step, computed from the same data."""

    def __init__(self, recording: rec.Recording, data: Run):
        self.recording, self.data = recording, data
        self.get = recording.get
        self.total = len(recording)
        self.names = [info.label for info in recording.codes]
        self.files = [info.file for info in recording.codes]
        self.snapshots = numbers_of(data["snapshots"]) if data["picture"] else []
        self.width = len(data.get("keys", ()))
        self._removed: dict[tuple[int, int], list[tuple[int, int]]] = {}

    def function(self, i: int) -> str:
        return self.names[self.get(i, rec.CODE)]

    def sentence(self, i: int) -> str:
        """The line under the code: where the replay stands."""
        heading = fill(CODE_PHRASES["heading"], k=i + 1, n=self.total)
        depth, name, kind = self.get(i, rec.DEPTH), self.function(i), self.get(i, rec.KIND)
        if kind != rec.LINE_STEP:
            phrase = "returns" if kind == rec.RETURN_STEP else "raises"
            return heading + fill(CODE_PHRASES[phrase], name=name, depth=depth,
                                  value=self.recording.text(self.get(i, rec.VALUE)))
        return heading + fill(CODE_PHRASES["line"], m=self.get(i, rec.LINE), name=name,
                              depth=depth)

    def state(self, i: int) -> list[list[int]] | None:
        """The picture's state at step `i`: for each variable, its value numbers left."""
        snap = self.get(i, rec.SNAP)
        if snap < 0 or not self.snapshots:
            return None
        sets, w = self.data["sets"], self.width
        return [sets[n] for n in self.snapshots[snap * w:(snap + 1) * w]]

    def removed(self, i: int, j: int) -> list[tuple[int, int]]:
        """The (variable, value) numbers shown at step `i` and gone at step `j`, when both
        show the same domains (in the picture's order)."""
        source = self.get(i, rec.SOURCE)
        if source < 0 or source != self.get(j, rec.SOURCE) or not self.snapshots:
            return []
        return self.removed_between(self.get(i, rec.SNAP), self.get(j, rec.SNAP))

    def removed_between(self, a: int, b: int) -> list[tuple[int, int]]:
        """The (variable, value) numbers of snapshot `a` not in snapshot `b`."""
        found = self._removed.get((a, b))
        if found is None:
            sets, w = self.data["sets"], self.width
            before, after = self.snapshots[a * w:(a + 1) * w], self.snapshots[b * w:(b + 1) * w]
            found = self._removed[a, b] = [
                (v, x) for v, (s, t) in enumerate(zip(before, after)) if s != t
                for x in sets[s] if x not in sets[t]]
        return found

    def target(self, i: int, kind: str, breakpoints: Iterable[tuple[str, int]] = (),
               function: str | None = None) -> int | None:
        """The step a jump of `kind` from step `i` lands on (None: none ahead). With
        `function`, only a step of the function of that name counts."""
        get, stops, shrinking = self.get, set(breakpoints), set(self.data["shrinks"])
        highest = max((get(j, rec.FRAME) for j in range(i + 1)), default=0)
        for j in range(i + 1, self.total):
            new_frame = get(j, rec.FRAME) > highest
            highest = max(highest, get(j, rec.FRAME))
            if function is not None and self.function(j).split(".")[-1] != function:
                continue
            line = get(j, rec.KIND) == rec.LINE_STEP
            if (kind == "line"
                    or (kind == "over" and get(j, rec.DEPTH) <= get(i, rec.DEPTH))
                    or (kind == "call" and new_frame)
                    or (kind == "shrink" and j in shrinking)
                    or (kind == "return" and not line)
                    or (kind == "breakpoint" and line
                        and (self.files[get(j, rec.CODE)], get(j, rec.LINE)) in stops)):
                return j
        return None

    def finished(self, i: int) -> int | None:
        """The step after line `i` has run: the next step at its depth or shallower."""
        depth = self.get(i, rec.DEPTH)
        return next((j for j in range(i + 1, self.total) if self.get(j, rec.DEPTH) <= depth),
                    None)

    def returning(self, i: int) -> int | None:
        """The step where the frame of step `i` returns (None: not recorded)."""
        frame = self.get(i, rec.FRAME)
        return next((j for j in range(i, self.total) if self.get(j, rec.FRAME) == frame
                     and self.get(j, rec.KIND) != rec.LINE_STEP), None)

    def question(self, i: int) -> dict[str, Any]:
        """What "predict" asks at step `i`: the values of the picture that go while its line
        runs (`ask` "removals", `answer` the (variable, value) numbers), else what its
        function returns ("return", `answer` the text, `choices` the values it ever
        returned, [] when too many to list), or nothing ("nothing"). `k` is the step that
        answers it."""
        name, text, kind = self.function(i), self.recording.text, self.get(i, rec.KIND)
        if kind != rec.LINE_STEP:
            phrase = "ask_nothing_return" if kind == rec.RETURN_STEP else "ask_nothing_raise"
            return {"ask": "nothing", "k": i, "text": fill(
                CODE_PHRASES[phrase], name=name, value=text(self.get(i, rec.VALUE)))}
        end = self.finished(i)
        gone = self.removed(i, end) if end is not None else []
        if gone:
            return {"ask": "removals", "k": end, "answer": gone,
                    "text": fill(CODE_PHRASES["ask_removals"], m=self.get(i, rec.LINE))}
        back = self.returning(i)
        if back is None:
            return {"ask": "nothing", "k": i,
                    "text": fill(CODE_PHRASES["ask_nothing_end"], name=name)}
        seen = self.data["returns"].get(str(self.get(i, rec.CODE)), [])
        choices = [self.recording.texts[n] for n in seen] if len(seen) <= MOST_CHOICES else []
        phrase = "ask_return" if choices else "ask_return_free"
        return {"ask": "return", "k": back, "answer": text(self.get(back, rec.VALUE)),
                "choices": choices, "text": fill(CODE_PHRASES[phrase], name=name)}

    def check_return(self, i: int, answer: str) -> str:
        """Right or wrong, for `answer` (a repr) as what the function of step `i` returns."""
        asked = self.question(i)
        slots = {"name": self.function(i), "value": asked.get("answer"), "k": asked["k"] + 1}
        if " ".join(answer.split()) == " ".join(str(asked.get("answer")).split()):
            return fill(CODE_PHRASES["right_return"], **slots)
        return fill(CODE_PHRASES["wrong_return"], other=answer, **slots)

    def check_removals(self, i: int, picked: Iterable[tuple[int, int]]) -> str:
        """Right or wrong, for the (variable, value) numbers `picked` as the values that go
        while the line of step `i` runs."""
        expected = list(self.question(i).get("answer", []))
        chosen = set(picked)
        if chosen == set(expected):
            return fill(CODE_PHRASES["right_removals"], n=len(expected))
        names, words = self.data["names"], self.data["words"]
        lines = [fill(CODE_PHRASES["some_removals"], right=len(chosen & set(expected)),
                      total=len(expected))]
        lines += [fill(CODE_PHRASES["missed"], name=names[v], value=words[x])
                  for v, x in expected if (v, x) not in chosen]
        lines += [fill(CODE_PHRASES["not_removed"], name=names[v], value=words[x])
                  for v, x in sorted(chosen - set(expected))]
        return " ".join(lines)
