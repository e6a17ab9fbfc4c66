"""The course's notebooks are stored the way nbformat will soon insist on: valid, every cell
with an id, and no outputs nor the timings of a past run (they are run fresh by nbval and
by students, and a stored run only makes noise in every diff)."""
import json
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_valid_with_ids_and_without_outputs(path):
    stored = json.loads(path.read_text(encoding="utf-8"))  # as on disk: nbformat.read adds ids
    for number, cell in enumerate(stored["cells"]):
        assert cell.get("id"), f"{path.name}: cell {number} has no id"
        assert not cell.get("outputs"), f"{path.name}: cell {number} has outputs"
        assert "execution" not in cell.get("metadata", {}), (
            f"{path.name}: cell {number} keeps the timings of a past run")
    nbformat.validate(nbformat.from_dict(stored))


def test_the_course_has_notebooks():
    assert len(NOTEBOOKS) >= 10
