"""Notebooks 08 and 10 run where python-constraint2 or HiGHS cannot be imported.

The browser's Python (JupyterLite, offline) has neither; there each of these notebooks says
so in its own output and skips the cells that need the missing package, with no error. Here
the same path runs in a local kernel that cannot import them (the module is set to None in
`sys.modules` before the first cell, which makes every `import` of it fail), so the skips
are checked wherever the tests run; tests/browser/test_lite_site.py runs them in Pyodide.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
#: notebook -> the modules hidden, and what its output must say
CASES = {
    "08_benchmarks.ipynb": (("constraint",), [
        "python-constraint2 is not available in this Python (the browser's?): the "
        "comparisons with it are skipped"]),
    "10_integer_programs.ipynb": (("highspy",), [
        "HiGHS (highspy, with numpy) is not available in this Python (the browser's?)",
        "skipped, it needs HiGHS: the linear relaxations",
        "skipped, it needs HiGHS: the milp engine"]),
}


def run_without(path: Path, hidden: tuple[str, ...]) -> tuple[list[str], str]:
    """Run the notebook in a fresh kernel that cannot import `hidden`: its errors, its text."""
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.insert(0, nbformat.v4.new_code_cell(
        "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in hidden)))
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     allow_errors=True,
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    errors, text = [], []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if output["output_type"] == "error":
                errors.append(f"{output['ename']}: {output['evalue']}")
            elif output["output_type"] == "stream":
                text.append(output["text"])
    return errors, "".join(text)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_notebook_says_what_it_skips_and_runs_without_error(name):
    hidden, said = CASES[name]
    errors, text = run_without(NOTEBOOKS / name, hidden)
    assert errors == []
    for words in said:
        assert words in text
