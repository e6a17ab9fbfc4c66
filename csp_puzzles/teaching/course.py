"""The course as students and instructors receive it: `csp-puzzles course DIR [--instructor]`.

The notebooks are written once, in their instructor form. Everything a student must not see
is marked the way nbgrader marks it:

- `### BEGIN SOLUTION` / `### END SOLUTION` around the code a student writes (in the graded
  exercises) and around the answer keys of the end-of-notebook questions;
- `### BEGIN HIDDEN TESTS` / `### END HIDDEN TESTS` around the tests a student does not see.

Files named in `INSTRUCTOR_ONLY` (the instructor's guide of the exercises) go to instructors
only: the student course and the wheel leave them out.

The student form of a notebook:

- replaces each solution region of a code cell by `# YOUR CODE HERE` and
  `raise NotImplementedError()` at the marker's indentation;
- replaces each solution region of a Markdown cell by `YOUR ANSWER HERE` when the cell is an
  nbgrader solution cell (the student writes the answer there), and drops it otherwise (an
  answer key under the questions of a lesson);
- drops each hidden-test region;
- tags the cells that now fail on purpose (the stubs and the graded tests) `raises-exception`,
  so that "Run All" in JupyterLab, and nbval, go on past them;
- has no outputs.

This is the text nbgrader's `generate_assignment` writes, without its course database; an
instructor who grades with nbgrader gives it the instructor versions (see the README).

Where each form comes from: a wheel carries the student course only (the build writes the
student form of every notebook, see setup.py), so that `pip install csp-puzzles` hands no
one an answer; the instructor versions are the notebooks of a source checkout, which
`course DIR --instructor` copies when it runs there.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
MARKERS = (BEGIN_SOLUTION, END_SOLUTION, BEGIN_HIDDEN, END_HIDDEN)
CODE_STUB = ("# YOUR CODE HERE", "raise NotImplementedError()")
MARKDOWN_STUB = "YOUR ANSWER HERE"
FAILS_ON_PURPOSE = "raises-exception"  # the cell tag JupyterLab and nbval both honour
#: files of the course for instructors only: never in the student course, nor in the wheel
#: (setup.py leaves them out)
INSTRUCTOR_ONLY = ("INSTRUCTOR_GUIDE.md",)

_PACKAGE = Path(__file__).resolve().parents[1]
#: the source checkout (instructor versions), when the package runs from one
_CHECKOUT = _PACKAGE.parent
#: the student course inside an installed wheel
_INSTALLED = _PACKAGE / "coursefiles"
INSTRUCTOR_ELSEWHERE = (
    "the instructor versions are not in the installed package, which carries the student "
    "course only; write them from a source checkout of csp-puzzles (`csp-puzzles course DIR "
    "--instructor` run there, or `make lab-instructor`)")


class MarkerError(ValueError):
    """A BEGIN marker without its END (or the reverse)."""


class CourseError(Exception):
    """The course cannot be written where asked; the message says why."""


def _course_in(place: Path) -> tuple[Path, Path] | None:
    notebooks, data = place / "notebooks", place / "data"
    if (notebooks / "00_start_here.ipynb").is_file() and data.is_dir():
        return notebooks, data
    return None


def course_sources(instructor: bool = False) -> tuple[Path, Path]:
    """The folders holding the notebooks and the puzzle files they read: a source
    checkout's (instructor versions), else the installed student course. `instructor=True`
    accepts the checkout only, and says where the instructor versions come from otherwise."""
    found = _course_in(_CHECKOUT)
    if found is not None:
        return found
    if instructor:
        raise CourseError(INSTRUCTOR_ELSEWHERE)
    found = _course_in(_INSTALLED)
    if found is None:
        raise CourseError("the course files are missing from this installation")
    return found


def strip_source(source: str, cell_type: str = "code", answer_cell: bool = True) -> str:
    """The student text of one cell's source.

    `answer_cell` says whether a Markdown solution region leaves a place for the student's
    answer (`YOUR ANSWER HERE`) or disappears (an answer key).
    """
    out: list[str] = []
    mode = None  # None, "solution" or "hidden"
    for number, line in enumerate(source.split("\n"), start=1):
        marker = line.strip()
        if mode is None and marker == BEGIN_SOLUTION:
            mode = "solution"
            indent = line[: len(line) - len(line.lstrip())]
            if cell_type == "code":
                out.extend(indent + stub for stub in CODE_STUB)
            elif answer_cell:
                out.append(indent + MARKDOWN_STUB)
        elif mode is None and marker == BEGIN_HIDDEN:
            mode = "hidden"
        elif mode == "solution" and marker == END_SOLUTION:
            mode = None
        elif mode == "hidden" and marker == END_HIDDEN:
            mode = None
        elif marker in MARKERS:
            raise MarkerError(f"line {number}: unexpected {marker!r}")
        elif mode is None:
            out.append(line)
    if mode == "solution" and cell_type == "markdown":
        pass  # an answer key left open at the end of its cell ends there
    elif mode is not None:
        raise MarkerError(f"a {mode} region is never closed")
    return "\n".join(out).rstrip("\n")


def _text(cell: dict[str, Any]) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def student_notebook(notebook: dict[str, Any]) -> dict[str, Any]:
    """A copy of an instructor notebook (nbformat JSON) in its student form.

    Raises `MarkerError` naming the cell (counted from 1) whose markers do not pair up.
    """
    student = json.loads(json.dumps(notebook))
    for number, cell in enumerate(student["cells"], start=1):
        text = _text(cell)
        grading = cell.get("metadata", {}).get("nbgrader", {})
        try:
            cell["source"] = strip_source(text, cell["cell_type"], bool(grading.get("solution")))
        except MarkerError as err:
            raise MarkerError(f"cell {number}: {err}") from None
        if cell["cell_type"] != "code":
            continue
        cell["outputs"] = []
        cell["execution_count"] = None
        if BEGIN_SOLUTION in text or grading.get("grade"):
            tags = cell.setdefault("metadata", {}).setdefault("tags", [])
            if FAILS_ON_PURPOSE not in tags:
                tags.append(FAILS_ON_PURPOSE)
    student["metadata"].pop("widgets", None)
    return student


def _notebooks(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in path.parts)


def _copy_tree(source: Path, target: Path) -> list[Path]:
    written = []
    for path in sorted(source.rglob("*")):
        if path.is_file() and ".ipynb_checkpoints" not in path.parts \
                and "__pycache__" not in path.parts:
            destination = target / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)
            written.append(destination)
    return written


def _student_form(path: Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        notebook = json.load(handle)
    try:
        return student_notebook(notebook)
    except MarkerError as err:
        raise CourseError(f"{path.parent.name}/{path.name}: {err}") from None


def write_notebook(notebook: dict[str, Any], path: Path) -> None:
    """Write nbformat JSON the way Jupyter does (one-space indent, a final newline)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(notebook, handle, indent=1, ensure_ascii=False)
        handle.write("\n")


def write_course(target: Path, instructor: bool = False) -> list[Path]:
    """Write the course into `target` (created, or empty): `notebooks/` and `data/`.

    The student form (the default) has no solution and no hidden test; `instructor=True`
    copies the instructor versions as they are. Returns the files written.
    """
    notebooks, data = course_sources(instructor)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise CourseError("is not an empty folder, expected a new or empty one "
                          "(the course never overwrites files)")
    # every student form is made before anything is written: a bad notebook writes nothing
    students = {} if instructor else {path: _student_form(path) for path in _notebooks(notebooks)}
    try:
        target.mkdir(parents=True, exist_ok=True)
        written = _copy_tree(data, target / "data")
        if instructor:
            return written + _copy_tree(notebooks, target / "notebooks")
        for path in sorted(notebooks.rglob("*")):
            if not path.is_file() or ".ipynb_checkpoints" in path.parts \
                    or path.name in INSTRUCTOR_ONLY:
                continue
            destination = target / "notebooks" / path.relative_to(notebooks)
            if path in students:
                write_notebook(students[path], destination)
            else:
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, destination)
            written.append(destination)
        return written
    except OSError as err:
        raise CourseError(f"cannot write the course ({err.strerror or err})") from None


def make_student_form(path: Path) -> None:
    """Rewrite the notebook at `path` in its student form (the wheel's build does this to
    every notebook it packs)."""
    write_notebook(_student_form(path), path)


def write_student_exercises(out_dir: Path) -> list[Path]:
    """The student versions of the graded exercises alone, as `exercises --student` wrote."""
    source = course_sources()[0] / "exercises"
    written = []
    for path in _notebooks(source):
        student = _student_form(path)
        target = out_dir / path.name
        try:
            write_notebook(student, target)
        except OSError as err:
            raise CourseError(f"cannot write {target.name} ({err.strerror or err})") from None
        written.append(target)
    return written
