"""Each puzzle's picture says how it is played (`play`), as plain data the page reads.

Bridges is dragged between islands (each edge's two ends are islands of the drag), Singles
cycled by clicks, Towers and Kakuro typed; every variable a page acts on names its cell, and
the values a gesture cycles through are values of every variable it reaches.
"""

from __future__ import annotations

import pytest

from csp_puzzles import hashi, kakuro, singles, towers
from csp_puzzles.puzzle import picture as pic

HASHI = "7x7m2:d3a32a2b2e3m1a3b3b4a3b3b2"
SINGLES = "5x5:4112421234524525441243243"
TOWERS = "4:1/2/3/4/2/2/2/1/1/2/2/2/4/3/2/1"
KAKURO = ("6 6\n- 8, 34, - 4, 9,\n,7 0 0 14,12 0 0\n,22 0 0 0 0 -\n- 15,11 0 0 13, -\n"
          ",22 0 0 0 0 8,\n,16 0 0 ,15 0 0\n")
PUZZLES = {"hashi": hashi.parse(HASHI), "singles": singles.parse(SINGLES),
           "towers": towers.parse(TOWERS), "kakuro": kakuro.parse(KAKURO)}
GESTURE = {"hashi": pic.DRAG, "singles": pic.CYCLE, "towers": pic.TYPE, "kakuro": pic.TYPE}


@pytest.mark.parametrize("kind", sorted(PUZZLES))
def test_every_puzzle_says_how_it_is_played(kind):
    puzzle = PUZZLES[kind]
    picture = puzzle.picture()
    assert pic.check(picture) == []
    how = picture["play"]
    assert how["gesture"] == GESTURE[kind]
    assert how["help"]
    domains = {pic.key(var): {pic.key(x) for x in values}
               for var, values in puzzle.to_csp().domains.items()}
    for entry in picture["variables"]:
        values = domains[entry["var"]]
        assert set(how["cycle"]) <= values or entry.get("given"), entry["var"]
        for extra in (how["alt"], how["none"]):
            assert extra is None or extra in values


def test_bridges_are_laid_between_islands_of_the_drag():
    puzzle = PUZZLES["hashi"]
    picture = puzzle.picture()
    cells = {tuple(c["cell"]): c for c in picture["play"]["cells"]}
    assert set(cells) == {(i.row, i.col) for i in puzzle.islands}
    assert all(cells[(i.row, i.col)]["need"] == i.value for i in puzzle.islands)
    ends = {tuple(map(tuple, entry["ends"])) for entry in picture["variables"]}
    assert ends == {((puzzle.islands[e.a].row, puzzle.islands[e.a].col),
                     (puzzle.islands[e.b].row, puzzle.islands[e.b].col)) for e in puzzle.edges}
    assert picture["play"]["cycle"] == ["1", "2"] and picture["play"]["none"] == "0"


@pytest.mark.parametrize("kind", ["singles", "towers", "kakuro"])
def test_each_cell_variable_names_its_own_cell(kind):
    picture = PUZZLES[kind].picture()
    for entry in picture["variables"]:
        assert pic.key(tuple(entry["cell"])) == entry["var"]
        assert (entry["x"], entry["y"]) == (entry["cell"][1], entry["cell"][0])


def test_a_play_description_that_a_page_could_not_play_is_reported():
    picture = PUZZLES["singles"].picture()
    del picture["variables"][0]["cell"]
    assert pic.check(picture) == ["variable '(0,0)': no cell to act on"]
    bridges = PUZZLES["hashi"].picture()
    bridges["variables"][0]["ends"][1] = [3, 3]  # water
    assert len(pic.check(bridges)) == 1
    with pytest.raises(ValueError, match="unknown gesture"):
        pic.play("swipe", ())
