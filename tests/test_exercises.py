"""The exercise notebooks: student versions lose exactly the solutions and hidden tests.

The instructor versions run under `pytest --nbval-lax notebooks/` (every cell must pass).
Here the student versions are generated with the command line, checked as text, then run
in a kernel: every cell that fails must fail with the `NotImplementedError` left in place of
a removed solution, and every graded test cell must fail (each solution is really tested).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from csp_puzzles.cli import main as cli_main
from csp_puzzles.course import (
    BEGIN_HIDDEN,
    BEGIN_SOLUTION,
    END_HIDDEN,
    END_SOLUTION,
    MarkerError,
    course_sources,
    strip_source,
)

SOURCE = course_sources()[0] / "exercises"

MARKERS = (BEGIN_SOLUTION, END_SOLUTION, BEGIN_HIDDEN, END_HIDDEN)


def test_strip_source_replaces_solutions_at_their_indentation():
    source = "def f(x):\n    ### BEGIN SOLUTION\n    return x + 1\n    ### END SOLUTION\n"
    assert strip_source(source) == (
        "def f(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()"
    )


def test_strip_source_drops_hidden_tests_and_keeps_visible_ones():
    source = "assert f(1) == 2\n### BEGIN HIDDEN TESTS\nassert f(2) == 3\n### END HIDDEN TESTS"
    assert strip_source(source) == "assert f(1) == 2"


def test_strip_source_in_markdown_leaves_an_answer_line():
    text = "Why?\n### BEGIN SOLUTION\nBecause.\n### END SOLUTION"
    assert strip_source(text, "markdown") == "Why?\nYOUR ANSWER HERE"


def test_strip_source_drops_an_answer_key_outside_answer_cells():
    text = "1. Why?\n\n### BEGIN SOLUTION\nBecause.\n### END SOLUTION"
    assert strip_source(text, "markdown", answer_cell=False) == "1. Why?"
    assert strip_source(text[: -len("\n### END SOLUTION")], "markdown", False) == "1. Why?"


@pytest.mark.parametrize("source", [
    "### BEGIN SOLUTION\nx = 1",
    "x = 1\n### END SOLUTION",
    "### BEGIN HIDDEN TESTS\n### BEGIN SOLUTION\n### END SOLUTION\n### END HIDDEN TESTS",
])
def test_unbalanced_markers_are_refused(source):
    with pytest.raises(MarkerError):
        strip_source(source)


def _cells(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)["cells"]


def _text(cell: dict) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


@pytest.fixture(scope="module")
def student_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("student")
    assert cli_main(["exercises", "--student", str(out)]) == 0
    return out


def test_every_exercise_gets_a_student_version(student_dir):
    instructor = sorted(p.name for p in SOURCE.glob("*.ipynb"))
    assert len(instructor) >= 3
    assert sorted(p.name for p in student_dir.glob("*.ipynb")) == instructor


def test_student_text_has_stubs_where_solutions_were(student_dir):
    for path in SOURCE.glob("*.ipynb"):
        teacher, student = _cells(path), _cells(student_dir / path.name)
        assert len(teacher) == len(student)
        for before, after in zip(teacher, student):
            old, new = _text(before), _text(after)
            assert not any(marker in new for marker in MARKERS)
            assert after.get("outputs", []) == []
            has_solution = BEGIN_SOLUTION in old
            added = new.count("NotImplementedError()") - old.count("NotImplementedError()")
            assert (added > 0) == has_solution, path.name
            if BEGIN_HIDDEN in old:
                hidden = old.split(BEGIN_HIDDEN)[1].split(END_HIDDEN)[0].strip()
                assert hidden not in new
            if not has_solution and BEGIN_HIDDEN not in old:
                assert old.strip() == new.strip()  # everything else is untouched


def test_the_command_reports_a_bad_directory(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert cli_main(["exercises", "--student", str(blocker / "out")]) == 2
    assert capsys.readouterr().err.startswith("csp-puzzles: error:")


def test_student_versions_fail_only_where_a_solution_was_removed(student_dir):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    for path in sorted(student_dir.glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        client = nbclient.NotebookClient(notebook, timeout=120, allow_errors=True,
                                         kernel_name="python3",
                                         resources={"metadata": {"path": str(SOURCE)}})
        client.execute()
        graded = set()
        failed = {}
        for index, cell in enumerate(notebook.cells):
            if cell.get("metadata", {}).get("nbgrader", {}).get("grade"):
                graded.add(index)
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    failed[index] = output["ename"]
        assert graded, f"{path.name} has no graded test cell"
        assert set(failed.values()) == {"NotImplementedError"}, (path.name, failed)
        assert set(failed) == graded, (path.name, sorted(failed), sorted(graded))
