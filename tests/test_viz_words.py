"""Every word the explorer shows is held to the trace it describes, at every position.

For traces of every kind (search with and without backtracks, propagation alone with a
wipe-out, min-conflicts, probing, learning, backjumping, domain splitting, cutset
conditioning), the sentence, the summary table, the line under the tree and "why?" (as the
page shows them: `Stepper.sentence`, `summary`, `path`, `why` compute the page's words from the
same packed run, and tests/browser checks that the page shows the same) are checked against
an independent reading of the trace: `Trace.domains_at`, the events themselves, the solver's
statistics, and brute force where a sentence claims that there is no solution.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from csp_puzzles import CSP, Session, hashi, singles
from csp_puzzles.core import AllDifferent, Predicate, count, solve
from csp_puzzles.core.local import min_conflicts
from csp_puzzles.core.structure import cutset_solve
from csp_puzzles.core.trace import Trace
from csp_puzzles.examples import map_colouring, queens, send_more_money
from csp_puzzles.viz import Stepper, graph_view, map_view, puzzle_view, queens_view
from csp_puzzles.viz.words import event_sentence

WORD = r"(.+?)"


@dataclass
class Case:
    """A traced run, its view, the CSP it searched (for brute force) and its statistics."""

    trace: Trace
    view: Any
    csp: CSP | None
    stats: Any
    plain: bool  # a plain search: the statistics count exactly the trace's events
    status: str


def australia() -> CSP:
    """Notebook 00's map, constraint by constraint."""
    csp = CSP("Australia")
    for region in ["WA", "NT", "SA", "Q", "NSW", "V", "T"]:
        csp.add_variable(region, ["red", "green", "blue"])
    for a, b in [("WA", "NT"), ("WA", "SA"), ("NT", "SA"), ("NT", "Q"), ("SA", "Q"),
                 ("SA", "NSW"), ("SA", "V"), ("Q", "NSW"), ("NSW", "V")]:
        csp.add_constraint(Predicate(lambda x, y: x != y, (a, b), name=f"{a} != {b}"))
    return csp


def squeezed() -> CSP:
    """Three different values from {1, 2}, {1, 2} and {1}: propagation alone empties a
    domain while another keeps values (no choice is ever made)."""
    csp = CSP("squeezed")
    csp.add_variable("x", [1, 2])
    csp.add_variable("y", [1, 2])
    csp.add_variable("z", [1])
    csp.add_variable("w", [1, 2, 3])
    csp.add_constraint(AllDifferent(["x", "y", "z"]))
    return csp


def case(name: str) -> Case:
    if name == "search with backtracks":
        r = solve(queens(6), inference="fc", var_order="input", trace=True)
        return Case(r.trace, queens_view(6), queens(6), r.stats, True, r.status)
    if name == "search without backtracks":
        r = solve(australia(), inference="fc", var_order="mrv", trace=True)
        return Case(r.trace, map_view(), australia(), r.stats, True, r.status)
    if name == "propagation alone, a wipe-out":
        csp = squeezed()
        r = solve(csp, inference="mac", trace=True)
        return Case(r.trace, graph_view(csp), squeezed(), r.stats, True, r.status)
    if name == "min-conflicts":
        r = min_conflicts(queens(8), seed=2, trace=True)
        return Case(r.trace, queens_view(8), None, r.stats, False, r.status)
    if name == "probing":
        tricky = singles.parse("7x7:1764433252724624516614231671714211314437155176525")
        r = tricky.solve(trace=True)
        return Case(r.trace, puzzle_view(tricky), tricky.to_csp(), r.stats, False, r.status)
    if name == "probing a Hashi":
        fiendish = hashi.parse("10x10m2:a3b5a2a3a1j3b6c4a5a3k2a1m6a5e4k3a4a4a4a4k")
        r = fiendish.solve(var_order="probe", trace=True)
        return Case(r.trace, puzzle_view(fiendish), None, r.stats, False, r.status)
    if name == "learning":
        r = count(queens(5), inference="none", var_order="input", look_back="learn", trace=True)
        return Case(r.trace, queens_view(5), queens(5), r.stats, False, r.status)
    if name == "backjumping":
        r = solve(queens(6), inference="none", var_order="input", look_back="cbj", trace=True)
        return Case(r.trace, queens_view(6), queens(6), r.stats, False, r.status)
    if name == "counting every solution":
        r = count(queens(5), inference="fc", var_order="input", trace=True)
        return Case(r.trace, queens_view(5), queens(5), r.stats, True, r.status)
    if name == "domain splitting":
        r = solve(send_more_money(), inference="fc", var_order="input", branching="split",
                  trace=True)
        return Case(r.trace, graph_view(send_more_money()), None, r.stats, False, r.status)
    if name == "cutset conditioning":
        r = cutset_solve(map_colouring(colours=("red", "green")), trace=True)
        return Case(r.trace, map_view(), map_colouring(colours=("red", "green")), r.stats,
                    False, r.status)
    if name == "a session driven by hand":
        session = Session(australia(), "fc")
        session.assign("WA", "red")
        for constraint, var in session.arcs()[:6]:
            session.revise(constraint, var)
        session.assign("NT", "green")
        session.apply(session.hint())
        session.undo()  # the hint's removals come back
        session.propagate()
        session.undo()
        session.undo()  # NT = green, by a backtrack
        session.finish()
        return Case(session.trace, map_view(), australia(), session.state.stats, False,
                    session.status)
    raise KeyError(name)


CASES = ["search with backtracks", "search without backtracks", "propagation alone, a wipe-out",
         "min-conflicts", "probing", "probing a Hashi", "learning", "backjumping",
         "counting every solution", "domain splitting", "cutset conditioning",
         "a session driven by hand"]


def positions(trace: Trace, most: int = 400) -> list[int]:
    """Every position of a short trace; an even sample of a long one, the ends included."""
    total = len(trace)
    if total <= most:
        return list(range(total + 1))
    step = total / most
    return sorted({0, total, *(round(i * step) for i in range(most))})


def open_levels(trace: Trace, position: int) -> list[int]:
    """The choices (assign or split events, numbered from 1) open after `position` events."""
    stack: list[int] = []
    for at, event in enumerate(trace[:position], start=1):
        if event.kind in ("assign", "split"):
            stack.append(at)
        elif event.kind == "backtrack" and stack:
            stack.pop()
    return stack


def domains(trace: Trace, position: int) -> dict:
    return trace.domains_at(position - 1)


def has_solution(csp: CSP) -> bool:
    return count(csp, limit=1, inference="fc").stats.nodes >= 0 and bool(
        solve(csp, inference="fc").solved)


# -- the sentence --------------------------------------------------------------------------
def check_sentence(stepper: Stepper, c: Case, position: int) -> None:
    said = stepper.sentence()
    total = len(c.trace)
    if position == 0:
        assert said.startswith(f"start: the initial domains; {total} events follow")
        return
    assert said.startswith(f"event {position} of {total}")
    event = c.trace[position - 1]
    levels = open_levels(c.trace, position)
    if event.kind == "backtrack":  # it names the choice it undoes
        chosen = c.trace[open_levels(c.trace, position - 1)[-1] - 1]
        name = c.view.name or str
        assert chosen.var == event.var
        if chosen.cause:
            assert f"end of the {chosen.cause}: undo {name(event.var)} = " in said
        elif chosen.kind == "split":
            assert f"backtrack: undo {name(event.var)} in " in said
        else:
            assert f"backtrack: undo {name(event.var)} = {c.view.value(chosen.value)}" in said
        return
    assert event_sentence(event, c.view.name, c.view.value, c.view.verb) in said
    if event.kind == "wipeout":
        innermost = c.trace[levels[-1] - 1] if levels else None
        if "backtrack" in said.split(")")[-1]:
            assert c.trace[position].kind == "backtrack"
        if "no solution" in said:
            assert not levels and c.status == "unsatisfiable"
            assert c.csp is None or not has_solution(c.csp)
        if "no other solution" in said:  # the search is over: it found every solution
            assert not levels and any(e.kind == "solution" for e in c.trace[:position])
            assert c.csp is None or count(c.csp).stats.nodes >= 0 and c.status == "complete"
        if said.endswith("the probe fails"):
            assert innermost is not None and innermost.cause == "probe"
        if "this branch fails" in said:
            assert innermost is not None and not innermost.cause
    if "depth" in said.split(":")[0]:
        assert any(e.kind in ("assign", "split") for e in c.trace)


# -- the summary ---------------------------------------------------------------------------
def expected_rows(c: Case, position: int) -> dict[str, int]:
    """The summary rows, counted from the events themselves."""
    rows: dict[str, int] = {}

    def add(label: str) -> None:
        rows[label] = rows.get(label, 0) + 1

    stack: list[Any] = []
    for event in c.trace[:position]:
        inside = stack[-1].cause if stack else None
        if event.kind in ("assign", "split"):
            stack.append(event)
            add("probes" if event.cause == "probe" else "choices (nodes)")
        elif event.kind == "backtrack":
            stack.pop()
            if not event.cause:
                add("backtracks")
        elif event.kind == "wipeout":
            add("failed probes" if inside == "probe" else "wipe-outs")
        elif event.kind == "repair":
            add(f"{event.cause} steps")
        else:
            add({"prune": "values pruned", "solution": "solutions", "backjump": "backjumps",
                 "learn": "nogoods learnt", "revise": "arcs revised",
                 "undo": "actions undone"}[event.kind])
    return rows


def check_summary(stepper: Stepper, c: Case, position: int) -> None:
    table = dict(stepper.summary())
    counted = {label: int(n) for label, n in table.items()
               if label not in ("variables with one value", "values left", "conflicts left")}
    expected = expected_rows(c, position)
    if "choices undone after a solution" in counted:  # counting: those are backtracks too
        counted["backtracks"] = counted.get("backtracks", 0) + counted.pop(
            "choices undone after a solution")
    assert {k: v for k, v in counted.items() if v} == expected
    now = domains(c.trace, position)
    fixed = sum(1 for values in now.values() if len(values) == 1)
    assert table["variables with one value"] == f"{fixed} of {len(now)}"
    assert table["values left"] == str(sum(len(values) for values in now.values()))
    repairs = [e for e in c.trace[:position] if e.kind == "repair"]
    if repairs:
        assert table["conflicts left"] == str(repairs[-1].depth)


def check_final_counts(stepper: Stepper, c: Case) -> None:
    """At the end, the table agrees with the solver's own statistics."""
    stepper.go(len(c.trace))
    table = {label: int(n) for label, n in stepper.summary() if n.isdigit()}
    if c.plain:
        assert table.get("choices (nodes)", 0) == c.stats.nodes
        assert table.get("backtracks", 0) == c.stats.backtracks
        assert table.get("values pruned", 0) == c.stats.prunings
    if any(e.kind == "repair" for e in c.trace):
        assert table["min-conflicts steps"] == c.stats.nodes


# -- why? ----------------------------------------------------------------------------------
def check_why(stepper: Stepper, c: Case, position: int, var: Any) -> None:
    lines = stepper.why(var)
    name, word = c.view.name or str, c.view.value
    trace = c.trace
    now = domains(trace, position)[var]
    left = [word(x) for x in now]
    assert lines[0].startswith(f"{name(var)}: ")
    assert lines[0].endswith(", ".join(left) if left else "no value left")
    undone_any = any(e.kind in ("backtrack", "undo") for e in trace[:position])
    for line in lines[1:]:
        if not undone_any:
            assert "undone" not in line and "put back" not in line, line
        check_why_line(line, c, position, var, now)


def check_why_line(line: str, c: Case, position: int, var: Any, now: tuple) -> None:
    trace, word = c.trace, c.view.value
    words = {word(x): x for x in trace.initial[var]}
    if m := re.fullmatch(rf"{WORD}: removed at event (\d+) by (.+)", line):
        x, k = words[m[1]], int(m[2])
        event = trace[k - 1]
        assert x not in now and event.var == var
        assert (event.kind == "prune" and event.value == x) or (
            event.kind == "assign" and event.value != x)
        assert x in domains(trace, k - 1)[var]  # it was there just before
    elif m := re.fullmatch(rf"event (\d+): {WORD} removed by (.+), put back at event (\d+)",
                           line):
        k, x, n = int(m[1]), words[m[2]], int(m[4])
        assert trace[k - 1].kind == "prune" and trace[k - 1].value == x
        assert trace[n - 1].kind in ("backtrack", "undo") and k < n <= position
        if trace[n - 1].kind == "undo":  # an undo names the values it puts back
            assert (var, x) in trace[n - 1].value
        assert x not in domains(trace, n - 1)[var] and x in domains(trace, n)[var]
    elif m := re.fullmatch(rf"event (\d+): the (?:search chose|(\w+) tried) {WORD}, undone at "
                           r"event (\d+)", line):
        k, n = int(m[1]), int(m[4])
        chosen, undo = trace[k - 1], trace[n - 1]
        assert chosen.kind == "assign" and chosen.var == var and word(chosen.value) == m[3]
        assert undo.kind == "backtrack" and undo.var == var
        assert undo.value in (chosen.value, (chosen.value,))  # a split's last value: a tuple
        assert k < n <= position
    elif m := re.fullmatch(rf"event (\d+): the search chose {WORD}(, its only value left)?",
                           line):
        k = int(m[1])
        assert trace[k - 1].kind == "assign" and word(trace[k - 1].value) == m[2]
        before = domains(trace, k - 1)[var]
        assert (len(before) == 1) == bool(m[3])
    elif m := re.fullmatch(rf"event (\d+): (.+) gave it {WORD}", line):
        event = trace[int(m[1]) - 1]
        assert event.kind == "repair" and event.var == var and word(event.value) == m[3]
    else:
        assert re.fullmatch(r"nothing removed now|earlier, undone by backtracking \(\d+\):|"
                            r"earlier, taken back by a backtrack or an undo \(\d+\):|"
                            r"earlier values \(\d+\):|event \d+: the \w+ tries .+", line), line


# -- the line under the tree ---------------------------------------------------------------
def check_path(stepper: Stepper, c: Case, position: int) -> None:
    said = stepper.path()
    now = domains(c.trace, position)
    if said.startswith("no choices: propagation alone decided"):
        assert all(len(values) == 1 for values in now.values())
    if m := re.fullmatch(r"no choices: the wipe-out at event (\d+) proves that there is no "
                         r"solution", said):
        assert c.trace[int(m[1]) - 1].kind == "wipeout" and not open_levels(c.trace, position)
        assert c.status == "unsatisfiable" and (c.csp is None or not has_solution(c.csp))
    if "has no value left" in said:
        assert any(not values for values in now.values())
        assert c.csp is None or not has_solution(c.csp)
    if "still with several values" in said:
        n = int(said.split(": ")[1].split()[0])
        assert n == sum(1 for values in now.values() if len(values) > 1)
    if said.startswith("choices so far: "):
        levels = open_levels(c.trace, position)
        assert len(said.removeprefix("choices so far: ").split(" › ")) == len(levels)
    if said == "no choice made yet":
        assert not open_levels(c.trace, position)


@pytest.mark.parametrize("name", CASES)
def test_every_word_fits_the_trace_at_every_position(name):
    c = case(name)
    stepper = Stepper(c.trace, c.view)
    for position in positions(c.trace):
        stepper.go(position)
        check_sentence(stepper, c, position)
        check_summary(stepper, c, position)
        check_path(stepper, c, position)
    check_final_counts(stepper, c)


@pytest.mark.parametrize("name", CASES)
def test_why_says_only_what_the_trace_did(name):
    c = case(name)
    stepper = Stepper(c.trace, c.view)
    variables = c.trace.variables[:12]
    for position in positions(c.trace, most=60):
        stepper.go(position)
        for var in variables:
            check_why(stepper, c, position, var)


def test_a_value_left_alone_is_not_called_undone():
    """Notebook 00, event 7: SA had one value left when the search chose it; no backtrack
    happened, so nothing is "undone by backtracking"."""
    c = case("search without backtracks")
    stepper = Stepper(c.trace, c.view)
    sa = next(at for at, e in enumerate(c.trace, start=1)
              if e.kind == "assign" and e.var == "SA")
    stepper.go(sa)
    lines = stepper.why("SA")
    assert f"event {sa}: the search chose {c.trace[sa - 1].value}, its only value left" in lines
    assert not any("undone" in line for line in lines)


def test_propagation_alone_never_claims_to_decide_everything():
    """A wipe-out with no search: no "backtrack", no "decided every variable"."""
    c = case("propagation alone, a wipe-out")
    stepper = Stepper(c.trace, c.view)
    stepper.go(len(c.trace))
    assert "backtrack" not in stepper.sentence()
    assert stepper.sentence().endswith("no choice to undo, so there is no solution")
    assert stepper.path().startswith("no choices: the wipe-out at event")
    assert "depth" not in stepper.sentence()


def test_a_local_search_counts_repairs_and_conflicts_not_choices():
    c = case("min-conflicts")
    stepper = Stepper(c.trace, c.view)
    stepper.go(len(c.trace))
    table = dict(stepper.summary())
    assert "choices (nodes)" not in table and "depth" not in stepper.sentence()
    assert table["min-conflicts steps"] == str(c.stats.nodes) and table["conflicts left"] == "0"
    assert stepper.path().startswith("local search")


def test_probes_are_not_backtracks():
    """Notebook 03's probing run: no backtrack, though probes fail and are undone."""
    c = case("probing a Hashi")
    assert c.stats.backtracks == 0
    stepper = Stepper(c.trace, c.view)
    stepper.go(len(c.trace))
    table = dict(stepper.summary())
    assert "backtracks" not in table and int(table["failed probes"]) >= 1
    ends = [at for at, e in enumerate(c.trace, start=1) if e.kind == "backtrack"]
    stepper.go(ends[0])
    assert stepper.sentence().split(": ", 1)[1].startswith("end of the probe: undo")


# -- predict, then check -------------------------------------------------------------------
@pytest.mark.parametrize("name", ["search with backtracks", "search without backtracks",
                                  "probing", "domain splitting"])
def test_predictions_are_judged_by_the_trace(name):
    c = case(name)
    stepper = Stepper(c.trace, c.view)
    name_of = c.view.name or str
    for position in positions(c.trace, most=80):
        stepper.go(position)
        asked = stepper.question()
        if position == len(c.trace):
            assert asked == ""
            continue
        following = c.trace[position]
        now = domains(c.trace, position)
        if asked.startswith("Which variable"):
            assert following.kind in ("assign", "split") and not following.cause
            right = stepper.check_choice(following.var)
            assert right.startswith(f"Right: the search chose {name_of(following.var)} at "
                                    f"event {position + 1}, with {len(now[following.var])}")
            assigned = set(c.trace.assignment_at(position - 1)) if position else set()
            fewest = min(len(now[v]) for v in now if v not in assigned)
            assert ("no undecided variable had fewer" in right) == (
                len(now[following.var]) <= fewest)
            other = next(v for v in c.trace.variables if v != following.var)
            wrong = stepper.check_choice(other)
            assert wrong.startswith("Not this time")
            assert f"{name_of(other)} had {len(now[other])}" in wrong
        elif asked.startswith("Which values"):
            block = []
            for event in c.trace[position:]:
                if event.kind != "prune":
                    break
                block.append(event)
            pairs = [(e.var, e.value) for e in block]
            counted = f"{len(pairs)} value" + ("s" if len(pairs) > 1 else "")
            assert stepper.check_removals(pairs) == f"Right: exactly those go ({counted})."
            partly = stepper.check_removals(pairs[1:])
            assert partly.startswith(f"{len(pairs) - 1} of {len(pairs)} right.")
            assert f"missed: {c.view.value(block[0].value)} from {name_of(block[0].var)} " \
                   f"(by {block[0].cause})" in partly
        else:
            assert asked.startswith(f"Nothing to predict here: next comes event {position + 1}")


def test_ac3s_queue_beside_the_replay_is_the_revisions_own():
    c = case("a session driven by hand")
    stepper = Stepper(c.trace, c.view)
    last = None
    for position in range(len(c.trace) + 1):
        stepper.go(position)
        if position and c.trace[position - 1].kind == "revise":
            last = position
        said = stepper.queue()
        if last is None:
            assert said == ""
            continue
        event = c.trace[last - 1]
        assert said.startswith(f"AC-3's queue as event {last} revised {event.var} against "
                               f"{event.cause}: ")
        waiting = event.value or ()
        if not waiting:
            assert said.endswith(": empty")
        for constraint, var in waiting[:12]:
            assert f"{var} against {constraint}" in said
        if len(waiting) > 12:
            assert said.endswith(f" and {len(waiting) - 12} more")
