"""The course from an installed wheel, outside the repository, as a student gets it.

The wheel is built from a copy of the sources and installed with `--no-deps` into a fresh
virtual environment in a temporary folder. Its dependencies come from the environment running
the tests (a `.pth` line placed after the new environment's own site-packages, so the wheel's
copy of `csp_puzzles` is the one imported), and a check reads the wheel's own requirements
and verifies that each one is installed at a version it accepts. Then, with no PYTHONPATH and
from outside the repository: `csp-puzzles --version`, `csp-puzzles course DIR`, no solution or
hidden-test marker in DIR, and `pytest --nbval-lax` passes over the first notebook, Hashi's
and every exercise (the whole course in `make test-full`). (That no
assert of a notebook leans on the clock is checked where the repository's notebooks run, with
every core kept busy: `conftest.py`. Here the cores are left to the test run.)

The wheel itself carries the student course only: no notebook or course file in it holds a
solution, a hidden test or an answer key, no file of it holds a marker line, and
`csp-puzzles course DIR --instructor` from it exits 2 saying where the instructor versions
come from.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from csp_puzzles.teaching.course import INSTRUCTOR_ONLY
from csp_puzzles.teaching.course import MARKERS as MARKER_LINES
from tests.wheel import build_wheel

REPO = Path(__file__).resolve().parent.parent
MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION", "### BEGIN HIDDEN TESTS",
           "### END HIDDEN TESTS")

pytestmark = pytest.mark.slow

CHECK_REQUIREMENTS = """
import sys
from importlib.metadata import PackageNotFoundError, requires, version
from packaging.requirements import Requirement

problems = []
for line in requires("csp-puzzles") or []:
    requirement = Requirement(line)
    if requirement.marker and not requirement.marker.evaluate({"extra": "notebooks"}):
        continue
    try:
        found = version(requirement.name)
    except PackageNotFoundError:
        problems.append(f"{requirement} is missing")
        continue
    if found not in requirement.specifier:
        problems.append(f"{requirement}: {found} installed")
print("\\n".join(problems) or "ok")
sys.exit(1 if problems else 0)
"""


def _run(command: list[str], cwd: Path, timeout: float = 300) -> str:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, (command, done.stdout[-3000:], done.stderr[-3000:])
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built from a copy of the checkout (tests/wheel.py)."""
    return build_wheel(tmp_path_factory.mktemp("wheel"))[0]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment holding the wheel; returns its bin/ folder."""
    work = tmp_path_factory.mktemp("venv")
    venv = work / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=work)
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
          "--no-index", "--quiet", str(wheel)], cwd=work)
    purelib = Path(_run([str(python), "-c", "import sysconfig; "
                         "print(sysconfig.get_paths()['purelib'])"], cwd=work).strip())
    (purelib / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin"


def test_the_installed_package_is_the_wheel_and_its_dependencies_are_met(installed):
    python = str(installed / "python")
    where = _run([python, "-c", "import csp_puzzles; print(csp_puzzles.__file__)"], cwd=installed)
    assert where.startswith(str(installed.parent)), where
    assert _run([python, "-c", CHECK_REQUIREMENTS], cwd=installed).strip() == "ok"
    version = _run([str(installed / "python"), "-c",
                    "from importlib.metadata import version; print(version('csp-puzzles'))"],
                   cwd=installed).strip()
    assert _run([str(installed / "csp-puzzles"), "--version"], cwd=installed).strip() == \
        f"csp-puzzles {version}"


def test_the_course_from_the_wheel_has_no_solutions(installed, tmp_path):
    course = tmp_path / "my-course"
    _run([str(installed / "csp-puzzles"), "course", str(course)], cwd=tmp_path)
    files = sorted(str(p.relative_to(course)) for p in course.rglob("*") if p.is_file())
    expected = sorted(f"notebooks/{p.relative_to(REPO / 'notebooks')}"
                      for p in (REPO / "notebooks").rglob("*")
                      if p.is_file() and ".ipynb_checkpoints" not in p.parts
                      and p.name not in INSTRUCTOR_ONLY)
    expected += sorted(f"data/{p.relative_to(REPO / 'data')}"
                       for p in (REPO / "data").rglob("*") if p.is_file())
    assert files == sorted(expected)
    for path in course.rglob("*.ipynb"):
        text = path.read_text(encoding="utf-8")
        assert not any(marker in text for marker in MARKERS), path


@pytest.mark.parametrize("sample", [pytest.param(True, id="sample"),
                                    pytest.param(False, id="every", marks=pytest.mark.full)])
def test_the_course_from_the_wheel_runs(installed, tmp_path, sample: bool):
    """Every run: the first notebook, Hashi's (it reads the course's data) and every exercise
    as the student gets it (stubs that raise, no solution); `make test-full`: the course."""
    course = tmp_path / "my-course"
    _run([str(installed / "csp-puzzles"), "course", str(course)], cwd=tmp_path)
    chosen = (["notebooks/00_start_here.ipynb", "notebooks/03_hashiwokakero.ipynb",
               "notebooks/exercises"] if sample else ["notebooks"])
    _run([str(installed / "python"), "-m", "pytest", "--nbval-lax", "--nbval-current-env",
          "-q", "-p", "no:cacheprovider", *chosen], cwd=course, timeout=900)


def _marker_lines(text: str, is_notebook: bool) -> list[str]:
    """The lines of a file that are markers (a notebook's lines are its cells' lines)."""
    if is_notebook:
        cells = json.loads(text)["cells"]
        text = "\n".join("".join(cell["source"]) if isinstance(cell["source"], list)
                         else cell["source"] for cell in cells)
    return [line for line in text.splitlines() if line.strip() in MARKER_LINES]


def test_the_wheel_holds_no_solution_no_hidden_test_no_answer_key(wheel):
    """Course files (notebooks included) may not even name a marker; no other file of the
    wheel may hold a marker line (course.py names them, to strip them from a checkout)."""
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        notebooks = [name for name in names if name.endswith(".ipynb")]
        assert len([n for n in notebooks if "/coursefiles/notebooks/" in n]) >= 26
        assert not [n for n in names if n.endswith("INSTRUCTOR_GUIDE.md")]  # instructors only
        for name in names:
            text = archive.read(name).decode("utf-8", errors="replace")
            if name.endswith(".ipynb") or "/coursefiles/" in name:
                assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text, name
                assert "Answer key" not in text, name
            assert not _marker_lines(text, name.endswith(".ipynb")), name


def test_from_the_wheel_the_instructor_versions_are_refused(installed, tmp_path):
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run([str(installed / "csp-puzzles"), "course", str(tmp_path / "teacher"),
                           "--instructor"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "source checkout" in done.stderr, done.stderr
    assert not (tmp_path / "teacher").exists()
