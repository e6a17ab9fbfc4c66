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


NUMBERS = {9: "nine", 10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen", 14: "fourteen"}


def _uses_the_explorer(path: Path) -> bool:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return any(cell["cell_type"] == "code" and ("Stepper(" in "".join(cell["source"])
                                                or "Comparison(" in "".join(cell["source"]))
               for cell in cells)


def test_the_readme_counts_the_notebooks_and_those_with_the_explorer():
    readme = (NOTEBOOKS[0].parent.parent / "README.md").read_text(encoding="utf-8")
    topics = [path for path in NOTEBOOKS if path.name[:2].isdigit()]
    with_explorer = [path for path in topics if _uses_the_explorer(path)]
    claim = (f"{NUMBERS[len(topics)]} notebooks, one per topic, {NUMBERS[len(with_explorer)]} "
             "of them with the trace explorer")
    assert claim in " ".join(readme.split()), claim
