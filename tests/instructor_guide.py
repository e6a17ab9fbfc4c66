"""The parts of notebooks/exercises/INSTRUCTOR_GUIDE.md written from real runs.

For each exercise the guide shows the common mistakes and the verdict each one triggers, the
verdict an answer that hands its work over gets, and the rubric of its written answers. None
of it is typed by hand: this module runs every mistake of tests/exercise_answers.py and the
hand-over answer on the exercise (in this process, under the practice seed, as a student
runs them), reads the rubrics out of the instructor notebooks, and writes the blocks between
the guide's markers. `tests/test_instructor_guide.py` holds the guide to a fresh run.

    python -m tests.instructor_guide        # rewrite the generated blocks of the guide
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

from csp_puzzles.teaching.course import course_sources, student_notebook
from csp_puzzles.teaching.grading import seeded

from .exercise_answers import (
    MISTAKES,
    grading,
    handing_over,
    solutions,
    text,
    with_mistake,
)

EXERCISES = course_sources()[0] / "exercises"
GUIDE = EXERCISES / "INSTRUCTOR_GUIDE.md"
BLOCK = re.compile(r"(<!-- generated: (\w+) (\d\d_\w+) -->\n)(.*?)(<!-- end generated -->)",
                   re.DOTALL)


def load(exercise: str) -> dict:
    with open(EXERCISES / f"{exercise}.ipynb", encoding="utf-8") as handle:
        return json.load(handle)


def verdicts(notebook: dict) -> dict[str, str | None]:
    """Run the notebook's code cells in order; each autograded cell's verdict (None when it
    passes), as one line."""
    namespace: dict = {"__name__": "__main__"}
    found: dict[str, str | None] = {}
    with seeded(None):
        for index, cell in enumerate(notebook["cells"]):
            if cell["cell_type"] != "code":
                continue
            error: BaseException | None = None
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(compile(text(cell), f"cell {index}", "exec"), namespace)
            except Exception as raised:  # noqa: BLE001 - the verdict is what is wanted
                error = raised
            if grading(cell).get("grade"):
                found[grading(cell)["grade_id"]] = None if error is None else (
                    f"{type(error).__name__}: {' '.join(str(error).split())}")
    return found


def _points(notebook: dict) -> dict[str, float]:
    return {grading(cell)["grade_id"]: grading(cell)["points"] for cell in notebook["cells"]
            if grading(cell).get("grade") and cell["cell_type"] == "code"}


def mistakes_block(exercise: str) -> str:
    instructor = load(exercise)
    student = student_notebook(instructor)
    points = _points(instructor)
    lines = []
    for mistake in (m for m in MISTAKES if m.exercise == exercise):
        found = verdicts(with_mistake(instructor, student, mistake))
        kept = sum(points[cell] for cell, verdict in found.items() if verdict is None)
        lines.append(f"- **{mistake.what[0].upper()}{mistake.what[1:]}.** Autograded: "
                     f"{kept:g} of {sum(points.values()):g} points.")
        for cell, verdict in found.items():
            if verdict is not None:
                lines.append(f"  - `{cell}`: {verdict}")
    return "\n".join(lines) + "\n"


def handover_block(exercise: str) -> str:
    instructor = load(exercise)
    found = verdicts(handing_over(instructor, student_notebook(instructor), exercise))
    first = next(iter(found))
    return (f"An answer that hands its work over (tests/exercise_answers.py) gets 0 "
            f"autograded points; `{first}` says:\n\n> {found[first]}\n")


def rubric_block(exercise: str) -> str:
    answers = {grading(cell)["grade_id"]: solutions(load(exercise))[grading(cell)["grade_id"]]
               for cell in load(exercise)["cells"]
               if grading(cell).get("grade") and cell["cell_type"] == "markdown"}
    parts = []
    for grade_id, answer in answers.items():
        parts.append(f"`{grade_id}`, from the instructor notebook:\n\n"
                     + "\n".join(f"> {line}" if line else ">" for line in
                                 answer.strip().split("\n")))
    return "\n\n".join(parts) + "\n"


MAKERS = {"mistakes": mistakes_block, "handover": handover_block, "rubric": rubric_block}


def written(guide: str) -> str:
    """The guide with every generated block made afresh."""
    return BLOCK.sub(lambda m: m.group(1) + MAKERS[m.group(2)](m.group(3)) + m.group(5), guide)


def blocks(guide: str) -> dict[tuple[str, str], str]:
    return {(m.group(2), m.group(3)): m.group(4) for m in BLOCK.finditer(guide)}


if __name__ == "__main__":
    GUIDE.write_text(written(GUIDE.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {Path(GUIDE).name}: {len(blocks(GUIDE.read_text(encoding='utf-8')))} blocks")
