"""Playing the puzzles as puzzles (issue 38): each puzzle played to "solved" by `set` moves
alone, its unique solution made move by move in a random order, under each setting of
`after_move`; the final board passes the puzzle's own independent checker. With nothing
after a move, one Towers digit no longer solves the grid."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from csp_puzzles import Session, hashi, kakuro, singles, towers
from csp_puzzles.core.moves import AFTER_MOVE
from tests.test_session_checking import unique_solution

REPO = Path(__file__).resolve().parent.parent
PUZZLES = {
    "bridges": ("hashi", "medium-7x7.txt", hashi),
    "towers": ("towers", "5x5-hard-1.txt", towers),
    "kakuro": ("kakuro", "easy-8x8-seed1.txt", kakuro),
    "singles": ("singles", "tricky-7x7-seed1.txt", singles),
}


def load(name: str):
    folder, file, kind = PUZZLES[name]
    return kind.parse((REPO / "data" / folder / file).read_text())


@pytest.mark.parametrize("seed", [38, 39])
@pytest.mark.parametrize("setting", AFTER_MOVE)
@pytest.mark.parametrize("name", sorted(PUZZLES))
def test_each_puzzle_is_played_to_solved_by_set_moves(name, setting, seed):
    puzzle = load(name)
    solution = unique_solution(puzzle)
    session = Session(puzzle, after_move=setting)
    order = list(solution)
    random.Random(seed).shuffle(order)
    moves = 0
    for var in order:
        if session.status == "solved":  # propagation after a move may finish it early
            break
        assert session.status == "open"
        session.set(var, solution[var])
        moves += 1
    assert session.status == "solved" and session.hint() is None and session.arcs() == []
    board = {var: values[0] for var, values in session.domains.items()}
    assert board == solution
    assert puzzle.check(puzzle.decode(board)) == []  # the puzzle's own checker
    assert session.broken() == [] and session.mistakes() == []
    if setting == "nothing":  # every cell played, none deduced
        assert moves == len(order) - len(session.one_value_left)


def test_one_towers_digit_no_longer_solves_the_grid():
    puzzle = towers.parse((REPO / "data" / "towers" / "5x5-easy-2.txt").read_text())
    solution = unique_solution(puzzle)
    session = Session(puzzle, after_move="nothing")
    before = session.domains
    cell = next(var for var, values in before.items() if len(values) > 1)
    change = session.set(cell, solution[cell])
    assert session.status == "open" and set(change.removed) == {cell}
    assert {var for var in before if session.domains[var] != before[var]} == {cell}
    assert len(session.one_value_left) == 3  # the givens
    assert session.decided == [cell]


def test_bridges_cycle_one_two_none_and_no_bridge():
    """The page's gestures as moves: a drag sets 1, again 2, again 0 (cleared: open); a
    right-drag sets 0 ("no bridge")."""
    puzzle = load("bridges")
    session = Session(puzzle, after_move="nothing")
    edge = session.csp.variables[0]
    for value in (1, 2):
        session.set(edge, value)
        assert session.domains[edge] == (value,)
    session.clear(edge)
    assert session.domains[edge] == session.csp.domains[edge] and session.decided == []
    session.set(edge, 0)
    assert session.decided == [edge]
    for _ in range(4):
        session.undo()
    assert session.domains == Session(puzzle).domains and not session.can_undo


def test_singles_cycles_open_shaded_circled_open():
    puzzle = load("singles")
    session = Session(puzzle, after_move="nothing")
    cell = (0, 0)
    session.set(cell, 1)  # shaded
    session.set(cell, 0)  # circled: kept white
    assert session.domains[cell] == (0,)
    session.clear(cell)
    assert session.domains[cell] == (0, 1) and session.history == [
        "set cell (0,0) = shaded", "set cell (0,0) = unshaded (it was shaded)",
        "clear cell (0,0)"]


def test_pencil_marks_on_a_towers_cell():
    puzzle = load("towers")
    session = Session(puzzle, after_move="nothing")
    cell = next(var for var, values in session.domains.items() if len(values) > 1)
    session.remove(cell, 1)
    session.remove(cell, 2)
    assert session.pencil == {cell: (1, 2)}
    session.set(cell, 2)  # typing a digit crossed out: it comes back, then is set
    assert session.pencil == {cell: (1,)} and session.domains[cell] == (2,)
