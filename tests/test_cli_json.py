"""`csp-puzzles solve ... --json` prints exactly one JSON object on standard output, whatever
the engine (CONTRACT section 1).

Each command runs as a program of its own: a solver written in C or C++ writes to the
process's standard output directly (HiGHS's banner did, once per process), which capturing
Python's `sys.stdout` never sees. An engine whose optional package is missing is skipped.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

from csp_puzzles.puzzle.registry import KINDS, puzzle_module

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "data"
PACKAGE_OF_ENGINE = {"csp": None, "sat": "pysat", "milp": "highspy"}

#: one puzzle with a solution per kind, and one without
SOLVABLE = {
    "hashi": str(DATA / "hashi" / "hard-7x7.txt"),
    "kakuro": str(DATA / "kakuro" / "easy-8x8-seed1.txt"),
    "towers": str(DATA / "towers" / "5x5-hard-1.txt"),
    "singles": "5x5:4112421234524525441243243",  # a Tatham game ID, given literally
}
UNSATISFIABLE = {
    "hashi": "1 0 1 0 1\n",  # an odd total: every bridge counts at both ends
    "kakuro": "2 3\n- 3, 4,\n,8 0 0\n",  # down 3 and 4 add up to 7, the row says 8
    "towers": "4 4 4\n1 1 - -\n- - - -\n- - - -\n- - - -\n",  # two 4s in the top row
    "singles": "2 2\n1 1\n1 1\n",  # the two unshaded cells can only touch at a corner
}
#: the ways of asking: (name, extra options); every one must print one JSON object
VARIANTS = {
    "solve": [],
    "count": ["--count", "--max-solutions", "3"],
    "node limit": ["--max-nodes", "1"],
    "time limit": ["--timeout", "30"],
}


def _engines(kind: str) -> list[str]:
    return list(puzzle_module(kind).parse(
        UNSATISFIABLE[kind], filename="probe").engines)


CASES = [(kind, engine) for kind in KINDS for engine in _engines(kind)]


def _run(arguments: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "csp_puzzles", "solve", *arguments],
                          input=stdin, capture_output=True, text=True, env=env, cwd=REPO,
                          timeout=300)


def _one_json_object(done: subprocess.CompletedProcess, kind: str) -> dict:
    """The whole of standard output read as JSON: one object, nothing before or after."""
    assert done.returncode in (0, 3, 4), (done.returncode, done.stderr[-2000:])
    try:
        answer = json.loads(done.stdout)
    except json.JSONDecodeError as err:
        raise AssertionError(f"stdout is not one JSON object ({err}):\n{done.stdout[:500]}"
                             ) from None
    assert isinstance(answer, dict) and answer["kind"] == kind
    assert set(answer) == {"kind", "status", "solution", "solutions", "unique", "stats"}
    return answer


def _skip_without_package(engine: str) -> None:
    package = PACKAGE_OF_ENGINE[engine]
    if package is not None and find_spec(package) is None:
        pytest.skip(f"the {engine} engine needs {package}, which is not installed")


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize(("kind", "engine"), CASES, ids=[f"{k}-{e}" for k, e in CASES])
def test_json_is_one_object_whatever_the_engine(kind, engine, variant):
    _skip_without_package(engine)
    done = _run([kind, SOLVABLE[kind], "--engine", engine, "--json", *VARIANTS[variant]])
    if variant == "node limit" and engine != "csp":  # only the core's search counts nodes
        assert done.returncode == 2 and done.stdout == ""
        assert "takes only a timeout" in done.stderr and done.stderr.count("\n") == 1
        return
    answer = _one_json_object(done, kind)
    if variant in ("solve", "count"):
        assert answer["status"] == "solved" and done.returncode == 0
    if variant == "count":
        assert answer["solutions"] == 1 and answer["unique"] is True


@pytest.mark.parametrize(("kind", "engine"), CASES, ids=[f"{k}-{e}" for k, e in CASES])
def test_json_is_one_object_when_there_is_no_solution(kind, engine):
    _skip_without_package(engine)
    for extra in ([], ["--count"]):
        done = _run([kind, "-", "--engine", engine, "--json", *extra],
                    stdin=UNSATISFIABLE[kind])
        answer = _one_json_object(done, kind)
        assert answer["status"] == "unsatisfiable" and done.returncode == 3


HIGHS_THROUGH_THE_LIBRARY = """
from csp_puzzles.solvers import milp
program = milp.IntegerProgram("two of three")
x = [program.binary(name) for name in "abc"]
program.add(milp.exactly(x, 2))
print(len(list(milp.solutions(program, lambda values: [], x))), milp.relaxation(program))
"""


def test_highs_writes_nothing_when_called_from_python():
    """What notebook 10 does (the loop and the relaxation, called directly): HiGHS adds
    nothing to the process's output, so no banner lands in a notebook's cell either."""
    _skip_without_package("milp")
    done = subprocess.run([sys.executable, "-c", HIGHS_THROUGH_THE_LIBRARY],
                          capture_output=True, text=True, cwd=REPO, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[0].startswith("3 [") and len(done.stdout.splitlines()) == 1
    assert "HiGHS" not in done.stdout + done.stderr
