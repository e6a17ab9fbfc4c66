"""`pip install csp-puzzles` with no extras: a light install that solves every kind.

Builds the project's wheel (the build says no warning), installs it with no extras into a
fresh virtual environment, and checks what came with it (the package, python-sat and six,
nothing else: no numpy, no matplotlib, no Jupyter), then solves a puzzle of each kind with
that environment's `csp-puzzles` and checks each answer here with the puzzle's own checker.
`--png` there says in one line which extra it needs. A build of the wheel that fails is a
failure (tests/wheel.py); an install that cannot reach the package index for python-sat is a
skip that says so.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from csp_puzzles.puzzle.registry import puzzle_module
from tests.conftest import REPO
from tests.wheel import build_wheel

pytestmark = pytest.mark.slow

PUZZLES = {
    "hashi": "data/hashi/medium-7x7.txt",
    "kakuro": "data/kakuro/easy-8x8-seed1.txt",
    "towers": "data/towers/5x5-hard-1.txt",
    "singles": "data/singles/easy-6x6-seed1.txt",
}
#: what a plain install may bring (pip and setuptools come with every environment)
EXPECTED = {"csp-puzzles", "python-sat", "six"}
#: the fresh environment sees only itself (a PYTHONPATH would bring in a checkout)
CLEAN = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def in_light(command: list[str], **options) -> subprocess.CompletedProcess:
    """Run `command` away from the checkout (its folder would come first on sys.path)."""
    where = Path(command[0]).parent
    return subprocess.run(command, capture_output=True, text=True, env=CLEAN, cwd=where,
                          **options)


def from_json(kind: str, solution: dict):
    """The JSON `solution` (CONTRACT section 2) as the puzzle's checker takes it."""
    if kind == "singles":
        return [tuple(cell) for cell in solution["shaded"]]
    return solution["grid"] if "grid" in solution else solution


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, str]:
    """The project's wheel, built from a copy of the checkout, and what the build said (a
    build that fails fails the tests: tests/wheel.py)."""
    return build_wheel(tmp_path_factory.mktemp("wheel"))


def test_the_build_says_no_warning(built):
    _, said = built
    warnings = [line.strip() for line in said.splitlines()
                if re.search(r"warn|would be ignored", line, re.IGNORECASE)]
    assert warnings == []


@pytest.fixture(scope="module")
def light(tmp_path_factory, built) -> Path:
    """A fresh environment with the wheel installed, no extras; its bin folder."""
    wheel, _ = built
    folder = tmp_path_factory.mktemp("light")
    subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True)
    bin_dir = folder / "venv" / "bin"
    done = in_light([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
                    timeout=600)
    if done.returncode != 0:
        pytest.skip(f"pip could not install the wheel (offline?): {done.stderr[-300:]}")
    return bin_dir


def test_a_plain_install_brings_only_the_sat_solver(light: Path):
    where = in_light([str(light / "python"), "-c",
                      "import csp_puzzles; print(csp_puzzles.__file__)"])
    assert where.stdout.startswith(str(light.parent)), where.stdout  # the wheel's copy
    listed = in_light([str(light / "python"), "-m", "pip", "list", "--format", "json"],
                      check=True)
    names = {entry["name"].lower() for entry in json.loads(listed.stdout)}
    assert names - {"pip", "setuptools"} == EXPECTED


@pytest.mark.parametrize("kind", PUZZLES)
def test_the_command_line_solves_each_kind(light: Path, kind: str):
    path = REPO / PUZZLES[kind]
    done = in_light([str(light / "csp-puzzles"), "solve", kind, str(path), "--json"],
                    timeout=300)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["status"] == "solved"
    puzzle = puzzle_module(kind).parse(path.read_text())
    assert puzzle.check(from_json(kind, answer["solution"])) == []


def test_the_sat_engine_is_there_and_png_names_its_extra(light: Path, tmp_path: Path):
    hashi = REPO / PUZZLES["hashi"]
    sat = in_light([str(light / "csp-puzzles"), "solve", "hashi", str(hashi), "--engine", "sat",
                    "--json"], timeout=300)
    assert sat.returncode == 0 and json.loads(sat.stdout)["status"] == "solved", sat.stderr
    png = in_light([str(light / "csp-puzzles"), "solve", "hashi", str(hashi), "--png",
                    str(tmp_path / "out.png")])
    assert png.returncode == 2 and png.stderr.count("\n") == 1
    assert "matplotlib" in png.stderr and "csp-puzzles[png]" in png.stderr


def test_a_benchmark_whose_peer_is_an_extra_names_it(light: Path):
    done = in_light([str(light / "csp-puzzles"), "bench", "core"], timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert "python-constraint2" in last and "csp-puzzles[peers]" in last
