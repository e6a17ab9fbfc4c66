"""The Python that builds JupyterLite sites in the tests, apart from the one running them.

The `lite` extra lives in an environment of its own: its Pyodide kernel installs a lab
extension that only runs in JupyterLite, and JupyterLab, which loads every extension of its
environment (even one it is told to disable), then logs "Shared module @jupyterlite/services
doesn't exist" on every page (jupyterlite/pyodide-kernel#32). `make test` makes that
environment (.venv-lite) and names its Python in $CSP_PUZZLES_LITE_PYTHON; a Python that
has the extra itself builds too. Without either, the tests that build a site skip, saying so.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

BUILD_PACKAGES = ("jupyterlite_core", "jupyterlite_pyodide_kernel")


def lite_python() -> str:
    """This Python if it has the `lite` extra, else $CSP_PUZZLES_LITE_PYTHON; else skip."""
    if all(find_spec(name) is not None for name in BUILD_PACKAGES):
        return sys.executable
    given = os.environ.get("CSP_PUZZLES_LITE_PYTHON")
    if given and Path(given).is_file():
        return given
    pytest.skip("no Python with the lite extra to build a site: pip install "
                "'csp-puzzles[lite]' in an environment of its own and name its python in "
                "CSP_PUZZLES_LITE_PYTHON (make test: .venv-lite)")


def run_lite(*args: str, cache: Path | None = None) -> subprocess.CompletedProcess:
    """`csp-puzzles lite ARGS`, run by `lite_python()` (with this PYTHONPATH, so it reads the
    same checkout); `cache` stands for $CSP_PUZZLES_CACHE."""
    env = dict(os.environ)
    if cache is not None:
        env["CSP_PUZZLES_CACHE"] = str(cache)
    return subprocess.run([lite_python(), "-m", "csp_puzzles", "lite", *args],
                          capture_output=True, text=True, env=env, timeout=1200)
