"""Recording a Python function line by line, for the code stepper (`code_stepper.py`).

`record(function, args, kwargs)` runs `function(*args, **kwargs)` under `sys.settrace` and
keeps one *step* for each line the interpreter is about to run and one for each return,
in the function and in the functions of its own module that it calls (those whose globals
are the function's: a library module, or a notebook's cells). A step holds the line, the
function, the call stack's depth and, as `repr` strings, the values of the watched names
then; and, when a frame on the stack holds the domains of a CSP (or an assignment), a
snapshot of them for the picture.

What is recorded, exactly (the tests hold an independent `sys.settrace` recorder to it):

- frames of the function's module called from a recorded frame (or the first call of the
  function itself); comprehensions, generator expressions and lambdas are part of the
  line that runs them, so they and what they call are not recorded;
- a `line` event is a step, unless it repeats the step just before (the same frame and
  line: a line that loops on itself is one step); a `return` event is a step, of kind
  "return" with the returned value's repr, or "raise" with "raises " and the repr of the
  exception the frame let out;
- at most `max_lines` steps: past that, recording stops and the function runs on to its
  end, and `truncated` says so.

Steps are kept as numbers in one flat list (`STRIDE` numbers each, then one per watched
name), strings once each in `texts`, so that 100,000 steps stay small and quick to send.
"""

from __future__ import annotations

import functools
import inspect
import linecache
import sys
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from types import CodeType, FrameType
from typing import Any

#: steps a recording keeps by default; past it, recording stops and says so
MAX_LINES = 100_000
#: the longest repr kept for a watched value; a longer one is cut and ends with "…"
MAX_REPR = 1_000
#: the names watched by default (a name absent from a frame is simply not shown there)
DEFAULT_WATCH = ("assignment", "domains", "queue", "var", "value")
#: where a frame may hold the CSP's domains or assignment, first found first: a mapping
#: whose values are collections is domains; one whose values are single values is an
#: assignment (variables missing from it keep every value)
STATE_PLACES = ("trial", "domains", "assignment", "state.domains", "self.state.domains",
                "self.domains", "self.assignment")
COLLECTIONS = (list, tuple, set, frozenset, range)

#: the numbers of one step, then one per watched name (the number of its text, -1: absent):
#: kind, line, function (`codes`), frame (numbered from 1 as frames start), depth, caller
#: (the step of the calling frame, -1: none), state (`snapshots`), source (the mapping the
#: state was read from, numbered by identity), place (`places`: where it was found), value
#: (a return's text)
STRIDE = 10
KIND, LINE, CODE, FRAME, DEPTH, CALLER, SNAP, SOURCE, PLACE, VALUE = range(STRIDE)
#: kinds of step
LINE_STEP, RETURN_STEP, RAISE_STEP = 0, 1, 2
KINDS = ("line", "return", "raise")
#: snapshot kinds
DOMAINS, ASSIGNMENT = "domains", "assignment"

_MISSING = object()


@dataclass
class CodeInfo:
    """A function that ran: its name, its name as the page says it (a method with its
    class), its file, and the lines its source spans."""

    name: str
    label: str
    file: str
    first: int
    last: int
    code: CodeType


@dataclass
class Recording:
    """What `record` kept: the steps as numbers, and the tables the numbers point into."""

    watch: list[str]
    flat: list[int] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    codes: list[CodeInfo] = field(default_factory=list)
    #: the distinct states seen: (kind, ((variable, values), ...)); values a tuple
    snapshots: list[tuple[str, tuple]] = field(default_factory=list)
    #: where a state's mapping was found: (the place, the function's number)
    places: list[tuple[str, int]] = field(default_factory=list)
    result: Any = None
    exception: BaseException | None = None
    truncated: bool = False
    max_lines: int = MAX_LINES
    globals: dict[str, Any] = field(default_factory=dict)

    @property
    def stride(self) -> int:
        return STRIDE + len(self.watch)

    def __len__(self) -> int:
        return len(self.flat) // self.stride

    def get(self, i: int, which: int) -> int:
        """One number of step `i` (counting from 0)."""
        return self.flat[i * self.stride + which]

    def text(self, number: int) -> str | None:
        return None if number < 0 else self.texts[number]


class Step:
    """One recorded step, read from the recording when asked: `line`, `function`, `locals`
    (the watched names present then, as repr strings), `depth`, `kind` ("line", "return"
    or "raise"), `file`, `frame` (its frame's number: frames are numbered from 1 as they
    start) and `value` (a return's value as a repr string, a raise's "raises " and the
    exception's repr, a line's None)."""

    __slots__ = ("_recording", "index")

    def __init__(self, recording: Recording, index: int):
        self._recording = recording
        self.index = index

    @property
    def line(self) -> int:
        return self._recording.get(self.index, LINE)

    @property
    def function(self) -> str:
        return self._recording.codes[self._recording.get(self.index, CODE)].name

    @property
    def file(self) -> str:
        return self._recording.codes[self._recording.get(self.index, CODE)].file

    @property
    def kind(self) -> str:
        return KINDS[self._recording.get(self.index, KIND)]

    @property
    def depth(self) -> int:
        return self._recording.get(self.index, DEPTH)

    @property
    def frame(self) -> int:
        return self._recording.get(self.index, FRAME)

    @property
    def value(self) -> str | None:
        return self._recording.text(self._recording.get(self.index, VALUE))

    @property
    def locals(self) -> dict[str, str]:
        r = self._recording
        start = self.index * r.stride + STRIDE
        return {name: r.texts[n] for name, n in zip(r.watch, r.flat[start:start + len(r.watch)])
                if n >= 0}

    def __repr__(self) -> str:
        return f"Step({self.index}: {self.kind} {self.function} line {self.line})"


def steps_of(recording: Recording) -> list[Step]:
    """The recording's steps as a list of `Step`."""
    return [Step(recording, i) for i in range(len(recording))]


def target_of(function: Callable) -> Callable:
    """The Python function behind a bound method or a `functools.partial`."""
    inner: Any = function
    while True:
        if isinstance(inner, functools.partial):
            inner = inner.func
        elif inspect.ismethod(inner):
            inner = inner.__func__
        else:
            break
    inner = inspect.unwrap(inner)
    if not inspect.isfunction(inner):
        raise TypeError(f"CodeStepper steps a Python function; {function!r} is not one "
                        "(a built-in or a class has no lines to step)")
    return inner


def record(function: Callable, args: Sequence[Any] = (), kwargs: Mapping[str, Any] | None = None,
           watch: Sequence[str] = (), max_lines: int = MAX_LINES,
           run: Callable[[], Any] | None = None) -> Recording:
    """Run `function(*args, **kwargs)` and record it (see the module's docstring).

    With `run`, `run()` is called instead, and the first call of `function` it makes is
    the one recorded (a function stepped where a bigger computation calls it).
    """
    target = target_of(function)
    names = list(dict.fromkeys([*DEFAULT_WATCH, *watch]))
    recorder = _Recorder(target, names, max_lines)
    recording = recorder.recording
    old = sys.gettrace()
    sys.settrace(recorder.on_call)
    try:
        outcome = run() if run is not None else function(*args, **(kwargs or {}))
        if run is None:
            recording.result = outcome
    except Exception as error:  # the student's code may fail: the steps show where
        recording.exception = error
    finally:
        sys.settrace(old)
        recorder.stop()
    if run is not None and not recorder.started:
        raise ValueError(f"{target.__name__} was never called: nothing to step")
    if not recording.flat:
        raise ValueError(f"{target.__name__} ran no line: a generator function runs only "
                         "when iterated (step a function that iterates it: list(...))")
    if recorder.done and run is not None:
        recording.result = recorder.returned
    recording.codes = recorder.code_infos()
    return recording


class _Frame:
    """What the recorder keeps about a recorded frame while it runs."""

    __slots__ = ("serial", "depth", "caller", "code", "parent", "last", "raising", "state")

    def __init__(self, serial: int, depth: int, caller: int, code: int,
                 parent: _Frame | None) -> None:
        self.serial, self.depth, self.caller, self.code = serial, depth, caller, code
        self.parent = parent
        self.last = -1  # its latest step
        self.raising: BaseException | None = None
        #: its latest domains or assignment: (kind, mapping, the place it was found)
        self.state: tuple[str, Any, str] | None = None


class _Recorder:
    """The trace functions of one recording, and the numbering of what they see."""

    def __init__(self, target: Callable, watch: list[str], max_lines: int):
        self.code = target.__code__
        self.globals = target.__globals__
        self.recording = Recording(watch=watch, max_lines=max_lines, globals=self.globals)
        self.flat = self.recording.flat
        self.watch = [name.split(".") for name in watch]
        self.frames: dict[FrameType, _Frame] = {}
        self.code_number: dict[CodeType, int] = {}
        self.text_number: dict[str, int] = {}
        self.snap_number: dict[tuple, int] = {}
        self.source_number: dict[int, int] = {}
        self.place_number: dict[tuple[str, int], int] = {}
        self.sources: list[Any] = []  # held, so that no id is reused while recording
        self.started = self.done = False
        self.returned: Any = None
        self.serials = 0
        self.limit = max_lines * (STRIDE + len(watch))
        self.previous = (-1, -1)  # (frame serial, line) of the step just recorded

    # -- the trace functions ---------------------------------------------------------------
    def on_call(self, frame: FrameType, event: str, arg: Any) -> Any:
        """The global trace function: which new frames are recorded."""
        if event != "call" or self.done or frame.f_globals is not self.globals:
            return None
        code = frame.f_code
        if code.co_name.startswith("<"):
            return None  # a comprehension, a generator expression or a lambda
        parent = self.frames.get(frame.f_back) if frame.f_back is not None else None
        if parent is None:
            if self.started or code is not self.code:
                return None
            self.started = True  # the first call of the function: the one recorded
        number = self.code_number.setdefault(code, len(self.code_number))
        self.serials += 1
        self.frames[frame] = _Frame(self.serials, 1 if parent is None else parent.depth + 1,
                                    -1 if parent is None else parent.last, number, parent)
        return self.on_event

    def on_event(self, frame: FrameType, event: str, arg: Any) -> Any:
        """The local trace function of a recorded frame."""
        info = self.frames.get(frame)
        if info is None or self.done:
            return None
        if event == "line":
            info.raising = None
            if self.previous != (info.serial, frame.f_lineno):
                self.step(frame, info, LINE_STEP, -1)
        elif event == "return":
            if info.raising is None:
                self.step(frame, info, RETURN_STEP, self.number(_repr(arg)))
            else:
                self.step(frame, info, RAISE_STEP, self.number("raises " + _repr(info.raising)))
            del self.frames[frame]
            if info.parent is None:  # the recorded call is over
                self.done = True
                self.returned = arg
                self.stop()
        elif event == "exception":
            info.raising = arg[1]
        return self.on_event

    # -- one step --------------------------------------------------------------------------
    def step(self, frame: FrameType, info: _Frame, kind: int, value: int) -> None:
        if len(self.flat) >= self.limit:
            self.recording.truncated = True
            self.stop()
            return
        here = len(self.flat) // (STRIDE + len(self.watch))
        loc = frame.f_locals
        info.state = find_state(loc)
        snap, source, place = self.snapshot(info)
        self.flat += (kind, frame.f_lineno, info.code, info.serial, info.depth, info.caller,
                      snap, source, place, value)
        for path in self.watch:
            found = _lookup(loc, path)
            self.flat.append(-1 if found is _MISSING else self.number(_repr(found)))
        info.last = here
        self.previous = (info.serial, frame.f_lineno) if kind == LINE_STEP else (-1, -1)

    def snapshot(self, info: _Frame) -> tuple[int, int, int]:
        """The state the picture shows: the innermost frame's domains or assignment; an
        assignment over the domains of a frame further out, when one holds domains (each
        assigned variable shown with its value). Its numbers as a snapshot, as a source (the
        innermost mapping) and as a place, or -1s when no frame holds either."""
        walk: _Frame | None = info
        while walk is not None and walk.state is None:
            walk = walk.parent
        if walk is None or walk.state is None:
            return -1, -1, -1
        owner, (kind, mapping, place) = walk, walk.state
        under = None
        while kind == ASSIGNMENT and walk is not None:  # domains further out?
            if walk.state is not None and walk.state[0] == DOMAINS:
                under = walk.state[1]
                break
            walk = walk.parent
        try:
            snap = self.number_state(kind, mapping, under)
        except TypeError:  # values that cannot be hashed: no picture of them
            return -1, -1, -1
        source = self.source_number.get(id(mapping))
        if source is None:
            source = self.source_number[id(mapping)] = len(self.sources)
            self.sources.append(mapping)
        where = self.place_number.get((place, owner.code))
        if where is None:
            where = self.place_number[place, owner.code] = len(self.recording.places)
            self.recording.places.append((place, owner.code))
        return snap, source, where

    def number_state(self, kind: str, mapping: Any, under: Any) -> int:
        """The number of a state: domains, an assignment, or an assignment over domains."""
        if kind == DOMAINS:
            raw: tuple = (kind, tuple(zip(mapping, map(tuple, mapping.values()))))
        elif under is None:
            raw = (kind, tuple(mapping.items()))
        else:
            raw = (DOMAINS, tuple((var, (mapping[var],) if var in mapping else tuple(values))
                                  for var, values in under.items()))
        snap = self.snap_number.get(raw)
        if snap is None:
            snap = self.snap_number[raw] = len(self.recording.snapshots)
            self.recording.snapshots.append(raw)
        return snap

    def number(self, text: str) -> int:
        found = self.text_number.get(text)
        if found is None:
            found = self.text_number[text] = len(self.recording.texts)
            self.recording.texts.append(text)
        return found

    def stop(self) -> None:
        """No more recording: every recorded frame runs on untraced."""
        self.done = True
        for frame in list(self.frames):
            frame.f_trace = None
        self.frames.clear()
        self.sources.clear()

    def code_infos(self) -> list[CodeInfo]:
        return [CodeInfo(code.co_name, short_name(code), code.co_filename,
                         code.co_firstlineno, last_line(code), code)
                for code in sorted(self.code_number, key=self.code_number.__getitem__)]


def short_name(code: CodeType) -> str:
    """A function's name as the page shows it: a method with its class (`MinConflicts.run`),
    a nested function by its own name (`backtrack`, not `backtracking_search.<locals>...`)."""
    name = getattr(code, "co_qualname", code.co_name)
    return name.rsplit("<locals>.", 1)[-1]


def find_state(loc: Mapping[str, Any]) -> tuple[str, Any, str] | None:
    """The domains or the assignment a frame holds (`STATE_PLACES`, first found), and where
    it was found; None when it holds neither."""
    for place in STATE_PLACES:
        found = _lookup(loc, place.split("."))
        if isinstance(found, dict) and found:
            first = next(iter(found.values()))
            return (DOMAINS if isinstance(first, COLLECTIONS) else ASSIGNMENT), found, place
    return None


def _lookup(loc: Mapping[str, Any], path: list[str]) -> Any:
    """A local by name, then its attributes (`self.state.domains`); _MISSING if absent."""
    found = loc.get(path[0], _MISSING)
    for name in path[1:]:
        if found is _MISSING:
            break
        found = getattr(found, name, _MISSING)
    return found


def _repr(value: Any) -> str:
    """`repr(value)`, cut after `MAX_REPR` characters."""
    try:
        text = repr(value)
    except Exception as error:  # a broken __repr__ must not stop the recording
        text = f"<repr failed: {error!r}>"
    return text if len(text) <= MAX_REPR else text[:MAX_REPR - 1] + "…"


def last_line(code: CodeType) -> int:
    """The last line of a function's source: its own code's and its nested functions'."""
    last = max((line for _, _, line in code.co_lines() if line), default=code.co_firstlineno)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            last = max(last, last_line(const))
    return last


def source_lines(info: CodeInfo, module_globals: Mapping[str, Any]) -> list[str]:
    """The lines of the file a function comes from (a notebook cell's, through linecache);
    [] when there are none (code typed at a prompt, or given to `exec` as a string)."""
    return linecache.getlines(info.file, dict(module_globals))


def values_of(snapshot: tuple[str, tuple]) -> dict[Hashable, tuple[Any, ...]]:
    """A snapshot as {variable: values}: an assignment's values as one-value tuples."""
    kind, items = snapshot
    if kind == DOMAINS:
        return dict(items)
    return {var: (value,) for var, value in items}
