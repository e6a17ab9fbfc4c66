"""The project's wheel, as `pip wheel` builds it from a copy of the checkout.

Three tests install it (a light install, the course from a wheel, Pyodide). A build that
fails is a failure of the project, never a skip: the build backend comes from the package
index pip is configured with, like every other package the tests install, and a test that
cannot reach the index fails there too, saying what pip said.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: what a copy of the checkout leaves out (a build writes build/ beside its sources)
LEFT_OUT = (".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache",
            ".hypothesis", ".ipynb_checkpoints", "artifacts", "node_modules", "lab")


def build_wheel(folder: Path, timeout: float = 600) -> tuple[Path, str]:
    """Build the wheel into `folder` from a copy of the checkout; the wheel and what the
    build said (`--verbose`). Fails the test when the build fails."""
    source = folder / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*LEFT_OUT))
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE")}
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--verbose", "--no-deps",
                           "--wheel-dir", str(folder), str(source)],
                          capture_output=True, text=True, env=environment, timeout=timeout)
    assert done.returncode == 0, f"the project's wheel did not build:\n{done.stderr[-3000:]}"
    return next(folder.glob("csp_puzzles-*.whl")), done.stdout + done.stderr
