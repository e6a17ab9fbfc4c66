"""`csp-puzzles course DIR [--instructor]`: the course as students and instructors receive it.

Quick checks on the files written (no kernel); `test_course_installed.py` installs the wheel
and runs the course, `test_lab_session.py` simulates a lab session.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import csp_puzzles
from csp_puzzles.cli import main as cli_main
from csp_puzzles.teaching.course import FAILS_ON_PURPOSE, INSTRUCTOR_ONLY, MARKERS, course_sources

NOTEBOOKS, DATA = course_sources()


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and ".ipynb_checkpoints" not in p.parts)


def _cells(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)["cells"]


def _text(cell: dict) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


@pytest.fixture(scope="module")
def student(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("course") / "student"
    assert cli_main(["course", str(out)]) == 0
    return out


def test_the_course_holds_every_notebook_and_every_puzzle_file(student):
    for_students = [name for name in _files(NOTEBOOKS)
                    if Path(name).name not in INSTRUCTOR_ONLY]  # the exercises' guide
    assert _files(student / "notebooks") == for_students
    assert _files(student / "data") == _files(DATA)
    for name in _files(DATA):
        assert (student / "data" / name).read_bytes() == (DATA / name).read_bytes()


def test_the_student_course_has_no_solution_no_hidden_test_no_answer_key(student):
    notebooks = sorted((student / "notebooks").rglob("*.ipynb"))
    assert len(notebooks) >= 13
    for path in notebooks:
        text = path.read_text(encoding="utf-8")
        assert not any(marker in text for marker in MARKERS), path.name
        for before, after in zip(_cells(NOTEBOOKS / path.relative_to(student / "notebooks")),
                                 _cells(path)):
            if MARKERS[0] in _text(before) and before["cell_type"] == "markdown":
                key = _text(before).split(MARKERS[0])[1].split(MARKERS[1])[0].strip()
                assert key and key not in _text(after)


def test_no_cell_of_the_student_course_is_left_empty(student):
    """An answer key is kept in the cell of its questions, never alone in a cell that the
    student form would leave empty (issue 43: notebook 10 had one)."""
    for path in sorted((student / "notebooks").rglob("*.ipynb")):
        for number, cell in enumerate(_cells(path), start=1):
            assert _text(cell).strip(), f"{path.name}: cell {number} is empty"


def test_every_topic_notebook_has_an_answer_key_that_students_do_not_get(student):
    topics = sorted(NOTEBOOKS.glob("0[0-8]_*.ipynb"))  # the nine first ones, at least
    assert len(topics) == 9
    for path in topics:
        last = _text(_cells(path)[-1])
        assert last.startswith("## Exercises") and MARKERS[0] in last, path.name
        assert "YOUR ANSWER HERE" not in _text(_cells(student / "notebooks" / path.name)[-1])


def test_cells_that_fail_on_purpose_are_tagged_so_run_all_goes_on(student):
    """Stubs and graded cells carry the tag (so do cells that call the student's code:
    test_exercises runs the untouched versions and finds every failing cell tagged), and
    the instructor versions carry it already, so that nbgrader's release keeps it."""
    tagged = 0
    for path in sorted((student / "notebooks" / "exercises").glob("*.ipynb")):
        source = _cells(NOTEBOOKS / "exercises" / path.name)
        for cell, teacher in zip(_cells(path), source):
            tags = cell.get("metadata", {}).get("tags", [])
            fails = "raise NotImplementedError()" in _text(cell) or \
                cell.get("metadata", {}).get("nbgrader", {}).get("grade")
            if fails and cell["cell_type"] == "code":
                assert FAILS_ON_PURPOSE in tags, path.name
            assert cell["cell_type"] == "code" or not tags, path.name
            assert tags == teacher.get("metadata", {}).get("tags", []), path.name
            tagged += FAILS_ON_PURPOSE in tags
    assert tagged >= 40


def test_the_instructor_course_is_the_source_as_it_is(tmp_path):
    assert cli_main(["course", str(tmp_path / "teacher"), "--instructor"]) == 0
    assert _files(tmp_path / "teacher" / "notebooks") == _files(NOTEBOOKS)
    for name in _files(NOTEBOOKS):
        assert (tmp_path / "teacher" / "notebooks" / name).read_bytes() == \
            (NOTEBOOKS / name).read_bytes()


def test_an_empty_folder_is_fine_a_non_empty_one_is_refused(tmp_path, capsys):
    assert cli_main(["course", str(tmp_path)]) == 0  # pytest's tmp_path exists, empty
    capsys.readouterr()
    assert cli_main(["course", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"csp-puzzles: error: {tmp_path}:1:1: ") and err.count("\n") == 1
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("my work")
    assert cli_main(["course", str(mine), "--instructor"]) == 2
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    (tmp_path / "file").write_text("x")
    assert cli_main(["course", str(tmp_path / "file")]) == 2


def test_version_and_help_name_nothing_a_reader_cannot_open(capsys):
    with pytest.raises(SystemExit) as done:
        cli_main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"csp-puzzles {csp_puzzles.__version__}"
    for command in ([], ["solve"], ["course"], ["generate"], ["bench"], ["cnf"]):
        with pytest.raises(SystemExit):
            cli_main([*command, "--help"])
        assert "CONTRACT" not in capsys.readouterr().out


def test_every_link_of_the_course_opens_a_file_of_the_course():
    import re

    linked = 0
    for path in sorted(NOTEBOOKS.rglob("*.ipynb")) + sorted(NOTEBOOKS.rglob("*.md")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" in target:
                continue
            assert (path.parent / target).is_file(), f"{path.name} links to {target}"
            linked += 1
    assert linked >= 15


def test_a_notebook_with_unpaired_markers_is_one_clear_error(tmp_path, monkeypatch, capsys):
    from csp_puzzles.teaching import course

    source = tmp_path / "source"
    (source / "notebooks").mkdir(parents=True)
    (source / "data").mkdir()
    broken = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "## Exercises"},
                        {"cell_type": "code", "metadata": {}, "outputs": [],
                         "execution_count": None,
                         "source": "def f():\n    ### BEGIN SOLUTION\n    return 1"}],
              "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (source / "notebooks" / "00_start_here.ipynb").write_text(json.dumps(broken))
    monkeypatch.setattr(course, "_CHECKOUT", source)
    assert cli_main(["course", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "00_start_here.ipynb: cell 2: a solution region" in err
    assert not (tmp_path / "out").exists()


def test_from_an_installed_package_the_instructor_versions_are_refused(tmp_path, monkeypatch,
                                                                       capsys):
    """An installed wheel holds the student course only: `--instructor` exits 2 with one line
    saying where the instructor versions come from; the student course is written as usual."""
    from csp_puzzles.teaching import course

    installed = tmp_path / "site-packages" / "csp_puzzles" / "coursefiles"
    assert cli_main(["course", str(installed)]) == 0
    capsys.readouterr()
    monkeypatch.setattr(course, "_CHECKOUT", tmp_path / "site-packages")
    monkeypatch.setattr(course, "_INSTALLED", installed)
    assert cli_main(["course", str(tmp_path / "teacher"), "--instructor"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "source checkout" in err and "make lab-instructor" in err
    assert not (tmp_path / "teacher").exists()
    assert cli_main(["course", str(tmp_path / "class")]) == 0
    assert _files(tmp_path / "class" / "notebooks") == _files(installed / "notebooks")
