"""Progress counters, timing and plain-text tables shared by the benchmarks."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any


class Progress:
    """A one-line counter on stderr: `label  12/40`, rewritten in place."""

    def __init__(self, label: str, total: int, stream: IO[str] | None = None):
        # sys.stderr is looked up now, not when the module was imported: it may be replaced
        self.label, self.total, self.done = label, total, 0
        self.stream = stream if stream is not None else sys.stderr
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


def performance_profile(path: str, panels: dict[str, dict[str, list[float | None]]],
                        limit: float, title: str) -> None:
    """Save a performance profile: per panel, instances solved within t seconds, per method.

    `panels[panel][method]` lists one time per instance, None for an unsolved one. The
    higher and further left a curve, the better; a curve that stops short of the top left
    instances unsolved within `limit`.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 3.4), squeeze=False,
                             sharey=False)
    for ax, (panel, methods) in zip(axes[0], panels.items()):
        for method, times in methods.items():
            solved = sorted(t for t in times if t is not None)
            ax.step([0.0, *solved, limit], [0, *range(1, len(solved) + 1), len(solved)],
                    where="post", label=method)
        total = max(len(times) for times in methods.values())
        ax.axhline(total, color="grey", lw=0.5, ls=":")
        ax.set_xscale("log")
        ax.set_xlim(1e-3, limit)
        ax.yaxis.get_major_locator().set_params(integer=True)
        ax.set_title(panel)
        ax.set_xlabel("seconds")
    axes[0][0].set_ylabel("instances solved")
    axes[0][0].legend(loc="lower right", fontsize="small")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
