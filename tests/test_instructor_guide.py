"""The instructor's guide (notebooks/exercises/INSTRUCTOR_GUIDE.md) says what is so.

- Its generated blocks (the mistakes and their verdicts, a hand-over's verdict, the rubrics)
  are those of a fresh run (`python -m tests.instructor_guide` rewrites them).
- Its table gives every exercise its minutes and the points its notebook carries
  (autograded, written, in all); every exercise has its section, with a walkthrough.
- It goes to instructors only: `csp-puzzles course DIR --instructor` writes it, the student
  course does not (the wheel leaves it out too: tests/test_course_installed.py).
"""

from __future__ import annotations

import re

import pytest

from csp_puzzles.cli import main as cli_main

from .exercise_answers import grading
from .instructor_guide import EXERCISES, GUIDE, blocks, load, written

NAMES = sorted(path.stem for path in EXERCISES.glob("*.ipynb"))


@pytest.fixture(scope="module")
def guide() -> str:
    return GUIDE.read_text(encoding="utf-8")


def test_the_generated_blocks_are_those_of_a_fresh_run(guide):
    fresh = blocks(written(guide))
    stored = blocks(guide)
    assert set(stored) == set(fresh)
    for key in stored:
        assert stored[key] == fresh[key], f"{key}: run `python -m tests.instructor_guide`"


def test_every_exercise_has_its_section_its_mistakes_and_its_rubrics(guide):
    found = blocks(guide)
    for name in NAMES:
        number = name[:2]
        assert re.search(rf"^## Exercise {number} · ", guide, re.MULTILINE), name
        section = guide.split(f"## Exercise {number} · ")[1].split("\n## ")[0]
        for part in ("**The idea.**", "**Walkthrough.**", "**Common mistakes"):
            assert part in section, (name, part)
        assert ("mistakes", name) in found and ("handover", name) in found
        written_cells = [cell for cell in load(name)["cells"]
                         if grading(cell).get("grade") and cell["cell_type"] == "markdown"]
        assert (("rubric", name) in found) == bool(written_cells), name


def test_the_table_holds_each_exercise_s_minutes_and_points(guide):
    rows = {found.group(1): found for found in re.finditer(
        r"^\| \[\d\d · [^]]+\]\((\d\d_\w+)\.ipynb\) \| (\d\d) \| (\d+) \| (\d+) \| (\d+) \| "
        r"(\d+) \|$", guide, re.MULTILINE)}
    assert sorted(rows) == NAMES
    for name, row in rows.items():
        cells = [cell for cell in load(name)["cells"] if grading(cell).get("grade")]
        auto = sum(grading(c)["points"] for c in cells if c["cell_type"] == "code")
        by_hand = sum(grading(c)["points"] for c in cells if c["cell_type"] == "markdown")
        assert (int(row.group(4)), int(row.group(5)), int(row.group(6))) == \
            (auto, by_hand, auto + by_hand), name
        assert 15 <= int(row.group(3)) <= 120, name
        first = "".join(load(name)["cells"][0]["source"])
        assert f"notebook {row.group(2)} ·" in first, name
        section = guide.split(f"## Exercise {name[:2]} · ")[1].split("\n## ")[0]
        assert f"{row.group(3)} minutes · {auto + by_hand} points" in section, name


def test_the_guide_goes_to_instructors_only(tmp_path):
    assert cli_main(["course", str(tmp_path / "student")]) == 0
    assert cli_main(["course", str(tmp_path / "teacher"), "--instructor"]) == 0
    assert not list((tmp_path / "student").rglob(GUIDE.name))
    assert (tmp_path / "teacher" / "notebooks" / "exercises" / GUIDE.name).read_bytes() == \
        GUIDE.read_bytes()
