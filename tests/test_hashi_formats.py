"""Hashi input formats: detection, every accepted format, errors with line and column."""

from __future__ import annotations

import pytest

from csp_puzzles import ParseError, hashi

SEED_000 = "1\t0\t2\t0\t0\n0\t0\t0\t0\t0\n0\t0\t2\t0\t2\n0\t0\t0\t0\t0\n0\t0\t2\t0\t3\n"


def islands(puzzle: hashi.Hashi) -> dict[tuple[int, int], int]:
    return {island.pos: island.value for island in puzzle.islands}


def test_seed_000_matrix():
    puzzle = hashi.parse(SEED_000)
    assert (puzzle.height, puzzle.width, puzzle.maxb, puzzle.loops) == (5, 5, 2, True)
    assert islands(puzzle) == {(0, 0): 1, (0, 2): 2, (2, 2): 2, (2, 4): 2, (4, 2): 2,
                               (4, 4): 3}


def test_compact_rows_and_water_symbols():
    assert islands(hashi.parse("1.2\n---\n2.3")) == islands(hashi.parse("1 0 2\n0 0 0\n2 0 3"))


def test_janko_header_and_dashes():
    puzzle = hashi.parse("3 4\n2 - - 2\n- - - -\n2 - - 2\n")
    assert (puzzle.height, puzzle.width) == (3, 4)
    assert len(puzzle.islands) == 4


def test_coelho_header_with_crlf():
    text = "4 3 4\r\n 2  0  0  2 \r\n 0  0  0  0 \r\n 2  0  0  2 \r\n"
    puzzle = hashi.parse(text)
    assert (puzzle.height, puzzle.width) == (3, 4)
    assert islands(puzzle) == {(0, 0): 2, (0, 3): 2, (2, 0): 2, (2, 3): 2}


def test_first_line_that_fits_the_grid_is_a_row():
    # "1 0 1" has three cells like the rows after it, and no header would fit
    puzzle = hashi.parse("1 0 1\n0 0 0\n1 0 1\n")
    assert puzzle.height == 3 and len(puzzle.islands) == 4


def test_tatham_ids_with_maxb_and_no_loops():
    puzzle = hashi.parse("10x10m4:a4bAc6j4m1o8a8a5f3g2b4bAd87b6g2b6a4b6")
    assert (puzzle.width, puzzle.height, puzzle.maxb, puzzle.loops) == (10, 10, 4, True)
    assert 10 in {island.value for island in puzzle.islands}
    no_loops = hashi.parse("10x10m2L:a3a3c2a21a2e4b2d1c4g5c1a1a2o2c4a3a2h3j2c3d2")
    assert not no_loops.loops
    assert hashi.parse("5x5:2a4a3j1c2b2b").maxb == 2


@pytest.mark.parametrize("game_id", [
    "5x5m2:2a4a3j1c2b2b", "10x10m2L:3b2a1a1a2j3h4j2c4d5j3a2c1a2k1c4c3c2d4a3",
    "10x10m4:a3g47aAb8g2k4g7e5l4t2f6a8f4", "10x10m1:2e3a2b1b2d1h2a3c3g1o1o2a3b3j2a2a1a1b1",
])
def test_tatham_round_trip(game_id):
    puzzle = hashi.parse(game_id)
    assert puzzle.to_tatham() == game_id


def test_matrix_round_trip():
    puzzle = hashi.parse(SEED_000)
    again = hashi.parse(puzzle.to_text())
    assert islands(again) == islands(puzzle)
    assert (again.width, again.height) == (puzzle.width, puzzle.height)


def test_adjacent_islands_are_legal_input():
    puzzle = hashi.parse("1 1\n")
    assert len(puzzle.edges) == 1 and puzzle.edges[0].touching


def error_at(text: str) -> tuple[int, int, str]:
    with pytest.raises(ParseError) as info:
        hashi.parse(text, filename="grid.txt")
    err = info.value
    assert err.filename == "grid.txt" and "\n" not in str(err)
    return err.line, err.column, err.message


def test_non_digit_token():
    line, column, message = error_at("1 0 2\n0 x 0\n2 0 1\n")
    assert (line, column) == (2, 3) and "'x'" in message


def test_island_out_of_range_for_maxb():
    assert error_at("1 0 9\n")[:2] == (1, 5)  # grid text: islands are 1-8
    # Tatham's game accepts an island of 5 with at most 1 bridge per pair: no solution
    assert hashi.parse("5x5m1:5a4a3j1c2b2b").grade() == "unsatisfiable"


def test_ragged_rows():
    line, column, message = error_at("1 0 2\n0 0\n2 0 1\n")
    assert line == 2 and "expected 3" in message


def test_empty_grid_and_grid_without_islands():
    assert error_at("\n# only a comment\n")[:2] == (1, 1)
    line, column, message = error_at("0 0\n0 0\n")
    assert "no island" in message


def test_header_that_lies():
    line, column, message = error_at("3 3\n1 0 0 1\n0 0 0 0\n1 0 0 1\n")
    assert (line, column) == (1, 1) and "header" in message
    line, column, message = error_at("4 3 9\n2 0 0 2\n0 0 0 0\n2 0 0 2\n")
    assert (line, column) == (1, 5) and "9 islands" in message


def test_bad_tatham_ids():
    assert error_at("5x5m2:2a4a3j1c2b2")[2].startswith("the description covers 23 cells")
    line, column, message = error_at("5x5m2:2a4a3j1c2b2b!")
    assert (line, column) == (1, 19)
    assert error_at("5x5m7:2a4a3j1c2b2b")[:2] == (1, 4)  # at the m
