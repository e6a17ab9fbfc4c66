"""A simulated `make lab` session leaves the repository as it was and `make test` unharmed.

The folder `make lab` opens is read from the Makefile itself (`make -n`), pointed at a fresh
name so that a real session's work is never touched. Two notebooks there are executed and
saved with their outputs, and every notebook gets a checkpoint beside it, as JupyterLab's
autosave does.
Then `git status` must be unchanged and pytest must not collect anything from that folder.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from csp_puzzles.cli import main as cli_main

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow
#: the notebooks the simulated student runs (one of the course, one exercise with its stub);
#: every notebook gets a checkpoint
RUN = {"00_start_here.ipynb", "01_variable_order.ipynb"}


def _git_status() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=REPO,
                          capture_output=True, text=True, check=True).stdout


def _make_lab_commands(folder: str) -> list[str]:
    """The commands `make lab` would run (the virtual environment taken as installed)."""
    venv = Path(sys.prefix)
    done = subprocess.run(
        ["make", "-n", "-o", str(venv / ".installed-lab"), "lab", f"VENV={venv}",
         f"LAB_STUDENT={folder}"],
        cwd=REPO, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


@pytest.fixture
def lab_folder():
    if shutil.which("git") is None or shutil.which("make") is None \
            or not (REPO / ".git").exists():
        pytest.skip("needs git, make and a git checkout")
    folder = f"lab/pytest-{uuid.uuid4().hex[:8]}"
    yield folder
    shutil.rmtree(REPO / folder, ignore_errors=True)
    lab = REPO / "lab"
    if lab.is_dir() and not any(lab.iterdir()):
        lab.rmdir()


def test_a_lab_session_leaves_git_status_and_the_tests_alone(lab_folder):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    before = _git_status()

    commands = _make_lab_commands(lab_folder)
    opened = [line for line in commands if " lab " in f" {line} " and "jupyter" in line]
    assert opened and opened[-1].split()[-1] == lab_folder, commands
    assert any(f"course {lab_folder}" in line for line in commands), commands
    assert cli_main(["course", str(REPO / lab_folder)]) == 0

    notebooks = sorted((REPO / lab_folder).rglob("*.ipynb"))
    assert len(notebooks) >= 13
    for path in notebooks:
        if path.name in RUN:  # (the course's notebooks all run elsewhere: test_course*.py)
            notebook = nbformat.read(path, as_version=4)
            nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                                    resources={"metadata": {"path": str(path.parent)}}
                                    ).execute()
            nbformat.write(notebook, path)  # autosave writes the outputs into the file
        checkpoints = path.parent / ".ipynb_checkpoints"
        checkpoints.mkdir(exist_ok=True)
        shutil.copyfile(path, checkpoints / f"{path.stem}-checkpoint.ipynb")
    saved = [cell for p in notebooks for cell in json.loads(p.read_text())["cells"]]
    assert any(cell.get("outputs") for cell in saved), "the session saved no output"

    assert _git_status() == before
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "--nbval-lax",
         "-p", "no:cacheprovider"],
        cwd=REPO, capture_output=True, text=True)
    assert collected.returncode == 0, collected.stdout[-2000:]
    items = [line.split("::")[0] for line in collected.stdout.splitlines() if "::" in line]
    assert any(item.startswith("notebooks/") for item in items), "testpaths lost the notebooks"
    assert not [item for item in items
                if item.startswith("lab/") or ".ipynb_checkpoints" in item]
