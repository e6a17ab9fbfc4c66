"""Packaging glue that pyproject.toml cannot say: the course ships inside the package, in its
student form.

The notebooks and the puzzles they read stay in the top-level `notebooks/` and `data/`
folders of the repository; in the wheel they become `csp_puzzles/coursefiles/notebooks/` and
`csp_puzzles/coursefiles/data/`, where `csp-puzzles course DIR` finds them. Every subfolder
is listed here, so a new folder of puzzles needs no change; the `"*"` patterns of
`package-data` in pyproject.toml pick their files (package data must be said in one place).

The notebooks of the repository are the instructor versions (solutions, hidden tests, answer
keys), and the exercises come with an instructor's guide. The build leaves the guide out and
writes each packed notebook in its student form instead
(`csp_puzzles.teaching.course.make_student_form`), so the wheel, what `pip` installs, holds no answer;
the instructor versions come from a source checkout.
"""

import importlib.util
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

COURSE_FOLDERS = {
    "csp_puzzles.coursefiles.notebooks": "notebooks",
    "csp_puzzles.coursefiles.data": "data",
}
HERE = Path(__file__).resolve().parent


def course_packages() -> list[str]:
    """Each course folder and its subfolders, named as packages of the wheel."""
    names = []
    for package, folder in COURSE_FOLDERS.items():
        subfolders = find_namespace_packages(where=folder, exclude=["*.ipynb_checkpoints"])
        names += [package] + [f"{package}.{sub}" for sub in subfolders]
    return names


def library_packages() -> list[str]:
    """`csp_puzzles` and every folder under it, data-only folders included (the Voilà
    template's), so that setuptools packs them knowingly instead of warning."""
    return find_namespace_packages(include=["csp_puzzles*"],
                                   exclude=["*__pycache__*", "*.ipynb_checkpoints*"])


def _course_module():
    """csp_puzzles/teaching/course.py, loaded on its own (it needs the standard library only; the
    package's dependencies are not installed while it builds)."""
    spec = importlib.util.spec_from_file_location("csp_puzzles_course",
                                                  HERE / "csp_puzzles" / "teaching" / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class build_py_student_course(build_py):
    """Copy the packages, then turn every notebook of the course into its student form and
    leave out the files for instructors only (the exercises' guide)."""

    def run(self):
        super().run()
        course = _course_module()
        notebooks = Path(self.build_lib, *"csp_puzzles.coursefiles.notebooks".split("."))
        for path in sorted(notebooks.rglob("*.ipynb")):
            course.make_student_form(path)
        for name in course.INSTRUCTOR_ONLY:
            for path in notebooks.rglob(name):
                path.unlink()


setup(
    packages=library_packages() + course_packages(),
    package_dir=COURSE_FOLDERS,
    cmdclass={"build_py": build_py_student_course},
)
