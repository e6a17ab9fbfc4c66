"""The wheels a JupyterLite site of the course carries: the project's, and what it needs.

The project's wheel is built from the source checkout when `csp_puzzles` is imported from
one, else packed from the installed files. Its requirements (with the `widgets` extra: the
explorer needs anywidget) are followed under Pyodide's environment markers (`sys_platform`
is "emscripten"), and so are those of the packages the kernel loads as it starts. Each
package in Pyodide's own list is taken at the version Pyodide has; the others come from the
package index, as pure wheels or wheels built for Pyodide's platform. Downloads go to a
cache folder and are reused.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from email.parser import Parser
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

#: what the kernel itself provides (its own wheels and stand-ins): never added
KERNEL_PROVIDES = frozenset({"ipykernel", "pyodide-kernel", "piplite", "widgetsnbextension",
                             "jupyterlab-widgets"})
#: what the JupyterLite kernel loads as it starts (from Pyodide's list, or the index)
KERNEL_LOADS = ("micropip", "ipython", "jedi", "comm")
#: the extras of the project the browser needs
BROWSER_EXTRAS = ("widgets",)
CACHE = Path(os.environ.get("CSP_PUZZLES_CACHE", Path.home() / ".cache" / "csp-puzzles"))


class WheelError(Exception):
    """A wheel could not be built or found; the message says which and why."""


@dataclass
class Wheel:
    """One wheel for the site: its file, and the names of the packages it needs there."""

    name: str
    version: str
    path: Path | None  # None: Pyodide's own file, loaded from where Pyodide lives
    depends: list[str] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)

    @property
    def sha256(self) -> str:
        assert self.path is not None
        return hashlib.sha256(self.path.read_bytes()).hexdigest()


# -- the project's wheel ----------------------------------------------------------------------
def project_wheel(folder: Path) -> Path:
    """The project's wheel, written into `folder`."""
    package = Path(__file__).resolve().parents[2]
    root = package.parent
    if (root / "pyproject.toml").is_file() and (root / "setup.py").is_file():
        return _build_from_source(root, folder)
    return _pack_installed(package, folder)


def _build_from_source(root: Path, folder: Path) -> Path:
    """`pip wheel` on a copy of the checkout (a build writes build/ beside its sources)."""
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "source"
        shutil.copytree(root, source, ignore=shutil.ignore_patterns(
            ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache",
            ".hypothesis", ".ipynb_checkpoints", "artifacts", "node_modules", "lab"))
        _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
              str(folder), str(source)], "building the project's wheel")
    found = sorted(folder.glob("csp_puzzles-*.whl"))
    if not found:
        raise WheelError("building the project's wheel wrote no wheel")
    return found[-1]


def _pack_installed(package: Path, folder: Path) -> Path:
    """A wheel of the installed package: its files (not the course files, which the site
    carries as contents) and its metadata."""
    dist = metadata.distribution("csp-puzzles")
    name, version = "csp_puzzles", dist.version
    info = f"{name}-{version}.dist-info"
    files: dict[str, bytes] = {}
    for found in sorted(package.rglob("*")):
        relative = found.relative_to(package.parent).as_posix()
        if found.is_file() and "__pycache__" not in relative and "/coursefiles/" not in relative:
            files[relative] = found.read_bytes()
    files[f"{info}/METADATA"] = (dist.read_text("METADATA") or "").encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: csp-puzzles lite\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    files[f"{info}/top_level.txt"] = b"csp_puzzles\n"
    record = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join(record + [f"{info}/RECORD,,"]) + "\n").encode()
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, data in files.items():
            archive.writestr(member, data)
    return wheel


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


# -- what a wheel says about itself -------------------------------------------------------------
def wheel_metadata(wheel: Path) -> Any:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist()
                    if n.endswith(".dist-info/METADATA") and n.count("/") == 1)
        return Parser().parsestr(archive.read(name).decode("utf-8"))


def wheel_imports(wheel: Path) -> list[str]:
    """The top-level modules a wheel installs (what `import` names)."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    tops = set()
    for name in names:
        first = name.split("/", 1)[0]
        if first.endswith((".dist-info", ".data")):
            continue
        if "/" in name or name.endswith(".py"):
            tops.add(first.removesuffix(".py"))
    return sorted(t for t in tops if t.isidentifier())


def requirements(wheel: Path, environment: dict[str, str], extras: tuple[str, ...] = ()
                 ) -> list[Requirement]:
    """The wheel's `Requires-Dist` that hold in `environment`, with the extras asked."""
    found = []
    for line in wheel_metadata(wheel).get_all("Requires-Dist") or []:
        requirement = Requirement(line)
        marker = requirement.marker
        if marker is None or any(marker.evaluate({**environment, "extra": extra})
                                 for extra in ("", *extras)):
            found.append(requirement)
    return found


def pyodide_environment(lock: dict[str, Any]) -> dict[str, str]:
    """Environment markers as Pyodide reports them (`sys_platform` is "emscripten")."""
    python = lock["info"]["python"]
    return {**default_environment(), "sys_platform": "emscripten",
            "platform_system": "Emscripten", "platform_machine": "wasm32", "os_name": "posix",
            "implementation_name": "cpython", "platform_python_implementation": "CPython",
            "python_version": ".".join(python.split(".")[:2]), "python_full_version": python}


# -- the package index ----------------------------------------------------------------------------
class Index:
    """Wheels for Pyodide's platform from the package index, kept in a cache folder."""

    def __init__(self, lock: dict[str, Any], cache: Path = CACHE / "lite-wheels"):
        info = lock["info"]
        self.platform = f"pyemscripten_{info['abi_version']}_{info['arch']}"
        self.python = "".join(info["python"].split(".")[:2])
        self.folder = cache / self.platform
        self.folder.mkdir(parents=True, exist_ok=True)
        self.known_path = self.folder / "resolved.json"
        self.known: dict[str, str] = (json.loads(self.known_path.read_text())
                                      if self.known_path.is_file() else {})

    def wheel(self, spec: str) -> Path:
        """The newest wheel matching `spec` (a requirement without marker)."""
        known = self.known.get(spec)
        if known and (self.folder / known).is_file():
            return self.folder / known
        with tempfile.TemporaryDirectory() as scratch:
            _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                  "--only-binary=:all:", "--platform", self.platform, "--python-version",
                  self.python, "--dest", scratch, spec], f"downloading {spec} for Pyodide")
            got = next(Path(scratch).glob("*.whl"), None)
            if got is None:
                raise WheelError(f"no wheel of {spec} for Pyodide on the package index")
            target = self.folder / got.name
            shutil.move(str(got), target)
        self.known[spec] = target.name
        self.known_path.write_text(json.dumps(self.known, indent=1, sort_keys=True))
        return target


def _run(argv: list[str], what: str) -> None:
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise WheelError(f"{what} failed: {last[0]}")


# -- following the requirements -----------------------------------------------------------------
def needed_wheels(project: Path, lock: dict[str, Any], index: Index,
                  local: bool) -> list[Wheel]:
    """The project's wheel and every wheel it and the kernel need under Pyodide.

    A package in Pyodide's list, at a version that fits, is Pyodide's: with `local` (the site
    carries its own Pyodide, which has no package files) its wheel is fetched from the index
    at that version; otherwise Pyodide loads it from where it lives (path None).
    """
    environment = pyodide_environment(lock)
    pyodide = {canonicalize_name(entry["name"]): entry for entry in lock["packages"].values()}
    chosen: dict[str, Wheel] = {}
    queue: list[tuple[Requirement, Path | None]] = [(Requirement(name), None)
                                                    for name in KERNEL_LOADS]
    own = _wheel(project, environment, BROWSER_EXTRAS)
    chosen[canonicalize_name(own.name)] = own
    queue += [(r, project) for r in requirements(project, environment, BROWSER_EXTRAS)]
    while queue:
        requirement, wanted_by = queue.pop(0)
        name = canonicalize_name(requirement.name)
        if name in KERNEL_PROVIDES or name in chosen:
            _check_fits(requirement, chosen.get(name), wanted_by)
            continue
        entry = pyodide.get(name)
        if entry and requirement.specifier.contains(entry["version"], prereleases=True):
            if not local:
                chosen[name] = Wheel(entry["name"], entry["version"], None,
                                     [str(canonicalize_name(d)) for d in entry["depends"]],
                                     entry["imports"])
                queue += [(Requirement(d), None) for d in entry["depends"]]
                continue
            path = _at_pyodides_version(index, requirement.name, entry["version"])
        else:
            path = index.wheel(str(Requirement(f"{requirement.name}{requirement.specifier}")))
        chosen[name] = _wheel(path, environment, tuple(requirement.extras))
        queue += [(r, path) for r in requirements(path, environment, tuple(requirement.extras))]
    for wheel in chosen.values():
        wheel.depends = [d for d in wheel.depends if d in chosen]
    return list(chosen.values())


def _at_pyodides_version(index: Index, name: str, version: str) -> Path:
    try:
        return index.wheel(f"{name}=={version}")
    except WheelError:  # not on the index for this platform: the newest that is
        return index.wheel(name)


def _wheel(path: Path, environment: dict[str, str], extras: tuple[str, ...]) -> Wheel:
    info = wheel_metadata(path)
    depends = [str(canonicalize_name(r.name)) for r in requirements(path, environment, extras)]
    return Wheel(info["Name"], info["Version"], path, depends, wheel_imports(path))


def _check_fits(requirement: Requirement, wheel: Wheel | None, wanted_by: Path | None) -> None:
    if wheel is None or requirement.specifier.contains(wheel.version, prereleases=True):
        return
    who = wanted_by.name if wanted_by else "the kernel"
    raise WheelError(f"{who} needs {requirement}, but the site has {wheel.name} "
                     f"{wheel.version}")
