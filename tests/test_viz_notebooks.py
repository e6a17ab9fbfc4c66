"""The notebooks as files: stored clean, self-contained, each topic ending with exercises.

(`pytest --nbval-lax notebooks/` runs them; this only reads them, in milliseconds.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
ALL = sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
TOPICS = sorted(NOTEBOOKS.glob("0*.ipynb"))


def _load(path: Path) -> dict:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _source(cell: dict) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def test_the_topic_notebooks_are_there():
    names = [path.stem for path in TOPICS]
    assert len(names) >= 9
    assert [name[:2] for name in names] == [f"{i:02d}" for i in range(len(names))]
    assert len(list((NOTEBOOKS / "exercises").glob("*.ipynb"))) >= 3


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_stored_without_outputs(path):
    """Expected results live in asserts inside the cells, never in stored outputs.

    (An `# NBVAL_CHECK_OUTPUT` marker would compare nothing once outputs are stripped, so
    it must not appear either.)
    """
    notebook = _load(path)
    assert "widgets" not in notebook["metadata"], "widget state must not be stored"
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        assert "NBVAL_CHECK_OUTPUT" not in _source(cell)
        assert cell["outputs"] == [] and cell["execution_count"] is None


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_notebooks_use_only_project_data(path):
    for cell in _load(path)["cells"]:
        text = _source(cell)
        assert "../shared" not in text and "/work/" not in text, "use data/ or literal puzzles"


@pytest.mark.parametrize("path", TOPICS, ids=lambda p: p.name)
def test_each_topic_notebook_ends_with_exercises(path):
    last = _load(path)["cells"][-1]
    assert last["cell_type"] == "markdown"
    text = _source(last)
    assert text.startswith("## Exercises")
    assert text.count("\n1. ") + text.count("\n2. ") + text.count("\n3. ") >= 2


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_no_notebook_needs_matplotlib(path):
    """Pictures are plain data drawn in the browser; matplotlib is the optional `png` extra,
    and a notebook that names it says so."""
    for cell in _load(path)["cells"]:
        text = _source(cell)
        if cell["cell_type"] == "code":
            assert "matplotlib" not in text and not re.search(r"\bplt\b", text)
        elif "matplotlib" in text:
            assert '"csp-puzzles[png]"' in text, "name the png extra where matplotlib is named"


def test_the_first_notebook_lists_every_exercise():
    first = _source(_load(NOTEBOOKS / "00_start_here.ipynb")["cells"][0])
    for exercise in sorted((NOTEBOOKS / "exercises").glob("*.ipynb")):
        assert f"(exercises/{exercise.name})" in first, exercise.name


@pytest.mark.parametrize("path", TOPICS[:4], ids=lambda p: p.name)
def test_notebooks_00_to_03_have_a_your_turn_section(path):
    """Each asks the student to act (a search, a prediction, an arc, a puzzle by hand)."""
    headings = [line for cell in _load(path)["cells"] if cell["cell_type"] == "markdown"
                for line in _source(cell).splitlines() if line.startswith("#")]
    assert any("Your turn" in heading for heading in headings)
