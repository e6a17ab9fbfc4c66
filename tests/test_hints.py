"""Hints that zoom in (issue 41): the cheapest deduction from where the student is; the zoom
of a deduction that supposes, checked step by step; whole explanation sequences, replayed
against the solution; and what the session's own propagation finds at once.

The checks of a zoom are the issue's: its supposition is a value the hint removes; each
step removes only values present in the supposed state as it stands then, and costs less
than the hint; the last step leaves a variable with no value. They run on every one of
Tatham's hard Bridges and extreme and unreasonable Towers of `../shared/data/tatham-graded`
(`full`; a sample of the smaller grids in the quick run).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from csp_puzzles import CSP, AllDifferent, Predicate, Session, hashi, singles, towers
from csp_puzzles.core.hints import (
    Hint,
    Known,
    available,
    cost_unit,
    next_hint,
    supposed_only,
    zoom_lines,
)
from tests.conftest import shared_file

REPO = Path(__file__).resolve().parent.parent
#: notebook 03's hard 7x7 (the issue's example: the rules refuse (0,0)-(2,0) = 1 at once)
HARD_7X7 = "7x7m2:1a3a2i1a4h2b3a5k4a5a4a2"
#: notebook 05's extreme and unreasonable 4x4
EXTREME_4X4 = "4:/2/2/////3////2////,l2c"
UNREASONABLE_4X4 = "4:/3///2////2////1/3//"
#: a tricky 5x5 Singles of Tatham's (the cut rule is needed)
TRICKY_5X5 = "5x5:2331532455135211124551432"


# -- the checks --------------------------------------------------------------------------------
def check_zoom(hint: Hint, domains: Mapping[Hashable, Collection[Any]]) -> int:
    """The issue's checks of `hint`'s zoom from `domains` (and of the zooms inside it);
    returns how many zooms were checked."""
    assert hint.supposes is not None and hint.steps, hint.rule
    var, value = hint.supposes
    assert value in hint.removals[var]  # it supposes a value the hint removes
    state = {v: set(values) for v, values in domains.items()}
    assert set(hint.removals[var]) <= state[var]
    state[var] = set(hint.removals[var])
    checked = 1
    for step in hint.steps:
        assert step.cost < hint.cost, (step.rule, step.cost, hint.rule, hint.cost)
        for v, values in step.removals.items():
            assert values and set(values) <= state[v], (step.rule, v, values, state[v])
        if step.steps:
            checked += check_zoom(step, state)
        for v, values in step.removals.items():
            state[v] -= set(values)
    assert any(not state[v] for v in hint.steps[-1].removals), hint.rule
    return checked


def check_explanation(puzzle: Any, hints: Sequence[Hint], solution: Mapping[Hashable, Any]
                      ) -> int:
    """`hints` replayed from the start: each removes values present and none of
    `solution`'s, each zoom passes `check_zoom`, and the end is exactly `solution`; returns
    how many zooms were checked."""
    domains = {var: set(values) for var, values in puzzle.to_csp().domains.items()}
    zooms = 0
    for hint in hints:
        if hint.steps:
            zooms += check_zoom(hint, domains)
        else:
            assert hint.supposes is None
        for var, values in hint.removals.items():
            assert values and set(values) <= domains[var], hint.rule
            assert solution[var] not in values, hint.sentence
            domains[var] -= set(values)
    assert domains == {var: {value} for var, value in solution.items()}
    return zooms


def solution_of(puzzle: Any) -> dict[Hashable, Any]:
    """The one solution, found by the core and checked by the puzzle's own checker."""
    result = puzzle.solve()
    assert result.solved and puzzle.check(result.solution) == []
    return {var: values[0] for var, values in puzzle.solution_domains(result.solution).items()}


def tatham_graded(kind: str, name: str, grades: set[str], max_side: int) -> list[dict]:
    """His puzzles of `grades` up to `max_side`, with the solution his data gives."""
    module = {"hashi": hashi, "towers": towers}[kind]
    rows = []
    with open(shared_file("tatham-graded", f"tatham_{name}.jsonl"), encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row["grade"] in grades:
                puzzle = module.parse(row["id"])
                side = getattr(puzzle, "size", None) or max(puzzle.width, puzzle.height)
                if side <= max_side:
                    rows.append({**row, "puzzle": puzzle})
    return rows


def his_solution(kind: str, row: dict) -> dict[Hashable, Any]:
    """The solution his data gives, as one value per variable, checked by our checker."""
    puzzle = row["puzzle"]
    if kind == "hashi":
        bridges = {tuple(entry[:4]): entry[4] for entry in row["solution"]}
        values = {key: bridges.get(key, 0) for key in puzzle.to_csp().variables}
        assert puzzle.check(puzzle.decode(values)) == []
        return values
    grid = [list(line) for line in row["solution"]]
    assert puzzle.check(grid) == []
    return {var: values[0] for var, values in puzzle.solution_domains(grid).items()}


SWEEPS = {"hashi": [("bridges", {"hard"}), ("bridges-ie", {"hard"}), ("bridges-big", {"hard"})],
          "towers": [("towers", {"extreme", "unreasonable"})]}


def sweep(kind: str, max_side: int, per_kind: int | None) -> None:
    rows = [row for name, grades in SWEEPS[kind]
            for row in tatham_graded(kind, name, grades, max_side)]
    if per_kind is not None:  # the first `per_kind` of each of his parameter sets
        taken: dict[str, int] = {}
        rows = [row for row in rows
                if taken.setdefault(row["params"], 0) < per_kind
                and not taken.update({row["params"]: taken[row["params"]] + 1})]
    zooms = 0
    for row in rows:
        zooms += check_explanation(row["puzzle"], row["puzzle"].explain(), his_solution(kind, row))
    assert zooms >= len(rows)  # each of these needs at least one supposition


@pytest.mark.parametrize("kind", sorted(SWEEPS))
def test_every_zoom_on_a_sample_of_tathams_hardest(kind: str) -> None:
    sweep(kind, max_side=10 if kind == "hashi" else 6, per_kind=2)


@pytest.mark.full
@pytest.mark.parametrize("kind", sorted(SWEEPS))
def test_every_zoom_on_every_one_of_tathams_hardest(kind: str) -> None:
    sweep(kind, max_side=100, per_kind=None)


# -- the cheapest ------------------------------------------------------------------------------
def chain() -> CSP:
    """x < y < z over 1..3: arc consistency alone solves it."""
    csp = CSP("chain")
    csp.add_variables("xyz", (1, 2, 3))
    csp.add_constraint(Predicate(lambda a, b: a < b, ("x", "y"), name="x < y"))
    csp.add_constraint(Predicate(lambda a, b: a < b, ("y", "z"), name="y < z"))
    return csp


def small_sessions() -> list[Session]:
    return [Session(hashi.parse(HARD_7X7)), Session(towers.parse(EXTREME_4X4)),
            Session(towers.parse(UNREASONABLE_4X4)), Session(singles.parse(TRICKY_5X5)),
            Session(chain(), inference="none")]


def recounted(hint: Hint, rung: int, unit: int) -> int:
    """A deduction's cost counted again from what it says it involves."""
    involved = {*hint.because, *hint.removals}
    if hint.steps:
        for step in hint.steps:
            involved |= {*step.because, *step.removals}
        return rung * unit + 1 + len(involved)
    return rung * unit + len(involved)


@pytest.mark.parametrize("session", small_sessions(), ids=lambda s: s.csp.name)
def test_the_cheapest_hint_is_never_costlier_than_any_deduction_available(session: Session
                                                                          ) -> None:
    """At every step of a hint-only solve, every deduction of every rung is listed
    (`available`): the hint is one of them and costs no more than any; a deduction of a
    higher rung costs more than any of a lower one; each cost counts what it involves."""
    ladder, unit = session.ladder, cost_unit(session.ladder)
    names = [rung.name for rung in ladder]
    steps = trials = 0
    while session.status == "open" and (hint := session.hint()) is not None:
        found = available(ladder, session.state.domains, session.words)
        assert found and hint.cost <= min(other.cost for other in found)
        assert any((other.rule, other.removals, other.cost) ==
                   (hint.rule, hint.removals, hint.cost) for other in found)
        for other in found:
            rung = names.index(other.rung)
            assert other.cost == recounted(other, rung, unit), other.rule
            assert rung * unit < other.cost < (rung + 1) * unit, other.rule
        assert names.index(hint.rung) == min(names.index(other.rung) for other in found)
        trials += bool(hint.steps)
        steps += 1
        session.apply(hint)
    assert steps and session.status == "solved"
    if session.puzzle is not None and session.puzzle.kind != "kakuro":
        assert trials  # each of these puzzles needs a supposition somewhere


def test_hints_kept_between_calls_equal_hints_made_afresh() -> None:
    """A session keeps what each rule deduces, and its scratch states, between calls
    (through undo, a value crossed out and put back, a decision made and taken back); its
    hint is the one made from nothing on the same domains."""
    puzzle = hashi.parse((REPO / "data" / "hashi" / "hard-10x10.txt").read_text())
    session = Session(puzzle, after_move="nothing")
    solution = solution_of(puzzle)
    for round_ in range(40):
        hint = session.hint()
        fresh = next_hint(session.ladder, session.domains, session.words,
                          [Known() for _ in session.ladder])
        if hint is None:
            assert fresh is None
            break
        assert fresh is not None
        assert (hint.rule, hint.removals, hint.cost, hint.steps) == \
            (fresh.rule, fresh.removals, fresh.cost, fresh.steps)
        session.apply(hint)
        undecided = [var for var, values in session.domains.items() if len(values) > 1]
        if round_ % 7 == 6:
            session.undo()
            session.undo()
        elif round_ % 7 == 3 and undecided:
            var = undecided[0]
            wrong = next(x for x in session.domains[var] if x != solution[var])
            session.remove(var, wrong)
            session.hint()
            session.restore(var, wrong)
        elif round_ % 7 == 5 and undecided:
            session.set(undecided[0], solution[undecided[0]])
            session.hint()
            session.clear(undecided[0])
    assert session.status == "solved"


# -- explanation sequences ---------------------------------------------------------------------
SHIPPED = sorted([*(REPO / "data" / "hashi").glob("*.txt"), *(REPO / "data" / "towers").glob(
    "[45]x*.txt")])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_an_explanation_replayed_ends_at_the_solution(path: Path) -> None:
    module = hashi if path.parent.name == "hashi" else towers
    puzzle = module.parse(path.read_text())
    hints = puzzle.explain()
    if puzzle.grade() in ("fiendish",):  # beyond the ladder: the rules get stuck
        pytest.skip(f"{path.stem} is beyond the ladder's rungs")
    check_explanation(puzzle, hints, solution_of(puzzle))
    assert [hint.cost for hint in hints] == [hint.cost for hint in puzzle.explain()]


def test_an_explanation_is_the_sessions_hints() -> None:
    puzzle = towers.parse(UNREASONABLE_4X4)
    session = Session(puzzle)
    played = []
    while (hint := session.hint()) is not None:
        session.apply(hint)
        played.append(hint)
    assert played == puzzle.explain()
    assert any(hint.rung == "unreasonable" for hint in played)


# -- what propagation finds at once --------------------------------------------------------------
def first_trial(session: Session) -> Hint:
    """The first hint of a hint-only solve that supposes something."""
    while (hint := session.hint()) is not None and not hint.steps:
        session.apply(hint)
    assert hint is not None
    return hint


def test_propagation_refutes_at_once_what_a_person_must_suppose() -> None:
    """The issue's example: in notebook 03's hard 7x7 the ladder refuses (0,0)-(2,0) = 1
    only by a trial, which the full model's isolation rule makes at once."""
    hint = first_trial(Session(hashi.parse(HARD_7X7)))
    assert hint.removals == {(0, 0, 2, 0): (1,)} and hint.supposes == ((0, 0, 2, 0), 1)
    assert hint.at_once is not None and hint.at_once.startswith("isolation 1-1")
    assert hint.sentence.endswith("looks one step ahead; a person must suppose it)")
    plain = first_trial(Session(hashi.parse(HARD_7X7), inference="fc"))
    assert plain.removals == hint.removals and plain.at_once is None
    assert "suppose it" not in plain.sentence


def test_what_propagation_removed_that_a_person_must_suppose() -> None:
    """At the start of notebook 03's hard 7x7, propagation (the full model) removes many
    values; the ladder's rules that suppose nothing reach most of them, not (0,0)-(2,0) = 1
    (its trial's) nor what only follows from that: in the explanation sequence, each value
    they leave goes at the trial or after it, each of the others before it."""
    puzzle = hashi.parse(HARD_7X7)
    session = Session(puzzle)
    before = session.domains
    session.propagate()
    removed = {var: tuple(x for x in values if x not in session.domains[var])
               for var, values in before.items()}
    removed = {var: values for var, values in removed.items() if values}
    only = supposed_only(session.ladder, before, removed)
    assert only.get((0, 0, 2, 0)) == (1,) and set(only) < set(removed)
    hints = puzzle.explain()
    trial = next(number for number, hint in enumerate(hints) if hint.steps)
    when = {(var, value): number for number, hint in enumerate(hints)
            for var, values in hint.removals.items() for value in values}
    for var, values in removed.items():
        for value in values:
            assert (when[var, value] >= trial) == (value in only.get(var, ())), (var, value)


def test_a_zoom_in_words() -> None:
    hint = first_trial(Session(hashi.parse(HARD_7X7)))
    words = Session(hashi.parse(HARD_7X7)).words
    lines = zoom_lines(hint, words)
    assert lines[0] == "suppose edge (0,0)-(2,0) carries 1 bridge"
    assert lines[-2].startswith("contradiction: connectivity: group at (0,0) is cut off")
    assert lines[-1] == "so edge (0,0)-(2,0) cannot carry 1 bridge"
    assert len(lines) == len(hint.steps) + 2
    first = Session(hashi.parse(HARD_7X7)).hint()
    assert first is not None and zoom_lines(first, words) == []


def test_a_zoom_inside_a_zoom_is_said_indented() -> None:
    """A trial of Towers' unreasonable rung may need a forcing chain (a supposition of the
    extreme rung) on the way: its own zoom is said under it. This unreasonable 6x6 of
    Tatham's has one."""
    puzzle = towers.parse("6://2/2//4///2/2/3/////1//4/3/3////,l1o3g")
    hints = puzzle.explain()
    (hint,) = [hint for hint in hints if any(step.steps for step in hint.steps)]
    inner = next(step for step in hint.steps if step.steps)
    assert inner.rung == "extreme" and hint.rung == "unreasonable"
    lines = zoom_lines(hint, Session(puzzle).words)
    at = lines.index(f"then: {inner.sentence}")
    assert lines[at + 1].startswith("    suppose ") and lines[at + 1 + len(inner.steps) + 1] \
        .startswith("    so ")
    check_explanation(puzzle, hints, solution_of(puzzle))


def test_a_csp_of_ones_own_has_one_rung_and_no_zoom() -> None:
    csp = CSP("pair")
    csp.add_variables("ab", (1, 2))
    csp.add_constraint(AllDifferent(["a", "b"]))
    session = Session(csp, inference="none")
    session.assign("a", 1)
    hint = session.hint()
    assert hint is not None and hint.steps == () and hint.supposes is None
    assert hint.cost == 2 and hint.rung == "constraints"
