"""Grading with nbgrader, for real: the path the README gives instructors, run end to end.

One exercise goes through `nbgrader generate_assignment`, two submissions through
`nbgrader autograde` (one with the instructor's solutions written into the student version,
one handed in untouched), and the scores come back from `nbgrader export` and the gradebook:
full marks for the first, zero on every graded cell for the second.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from csp_puzzles.cli import main as cli_main

pytestmark = pytest.mark.slow

ASSIGNMENT = "ex02"
NOTEBOOK = "02_propagator.ipynb"  # the quickest exercise to run
REPO = Path(__file__).resolve().parent.parent


def _nbgrader(root: Path, *args: str) -> None:
    # nbgrader runs `alembic` from PATH: the environment's bin/ goes first, as when activated
    env = dict(os.environ,
               PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
               PYTHONPATH=os.pathsep.join(
                   [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]))
    done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def _load(path: Path) -> dict:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _hand_in(root: Path, student: str, notebook: dict) -> None:
    folder = root / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True)
    with open(folder / NOTEBOOK, "w", encoding="utf-8") as handle:
        json.dump(notebook, handle)


def test_generate_autograde_and_read_the_scores(tmp_path):
    pytest.importorskip("nbgrader")
    teacher = tmp_path / "teacher"
    assert cli_main(["course", str(teacher), "--instructor"]) == 0
    root = tmp_path / "grading"
    (root / "source" / ASSIGNMENT).mkdir(parents=True)
    (root / "nbgrader_config.py").write_text('c.CourseDirectory.course_id = "csp"\n')
    source = teacher / "notebooks" / "exercises" / NOTEBOOK
    (root / "source" / ASSIGNMENT / NOTEBOOK).write_bytes(source.read_bytes())

    _nbgrader(root, "generate_assignment", ASSIGNMENT)
    released = _load(root / "release" / ASSIGNMENT / NOTEBOOK)
    text = json.dumps(released)
    assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text

    solutions = {cell["metadata"]["nbgrader"]["grade_id"]: cell["source"]
                 for cell in _load(source)["cells"]
                 if cell["metadata"].get("nbgrader", {}).get("solution")}
    solved = json.loads(json.dumps(released))
    for cell in solved["cells"]:
        grade_id = cell["metadata"].get("nbgrader", {}).get("grade_id")
        if grade_id in solutions:
            lines = "".join(solutions[grade_id]).split("\n")
            cell["source"] = "\n".join(line for line in lines if line.strip() not in (
                "### BEGIN SOLUTION", "### END SOLUTION"))  # what a good student writes
    _hand_in(root, "good", solved)
    _hand_in(root, "blank", released)

    _nbgrader(root, "autograde", ASSIGNMENT)
    _nbgrader(root, "export", "--to", str(root / "grades.csv"))

    with open(root / "grades.csv", encoding="utf-8") as handle:
        scores = {row["student_id"]: row for row in csv.DictReader(handle)}
    assert set(scores) == {"good", "blank"}
    points = sum(cell["metadata"]["nbgrader"].get("points", 0)
                 for cell in _load(source)["cells"]
                 if cell["metadata"].get("nbgrader", {}).get("grade"))
    assert points > 0
    assert float(scores["good"]["score"]) == float(scores["good"]["max_score"]) == points
    assert float(scores["blank"]["score"]) == 0

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", "csp") as gradebook:
        blank = gradebook.find_submission_notebook(NOTEBOOK[:-6], ASSIGNMENT, "blank")
        graded = [grade for grade in blank.grades if grade.max_score > 0]
        assert graded and all(grade.score == 0 for grade in graded)
        good = gradebook.find_submission_notebook(NOTEBOOK[:-6], ASSIGNMENT, "good")
        assert all(grade.score == grade.max_score for grade in good.grades)
