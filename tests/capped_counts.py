"""A pytest plugin: no notebook prints a capped count as if it were exact.

A count stopped at its limit (`count_solutions(limit=2)` finding 2, a search stopped at
`max_nodes`) is a lower bound. Whenever nbval runs a notebook cell (`pytest --nbval-lax`,
which `make test` runs over every notebook), this plugin reads what the cell printed: a
count ("2 solutions", "20,000 nodes") equal to a limit the cell's own code sets
(`limit=2`, `max_nodes=20_000`, `max_steps=`, `max_solutions=`, `budget=`) fails the cell,
unless its line says that it is a bound ("at least", "or more", "more than", "limit",
"stopped"). `csp_puzzles.teaching.counts.counted` writes such a line.

Loaded by the repository's conftest.py; `pytest -p tests.capped_counts` loads it elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

#: a limit set in code: `limit=2`, `max_nodes = 20_000` (not `LIMIT = 0.5`, seconds)
CAP = re.compile(r"\b(?:limit|max_nodes|max_steps|max_solutions|budget)\s*=\s*"
                 r"(\d[\d_]*)(?![\d_.])")
#: a count in printed text: a number (1,234 or 1234) and what it counts
COUNT = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)\s+"
                   r"(?:solutions?|solution\(s\)|nodes?|steps?|runs?|answers?|models?)\b")
#: words that say a count is a bound, not the number
BOUND = re.compile(r"at least|or more|more than|limit|stopped|≥|>=", re.IGNORECASE)


def caps(source: str) -> set[int]:
    """The limits a cell's code sets."""
    return {int(value.replace("_", "")) for value in CAP.findall(source)}


def capped_counts_printed(source: str, text: str) -> list[str]:
    """The lines of `text` (a cell's output) that print a count equal to a limit of
    `source` (the cell's code) without saying it is a bound."""
    limits = caps(source)
    return [line.strip() for line in text.splitlines()
            if not BOUND.search(line)
            and any(int(number.replace(",", "")) in limits for number in COUNT.findall(line))]


def output_text(outputs: Iterable[Mapping[str, Any]]) -> str:
    """What a cell printed or showed as text (streams, results, displays), from a kernel
    (strings) or from a stored notebook (lists of lines)."""
    parts = []
    for output in outputs:
        text = output.get("text", "") if output.get("output_type") == "stream" \
            else output.get("data", {}).get("text/plain", "")
        parts.append("".join(text) if isinstance(text, list) else str(text))
    return "\n".join(parts)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    result = yield
    cell, outputs = getattr(item, "cell", None), getattr(item, "test_outputs", None)
    if cell is not None and outputs is not None:
        found = capped_counts_printed(cell.source, output_text(outputs))
        if found:
            pytest.fail("a count that stopped at its limit is printed as exact: "
                        + " | ".join(found) + " (say it is a bound: 'at least N', as "
                        "csp_puzzles.teaching.counts.counted writes)", pytrace=False)
    return result
