"""A notebook as one HTML page whose explorers still step, with no kernel and no network.

`jupyter nbconvert --to html` keeps widget state but loads the widget renderer, require.js
and MathJax from CDNs. This export runs the notebook, then replaces each explorer's output by
the explorer itself: its ES module (once per page) and its data, inlined, with a small
stand-in for the widget model. The page loads nothing else: require.js is left out (nothing
on the page needs it), and a notebook with formulas gets MathJax 3 inlined (its files come
from the `django-static-mathjax` package, the `export` extra). Open the file in a browser,
with no server and no network, and step.

    csp-puzzles export notebooks/03_hashiwokakero.ipynb -o hashi.html
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from .stepper import EXPLORER_JS

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
#: the traits that make an explorer, a picture, a playground or a code stepper, as the kernel
#: left them (a playground's `state`, what was done, and its `replay`, the packed trace, so
#: that its page replays it; a code stepper's `breakpoints`)
EXPLORER_TRAITS = ("data", "position", "run", "image", "interval", "note", "state", "replay",
                   "breakpoints")

#: a widget model with no kernel behind it: the state it was saved with, and change events
STATIC_MODEL_JS = """
function cspStaticModel(state) {
  const listeners = {};
  return {
    get: (name) => state[name],
    set: (name, value) => {
      state[name] = value;
      for (const callback of listeners["change:" + name] || []) callback();
    },
    on: (name, callback) => { (listeners[name] = listeners[name] || []).push(callback); },
    off: () => {},
    save_changes: () => {},
  };
}
"""
#: what nbconvert is told the CDN addresses are, so that the page's tags for them can be found
MATHJAX_MARK, REQUIRE_MARK = "csp-puzzles:mathjax", "csp-puzzles:require.js"
#: MathJax 3, TeX in and SVG out, every TeX extension in the one file (nothing to fetch)
MATHJAX_FILE = "static/mathjax/es5/tex-svg-full.js"
#: MathJax 3 set up as JupyterLab sets MathJax up: $...$ and \(...\) inline
MATHJAX_CONFIG = r"""window.MathJax = {tex: {inlineMath: [["$", "$"], ["\\(", "\\)"]],
  displayMath: [["$$", "$$"], ["\\[", "\\]"]], processEscapes: true,
  processEnvironments: true, tags: "ams"}, svg: {fontCache: "global"}};"""
OTHER_WIDGET = ("<p><i>(an interactive widget: it needs a running kernel; open the notebook "
                "in Jupyter to use it)</i></p>")


def classic_script(module: str) -> str:
    """The ES module as a classic script defining `window.cspExplorer` (it has no imports)."""
    if re.search(r"^\s*import\s", module, flags=re.MULTILINE):
        raise ValueError("the explorer module imports other modules: it cannot be inlined")
    body, count = re.subn(r"^export default\s+(\{[^}]*\});\s*$", r"window.cspExplorer = \1;",
                          module, flags=re.MULTILINE)
    if count != 1:
        raise ValueError("the explorer module must end with one `export default { render };`")
    return body


def explorer_html(state: dict[str, Any], number: int, with_library: bool) -> str:
    """One explorer as HTML: a host element and the script that renders it from `state`."""
    host = f"csp-explorer-{number}"
    data = json.dumps({k: state[k] for k in EXPLORER_TRAITS if k in state})
    data = data.replace("</", "<\\/")  # never close the script element early
    library = ""
    if with_library:
        library = f"<script>{STATIC_MODEL_JS}\n{classic_script(EXPLORER_JS)}</script>\n"
    return (f"{library}<div id=\"{host}\"></div>\n<script>window.cspExplorer.render("
            f"{{model: cspStaticModel({data}), el: document.getElementById(\"{host}\")}});"
            f"</script>\n")


def inline_explorers(notebook: Any) -> int:
    """Replace each explorer's widget output by its inlined HTML (a box of widgets, such as
    an `HBox` of two pictures, by its children side by side); other widgets get a note.

    Needs the widget state saved in the notebook's metadata (run it with
    `store_widget_state=True`); returns how many explorers were inlined.
    """
    widgets = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    inlined = [0]

    def html_of(model_id: str) -> str:
        state = widgets.get(model_id, {}).get("state", {})
        if "data" in state and state.get("_esm", "").strip() == EXPLORER_JS.strip():
            inlined[0] += 1
            return explorer_html(state, inlined[0] - 1, with_library=inlined[0] == 1)
        children = state.get("children")
        if isinstance(children, list) and children:
            parts = "".join(f"<div>{html_of(child.removeprefix('IPY_MODEL_'))}</div>"
                            for child in children)
            return f'<div style="display:flex;flex-wrap:wrap;gap:12px">{parts}</div>'
        return OTHER_WIDGET

    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view is not None:
                output["data"] = {"text/html": html_of(view.get("model_id", "")),
                                  "text/plain": "[widget]"}
    notebook.metadata.pop("widgets", None)  # nothing left for a CDN widget manager to load
    return inlined[0]


def export_notebook(path: str | Path, out: str | Path, timeout: int = 600) -> int:
    """Run the notebook at `path` in a fresh kernel and write it to `out` as a standalone
    HTML page; returns the number of explorers in it."""
    try:
        import nbformat
        from nbclient import NotebookClient
        from nbconvert import HTMLExporter
    except ImportError as err:
        raise ImportError(f"the export needs {err.name}: pip install 'csp-puzzles[export]'") \
            from None

    path = Path(path)
    notebook = nbformat.read(path, as_version=4)
    if has_formulas(notebook) and find_spec("mathjax") is None:
        raise ImportError("the export of formulas needs django-static-mathjax: pip install "
                          "'csp-puzzles[export]'")
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                            store_widget_state=True,
                            resources={"metadata": {"path": str(path.parent.resolve())}})
    client.execute()
    count = inline_explorers(notebook)
    exporter = HTMLExporter(template_name="lab", mathjax_url=MATHJAX_MARK,
                            require_js_url=REQUIRE_MARK)
    page, _ = exporter.from_notebook_node(notebook)
    Path(out).write_text(offline_page(page, has_formulas(notebook)), encoding="utf-8")
    return count


def has_formulas(notebook: Any) -> bool:
    """Whether a Markdown cell holds TeX ($...$, $$...$$, \\(...\\) or \\[...\\])."""
    found = re.compile(r"\$[^$\s][^$]*\$|\\\(|\\\[")
    return any(cell.cell_type == "markdown" and found.search(cell.source)
               for cell in notebook.cells)


def offline_page(page: str, formulas: bool) -> str:
    """The page with nothing to fetch: no require.js, and MathJax inlined (if `formulas`)
    where nbconvert put its CDN address."""
    require = f'<script src="{REQUIRE_MARK}"></script>'
    mathjax = re.compile(rf'<script src="{re.escape(MATHJAX_MARK)}">\s*</script>')
    if require not in page or not mathjax.search(page):
        raise ValueError("nbconvert's page has changed: the require.js and MathJax tags "
                         "were not found")
    inlined = ""
    if formulas:
        module = files("mathjax").joinpath(MATHJAX_FILE).read_text(encoding="utf-8")
        # never close the script element early (the module has no "</script" today)
        module = re.sub(r"</(script)", r"<\\/\1", module, flags=re.IGNORECASE)
        inlined = f"<script>{MATHJAX_CONFIG}</script>\n<script>{module}</script>"
    return mathjax.sub(lambda _: inlined, page.replace(require, "", 1), count=1)


def run_export(notebook: str, output: str, timeout: int = 600) -> str:
    """What `csp-puzzles export` does; returns the line it prints."""
    source = Path(notebook)
    if not source.is_file():
        raise FileNotFoundError(f"{source}: no such notebook")
    count = export_notebook(source, output, timeout)
    return f"wrote {output}: {count} explorer(s) that step with no kernel and no network"


def saved_state(widget: Any) -> dict[str, Any]:
    """The traits of `EXPLORER_TRAITS` that `widget` has, as the kernel would save them."""
    return {name: getattr(widget, name) for name in EXPLORER_TRAITS if widget.has_trait(name)}


def standalone_page(explorers: list[Any], title: str = "csp-puzzles explorer") -> str:
    """A bare HTML page holding the given explorers, pictures or playgrounds (for checks and
    benchmarks in a browser)."""
    parts = []
    for number, explorer in enumerate(explorers):
        parts.append(explorer_html(saved_state(explorer), number, with_library=number == 0))
    body = "\n".join(f"<div style=\"margin:12px 0\">{part}</div>" for part in parts)
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head>"
            f"<body style=\"max-width:960px;margin:auto\">\n{body}\n</body></html>\n")
