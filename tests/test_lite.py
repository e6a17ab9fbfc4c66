"""`csp-puzzles lite`: what the site carries and how it refuses, without a browser.

The wheels the site needs are followed from the project's requirements under Pyodide's
markers, taking Pyodide's own packages where they fit (wheels made here stand for the
package index); the site's package list points Pyodide's packages at the CDN, or at the
site's own Pyodide, and lists every wheel with its checksum. The browser run of the whole
site is tests/browser/test_lite_site.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from pathlib import Path

import pytest

from csp_puzzles.cli import main
from csp_puzzles.teaching.lite.lock import LOCAL_PYODIDE, PYODIDE_CDN, PYODIDE_VERSION, site_lock
from csp_puzzles.teaching.lite.site import _settings
from csp_puzzles.teaching.lite.wheels import Index, needed_wheels
from tests.lite import run_lite

LOCK = {"info": {"abi_version": "2026_0", "arch": "wasm32", "platform": "emscripten_5_0_3",
                 "python": "3.14.2"},
        "packages": {}}


def lock_entry(name: str, version: str, depends: list[str] = ()) -> dict:
    return {"name": name, "version": version, "depends": list(depends), "imports": [name],
            "file_name": f"{name}-{version}-py3-none-any.whl", "install_dir": "site",
            "package_type": "package", "sha256": "0" * 64, "unvendored_tests": False}


def make_wheel(folder: Path, name: str, version: str, requires: list[str] = ()) -> Path:
    """A wheel holding one module and the metadata given."""
    module = name.replace("-", "_")
    path = folder / f"{module}-{version}-py3-none-any.whl"
    metadata = "\n".join(["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}",
                          *(f"Requires-Dist: {r}" for r in requires)]) + "\n"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{module}/__init__.py", "")
        archive.writestr(f"{module}-{version}.dist-info/METADATA", metadata)
    return path


class FakeIndex(Index):
    """The package index, as wheels made here; remembers what was asked."""

    def __init__(self, lock: dict, wheels: dict[str, Path], cache: Path):
        super().__init__(lock, cache)
        self.wheels = wheels
        self.asked: list[str] = []

    def wheel(self, spec: str) -> Path:
        self.asked.append(spec)
        name = spec.split("=")[0].split(">")[0].split("<")[0].split("~")[0]
        return self.wheels[name]


@pytest.fixture
def world(tmp_path: Path):
    lock = json.loads(json.dumps(LOCK))
    for entry in (lock_entry("python-sat", "1.8.dev26", ["six"]), lock_entry("six", "1.17.0"),
                  lock_entry("micropip", "0.11.1"), lock_entry("jedi", "0.19.2"),
                  lock_entry("ipython", "9.12.0", ["traitlets"]),
                  lock_entry("traitlets", "5.14.3")):
        lock["packages"][entry["name"]] = entry
    project = make_wheel(tmp_path, "csp-puzzles", "0.1.0", [
        "python-sat>=1.8.dev26,<1.10",
        "python-constraint2>=2.0; sys_platform != 'emscripten' and extra == 'notebooks'",
        "anywidget>=0.9; extra == 'widgets'", "matplotlib>=3.7; extra == 'png'"])
    index = {name: make_wheel(tmp_path, name, version, requires) for name, version, requires in (
        ("anywidget", "0.11.0", ["ipywidgets>=7.6.0", "psygnal>=0.8.1"]),
        ("ipywidgets", "8.1.9", ["comm>=0.1.3", "widgetsnbextension~=4.0.14", "ipython>=6.1.0"]),
        ("psygnal", "0.16.1", ["typing-extensions; python_version < '3.11'"]),
        ("comm", "0.2.3", []),
        ("python-sat", "1.8.dev26", ["six"]), ("six", "1.17.0", []),
        ("micropip", "0.11.1", []), ("jedi", "0.19.2", []), ("traitlets", "5.14.3", []),
        ("ipython", "9.12.0", ["traitlets", "pexpect; sys_platform != 'emscripten'"]))}
    return lock, project, FakeIndex(lock, index, tmp_path / "cache")


def test_from_the_cdn_the_site_adds_only_what_pyodide_lacks(world):
    lock, project, index = world
    wheels = {w.name: w for w in needed_wheels(project, lock, index, local=False)}
    carried = {name for name, w in wheels.items() if w.path is not None}
    assert carried == {"csp-puzzles", "anywidget", "ipywidgets", "psygnal", "comm"}
    assert wheels["python-sat"].path is None  # Pyodide's own, at its version
    assert "python-constraint2" not in wheels and "matplotlib" not in wheels
    assert "widgetsnbextension" not in wheels  # the kernel has its own
    assert "pexpect" not in wheels and "typing-extensions" not in wheels  # markers
    assert wheels["csp-puzzles"].depends == ["python-sat", "anywidget"]
    assert set(wheels["ipywidgets"].depends) == {"comm", "ipython"}


def test_with_its_own_pyodide_the_site_carries_pyodides_packages_at_their_versions(world):
    lock, project, index = world
    wheels = {w.name: w for w in needed_wheels(project, lock, index, local=True)}
    assert all(w.path is not None for w in wheels.values())
    assert {"micropip", "ipython", "jedi", "python-sat", "six"} <= set(wheels)
    assert "python-sat==1.8.dev26" in index.asked and "micropip==0.11.1" in index.asked


@pytest.mark.parametrize("local", [False, True])
def test_the_sites_package_list(world, local: bool):
    lock, project, index = world
    wheels = needed_wheels(project, lock, index, local=local)
    listed = site_lock(lock, wheels, local)
    packages = listed["packages"]
    base = LOCAL_PYODIDE if local else PYODIDE_CDN
    for wheel in wheels:
        entry = packages[wheel.name]
        if wheel.path is None:
            assert entry["file_name"] == base + lock["packages"][wheel.name]["file_name"]
        else:
            assert entry["file_name"] == wheel.path.name
            assert entry["sha256"] == hashlib.sha256(wheel.path.read_bytes()).hexdigest()
            assert set(entry["depends"]) <= set(packages)
    assert packages["csp-puzzles"]["imports"] == ["csp_puzzles"]


def test_the_kernel_loads_the_list_and_the_package_as_it_starts():
    for local in (False, True):
        settings = _settings(local)["jupyter-config-data"]
        kernel = settings["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
        assert kernel["loadPyodideOptions"] == {
            "lockFileURL": "./static/pyodide-lock/pyodide-lock.json", "packages": ["csp-puzzles"]}
        assert kernel["disablePyPIFallback"] is local
        assert settings["exposeAppInBrowser"] is True


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("csp-puzzles: error: ")
    return err


def test_a_non_empty_folder_is_refused(tmp_path: Path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["lite", str(tmp_path)]) == 2
    assert f"{tmp_path}:1:1: not empty" in _one_line_error(capsys)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def _refused(done) -> str:
    """The one line a refused build says (exit 2)."""
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("csp-puzzles: error: ")
    return done.stderr


def test_a_folder_without_pyodide_is_refused(tmp_path: Path):
    done = run_lite(str(tmp_path / "site"), "--pyodide", str(tmp_path))
    assert "expected a Pyodide distribution" in _refused(done)
    assert not (tmp_path / "site").exists()


def test_another_pyodide_version_is_refused(tmp_path: Path):
    pyodide = tmp_path / "pyodide"
    pyodide.mkdir()
    for name in ("pyodide.mjs", "pyodide-lock.json"):
        (pyodide / name).write_text("{}")
    (pyodide / "package.json").write_text(json.dumps({"version": "0.29.3"}))
    done = run_lite(str(tmp_path / "site"), "--pyodide", str(pyodide))
    assert f"Pyodide 0.29.3, expected {PYODIDE_VERSION}" in _refused(done)


@pytest.mark.slow
def test_a_site_for_the_cdn_carries_no_pyodide(tmp_path: Path):
    """Built as users online get it: Pyodide's package list as the CDN serves it (here the
    npm package's, the same release), Pyodide's packages left on the CDN."""
    npm = Path(os.environ.get("CSP_PUZZLES_CACHE", Path.home() / ".cache" / "csp-puzzles"))
    listed = npm / "lite" / "node_modules" / "pyodide" / "pyodide-lock.json"
    if not listed.is_file():
        pytest.skip("no npm pyodide package to stand for the CDN's package list")
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / f"pyodide-lock-{PYODIDE_VERSION}.json").write_text(listed.read_text())
    site = tmp_path / "site"
    done = run_lite(str(site), cache=tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    assert f"Pyodide {PYODIDE_VERSION} from its CDN" in done.stdout
    assert not (site / "static" / "pyodide").exists()
    settings = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = settings["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert "pyodideUrl" not in kernel and kernel["disablePyPIFallback"] is False
    packages = json.loads((site / "static" / "pyodide-lock" / "pyodide-lock.json").read_text())
    files = {entry["file_name"] for entry in packages["packages"].values()}
    local = {name for name in files if not name.startswith(PYODIDE_CDN)}
    assert local == {p.name for p in (site / "static" / "pyodide-lock").glob("*.whl")}
    assert any(name.startswith("csp_puzzles-") for name in local)
