"""Packaging glue that pyproject.toml cannot say: the course folders ship inside the package.

The notebooks and the puzzles they read stay in the top-level `notebooks/` and `data/`
folders of the repository; in the wheel they become `csp_puzzles/coursefiles/notebooks/` and
`csp_puzzles/coursefiles/data/`, where `csp-puzzles course DIR` finds them. Every subfolder
is listed here, so a new folder of puzzles needs no change; the `"*"` patterns of
`package-data` in pyproject.toml pick their files (package data must be said in one place).
"""

from setuptools import find_namespace_packages, find_packages, setup

COURSE_FOLDERS = {
    "csp_puzzles.coursefiles.notebooks": "notebooks",
    "csp_puzzles.coursefiles.data": "data",
}


def course_packages() -> list[str]:
    """Each course folder and its subfolders, named as packages of the wheel."""
    names = []
    for package, folder in COURSE_FOLDERS.items():
        subfolders = find_namespace_packages(where=folder, exclude=["*.ipynb_checkpoints"])
        names += [package] + [f"{package}.{sub}" for sub in subfolders]
    return names


setup(
    packages=find_packages(include=["csp_puzzles*"]) + course_packages(),
    package_dir=COURSE_FOLDERS,
)
