"""The graded exercises, run in this process (the nbgrader round trip is test_grading.py).

- Student versions lose exactly the solutions (written with the command line, checked as text):
  code stubs where code was, `YOUR ANSWER HERE` where a written answer was.
- Every exercise states its notebook, its learning goals and its points, and the points it
  states are the points its graded cells carry (and the exercises' README, and the headings
  of its parts, say the same). At least five written answers, manually graded, each with a
  model answer and a rubric that the student version leaves out.
- No exercise hides tests: nbgrader restores a hidden test by overwriting the locked cell it
  was cut from, which it reports as a changed checksum at every autograde. What the grader
  keeps to itself is the seed its checks draw instances from.
- Run in this process, cell after cell: the instructor's solutions pass every graded cell
  under the practice seed and two others; the untouched student version fails each graded
  cell with the `NotImplementedError` left in place of a solution; each typical mistake
  (tests/exercise_answers.py) fails exactly the cells it should, each with a `Mismatch` whose
  sentence names the bug, and keeps the points of the others; an answer that hands its work
  to the grader or to the library fails every graded cell, saying so.
- On the questions students work out by hand (exercise 06's run, exercise 14's graph), a
  verdict names nothing of the answer that the student's code did not give.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_puzzles.cli import main as cli_main
from csp_puzzles.teaching.course import (
    BEGIN_HIDDEN,
    BEGIN_SOLUTION,
    END_HIDDEN,
    END_SOLUTION,
    FAILS_ON_PURPOSE,
    MARKDOWN_STUB,
    MarkerError,
    course_sources,
    strip_source,
    student_notebook,
)
from csp_puzzles.teaching.grading import Mismatch, seeded

from .exercise_answers import (
    GRADERS,
    LIBRARYS,
    MISTAKES,
    Mistake,
    grading,
    handing_over,
    solutions,
    submission,
    text,
    with_mistake,
)

NOTEBOOKS = course_sources()[0]
SOURCE = NOTEBOOKS / "exercises"
EXERCISES = sorted(path.stem for path in SOURCE.glob("*.ipynb"))
MARKERS = (BEGIN_SOLUTION, END_SOLUTION, BEGIN_HIDDEN, END_HIDDEN)
#: the two seeds besides the practice one under which every solution gets full marks
SEEDS = ("an instructor's seed", "2026 autumn, group B")


def load(exercise: str) -> dict:
    with open(SOURCE / f"{exercise}.ipynb", encoding="utf-8") as handle:
        return json.load(handle)


def words(error: BaseException | None) -> str:
    """A verdict on one line: its sentence is wrapped to a notebook's width."""
    return " ".join(str(error).split())


# -- the student text ---------------------------------------------------------------------------
def test_strip_source_replaces_solutions_at_their_indentation():
    source = "def f(x):\n    ### BEGIN SOLUTION\n    return x + 1\n    ### END SOLUTION\n"
    assert strip_source(source) == (
        "def f(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()"
    )


def test_strip_source_drops_hidden_tests_and_keeps_visible_ones():
    source = "assert f(1) == 2\n### BEGIN HIDDEN TESTS\nassert f(2) == 3\n### END HIDDEN TESTS"
    assert strip_source(source) == "assert f(1) == 2"


def test_strip_source_in_markdown_leaves_an_answer_line():
    text = "Why?\n### BEGIN SOLUTION\nBecause.\n### END SOLUTION"
    assert strip_source(text, "markdown") == "Why?\nYOUR ANSWER HERE"


def test_strip_source_drops_an_answer_key_outside_answer_cells():
    text = "1. Why?\n\n### BEGIN SOLUTION\nBecause.\n### END SOLUTION"
    assert strip_source(text, "markdown", answer_cell=False) == "1. Why?"
    assert strip_source(text[: -len("\n### END SOLUTION")], "markdown", False) == "1. Why?"


@pytest.mark.parametrize("source", [
    "### BEGIN SOLUTION\nx = 1",
    "x = 1\n### END SOLUTION",
    "### BEGIN HIDDEN TESTS\n### BEGIN SOLUTION\n### END SOLUTION\n### END HIDDEN TESTS",
])
def test_unbalanced_markers_are_refused(source):
    with pytest.raises(MarkerError):
        strip_source(source)


@pytest.fixture(scope="module")
def student_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("student")
    assert cli_main(["exercises", "--student", str(out)]) == 0
    return out


def test_every_exercise_gets_a_student_version(student_dir):
    assert len(EXERCISES) >= 12
    assert sorted(p.stem for p in student_dir.glob("*.ipynb")) == EXERCISES


def test_student_text_has_stubs_where_solutions_were(student_dir):
    for exercise in EXERCISES:
        with open(student_dir / f"{exercise}.ipynb", encoding="utf-8") as handle:
            student = json.load(handle)["cells"]
        teacher = load(exercise)["cells"]
        assert len(teacher) == len(student)
        for before, after in zip(teacher, student):
            old, new = text(before), text(after)
            assert not any(marker in new for marker in MARKERS)
            assert after.get("outputs", []) == []
            has_solution = BEGIN_SOLUTION in old
            if before["cell_type"] == "markdown" and grading(before).get("solution"):
                assert new == MARKDOWN_STUB, exercise  # a written answer: the student's place
                continue
            added = new.count("NotImplementedError()") - old.count("NotImplementedError()")
            assert (added > 0) == has_solution, exercise
            if not has_solution:
                assert old.strip() == new.strip()  # everything else is untouched


def test_the_command_reports_a_bad_directory(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert cli_main(["exercises", "--student", str(blocker / "out")]) == 2
    assert capsys.readouterr().err.startswith("csp-puzzles: error:")


# -- what each exercise says about itself --------------------------------------------------------
GOES_WITH = re.compile(r"\*Goes with \[notebook (\d\d) · [^]]+\]\(\.\./(\d\d)_\w+\.ipynb\)"
                       r"[^*]*\. (\d+) points\.\*")
#: a part's heading and the points it says: "## 2. AC-3 (1 + 1 points)"
HEADING = re.compile(r"^##+ .*\(([\d +]+) points?\)\s*$", re.MULTILINE)


def _header(exercise: str) -> re.Match:
    first = text(load(exercise)["cells"][0])
    found = GOES_WITH.search(first)
    assert found, f"{exercise}: no '*Goes with [notebook NN · ...](../NN_....ipynb). N points.*'"
    assert "**After this exercise you can:**" in first, exercise
    return found


def _points(exercise: str) -> float:
    return sum(grading(cell).get("points", 0) for cell in load(exercise)["cells"]
               if grading(cell).get("grade"))


def test_every_notebook_of_the_course_has_an_exercise():
    covered = set()
    for exercise in EXERCISES:
        found = _header(exercise)
        assert found.group(1) == found.group(2), exercise
        covered.add(found.group(1))
    assert covered == {path.name[:2] for path in NOTEBOOKS.glob("[01][0-9]_*.ipynb")}


def test_the_points_said_are_the_points_graded():
    readme = (SOURCE / "README.md").read_text(encoding="utf-8")
    for exercise in EXERCISES:
        points = _points(exercise)
        assert points > 0 and float(_header(exercise).group(3)) == points, exercise
        row = next(line for line in readme.splitlines() if f"({exercise}.ipynb)" in line)
        assert row.rstrip(" |").endswith(f"| {points:g}"), row


def test_each_part_says_the_points_its_graded_cells_carry():
    """A heading "(N points)" holds as many points in graded cells before the next heading
    that says points (or the end)."""
    for exercise in EXERCISES:
        said: list[tuple[float, float]] = []  # (points said, points graded) per part
        for cell in load(exercise)["cells"]:
            if cell["cell_type"] == "markdown" and not grading(cell):
                for found in HEADING.finditer(text(cell)):
                    said.append((sum(float(p) for p in found.group(1).split("+")), 0.0))
            if grading(cell).get("grade") and said:
                points, graded = said[-1]
                said[-1] = (points, graded + grading(cell)["points"])
        assert said, exercise
        for points, graded in said:
            assert points == graded, (exercise, said)


def test_the_readmes_count_the_exercises():
    numbers = {12: "twelve", 13: "thirteen", 14: "fourteen", 15: "fifteen", 16: "sixteen"}
    said = numbers[len(EXERCISES)]
    readme = (NOTEBOOKS.parent / "README.md").read_text(encoding="utf-8")
    assert f"{said} graded exercises" in " ".join(readme.split())
    ours = (SOURCE / "README.md").read_text(encoding="utf-8")
    assert ours.startswith(f"# Exercises\n\n{said.capitalize()} graded exercises")
    assert sorted(re.findall(r"\]\((\d\d_\w+)\.ipynb\)", ours)) == EXERCISES


def test_graded_cells_hide_nothing_and_fail_on_purpose_visibly():
    for exercise in EXERCISES:
        cells = load(exercise)["cells"]
        ids = [grading(cell)["grade_id"] for cell in cells if grading(cell)]
        assert len(ids) == len(set(ids)), exercise
        graded = [cell for cell in cells if grading(cell).get("grade")
                  and cell["cell_type"] == "code"]
        assert len(graded) >= 2, f"{exercise}: one graded cell leaves no room for partial marks"
        for cell in cells:
            assert BEGIN_HIDDEN not in text(cell), f"{exercise}: nbgrader would warn at autograde"
            if cell["cell_type"] == "markdown":
                continue
            if grading(cell).get("grade") or grading(cell).get("solution"):
                assert FAILS_ON_PURPOSE in cell["metadata"].get("tags", []), exercise
                assert grading(cell).get("solution") != grading(cell).get("grade"), exercise


def _written(exercise: str) -> list[dict]:
    return [cell for cell in load(exercise)["cells"]
            if cell["cell_type"] == "markdown" and grading(cell).get("grade")]


def test_written_answers_are_graded_by_hand_with_a_model_answer_and_a_rubric(student_dir):
    """At least five across the course, where a goal is verbal: manually graded nbgrader
    answers, each with points, its model answer and rubric in the instructor version only."""
    found = 0
    for exercise in EXERCISES:
        with open(student_dir / f"{exercise}.ipynb", encoding="utf-8") as handle:
            student = {cell["id"]: cell for cell in json.load(handle)["cells"]}
        for cell in _written(exercise):
            nbgrader = grading(cell)
            assert nbgrader["solution"] and nbgrader["points"] > 0 and not nbgrader["locked"]
            answer = text(cell)
            assert "**Model answer.**" in answer and f"**Rubric ({nbgrader['points']:g} " \
                f"point" in answer, (exercise, nbgrader["grade_id"])
            assert text(student[cell["id"]]) == MARKDOWN_STUB
            found += 1
    assert found >= 5
    for exercise in ("05_revise_and_ac3", "10_benchmark", "11_min_conflicts", "12_cutset",
                     "14_nogood"):  # the exercises whose goals say "say ..." or ask a question
        assert _written(exercise), exercise


# -- running the cells ----------------------------------------------------------------------------
def run(notebook: dict, namespace: dict | None = None,
        graded_only: bool = False) -> dict[int, BaseException | None]:
    """Run the code cells in order in `namespace`; the exception of each (or None)."""
    namespace = {"__name__": "__main__"} if namespace is None else namespace
    outcome: dict[int, BaseException | None] = {}
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code" or (graded_only and not grading(cell).get("grade")):
            continue
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(text(cell), f"cell {index}", "exec"), namespace)
            outcome[index] = None
        except Exception as error:  # noqa: BLE001 - every cell's fate is looked at
            outcome[index] = error
    return outcome


def _graded(notebook: dict) -> dict[int, str]:
    """The autograded cells (code), by index: their grade ids."""
    return {index: grading(cell)["grade_id"] for index, cell in enumerate(notebook["cells"])
            if grading(cell).get("grade") and cell["cell_type"] == "code"}


def _by_id(notebook: dict,
           outcome: dict[int, BaseException | None]) -> dict[str, BaseException | None]:
    return {grade_id: outcome[index] for index, grade_id in _graded(notebook).items()}


@pytest.fixture(scope="module")
def solved() -> dict[str, dict]:
    """Each exercise's namespace once the instructor version has run under the practice
    seed; every one of its cells must pass."""
    namespaces = {}
    with seeded(None):
        for exercise in EXERCISES:
            namespace: dict = {"__name__": "__main__"}
            failed = {i: e for i, e in run(load(exercise), namespace).items() if e is not None}
            assert not failed, (exercise, failed)
            namespaces[exercise] = namespace
    return namespaces


@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_solution_passes_every_cell(exercise, solved):
    assert exercise in solved


@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_solution_passes_under_two_other_seeds(exercise, solved):
    for seed in SEEDS:
        with seeded(seed):
            failed = {i: e for i, e in run(load(exercise), dict(solved[exercise]),
                                           graded_only=True).items() if e is not None}
        assert not failed, (seed, failed)


@pytest.mark.full
@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_solution_passes_under_any_seed(exercise, solved):
    @settings(max_examples=10, deadline=None, derandomize=True)
    @given(seed=st.integers(0, 10**9))
    def sweep(seed):
        with seeded(str(seed)):
            failed = {i: e for i, e in run(load(exercise), dict(solved[exercise]),
                                           graded_only=True).items() if e is not None}
        assert not failed, (seed, failed)

    sweep()


@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_untouched_version_fails_each_graded_cell_with_not_implemented(exercise):
    student = student_notebook(load(exercise))
    with seeded(None):
        outcome = run(student)
    for index, error in outcome.items():
        if error is not None:
            assert isinstance(error, NotImplementedError), (exercise, index, error)
            tags = student["cells"][index]["metadata"].get("tags", [])
            assert FAILS_ON_PURPOSE in tags, (exercise, index)
    assert all(outcome[index] is not None for index in _graded(student)), exercise


def _mistake_id(mistake: Mistake) -> str:
    return f"{mistake.exercise[:2]}-{'-'.join(mistake.what.split()[:4])}"


@pytest.mark.parametrize("mistake", MISTAKES, ids=_mistake_id)
def test_a_mistake_fails_what_it_gets_wrong_and_says_why(mistake):
    instructor = load(mistake.exercise)
    submitted = with_mistake(instructor, student_notebook(instructor), mistake)
    with seeded(None):
        outcome = _by_id(submitted, run(submitted))
    failed = {grade_id for grade_id, error in outcome.items() if error is not None}
    assert failed == set(mistake.fails), (mistake.what, {k: words(v) for k, v in
                                                        outcome.items() if v})
    for grade_id, expected in mistake.fails.items():
        error = outcome[grade_id]
        assert isinstance(error, Mismatch) and len(str(error)) > 40, (grade_id, error)
        for word in expected:
            assert word in words(error), (grade_id, word, words(error))


def test_every_exercise_has_typical_mistakes_and_one_keeps_some_points():
    """Partial credit: at least one typical mistake per exercise fails some graded cells and
    passes others (the test above holds each to the cells it fails)."""
    for exercise in EXERCISES:
        tried = [m for m in MISTAKES if m.exercise == exercise]
        assert len(tried) >= 2, exercise
        assert all(any(m.fails.values()) for m in tried), exercise  # words to hold a verdict to
        graded = set(_graded(load(exercise)).values())
        assert any(set(m.fails) < graded for m in tried), exercise


@pytest.mark.parametrize("exercise", EXERCISES)
def test_an_answer_that_hands_its_work_over_gets_nothing(exercise):
    instructor = load(exercise)
    submitted = handing_over(instructor, student_notebook(instructor), exercise)
    with seeded(None):
        outcome = _by_id(submitted, run(submitted))
    for grade_id, error in outcome.items():
        assert isinstance(error, Mismatch), (grade_id, error)
        said = words(error)
        assert GRADERS in said or LIBRARYS in said, (grade_id, said)
        assert " called csp_puzzles." in said, said


# -- questions worked out by hand: verdicts that give nothing away ------------------------------
def _the_graph_told(verdict: str) -> str:
    """The verdict without the description of the graph it is about ([...])."""
    return re.sub(r"\[[^]]*\]", "", verdict)


@pytest.mark.parametrize("answer", [
    "('u ≠ 0', {'u ≠ 0'})",  # not on every path
    "('y = 2', {'y = 2', 'w ≠ 3', 'x = 1'})",  # the decision: a UIP, not the first
    "('x = 1', {'x = 1'})",  # of the wrong level
    "('z ≠ 2', {'z ≠ 2'})",  # the right UIP, a nogood missing two facts
    "('z ≠ 2', {'z ≠ 2', 'w ≠ 3', 'x = 1', 'u ≠ 1'})",  # one fact too many
])
def test_exercise_14s_graph_is_never_answered_in_a_verdict(answer, solved):
    """An answer right on every random graph and wrong on the exercise's own: its verdicts
    name no fact of the UIP or nogood that the answer did not give itself."""
    namespace = dict(solved["14_nogood"])
    right = namespace["first_uip"]
    graph = namespace["grader"].example()
    given = eval(answer)  # noqa: S307 - the test's own literal
    namespace["first_uip"] = lambda conflict, reason, level, order: (
        given if conflict == graph.conflict else right(conflict, reason, level, order))
    errors = [e for e in run({"cells": [c for c in load("14_nogood")["cells"]
                                        if grading(c).get("grade") and c["cell_type"] == "code"]},
                             namespace).values() if e is not None]
    assert errors, answer
    offered = {given[0], *given[1]}
    secret = {"z ≠ 2", "w ≠ 3", "x = 1"} - offered
    for error in errors:
        assert isinstance(error, Mismatch)
        told = _the_graph_told(words(error))
        assert "the exercise's graph" in told
        assert not [fact for fact in secret if fact in told], told


def test_exercise_06s_run_is_never_answered_in_a_verdict(solved):
    namespace = dict(solved["06_kakuro_runs"])
    right = namespace["fitting_sets"]
    namespace["fitting_sets"] = lambda domains, total: (
        [] if (domains, total) == ([{1, 2, 3}, {1, 2, 3}, {4, 5, 8}], 12)
        else right(domains, total))
    with pytest.raises(Mismatch) as verdict:
        namespace["grader"].check_fitting_sets(namespace["fitting_sets"])
    assert "missed a digit set that fits" in words(verdict.value)
    assert "{1, 3, 8}" not in words(verdict.value)


# -- what the model answers say is true -----------------------------------------------------------
def test_exercise_10s_model_answer_holds_the_run_s_numbers(solved):
    namespace = solved["10_benchmark"]
    rows = namespace["run_benchmark"](namespace["INSTANCES"], namespace["METHODS"], 100)
    nodes = {(r["instance"], r["method"]): r["nodes"] for r in rows}
    answer = " ".join(solutions(load("10_benchmark"))["answer_question"].split())
    inference = namespace["compare"](rows, "forward checking", "backtracking")
    order = namespace["compare"](rows, "FC + MRV", "forward checking")
    assert inference["b_better"] == 0 and inference["ties"] == 0 and not inference["only_b"]
    assert f"on the {inference['a_better']} instances both solved" in answer
    for n in (4, 5, 7):
        said = f"{nodes[f'{n}-queens', 'forward checking']} against " \
               f"{nodes[f'{n}-queens', 'backtracking']}"
        assert said in answer, said
    assert sorted(inference["only_a"], key=lambda i: int(i.split("-")[0])) == \
        ["6-queens", "8-queens", "9-queens", "10-queens"]
    assert "(in 27, 88, 34 and 83 nodes)" in answer and all(
        nodes[f"{n}-queens", "forward checking"] == k for n, k in ((6, 27), (8, 88), (9, 34),
                                                                    (10, 83)))
    assert order == {"a_better": 4, "b_better": 0, "ties": 3, "only_a": [], "only_b": []}
    assert "fewer nodes on 4 instances" in answer
    for n, (mine, theirs) in {7: (7, 8), 8: (75, 88), 9: (25, 34), 10: (35, 83)}.items():
        assert nodes[f"{n}-queens", "FC + MRV"] == mine
        assert nodes[f"{n}-queens", "forward checking"] == theirs


def test_exercise_11s_model_answer_3_queens_finds_nothing(solved):
    import random

    from csp_puzzles.examples import queens

    found = solved["11_min_conflicts"]["min_conflicts"](queens(3), 2000, random.Random(1))
    assert found is None
    assert "(3-queens)" in solutions(load("11_min_conflicts"))["answer_why_none"]


def test_exercise_14s_model_answer_is_the_graph_s(solved):
    uip, nogood = solved["14_nogood"]["grader"].expected(solved["14_nogood"]["grader"].example())
    answer = solutions(load("14_nogood"))["answer_by_hand"]
    assert f"The first UIP is **{uip}**" in answer
    assert "**{" + ", ".join(sorted(nogood, key=["z ≠ 2", "w ≠ 3", "x = 1"].index)) + "}**" \
        in answer


def test_a_written_answer_is_the_student_s_place(student_dir):
    """A submission writes its answer where the stub is; the notebook still runs."""
    instructor = load("11_min_conflicts")
    handed = submission(student_notebook(instructor), {"answer_why_none": "Because."})
    cell = next(c for c in handed["cells"] if grading(c).get("grade_id") == "answer_why_none")
    assert text(cell) == "Because."


def test_the_readme_s_verdict_is_a_real_one():
    """The README quotes a verdict: REVISE that keeps every value, on the exercise's sum."""
    namespace = {"__name__": "__main__"}
    exec(compile("def revise(domains, x, constraint):\n    return False\n", "cell", "exec"),
         namespace)
    from csp_puzzles.teaching.grading import arc_consistency

    with seeded(None), pytest.raises(Mismatch) as verdict:
        arc_consistency.check_revise(namespace["revise"])
    readme = " ".join((NOTEBOOKS.parent / "README.md").read_text(encoding="utf-8").split())
    assert f'("{words(verdict.value)}")' in readme
