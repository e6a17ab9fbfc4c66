"""Every puzzle kind has the same shape: the checks here run unchanged on all four.

For each kind, the project's own puzzles in data/<kind>/ are parsed, solved through the
generic core, verified by the independent checker, counted unique, serialised exactly as the
contract's JSON says, drawn at a trace state, and written back to text that parses to the
same puzzle.
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib
import pytest

from csp_puzzles.cli import main
from csp_puzzles.puzzle.registry import KINDS, puzzle_module
from csp_puzzles.viz.matplotlib_drawing import draw_puzzle
from tests.conftest import REPO

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def data_files(kind: str) -> list[Path]:
    files = sorted((REPO / "data" / kind).glob("*.txt"))
    return files[:: max(1, len(files) // 6)]  # a spread of sizes and grades, a handful each


CASES = [(kind, path) for kind in KINDS for path in data_files(kind)]


def test_every_kind_has_project_data():
    for kind in KINDS:
        assert data_files(kind), f"data/{kind}/ has no puzzles"


@pytest.mark.parametrize(("kind", "path"), CASES, ids=[f"{k}-{p.name}" for k, p in CASES])
def test_the_shared_shape(kind, path):
    module = puzzle_module(kind)
    text = path.read_text()
    puzzle = module.parse(text, filename=str(path))
    result = puzzle.solve(trace=True, timeout=60)
    assert result.status == "solved"
    assert puzzle.check(result.solution) == []
    assert puzzle.count_solutions(limit=2, timeout=60) == 1

    data = result.as_dict()
    assert set(data) == {"kind", "status", "solution", "solutions", "unique", "stats"}
    assert data["kind"] == kind and data["status"] == "solved"
    assert set(data["stats"]) == {"nodes", "backtracks", "seconds"}
    json.dumps(data)

    again = module.parse(puzzle.to_text())
    assert again.to_text() == puzzle.to_text()
    assert again.solve().solution == result.solution

    fig, ax = plt.subplots()
    middle = len(result.trace) // 2
    draw_puzzle(ax, puzzle, domains=result.trace.domains_at(middle) if len(result.trace) else None)
    draw_puzzle(ax, puzzle, solution=result.solution)
    plt.close(fig)


@pytest.mark.parametrize("kind", KINDS)
def test_cli_solve_json_and_count(kind, capsys):
    path = data_files(kind)[0]
    assert main(["solve", kind, str(path), "--json", "--count"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solutions"] == 1 and data["unique"] is True and data["status"] == "solved"


@pytest.mark.parametrize("kind", KINDS)
def test_cli_generate_is_deterministic_and_unique(kind, capsys):
    module = puzzle_module(kind)
    size = {"towers": "5", "kakuro": "4x4"}.get(kind, "6x6")
    argv = ["generate", kind, "--size", size, "--seed", "11", "--count", "2"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    chunks = [c for c in first.split("\n\n") if c.strip()]
    assert len(chunks) == 2
    for chunk in chunks:
        assert module.parse(chunk).count_solutions(limit=2, timeout=60) == 1


@pytest.mark.parametrize("kind", KINDS)
def test_node_limit_is_reported_as_exit_4(kind, capsys):
    path = data_files(kind)[-1]
    code = main(["solve", kind, str(path), "--max-nodes", "0", "--inference", "none"])
    out = capsys.readouterr().out
    assert code == 4  # without inference every variable needs a node; none is allowed
    assert out.startswith("limit reached")


@pytest.mark.parametrize("kind", KINDS)
def test_engines_every_kind_solves_with_the_core_and_names_its_others(kind):
    """"csp" always works and is the default; any other engine is listed or refused."""
    puzzle = puzzle_module(kind).parse(data_files(kind)[0].read_text())
    assert puzzle.engines[0] == "csp"
    by_core = puzzle.solve(engine="csp", timeout=20)
    assert by_core.solved and by_core.solution == puzzle.solve(timeout=20).solution
    for engine in puzzle.engines[1:]:
        other = puzzle.solve(engine=engine, timeout=20)
        assert other.solved and puzzle.check(other.solution) == []
    with pytest.raises(ValueError, match="unknown engine"):
        puzzle.solve(engine="no-such-engine")
    with pytest.raises(ValueError, match="unknown engine"):
        puzzle.count(engine="no-such-engine")


@pytest.mark.parametrize("kind", KINDS)
def test_check_without_a_solution_says_so(kind):
    """Every checker answers `None` (what an unsolved result holds) the same way."""
    puzzle = puzzle_module(kind).parse(data_files(kind)[0].read_text())
    assert puzzle.check(None) == ["no solution given"]


@pytest.mark.parametrize("kind", KINDS)
def test_unknown_model_options_are_refused(kind):
    puzzle = puzzle_module(kind).parse(data_files(kind)[0].read_text())
    with pytest.raises(ValueError, match=f"unknown {kind} option"):
        puzzle.to_csp(no_such_option=True)


@pytest.mark.parametrize("kind", KINDS)
def test_cnf_is_asked_of_the_puzzle(kind, capsys):
    """`csp-puzzles cnf` works for a kind with a SAT encoding and refuses the others."""
    path = data_files(kind)[0]
    puzzle = puzzle_module(kind).parse(path.read_text())
    try:
        expected = puzzle.to_dimacs()
    except ValueError:
        expected = None
    code = main(["cnf", kind, str(path)])
    captured = capsys.readouterr()
    if expected is None:
        assert code == 2 and "no CNF encoding" in captured.err
    else:
        assert code == 0 and captured.out == expected and expected.startswith("c ")


@pytest.mark.parametrize("kind", KINDS)
def test_the_model_never_imports_its_reader(kind):
    """formats.py imports model.py to build puzzles; the way back would be a cycle."""
    import ast

    source = (REPO / "csp_puzzles" / kind / "model.py").read_text()
    imported = {node.module for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.ImportFrom) and node.level == 1}
    assert "formats" not in imported


@pytest.mark.parametrize("kind", KINDS)
def test_every_puzzle_grades_itself(kind):
    """`puzzle.grade()` is its package's `grade(puzzle)`, one of `puzzle.difficulties`."""
    module = puzzle_module(kind)
    puzzle = module.parse(data_files(kind)[0].read_text())
    assert puzzle.difficulties == module.DIFFICULTIES
    assert puzzle.grade() == module.grade(puzzle) and puzzle.grade() in puzzle.difficulties


@pytest.mark.parametrize("kind", KINDS)
def test_each_rung_solves_from_the_grade_up(kind):
    """The rules of a level solve a puzzle exactly when the level is its grade or above,
    and then they leave one value per variable."""
    puzzle = puzzle_module(kind).parse(data_files(kind)[-1].read_text())
    levels = [rung.name for rung in puzzle.ladder()]
    grade = puzzle.grade()
    for level in levels:
        solves = grade in levels and levels.index(level) >= levels.index(grade)
        assert puzzle.solved_by_rules(level) is solves
        domains = puzzle.deduce(level)
        assert domains is not None and all(len(d) == 1 for d in domains.values()) is solves
    with pytest.raises(ValueError, match=f"unknown {kind} level 'nope', expected one of"):
        puzzle.solved_by_rules("nope")


@pytest.mark.parametrize("engine", ["csp", "sat"])
def test_a_count_with_no_limit_counts_every_solution(engine):
    """`count(limit=None)` counts them all, with the core's search or another engine (it
    once came back as a solve, `solutions` None)."""
    from csp_puzzles import hashi

    puzzle = hashi.parse("3 0 3\n0 0 0\n3 0 3")  # a square of 3s: 1 and 2 bridges in turn
    counted = puzzle.count(limit=None, engine=engine)
    assert counted.solutions == 2 and counted.unique is False
    assert counted.solutions == puzzle.count(limit=10, engine=engine).solutions
