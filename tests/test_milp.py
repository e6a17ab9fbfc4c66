"""The "milp" engine (integer programs on HiGHS) for Towers, Singles, Hashi and Kakuro.

Every answer is judged by the puzzle's independent checker; on samples of Tatham's and
janko's sets it must equal the published solution and be counted unique by a no-good row.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys

import pytest

from csp_puzzles import hashi, kakuro, singles, towers
from csp_puzzles.cli import main
from csp_puzzles.core.errors import LimitReached, MissingExtra
from csp_puzzles.singles import milp as singles_milp
from csp_puzzles.solvers import milp
from csp_puzzles.towers import milp as towers_milp
from csp_puzzles.towers.milp import TowersProgram
from tests.conftest import REPO, janko, shared_file, tatham
from tests.test_hashi_data import janko_solution, tatham_solution
from tests.test_kakuro_janko import _given as janko_digits
from tests.test_singles_data import janko_shaded, tatham_shaded

pytest.importorskip("highspy")

TOWERS_4 = "4:1/2/3/4/2/2/2/1/1/2/2/2/4/3/2/1"  # the first of Tatham's 4x4 easy set


def solve_and_count(puzzle, name):
    """The MILP answer: valid, and proved unique by counting to two."""
    result = puzzle.solve(engine="milp", timeout=60)
    assert result.status == "solved", name
    assert puzzle.check(result.solution) == [], name
    counted = puzzle.count(limit=2, engine="milp", timeout=60)
    assert (counted.status, counted.solutions, counted.unique) == ("solved", 1, True), name
    assert counted.solution == result.solution
    return result.solution


def sample(rows, step):
    return rows[::step]


# -- the published sets ---------------------------------------------------------------------
def test_tatham_towers_sample():
    rows = [row for row in tatham("towers") if int(row["params"].split("d")[0]) <= 6]
    for row in sample(rows, 5):
        grid = solve_and_count(towers.parse(row["id"]), row["id"])
        assert "S" + "".join(str(h) for line in grid for h in line) == row["solve_move"]


def test_janko_skyscraper_sample():
    standard = [(name, entry) for name, entry in janko("skyscraper")
                if entry["problem"].split()[:3] in (["5"] * 3, ["6"] * 3)]
    for name, entry in sample(standard, 12)[:4]:
        grid = solve_and_count(towers.parse(entry["problem"], filename=name), name)
        expected = [[int(x) for x in line.split()]
                    for line in entry["solution"].splitlines()[1:] if line.strip()]
        assert grid == expected, name


def test_tatham_singles_sample():
    for row in sample(tatham("singles"), 7):
        shaded = solve_and_count(singles.parse(row["id"]), row["id"])
        assert shaded == tatham_shaded(row["solve_move"]), row["id"]


def test_janko_hitori_sample():
    for name, entry in sample(janko("hitori"), 90):
        shaded = solve_and_count(singles.parse(entry["problem"], filename=name), name)
        assert shaded == janko_shaded(entry["solution"]), name


def test_tatham_bridges_sample_with_loops_forbidden_and_more_bridges():
    rows = tatham("bridges")
    chosen = sample([r for r in rows if int(r["params"].split("x")[0]) <= 10], 6)
    chosen += [r for r in rows if "L" in r["params"] or "m4" in r["params"]][:3]
    assert any("L" in r["params"] for r in chosen)
    for row in chosen:
        bridges = solve_and_count(hashi.parse(row["id"]), row["id"])
        assert bridges == tatham_solution(row["solve_move"]), row["id"]


def test_janko_hashi_sample():
    for name, entry in sample(janko("hashi"), 120):
        puzzle = hashi.parse(entry["problem"], filename=name)
        bridges = solve_and_count(puzzle, name)
        assert bridges == janko_solution(puzzle, entry["solution"]), name


def test_janko_kakuro_sample():
    small = [(name, entry) for name, entry in janko("kakuro")
             if int(entry["problem"].split()[0]) * int(entry["problem"].split()[1]) <= 144]
    for name, entry in sample(small, 50)[:6]:
        grid = solve_and_count(kakuro.parse(entry["problem"], filename=name), name)
        assert grid == janko_digits(entry["solution"]), name


def test_coelho_instance_has_adjacent_islands_and_several_solutions():
    path = shared_file("coelho-hashi", "100", "Hs_16_100_25_00_001.has")
    puzzle = hashi.parse(path.read_text())
    counted = puzzle.count(limit=3, engine="milp", timeout=60)
    assert counted.status == "solved" and counted.solutions == 3 and counted.unique is False


# -- counting, unsatisfiable, limits --------------------------------------------------------
def test_no_good_rows_enumerate_every_solution_once():
    no_clues = towers.Towers(3, (0,) * 3, (0,) * 3, (0,) * 3, (0,) * 3)
    grids = list(towers_milp.solutions(no_clues))
    assert len(grids) == 12  # the 3x3 Latin squares
    assert len({str(g) for g in grids}) == 12
    assert all(no_clues.check(g) == [] for g in grids)


def test_counting_finds_two_different_valid_solutions():
    puzzle = singles.parse("1 2\n1 1\n")  # shade (0,0) or (0,1)
    counted = puzzle.count(limit=5, engine="milp")
    assert (counted.solutions, counted.unique) == (2, False)
    found = list(singles_milp.solutions(puzzle))
    assert sorted(map(sorted, found)) == [[(0, 0)], [(0, 1)]]
    assert all(puzzle.check(s) == [] for s in found)


def test_unsatisfiable_answers():
    assert hashi.parse("1 0 1 0 1\n").solve(engine="milp").status == "unsatisfiable"
    assert hashi.parse("1 1\n").solve(engine="milp", adjacent=False).status == "unsatisfiable"
    walled = singles.parse("2 2\n1 1\n1 1\n")  # only diagonal shadings, which cut the grid
    counted = walled.count(engine="milp")
    assert (counted.status, counted.solutions, counted.unique) == ("unsatisfiable", 0, False)
    both_sides_three = towers.Towers(3, (0, 0, 0), (0, 0, 0), (3, 0, 0), (3, 0, 0))
    assert both_sides_three.solve(engine="milp").status == "unsatisfiable"


def test_time_limit_is_reported_as_limit():
    big = hashi.parse(shared_file("coelho-hashi", "400", "Hs_34_400_75_10_016.has").read_text())
    assert big.solve(engine="milp", timeout=0.0).status == "limit"
    counted = big.count(limit=1000, engine="milp", timeout=0.5)
    assert counted.status == "limit" and counted.unique is None
    program = TowersProgram(towers.parse((REPO / "data" / "towers" / "9x9-hard-1.txt")
                                         .read_text())).program
    with pytest.raises(LimitReached):  # a deadline already past: no HiGHS run at all
        next(milp.solutions(program, lambda values: [], [], deadline=0.0))


def test_towers_presolve_and_orderings_keep_every_solution():
    """Presolve by line consistency removes heights, never solutions, and a clued line as a
    choice among its orderings allows what its visibility rows allow: on small grids with a
    few clues (often ambiguous) the MILP counts, with and without orderings, equal the CSP
    engine's."""
    import random

    from csp_puzzles.towers.generate import clues_of, latin_square

    rng = random.Random(7)
    counts = []
    for _ in range(12):
        n = rng.choice((4, 5))
        sides = [[clue if rng.random() < 0.6 else 0 for clue in side]
                 for side in clues_of(latin_square(n, rng))]
        puzzle = towers.Towers.from_sides(n, sides)
        ours = list(towers_milp.solutions(puzzle))
        assert all(puzzle.check(grid) == [] for grid in ours)
        assert len({str(grid) for grid in ours}) == len(ours)
        assert len(ours) == puzzle.count_solutions(limit=10_000), sides
        seen_rows_only = list(towers_milp.solutions(puzzle, orderings_limit=0))
        assert sorted(map(str, seen_rows_only)) == sorted(map(str, ours)), sides
        counts.append(len(ours))
    assert max(counts) > 1 and min(counts) >= 1, counts
    assert TowersProgram(puzzle).ordered  # the default writes these small lines as orderings


def test_towers_orderings_are_the_permutations_showing_the_clues():
    from itertools import permutations

    from csp_puzzles.towers.rules import Line

    n = 5
    every = {cell: set(range(1, n + 1)) for cell in range(n)}
    for front, back in ((0, 0), (2, 0), (0, 3), (2, 2), (1, 5), (3, 3)):
        line = Line("row 0", range(n), front, back, "left", "right")
        expected = [p for p in permutations(range(1, n + 1)) if line.holds(p)]
        assert towers_milp.orderings(line, every, limit=120) == expected
        if len(expected) > 3:
            assert towers_milp.orderings(line, every, limit=3) is None
    narrow = {**every, 0: {2}}
    line = Line("row 0", range(n), 2, 0, "left", "right")
    assert all(p[0] == 2 for p in towers_milp.orderings(line, narrow, limit=120))


def test_the_big_m_visibility_of_the_report_gives_the_same_answers():
    small = [row for row in tatham("towers") if int(row["params"].split("d")[0]) <= 5]
    for row in sample(small, 4):
        puzzle = towers.parse(row["id"])
        hull = list(towers_milp.solutions(puzzle, visibility="hull"))
        big_m = list(towers_milp.solutions(puzzle, visibility="big-m"))
        assert hull == big_m and len(hull) == 1


#: a 10x10 Singles grid (generated before Tatham's levels) on which HiGHS 1.15's presolve
#: broke a row
PRESOLVE_BREAKER = """10 10
6 7 3 1 1 4 1 9 2 5
5 8 1 6 8 6 2 7 4 7
3 9 7 7 3 2 4 5 2 6
7 5 2 2 4 3 3 6 1 10
7 1 5 8 9 6 2 3 10 4
1 4 7 3 1 7 5 10 9 4
2 2 7 10 10 9 5 8 5 1
8 2 6 1 5 5 9 4 6 2
9 6 8 3 2 1 4 10 3 7
4 9 9 2 5 5 3 1 2 3
"""


def test_no_good_rounds_survive_a_presolve_that_breaks_a_row():
    """HiGHS 1.15's presolve once postsolved an answer breaking a row in the third round
    of this loop (HiGHS says "Solve error"); the loop then solves that run without it."""
    puzzle = singles.parse(PRESOLVE_BREAKER)
    model = singles_milp.SinglesProgram(puzzle, walled_cells=False)
    shades = list(model.shade.values())
    stats = milp.LoopStats()

    def forbid_five_answers(values):
        return [milp.no_good(shades, values)] if stats.runs < 6 else []

    values = next(milp.solutions(model.program, forbid_five_answers, shades, stats=stats))
    assert stats.runs == 6 and len(values) == len(model.program)


def test_a_guide_steers_but_never_removes_solutions():
    program = milp.IntegerProgram()
    choices = [program.binary() for _ in range(3)]
    program.add(milp.exactly(choices, 1))
    program.guide = {choices[2]: -1.0}  # prefer the last one
    found = list(milp.solutions(program, lambda values: [], choices))
    assert sorted(found) == [[0, 0, 1], [0, 1, 0], [1, 0, 0]]


def test_empty_and_tiny_programs():
    empty = milp.IntegerProgram()
    assert list(milp.solutions(empty, lambda v: [], [])) == [[]]
    empty.add(milp.at_least([], 1))
    assert list(milp.solutions(empty, lambda v: [], [])) == []


# -- the protocol and the command line --------------------------------------------------------
def test_engine_options_are_checked_and_results_have_one_shape():
    puzzle = towers.parse(TOWERS_4)
    for option in ({"inference": "fc"}, {"var_order": "mrv"}, {"max_nodes": 10},
                   {"trace": True}, {"model": "plain"}):
        with pytest.raises(ValueError, match="MILP engine takes only a timeout"):
            puzzle.solve(engine="milp", **option)
    with pytest.raises(ValueError, match="unknown engine"):
        puzzle.solve(engine="sat")  # SAT is Hashi's only
    by_core, by_milp = puzzle.solve(), puzzle.solve(engine="milp")
    assert by_milp.solved and by_milp.solution == by_core.solution
    assert by_milp.engine == "milp"
    core_json, milp_json = by_core.as_dict(), by_milp.as_dict()
    assert set(milp_json) == set(core_json) and set(milp_json["stats"]) == set(core_json["stats"])
    assert milp_json["solution"] == core_json["solution"]


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_cli_engine_milp():
    code, out, _ = run_cli("solve", "towers", TOWERS_4, "--engine", "milp",
                           "--json")
    grid = [[4, 3, 2, 1], [1, 4, 3, 2], [2, 1, 4, 3], [3, 2, 1, 4]]
    assert code == 0 and json.loads(out)["solution"]["grid"] == grid
    grid = REPO / "data" / "singles" / "easy-10x10-seed1.txt"
    code, out, _ = run_cli("solve", "singles", str(grid), "--engine", "milp", "--count")
    assert code == 0 and out.startswith("unique: exactly 1 solution (MILP engine")
    kakuro_file = str(REPO / "data" / "kakuro" / "easy-8x8-seed1.txt")
    code, out, _ = run_cli("solve", "kakuro", kakuro_file, "--engine", "milp", "--json")
    assert code == 0 and json.loads(out)["status"] == "solved"
    code, out, err = run_cli("solve", "towers", TOWERS_4, "--engine", "sat")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "--engine sat does not apply to towers" in err


def test_cli_unsatisfiable_and_limit_exit_codes(tmp_path):
    odd = tmp_path / "odd.txt"
    odd.write_text("1 0 1 0 1\n")
    code, out, _ = run_cli("solve", "hashi", str(odd), "--engine", "milp")
    assert code == 3 and out.startswith("unsatisfiable")
    big = shared_file("coelho-hashi", "400", "Hs_34_400_75_10_016.has")
    code, out, _ = run_cli("solve", "hashi", str(big), "--engine", "milp", "--timeout", "0")
    assert code == 4 and out.startswith("limit reached")


def test_cli_without_highspy_is_one_line_and_exit_2(monkeypatch):
    monkeypatch.setitem(sys.modules, "highspy", None)  # makes `import highspy` fail
    with pytest.raises(MissingExtra, match=r"csp-puzzles\[milp\]"):
        towers.parse(TOWERS_4).solve(engine="milp")
    code, out, err = run_cli("solve", "towers", TOWERS_4, "--engine", "milp")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("csp-puzzles: error: ")
    assert "pip install 'csp-puzzles[milp]'" in err


@pytest.mark.parametrize("clock", ["cpu", "wall"])
def test_bench_milp_names_its_clock_and_checks_every_answer(capsys, clock):
    code = main(["bench", "milp", "--parts", "singles", "--per-size", "1", "--big", "6",
                 "--timeout", "5", "--clock", clock, "--repeat", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith(f"({clock} seconds, Towers and Singles the fastest of 2 runs")
    rows = {line.strip().split("  ")[0]: line for line in out.splitlines() if "x" in line}
    for label in ("report 5x5", "report 6x6", "report 7x7", "6x6"):
        assert " 1/1 " in rows[label]  # solved, and the answer passed the checker
