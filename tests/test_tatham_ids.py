"""Every game ID Tatham's Bridges, Towers and Singles accept is read, with his parameter
grammar; what his games accept but cannot be solved is "unsatisfiable" (exit 3), what they
refuse stays bad input (exit 2, one FILE:LINE:COL line)."""

from __future__ import annotations

import contextlib
import io

import pytest

from csp_puzzles import ParseError, hashi, singles, towers
from csp_puzzles.cli import main

BRIDGES = "4e4b3a3h4g5a3a3i1a2a5a3"  # a 7x7 description of his generator's


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("params, maxb, loops", [
    ("7x7m2", 2, True),
    ("7m2", 2, True),  # his square shorthand
    ("7x7i30e10m2d0", 2, True),  # the full parameters of his "Random seed" dialog
    ("7x7m2d2", 2, True),
    ("7X7m2", 2, True),  # he stops reading at X: 7x7 and his default maxb, 2
    ("7X7m3", 2, True),
    ("7x7m2Z", 2, True),  # letters he does not know are ignored
    ("7x7m3L", 3, False),
    ("7x7i30e10m4Ld1", 4, False),
    ("7", 2, True),
])
def test_bridges_parameters(params: str, maxb: int, loops: bool) -> None:
    puzzle = hashi.parse(f"{params}:{BRIDGES}")
    assert (puzzle.width, puzzle.height, puzzle.maxb, puzzle.loops) == (7, 7, maxb, loops)
    assert len(puzzle.islands) == 12
    status, out, _ = run_cli("solve", "hashi", f"{params}:{BRIDGES}")
    if loops:
        assert status == 0 and out.startswith("solved")
    else:  # read, and this description has no loop-free solution
        assert status == 3 and out.startswith("unsatisfiable")


def test_bridges_island_above_what_m_allows_is_unsatisfiable() -> None:
    game_id = "7x7m1:5e4b3a3h4g5a3a3i1a2a5a3"  # a 5 with at most 4 x 1 bridges
    puzzle = hashi.parse(game_id)
    assert puzzle.maxb == 1 and puzzle.grade() == "unsatisfiable"
    assert puzzle.count_solutions() == 0
    status, out, _ = run_cli("solve", "hashi", game_id)
    assert status == 3 and out.startswith("unsatisfiable")


@pytest.mark.parametrize("game_id, where", [
    ("7x7m5:" + BRIDGES, 4),  # m above 4: he refuses it too
    ("x7m2:" + BRIDGES, 1),
    ("7x7m2:4e4b3a3h4g5a3a3i1a2a5a", None),  # too short
    ("7x7m2:" + BRIDGES + "!", None),
])
def test_bridges_bad_ids_stay_bad_input(game_id: str, where: int | None) -> None:
    with pytest.raises(ParseError) as caught:
        hashi.parse(game_id)
    assert caught.value.line == 1
    if where is not None:
        assert caught.value.column == where
    status, _, err = run_cli("solve", "hashi", game_id)
    assert status == 2 and len(err.strip().splitlines()) == 1 and ":1:" in err


@pytest.mark.parametrize("params", ["4", "4x4", "4dh", "4de", "4x4Q"])
def test_towers_parameters(params: str) -> None:
    puzzle = towers.parse(f"{params}:/1//////3//4//////2")
    assert puzzle.size == 4 and puzzle.grade() == "extreme"


def test_towers_repeated_givens_are_unsatisfiable() -> None:
    game_id = "4:///////////////,1_1n"  # two 1s in the top row: his game accepts it
    puzzle = towers.parse(game_id)
    assert puzzle.given_cells() == {(0, 0): 1, (0, 1): 1}
    assert puzzle.grade() == "unsatisfiable" and puzzle.count_solutions() == 0
    status, out, _ = run_cli("solve", "towers", game_id)
    assert status == 3 and out.startswith("unsatisfiable")
    janko = towers.parse("4 4 4\n- - - -\n- - - -\n- - - -\n- - - -\n"
                         "1 1 - -\n- - - -\n- - - -\n- - - -\n")
    assert janko == puzzle  # the same puzzle in janko's text: read the same way


@pytest.mark.parametrize("params", ["5", "5x5", "5x5dk", "5de", "5x5Z"])
def test_singles_parameters(params: str) -> None:
    puzzle = singles.parse(f"{params}:1234523451345124512351234")
    assert (puzzle.width, puzzle.height) == (5, 5)


def test_singles_one_cell_has_one_solution() -> None:
    """Shading the only cell leaves no unshaded region: his rule, and ours."""
    puzzle = singles.parse("1x1:1")
    counted = puzzle.count(limit=None)
    assert counted.solutions == 1 and counted.solution == frozenset()
    assert puzzle.check(frozenset({(0, 0)})) == ["no cell is left unshaded"]
    status, out, _ = run_cli("solve", "singles", "1x1:1", "--count")
    assert status == 0 and out.startswith("unique")


def test_singles_one_row_grids_are_read_and_solved() -> None:
    """He refuses 1xN grids; the rules still make sense there, so they are read: only the
    ends of a row may be shaded (a shaded cell inside would split the rest)."""
    column = singles.parse("1x4:1121")
    counted = column.count(limit=None)
    assert counted.solutions == 1 and counted.solution == frozenset({(0, 0), (3, 0)})
    row = singles.parse("4x1:1121")
    counted = row.count(limit=None)
    assert counted.solutions == 1 and counted.solution == frozenset({(0, 0), (0, 3)})
    assert singles.parse("1x3:121").count(limit=None).solutions == 3  # no rule wants more
