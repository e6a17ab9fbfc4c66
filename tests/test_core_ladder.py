"""The ladder of rules: grades read from it agree with the rule levels it is built from."""

from __future__ import annotations

from csp_puzzles import CSP, AllDifferent, hashi
from csp_puzzles.core.ladder import UNSATISFIABLE, Rung, fixpoint, grade, refutable, solved_by
from csp_puzzles.examples import queens

EASY_7X7 = "7x7m2:b2b4a3c1c1a3a4h4b5a2h3b6b2"


def test_hashi_grade_is_the_first_rung_that_solves() -> None:
    puzzle = hashi.parse(EASY_7X7)
    ladder = puzzle.ladder()
    assert [rung.name for rung in ladder] == ["easy", "medium", "hard"]
    name = grade(ladder)
    assert name == puzzle.grade()
    first = [rung.name for rung in ladder].index(name)
    assert all(solved_by(rung) is False for rung in ladder[:first])
    state = fixpoint(ladder[first])
    assert state is not None and state.unfixed == 0
    solution = puzzle.decode({var: state.value(var) for var in state.csp.variables})
    assert puzzle.check(solution) == []


def test_a_rung_that_gets_stuck_grades_nothing_and_a_contradiction_is_unsatisfiable() -> None:
    stuck = Rung("rules", queens(4))
    assert solved_by(stuck) is False and grade([stuck]) is None
    csp = CSP()
    for name in "xyz":
        csp.add_variable(name, [1, 2])
    csp.add_constraint(AllDifferent(list("xyz")))
    assert grade([Rung("rules", csp)]) == UNSATISFIABLE


def test_probing_refutes_a_value_the_rules_alone_keep() -> None:
    # x, y, z in {1, 2}, x != y, y != z, x != z by pairs: arc consistency keeps everything,
    # but x = 1 forces y = 2 and z = 2, which clash: probing refutes it
    csp = CSP()
    for name in "xyz":
        csp.add_variable(name, [1, 2])
    for a, b in ("xy", "yz", "xz"):
        csp.add_constraint(AllDifferent([a, b]))
    rung = Rung("forcing", csp, probe=csp)
    state = fixpoint(Rung("rules", csp))
    assert state is not None and state.unfixed == 3
    assert refutable(rung, state) == ("x", 1)
    assert fixpoint(rung) is None and grade([rung]) == UNSATISFIABLE
