"""`csp-puzzles app`: Voilà on the app's notebook, with a template that stays on the machine.

Voilà's `lab` template links two Font Awesome stylesheets from a CDN; the `csp-puzzles`
template (shipped beside this module) is that template without them, so the page makes
no request off the machine (the widget icons come with the widget bundle).
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTEBOOK = HERE / "puzzles.ipynb"
#: a Jupyter data folder holding voila/templates/csp-puzzles
SHARE = HERE / "share" / "jupyter"
TEMPLATE = "csp-puzzles"


def voila_command(port: int = 8866, open_browser: bool = True) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that serve the app (Voilà must be installed)."""
    if find_spec("voila") is None:
        raise ImportError("the app needs Voila: pip install 'csp-puzzles[app]'")
    env = dict(os.environ)
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(SHARE), env.get("JUPYTER_PATH")]))
    argv = [sys.executable, "-m", "voila", str(NOTEBOOK), f"--template={TEMPLATE}",
            f"--port={port}", "--Voila.ip=127.0.0.1", "--theme=light"]
    if not open_browser:
        argv.append("--no-browser")
    return argv, env


def serve(port: int = 8866, open_browser: bool = True) -> int:
    """Serve the app until interrupted; returns Voilà's exit status."""
    argv, env = voila_command(port, open_browser)
    try:
        return subprocess.call(argv, env=env)
    except KeyboardInterrupt:
        return 0
