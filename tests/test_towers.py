"""Towers: formats, parse errors, rules, checker, drawing, grading, generator and CLI."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_puzzles import ParseError, towers
from csp_puzzles.core import SearchState
from csp_puzzles.core.inference import propagate
from csp_puzzles.towers.generate import clues_of, latin_square
from csp_puzzles.towers.model import Towers
from csp_puzzles.towers.rules import line_supports, visible
from csp_puzzles.viz.matplotlib_drawing import draw_puzzle

EASY_ID = "4:1/2/3/4/2/2/2/1/1/2/2/2/4/3/2/1"
EASY_GRID = [[4, 3, 2, 1], [1, 4, 3, 2], [2, 1, 4, 3], [3, 2, 1, 4]]
GIVENS_ID = "4:////////2//////3/,h2d1b"
JANKO = """5 5 5
- 1 3 2 2
2 - - 2 3
- 2 - - -
2 - - 3 -
- - - - -
- - - - -
- - 4 - -
- - - 1 -
- - - - -
"""


# -- formats --------------------------------------------------------------------------------
def test_tatham_id_round_trip_with_givens():
    puzzle = towers.parse(GIVENS_ID)
    assert puzzle.size == 4
    assert puzzle.left == (2, 0, 0, 0) and puzzle.right == (0, 0, 3, 0)
    assert puzzle.given_cells() == {(2, 0): 2, (3, 1): 1}
    assert puzzle.to_tatham() == GIVENS_ID
    assert towers.parse(puzzle.to_text()) == puzzle


def test_adjacent_givens_are_separated_by_underscore():
    givens = ((1, 2, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 3))
    puzzle = Towers(4, (0,) * 4, (0,) * 4, (0,) * 4, (0,) * 4, givens=givens)
    assert puzzle.to_tatham() == "4:///////////////,1_2m3"
    assert towers.parse(puzzle.to_tatham()) == puzzle


def test_janko_text_with_givens_round_trips():
    puzzle = towers.parse(JANKO)
    assert puzzle.top == (0, 1, 3, 2, 2) and puzzle.bottom == (2, 0, 0, 2, 3)
    assert puzzle.given_cells() == {(2, 2): 4, (3, 3): 1}
    assert towers.parse(puzzle.to_text()) == puzzle
    assert towers.parse(puzzle.to_tatham()) == puzzle


def test_compact_rows_and_missing_header_are_read():
    text = "-133-\n2--23\n-2---\n2--3-\n"
    puzzle = towers.parse(text)
    assert puzzle.size == 5 and puzzle.top == (0, 1, 3, 3, 0)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(0, 10**6),
    st.lists(st.integers(0, n), min_size=4 * n, max_size=4 * n),
    st.lists(st.booleans(), min_size=n * n, max_size=n * n))))
def test_both_formats_round_trip(case):
    n, seed, clues, shown = case
    grid = latin_square(n, random.Random(seed))
    givens = tuple(tuple(grid[r][c] if shown[r * n + c] else 0 for c in range(n))
                   for r in range(n))
    puzzle = Towers(n, *(tuple(clues[i * n:(i + 1) * n]) for i in range(4)), givens=givens)
    assert towers.parse(puzzle.to_tatham()) == puzzle
    assert towers.parse(puzzle.to_text()) == puzzle


@pytest.mark.parametrize("text, line, column, words", [
    ("4:1/2/3", 1, 3, "3 clues, expected 16"),
    ("4:1/2/3/4/2/2/2/1/1/2/2/2/4/3/2/7", 1, 33, "clue '7' is not a number from 1 to 4"),
    ("4:1/2/3/4/2/2/2/1/1/2/2/2/4/3/2/1,c", 1, 36, "describes 3 cells, expected 16"),
    ("4:1/2/3/4/2/2/2/1/1/2/2/2/4/3/2/1,a5o", 1, 36, "given height 5 is out of range"),
    ("4 4 4\n- - 1\n- - - -\n- - - -\n- - - -\n", 2, 5, "3 top clues, expected 4"),
    ("4 4 4\n- - 1 -\n- 5 - -\n- - - -\n- - - -\n", 3, 3, "bottom clue '5'"),
    ("5 5 4\n- - 1 - -\n- - - - -\n- - - - -\n- - - - -\n", 1, 5, "header says 4"),
    ("4 4 4 D\n- - 1 -\n- - - -\n- - - -\n- - - -\n", 1, 7, "expected the header 'n n n'"),
    ("4 4 4\n- - 1 -\n- - - -\n- - - -\n- - - -\n- - - -\n", 6, 1,
     "5 lines of clues and givens, expected 4 clue lines"),
    ("4 4 4\n- - 1 -\n- - - -\n- - - -\n", 5, 1, "the right clue line is missing"),
    ("", 1, 1, "no grid found"),
])
def test_parse_errors_say_where_and_what(text, line, column, words):
    with pytest.raises(ParseError) as caught:
        towers.parse(text, filename="bad.txt")
    error = caught.value
    assert (error.line, error.column) == (line, column), str(error)
    assert words in error.message
    assert str(error).startswith(f"bad.txt:{line}:{column}: ")


# -- rules ----------------------------------------------------------------------------------
def brute_supports(n, front, back, masks):
    found = None
    for perm in permutations(range(1, n + 1)):
        if any(not masks[i] >> h & 1 for i, h in enumerate(perm)):
            continue
        if front and visible(perm) != front or back and visible(perm[::-1]) != back:
            continue
        found = [0] * n if found is None else found
        for i, h in enumerate(perm):
            found[i] |= 1 << h
    return tuple(found) if found is not None else None


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 6).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(0, n), st.integers(0, n),
    st.lists(st.integers(1, (1 << (n + 1)) - 2), min_size=n, max_size=n))))
def test_line_enumeration_matches_brute_force(case):
    n, front, back, masks = case
    masks = [m & ((1 << (n + 1)) - 2) or 2 for m in masks]
    assert line_supports(n, front, back, masks) == brute_supports(n, front, back, masks)


def root_domains(puzzle, model="full"):
    csp = puzzle.to_csp(model=model)
    state = SearchState(csp)
    propagate(state, csp.constraints)
    return state


def test_static_clue_rules_are_named():
    n = 5
    puzzle = Towers(n, (1, 0, 0, 0, 5), (0,) * n, (0, 3, 0, 0, 0), (0, 3, 0, 0, 0))
    csp = puzzle.to_csp(model="easy")
    state = SearchState(csp)
    from csp_puzzles.core import Trace
    state.trace = Trace(csp.domains)
    propagate(state, csp.constraints)
    assert state.domains[(0, 0)] == {5}  # clue 1 on top of column 0
    assert [state.value((r, 4)) for r in range(5)] == [1, 2, 3, 4, 5]  # clue 5 rises
    assert state.domains[(1, 2)] == {5}  # clues 3 and 3 face each other: 3 + 3 = n + 1
    causes = {e.cause for e in state.trace if e.kind == "prune"}
    assert any("tallest tower (5) stands next to it" in c for c in causes)
    assert any("heights rise 1 to 5" in c for c in causes)
    assert any("sum to 6: the tallest tower is 3rd from the left" in c for c in causes)


def test_distance_bound():
    n = 6
    puzzle = Towers(n, (0,) * n, (0,) * n, (4, 0, 0, 0, 0, 0), (0,) * n)
    state = root_domains(puzzle, "easy")
    # clue 4: the cell d steps in holds at most 6 - 4 + 1 + d
    assert [max(state.domains[(0, d)]) for d in range(n)] == [3, 4, 5, 6, 6, 6]


def test_tallest_in_view_rule_generalises_clue_two_facing_one():
    n = 5  # left 2 facing right 1: n at the right end, so n - 1 is next to the 2
    puzzle = Towers(n, (0,) * n, (0,) * n, (2, 0, 0, 0, 0), (1, 0, 0, 0, 0))
    state = root_domains(puzzle, "easy")
    assert state.domains[(0, 4)] == {5}
    assert state.domains[(0, 0)] == {4}


def test_clue_less_lines_get_all_different_only():
    n = 9
    puzzle = Towers(n, (3,) + (0,) * 8, (0,) * n, (0,) * n, (0,) * n)
    kinds = {}
    for c in puzzle.to_csp().constraints:
        kinds.setdefault(type(c).__name__, []).append(c.name)
    assert kinds["LineClues"] == ["column 0 orderings showing top 3"]
    assert len(kinds["AllDifferent"]) == 2 * n - 1  # column 0's ordering does its job
    result = puzzle.solve(trace=True)
    assert puzzle.check(result.solution) == []
    causes = {e.cause for e in result.trace if e.kind == "prune"}
    assert "clue 3 top of column 0: its 1st cell holds at most 7" in causes


def test_positional_sets_model_is_at_least_as_strong():
    puzzle = towers.parse(GIVENS_ID)
    full, extreme = root_domains(puzzle), root_domains(puzzle, "extreme")
    assert all(extreme.domains[v] <= full.domains[v] for v in full.domains)


# -- solving, checking --------------------------------------------------------------------------
def test_solve_check_and_count():
    puzzle = towers.parse(EASY_ID)
    result = puzzle.solve()
    assert result.solution == EASY_GRID
    assert puzzle.check(result.solution) == []
    assert puzzle.count_solutions(limit=2) == 1
    assert result.as_dict()["solution"] == {"grid": EASY_GRID}


@pytest.mark.parametrize("inference", ["none", "fc", "mac"])
@pytest.mark.parametrize("model", ["full", "easy", "extreme", "plain"])
def test_every_model_and_inference_finds_the_solution(model, inference):
    puzzle = towers.parse(GIVENS_ID)
    result = puzzle.solve(inference=inference, model=model)
    assert puzzle.check(result.solution) == []
    assert puzzle.count(inference=inference, model=model).solutions == 1


def test_propagation_beats_plain_model():
    puzzle = towers.parse("5://3/3//3//3/////3////4//2/2")
    full = puzzle.solve()
    plain = puzzle.solve(model="plain")
    assert full.solution == plain.solution
    assert full.stats.nodes < plain.stats.nodes


def test_checker_reports_each_broken_rule():
    puzzle = towers.parse(EASY_ID)
    swapped = [row[:] for row in EASY_GRID]
    swapped[0][0], swapped[0][1] = swapped[0][1], swapped[0][0]
    problems = puzzle.check(swapped)
    assert any("column 0 repeats" in p for p in problems)
    assert "left clue 1 of row 0: 2 towers are visible" in problems
    assert puzzle.check([[1, 2], [2, 1]]) == ["the grid must have 4 rows of 4 heights"]
    assert "holds 0" in puzzle.check([[0] * 4] * 4)[0]
    with_given = towers.parse(GIVENS_ID)
    bad = with_given.solve().solution
    bad = [row[::-1] for row in bad]
    assert any("is given" in p for p in with_given.check(bad))


def test_unsatisfiable_clues():
    n = 4  # facing clues summing to more than n + 1 are impossible
    puzzle = Towers(n, (0,) * n, (0,) * n, (3, 0, 0, 0), (3, 0, 0, 0))
    assert puzzle.solve().status == "unsatisfiable"
    assert puzzle.count_solutions() == 0


@settings(max_examples=15, deadline=None)
@given(st.integers(3, 6), st.integers(0, 10**6))
def test_all_clues_of_a_latin_square_are_solved(n, seed):
    grid = latin_square(n, random.Random(seed))
    puzzle = Towers(n, *clues_of(grid))
    result = puzzle.solve()
    assert puzzle.check(result.solution) == []
    assert puzzle.check(grid) == []


def test_limits_are_honoured():
    puzzle = Towers(6, *([0] * 6,) * 4)
    assert puzzle.count(limit=10**6, max_nodes=50).status == "limit"


# -- rendering ------------------------------------------------------------------------------------
def test_render_empty_solved_and_trace_state():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    puzzle = towers.parse(GIVENS_ID)
    result = puzzle.solve(trace=True)
    fig, axes = plt.subplots(1, 3)
    draw_puzzle(axes[0], puzzle)
    draw_puzzle(axes[1], puzzle, solution=result.solution)
    domains = result.trace.domains_at(min(3, len(result.trace) - 1))
    domains[(0, 0)] = ()
    draw_puzzle(axes[2], puzzle, domains=domains)
    texts = [t.get_text() for t in axes[2].texts]
    assert "2" in [t.get_text() for t in axes[0].texts]  # a clue
    assert len(axes[1].texts) == 16 + puzzle.clue_count() + 2 * 4  # and row, column numbers
    assert len(texts) > len(axes[0].texts)  # pencil marks
    assert axes[2].patches  # the wiped-out cell is hatched
    plt.close(fig)


# -- grading and generating ----------------------------------------------------------------------
def test_grade_levels():
    assert towers.grade(towers.parse(EASY_ID)) == "easy"
    assert towers.grade(towers.parse("4:///2//2//////4//3//")) == "hard"
    assert towers.grade(towers.parse("4:/1//////3//4//////2")) == "extreme"  # Tatham 4dx
    assert towers.grade(towers.parse("4:/3///////2///3///3/1")) == "unreasonable"  # his too
    unreasonable = towers.parse("4:/3///2////2////1/3//")
    assert towers.grade(unreasonable) == "unreasonable"
    assert unreasonable.count_solutions() == 1  # unique, but only search shows it


@pytest.mark.parametrize("n, difficulty", [(4, "easy"), (5, "hard"), (5, "extreme"),
                                           (5, "unreasonable"), (6, "hard")])
def test_generated_puzzles_are_unique_graded_and_deterministic(n, difficulty):
    puzzle = towers.generate(size=n, difficulty=difficulty, seed=1)
    assert puzzle.size == n
    assert towers.grade(puzzle) == difficulty
    counted = puzzle.count(limit=2)
    assert counted.solutions == 1 and counted.unique
    assert puzzle.check(counted.solution) == []
    again = towers.generate(width=n, height=n, difficulty=difficulty, seed=1)
    assert again == puzzle
    if difficulty != "unreasonable":
        assert puzzle.solved_by_rules(difficulty) is True


def test_generate_rejects_bad_requests():
    with pytest.raises(ValueError, match="square"):
        towers.generate(width=5, height=6)
    with pytest.raises(ValueError, match="unknown difficulty"):
        towers.generate(size=5, difficulty="tricky")
    with pytest.raises(ValueError, match="above the cap of 9x9"):
        towers.generate(size=12)
    with pytest.raises(ValueError, match="extreme have sides 4 to 9, not 3x3"):
        towers.generate(size=3, difficulty="extreme")
    assert towers.grade(towers.generate(size=3, difficulty="hard", seed=4)) == "hard"


def test_different_seeds_give_different_puzzles():
    assert towers.generate(size=5, seed=1) != towers.generate(size=5, seed=2)


# -- command line ---------------------------------------------------------------------------
def cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "csp_puzzles", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_cli_solve_json_and_count():
    done = cli("solve", "towers", EASY_ID, "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["kind"] == "towers" and answer["status"] == "solved"
    assert answer["solution"] == {"grid": EASY_GRID}
    counted = cli("solve", "towers", GIVENS_ID, "--count", "--json")
    assert counted.returncode == 0
    assert json.loads(counted.stdout)["unique"] is True
    assert json.loads(counted.stdout)["solutions"] == 1


def test_cli_generate_then_solve(tmp_path):
    done = cli("generate", "towers", "--size", "6", "--difficulty", "hard", "--seed", "1",
               "--format", "tatham")
    assert done.returncode == 0, done.stderr
    game_id = done.stdout.strip()
    assert game_id.startswith("6:")
    assert towers.parse(game_id) == towers.generate(size=6, difficulty="hard", seed=1)
    native = cli("generate", "towers", "--size", "4", "--seed", "3", "--count", "2")
    path = tmp_path / "puzzle.txt"
    path.write_text(native.stdout.split("\n\n")[1])
    solved = cli("solve", "towers", str(path), "--count")
    assert solved.returncode == 0 and "unique" in solved.stdout


def test_cli_errors_and_exit_codes():
    bad = cli("solve", "towers", "-", stdin="4 4 4\n- - 1 -\n- 9 - -\n- - - -\n- - - -\n")
    assert bad.returncode == 2
    assert bad.stderr.startswith("csp-puzzles: error: <stdin>:3:3: bottom clue '9'")
    assert "Traceback" not in bad.stderr
    impossible = cli("solve", "towers", "4:////////3////3///")
    assert impossible.returncode == 3
    limited = cli("solve", "towers", "6:" + "/" * 23, "--count", "--max-solutions", "1000",
                  "--max-nodes", "20")
    assert limited.returncode == 4
    wrong = cli("generate", "towers", "--size", "5x6")
    assert wrong.returncode == 2 and "square" in wrong.stderr
    plain = cli("solve", "towers", GIVENS_ID, "--model", "plain", "--json")
    assert json.loads(plain.stdout)["solution"] == towers.parse(GIVENS_ID).solve().as_dict()[
        "solution"]
    unknown = cli("solve", "towers", GIVENS_ID, "--model", "fancy")
    assert unknown.returncode == 2 and "unknown towers model" in unknown.stderr
    not_hashi = cli("solve", "towers", GIVENS_ID, "--no-adjacent")
    assert not_hashi.returncode == 2
