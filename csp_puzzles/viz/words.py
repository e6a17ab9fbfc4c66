"""Every word the explorer shows about a trace, written once, here.

An event's own sentence comes from the core (`Event.describe`); a view may name variables
and values in its own terms ("bridge (2,0)-(2,5)", "2 bridges"). What an event *means* also
depends on where it happens, and only the whole trace knows that: a wipe-out with a choice
to undo makes the search backtrack, one inside a probe makes the probe fail, and one with no
choice made proves that there is no solution. `Wording` adds those words.

The page receives the words, never composes its own: each event gets a *template*, a
sentence with `{var}` and `{value}` where the variable's and the value's names go, and the
page fills them in (`fill`). Templates are shared between events, so a run of 200,000 events
sends a few hundred sentences, not 200,000.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from typing import Any

from ..core.trace import (
    ASSIGN,
    BACKJUMP,
    BACKTRACK,
    LEARN,
    PRUNE,
    REPAIR,
    SOLUTION,
    SPLIT,
    WIPEOUT,
    Event,
    show,
)

Namer = Callable[[Hashable], str]
#: the levels a search opens by choice (the others are tentative, like a probe)
CHOICE, CHOICE_LEVELS = "choice", ("choice", SPLIT, "")
#: where an event happens: (innermost open level, kind of the next event, a solution before)
Context = tuple[str, str, bool]

#: a variable as the core writes it: tuples as "(2,3)", anything else by `str`
plain_name: Namer = show

#: the slots of a template: the event's variable and value, the event number, the depth
SLOT = re.compile(r"\{(var|value|k|depth|n|m|name|values|other|right|total)\}")
#: the nouns the phrases count, in the plural after any count but one (front/base.js has
#: the same rule)
COUNTED = ("value", "variable", "decision", "node", "arc", "event", "choice", "solution",
           "conflict", "nogood", "probe", "action", "repair", "bridge", "backtrack", "step",
           "move", "hint", "trial", "rule")
ONE_OF = re.compile(r"(?<![\d.,])\b(1 (?:" + "|".join(COUNTED) + r"))s\b")

#: what each kind of event means, for the legend under a stepper
LEGEND = {
    ASSIGN: "the search chooses a value (a node of the search tree)",
    PRUNE: "a constraint's propagator removes a value that cannot be part of a solution",
    WIPEOUT: "a domain became empty or a constraint cannot hold: this branch fails",
    BACKTRACK: "the search undoes a choice and everything pruned since",
    SOLUTION: "every variable has a value",
}

#: the page's fixed words (filled like templates), so that Python says what the page says
PHRASES = {
    # the line under the tree
    "path": "choices so far: {values}",
    "path_none_yet": "no choice made yet",
    "no_choices_decided": "no choices: propagation alone decided every variable",
    "no_choices_empty": "no choices: {name} has no value left, so there is no solution",
    "no_choices_wipeout": "no choices: the wipe-out at event {k} proves that there is no solution",
    "no_choices_open": "no choices made: {n} variables still with several values",
    "local": "local search: no choices and no search tree; it repairs a complete assignment",
    # a variable's state, for the picture's names and "why?"
    "one_value": "{name}: {values}",
    "values_left": "{name}: {n} values left: {values}",
    "no_value": "{name}: no value left",
    # "why?"
    "why_hint": ("why? point at a variable in the picture (or focus it with the keyboard) to "
                 "see its values and what removed the others; click it or press Enter to pin"),
    "pinned": "pinned: click the variable again, press Enter or Escape to release",
    "chosen": "event {k}: the search chose {value}",
    "chosen_last": "event {k}: the search chose {value}, its only value left",
    "removed": "{value}: removed at event {k} by {name}",
    "at_once": ("; propagation finds this at once because its rule looks one step ahead, "
                "where a person must suppose it"),
    "by_choice": "the search's choice {var} = {value}",
    "by_tentative": "the {name} {var} = {value}",
    "tried": "event {k}: the {name} tries {value}",
    "undone_try": "event {k}: the {name} tried {value}, undone at event {n}",
    # the search tree and its nodes
    "tree": "search tree: a node per choice; Tab to it, arrow keys move, Enter goes there",
    "tree_small": "the search tree of this run",
    "tree_root": "start",
    "tree_legend": ("search tree: ● a choice, ■✕ failed, ●✓ solution, ◆ probe, ▲ folded; "
                    "hover or focus a node to preview it, click or Enter to go there"),
    "node": "{name}, event {k}: {values}",
    "node_open": "open",
    "node_on_way": "on the way to a solution",
    "node_failed": "failed",
    "node_solution": "a solution",
    "node_tentative": "tentative (a probe)",
    "node_folded": ", {n} nodes below, folded",
    "preview": "preview of the state after event {k}: click the node or press Enter to go there",
    # the picture
    "still": "a picture of the state: Tab to a variable to hear its values",
    "picture": "the picture of the state: Tab to a variable, arrow keys move between them",
    "marks": ("outlines: solid brown = the choice, dashed orange = a value removed, thick red "
              "= a wipe-out, short blue dashes = the variable revised, dotted purple = the "
              "constraint's other variables, dash-dot blue = the variable shown in why?"),
    # predict, then check
    "predict": "predict the next step",
    "ask_variable": "Which variable will the search choose next? Click it in the picture.",
    "ask_removals": ("Which values will propagation remove now (events {k} to {n})? Click a "
                     "variable, pick its values, then press check."),
    "ask_nothing": "Nothing to predict here: next comes event {k}: {name}.",
    "right_variable": "Right: the search chose {name} at event {k}, with {n} values left",
    "wrong_variable": ("Not this time: the search chose {name} at event {k}, with {n} values "
                       "left; {other} had {m}"),
    "fewest": "; no undecided variable had fewer.",
    "not_fewest": "; {other} had fewer ({m}): this search does not choose by values left.",
    "right_removals": "Right: exactly those go ({n} values).",
    "some_removals": "{right} of {total} right.",
    "missed": "missed: {value} from {name} (by {other})",
    "not_removed": "not removed now: {value} from {name}",
    "check": "check",
    "show_me": "show me",
    # the playground: what each action did, in words
    "refused": "not done: {name}",
    "did": "{name}: {n} values removed",
    "no_hint": "no hint: the rules cannot deduce anything more without guessing",
    "no_hint_solved": "no hint: the puzzle is solved",
    "no_hint_wipeout": "no hint in a wipe-out: undo first. {name}",
    "no_hint_wipeout_decision": "no hint in a wipe-out: undo first; the decision {name} led here",
    "hint": "hint ({other}): {name}. Press apply to make it.",
    "hint_steps": "this hint rests on a trial: its {n} steps, the last one a wipe-out",
    # zooming into a hint that supposes: its frames drawn on the board, nothing changes
    "zoom_title": ("zoom in: draw this hint's supposition on the board, step by step, to the "
                   "contradiction (nothing changes)"),
    "zoom_previous_title": "zoom back: the step before",
    "zoom_next_title": "zoom forward: the next step",
    "zoom_inner_title": "zoom deeper: open this step, which supposes too (its own zoom)",
    "zoom_leave_title": "zoom out: leave one level (Escape); from the first, back to the board",
    "zoom_frame": "zoom, {k} of {n}: {name}",
    "zoom_frame_deeper": "zoom, level {m}, {k} of {n}: {name}",
    "zoom_where": "{k} of {n}",
    "zoom_where_deeper": "level {m}: {k} of {n}",
    "zoom_has_inner": " (this step zooms too: open it)",
    "zoom_first": "this is the zoom's first step",
    "zoom_last": "this is the zoom's last step: leave to go back",
    "zoom_no_inner": "this step supposes nothing more: there is nothing to open",
    "zoom_left": "left the zoom: the board is as it was",
    "zoom_legend": ("zoom, drawn with every domain: thick teal on pale teal = the value "
                    "supposed, blue dots = what the step read, dashed orange = the values it "
                    "removes, thick red = a wipe-out, green dash-dot on pale green = what the "
                    "hint concludes"),
    "applied": "applied {name}: {n} values removed",
    "propagated": "propagation: {n} values removed",
    "ac3": "arc consistency: {k} arcs revised, {n} values removed",
    "ac3_more": "; {n} arcs still in the queue (press again to go on)",
    "revised": "revise {name} against {other}: no support for {values}, removed",
    "revised_nothing": "revise {name} against {other}: every value has a support, nothing goes",
    "queue_empty_now": "AC-3's queue is empty: nothing to revise",
    "consistent": "{name} against {other}: consistent, every value has a support",
    "inconsistent": "{name} against {other}: inconsistent, no support for {values}",
    "finished_solved": "the engine's search found a solution ({n} nodes)",
    "finished_unsatisfiable": "the engine's search: no solution below your decisions ({n} nodes)",
    "finished_limit": "the engine's search stopped after {n} nodes; nothing changed",
    "no_mistake": "no mistake so far: every decision agrees with the solution",
    "mistakes": "{n} decisions against the solution: {values}",
    "checked_none": "check: no rule is broken so far",
    "checked": "check: {n} rules broken: {values}",
    "after_set": "after each move: {name}",
    "checking_set": "checking: {name}",
    "solved_moves": " The {name} is solved: {n} moves, {k} hints.",
    "now_solved": " The problem is solved: every variable has a value that satisfies every "
                  "constraint.",
    "now_wipeout": " A wipe-out: a domain is empty or a constraint cannot hold; undo to go on.",
    "status_open": "{n} of {k} decided (assigned); {m} more with one value left",
    "status_counts": "; moves: {n}, hints: {k}",
    "status_trials": "; inside {n} trials (reject takes the innermost back whole)",
    "offline": ("This playground acts only in a running notebook: open the notebook in Jupyter "
                "and run its cells. Below, the replay of what was done in it."),
    "pick": "click a variable in the picture to see its values",
    "values_of": "{name}: click a value, or type it, to assign it",
    "value_title": "assign {name} = {value}",
    "split_title": "split: keep the lower half of {name}'s values",
    "graph_legend": ("arcs: ▶ thick blue = the front of AC-3's queue (revised next), dashed blue "
                     "= waiting in the queue, red with ✕ = inconsistent, green with ✓ = "
                     "consistent; click an arc to revise it"),
    "graph_open": "the constraint graph: AC-3 arc by arc",
    "tree_open": "the search tree and why?",
    "queue_now": "AC-3's queue ({n} arcs): {values}",
    "queue_now_empty": "AC-3's queue is empty",
    "arc_todo": "waiting in the queue",
    "arc_front": "the front of the queue, revised next",
    "arc_highlighted": "highlighted",
    "arc_inconsistent": "inconsistent",
    "arc_consistent": "consistent, out of the queue",
    "revise_next": "revise the next arc",
    "revise_next_title": "revise the next arc: the front of AC-3's queue",
    "fine_step": "fine step",
    "fine_next": "next step",
    "fine_next_title": "next step of the revision",
    "fine_highlighted": ("revise {name} against {other}: the arc is highlighted; the next step "
                         "checks it"),
    # the playground's controls (a title begins with the word the contract names)
    "undo_title": "undo: take back the last action, whole (Ctrl+Z)",
    "redo_title": "redo: make the action undone again (Ctrl+Y)",
    "hint_title": "hint: the next deduction the rules can make, and why",
    "apply_title": "apply the hint",
    "check_title": "check: name each rule the board breaks, and mark its cells",
    "try_title": "try: your next move starts a trial (backtracking by hand)",
    "accept_title": "accept the innermost trial: keep its moves",
    "reject_title": "reject the innermost trial: take it back whole",
    "pencil_title": "pencil mode: a digit removes that candidate, or puts it back",
    "domains_title": "show domains: every variable's values left, as pencil marks",
    "after_label": "after each move:",
    "after_title": "after each move: what runs after each of your moves",
    "checking_label": "checking:",
    "checking_title": "checking: when the board's errors are marked",
    "propagate_title": "propagate: the inference, to a fixpoint",
    "ac3_title": "arc consistency: revise every arc of AC-3's queue",
    "suggest_title": "suggest: the variable and value the engine would choose",
    "finish_title": "finish: let the engine's search go on from here",
    "mistakes_title": "mistakes: the decisions that disagree with the solution",
    "trying": ("try: your next move is a supposition (a trial): reject takes it back whole, "
               "with every move made after it; accept keeps them"),
    "not_trying": "no trial started",
    "pencil_on": "pencil mode: a digit now removes that candidate, or puts it back",
    "pencil_off": "pencil mode off: a digit now sets the cell",
    "key_nothing": "the key {name} does nothing here. {values}",
    "keys_help": ("Tab to a variable, Enter shows its values; Ctrl+Z undoes, Ctrl+Y redoes"),
    "given_cell": "{name} is given: it cannot change",
    "not_a_value": "{value} is not a value of {name} (its values: {values})",
    "no_line_there": "nothing to join that way",
    "armed": "{name}: press an arrow key to join it that way (Escape: nothing)",
    "disarmed": "nothing joined",
    # one step of the path, a node of the tree
    "step_choice": "{var} = {value}",
    "step_split": "{var} in {value}",
    "step_tentative": "{name}: {var} = {value}",
    "nothing_removed": "nothing removed now",
    "undone_title": "earlier, undone by backtracking ({n}):",
    "undone_title_any": "earlier, taken back by a backtrack or an undo ({n}):",
    # AC-3's queue, beside the replay of a search driven by hand
    "queue": "AC-3's queue as event {k} revised {name} against {other}: {values}",
    "queue_empty": "AC-3's queue as event {k} revised {name} against {other}: empty",
    "queue_more": " and {n} more",
    "arc": "{name} against {other}",
    "undone_choice": "event {k}: the search chose {value}, undone at event {n}",
    "undone_removal": "event {k}: {value} removed by {name}, put back at event {n}",
    "given": "event {k}: {name} gave it {value}",
    "earlier_title": "earlier values ({n}):",
}

#: the explorer's jumps: the kind of event, the jump's name, what it says when none is ahead
JUMPS = {ASSIGN: ("next choice", "no more choices ahead"),
         WIPEOUT: ("next wipe-out", "no more wipe-outs ahead"),
         BACKTRACK: ("next backtrack", "no more backtracks ahead"),
         SOLUTION: ("next solution", "no more solutions ahead"),
         BACKJUMP: ("next backjump", "no more backjumps ahead"),
         LEARN: ("next nogood", "no more nogoods ahead"),
         REPAIR: ("next repair", "no more repairs ahead"),
         "revise": ("next revision", "no more revisions ahead")}
#: the jumps every search offers, even when it has none of them
USUAL_JUMPS = (ASSIGN, WIPEOUT, BACKTRACK, SOLUTION)

#: state rows of the summary table, after the counted events
STATE_ROWS = {"fixed": "variables with one value", "left": "values left",
              "conflicts": "conflicts left"}


def fill(template: str, **slots: Any) -> str:
    """The template with its `{slot}`s replaced (unknown slots are left as they are), and a
    count of one followed by its noun in the singular ("1 value", not "1 values")."""
    text = SLOT.sub(lambda m: str(slots[m.group(1)]) if m.group(1) in slots else m.group(0),
                    template)
    return ONE_OF.sub(r"\1", text)


def event_sentence(event: Event, name: Namer | None = None, value: Callable[[Any], str] = str,
                   verb: str | None = None) -> str:
    """One event as a sentence on its own (no context); `name` names variables, `value`
    values. With a `verb` ("be", "carry"), a pruning reads "cause: cell (1,2) cannot be 3"
    instead of "cause removes 3 from cell (1,2)": better when causes are sentences themselves.
    """
    if event.kind == PRUNE and verb is not None:
        return (f"{event.cause or 'propagation'}: {(name or plain_name)(event.var)} "
                f"cannot {verb} {value(event.value)}")
    if event.kind == SOLUTION:
        return "solution found: every variable has a value that satisfies every constraint"
    if event.kind == WIPEOUT:  # what follows a wipe-out depends on the trace: see Wording
        return event.describe(name, value).removesuffix(": backtrack")
    return event.describe(name, value)


#: stand-ins for the event's variable and value while a template is written
_VAR, _VALUE = "\x00var\x00", "\x00value\x00"

#: kinds whose sentence names only the event's own variable and value (and its cause)
TEMPLATED = (ASSIGN, PRUNE, WIPEOUT, BACKTRACK, SOLUTION, REPAIR)


class Wording:
    """Sentences for the events of one trace, in a view's words and in context."""

    def __init__(self, name: Namer, value: Callable[[Any], str], verb: str | None):
        self.name, self.value, self.verb = name, value, verb
        self.templates: list[str] = []
        self._index: dict[Any, int] = {}

    def number(self, template: str) -> int:
        """The template's number in `templates` (added on first sight)."""
        number = self._index.get(template)
        if number is None:
            number = self._index[template] = len(self.templates)
            self.templates.append(template)
        return number

    def template(self, kind: str, var: Any, value: Any, cause: str | None, depth: int,
                 context: Context = ("", "", False)) -> int:
        """The number of an event's template; `context` says where it happens (see
        `sentence`). Events that name only their own variable and value
        share templates."""
        if kind not in TEMPLATED:
            event = Event(kind, var, value, cause, depth)
            return self.number(escaped(event_sentence(event, self.name, self.value, self.verb)))
        if kind not in (WIPEOUT, BACKTRACK):
            context = ("", "", False)
        key = (kind, cause, depth if kind == REPAIR else 0, context, var is None)
        number = self._index.get(key)
        if number is None:
            stand_in = Event(kind, None if var is None else _VAR,
                             None if value is None else _VALUE, cause, depth)
            said = escaped(sentence(stand_in, context, self._name, self._value, self.verb))
            said = said.replace(_VAR, "{var}").replace(_VALUE, "{value}")
            number = self._index[key] = self.number(said)
        return number

    def _name(self, var: Any) -> str:
        return var if var is _VAR else self.name(var)

    def _value(self, x: Any) -> str:
        return x if x is _VALUE else self.value(x)


def escaped(text: str) -> str:
    """Text that holds no slot by accident (a cause that says "{k}" keeps saying it)."""
    return SLOT.sub(lambda m: "{\u200b" + m.group(1) + "}", text)


def sentence(event: Event, context: Context, name: Namer,
             value: Callable[[Any], str], verb: str | None) -> str:
    """The event in words where it happens: `context` is (innermost open level, kind of the
    next event, whether a solution was found before). The level is "choice", a tentative
    assignment's cause ("probe"), or "" when no choice is open.

    A wipe-out with a choice open fails the branch (and says "backtrack" only when a
    backtrack follows); inside a probe it fails the probe; with no choice to undo it proves
    that there is no solution (no other one, after solutions were found). A backtrack that
    ends a probe says so.
    """
    level, after, solved = context
    if event.kind == BACKTRACK and level == SPLIT:
        return f"backtrack: undo {name(event.var)} in {value(event.value)}"
    if event.kind == BACKTRACK and level not in CHOICE_LEVELS:
        return f"end of the {level}: undo {name(event.var)} = {value(event.value)}"
    said = event_sentence(event, name, value, verb)
    if event.kind != WIPEOUT:
        return said
    if level == "":
        other = "other " if solved else ""
        return said + f": no choice to undo, so there is no {other}solution"
    if level not in CHOICE_LEVELS:
        return said + f": the {level} fails"
    if after == BACKTRACK:
        return said + ": this branch fails, backtrack"
    return said + ": this branch fails"


def state_words(name: str, values: list[str]) -> str:
    """A variable's state: "SA: 2 values left: green, blue"."""
    if not values:
        return fill(PHRASES["no_value"], name=name)
    if len(values) == 1:
        return fill(PHRASES["one_value"], name=name, values=values[0])
    return fill(PHRASES["values_left"], name=name, n=len(values), values=", ".join(values))
