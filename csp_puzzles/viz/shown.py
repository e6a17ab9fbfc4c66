"""What the explorer's page shows at a position, computed in Python from the packed run.

The page (front/why.js, front/explorer.js) reads the same packed run and fills the same
words; the browser tests check that both agree, and the Python tests hold these to the
trace. `present` is the replayed state: for each variable, the numbers of its values left.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from ..core.trace import ASSIGN, KINDS, PRUNE, REPAIR, REVISE, SPLIT, WIPEOUT
from .packing import CAUSE, CLOSED, DEPTH, KIND, LOCAL, PROPAGATION, ROW, SAID, STRIDE, VALUE, VAR
from .words import STATE_ROWS, fill, state_words

Run = dict[str, Any]
Present = Sequence[Sequence[int]]

#: how many undone events "why?" lists (the latest ones), and says how many there were
WHY_UNDONE_SHOWN = 8
ASSIGN_K, PRUNE_K, REPAIR_K, SPLIT_K, WIPEOUT_K = (KINDS.index(k) for k in
                                                   (ASSIGN, PRUNE, REPAIR, SPLIT, WIPEOUT))


def field(run: Run, at: int, which: int) -> int:
    """One number of event `at` (counting from 1)."""
    return run["events"][(at - 1) * STRIDE + which]


def sentence(run: Run, position: int) -> str:
    """The line under the picture: where the replay stands and the event in words."""
    if position == 0:
        return str(run["start"])
    var, value = field(run, position, VAR), field(run, position, VALUE)
    heading = fill(run["heading"], k=position, depth=field(run, position, DEPTH))
    said = run["templates"][field(run, position, SAID)]
    return heading + fill(said, var=run["names"][var] if var >= 0 else "",
                          value=run["words"][value] if value >= 0 else "")


def summary(run: Run, position: int, present: Present) -> list[tuple[str, str]]:
    """The summary table: each kind of event counted up to `position`, then the state."""
    counts = [0] * len(run["rows"])
    events = run["events"]
    for row in events[ROW:position * STRIDE:STRIDE]:
        if row >= 0:
            counts[row] += 1
    table = [(label, str(count)) for label, count in zip(run["rows"], counts)]
    fixed = sum(1 for values in present if len(values) == 1)
    table.append((STATE_ROWS["fixed"], f"{fixed} of {len(present)}"))
    table.append((STATE_ROWS["left"], str(sum(len(values) for values in present))))
    if run["mode"] == LOCAL and position:
        repairs = [at for at in range(position, 0, -1) if field(run, at, KIND) == REPAIR_K]
        if repairs:
            table.append((STATE_ROWS["conflicts"], str(field(run, repairs[0], DEPTH))))
    return table


def value_words(run: Run, v: int, present: Present) -> list[str]:
    """The words of the values left to variable number `v`, in their initial order."""
    left = set(present[v])
    return [run["words"][x] for x in run["init"][v] if x in left]


def path(run: Run, position: int, present: Present) -> str:
    """The line under the search tree: the choices that lead to the current node."""
    phrases = run["phrases"]
    if run["mode"] == LOCAL:
        return str(phrases["local"])
    if run["mode"] == PROPAGATION:
        wipeout = next((at for at in range(1, position + 1) if field(run, at, KIND) == WIPEOUT_K),
                       None)
        if wipeout is not None:
            return fill(phrases["no_choices_wipeout"], k=wipeout)
        empty = next((v for v, values in enumerate(present) if not values), None)
        if empty is not None:
            return fill(phrases["no_choices_empty"], name=run["names"][empty])
        open_ = sum(1 for values in present if len(values) > 1)
        if not open_:
            return str(phrases["no_choices_decided"])
        return fill(phrases["no_choices_open"], n=open_)
    steps = [step_words(run, at) for at in range(1, position + 1)
             if field(run, at, KIND) in (ASSIGN_K, SPLIT_K) and in_force(run, at, position)]
    if not steps:
        return str(phrases["path_none_yet"])
    return fill(phrases["path"], values=" › ".join(steps))


def step_words(run: Run, at: int) -> str:
    """A choice (a node of the tree) in words: "SA = blue", "x in {1, 2}", "probe: ..."."""
    phrases = run["phrases"]
    var, value, cause = (field(run, at, f) for f in (VAR, VALUE, CAUSE))
    slots = {"var": run["names"][var], "value": run["words"][value]}
    if field(run, at, KIND) == SPLIT_K:
        return fill(phrases["step_split"], **slots)
    if cause >= 0:
        return fill(phrases["step_tentative"], name=run["causes"][cause], **slots)
    return fill(phrases["step_choice"], **slots)


def in_force(run: Run, at: int, position: int) -> bool:
    """Whether what event `at` did still holds at `position` (no backtrack undid it yet)."""
    closed = field(run, at, CLOSED)
    return at <= position and (closed == 0 or closed > position)


def touches(run: Run, v: int) -> list[int]:
    """The events (numbers from 1) whose variable is `v`."""
    events = run["events"]
    return [i // STRIDE + 1 for i in range(VAR, len(events), STRIDE) if events[i] == v]


def why(run: Run, position: int, v: int, present: Present,
        touching: list[int] | None = None) -> list[str]:
    """What "why?" says about variable number `v` at `position`: its values, what removed
    the others (each removal still in force, with the event that made it), and what was
    done to it before and undone by a backtrack (only what a backtrack undid)."""
    touching = touches(run, v) if touching is None else touching
    touching = touching[:bisect_right(touching, position)]
    lines = [state_words(run["names"][v], value_words(run, v, present))]
    if run["mode"] == LOCAL:
        return lines + _given(run, touching)
    lines += _in_force(run, position, v, present, touching)
    undone = [at for at in touching if field(run, at, KIND) in (ASSIGN_K, PRUNE_K)
              and 0 < field(run, at, CLOSED) <= position]
    if undone:
        title = "undone_title_any" if run["undos"] else "undone_title"
        lines.append(fill(run["phrases"][title], n=len(undone)))
        lines += [_undone(run, at) for at in undone[-WHY_UNDONE_SHOWN:]]
    return lines


def removers(run: Run, position: int, v: int, present: Present,
             touching: list[int]) -> dict[int, int]:
    """For each value of `v` gone at `position`, the event that removed it: the first
    event still in force that removed it (a choice removes every other value)."""
    gone = set(run["init"][v]) - set(present[v])
    found: dict[int, int] = {}
    for at in touching:
        if not gone or not in_force(run, at, position):
            continue
        kind, value = field(run, at, KIND), field(run, at, VALUE)
        if kind == PRUNE_K and value in gone:
            found[value] = at
            gone.discard(value)
        elif kind == ASSIGN_K:
            for other in [x for x in gone if x != value]:
                found[other] = at
                gone.discard(other)
    return found


def reason(run: Run, at: int) -> str:
    """Who removed a value at event `at`: a cause, or a choice."""
    phrases = run["phrases"]
    kind, var, value, cause = (field(run, at, f) for f in (KIND, VAR, VALUE, CAUSE))
    if kind != ASSIGN_K:
        return str(run["causes"][cause]) if cause >= 0 else "propagation"
    slots = {"var": run["names"][var], "value": run["words"][value]}
    if cause >= 0:
        return fill(phrases["by_tentative"], name=run["causes"][cause], **slots)
    return fill(phrases["by_choice"], **slots)


def _in_force(run: Run, position: int, v: int, present: Present,
              touching: list[int]) -> list[str]:
    """The current choice of `v` (if any) and the removals in force, oldest first."""
    phrases, words = run["phrases"], run["words"]
    found = removers(run, position, v, present, touching)
    lines = []
    choices = [at for at in touching if field(run, at, KIND) == ASSIGN_K
               and in_force(run, at, position)]
    if choices:
        at = choices[-1]
        cause = field(run, at, CAUSE)
        value = words[field(run, at, VALUE)]
        if cause >= 0:
            lines.append(fill(phrases["tried"], k=at, name=run["causes"][cause], value=value))
        else:
            removed = at in found.values()
            lines.append(fill(phrases["chosen" if removed else "chosen_last"], k=at,
                              value=value))
    removals = sorted((at, x) for x, at in found.items())
    if not removals:
        lines.append(str(phrases["nothing_removed"]))
    at_once = set(run.get("at_once", ()))  # a playground's: what a person must suppose
    lines += [fill(phrases["removed"], value=words[x], k=at, name=reason(run, at))
              + (str(phrases["at_once"]) if at in at_once else "")
              for at, x in removals]
    return lines


def _undone(run: Run, at: int) -> str:
    phrases = run["phrases"]
    kind, value, cause = (field(run, at, f) for f in (KIND, VALUE, CAUSE))
    slots = {"k": at, "n": field(run, at, CLOSED), "value": run["words"][value]}
    if kind == PRUNE_K:
        return fill(phrases["undone_removal"], name=reason(run, at), **slots)
    if cause >= 0:
        return fill(phrases["undone_try"], name=run["causes"][cause], **slots)
    return fill(phrases["undone_choice"], **slots)


def _given(run: Run, touching: list[int]) -> list[str]:
    """A local search's history of a variable: the value it holds, the ones before."""
    given = [at for at in touching if field(run, at, KIND) == REPAIR_K]
    if not given:
        return []

    def said(at: int) -> str:
        cause = field(run, at, CAUSE)
        return fill(run["phrases"]["given"], k=at, value=run["words"][field(run, at, VALUE)],
                    name=run["causes"][cause] if cause >= 0 else "a repair")

    lines = [said(given[-1])]
    if len(given) > 1:
        lines.append(fill(run["phrases"]["earlier_title"], n=len(given) - 1))
        lines += [said(at) for at in given[:-1][-WHY_UNDONE_SHOWN:]]
    return lines


# -- predict, then check ---------------------------------------------------------------------
def question(run: Run, position: int) -> dict[str, Any]:
    """What the explorer asks about the next step: which variable the search chooses next
    (`ask` "variable"), which values propagation removes now ("removals", the events `k` to
    `n`), or nothing ("nothing"); `answer` is the variable's number or the (variable, value)
    numbers removed."""
    total = len(run["events"]) // STRIDE
    k = position + 1
    if k > total:
        return {"ask": "nothing", "k": k, "text": ""}
    kind, cause = field(run, k, KIND), field(run, k, CAUSE)
    if kind in (ASSIGN_K, SPLIT_K) and cause < 0:
        return {"ask": "variable", "k": k, "answer": field(run, k, VAR),
                "text": str(run["phrases"]["ask_variable"])}
    if kind == PRUNE_K:
        n = k
        while n < total and field(run, n + 1, KIND) == PRUNE_K:
            n += 1
        answer = [(field(run, at, VAR), field(run, at, VALUE)) for at in range(k, n + 1)]
        return {"ask": "removals", "k": k, "n": n, "answer": answer,
                "text": fill(run["phrases"]["ask_removals"], k=k, n=n)}
    said = sentence(run, k).removeprefix(fill(run["heading"], k=k, depth=field(run, k, DEPTH)))
    return {"ask": "nothing", "k": k, "text": fill(run["phrases"]["ask_nothing"], k=k, name=said)}


def check_variable(run: Run, position: int, present: Present, picked: int) -> str:
    """Right or wrong, and why, for the variable `picked` as the search's next choice."""
    phrases, names = run["phrases"], run["names"]
    asked = question(run, position)
    chosen, k = asked["answer"], asked["k"]
    assigned = {field(run, at, VAR) for at in range(1, position + 1)
                if field(run, at, KIND) == ASSIGN_K and in_force(run, at, position)}
    candidates = [v for v in range(len(present)) if v not in assigned]
    fewest = min(candidates, key=lambda v: len(present[v]))
    n = len(present[chosen])
    if picked == chosen:
        said = fill(phrases["right_variable"], name=names[chosen], k=k, n=n)
    else:
        said = fill(phrases["wrong_variable"], name=names[chosen], k=k, n=n,
                    other=names[picked], m=len(present[picked]))
    if len(present[fewest]) >= n:
        return said + str(phrases["fewest"])
    return said + fill(phrases["not_fewest"], other=names[fewest], m=len(present[fewest]))


def check_removals(run: Run, position: int, picked: set[tuple[int, int]]) -> str:
    """Right or wrong, and why, for the (variable, value) pairs `picked` as the values
    propagation removes now."""
    phrases, names, words = run["phrases"], run["names"], run["words"]
    asked = question(run, position)
    by_pair = {(field(run, at, VAR), field(run, at, VALUE)): at
               for at in range(asked["k"], asked["n"] + 1)}
    if set(by_pair) == picked:
        return fill(phrases["right_removals"], n=len(by_pair))
    lines = [fill(phrases["some_removals"], right=len(picked & set(by_pair)), total=len(by_pair))]
    for pair, at in sorted(by_pair.items(), key=lambda item: item[1]):
        if pair not in picked:
            lines.append(fill(phrases["missed"], value=words[pair[1]], name=names[pair[0]],
                              other=reason(run, at)))
    for v, x in sorted(picked - set(by_pair)):
        lines.append(fill(phrases["not_removed"], value=words[x], name=names[v]))
    return " ".join(lines)


# -- AC-3's queue ------------------------------------------------------------------------------
#: how many arcs of the queue the line names (the others are counted)
QUEUE_SHOWN = 12


def queue_line(run: Run, position: int) -> str:
    """AC-3's queue as the last revision up to `position` found it ("" when none)."""
    revise = KINDS.index(REVISE)
    last = next((at for at in range(position, 0, -1) if field(run, at, KIND) == revise), None)
    if last is None:
        return ""
    phrases, names, causes = run["phrases"], run["names"], run["causes"]
    slots = {"k": last, "name": names[field(run, last, VAR)],
             "other": causes[field(run, last, CAUSE)]}
    waiting = run["queues"].get(str(last), [])
    arcs = [fill(phrases["arc"], name=names[v], other=causes[c])
            for c, v in zip(waiting[::2], waiting[1::2])]
    if not arcs:
        return fill(phrases["queue_empty"], **slots)
    said = ", ".join(arcs[:QUEUE_SHOWN])
    if len(arcs) > QUEUE_SHOWN:
        said += fill(phrases["queue_more"], n=len(arcs) - QUEUE_SHOWN)
    return fill(phrases["queue"], values=said, **slots)
