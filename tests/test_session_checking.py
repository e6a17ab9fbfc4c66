"""Checking (issue 38): `broken()` names each constraint the decisions already break, in
the puzzle's words, with what to mark (Tatham's rule: only what is provably an error), for
each kind of rule of each of the four puzzles; a board that agrees with the unique solution
is never said to break anything; "correct so far" is `mistakes()`."""

from __future__ import annotations

import random
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from csp_puzzles import Session, hashi, kakuro, singles, towers
from csp_puzzles.core import solve
from csp_puzzles.core.checking import Broken
from csp_puzzles.examples import map_colouring

REPO = Path(__file__).resolve().parent.parent


def sentences(session: Session) -> list[str]:
    return [b.sentence for b in session.broken()]


def play(puzzle, moves: dict) -> Session:
    session = Session(puzzle, after_move="nothing")
    for var, value in moves.items():
        session.set(var, value)
    return session


def test_a_csp_of_ones_own_is_said_generically():
    s = Session(map_colouring(), inference="fc", after_move="nothing")
    s.set("WA", "red")
    assert s.broken() == []
    s.set("NT", "red")
    assert s.broken() == [Broken("WA != NT", "WA != NT cannot hold with WA = red and NT = red",
                                 ("WA", "NT"))]
    s.set("NT", "green")
    assert s.broken() == []


# -- Bridges --------------------------------------------------------------------------------
SQUARE = "2 . 2\n. . .\n2 . 2\n"  # four 2s in a square: one bridge on each side


def test_bridges_island_counts():
    puzzle = hashi.parse(SQUARE)
    top, left = (0, 0, 0, 2), (0, 0, 2, 0)
    too_many = play(puzzle, {top: 2, left: 1}).broken()
    assert [(b.sentence, b.cells) for b in too_many] == [
        ("island (0,0) has 3 bridges; it needs 2", ((0, 0),))]
    assert too_many[0].variables == (top, left)
    assert sentences(play(puzzle, {top: 2, (0, 2, 2, 2): 1})) == [
        "island (0,2) has 3 bridges; it needs 2"]
    assert sentences(play(puzzle, {top: 0, left: 0})) == [
        "island (0,0) has 0 bridges; it needs 2", "the island (0,0) is cut off from the others"]
    assert sentences(play(puzzle, {top: 0})) == []  # 2 on the left edge would do
    three = hashi.parse("3 . 2\n. . .\n2 . 1\n")
    assert sentences(play(three, {(0, 0, 0, 2): 0})) == [
        "island (0,0) needs 3 and can have 2 at most"]
    assert sentences(play(puzzle, {top: 1, left: 1})) == []


def test_bridges_a_group_cut_off():
    puzzle = hashi.parse(SQUARE)
    said = play(puzzle, {(0, 0, 0, 2): 2, (2, 0, 2, 2): 2, (0, 0, 2, 0): 0,
                         (0, 2, 2, 2): 0}).broken()
    assert [(b.sentence, b.cells) for b in said] == [
        ("the islands (0,0) and (0,2) are cut off from the others", ((0, 0), (0, 2)))]


def test_bridges_crossing_and_loops():
    plus = hashi.parse(". 1 .\n1 . 1\n. 1 .\n")
    assert sentences(play(plus, {(0, 1, 2, 1): 1, (1, 0, 1, 2): 1})) == [
        "the bridges (1,0)-(1,2) and (0,1)-(2,1) cross",
        "the islands (0,1) and (2,1) are cut off from the others"]  # two pairs, both full
    loopless = hashi.parse("3x3m2L:2a2c2a2")
    ring = {edge.key: 1 for edge in loopless.edges}
    assert sentences(play(loopless, ring)) == [
        "the bridges make a loop (this puzzle forbids loops)"]
    assert sentences(play(hashi.parse(SQUARE), ring)) == []  # loops allowed there


# -- Towers ----------------------------------------------------------------------------------
def towers_5x5():
    """Clues top 3 3 1 2 2, bottom 1 2 2 2 3, left 2 3 2 2 1, right 3 1 2 2 4; givens
    (1,0) = 1, (2,3) = 5, (3,2) = 3."""
    return towers.parse((REPO / "data" / "towers" / "5x5-easy-2.txt").read_text())


def test_towers_two_of_a_height_in_a_line():
    said = play(towers_5x5(), {(2, 0): 4, (2, 1): 4}).broken()
    assert [(b.sentence, b.cells) for b in said] == [("two 4s in row 2", ((2, 0), (2, 1)))]
    assert sentences(play(towers_5x5(), {(0, 0): 1})) == [  # the given 1 below it
        "two 1s in column 0"]


def test_towers_clues():
    """A clue's line is said broken by its clue only when its heights differ (column 2's
    clue 1 is broken too, by the two 3s: one error, said once)."""
    said = sentences(play(towers_5x5(), {(0, c): c + 1 for c in range(5)}))
    assert said == ["row 0's left clue 2 sees 5 towers", "row 0's right clue 3 sees 1 tower",
                    "two 1s in column 0", "two 3s in column 2",  # the givens below
                    "column 4's top clue 2 cannot be seen with the heights placed"]


# -- Kakuro ------------------------------------------------------------------------------------
def kakuro_8x8():
    return kakuro.parse((REPO / "data" / "kakuro" / "easy-8x8-seed1.txt").read_text())


def test_kakuro_runs():
    puzzle = kakuro_8x8()
    run = puzzle.rules_csp().constraints[0]  # across 11 at (1,0): two cells
    first, second = run.scope
    label = f"the run {run.label}"
    assert (run.label, run.total, len(run.scope)) == ("across 11 at (1,0)", 11, 2)
    said = play(puzzle, {first: 9, second: 9}).broken()
    assert said[0].sentence == f"two 9s in {label}" and said[0].cells == (first, second)
    assert sentences(play(puzzle, {first: 9, second: 3})) == [f"{label} adds up to 12; it "
                                                              "needs 11"]
    assert sentences(play(puzzle, {first: 9, second: 2})) == []
    longer = next(c for c in puzzle.rules_csp().constraints
                  if len(c.scope) > 2 and sum(range(9, 10 - len(c.scope), -1)) >= c.total)
    high = {cell: 9 - i for i, cell in enumerate(longer.scope[:-1])}
    assert f"the run {longer.label} cannot make {longer.total} with " \
           f"{', '.join(map(str, high.values()))} placed" in sentences(play(puzzle, high))


# -- Singles -----------------------------------------------------------------------------------
def singles_10x10():
    return singles.parse((REPO / "data" / "singles" / "easy-10x10-seed1.txt").read_text())


def test_singles_rules():
    puzzle = singles_10x10()
    touch = play(puzzle, {(1, 1): 1, (1, 2): 1}).broken()
    assert [(b.sentence, b.cells) for b in touch] == [
        ("the shaded cells (1,1) and (1,2) touch", ((1, 1), (1, 2)))]
    split = play(puzzle, {(0, 1): 1, (1, 0): 1, (0, 0): 0}).broken()
    assert [(b.sentence, b.cells) for b in split] == [("the white cells are split in two",
                                                       ((0, 0),))]
    row = puzzle.grid[0]
    twice = next(x for x in row if row.count(x) > 1)
    cells = [(0, c) for c, x in enumerate(row) if x == twice][:2]
    said = play(puzzle, dict.fromkeys(cells, 0)).broken()
    assert [(b.sentence, b.cells) for b in said] == [
        (f"two {twice}s stay white in row 0: ({cells[0][0]},{cells[0][1]}), "
         f"({cells[1][0]},{cells[1][1]})", tuple(cells))]


# -- a board that agrees with the solution breaks nothing -------------------------------------
def unique_solution(puzzle) -> dict:
    result = solve(puzzle.to_csp(counting=True), inference="mac",
                   var_order=puzzle.var_order_for("mac"))
    assert result.solved and puzzle.check(puzzle.decode(result.solution)) == []
    return result.solution


PUZZLES = {
    "bridges": lambda: hashi.parse((REPO / "data" / "hashi" / "medium-7x7.txt").read_text()),
    "towers": towers_5x5,
    "kakuro": kakuro_8x8,
    "singles": lambda: singles.parse((REPO / "data" / "singles" / "tricky-7x7-seed1.txt")
                                     .read_text()),
}
SOLUTIONS: dict[str, tuple] = {}


def puzzle_and_solution(name: str) -> tuple:
    if name not in SOLUTIONS:
        puzzle = PUZZLES[name]()
        SOLUTIONS[name] = (puzzle, unique_solution(puzzle))
    return SOLUTIONS[name]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(PUZZLES)), st.integers(0, 2**32), st.floats(0, 1))
def test_decisions_that_agree_with_the_solution_break_nothing(name, seed, share):
    puzzle, solution = puzzle_and_solution(name)
    cells = list(solution)
    random.Random(seed).shuffle(cells)
    chosen = cells[:round(share * len(cells))]
    session = play(puzzle, {var: solution[var] for var in chosen})
    assert session.broken() == []
    assert session.mistakes() == []  # "correct so far"


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_one_wrong_decision_is_a_mistake_and_broken_is_never_wrong(name):
    """A wrong value is always a mistake; when `broken` names something, the board is
    indeed wrong (never a false alarm), as every constraint it names is one the solution
    keeps."""
    puzzle, solution = puzzle_and_solution(name)
    rules = {c.name: c for c in puzzle.rules_csp().constraints}
    for var in list(solution)[:10]:
        wrong = next((x for x in puzzle.to_csp().domains[var] if x != solution[var]), None)
        if wrong is None:
            continue  # a given
        session = play(puzzle, {var: wrong})
        assert [(d.var, d.value) for d in session.mistakes()] == [(var, wrong)]
        for broken in session.broken():
            assert var in rules[broken.constraint].scope


OPTIONS = {"bridges": [{"adjacent": True}, {"adjacent": False}],
           "towers": [{"model": m} for m in ("plain", "easy", "full", "extreme")],
           "kakuro": [{"model": m} for m in ("combined", "decomposed")],
           "singles": [{"uniqueness": u} for u in (None, True, False)]}


@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_the_rules_take_every_model_option(name):
    """Each declared model option gives rules over the same variables and domains as the
    model; an unknown option is refused."""
    puzzle = PUZZLES[name]()
    assert {key for options in OPTIONS[name] for key in options} == puzzle.model_options
    for options in OPTIONS[name]:
        assert puzzle.rules_csp(**options).domains == puzzle.to_csp(**options).domains
    with pytest.raises(ValueError, match="unknown"):
        puzzle.rules_csp(colour="red")
