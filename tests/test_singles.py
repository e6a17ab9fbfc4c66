"""Singles: formats, errors, the rules, the incremental cut rule, the generator, the CLI."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import matplotlib
import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from csp_puzzles import CSP, Contradiction, ParseError, SearchState, iter_solutions, singles
from csp_puzzles.cli import main
from csp_puzzles.singles.check import check
from csp_puzzles.singles.connectivity import Connected
from csp_puzzles.singles.rules import SHADED, UNSHADED
from csp_puzzles.viz.matplotlib_drawing import draw_puzzle
from tests.conftest import REPO

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TATHAM = "5x5:4112421234524525441243243"
# Tatham's own solve move for TATHAM, as (row, column): B0,2 is column 0, row 2
TATHAM_SHADED = {(2, 0), (4, 0), (0, 1), (1, 2), (3, 2), (0, 4), (2, 4), (4, 4)}
JANKO = """4 4
3 3 1 4
4 3 2 2
1 3 4 2
3 4 3 2
"""


# -- formats ---------------------------------------------------------------------------------
def test_tatham_id_round_trip_and_solution():
    puzzle = singles.parse(TATHAM)
    assert (puzzle.width, puzzle.height) == (5, 5)
    assert puzzle.grid[0] == (4, 1, 1, 2, 4)
    assert puzzle.to_tatham() == TATHAM
    result = puzzle.solve()
    assert result.solution == TATHAM_SHADED
    assert puzzle.check(result.solution) == []
    assert result.as_dict()["solution"] == {"shaded": [list(c) for c in sorted(TATHAM_SHADED)]}


def test_tatham_letters_stand_for_numbers_above_nine():
    text = "10x1:123456789a"
    puzzle = singles.parse(text)
    assert puzzle.grid == ((1, 2, 3, 4, 5, 6, 7, 8, 9, 10),)
    assert puzzle.to_tatham() == text


def test_janko_grid_compact_rows_and_native_round_trip():
    puzzle = singles.parse(JANKO)
    assert puzzle.grid[3] == (3, 4, 3, 2)
    assert singles.parse("# a comment\n3314\n4322\n\n1342\n3432\n") == puzzle
    assert singles.parse(puzzle.to_text()) == puzzle
    assert singles.parse("12 1 7\n3 12 1\n1 7 12") .grid[0] == (12, 1, 7)
    assert singles.parse("2 2\n1 1\n2 2\n").grid == ((1, 1), (2, 2))


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    ("5x5:411242123452452544124324Z", 1, 29, "above 5"),
    ("5x5:411", 1, 8, "has 3 cells, expected 5x5 = 25"),
    ("5x5:4112421234524525441243243.", 1, 30, "extra character"),
    ("3x3:12#456789", 1, 7, "not a Singles number"),
    ("\n  5x5:411242123452452544124324Z", 2, 31, "above 5"),
    ("3 3\n1 2 3\n1 x 3\n1 2 3\n", 3, 3, "not a cell number"),
    ("1 2 3\n1 2\n1 2 3\n", 2, 4, "row has 2 cells"),
    ("1 2 3\n1 2 3 4\n1 2 3\n", 2, 7, "row has 4 cells"),
    ("3 3\n1 2 3\n1 2 3\n", 3, 5, "2 rows after the header"),
    ("1 0\n2 1\n3 3\n", 1, 3, "not a cell number"),
    ("# nothing\n\n", 1, 1, "no grid"),
])
def test_parse_errors_say_where_and_what(text, line, column, words):
    with pytest.raises(ParseError) as caught:
        singles.parse(text, filename="in.txt")
    error = caught.value
    assert (error.line, error.column) == (line, column), str(error)
    assert words in str(error) and str(error).startswith("in.txt:")


def test_tatham_writer_refuses_numbers_it_cannot_encode():
    with pytest.raises(ValueError, match="at most 2"):
        singles.parse("2 2\n1 3\n2 1\n").to_tatham()


# -- checker and model -----------------------------------------------------------------------
def test_checker_names_every_broken_rule():
    grid = singles.parse(JANKO).grid
    assert check(grid, {(0, 1), (1, 3), (2, 1), (3, 0), (3, 3)}) == []
    problems = check(grid, {(0, 0), (0, 1), (5, 5)})
    assert any("outside" in p for p in problems)
    assert any("touch" in p for p in problems)
    assert any("3 appears 2 times unshaded in column 1" in p for p in problems)
    assert check([[1, 2], [2, 1]], {(0, 0), (1, 1)})[-1].startswith("unshaded cells are not")


def test_rules_are_named_in_the_trace():
    puzzle = singles.parse("4 4\n1 1 1 2\n2 3 4 1\n3 2 1 4\n4 3 2 3\n")
    result = puzzle.solve(trace=True)
    causes = {e.cause.split(" ")[0] for e in result.trace if e.kind == "prune"}
    assert {"triple", "unshaded", "cut"} <= causes
    assert causes <= {"triple", "sandwich", "pair", "uniqueness:", "shaded", "unshaded", "cut",
                      "probe:"}
    assert puzzle.check(result.solution) == []


def test_sandwich_pair_and_uniqueness_rules_fire_at_the_root():
    csp = singles.parse("1 2 1 3\n2 2 3 1\n3 4 4 4\n4 3 2 2\n").to_csp()
    names = {c.name.split(" ")[0] for c in csp.constraints}
    assert {"sandwich", "pair", "triple", "uniqueness:"} <= names
    counting = singles.parse("1 2 1 3\n2 2 3 1\n3 4 4 4\n4 3 2 2\n").to_csp(counting=True)
    assert not any(c.name.startswith("uniqueness") for c in counting.constraints)
    with pytest.raises(ValueError, match="unknown singles option"):
        singles.parse(JANKO).to_csp(colour=True)


def _brute_force(grid):
    height, width = len(grid), len(grid[0])
    cells = [(r, c) for r in range(height) for c in range(width)]
    found = set()
    for bits in itertools.product((0, 1), repeat=len(cells)):
        shaded = frozenset(c for c, b in zip(cells, bits) if b)
        if not check(grid, shaded):
            found.add(shaded)
    return found


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.integers(1, 3), min_size=4, max_size=4), min_size=3, max_size=3))
def test_counting_model_finds_exactly_the_brute_force_solutions(grid):
    puzzle = singles.Singles(tuple(tuple(row) for row in grid))
    expected = _brute_force(grid)
    found = {puzzle.decode(s) for s in iter_solutions(puzzle.to_csp(counting=True))}
    assert found == expected
    if expected:  # the uniqueness rule may drop solutions but never all of them
        result = puzzle.solve()
        assert result.solution in expected


# -- the incremental cut rule ----------------------------------------------------------------
def _cut_cells(height, width, shaded):
    """Cells whose shading would separate two of their unshaded neighbours (networkx)."""
    graph = nx.grid_2d_graph(height, width)
    graph.remove_nodes_from(shaded)
    cuts = set()
    for cell in graph.nodes:
        rest = graph.copy()
        rest.remove_node(cell)
        near = [n for n in graph.neighbors(cell)]
        if len({frozenset(nx.node_connected_component(rest, n)) for n in near}) > 1:
            cuts.add(cell)
    splits = False
    for cell in shaded:
        near = [(cell[0] + dr, cell[1] + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
        near = [n for n in near if n in graph]
        if len({frozenset(nx.node_connected_component(graph, n)) for n in near}) > 1:
            splits = True
    return cuts, splits


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_cut_rule_matches_networkx_through_shading_and_backtracking(height, width, data):
    cells = [(r, c) for r in range(height) for c in range(width)]
    csp = CSP()
    csp.add_variables(cells, (UNSHADED, SHADED))
    connected = csp.add_constraint(Connected(height, width))
    state = SearchState(csp)
    marks = []
    for _step in range(data.draw(st.integers(1, 10))):
        if marks and data.draw(st.booleans()):
            state.undo(marks.pop())
        else:
            open_cells = [c for c in cells if len(state.domains[c]) == 2]
            if not open_cells:
                break
            cell = data.draw(st.sampled_from(open_cells))
            marks.append(state.mark())
            shaded_before = {c for c in cells if state.domains[c] == {SHADED}} | {cell}
            cuts, splits = _cut_cells(height, width, shaded_before)
            try:
                state.remove(cell, UNSHADED)
                connected.propagate(state)
            except Contradiction:
                assert splits or shaded_before == set(cells)  # or no cell left unshaded
                state.undo(marks.pop())
                continue
            assert not splits
        shaded = {c for c in cells if state.domains[c] == {SHADED}}
        connected.propagate(state)  # a fixpoint: nothing undecided is a cut any more
        cuts, _ = _cut_cells(height, width, shaded)
        undecided = {c for c in cells if len(state.domains[c]) == 2}
        assert not (cuts & undecided)


def test_cut_rule_forgets_cells_undone_out_of_its_order():
    csp = CSP()
    cells = [(r, c) for r in range(4) for c in range(4)]
    csp.add_variables(cells, (UNSHADED, SHADED))
    connected = csp.add_constraint(Connected(4, 4))
    state = SearchState(csp)
    state.remove((3, 3), UNSHADED)
    mark = state.mark()
    state.remove((0, 0), UNSHADED)
    connected.propagate(state)  # both seen in one call: added in cell order, (0,0) first
    assert connected.walls(state).added == [0, 15]
    state.undo(mark)  # (0,0) is undone although (3,3) sits above it in the wall's stack
    connected.propagate(state)
    assert connected.walls(state).added == [15]
    state.remove((1, 3), UNSHADED)
    state.remove((2, 2), UNSHADED)
    with pytest.raises(Contradiction):  # (3,3), (2,2), (1,3) and the border wall (2,3) in
        connected.propagate(state)


# -- generator -------------------------------------------------------------------------------
@pytest.mark.parametrize(("size", "difficulty"), [((5, 5), "easy"), ((7, 6), "easy"),
                                                  ((12, 12), "easy"), ((6, 6), "tricky")])
def test_generator_is_unique_deterministic_and_graded(size, difficulty):
    width, height = size
    puzzle = singles.generate(width=width, height=height, difficulty=difficulty, seed=7)
    assert (puzzle.width, puzzle.height) == size
    assert puzzle.count_solutions(limit=2) == 1
    assert singles.grade(puzzle) == difficulty
    assert singles.generate(width=width, height=height, difficulty=difficulty, seed=7) == puzzle
    assert singles.parse(puzzle.to_tatham()) == puzzle
    result = puzzle.solve()
    assert puzzle.check(result.solution) == []


def test_generator_rejects_bad_arguments():
    with pytest.raises(ValueError, match="unknown difficulty 'extreme'"):
        singles.generate(width=5, difficulty="extreme")
    with pytest.raises(ValueError, match="101x101 grid is above the cap of 100x100"):
        singles.generate(width=101, difficulty="tricky")
    with pytest.raises(ValueError, match="easy have sides 2 to 12, not 40x10"):
        singles.generate(width=40, height=10, difficulty="easy")


def test_project_data_says_how_it_was_made_and_its_grade():
    """The project's puzzles (data/singles, `csp-puzzles bench singles --write-data`): each
    file says the command that made it and its grade, the level in its name is that grade,
    and it has one solution."""
    files = sorted((REPO / "data" / "singles").glob("*.txt"))
    assert len(files) >= 10
    for path in files:
        text = path.read_text()
        level, size, seed = path.stem.split("-")
        made = (f"# singles {size}, made by: csp-puzzles generate singles --difficulty {level} "
                f"--size {size.split('x')[0]} --seed {seed.removeprefix('seed')}\n")
        assert text.startswith(made), path.name
        stated = re.search(r"# grade: (\w+) \(Tatham's levels\)", text)
        puzzle = singles.parse(text)
        assert stated and singles.grade(puzzle) == stated.group(1) == level, path.name
        assert puzzle.count_solutions() == 1


# -- drawing and command line ----------------------------------------------------------------
def test_render_solution_and_trace_state():
    from matplotlib.colors import to_hex
    from matplotlib.patches import Rectangle

    def cell_colours(ax) -> list[str]:
        return [to_hex(p.get_facecolor()) for p in ax.patches if isinstance(p, Rectangle)]

    puzzle = singles.parse(JANKO)
    result = puzzle.solve(trace=True)
    fig, ax = plt.subplots()
    draw_puzzle(ax, puzzle, solution=result.solution)
    assert cell_colours(ax).count("#333333") == len(result.solution)  # shaded, dark
    ax.clear()
    draw_puzzle(ax, puzzle, domains={cell: (0, 1) for cell in puzzle.cells()})
    assert cell_colours(ax) == ["#e8eef7"] * len(puzzle.cells())  # undecided, light blue
    plt.close(fig)


def test_cli_solve_count_generate_and_errors(tmp_path: Path, capsys):
    path = tmp_path / "p.txt"
    path.write_text(JANKO)
    assert main(["solve", "singles", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "singles" and data["status"] == "solved"
    assert check(singles.parse(JANKO).grid, {tuple(c) for c in data["solution"]["shaded"]}) == []
    assert main(["solve", "singles", TATHAM, "--count", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unique"] is True and data["solutions"] == 1
    assert main(["solve", "singles", "2x2:1111"]) == 3
    capsys.readouterr()
    assert main(["solve", "singles", "5x5:411242123452452544124324Z"]) == 2
    assert "<game id>:1:29:" in capsys.readouterr().err
    assert main(["generate", "singles", "--size", "6x5", "--seed", "4", "--format", "tatham",
                 "--count", "2"]) == 0
    ids = capsys.readouterr().out.split()
    assert len(ids) == 2 and all(singles.parse(i).count_solutions() == 1 for i in ids)
    assert main(["generate", "singles", "--size", "6", "--seed", "4", "--difficulty", "hard"]) == 2
    assert "unknown difficulty" in capsys.readouterr().err
    png = tmp_path / "s.png"
    assert main(["solve", "singles", TATHAM, "--png", str(png)]) == 0
    assert png.stat().st_size > 0


def test_cli_end_to_end_in_a_subprocess(tmp_path: Path):
    trace = tmp_path / "t.jsonl"
    done = subprocess.run([sys.executable, "-m", "csp_puzzles", "solve", "singles", TATHAM,
                           "--trace", str(trace)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("solved")
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    assert events[-1]["event"] == "solution"
    assert any((e.get("cause") or "").startswith("sandwich") for e in events)
    bad = subprocess.run([sys.executable, "-m", "csp_puzzles", "solve", "singles", "-"],
                         input="2 2\n1 2\n2 1 3\n", capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == ("csp-puzzles: error: <stdin>:3:5: row has 3 cells, expected 2 "
                                  "like the rows before")
