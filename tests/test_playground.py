"""The playground's kernel side, without a browser: what each action the page sends does to
the session, and what the page receives back (`state`: domains, the decided variables, the
marks, the words; `replay`, the trace for the tree).

A puzzle is played with nothing after each move (a move changes its own variable only)
until the student chooses forward checking or the puzzle's rules; checking marks nothing,
or the broken constraints on demand or as soon as they are provable, or the decisions
against the solution; trials are rejected or accepted whole; undo after arc consistency puts
back exactly what it removed, and says how many; a board whose undecided cells are all
blank (no bridge, a white cell) and right is solved, and undo takes that last move back.
"""

from __future__ import annotations

import pytest

from csp_puzzles import Session, hashi, singles, towers
from csp_puzzles.examples import map_colouring
from csp_puzzles.puzzle import picture as pic
from csp_puzzles.viz import Playground

TOWERS = "4:1/2/3/4/2/2/2/1/1/2/2/2/4/3/2/1"
HASHI = "7x7m2:d3a32a2b2e3m1a3b3b4a3b3b2"
SINGLES = "5x5:4112421234524525441243243"


def board(play: Playground) -> dict[str, list[str]]:
    """The domains as the page receives them, by variable key (value keys)."""
    return {key: [play.data["init"][v][i] for i in play.state["domains"][v]]
            for v, key in enumerate(play.data["keys"])}


def domains(session) -> dict[str, list[str]]:
    return {pic.key(var): [pic.key(x) for x in values] for var, values in session.domains.items()}


def test_the_page_receives_domains_and_the_decided_variables_not_a_replay():
    play = Playground(towers.parse(TOWERS))
    assert play.data["keys"] == [pic.key(var) for var in play.session.csp.variables]
    assert board(play) == domains(play.session)
    play.act("set", var="(0,0)", value="4", id=7, view="page-1")
    assert board(play) == domains(play.session)
    assert play.state["assigned"] == [play.data["keys"].index("(0,0)")]
    assert (play.state["id"], play.state["view"]) == (7, "page-1")  # the answer to action 7
    assert play.replay["events"] and play.replay["keys"] == play.data["keys"]


def test_a_move_changes_only_its_own_variable_until_the_student_asks_for_more():
    puzzle = towers.parse(TOWERS)
    play = Playground(puzzle)
    assert play.state["after"] == "nothing" and play.session.after_move == "nothing"
    before = board(play)
    said = play.act("set", var="(0,0)", value="4")
    assert said == "set cell (0,0) = 4: 3 values removed."
    after = board(play)
    assert [key for key in after if after[key] != before[key]] == ["(0,0)"]
    assert play.act("after", how="forward checking") == "after each move: forward checking."
    play.act("set", var="(1,1)", value="4")
    changed = {key for key in after if board(play)[key] != after[key]}
    assert changed == {"(1,1)", "(1,0)", "(1,2)", "(1,3)", "(2,1)", "(3,1)", "(0,1)"}
    assert play.act("after", how="sometimes").startswith("not done: after each move: one of")
    given = Playground(Session(puzzle))  # a session keeps its own setting
    assert given.session.after_move == "propagation"


def test_check_names_each_broken_constraint_and_marks_its_cells():
    play = Playground(towers.parse(TOWERS))
    assert play.act("check") == "check: no rule is broken so far."
    play.act("set", var="(0,0)", value="2")
    play.act("set", var="(0,1)", value="2")
    said = play.act("check")
    broken = play.session.broken()
    assert said.startswith(f"check: {len(broken)} rules broken: ")
    assert all(b.sentence in said for b in broken) and broken
    marked = {v for v, _, how in play.state["marks"] if how == "error"}
    assert marked == {play.data["keys"].index(key) for key in ("(0,0)", "(0,1)")}
    assert play.state["errors"] == []  # checking is off: only the check marks


@pytest.mark.parametrize("how", ["off", "on demand", "errors", "correct so far"])
def test_each_checking_mode_marks_what_it_says(how):
    play = Playground(towers.parse(TOWERS), checking=how)
    play.act("set", var="(0,0)", value="4")  # right (the solution's 4)
    assert play.state["errors"] == []
    play.act("set", var="(0,1)", value="4")  # wrong, and provably: two 4s in row 0
    wrong = [play.data["keys"].index(key) for key in ("(0,0)", "(0,1)")]
    expected = {"off": [], "on demand": [], "errors": wrong, "correct so far": wrong[1:]}
    assert play.state["errors"] == expected[how]
    assert play.state["checking"] == how


def test_a_rejected_trial_puts_the_board_back_exactly_and_trials_nest():
    play = Playground(towers.parse(TOWERS))
    play.act("set", var="(0,0)", value="4")
    before = board(play)
    play.act("suppose", var="(1,1)", value="3")
    play.act("set", var="(2,2)", value="1")
    play.act("suppose", var="(3,3)", value="2")  # a trial inside the trial
    assert play.state["trials"] == 2
    assert play.act("reject").startswith("reject the trial cell (3,3) = 2")
    assert play.state["trials"] == 1 and board(play)["(2,2)"] == ["1"]
    play.act("reject")
    assert play.state["trials"] == 0 and board(play) == before
    play.act("suppose", var="(1,1)", value="4")
    play.act("accept")
    assert play.state["trials"] == 0 and board(play)["(1,1)"] == ["4"]
    kept = [play.data["keys"][v] for v in play.state["assigned"]]
    assert kept == ["(0,0)", "(1,1)"]


def test_undo_after_arc_consistency_puts_back_exactly_what_it_removed():
    play = Playground(Session(map_colouring(), "none"))
    play.act("assign", var="WA", value="red")
    before = board(play)
    said = play.act("arc consistency")
    after = board(play)
    removed = sum(len(before[k]) - len(after[k]) for k in before)
    assert removed > 0 and said.startswith("arc consistency: ")
    assert f"{removed} values removed" in said
    assert play.act("undo") == f"undone: arc consistency; {removed} values put back."
    assert board(play) == before
    assert play.state["redo"] == 1
    assert play.act("redo").startswith("redone: arc consistency")
    assert board(play) == after


def test_hint_in_a_wipeout_names_the_decision_that_led_there_and_once_solved_says_so():
    play = Playground(Session(map_colouring(), "fc"))
    play.act("assign", var="WA", value="red")
    play.act("assign", var="NT", value="green")
    play.act("assign", var="Q", value="blue")  # SA has no colour left
    assert play.state["status"] == "wipeout"
    said = play.act("hint")
    assert said.startswith("no hint in a wipe-out: undo first")
    decision = play.session.wipeout.decision
    if decision is not None:
        assert f"{decision.var} = {decision.value}" in said
    play.act("undo")
    play.act("finish")
    assert play.state["status"] == "solved"
    assert play.act("hint").startswith("no hint: the puzzle is solved")


def test_laying_the_bridges_alone_solves_the_puzzle_and_undo_takes_that_move_back():
    puzzle = hashi.parse(HASHI)
    play = Playground(puzzle)
    solution = puzzle.solution_domains(puzzle.solve().solution)
    bridges = [(var, n) for var, (n,) in solution.items() if n]
    for var, n in bridges:
        for count in range(1, n + 1):  # a drag each: 1, then 2
            said = play.act("set", var=pic.key(var), value=str(count))
    moves = sum(n for _, n in bridges)
    assert play.session.status == "solved"
    assert said.endswith(f"The puzzle is solved: {moves} moves, 0 hints.")
    blank = [var for var, (n,) in solution.items() if not n]
    assert blank and all(play.session.domains[var] == (0,) for var in blank)
    play.act("undo")
    assert play.session.status == "open"
    assert all(var not in play.session.decided for var in blank)
    assert len(play.session.domains[bridges[-1][0]]) == 3


def test_shading_the_right_cells_alone_solves_singles():
    puzzle = singles.parse(SINGLES)
    play = Playground(puzzle)
    shaded = play.data["picture"]["play"]["cycle"][0]  # a click shades
    for cell in sorted(puzzle.solve().solution):
        said = play.act("set", var=pic.key(tuple(cell)), value=shaded)
    assert "solved" in said and play.session.status == "solved"


def test_a_move_refused_says_why_and_changes_nothing():
    play = Playground(towers.parse(TOWERS))
    before = board(play)
    assert play.act("set", var="(9,9)", value="1") == "not done: unknown variable '(9,9)'."
    assert play.act("set", var="(0,0)", value="7").startswith("not done: '7' is not a value")
    assert play.act("clear", var="(0,0)").startswith("not done: ")
    assert board(play) == before and play.state["moves"] == 0
    with pytest.raises(ValueError, match="unknown action"):
        play.act("teleport")


def test_pencil_marks_are_the_players_own_eliminations():
    play = Playground(towers.parse(TOWERS))
    play.act("remove", var="(0,0)", value="1")
    assert board(play)["(0,0)"] == ["2", "3", "4"] and play.state["assigned"] == []
    play.act("restore", var="(0,0)", value="1")
    assert board(play)["(0,0)"] == ["1", "2", "3", "4"]
    assert play.state["moves"] == 2 and play.state["undo"] == 2


def test_the_benchmark_plays_the_puzzles_of_the_course_notebooks():
    """`csp-puzzles bench playground --lite` and the offline test play the playgrounds of
    notebooks 03-06 with the gestures of `COURSE`'s puzzles: the very puzzles shown."""
    import json
    from pathlib import Path

    from csp_puzzles.bench.playground import COURSE
    from csp_puzzles.puzzle.registry import puzzle_module

    repo = Path(__file__).resolve().parent.parent
    for path, (kind, text) in COURSE.items():
        cells = json.loads((repo / path).read_text(encoding="utf-8"))["cells"]
        source = "\n".join("".join(cell["source"]) for cell in cells)
        assert "Playground(" in source, path
        ours = puzzle_module(kind).parse(text)
        if kind == "towers":  # the notebook reads it from the data folder
            shown = puzzle_module(kind).parse(
                (repo / "data" / "towers" / "5x5-hard-1.txt").read_text(encoding="utf-8"))
        elif kind == "kakuro":  # the notebook writes it as janko.at text
            start = source.index("TEXT = '''") + len("TEXT = '''")
            shown = puzzle_module(kind).parse(source[start:source.index("'''", start)])
        else:
            assert text in source, path
            shown = ours
        assert shown.to_text() == ours.to_text(), path
