"""Packaging glue that pyproject.toml cannot say: the course folders ship inside the package.

The notebooks and the puzzles they read stay in the top-level `notebooks/` and `data/`
folders of the repository; in the wheel they become `csp_puzzles/coursefiles/notebooks/` and
`csp_puzzles/coursefiles/data/`, where `csp-puzzles course DIR` finds them. Their files are
picked by the `package-data` patterns of pyproject.toml.
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
