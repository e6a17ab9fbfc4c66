"""Kakuro: digit-set table, run constraint, both models, parsing, checking, drawing,
generating and the command line."""

from __future__ import annotations

import importlib
import itertools
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_puzzles import ParseError, kakuro
from csp_puzzles.cli import main
from csp_puzzles.core import SearchState, propagate
from csp_puzzles.kakuro.combinations import TABLE, combinations, digits_of, mask_of, sum_range
from csp_puzzles.kakuro.layout import MAX_RUN, random_layout
from csp_puzzles.kakuro.rules import RULES, RegionSum, run_supports
from csp_puzzles.viz.matplotlib_drawing import draw_puzzle
from tests.conftest import decoded

# The example of the Wikipedia article on Kakuro (8x8), typed in by hand.
WIKIPEDIA = """\
8 8
-    23,  30,  -    -     27,  12,  16,
,16  0    0    -    17,24 0    0    0
,17  0    0    15,29 0    0    0    0
,35  0    0    0    0     0    12,  -
-    ,7   0    0    7,8   0    0    7,
-    11,  10,16 0   0     0    0    0
,21  0    0    0    0     ,5   0    0
,6   0    0    0    -     ,3   0    0
"""
WIKIPEDIA_SOLUTION = [
    [None, None, None, None, None, None, None, None],
    [None, 9, 7, None, None, 8, 7, 9],
    [None, 8, 9, None, 8, 9, 5, 7],
    [None, 6, 8, 5, 9, 7, None, None],
    [None, None, 6, 1, None, 2, 6, None],
    [None, None, None, 4, 6, 1, 3, 2],
    [None, 8, 9, 3, 1, None, 1, 4],
    [None, 3, 1, 2, None, None, 2, 1],
]
# the module (the package's `generate` attribute is the function of the same name)
generator = importlib.import_module("csp_puzzles.kakuro.generate")
DATA = Path(__file__).resolve().parent.parent / "data" / "kakuro"


# -- the digit-set table --------------------------------------------------------------------
def test_table_counts_match_the_known_figures():
    pairs = {key: sets for key, sets in TABLE.items() if key[0] >= 2}
    assert len(pairs) == 120
    assert sum(len(sets) for sets in pairs.values()) == 502
    assert sum(len(sets) == 1 for sets in pairs.values()) == 34
    assert max(len(sets) for sets in pairs.values()) == 12 == len(combinations(5, 25))
    assert [digits_of(m) for m in combinations(2, 3)] == [(1, 2)]
    assert sum_range(3) == (6, 24) and combinations(3, 5) == ()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sets(st.integers(1, 9), min_size=1), min_size=1, max_size=4),
       st.integers(1, 30))
def test_run_supports_equal_brute_force(domains, total):
    """The matching-based supports are exactly the digits of some ordered filling."""
    expected = [set() for _ in domains]
    for filling in itertools.product(*domains):
        if len(set(filling)) == len(filling) and sum(filling) == total:
            for seen, digit in zip(expected, filling):
                seen.add(digit)
    for matching in (True, False):
        answer = run_supports(tuple(mask_of(d) for d in domains), total, matching)
        if not any(expected):
            if matching:
                assert answer is None
            continue
        assert answer is not None
        kept = [set(digits_of(mask)) for mask in answer[0]]
        if matching:
            assert kept == expected
        else:  # weaker, never wrong
            assert all(e <= k <= d for e, k, d in zip(expected, kept, domains))


# -- the models -----------------------------------------------------------------------------
def test_wikipedia_example_combined_is_search_free_and_unique():
    puzzle = kakuro.parse(WIKIPEDIA)
    result = puzzle.count(limit=2)
    assert result.unique and result.solution == WIKIPEDIA_SOLUTION
    assert result.stats.nodes == 0
    assert puzzle.check(result.solution) == []


def test_wikipedia_example_decomposed_agrees_but_searches():
    puzzle = kakuro.parse(WIKIPEDIA)
    for inference in ("fc", "mac"):
        result = puzzle.solve(model="decomposed", inference=inference)
        assert result.solution == WIKIPEDIA_SOLUTION
    assert puzzle.solve(model="decomposed").stats.nodes > 0
    csp = puzzle.to_csp(model="decomposed")
    assert {type(c).__name__ for c in csp.constraints} == {"Sum", "AllDifferent"}


def test_trace_names_the_rules():
    puzzle = kakuro.parse(WIKIPEDIA)
    result = puzzle.solve(trace=True)
    causes = {event.cause.split(":")[0] for event in result.trace if event.kind == "prune"}
    assert causes <= set(RULES)
    assert {"magic block", "crossing-run intersection"} <= causes
    text = result.trace[0].describe()
    assert re.search(r"(across|down) \d+ at \(\d+,\d+\)", text)
    final = result.trace.domains_at(len(result.trace) - 1)
    assert decoded(puzzle, final) == WIKIPEDIA_SOLUTION


def test_magic_block_and_required_digit_messages():
    # a 2x2 block: 3 across (1,2) and 4 across (1,3); 4 down = {1,3}, 3 down = {1,2}
    puzzle = kakuro.parse("3 3\n- 4, 3,\n,3 0 0\n,4 0 0\n")
    result = puzzle.solve(trace=True)
    assert puzzle.check(result.solution) == []
    messages = [e.describe() for e in result.trace if e.kind == "prune"]
    assert any(m.startswith("magic block: across 3 at (1,0) in 2 cells is always {1,2}")
               for m in messages)


def test_region_sums_are_implied_by_the_runs():
    puzzle = kakuro.parse(WIKIPEDIA)
    csp = puzzle.to_csp()
    regions = [c for c in csp.constraints if isinstance(c, RegionSum)]
    assert regions and all(len(c.scope) <= 5 for c in regions)
    solution = {cell: WIKIPEDIA_SOLUTION[cell[0]][cell[1]] for cell in puzzle.whites}
    assert all(c.is_satisfied(solution) for c in regions)
    run_cells = {frozenset(run.cells) for run in puzzle.runs}
    assert not any(not c.minus and frozenset(c.plus) in run_cells for c in regions)
    plain = puzzle.to_csp(regions=False)
    assert not any(isinstance(c, RegionSum) for c in plain.constraints)


def test_unknown_model_is_rejected():
    with pytest.raises(ValueError, match="decomposed"):
        kakuro.parse(WIKIPEDIA).to_csp(model="clever")


def test_counting_finds_every_solution_of_an_ambiguous_grid():
    # a 2x2 block a b / c d: equal row and column sums force b = c and a = d
    swappable = kakuro.parse("3 3\n- 3, 3,\n,3 0 0\n,3 0 0\n")  # 1 2 / 2 1 or 2 1 / 1 2
    assert swappable.count_solutions(limit=5) == 2
    assert swappable.count_solutions(limit=5, model="decomposed") == 2
    sevens = kakuro.parse("3 3\n- 7, 7,\n,7 0 0\n,7 0 0\n")  # a + b = 7: six ways
    assert sevens.count_solutions(limit=10) == 6


def test_unsatisfiable_grid_is_reported():
    puzzle = kakuro.parse("3 3\n- 3, 4,\n,3 0 0\n,3 0 0\n")
    assert puzzle.solve().status == "unsatisfiable"
    assert puzzle.solve(model="decomposed").status == "unsatisfiable"


def test_limits_are_honoured():
    result = kakuro.parse(WIKIPEDIA).solve(model="decomposed", inference="none",
                                          var_order="input", max_nodes=5)
    assert result.status == "limit"


# -- parsing --------------------------------------------------------------------------------
def test_header_is_optional_and_dots_and_compact_rows_work():
    with_header = kakuro.parse("3 3\n- 4, 3,\n,3 0 0\n,4 0 0\n")
    without = kakuro.parse("# no header\n- 4, 3,\n,3 . .\n,4 0 0\n")
    assert with_header.grid == without.grid
    compact = kakuro.parse("- 3, 4,\n,3 00\n,4 ..\n".replace("00", "0 0").replace("..", ". ."))
    assert compact.to_text() == kakuro.parse(compact.to_text()).to_text()


@pytest.mark.parametrize("text, line, column, words", [
    ("3 3\n- 4, 3,\n,3 0 x\n,4 0 0\n", 3, 6, "bad cell 'x'"),
    ("3 3\n- 4, 3,\n,3 0 0\n,4 0\n", 4, 5, "row has 2 cells, expected 3"),
    ("3 3\n- 4, 3,\n,3 0 0 0\n,4 0 0\n", 3, 8, "row has 4 cells"),
    ("3 3\n- 4, 3,\n,3 0 0\n,4 - -\n", 4, 1, "has no white cell to its right"),
    ("3 3\n- 2, 3,\n,3 0 0\n,4 0 0\n", 2, 3, "no 2 different digits add up to 2"),
    ("3 3\n- 4, 3,\n,3 0 0\n", 4, 1, "announces 3 rows, found 2"),
    ("3 3\n- 4, 3,\n,3 0 0\n- 0 0\n", 4, 3, "white cell is in no across run"),
    ("3 3\n- 0, 3,\n,3 0 0\n,4 0 0\n", 2, 3, "zero sum"),
    ("", 1, 1, "no grid found"),
])
def test_parse_errors_point_at_the_cell(text, line, column, words):
    with pytest.raises(ParseError) as caught:
        kakuro.parse(text, filename="bad.txt")
    error = caught.value
    assert (error.line, error.column) == (line, column), str(error)
    assert words in error.message
    assert str(error).startswith(f"bad.txt:{line}:{column}: ")


def test_a_run_longer_than_nine_is_rejected():
    text = "2 11\n- - - - - - - - - - -\n,45 0 0 0 0 0 0 0 0 0 0\n"
    with pytest.raises(ParseError, match="too long"):
        kakuro.parse(text)


# -- checking -------------------------------------------------------------------------------
def test_check_reports_each_kind_of_violation():
    puzzle = kakuro.parse(WIKIPEDIA)
    assert puzzle.check(WIKIPEDIA_SOLUTION) == []
    wrong = [row[:] for row in WIKIPEDIA_SOLUTION]
    wrong[1][1], wrong[1][2] = 7, 7
    problems = puzzle.check(wrong)
    assert any("repeats 7" in p for p in problems)
    assert any("adds up to 14, not 16" in p for p in problems)
    wrong[1][1] = None
    assert puzzle.check(wrong) == ["white cell (1,1) is empty"]
    wrong[1][1] = 10
    assert "not a digit" in puzzle.check(wrong)[0]
    assert "grid" in puzzle.check([[1]])[0]


# -- drawing --------------------------------------------------------------------------------
def test_render_solution_and_trace_state():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    puzzle = kakuro.parse(WIKIPEDIA)
    fig, ax = plt.subplots()
    draw_puzzle(ax, puzzle, solution=WIKIPEDIA_SOLUTION)
    digits = [t.get_text() for t in ax.texts]
    assert digits.count("9") >= 6 and "23" in digits and "35" in digits
    result = puzzle.solve(trace=True)
    state = result.trace.domains_at(3)
    draw_puzzle(ax, puzzle, domains=state)
    small = [t for t in ax.texts if t.get_fontsize() < 6 * 0.42 * 72 / 8]
    assert len(ax.texts) > len(digits)  # pencil marks for the undecided cells
    assert small
    plt.close(fig)


# -- generating -----------------------------------------------------------------------------
@pytest.mark.parametrize("difficulty", kakuro.DIFFICULTIES)
def test_generated_puzzles_are_unique_and_graded(difficulty):
    puzzle = kakuro.generate(width=6, height=6, difficulty=difficulty, seed=3)
    assert puzzle.count_solutions() == 1
    assert kakuro.grade(puzzle) == difficulty
    assert kakuro.parse(puzzle.to_text()).grid == puzzle.grid
    solution = puzzle.solve(model="decomposed").solution
    assert puzzle.check(solution) == []


@pytest.mark.parametrize("width, height, difficulty, seed", [
    (10, 10, "medium", 1), (9, 7, "hard", 4), (12, 12, "easy", 2)])
def test_larger_generated_puzzles_are_unique_and_graded(width, height, difficulty, seed):
    puzzle = kakuro.generate(width=width, height=height, difficulty=difficulty, seed=seed)
    assert (puzzle.height, puzzle.width) == (height, width)
    assert puzzle.count_solutions(limit=2) == 1
    assert kakuro.grade(puzzle) == difficulty
    assert all(2 <= len(run.cells) <= MAX_RUN for run in puzzle.runs)


def test_same_seed_same_puzzle():
    first = kakuro.generate(width=7, height=6, difficulty="easy", seed=11)
    assert (first.height, first.width) == (6, 7)
    assert kakuro.generate(width=7, height=6, difficulty="easy", seed=11).to_text() \
        == first.to_text()
    assert kakuro.generate(width=7, height=6, difficulty="easy", seed=12).to_text() \
        != first.to_text()


def test_same_seed_same_puzzle_whatever_the_hash_seed():
    script = ("from csp_puzzles import kakuro; print(kakuro.generate(width=8, height=7, "
              "difficulty='hard', seed=5).to_text())")
    texts = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120, env={**os.environ, "PYTHONHASHSEED": hash_seed},
                            check=True).stdout for hash_seed in ("0", "1")}
    assert len(texts) == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 13), st.integers(3, 13), st.integers(0, 10**6),
       st.sampled_from([0.0, 0.3, 0.5]))
def test_random_layouts_are_valid_and_symmetric(width, height, seed, density):
    layout = random_layout(random.Random(seed), width, height, density)
    if layout is None:
        return
    white = layout.white
    assert not any(white[(0, c)] for c in range(width))
    assert not any(white[(r, 0)] for r in range(height))
    assert all(white[(height - r, width - c)] == white[(r, c)]
               for r in range(1, height) for c in range(1, width))
    assert all(2 <= len(run) <= MAX_RUN for run in layout.runs)
    assert all(len(layout.runs_of[cell]) == 2 for cell in layout.cells)
    seen, stack = {layout.cells[0]}, [layout.cells[0]]
    while stack:
        r, c = stack.pop()
        for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if white.get(near) and near not in seen:
                seen.add(near)
                stack.append(near)
    assert len(seen) == len(layout.cells)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_filling_has_distinct_runs_and_no_swappable_rectangle(seed):
    rng = random.Random(seed)
    layout = random_layout(rng, 8, 8, 0.3)
    if layout is None:
        return
    digits = generator._fill(rng, layout)
    assert all(len({digits[cell] for cell in run}) == len(run) for run in layout.runs)
    for a, b, c, d in layout.rectangles():
        assert not (digits[a] == digits[d] and digits[b] == digits[c])


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_lean_propagation_equals_the_models_root_propagation(seed, matching):
    """The generator scores with its own copy of the run propagation: it must agree."""
    rng = random.Random(seed)
    layout = random_layout(rng, 7, 7, 0.3)
    if layout is None:
        return
    digits = generator._fill(rng, layout)
    lean = generator._candidates(layout, generator._totals(layout, digits), matching)
    puzzle = kakuro.Kakuro(generator._clued_grid(layout, digits))
    csp = puzzle.to_csp(matching=matching, regions=False)
    state = SearchState(csp)
    propagate(state, csp.constraints)
    assert {cell: set(digits_of(mask)) for cell, mask in lean.items()} == state.domains
    assert puzzle.check(puzzle.decode(digits)) == []


def test_generate_rejects_bad_parameters():
    with pytest.raises(ValueError, match="difficulty"):
        kakuro.generate(difficulty="fiendish")
    with pytest.raises(ValueError, match="too small"):
        kakuro.generate(width=2, height=5)
    with pytest.raises(ValueError, match="density"):
        kakuro.generate(density=0.9)
    with pytest.raises(ValueError, match="Tatham"):
        kakuro.parse(WIKIPEDIA).to_tatham()


def test_project_data_files_are_unique_and_graded_as_stated():
    files = sorted(DATA.glob("*.txt"))
    assert {f.name.split("-")[0] for f in files} == set(kakuro.DIFFICULTIES)
    for path in files:
        text = path.read_text()
        grade = re.search(r"grade: (\w+)", text).group(1)
        assert re.search(r"seed=\d+", text)
        puzzle = kakuro.parse(text, filename=path.name)
        assert puzzle.count_solutions() == 1, path.name
        assert kakuro.grade(puzzle) == grade, path.name


# -- command line ---------------------------------------------------------------------------
@pytest.fixture
def wikipedia_file(tmp_path):
    path = tmp_path / "wikipedia.txt"
    path.write_text(WIKIPEDIA)
    return str(path)


def test_cli_solve_json(wikipedia_file, capsys):
    assert main(["solve", "kakuro", wikipedia_file, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["kind"] == "kakuro" and answer["status"] == "solved"
    assert answer["solution"] == {"grid": WIKIPEDIA_SOLUTION}
    assert answer["solutions"] is None and answer["stats"]["nodes"] == 0


def test_cli_count_and_decomposed_model(wikipedia_file, capsys):
    assert main(["solve", "kakuro", wikipedia_file, "--count", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["solutions"] == 1 and answer["unique"] is True
    assert main(["solve", "kakuro", wikipedia_file, "--model", "decomposed", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["solution"] == {"grid": WIKIPEDIA_SOLUTION}
    assert answer["stats"]["nodes"] > 0


def test_cli_errors_and_limits(wikipedia_file, tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("3 3\n- 4, 3,\n,3 0 x\n,4 0 0\n")
    assert main(["solve", "kakuro", str(bad)]) == 2
    assert f"{bad}:3:6: bad cell 'x'" in capsys.readouterr().err
    assert main(["solve", "kakuro", wikipedia_file, "--model", "clever"]) == 2
    assert "unknown kakuro model" in capsys.readouterr().err
    assert main(["solve", "kakuro", wikipedia_file, "--no-adjacent"]) == 2
    capsys.readouterr()
    assert main(["solve", "kakuro", wikipedia_file, "--model", "decomposed",
                 "--inference", "none", "--var-order", "input", "--max-nodes", "3"]) == 4


def test_cli_text_output_and_generate(wikipedia_file, capsys):
    assert main(["solve", "kakuro", wikipedia_file]) == 0
    out = capsys.readouterr().out
    assert out.startswith("solved") and "- 9 7 - - 8 7 9" in out
    assert main(["generate", "kakuro", "--size", "6", "--difficulty", "easy", "--seed", "2",
                 "--count", "2"]) == 0
    out = capsys.readouterr().out
    puzzles = [kakuro.parse(chunk) for chunk in out.strip().split("\n\n")]
    assert len(puzzles) == 2 and all(p.count_solutions() == 1 for p in puzzles)


def test_console_script_end_to_end(wikipedia_file):
    done = subprocess.run([sys.executable, "-m", "csp_puzzles", "solve", "kakuro",
                           wikipedia_file, "--json", "--count"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["unique"] is True
