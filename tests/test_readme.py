"""The README's Python examples run, and say what they print.

Each ```python block of README.md runs in a fresh namespace, statement by statement. An
expression followed by a comment that begins with a value (`# 6`, `# 'assign WA = red':
event 1`, `# Stats(nodes=2, backtracks=0, ...)`) states that value, and the test compares it
with what the expression gives: in a stated value, `...` stands for anything and
`Name(field=v, ...)` for an object of class `Name` whose `field` is `v`; the words after the
value explain it. A string that ends in `...` (`'MRV would choose NT: ...'`) states how the
text begins. A comment that begins with words states nothing.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Mapping
from typing import Any

import matplotlib
import pytest

from tests.conftest import REPO

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

BLOCKS = re.findall(r"^```python\n(.*?)^```",
                    (REPO / "README.md").read_text(encoding="utf-8"), re.S | re.M)


def stated(comment: str) -> ast.expr | None:
    """The value `comment` begins with, as an expression; None when it begins with words."""
    for end in range(len(comment), 0, -1):
        text = re.sub(r"(=[^,()]+),\s*\.\.\.\)", r"\1)", comment[:end])  # Name(a=1, ...)
        try:
            node = ast.parse(text.strip(), mode="eval").body
        except SyntaxError:
            continue
        return node if is_value(node) else None
    return None


def is_value(node: ast.expr) -> bool:
    """Literals, displays of values, `...`, and `Name(field=value, ...)`."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return isinstance(node.operand, ast.Constant)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(map(is_value, node.elts))
    if isinstance(node, ast.Dict):
        return all(k is not None and is_value(k) for k in node.keys) and \
            all(map(is_value, node.values))
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and all(map(is_ellipsis, node.args)) and \
            all(k.arg is not None and is_value(k.value) for k in node.keywords)
    return False


def is_ellipsis(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is Ellipsis


def matches(node: ast.expr, value: Any) -> bool:
    """Whether `value` is what `node` states."""
    if is_ellipsis(node):
        return True
    if isinstance(node, (ast.Tuple, ast.List)):
        kind = tuple if isinstance(node, ast.Tuple) else list
        return isinstance(value, kind) and len(value) == len(node.elts) and \
            all(matches(n, v) for n, v in zip(node.elts, value))
    if isinstance(node, ast.Dict):
        keys = [ast.literal_eval(k) for k in node.keys if k is not None]
        return isinstance(value, Mapping) and sorted(map(repr, value)) == sorted(map(repr, keys)) \
            and all(matches(n, value[k]) for k, n in zip(keys, node.values))
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        return type(value).__name__ == node.func.id and \
            all(matches(k.value, getattr(value, str(k.arg))) for k in node.keywords)
    stated_value = ast.literal_eval(node)
    if isinstance(stated_value, str) and stated_value.endswith("..."):
        return isinstance(value, str) and value.startswith(stated_value[:-3].rstrip())
    return bool(value == stated_value)


def comments(source: str) -> dict[int, str]:
    """The comment ending each line that has one, by line number."""
    return {token.start[0]: token.string.lstrip("#").strip()
            for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT}


def run_block(source: str) -> list[str]:
    """Run `source`; each stated value that the expression before it does not give is a
    failure, in words. Returns the checked lines."""
    said = comments(source)
    namespace: dict[str, Any] = {}
    checked = []
    for statement in ast.parse(source).body:
        value = stated(said.get(statement.end_lineno or 0, ""))
        if isinstance(statement, ast.Expr) and value is not None:
            line = ast.get_source_segment(source, statement)
            got = eval(compile(ast.Expression(statement.value), "README", "eval"), namespace)
            assert matches(value, got), f"README: {line}  gives {got!r}, " \
                                        f"not {ast.unparse(value)}"
            checked.append(line or "")
        else:
            exec(compile(ast.Module([statement], []), "README", "exec"), namespace)
    plt.close("all")
    return checked


def test_the_comments_that_state_a_value_are_read() -> None:
    assert ast.unparse(stated("'solved', {'WA': 'red'}: the words") or ast.Pass()) == \
        "('solved', {'WA': 'red'})"
    assert stated("230 backjumps") is not None and stated("SA first, then the tree") is None
    point = stated("_Point(x=1, ...): the words")
    assert point is not None and matches(point, _Point(1, 2)) and not matches(point, _Point(2, 2))
    assert not matches(ast.parse("[1, 2]", mode="eval").body, (1, 2))
    begins = ast.parse("'MRV would ...'", mode="eval").body
    assert matches(begins, "MRV would choose NT") and not matches(begins, "LCV would try")
    with pytest.raises(AssertionError, match=r"gives 3, not 4"):
        run_block("1 + 2  # 4: the sum\n")


class _Point:
    def __init__(self, x: int, y: int):
        self.x, self.y = x, y


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_each_python_block_runs_and_says_what_it_prints(number: int) -> None:
    run_block(BLOCKS[number])


def test_the_blocks_state_values() -> None:
    """The examples keep stating what they print (the checks above are not empty)."""
    assert len(BLOCKS) >= 4
    checked = [line for block in BLOCKS for line in run_block(block)]
    assert {"result.stats", "result.trace.domains_at(4)"} <= set(checked)
    assert len(checked) >= 10


def test_every_extra_the_makefile_installs_is_in_the_readmes_table() -> None:
    """Issue 39: the Makefile installed the `browser` extra, which the README's table of
    extras did not name."""
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    named = {extra for extras in re.findall(r'^EXTRAS_\w+\s*:=\s*(\S+)$', makefile, re.M)
             for extra in extras.split(",")}
    named |= {extra for extras in re.findall(r'-e "\.\[([\w,$()]+)\]"', makefile)
              for extra in extras.split(",") if "$" not in extra}
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = readme.split("### What each install brings")[1].split("\n\n| extra |")[1]
    rows = [line for line in table.split("\n\n")[0].splitlines() if line.startswith("| `")]
    in_table = {name for row in rows for name in re.findall(r"`(\w+)`", row.split("|")[1])}
    assert {"notebooks", "lite"} <= named
    assert named <= in_table, named - in_table
