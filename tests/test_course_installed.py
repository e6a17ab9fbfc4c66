"""The course from an installed wheel, outside the repository, as a student gets it.

The wheel is built from a copy of the sources and installed with `--no-deps` into a fresh
virtual environment in a temporary folder. Its dependencies come from the environment running
the tests (a `.pth` line placed after the new environment's own site-packages, so the wheel's
copy of `csp_puzzles` is the one imported), and a check reads the wheel's own requirements
and verifies that each one is installed at a version it accepts. Then, with no PYTHONPATH and
from outside the repository: `csp-puzzles --version`, `csp-puzzles course DIR`, no solution or
hidden-test marker in DIR, and `pytest --nbval-lax` over the whole course passes, run while
other processes keep every core busy (`tests/busy.py`), as the notebooks of the repository
are (`conftest.py`): no assert of the course may lean on the clock.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.busy import BusyCores

REPO = Path(__file__).resolve().parent.parent
SOURCES = ("csp_puzzles", "notebooks", "data", "pyproject.toml", "setup.py", "README.md",
           "LICENSE")
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
def installed(tmp_path_factory) -> Path:
    """A fresh virtual environment holding the wheel; returns its bin/ folder."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns(
                "__pycache__", ".ipynb_checkpoints", "*.pyc"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copyfile(path, source / name)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(work / "dist"),
          str(source)], cwd=work)
    wheel = next((work / "dist").glob("csp_puzzles-*.whl"))

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


def test_the_course_from_the_wheel_has_no_solutions_and_runs(installed, tmp_path):
    course = tmp_path / "my-course"
    _run([str(installed / "csp-puzzles"), "course", str(course)], cwd=tmp_path)
    files = sorted(str(p.relative_to(course)) for p in course.rglob("*") if p.is_file())
    expected = sorted(f"notebooks/{p.relative_to(REPO / 'notebooks')}"
                      for p in (REPO / "notebooks").rglob("*")
                      if p.is_file() and ".ipynb_checkpoints" not in p.parts)
    expected += sorted(f"data/{p.relative_to(REPO / 'data')}"
                       for p in (REPO / "data").rglob("*") if p.is_file())
    assert files == sorted(expected)
    for path in course.rglob("*.ipynb"):
        text = path.read_text(encoding="utf-8")
        assert not any(marker in text for marker in MARKERS), path

    with BusyCores():
        _run([str(installed / "python"), "-m", "pytest", "--nbval-lax", "--nbval-current-env",
              "-q", "-p", "no:cacheprovider", "notebooks"], cwd=course, timeout=900)
