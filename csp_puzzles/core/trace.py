"""The recorded story of a search: every assign, prune, wipe-out, backtrack and solution.

A trace is what a notebook replays. It stores the initial domains and a flat list of events;
`domains_at(i)` rebuilds the domains exactly as the solver saw them just after event `i`, by
replaying the events with the same trail mechanism the solver uses (an assignment opens a
level, a backtrack closes it and restores every value pruned inside it, an `undo` puts back
the newest removals it names). A search driven by hand (`core.session`) records the same
kinds, and two of its own: `revise` (one arc of AC-3) and `undo`.

Recording is optional: the search only touches the trace when one was asked for.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, overload

ASSIGN = "assign"
PRUNE = "prune"
WIPEOUT = "wipeout"
BACKTRACK = "backtrack"
SOLUTION = "solution"
BACKJUMP = "backjump"
LEARN = "learn"
REPAIR = "repair"
SPLIT = "split"
REVISE = "revise"
UNDO = "undo"
#: the order is the numbering the explorer's front end uses (explorer.js): append only
KINDS = (ASSIGN, PRUNE, WIPEOUT, BACKTRACK, SOLUTION, REPAIR, BACKJUMP, LEARN, SPLIT, REVISE,
         UNDO)
CHECKPOINT_EVERY = 5000  # events between saved replay states
#: events a trace keeps by default; past it, it stops recording and says `truncated`
MAX_EVENTS = 200_000


@dataclass(frozen=True)
class Event:
    """One step of a search.

    - `assign`: the search sets `var = value` (a new level, `depth` levels deep);
    - `prune`: `cause` removes `value` from the domain of `var`;
    - `wipeout`: `cause` found `var`'s domain empty (or, with `var` None, a constraint that
      cannot hold any more); the current assignment fails;
    - `backtrack`: the search undoes `var = value` and everything pruned since;
    - `solution`: every variable has its value;
    - `backjump`: looking back, the search gives up `var` and returns to level `depth`,
      past decisions that had no part in the failure; `value` holds the conflict's
      decisions as (variable, value) pairs, `cause` says how far; the backtracks follow;
    - `learn`: the literals in `value`, (variable, "=" or "≠", value) triples, cannot all
      hold, and the search keeps that nogood.
    - `repair`: a local search (`cause` says which step) gives `var` the value `value` in
      its complete assignment; a local search has no levels, so `depth` holds the number
      of conflicts left after the step;
    - `split`: the search keeps only the values `value` (a tuple) of `var` (domain
      splitting): a new level, like `assign`; prune events named "split" follow.
    - `revise`: AC-3's REVISE of the arc (constraint `cause`, variable `var`): the values of
      `var` with no support in that constraint go; their prune events follow, with the same
      cause. `value` is the queue of arcs still waiting as the revision starts, a tuple of
      (constraint name, variable) pairs (None when not kept); `depth` is unchanged.
    - `undo`: an action taken back (`cause` says which: "hint: saturation at (2,3)"); the
      (variable, value) pairs in `value`, the newest removals on the trail, come back.
      `var` is None and `depth` unchanged. (Taking back a decision is a `backtrack`.)
    """

    kind: str
    var: Any = None  # a variable name (any hashable); a view knows its shape, (row, col) say
    value: Any = None
    cause: str | None = None
    depth: int = 0

    def describe(self, name: Callable[[Any], str] | None = None,
                 value: Callable[[Any], str] | None = None) -> str:
        """The event in words, as the stepper shows it.

        `name` and `value` say how to write a variable and a value (a puzzle view passes
        "bridge (2,0)-(2,5)" for a variable (2,0,2,5)); both default to `show`.
        """
        name, value = name or show, value or show
        if self.kind == ASSIGN:  # a cause marks a tentative assignment, like a probe
            what = f"assign {name(self.var)} = {value(self.value)}"
            return f"{self.cause}: {what}" if self.cause else what
        if self.kind == PRUNE:
            who = self.cause or "propagation"
            return f"{who} removes {value(self.value)} from {name(self.var)}"
        if self.kind == WIPEOUT:
            where = f" on {name(self.var)}" if self.var is not None else ""
            return f"wipe-out{where} ({self.cause or 'no value left'}): backtrack"
        if self.kind == BACKTRACK:
            return f"backtrack: undo {name(self.var)} = {value(self.value)}"
        if self.kind == SPLIT:
            kept = ", ".join(value(x) for x in self.value)
            return f"split: keep {name(self.var)} in {{{kept}}}"
        if self.kind == BACKJUMP:
            return f"backjump from {name(self.var)}: {look_back_words(self, name, value)}"
        if self.kind == LEARN:
            return f"learn: {look_back_words(self, name, value)} cannot all hold"
        if self.kind == REPAIR:
            left = "1 conflict" if self.depth == 1 else f"{self.depth} conflicts"
            return f"{self.cause or 'repair'}: {name(self.var)} = {value(self.value)}, {left} left"
        if self.kind == REVISE:
            waiting = "" if self.value is None else f" ({plural(len(self.value), 'arc')} waiting)"
            return f"revise {name(self.var)} against {self.cause}{waiting}"
        if self.kind == UNDO:
            back = plural(len(self.value or ()), "value")
            return f"undo {self.cause or 'the last action'}: {back} put back"
        return "solution found"

    def as_dict(self) -> dict[str, Any]:
        return {
            "event": self.kind,
            "var": _to_json(self.var),
            "value": _to_json(self.value),
            "cause": self.cause,
            "depth": self.depth,
        }


def look_back_words(event: Event, name: Callable[[Any], str],
                    value: Callable[[Any], str]) -> str:
    """The decisions of a backjump's conflict, or the literals of a learnt nogood, in words.

    A backjump holds (variable, value) pairs; a nogood (variable, "=" or "≠", value).
    """
    decisions = [f"{name(item[0])} {item[1] if len(item) == 3 else '='} {value(item[-1])}"
                 for item in event.value or ()]
    if event.kind == LEARN:
        return " and ".join(decisions)
    return f"conflict with {', '.join(decisions) or 'no decision'}; {event.cause}"


def plural(count: int, noun: str) -> str:
    """ "1 value", "3 values"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def show(x: Any) -> str:
    """A variable or value as the trace writes it: tuples as "(2,3)", the rest by `str`."""
    if isinstance(x, tuple):
        return "(" + ",".join(show(part) for part in x) + ")"
    return str(x)


def _to_json(x: Any) -> Any:
    if isinstance(x, tuple):
        return [_to_json(part) for part in x]
    return x


def _from_json(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_from_json(part) for part in x)
    return x


class Trace(Sequence[Event]):
    """Events of one search plus the initial domains, replayable at any point.

    At most `max_events` events are kept; past that, recording stops and `truncated` is
    set, so a long search cannot fill the memory.
    """

    def __init__(self, domains: Mapping[Hashable, Sequence[Any]],
                 max_events: int = MAX_EVENTS):
        self.variables: list[Hashable] = list(domains)
        self.initial: dict[Hashable, tuple[Any, ...]] = {v: tuple(d) for v, d in domains.items()}
        self.max_events = max_events
        self.truncated = False
        self._events: list[tuple] = []
        self._replay: _Replay | None = None
        self._checkpoints: dict[int, _Replay] = {}

    # -- recording (called by the search) ------------------------------------------------
    def record(self, kind: str, var: Hashable = None, value: Any = None,
               cause: str | None = None, depth: int = 0) -> None:
        if len(self._events) >= self.max_events:
            self.truncated = True
            return
        self._events.append((kind, var, value, cause, depth))

    # -- reading -------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._events)

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return [Event(*e) for e in self._events[index]]
        return Event(*self._events[index])

    def __iter__(self) -> Iterator[Event]:
        return (Event(*e) for e in self._events)

    def count(self, kind: str) -> int:
        """How many events of one kind (`assign`, `prune`, ...)."""
        return sum(1 for e in self._events if e[0] == kind)

    def domains_at(self, index: int) -> dict[Hashable, tuple[Any, ...]]:
        """Domains just after event `index` (-1: before the first event).

        Moving forward from the last position asked continues the replay; moving back
        restarts from the nearest checkpoint (one is kept every `CHECKPOINT_EVERY` events),
        so the stepper's back button stays quick on long traces.
        """
        return self._seek(index).snapshot(self.initial)

    def assignment_at(self, index: int) -> dict[Hashable, Any]:
        """The search's assignment just after event `index`."""
        return dict(self._seek(index).assignment)

    def _seek(self, index: int) -> _Replay:
        if index < -1 or index >= len(self._events):
            raise IndexError(f"event {index} is outside 0..{len(self._events) - 1}")
        replay = self._replay
        if replay is None or replay.position > index:
            saved = [p for p in self._checkpoints if p <= index]
            replay = self._checkpoints[max(saved)].copy() if saved else _Replay(self.initial)
        while replay.position < index:
            replay.advance_to(self._events, min(index, replay.position + CHECKPOINT_EVERY))
            if replay.position % CHECKPOINT_EVERY == 0 and replay.position not in self._checkpoints:
                self._checkpoints[replay.position] = replay.copy()
        self._replay = replay
        return replay

    # -- JSON Lines ----------------------------------------------------------------------
    def write_jsonl(self, stream: IO[str]) -> None:
        """One header line (variables, initial domains), then one line per event."""
        header = {
            "event": "start",
            "variables": [_to_json(v) for v in self.variables],
            "domains": [[_to_json(x) for x in self.initial[v]] for v in self.variables],
            "truncated": self.truncated,
        }
        stream.write(json.dumps(header) + "\n")
        for event in self:
            stream.write(json.dumps(event.as_dict()) + "\n")

    @classmethod
    def read_jsonl(cls, stream: IO[str]) -> Trace:
        """Read back what `write_jsonl` wrote (lists in names become tuples again)."""
        lines = [json.loads(line) for line in stream if line.strip()]
        if not lines or lines[0].get("event") != "start":
            raise ValueError("not a csp-puzzles trace: the first line must be the start header")
        header = lines[0]
        names = [_from_json(v) for v in header["variables"]]
        domains = {n: [_from_json(x) for x in d] for n, d in zip(names, header["domains"])}
        trace = cls(domains, max_events=max(len(lines), 1))
        trace.truncated = header.get("truncated", False)
        for line in lines[1:]:
            trace.record(line["event"], _from_json(line["var"]), _from_json(line["value"]),
                         line.get("cause"), line.get("depth", 0))
        return trace


class _Replay:
    """The solver's trail mechanism, run over recorded events."""

    def __init__(self, initial: dict[Hashable, tuple[Any, ...]]):
        self.domains = {v: set(d) for v, d in initial.items()}
        self.trail: list[tuple[Hashable, Any]] = []
        self.marks: list[int] = []
        self.assignment: dict[Hashable, Any] = {}
        self.position = -1

    def copy(self) -> _Replay:
        twin = _Replay.__new__(_Replay)
        twin.domains = {v: set(d) for v, d in self.domains.items()}
        twin.trail = list(self.trail)
        twin.marks = list(self.marks)
        twin.assignment = dict(self.assignment)
        twin.position = self.position
        return twin

    def advance_to(self, events: list[tuple], index: int) -> None:
        while self.position < index:
            self.position += 1
            self.apply(*events[self.position])

    def apply(self, kind: str, var: Hashable, value: Any, cause: str | None, depth: int) -> None:
        if kind == ASSIGN:
            self.marks.append(len(self.trail))
            self.assignment[var] = value
            for other in list(self.domains[var]):
                if other != value:
                    self._remove(var, other)
        elif kind == SPLIT:  # a level; its removals follow as prune events
            self.marks.append(len(self.trail))
        elif kind == PRUNE:
            self._remove(var, value)
        elif kind == BACKTRACK:
            mark = self.marks.pop() if self.marks else 0
            while len(self.trail) > mark:
                v, x = self.trail.pop()
                self.domains[v].add(x)
            self.assignment.pop(var, None)
        elif kind == UNDO:  # the newest removals on the trail come back
            for v, x in value or ():
                self.domains[v].add(x)
            del self.trail[len(self.trail) - len(value or ()):]
        elif kind == REPAIR:  # never undone: a local search does not backtrack
            self.domains[var] = {value}
            self.assignment[var] = value

    def _remove(self, var: Hashable, value: Any) -> None:
        if value in self.domains[var]:
            self.domains[var].discard(value)
            self.trail.append((var, value))

    def snapshot(self, initial: dict[Hashable, tuple[Any, ...]]) -> dict[Hashable, tuple]:
        return {v: tuple(x for x in order if x in self.domains[v]) for v, order in initial.items()}
