"""The package in the browser's Python: Pyodide 314 in Node, from the project's wheel, offline.

Builds the wheel, installs it with micropip beside python-sat's WebAssembly wheel (from the
package index), then runs the README tour, each puzzle's parse / solve / check / count /
generate, Hashi's SAT engine and `run_limited` (no fork there). Also checks that every
runtime dependency the wheel declares for Pyodide is installable there. Node's `pyodide`
package goes to a cache folder outside the repository (`~/.cache/csp-puzzles/pyodide`, or
`$CSP_PUZZLES_CACHE/pyodide`). Skips when node or npm is missing or a download fails; a
build of the project's wheel that fails is a failure (tests/wheel.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import REPO
from tests.wheel import build_wheel

PYODIDE_VERSION = "314.0.7"  # Python 3.14; python-sat is in its package lock
HERE = Path(__file__).parent / "pyodide"
CACHE = Path(os.environ.get("CSP_PUZZLES_CACHE", Path.home() / ".cache" / "csp-puzzles"))
PUZZLES = {
    "hashi": "data/hashi/medium-7x7.txt",
    "kakuro": "data/kakuro/easy-8x8-seed1.txt",
    "towers": "data/towers/5x5-hard-1.txt",
    "singles": "data/singles/easy-6x6-seed1.txt",
}


def run(argv: list[str], timeout: float, what: str) -> subprocess.CompletedProcess:
    """Run a download; skip the test (with the reason) when it fails."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.skip(f"{what}: no answer within {timeout:g} s")
    if done.returncode != 0:
        pytest.skip(f"{what} failed: {(done.stderr or done.stdout).strip()[-300:]}")
    return done


@pytest.fixture(scope="module")
def pyodide_dir() -> Path:
    if not (shutil.which("node") and shutil.which("npm")):
        pytest.skip("node and npm are needed to run Pyodide")
    folder = CACHE / "pyodide"
    package = folder / "node_modules" / "pyodide"
    manifest = package / "package.json"
    if not manifest.exists() or json.loads(manifest.read_text())["version"] != PYODIDE_VERSION:
        folder.mkdir(parents=True, exist_ok=True)
        run(["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund",
             "--loglevel=error", f"pyodide@{PYODIDE_VERSION}"], 300, "npm install pyodide")
    return package


def lock_of(pyodide_dir: Path) -> dict:
    return json.loads((pyodide_dir / "pyodide-lock.json").read_text())


def emscripten_environment(lock: dict) -> dict[str, str]:
    """Marker values as Pyodide reports them (sys.platform is "emscripten")."""
    python = ".".join(lock["info"]["python"].split(".")[:2])
    return {**default_environment(), "sys_platform": "emscripten",
            "platform_system": "Emscripten", "platform_machine": "wasm32",
            "os_name": "posix", "python_version": python,
            "python_full_version": lock["info"]["python"]}


def download(requirements: list[str], lock: dict, folder: Path) -> list[Path]:
    """Wheels for Pyodide's platform from the package index (once; kept in the cache)."""
    info = lock["info"]
    python = "".join(info["python"].split(".")[:2])
    platform = f"pyemscripten_{info['abi_version']}_{info['arch']}"
    stamp = folder / "requirements.txt"
    if not stamp.exists() or stamp.read_text() != "\n".join(requirements):
        shutil.rmtree(folder, ignore_errors=True)
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", "--platform", platform, "--python-version", python,
             "--dest", str(folder), *requirements], 300, "pip download for Pyodide")
        stamp.write_text("\n".join(requirements))
    return sorted(folder.glob("*.whl"))


def runtime_requirements(wheel: Path, environment: dict[str, str]) -> list[Requirement]:
    """The wheel's Requires-Dist that apply under Pyodide (no extra)."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(name).decode()
    requirements = [Requirement(line.split(":", 1)[1].strip())
                    for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    return [r for r in requirements
            if r.marker is None or r.marker.evaluate({**environment, "extra": ""})]


def readme_blocks() -> list[str]:
    """The README's Python examples, minus the lines that draw (matplotlib stays outside
    Node's offline Pyodide: its wheel comes from a CDN) and the blocks that open a widget (the
    `widgets` extra, which the light install leaves out: the JupyterLite site's tests run
    those in the browser)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    draws = ("draw_puzzle", "plt")
    widgets = ("CodeStepper", "Playground", "Stepper(")
    return ["\n".join(line for line in block.splitlines() if not any(d in line for d in draws))
            for block in blocks if not any(w in block for w in widgets)]


def test_the_package_runs_under_pyodide(pyodide_dir: Path, tmp_path: Path) -> None:
    lock = lock_of(pyodide_dir)
    wheel, _ = build_wheel(tmp_path)  # a build that fails fails the test (tests/wheel.py)
    environment = emscripten_environment(lock)
    needed = runtime_requirements(wheel, environment)
    names = {canonicalize_name(r.name) for r in needed}
    assert "python-constraint2" not in names  # compiled wheels only: kept off Pyodide
    assert "python-sat" in names
    in_lock = {canonicalize_name(name) for name in lock["packages"]}
    elsewhere = sorted(str(r) for r in needed if canonicalize_name(r.name) not in in_lock)
    micropip = f"micropip=={lock['packages']['micropip']['version']}"
    wheels = download(["python-sat", "six", micropip, *elsewhere], lock,
                      CACHE / "pyodide" / f"wheels-{PYODIDE_VERSION}")
    by_name = {canonicalize_name(w.name.split("-")[0]): w for w in wheels}
    for requirement in elsewhere:  # neither in Pyodide's lock nor...: a pure or wasm wheel
        assert canonicalize_name(Requirement(requirement).name) in by_name, requirement
    inputs = {
        "wheels": [str(wheel), str(by_name["python-sat"]), str(by_name["six"])],
        "readme_blocks": readme_blocks(),
        "puzzles": {kind: (REPO / path).read_text() for kind, path in PUZZLES.items()},
    }
    (tmp_path / "inputs.json").write_text(json.dumps(inputs))
    done = subprocess.run(["node", str(HERE / "run.mjs"), str(pyodide_dir),
                           str(by_name["micropip"]), str(tmp_path / "inputs.json"),
                           str(HERE / "program.py")],
                          capture_output=True, text=True, timeout=600)
    steps = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    print("\n".join(f"{s['seconds']:8.2f} s  {s['step']}" for s in steps))  # the timings
    assert done.returncode == 0, done.stderr[-3000:]
    assert steps and steps[-1]["step"] == "done", done.stdout[-2000:]
