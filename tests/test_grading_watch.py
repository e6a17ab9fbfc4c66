"""The grader's guards, one by one: the watch that gives no marks for calling the answer, the
seed that student code cannot read, and verdicts shown as their sentence alone.

- The watch (csp_puzzles/teaching/grading/watch.py) records a call from student code into
  the grader or into the library outside what an exercise allows, whether made directly,
  through `map`, through Python's own code (`copy.deepcopy`), from a thread, or through a
  cached function the grader warmed; it records the student's code switching it off; it
  never records the library's own calls, nor the calls the exercise allows.
- The seed: taken from the environment the kernel started with (a cell that changes
  `os.environ` before the grader is imported changes nothing), then gone from `os.environ`,
  from /proc/self/environ and from child processes; the checks keep a digest only.
- In a real kernel a failed check prints `Mismatch: the sentence` and no frame above it.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from csp_puzzles.teaching.grading import Mismatch, own_work, seeded
from csp_puzzles.teaching.grading.seed import SEED_VARIABLE, draw
from csp_puzzles.teaching.grading.watch import STUDENT, Watch, origin, unwatched

REPO = Path(__file__).resolve().parent.parent
#: a file name that makes code count as the student's (a notebook cell's, say)
CELL = "/tmp/ipykernel_1/cell.py"
#: and one that makes it the grader's: a check calls the student's code from there
GRADER = str(REPO / "csp_puzzles" / "teaching" / "grading" / "a_check.py")


def students(source: str) -> dict:
    """Define the functions of `source` as a notebook cell would."""
    namespace: dict = {"__name__": "__main__"}
    exec(compile(textwrap.dedent(source), CELL, "exec"), namespace)
    return namespace


def watched(allowed: tuple[str, ...], function, *args):
    """`function(*args)` called from the grader's code under a watch: (answer, watch). (This
    test file is neither the grader's nor the library's, so it would count as the
    student's.)"""
    namespace: dict = {"Watch": Watch}
    exec(compile("def call(allowed, function, *args):\n"
                 "    with Watch(allowed) as watch:\n"
                 "        answer = function(*args)\n"
                 "    return answer, watch\n", GRADER, "exec"), namespace)
    return namespace["call"](allowed, function, *args)


def test_code_is_sorted_by_where_it_lives():
    from csp_puzzles.core import textbook

    assert origin(students("def f(): pass")["f"].__code__) == STUDENT
    assert origin(textbook.revise.__code__) == "library"
    assert origin(json.dumps.__code__) == "passing"


@pytest.mark.parametrize("how", [
    "return revise(domains, 'A', 'B', allowed)",
    "return list(map(lambda _: revise(domains, 'A', 'B', allowed), [0]))[0]",
    "return copy.deepcopy(Trampoline())",
    "out = []; thread = threading.Thread(target=lambda: out.append(revise(domains, 'A', 'B', "
    "allowed))); thread.start(); thread.join(); return out[0]",
])
def test_a_call_into_the_library_is_seen_however_it_is_made(how):
    found = students(f"""
        import copy, threading
        from csp_puzzles.core.textbook import revise

        class Trampoline:
            def __deepcopy__(self, memo):
                return revise({{'A': [1], 'B': [1]}}, 'A', 'B', lambda a, b: a != b)

        def answer(domains, allowed):
            {how}
        """)
    _, watch = watched((), found["answer"], {"A": [1, 2], "B": [1]}, lambda a, b: a != b)
    assert watch.found is not None
    assert watch.found.called == "csp_puzzles.core.textbook.revise"
    assert watch.found.kind == "library"


def test_what_the_exercise_allows_and_the_library_s_own_calls_are_not_judged():
    from csp_puzzles import CSP, solve

    found = students("""
        def order(state):
            return next(v for v in state.csp.variables if v not in state.assignment
                        and state.size(v) > 0)
        """)
    csp = CSP()
    for var in "ABC":
        csp.add_variable(var, [1, 2, 3])
    result, watch = watched(("core.state", "core.csp:CSP.*"), functools.partial(
        solve, csp, inference="mac", var_order=found["order"]))
    assert result.solved and watch.found is None


def test_the_grader_s_code_is_named_as_the_grader_s():
    found = students("""
        from csp_puzzles.teaching.grading import nogoods

        def first_uip(graph):
            return nogoods.expected(graph)
        """)
    from csp_puzzles.teaching.grading.nogoods import example

    _, watch = watched((), found["first_uip"], example())
    assert watch.found is not None and watch.found.kind == "grader"
    assert watch.found.caller == "first_uip"


@pytest.mark.parametrize("switch", ["sys.settrace(None)", "sys.setprofile(lambda *a: None)",
                                    "threading.settrace(None)"])
def test_switching_the_watch_off_is_refused_and_seen(switch):
    found = students(f"""
        import sys, threading
        from csp_puzzles.core.textbook import revise

        def answer():
            {switch}
            return revise({{'A': [1], 'B': [1]}}, 'A', 'B', lambda a, b: a != b)
        """)
    _, watch = watched((), found["answer"])
    assert watch.found is not None
    assert watch.found.kind in ("hook", "library")
    assert sys.gettrace() is None


def test_a_cached_library_function_warmed_beforehand_is_still_seen():
    from csp_puzzles.kakuro.combinations import mask_of
    from csp_puzzles.kakuro.rules import run_supports

    run_supports((mask_of(range(1, 10)),) * 2, 4)  # warm: the next call is a cache hit
    found = students("""
        from csp_puzzles.kakuro.combinations import mask_of
        from csp_puzzles.kakuro.rules import run_supports

        def fitting(domains, total):
            return run_supports(tuple(mask_of(d) for d in domains), total)
        """)
    _, watch = watched(("kakuro.combinations",), found["fitting"], [set(range(1, 10))] * 2, 4)
    assert watch.found is not None and watch.found.called.endswith("run_supports")


def test_unwatched_work_is_the_grader_s_and_the_watch_comes_back():
    found = students("""
        from csp_puzzles.core.textbook import revise

        def answer():
            return revise({'A': [1], 'B': [1]}, 'A', 'B', lambda a, b: a != b)
        """)
    with Watch() as watch:
        with unwatched():
            assert sys.gettrace() is None
        found["answer"]()
    assert watch.found is not None


def test_a_check_that_finds_a_hand_over_fails_saying_so():
    @own_work("REVISE", "constraint.is_satisfied")
    def check(answer):
        answer()

    found = students("""
        from csp_puzzles.core.textbook import revise

        def answer():
            return revise({'A': [1], 'B': [1]}, 'A', 'B', lambda a, b: a != b)
        """)
    with pytest.raises(Mismatch) as verdict:
        check(found["answer"])
    said = " ".join(str(verdict.value).split())
    assert said.startswith("answer called csp_puzzles.core.textbook.revise, from csp_puzzles "
                           "itself: this check gives marks for REVISE written by you")


# -- the seed ---------------------------------------------------------------------------------
SNOOP = """
import os, subprocess, sys
os.environ["{var}"] = "practice"  # a cell above the import, trying the practice instances
from csp_puzzles.teaching.grading import is_instructors, seed
print(is_instructors(), seed._key["digest"] == seed._digest("{secret}"))
print(os.environ.get("{var}"))
print(b"{secret}" in open("/proc/self/environ", "rb").read())
child = subprocess.run(["env"], capture_output=True, text=True).stdout
print("{secret}" in child)
print(any("{secret}" in repr(v) for v in vars(seed).values()))
"""


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="no /proc on this system")
def test_the_seed_is_the_start_up_one_and_student_code_cannot_read_it():
    secret = "a secret of the instructor's"
    env = dict(os.environ, PYTHONPATH=str(REPO), **{SEED_VARIABLE: secret})
    done = subprocess.run([sys.executable, "-c", SNOOP.format(var=SEED_VARIABLE,
                                                                secret=secret)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:5] == ["True True", "None", "False", "False", "False"]


def test_the_practice_seed_and_another_draw_different_instances():
    with seeded(None):
        practice = draw("a check").random()
    with seeded("another"):
        other = draw("a check").random()
    assert practice != other
    with seeded("another"):
        assert draw("a check").random() == other


# -- the verdict alone, in a real kernel -------------------------------------------------------
def test_a_verdict_shows_alone_in_a_kernel(tmp_path):
    """A failed check in a Jupyter kernel: one line, `Mismatch: ...`, no grader frame."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.v4.new_notebook()
    notebook.cells.append(nbformat.v4.new_code_cell(textwrap.dedent("""
        from csp_puzzles.teaching.grading import cutsets as grader

        def is_forest(variables, edges):
            return 1
        """)))
    notebook.cells.append(nbformat.v4.new_code_cell("grader.check_is_forest(is_forest)"))
    env_path = os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])
    client = nbclient.NotebookClient(notebook, timeout=300, allow_errors=True,
                                     kernel_name="python3", startup_timeout=300)
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = env_path
    try:
        client.execute()
    finally:
        if before is None:
            os.environ.pop("PYTHONPATH")
        else:
            os.environ["PYTHONPATH"] = before
    error = next(o for o in notebook.cells[1].outputs if o["output_type"] == "error")
    assert error["ename"] == "Mismatch"
    assert len(error["traceback"]) == 1
    shown = error["traceback"][0]
    assert shown.startswith("\x1b[31mMismatch\x1b[39m: is_forest returned 1, of type int")
    assert "grading" not in shown and "File" not in shown
