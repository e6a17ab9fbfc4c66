"""The site's Pyodide package list: Pyodide's own `pyodide-lock.json`, plus the site's wheels.

Pyodide reads a package's `file_name` relative to the folder of the list it was given
(`lockFileURL`), so the list sits beside the site's wheels, in `static/pyodide-lock/`, and
each of Pyodide's own packages points at where Pyodide lives: the CDN, or, for a site that
carries its own Pyodide, the site's `static/pyodide/` folder (a package whose file is not
there then fails to load without a request leaving the site).
"""

from __future__ import annotations

import copy
import json
import shutil
import urllib.request
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name

from .wheels import CACHE, Wheel, WheelError

#: the Pyodide the JupyterLite kernel pins (jupyterlite-pyodide-kernel 0.8.6)
PYODIDE_VERSION = "314.0.6"
PYODIDE_CDN = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
LOCK = "pyodide-lock.json"
#: where the list and the wheels go in the site, and the kernel's setting pointing there
FOLDER = "static/pyodide-lock"
LOCK_URL = f"./{FOLDER}/{LOCK}"
#: relative to FOLDER: the site's own Pyodide, when it carries one
LOCAL_PYODIDE = "../pyodide/"


def pyodide_lock(pyodide: Path | None) -> dict[str, Any]:
    """Pyodide's package list: from the local distribution, or fetched from the CDN once
    (then kept in the cache folder)."""
    if pyodide is not None:
        return json.loads((pyodide / LOCK).read_text(encoding="utf-8"))
    cached = CACHE / f"pyodide-lock-{PYODIDE_VERSION}.json"
    if not cached.is_file():
        try:
            with urllib.request.urlopen(PYODIDE_CDN + LOCK, timeout=60) as answer:
                data = answer.read()
        except OSError as err:
            raise WheelError(f"cannot read Pyodide's package list from {PYODIDE_CDN} "
                             f"({err}), expected the network, or --pyodide PATH") from None
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_bytes(data)
    return json.loads(cached.read_text(encoding="utf-8"))


def site_lock(lock: dict[str, Any], wheels: list[Wheel], local: bool) -> dict[str, Any]:
    """Pyodide's list with its file names made to work from FOLDER, and the wheels added
    (a wheel replaces Pyodide's entry of the same package)."""
    base = LOCAL_PYODIDE if local else PYODIDE_CDN
    packages = {}
    for key, entry in lock["packages"].items():
        moved = copy.deepcopy(entry)
        moved["file_name"] = base + entry["file_name"]
        packages[key] = moved
    for wheel in wheels:
        if wheel.path is None:  # Pyodide's own, as it is
            continue
        name = canonicalize_name(wheel.name)
        for key in [k for k, e in packages.items() if canonicalize_name(e["name"]) == name]:
            del packages[key]
        packages[name] = {
            "name": wheel.name, "version": wheel.version, "file_name": wheel.path.name,
            "install_dir": "site", "sha256": wheel.sha256, "package_type": "package",
            "imports": wheel.imports, "depends": wheel.depends, "unvendored_tests": False,
        }
    return {"info": lock["info"], "packages": dict(sorted(packages.items()))}


def write_lock(site: Path, lock: dict[str, Any], wheels: list[Wheel], local: bool) -> Path:
    """The site's list and its wheels in `site/FOLDER`; returns the list's path."""
    folder = site / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for wheel in wheels:
        if wheel.path is not None:
            shutil.copyfile(wheel.path, folder / wheel.path.name)
    path = folder / LOCK
    path.write_text(json.dumps(site_lock(lock, wheels, local), indent=1), encoding="utf-8")
    return path
