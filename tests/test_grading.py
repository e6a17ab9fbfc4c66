"""Grading with nbgrader, for real: the README's path, end to end, for several exercises at once.

Every run grades a sample of the exercises (`SAMPLE`: the two whose seed a student snoops
for, the two whose feedback is photographed, the three with written answers);
`tests/test_grading_all.py` grades every exercise the same way (`make test-full`). Each
exercise's mistakes and hand-overs are also graded in process, for every exercise, by
`tests/test_exercises.py`.

One nbgrader course holds the exercises as assignments, with the README's
`nbgrader_config.py` (the instructor's seed, and the kernel started with the grader imported,
before any cell). `generate_assignment` releases them all; students hand in each one:

- `a-solution` and `b-solution`: the instructor's solutions (graded under two seeds: one set
  in nbgrader_config.py, another in the environment), written answers included;
- `a-untouched`: the release as it was handed out;
- `a-mistake`: a typical mistake (tests/exercise_answers.py, one that keeps some points);
- `a-handover`: every function handing its work to the grader or to the library;
- `a-snoop` (exercises 01 and 14 only): a cell added above everything, printing what it can
  find of the seed (the environment, the process's start-up environment).

Two `autograde` runs (one per seed), then the instructor grades the written answers (through
nbgrader's gradebook, as the formgrader would), then one `generate_feedback`. Then:

- the solutions get full marks under both seeds, written answers included once graded;
- the untouched release gets zero on every autograded cell, each failing with the
  `NotImplementedError` its stub raises; its written answers await the instructor;
- a mistake gets partial marks, zero on the cells it gets wrong (those whose verdict names
  the bug, and none it gets right), and its feedback page says why in words; a hand-over
  gets zero on every autograded cell, and its feedback says it called the grader's code or
  the library's;
- every verdict in an autograded notebook is its sentence alone: one line, no grader frame;
- no output of the snooping cell (nor anything else of the course) holds either seed;
- nbgrader never reports a changed cell (no "checksum ... has changed!"): nothing is hidden,
  so an untouched locked cell is the cell the gradebook holds;
- the release is the student course's text, `raises-exception` tags included;
- two feedback pages are photographed in Chromium (tests/artifacts/).

How long each step takes is written to tests/artifacts/grading-times-sample.txt (without
`-sample` for every exercise).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from csp_puzzles.cli import main as cli_main
from csp_puzzles.teaching.course import student_notebook
from csp_puzzles.teaching.grading import SEED_VARIABLE

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

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "tests" / "artifacts"
SEED_A, SEED_B = "seed from the config", "seed from the environment"
#: the README's nbgrader_config.py, with a fixed seed in place of a new one at every run
CONFIG = f'''import os

c.CourseDirectory.course_id = "csp"
# the instructor's seed for the checks (csp_puzzles.teaching.grading); an environment variable wins
os.environ.setdefault("{SEED_VARIABLE}", "{SEED_A}")
# the grader imported as the kernel starts, before any cell: it takes the seed out of the
# kernel's environment before a student's cell could read it
c.Execute.extra_arguments = ["--HistoryManager.hist_file=:memory:",
                             "--IPKernelApp.exec_lines=import csp_puzzles.teaching.grading"]
# as the README advises: a busy machine (the test run's other process, the notebooks' load)
# may take longer than nbgrader's 60 s to start a kernel and 4 s to hear from it
c.Execute.startup_timeout = 300
c.Execute.iopub_timeout = 60
c.Execute.timeout = 300
'''
STUDENTS = ("a-solution", "a-untouched", "a-mistake", "a-handover", "b-solution")
SNOOPED = ("01_variable_order", "14_nogood")
SNOOP = f'''import os
print("environment:", os.environ.get("{SEED_VARIABLE}"))
with open("/proc/self/environ", "rb") as handle:
    print("start-up environment:", [entry for entry in handle.read().split(b"\\0")
                                     if entry.startswith(b"{SEED_VARIABLE}")])
'''
#: the two exercises whose feedback pages are photographed
PHOTOGRAPHED = ("05_revise_and_ac3", "14_nogood")
#: the exercises every run grades: SNOOPED, PHOTOGRAPHED, and the three with written answers
SAMPLE = tuple(sorted({*SNOOPED, *PHOTOGRAPHED, "05_revise_and_ac3", "10_benchmark",
                       "14_nogood"}))


@pytest.fixture(scope="module")
def graded() -> tuple[str, ...] | None:
    """The exercises this module grades: `SAMPLE` (None would be every one)."""
    return SAMPLE


def partial_mistake(exercise: str, graded: set[str]) -> Mistake:
    """The first typical mistake of `exercise` that keeps some points."""
    return next(m for m in MISTAKES if m.exercise == exercise and set(m.fails) < graded)


@dataclass
class Course:
    root: Path
    exercises: list[str]
    logs: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def notebook(self, folder: str, student: str | None, exercise: str) -> dict:
        parts = [folder] + ([student] if student else []) + [exercise, f"{exercise}.ipynb"]
        with open(self.root.joinpath(*parts), encoding="utf-8") as handle:
            return json.load(handle)

    def feedback(self, student: str, exercise: str) -> Path:
        return self.root / "feedback" / student / exercise / f"{exercise}.html"


def _nbgrader(course: Course, step: str, *args: str, seed: str | None = None) -> None:
    # nbgrader runs `alembic` from PATH: the environment's bin/ goes first, as when activated
    env = dict(os.environ,
               PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
               PYTHONPATH=os.pathsep.join(
                   [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]))
    env.pop(SEED_VARIABLE, None)
    if seed is not None:
        env[SEED_VARIABLE] = seed
    start = time.perf_counter()
    course.logs[step] = ""
    # A second run redoes only what failed (nbgrader removes a failed submission's output
    # and skips those it has): once seen in CI, a kernel that did not start on a loaded
    # machine. A submission that truly fails fails both times; both logs are kept.
    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course.root,
                              env=env, capture_output=True, text=True, timeout=1800)
        course.logs[step] += done.stdout + done.stderr
        if done.returncode == 0:
            break
    course.seconds[step] = time.perf_counter() - start
    assert done.returncode == 0, _first_error(course.logs[step])


def _first_error(log: str) -> str:
    """The log from a little before its first error on (its end when none is marked)."""
    found = [i for i in (log.find("Traceback"), log.find("ERROR")) if i >= 0]
    start = min(found, default=max(len(log) - 5000, 0))
    return log[max(start - 1500, 0):start + 5000]


def _write(path: Path, notebook: dict) -> None:
    path.parent.mkdir(parents=True)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(notebook, handle)


def _snooping(notebook: dict) -> dict:
    """The notebook with a cell of the student's own above everything."""
    snooped = json.loads(json.dumps(notebook))
    snooped["cells"].insert(0, {"cell_type": "code", "execution_count": None, "id": "snoop",
                                "metadata": {}, "outputs": [], "source": SNOOP})
    return snooped


def _autograded(notebook: dict) -> set[str]:
    return {grading(cell)["grade_id"] for cell in notebook["cells"]
            if grading(cell).get("grade") and cell["cell_type"] == "code"}


def _grade_written_answers(course: Course) -> None:
    """The instructor reads the solutions' written answers and gives them full marks, as the
    formgrader would: through nbgrader's gradebook."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course.root / 'gradebook.db'}", "csp") as gradebook:
        for exercise in course.exercises:
            for student in ("a-solution", "b-solution"):
                notebook = gradebook.find_submission_notebook(exercise, exercise, student)
                for grade in notebook.grades:
                    if grade.needs_manual_grade:
                        grade.manual_score = grade.max_score
            gradebook.db.commit()


@pytest.fixture(scope="module")
def course(tmp_path_factory, graded) -> Course:
    pytest.importorskip("nbgrader")
    work = tmp_path_factory.mktemp("grading")
    assert cli_main(["course", str(work / "teacher"), "--instructor"]) == 0
    sources = work / "teacher" / "notebooks" / "exercises"
    exercises = sorted(path.stem for path in sources.glob("*.ipynb")
                       if graded is None or path.stem in graded)
    assert graded is None or len(exercises) == len(graded), (exercises, graded)
    course = Course(work / "course", exercises)
    for exercise in exercises:
        target = course.root / "source" / exercise / f"{exercise}.ipynb"
        target.parent.mkdir(parents=True)
        target.write_bytes((sources / f"{exercise}.ipynb").read_bytes())
    (course.root / "nbgrader_config.py").write_text(CONFIG)

    _nbgrader(course, "generate_assignment", "generate_assignment", "*")
    for exercise in exercises:
        with open(sources / f"{exercise}.ipynb", encoding="utf-8") as handle:
            instructor = json.load(handle)
        released = course.notebook("release", None, exercise)
        mistake = partial_mistake(exercise, _autograded(instructor))
        handed = {"a-solution": submission(released, solutions(instructor)),
                  "a-untouched": released,
                  "a-mistake": with_mistake(instructor, released, mistake),
                  "a-handover": handing_over(instructor, released, exercise),
                  "b-solution": submission(released, solutions(instructor))}
        if exercise in SNOOPED:
            handed["a-snoop"] = _snooping(submission(released, solutions(instructor)))
        for student, notebook in handed.items():
            _write(course.root / "submitted" / student / exercise / f"{exercise}.ipynb",
                   notebook)
    _nbgrader(course, "autograde (seed A)", "autograde", "*", "--student=a-*")
    _nbgrader(course, "autograde (seed B, 1 student)", "autograde", "*", "--student=b-*",
              seed=SEED_B)
    _grade_written_answers(course)
    _nbgrader(course, "generate_feedback", "generate_feedback", "*")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    lines = [f"{step}: {seconds:.1f} s" for step, seconds in course.seconds.items()]
    lines.append(f"{len(exercises)} exercises, {len(STUDENTS)} submissions each (and "
                 f"{len(SNOOPED)} snooping ones), {sum(course.seconds.values()):.1f} s in all")
    (ARTIFACTS / f"grading-times{_suffix(graded)}.txt").write_text("\n".join(lines) + "\n")
    return course


#: (student, exercise) -> {grade_id: (score, max_score, graded by hand)}
Scores = dict[tuple[str, str], dict[str, tuple[float, float, bool]]]


def _suffix(graded: tuple[str, ...] | None) -> str:
    """Artifacts of the sample's round trip say so in their names."""
    return "" if graded is None else "-sample"


@pytest.fixture(scope="module")
def scores(course, graded) -> Scores:
    """Every grade of every submission, from the gradebook."""
    from nbgrader.api import Gradebook

    found: Scores = {}
    with Gradebook(f"sqlite:///{course.root / 'gradebook.db'}", "csp") as gradebook:
        for exercise in course.exercises:
            for student in STUDENTS:
                notebook = gradebook.find_submission_notebook(exercise, exercise, student)
                found[student, exercise] = {
                    grade.name: (grade.score, grade.max_score, grade.cell.cell_type == "markdown")
                    for grade in notebook.grades if grade.max_score}
    _write_scores(course.exercises, found, _suffix(graded))
    return found


def _write_scores(exercises: list[str], found: Scores, suffix: str) -> None:
    """Each exercise's points per submission, in tests/artifacts/grading-scores{suffix}.txt."""
    def points(student: str, exercise: str) -> str:
        got = found[student, exercise].values()
        return f"{sum(s for s, _, _ in got):g}/{sum(m for _, m, _ in got):g}"

    lines = ["exercise " + " ".join(STUDENTS)]
    lines += [f"{e} " + " ".join(points(s, e) for s in STUDENTS) for e in exercises]
    lines.append("total " + " ".join(
        f"{sum(sum(g[0] for g in found[s, e].values()) for e in exercises):g}"
        for s in STUDENTS))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"grading-scores{suffix}.txt").write_text("\n".join(lines) + "\n")


def test_every_exercise_went_through(course, scores, graded):
    assert len(course.exercises) >= (12 if graded is None else len(graded))
    assert all(scores[key] for key in scores)
    written = [grade for key, grades in scores.items() if key[0] == "a-solution"
               for grade in grades.values() if grade[2]]
    asked = [cell for exercise in course.exercises
             for cell in course.notebook("source", None, exercise)["cells"]
             if grading(cell).get("grade") and cell["cell_type"] == "markdown"]
    assert len(written) == len(asked) >= 3  # the written answers are gradebook cells too


@pytest.mark.parametrize("student", ["a-solution", "b-solution"])
def test_the_solutions_get_full_marks_under_both_seeds(course, scores, student):
    for exercise in course.exercises:
        lost = {cell: got for cell, got in scores[student, exercise].items() if got[0] < got[1]}
        assert not lost, (student, exercise, lost)


def test_an_untouched_submission_scores_zero_on_every_graded_cell(course, scores):
    for exercise in course.exercises:
        assert all(score == 0 for score, _, _ in scores["a-untouched", exercise].values())
        graded = course.notebook("autograded", "a-untouched", exercise)
        for cell in graded["cells"]:
            errors = [out for out in cell.get("outputs", []) if out["output_type"] == "error"]
            if grading(cell).get("grade") and cell["cell_type"] == "code":
                assert errors, (exercise, grading(cell)["grade_id"])
            for error in errors:
                assert error["ename"] == "NotImplementedError", (exercise, error["ename"])
                assert "raises-exception" in cell["metadata"].get("tags", []), exercise


def _verdicts(page: str) -> list[str]:
    """The verdicts on a feedback page, each on one line."""
    return [" ".join(found.split()) for found in
            re.findall(r"Mismatch</span>: ([^<]{40,})", page)]


def test_a_mistake_gets_partial_marks_and_readable_feedback(course, scores):
    for exercise in course.exercises:
        got = {cell: grade for cell, grade in scores["a-mistake", exercise].items()
               if not grade[2]}
        zero = {cell for cell, (score, _, _) in got.items() if score == 0}
        graded = set(got)
        mistake = partial_mistake(exercise, graded)
        # under another seed than the practice one (tests/test_exercises.py), the cells that
        # name the bug fail again; a cell that only follows from it (a whole puzzle solved
        # with a half-right filter) may pass on the instances this seed draws
        assert {cell for cell, said in mistake.fails.items() if said} <= zero, exercise
        assert zero <= set(mistake.fails), exercise
        total, best = sum(s for s, _, _ in got.values()), sum(m for _, m, _ in got.values())
        assert 0 < total < best, exercise
        verdicts = _verdicts(course.feedback("a-mistake", exercise).read_text(encoding="utf-8"))
        assert len(verdicts) >= len(zero), (exercise, verdicts)
        for words in mistake.fails.values():
            assert any(all(word in v for word in words) for v in verdicts), (exercise, words)


def test_a_hand_over_gets_nothing_and_is_told_why(course, scores):
    for exercise in course.exercises:
        autograded = {cell: grade for cell, grade in scores["a-handover", exercise].items()
                      if not grade[2]}
        assert autograded and all(score == 0 for score, _, _ in autograded.values()), exercise
        verdicts = _verdicts(course.feedback("a-handover", exercise).read_text(
            encoding="utf-8"))
        assert len(verdicts) == len(autograded), (exercise, verdicts)
        assert all(GRADERS in v or LIBRARYS in v for v in verdicts), (exercise, verdicts)


def test_every_verdict_is_its_sentence_alone(course):
    """No frame of the grader above a verdict in any autograded notebook."""
    seen = 0
    for exercise in course.exercises:
        for student in ("a-mistake", "a-handover"):
            for cell in course.notebook("autograded", student, exercise)["cells"]:
                for out in cell.get("outputs", []):
                    if out["output_type"] == "error" and out["ename"] == "Mismatch":
                        assert len(out["traceback"]) == 1, (exercise, out["traceback"][:3])
                        assert "csp_puzzles" not in out["traceback"][0].split(":")[0]
                        seen += 1
    assert seen >= 2 * len(course.exercises)


def test_no_output_holds_the_seed(course):
    """The snooping cell ran first in its kernel, and found nothing; no autograded notebook
    or feedback page holds either seed."""
    for exercise in SNOOPED:
        snooped = course.notebook("autograded", "a-snoop", exercise)
        printed = "".join("".join(out.get("text", "")) for out in snooped["cells"][0]["outputs"])
        assert "environment: None" in printed, printed
        assert SEED_A not in printed and "xxxx" in printed, printed
    for path in list(course.root.rglob("autograded/**/*.ipynb")) + \
            list(course.root.rglob("feedback/**/*.html")):
        page = path.read_text(encoding="utf-8")
        assert SEED_A not in page and SEED_B not in page, path


def test_nbgrader_reports_no_changed_cell(course):
    """No "checksum ... has changed!" (nor any other changed attribute) for any submission."""
    for step, log in course.logs.items():
        assert "has changed" not in log, (step, [line for line in log.splitlines()
                                                 if "has changed" in line][:3])


def test_the_release_is_the_student_course_tags_included(course):
    for exercise in course.exercises:
        released = course.notebook("release", None, exercise)
        with open(course.root / "source" / exercise / f"{exercise}.ipynb",
                  encoding="utf-8") as handle:
            ours = student_notebook(json.load(handle))
        assert len(released["cells"]) == len(ours["cells"]), exercise
        for theirs, mine in zip(released["cells"], ours["cells"]):
            assert text(theirs).strip() == text(mine).strip(), exercise
            assert theirs["metadata"].get("tags", []) == mine["metadata"].get("tags", [])


@pytest.mark.browser
def test_feedback_pages_in_chromium(course):
    """Two feedback pages, photographed: a mistake's verdict, and a written answer graded."""
    from tests.browser.pages import CHROMIUM, files_only, launch

    if not CHROMIUM.exists():
        pytest.skip("Chromium is not installed")
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as driver:
        browser = launch(driver)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.route("**/*", files_only)
            for exercise in PHOTOGRAPHED:
                page.goto(course.feedback("a-mistake", exercise).as_uri())
                failing = page.locator(".jp-Cell, .cell").filter(has_text="Mismatch").first
                failing.scroll_into_view_if_needed()
                assert "Mismatch" in failing.inner_text()
                page.screenshot(path=str(ARTIFACTS / f"feedback-{exercise}.png"))
            page.goto(course.feedback("a-solution", "10_benchmark").as_uri())
            answer = page.locator(".jp-Cell, .cell").filter(has_text="Model answer").first
            answer.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "feedback-10_benchmark-written.png"))
        finally:
            browser.close()
