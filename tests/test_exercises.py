"""The graded exercises, run in this process (the nbgrader round trip is test_grading.py).

- Student versions lose exactly the solutions (written with the command line, checked as text).
- Every exercise states its notebook, its learning goals and its points, and the points it
  states are the points its graded cells carry (and the exercises' README says the same).
- No exercise hides tests: nbgrader restores a hidden test by overwriting the locked cell it
  was cut from, which it reports as a changed checksum at every autograde. What the grader
  keeps to itself is the seed its checks draw instances from.
- Run in this process, cell after cell: the instructor's solutions pass every graded cell
  (under a sweep of grading seeds), the untouched student version fails each graded cell
  with the `NotImplementedError` left in place of a solution, and a half-right submission
  fails exactly the cells it should, each with a `Mismatch` that says what went wrong.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_puzzles.cli import main as cli_main
from csp_puzzles.teaching.course import (
    BEGIN_HIDDEN,
    BEGIN_SOLUTION,
    END_HIDDEN,
    END_SOLUTION,
    FAILS_ON_PURPOSE,
    MarkerError,
    course_sources,
    strip_source,
    student_notebook,
)
from csp_puzzles.teaching.grading import SEED_VARIABLE, Mismatch

from .exercise_answers import HALF_RIGHT, grading, half_right, text

NOTEBOOKS = course_sources()[0]
SOURCE = NOTEBOOKS / "exercises"
EXERCISES = sorted(path.stem for path in SOURCE.glob("*.ipynb"))
MARKERS = (BEGIN_SOLUTION, END_SOLUTION, BEGIN_HIDDEN, END_HIDDEN)


def load(exercise: str) -> dict:
    with open(SOURCE / f"{exercise}.ipynb", encoding="utf-8") as handle:
        return json.load(handle)


# -- the student text ---------------------------------------------------------------------------
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


@pytest.fixture(scope="module")
def student_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("student")
    assert cli_main(["exercises", "--student", str(out)]) == 0
    return out


def test_every_exercise_gets_a_student_version(student_dir):
    assert len(EXERCISES) >= 12
    assert sorted(p.stem for p in student_dir.glob("*.ipynb")) == EXERCISES


def test_student_text_has_stubs_where_solutions_were(student_dir):
    for exercise in EXERCISES:
        with open(student_dir / f"{exercise}.ipynb", encoding="utf-8") as handle:
            student = json.load(handle)["cells"]
        teacher = load(exercise)["cells"]
        assert len(teacher) == len(student)
        for before, after in zip(teacher, student):
            old, new = text(before), text(after)
            assert not any(marker in new for marker in MARKERS)
            assert after.get("outputs", []) == []
            has_solution = BEGIN_SOLUTION in old
            added = new.count("NotImplementedError()") - old.count("NotImplementedError()")
            assert (added > 0) == has_solution, exercise
            if not has_solution:
                assert old.strip() == new.strip()  # everything else is untouched


def test_the_command_reports_a_bad_directory(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert cli_main(["exercises", "--student", str(blocker / "out")]) == 2
    assert capsys.readouterr().err.startswith("csp-puzzles: error:")


# -- what each exercise says about itself --------------------------------------------------------
GOES_WITH = re.compile(r"\*Goes with \[notebook (\d\d) · [^]]+\]\(\.\./(\d\d)_\w+\.ipynb\)"
                       r"[^*]*\. (\d+) points\.\*")


def _header(exercise: str) -> re.Match:
    first = text(load(exercise)["cells"][0])
    found = GOES_WITH.search(first)
    assert found, f"{exercise}: no '*Goes with [notebook NN · ...](../NN_....ipynb). N points.*'"
    assert "**After this exercise you can:**" in first, exercise
    return found


def _points(exercise: str) -> float:
    return sum(grading(cell).get("points", 0) for cell in load(exercise)["cells"]
               if grading(cell).get("grade"))


def test_every_notebook_of_the_course_has_an_exercise():
    covered = set()
    for exercise in EXERCISES:
        found = _header(exercise)
        assert found.group(1) == found.group(2), exercise
        covered.add(found.group(1))
    assert covered == {path.name[:2] for path in NOTEBOOKS.glob("[01][0-9]_*.ipynb")}


def test_the_points_said_are_the_points_graded():
    readme = (SOURCE / "README.md").read_text(encoding="utf-8")
    for exercise in EXERCISES:
        points = _points(exercise)
        assert points > 0 and float(_header(exercise).group(3)) == points, exercise
        row = next(line for line in readme.splitlines() if f"({exercise}.ipynb)" in line)
        assert row.rstrip(" |").endswith(f"| {points:g}"), row


def test_the_readmes_count_the_exercises():
    words = {12: "twelve", 13: "thirteen", 14: "fourteen", 15: "fifteen", 16: "sixteen"}
    said = words[len(EXERCISES)]
    readme = (NOTEBOOKS.parent / "README.md").read_text(encoding="utf-8")
    assert f"{said} graded exercises" in " ".join(readme.split())
    ours = (SOURCE / "README.md").read_text(encoding="utf-8")
    assert ours.startswith(f"# Exercises\n\n{said.capitalize()} graded exercises")
    assert sorted(re.findall(r"\]\((\d\d_\w+)\.ipynb\)", ours)) == EXERCISES


def test_graded_cells_hide_nothing_and_fail_on_purpose_visibly():
    for exercise in EXERCISES:
        cells = load(exercise)["cells"]
        ids = [grading(cell)["grade_id"] for cell in cells if grading(cell)]
        assert len(ids) == len(set(ids)), exercise
        graded = [cell for cell in cells if grading(cell).get("grade")]
        assert len(graded) >= 2, f"{exercise}: one graded cell leaves no room for partial marks"
        for cell in cells:
            assert BEGIN_HIDDEN not in text(cell), f"{exercise}: nbgrader would warn at autograde"
            if grading(cell).get("grade") or grading(cell).get("solution"):
                assert FAILS_ON_PURPOSE in cell["metadata"].get("tags", []), exercise
                assert grading(cell).get("solution") != grading(cell).get("grade"), exercise


# -- running the cells ----------------------------------------------------------------------------
@contextlib.contextmanager
def grading_seed(seed: str | None):
    before = os.environ.get(SEED_VARIABLE)
    if seed is None:
        os.environ.pop(SEED_VARIABLE, None)
    else:
        os.environ[SEED_VARIABLE] = seed
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(SEED_VARIABLE, None)
        else:
            os.environ[SEED_VARIABLE] = before


def run(notebook: dict, namespace: dict | None = None,
        graded_only: bool = False) -> dict[int, BaseException | None]:
    """Run the code cells in order in `namespace`; the exception of each (or None)."""
    namespace = {"__name__": "__main__"} if namespace is None else namespace
    outcome: dict[int, BaseException | None] = {}
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code" or (graded_only and not grading(cell).get("grade")):
            continue
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(text(cell), f"cell {index}", "exec"), namespace)
            outcome[index] = None
        except Exception as error:  # noqa: BLE001 - every cell's fate is looked at
            outcome[index] = error
    return outcome


def _graded(notebook: dict) -> dict[int, str]:
    return {index: grading(cell)["grade_id"] for index, cell in enumerate(notebook["cells"])
            if grading(cell).get("grade")}


@pytest.fixture(scope="module")
def solved() -> dict[str, dict]:
    """Each exercise's namespace once the instructor version has run under the practice
    seed; every one of its cells must pass."""
    namespaces = {}
    with grading_seed(None):
        for exercise in EXERCISES:
            namespace: dict = {"__name__": "__main__"}
            failed = {i: e for i, e in run(load(exercise), namespace).items() if e is not None}
            assert not failed, (exercise, failed)
            namespaces[exercise] = namespace
    return namespaces


@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_solution_passes_every_cell(exercise, solved):
    assert exercise in solved


#: seeds drawn per exercise: more where the checks take little time
SWEEP = {"03_futoshiki": 3, "06_kakuro_runs": 3, "07_towers_clues": 3, "09_hashi_cnf": 3,
         "11_min_conflicts": 3, "13_milp_rows": 3}


@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_solution_passes_under_any_seed(exercise, solved):
    @settings(max_examples=SWEEP.get(exercise, 10), deadline=None, derandomize=True)
    @given(seed=st.integers(0, 10**9))
    def sweep(seed):
        with grading_seed(str(seed)):
            failed = {i: e for i, e in run(load(exercise), dict(solved[exercise]),
                                           graded_only=True).items() if e is not None}
        assert not failed, (seed, failed)

    sweep()


@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_untouched_version_fails_each_graded_cell_with_not_implemented(exercise):
    student = student_notebook(load(exercise))
    with grading_seed(None):
        outcome = run(student)
    graded = _graded(student)
    for index, error in outcome.items():
        if error is not None:
            assert isinstance(error, NotImplementedError), (exercise, index, error)
            tags = student["cells"][index]["metadata"].get("tags", [])
            assert FAILS_ON_PURPOSE in tags, (exercise, index)
    assert all(outcome[index] is not None for index in graded), exercise


@pytest.mark.parametrize("exercise", EXERCISES)
def test_a_half_right_submission_fails_what_it_gets_wrong_and_says_why(exercise):
    instructor = load(exercise)
    submitted = half_right(instructor, student_notebook(instructor), exercise)
    with grading_seed(None):
        outcome = run(submitted)
    graded = _graded(submitted)
    failed = {graded[index] for index in graded if outcome[index] is not None}
    assert failed == HALF_RIGHT[exercise][1], exercise
    assert len(failed) < len(graded)
    for index, grade_id in graded.items():
        error = outcome[index]
        if error is not None:
            assert isinstance(error, Mismatch) and len(str(error)) > 40, (grade_id, error)
