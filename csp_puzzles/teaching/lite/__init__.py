"""`csp-puzzles lite DIR`: the student course as a static JupyterLite site.

Open `DIR/index.html` through any static web server and the notebooks run in the browser's
Python (Pyodide), the explorer included, with nothing installed. The site is built by
JupyterLite (`jupyter lite build`, the `lite` extra) from the course `csp-puzzles course`
writes, and carries the project's wheel and every wheel it needs besides Pyodide's own
packages, listed in the site's own Pyodide package list (`pyodide-lock.json`), so that the
kernel loads `csp_puzzles` as it starts and no notebook needs `%pip install`.

- `wheels.py`: the project's wheel and the wheels it needs under Pyodide, from the package
  index (built once, then kept in a cache folder);
- `lock.py`: the site's package list: Pyodide's, with those wheels added;
- `site.py`: the build itself.

By default Pyodide comes from its public CDN (the one the JupyterLite kernel pins); with
`pyodide=PATH` (a folder holding `pyodide.mjs`, e.g. the npm package `pyodide` unpacked) the
site carries that Pyodide and the wheels of the Pyodide packages the kernel loads at start,
so that it makes no request outside its own folder.
"""

from .site import LiteError, build_site

__all__ = ["build_site", "LiteError"]
