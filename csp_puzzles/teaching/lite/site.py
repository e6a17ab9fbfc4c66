"""Building the JupyterLite site: the course as contents, Pyodide, the wheels, the settings."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from .lock import LOCK, LOCK_URL, PYODIDE_VERSION, pyodide_lock, write_lock
from .wheels import Index, WheelError, needed_wheels, project_wheel

#: the build's own packages (the `lite` extra), by import name and index name
BUILD_NEEDS = {"jupyterlite_core": "jupyterlite-core",
               "jupyterlite_pyodide_kernel": "jupyterlite-pyodide-kernel",
               "jupyter_server": "jupyter_server", "anywidget": "anywidget",
               "packaging": "packaging"}
KERNEL_SETTINGS = "@jupyterlite/pyodide-kernel-extension:kernel"
#: the front-end extensions the site carries (the other extensions of the environment that
#: builds it, nbgrader's or Voila's, would only look for a server that is not there)
EXTENSIONS = ("@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager",
              "anywidget")
#: files of a Pyodide distribution the browser never asks for
NOT_SERVED = (".map", ".d.ts", ".html", ".md")


class LiteError(Exception):
    """The site cannot be built as asked; the message says why and what was expected, and
    `path` which file or folder it is about."""

    def __init__(self, path: Path | str, message: str):
        super().__init__(message)
        self.path = str(path)


def build_site(target: Path, pyodide: Path | None = None) -> str:
    """Write the site into `target` (a new or empty folder); returns what was written, as the
    command line says it."""
    _check_target(target)
    _check_build_packages(target)
    if pyodide is not None:
        _check_pyodide(pyodide)
    try:
        with tempfile.TemporaryDirectory() as scratch:
            work = Path(scratch)
            wheels = _prepare(work, pyodide)
            _jupyter_lite_build(work, target)
            write_lock(target, pyodide_lock(pyodide), wheels, local=pyodide is not None)
    except BaseException as err:
        _empty(target)  # it was empty before: no half-built site is left behind
        if isinstance(err, WheelError):
            raise LiteError(target, str(err)) from None
        raise
    files = [p for p in target.rglob("*") if p.is_file()]
    megabytes = sum(p.stat().st_size for p in files) / 1e6
    where = "its own copy of Pyodide" if pyodide else f"Pyodide {PYODIDE_VERSION} from its CDN"
    extra = sum(1 for w in wheels if w.path is not None)
    return (f"wrote a JupyterLite site of the student course to {target} ({len(files)} files, "
            f"{megabytes:.0f} MB, {extra} wheels besides Pyodide's, {where}); serve the "
            f"folder with any static web server (python -m http.server -d {target}) and "
            "open its address")


def _check_target(target: Path) -> None:
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise LiteError(target, "not empty, expected a new or empty folder (nothing is ever "
                                "overwritten)")


def _empty(target: Path) -> None:
    if target.is_dir():
        for child in target.iterdir():
            shutil.rmtree(child) if child.is_dir() else child.unlink()


def _check_build_packages(target: Path) -> None:
    missing = [name for module, name in BUILD_NEEDS.items() if find_spec(module) is None]
    if missing:
        raise LiteError(target, f"building the site needs {', '.join(missing)}, expected "
                                "them installed (pip install 'csp-puzzles[lite]')")


def _check_pyodide(pyodide: Path) -> None:
    if not (pyodide / "pyodide.mjs").is_file() or not (pyodide / LOCK).is_file():
        raise LiteError(pyodide, f"no pyodide.mjs and {LOCK} there, expected a Pyodide "
                                 f"distribution (the npm package pyodide@{PYODIDE_VERSION}, "
                                 "unpacked)")
    manifest = pyodide / "package.json"
    version = json.loads(manifest.read_text())["version"] if manifest.is_file() else None
    if version is not None and version != PYODIDE_VERSION:
        raise LiteError(pyodide, f"Pyodide {version}, expected {PYODIDE_VERSION} (the "
                                 "version the JupyterLite kernel is built for)")


def _prepare(work: Path, pyodide: Path | None) -> list[Any]:
    """The lite folder: the course as contents, Pyodide (if local), the settings; returns the
    wheels the site needs besides Pyodide's."""
    from ..course import CourseError, write_course

    try:
        write_course(work / "course")
    except CourseError as err:
        raise LiteError(work, str(err)) from None
    if pyodide is not None:  # the well-known place `jupyter lite build` copies from
        shutil.copytree(pyodide, work / "static" / "pyodide",
                        ignore=lambda _, names: [n for n in names if n.endswith(NOT_SERVED)])
    (work / "jupyter_lite_config.json").write_text(json.dumps({"LiteBuildConfig": {
        "federated_extensions": _extensions(), "ignore_sys_prefix": True,
        "no_sourcemaps": True, "contents": [str(work / "course")]}}, indent=1))
    (work / "jupyter-lite.json").write_text(json.dumps(_settings(local=pyodide is not None),
                                                       indent=1))
    lock = pyodide_lock(pyodide)
    (work / "wheels").mkdir()
    project = project_wheel(work / "wheels")
    return needed_wheels(project, lock, Index(lock), local=pyodide is not None)


def _extensions() -> list[str]:
    """The folders of the extensions the site needs, among the environment's."""
    from jupyter_core.paths import jupyter_path

    folders = []
    for name in EXTENSIONS:
        found = next((Path(root) / name for root in jupyter_path("labextensions")
                      if (Path(root) / name / "package.json").is_file()), None)
        if found is None:
            raise LiteError(name, "this JupyterLab extension is not installed, expected it "
                                  "(pip install 'csp-puzzles[lite]')")
        folders.append(str(found))
    return folders


def _settings(local: bool) -> dict[str, Any]:
    """jupyter-lite.json: the kernel loads the site's package list and csp_puzzles as it
    starts; a site with its own Pyodide never falls back to the package index."""
    kernel = {"loadPyodideOptions": {"lockFileURL": LOCK_URL, "packages": ["csp-puzzles"]},
              "disablePyPIFallback": local}
    return {"jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"appName": "csp-puzzles course",
                                    "exposeAppInBrowser": True,
                                    "litePluginSettings": {KERNEL_SETTINGS: kernel}}}


def _jupyter_lite_build(work: Path, target: Path) -> None:
    argv = [sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(work),
            "--output-dir", str(target.resolve())]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=work)
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise LiteError(target, "jupyter lite build failed: " + " / ".join(last))
