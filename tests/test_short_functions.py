"""No Python function of the package is over 60 lines, and no JavaScript function of its front
end over 80 (that one is held in tests/test_viz.py, with `longest_functions`): each is short
enough to read at once.
"""

from __future__ import annotations

import ast
from pathlib import Path

import csp_puzzles

PACKAGE = Path(csp_puzzles.__file__).parent
LONGEST = 60


def function_lengths(source: str) -> list[tuple[int, int, str]]:
    """(lines, first line, dotted name) of every function and method in `source`, nested
    ones included; a function's lines run from its `def` to its last line."""
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (child.end_lineno or child.lineno) - child.lineno + 1
                found.append((length, child.lineno, prefix + child.name))
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def test_lengths_are_counted_from_def_to_last_line() -> None:
    source = "class A:\n    def f(self):\n        def g():\n            return 1\n\n" \
             "        return g\n"
    assert sorted(function_lengths(source)) == [(2, 3, "A.f.g"), (5, 2, "A.f")]


def test_no_function_of_the_package_is_over_60_lines() -> None:
    too_long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for length, line, name in function_lengths(path.read_text(encoding="utf-8")):
            if length > LONGEST:
                too_long.append(f"{path.relative_to(PACKAGE.parent)}:{line} {name}: "
                                f"{length} lines")
    assert not too_long, "functions over 60 lines:\n" + "\n".join(too_long)


def longest_functions(source: str) -> list[tuple[int, str]]:
    """(lines, first line) of each function or method of a JavaScript source, longest first.

    A function starts on a line ending in `{` that declares one (`function f(`, a method
    `name(...) {`, an arrow `=> {`) and ends at the first line that closes it at the same
    indentation.
    """
    lines = source.splitlines()
    found = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.endswith("{") or stripped.startswith(("if ", "if(", "for ", "while ",
                                                               "} else", "else", "switch")):
            continue
        if not ("function " in stripped or "=> {" in stripped
                or (stripped.split("(")[0].replace("async ", "").isidentifier()
                    and ") {" in stripped)):
            continue
        indent = len(line) - len(line.lstrip())
        for j in range(i + 1, len(lines)):
            other = lines[j]
            if other.strip().startswith("}") and len(other) - len(other.lstrip()) == indent:
                found.append((j - i + 1, stripped))
                break
    return sorted(found, reverse=True)
