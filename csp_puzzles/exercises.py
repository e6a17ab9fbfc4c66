"""Student versions of the exercise notebooks: `csp-puzzles exercises --student OUT_DIR`.

The notebooks in `notebooks/exercises/` are the instructor versions, marked the way nbgrader
marks them. The student version of each:

- replaces every region between `### BEGIN SOLUTION` and `### END SOLUTION` (markers
  included) by `# YOUR CODE HERE` and `raise NotImplementedError()` at the marker's
  indentation (in Markdown cells, by `YOUR ANSWER HERE`);
- drops every region between `### BEGIN HIDDEN TESTS` and `### END HIDDEN TESTS`;
- has no outputs.

This is the text nbgrader's `generate_assignment` writes, without its course database; where
nbgrader is installed it reads the same notebooks.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
CODE_STUB = ("# YOUR CODE HERE", "raise NotImplementedError()")
MARKDOWN_STUB = "YOUR ANSWER HERE"

#: where the instructor notebooks live when running from a source checkout
SOURCE = Path(__file__).resolve().parent.parent / "notebooks" / "exercises"


class MarkerError(ValueError):
    """A BEGIN marker without its END (or the reverse)."""


def strip_source(source: str, cell_type: str = "code") -> str:
    """The student text of one cell's source."""
    out: list[str] = []
    mode = None  # None, "solution" or "hidden"
    for number, line in enumerate(source.split("\n"), start=1):
        marker = line.strip()
        if mode is None and marker == BEGIN_SOLUTION:
            mode = "solution"
            indent = line[: len(line) - len(line.lstrip())]
            if cell_type == "code":
                out.extend(indent + stub for stub in CODE_STUB)
            else:
                out.append(indent + MARKDOWN_STUB)
        elif mode is None and marker == BEGIN_HIDDEN:
            mode = "hidden"
        elif mode == "solution" and marker == END_SOLUTION:
            mode = None
        elif mode == "hidden" and marker == END_HIDDEN:
            mode = None
        elif marker in (BEGIN_SOLUTION, END_SOLUTION, BEGIN_HIDDEN, END_HIDDEN):
            raise MarkerError(f"line {number}: unexpected {marker!r}")
        elif mode is None:
            out.append(line)
    if mode is not None:
        raise MarkerError(f"a {mode} region is never closed")
    return "\n".join(out).rstrip("\n")


def student_notebook(notebook: dict[str, Any]) -> dict[str, Any]:
    """A copy of an instructor notebook (nbformat JSON) in its student form."""
    student = json.loads(json.dumps(notebook))
    for cell in student["cells"]:
        source = cell["source"]
        text = "".join(source) if isinstance(source, list) else source
        cell["source"] = strip_source(text, cell["cell_type"])
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    student["metadata"].pop("widgets", None)
    return student


def write_student_versions(out_dir: Path, source_dir: Path = SOURCE) -> list[Path]:
    """Write the student version of every notebook in `source_dir` to `out_dir`."""
    notebooks = sorted(source_dir.glob("*.ipynb"))
    if not notebooks:
        raise FileNotFoundError(f"no exercise notebooks in {source_dir}")
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path in notebooks:
        with open(path, encoding="utf-8") as handle:
            notebook = json.load(handle)
        target = out_dir / path.name
        with open(target, "w", encoding="utf-8") as handle:
            json.dump(student_notebook(notebook), handle, indent=1, ensure_ascii=False)
            handle.write("\n")
        written.append(target)
    return written


def main(args: argparse.Namespace) -> int:
    """The `exercises` command: `args.student` is the output directory."""
    try:
        written = write_student_versions(Path(args.student))
    except (OSError, MarkerError) as err:
        print(f"csp-puzzles: error: {args.student}:1:1: {err}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0
