"""A trace packed for the browser: numbers in one flat list, words in small tables.

The explorer's front end receives a run once and replays it by itself. Variables, values and
causes are numbered in the order they first appear. Each event is `STRIDE` numbers in the
flat list `events` (-1 for "none"):

    kind, variable, value, cause, depth, sentence, summary row, closed

- `sentence` numbers the event's template in `templates` (words.py writes them, with the
  event in its context: a wipe-out inside a probe, or with no choice to undo, says so);
- `summary row` numbers the line of the summary table the event counts in (`rows`):
  choices, probes, values pruned, wipe-outs, failed probes, backtracks, ...; -1 for none;
- `closed` is the number of the backtrack that closed the level the event happened in
  (which put back what it removed), 0 while that level stays open.

Event numbers count from 1: event k is `trace[k - 1]`, and position k of the replay is the
state just after it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from ..core.lookahead import PROBE
from ..core.trace import (
    ASSIGN,
    BACKJUMP,
    BACKTRACK,
    KINDS,
    LEARN,
    PRUNE,
    REPAIR,
    SOLUTION,
    SPLIT,
    WIPEOUT,
    Event,
    Trace,
    look_back_words,
    show,
)
from .words import (
    CHOICE,
    CHOICE_LEVELS,
    JUMPS,
    PHRASES,
    STATE_ROWS,
    TEMPLATED,
    USUAL_JUMPS,
    Context,
    Namer,
    Wording,
    escaped,
    plain_name,
)

#: numbers per event in the flat list, and where each sits
STRIDE = 8
KIND, VAR, VALUE, CAUSE, DEPTH, SAID, ROW, CLOSED = range(STRIDE)
#: constraint scopes larger than this are not outlined as "the cause" (they would cover all)
SCOPE_OUTLINE_LIMIT = 12
#: the kinds of run, by what their events do
SEARCH, PROPAGATION, LOCAL = "search", "propagation", "local"

#: the summary row of each kind of event (some kinds depend on where they happen)
ROW_OF_KIND = {PRUNE: "values pruned", SOLUTION: "solutions", BACKJUMP: "backjumps",
               LEARN: "nogoods learnt", SPLIT: "choices (nodes)", "revise": "arcs revised",
               "undo": "actions undone"}
CHOICES, WIPEOUTS, BACKTRACKS = "choices (nodes)", "wipe-outs", "backtracks"
AFTER_SOLUTION = "choices undone after a solution"


class _Numbering:
    """Numbers given to things in the order they are first seen."""

    def __init__(self) -> None:
        self.index: dict[Any, int] = {}
        self.items: list[Any] = []

    def __call__(self, item: Any) -> int:
        if item is None:
            return -1
        key = (type(item), item)  # 1 and True are different values
        number = self.index.get(key)
        if number is None:
            number = self.index[key] = len(self.items)
            self.items.append(item)
        return number


def raw_events(trace: Trace) -> Sequence[tuple[str, Any, Any, str | None, int]]:
    """The trace's events as plain tuples (kind, var, value, cause, depth).

    Packing reads every event once; making an `Event` object for each costs more than the
    rest of the packing on a long trace, so the trace's own rows are read when it has them.
    """
    rows = getattr(trace, "_events", None)
    if isinstance(rows, list):
        return rows
    return [(e.kind, e.var, e.value, e.cause, e.depth) for e in trace]


def level_name(kind: str, cause: str | None) -> str:
    """What a level opened by an assign or a split is: a "choice", a "split", or a
    tentative assignment named by its cause ("probe")."""
    if kind == SPLIT:
        return SPLIT
    return cause if cause else CHOICE


class _Levels:
    """The levels open while the events go by, as the replay's trail opens and closes them."""

    def __init__(self) -> None:
        self.stack: list[list[Any]] = []  # [opening event, name, a solution inside, value]
        self.closed_by: dict[int, int] = {}

    def innermost(self) -> str:
        return self.stack[-1][1] if self.stack else ""

    def opening(self) -> int:
        """The event that opened the innermost level (0: none is open)."""
        return self.stack[-1][0] if self.stack else 0

    def open(self, at: int, name: str, value: int) -> None:
        self.stack.append([at, name, False, value])

    def value(self) -> int | None:
        """The number of the value chosen by the innermost level (None: no level is open)."""
        return self.stack[-1][3] if self.stack else None

    def close(self, at: int) -> bool:
        """Close the innermost level at event `at`; True if a solution was found inside."""
        if not self.stack:
            return False
        opened, _, solved, _ = self.stack.pop()
        self.closed_by[opened] = at
        if solved and self.stack:
            self.stack[-1][2] = True
        return solved

    def solved(self) -> None:
        if self.stack:
            self.stack[-1][2] = True


def _row_label(kind: str, cause: str | None, level: str, solved: bool) -> str | None:
    """The summary row an event counts in, or None."""
    if kind == ASSIGN:
        if not cause:
            return CHOICES
        return "probes" if cause == PROBE else f"tentative choices ({cause})"
    if kind == WIPEOUT:
        return WIPEOUTS if level in CHOICE_LEVELS else f"failed {level}s"
    if kind == BACKTRACK:
        if level not in CHOICE_LEVELS:
            return None  # the end of a probe, counted with the probes
        return AFTER_SOLUTION if solved else BACKTRACKS
    if kind == REPAIR:
        return f"{cause or 'repair'} steps"
    return ROW_OF_KIND.get(kind)


#: the order of the summary rows (rows not named here go by what they start or end with)
ROW_ORDER = (CHOICES, "probes", "tentative", "arcs revised", "values pruned", WIPEOUTS,
             "failed", BACKTRACKS, AFTER_SOLUTION, "backjumps", "nogoods learnt", "steps",
             "solutions", "actions undone")


def row_rank(label: str) -> int:
    """Where a summary row goes in the table."""
    for rank, name in enumerate(ROW_ORDER):
        if label == name or label.startswith(name + " ") or label.endswith(" " + name):
            return rank
    return len(ROW_ORDER)


def run_mode(kinds: set[str]) -> str:
    """`local` for a local search, `search` when choices are made, else `propagation`."""
    if REPAIR in kinds:
        return LOCAL
    return SEARCH if kinds & {ASSIGN, SPLIT} else PROPAGATION


def pack_run(trace: Trace, label: str = "", name: Namer | None = None,
             value: Callable[[Any], str] = str, verb: str | None = None,
             sentences: Callable[[Event], str] | None = None,
             scopes: Mapping[str, Sequence[Hashable]] | None = None,
             nodes: int | None = None) -> dict[str, Any]:
    """The run as plain data; `sentences` words each event when the view's words do not."""
    packer = _Packer(trace, name or plain_name, value, verb, sentences)
    packer.pack()
    return packer.as_dict(label, scopes, nodes)


class _Packer:
    """One pass over the events: numbers, templates, summary rows and levels."""

    def __init__(self, trace: Trace, name: Namer, value: Callable[[Any], str],
                 verb: str | None, sentences: Callable[[Event], str] | None):
        self.trace, self.name, self.value, self.sentences = trace, name, value, sentences
        self.rows = raw_events(trace)
        self.var_number = {var: i for i, var in enumerate(trace.variables)}
        self.values, self.causes, self.row_labels = _Numbering(), _Numbering(), _Numbering()
        self.init = [[self.values(x) for x in trace.initial[var]] for var in trace.variables]
        self.wording = Wording(name, value, verb)
        self.looking_back: dict[str, list[int]] = {}  # a conflict's words -> its variables
        self.splits: set[int] = set()  # the values that are a split's kept values
        self.flat: list[int] = []
        self.kind_number = {kind: i for i, kind in enumerate(KINDS)}

    def pack(self) -> None:
        """One pass over the events. What an event says and counts in depends only on its
        kind, cause and context, so each such combination is worked out once (`_said`)."""
        rows, flat, levels = self.rows, self.flat, _Levels()
        stack, kind_number, var_number = levels.stack, self.kind_number, self.var_number
        said_row: dict[tuple, tuple[int, int]] = {}
        value_index, cause_index = self.values.index, self.causes.index
        total, solutions = len(rows), 0
        for i, (kind, var, x, cause, depth) in enumerate(rows):
            at = i + 1
            level, opening = (stack[-1][1], stack[-1][0]) if stack else ("", 0)
            solved = False
            if kind == BACKJUMP or kind == LEARN or kind == SPLIT:
                value_number, cause_number = self._numbers(kind, var, x, cause, depth)
            else:  # the numbers already given, looked up here: this runs for every event
                value_number = -1 if var is None else value_index.get((x.__class__, x), -2)
                if value_number == -2:
                    value_number = self.values(x)
                cause_number = -1 if cause is None else cause_index.get((str, cause), -2)
                if cause_number == -2:
                    cause_number = self.causes(cause)
            if kind == ASSIGN or kind == SPLIT:
                stack.append([at, level_name(kind, cause), False, value_number])
                opening = at
            elif kind == BACKTRACK:  # it undoes the level's own choice: name that value
                value_number = stack[-1][3] if stack else value_number
                solved, opening = levels.close(at), 0
            elif kind == SOLUTION:
                levels.solved()
                solutions += 1
            context = (level, rows[at][0] if at < total else "", solutions > 0)
            key = (kind, cause, context, solved, var is None, x is None,
                   depth if kind == REPAIR else 0)
            found = said_row.get(key) if kind in TEMPLATED and self.sentences is None else None
            if found is None:
                found = self._said(kind, var, x, cause, depth, context, solved)
                said_row[key] = found
            flat += (kind_number[kind], -1 if var is None else var_number.get(var, -1),
                     value_number, cause_number, depth, found[0], found[1], opening)
        closed_by = levels.closed_by
        for i in range(CLOSED, len(flat), STRIDE):  # the opening event -> its closing one
            flat[i] = closed_by.get(flat[i], 0)
        self._order_rows()

    def _said(self, kind: str, var: Any, x: Any, cause: str | None, depth: int,
              context: Context, solved: bool) -> tuple[int, int]:
        """The event's template and summary row (-1: none)."""
        if self.sentences is None:
            said = self.wording.template(kind, var, x, cause, depth, context)
        else:
            said = self.wording.number(escaped(self.sentences(Event(kind, var, x, cause, depth))))
        row = _row_label(kind, cause, context[0], solved)
        return said, -1 if row is None else self.row_labels(row)

    def _order_rows(self) -> None:
        """Number the summary rows in the order the table shows them."""
        labels = self.row_labels.items
        order = sorted(range(len(labels)), key=lambda r: (row_rank(labels[r]), r))
        if order == list(range(len(labels))):
            return
        renumber = {old: new for new, old in enumerate(order)}
        flat = self.flat
        for i in range(ROW, len(flat), STRIDE):
            if flat[i] >= 0:
                flat[i] = renumber[flat[i]]
        self.row_labels.items = ordered = [labels[r] for r in order]
        self.row_labels.index = {(str, label): new for new, label in enumerate(ordered)}

    def _numbers(self, kind: str, var: Any, x: Any, cause: str | None,
                 depth: int) -> tuple[int, int]:
        """The numbers of the event's value and cause (a look-back event's cause is the
        conflict or the nogood in words, its variables outlined)."""
        if kind == BACKJUMP or kind == LEARN:
            words = look_back_words(Event(kind, var, x, cause, depth), self.name, self.value)
            self.looking_back[words] = [self.var_number[item[0]] for item in x or ()
                                        if item[0] in self.var_number]
            return -1, self.causes(words)
        number = -1 if var is None else self.values(x)
        if kind == SPLIT:
            self.splits.add(number)
        return number, self.causes(cause)

    def kinds(self) -> set[str]:
        return {KINDS[k] for k in set(self.flat[KIND::STRIDE])}

    def jumps(self, kinds: set[str], mode: str) -> list[list[str]]:
        """The jumps the page offers: every kind present, and the usual ones of a search
        (which say "no more choices ahead" when a run made none)."""
        usual = USUAL_JUMPS if mode != LOCAL else ()
        return [[kind, label] for kind, (label, _) in JUMPS.items()
                if kind in kinds or kind in usual]

    def as_dict(self, label: str, scopes: Mapping[str, Sequence[Hashable]] | None,
                nodes: int | None) -> dict[str, Any]:
        trace, total, kinds = self.trace, len(self.rows), self.kinds()
        mode = run_mode(kinds)
        more = " (the trace was cut short)" if trace.truncated else ""
        where = f"event {{k}} of {total}" + (", depth {depth}" if mode == SEARCH else "")
        run: dict[str, Any] = {
            "label": label,
            "mode": mode,
            "keys": [show(var) for var in trace.variables],
            "names": [self.name(var) for var in trace.variables],
            "values": [show(x) for x in self.values.items],
            "words": [self._word(i, x) for i, x in enumerate(self.values.items)],
            "init": self.init,
            "stride": STRIDE,
            "events": self.flat,
            "templates": self.wording.templates,
            "heading": where + ": ",
            "start": f"start: the initial domains; {total} events follow{more}",
            "rows": self.row_labels.items,
            "causes": list(self.causes.items),
            "truncated": trace.truncated,
            "nodes": nodes if nodes is not None else self._count_choices(),
            "jumps": self.jumps(kinds, mode),
            "nothing_ahead": {kind: said for kind, (_, said) in JUMPS.items()},
            "phrases": PHRASES,
            "state_rows": STATE_ROWS,
            "scopes": {},
        }
        for cause in self.causes.items:
            scope = (scopes or {}).get(cause, ())
            if 1 < len(scope) <= SCOPE_OUTLINE_LIMIT:
                run["scopes"][cause] = [self.var_number[v] for v in scope
                                        if v in self.var_number]
        run["scopes"].update(self.looking_back)  # outline every decision of a conflict
        return run

    def _word(self, number: int, x: Any) -> str:
        """A value in the view's words; a split's kept values as a set, "{1, 2}"."""
        if number in self.splits and isinstance(x, tuple):
            return "{" + ", ".join(self.value(part) for part in x) + "}"
        return self.value(x)

    def _count_choices(self) -> int:
        choices = self.row_labels.index.get((str, CHOICES))
        return 0 if choices is None else self.flat[ROW::STRIDE].count(choices)
