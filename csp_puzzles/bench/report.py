"""Progress counters, timing and plain-text tables shared by the benchmarks."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any


class Progress:
    """A one-line counter on stderr: `label  12/40`, rewritten in place."""

    def __init__(self, label: str, total: int, stream=sys.stderr):
        self.label, self.total, self.done, self.stream = label, total, 0, stream
        self._last = 0.0

    def step(self, note: str = "") -> None:
        self.done += 1
        now = time.perf_counter()
        if now - self._last > 0.2 or self.done == self.total:
            self._last = now
            end = "\n" if self.done == self.total else ""
            self.stream.write(f"\r{self.label}  {self.done}/{self.total} {note:<30}{end}")
            self.stream.flush()


def timed(function: Callable[[], Any]) -> tuple[Any, float]:
    """Run `function` once; return its value and the seconds it took."""
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A plain text table with right-aligned numbers."""
    cells = [[_fmt(x) for x in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    line = "  ".join(h.rjust(w) for h, w in zip(headers, widths))
    rule = "  ".join("-" * w for w in widths)
    body = ["  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in cells]
    return "\n".join([line, rule, *body])


def _fmt(x: Any) -> str:
    if isinstance(x, float):
        if x != x:
            return "-"
        if abs(x) >= 100:
            return f"{x:.0f}"
        if abs(x) >= 1:
            return f"{x:.2f}"
        return f"{x:.4f}"
    return str(x)
