"""The same problem under several strategies: node counts side by side, each run replayable.

`compare(make_csp)` solves with `none`, `fc` and `mac` (input order) and with `fc` and `mac`
under MRV, recording a trace of each; `node_chart` draws the node counts as bars, and
`Comparison` is the widget: the chart, a choice of run, and a `Stepper` on the chosen run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import ipywidgets as widgets
from matplotlib.axes import Axes

from ..core import CSP, Result, solve
from .output import draw_png, show_png
from .stepper import Draw, Stepper

#: (inference, variable order) pairs compared by default
RUNS: tuple[tuple[str, str], ...] = (
    ("none", "input"), ("fc", "input"), ("mac", "input"), ("fc", "mrv"), ("mac", "mrv"),
)


@dataclass
class Run:
    """One strategy and what it did."""

    inference: str
    var_order: str
    result: Result

    @property
    def label(self) -> str:
        return f"{self.inference} / {self.var_order}"

    @property
    def nodes(self) -> int:
        return self.result.stats.nodes


def compare(make_csp: Callable[[], CSP] | CSP, runs: Sequence[tuple[str, str]] = RUNS,
            val_order: str = "input", max_nodes: int | None = 200_000,
            trace: bool = True) -> list[Run]:
    """Solve the problem once per (inference, variable order); a fresh CSP for each run.

    `make_csp` is a function building the problem (or a CSP, reused as is).
    """
    done = []
    for inference, var_order in runs:
        csp = make_csp() if callable(make_csp) else make_csp
        result = solve(csp, inference=inference, var_order=var_order, val_order=val_order,
                       max_nodes=max_nodes, trace=trace)
        done.append(Run(inference, var_order, result))
    return done


def table(runs: Sequence[Run]) -> str:
    """A plain-text table of the runs (no timings, so it reads the same every time)."""
    lines = [f"{'strategy':<14}{'status':<15}{'nodes':>8}{'backtracks':>12}{'prunings':>10}"]
    for run in runs:
        stats = run.result.stats
        lines.append(f"{run.label:<14}{run.result.status:<15}{stats.nodes:>8}"
                     f"{stats.backtracks:>12}{stats.prunings:>10}")
    return "\n".join(lines)


def node_chart(ax: Axes, runs: Sequence[Run], log: bool = False) -> None:
    """Bars of node counts, one per run, with the count written on each bar."""
    labels = [run.label for run in runs]
    nodes = [run.nodes for run in runs]
    colours = {"none": "#c0504d", "fc": "#f79646", "mac": "#4f81bd"}
    bars = ax.bar(range(len(runs)), nodes, color=[colours.get(r.inference, "grey") for r in runs])
    for bar, count in zip(bars, nodes):
        ax.annotate(str(count), (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                    ha="center", va="bottom", fontsize=9)
    ax.set_xticks(range(len(runs)), labels, rotation=20)
    ax.set_ylabel("nodes (assignments tried)")
    if log:
        ax.set_yscale("log")
    ax.margins(y=0.15)


class Comparison(widgets.VBox):
    """The node chart, a choice of strategy, and a stepper replaying the chosen run."""

    def __init__(self, make_csp: Callable[[], CSP] | CSP, draw: Draw,
                 runs: Sequence[tuple[str, str]] = RUNS, log: bool = False, **stepper_options):
        super().__init__()
        self.runs = compare(make_csp, runs)
        self.draw = draw
        self.stepper_options = stepper_options
        self.chart = widgets.Output()
        self.chart.add_class("csp-compare-chart")
        show_png(self.chart, draw_png(lambda ax: node_chart(ax, self.runs, log), (5.5, 3)))
        self.choice = widgets.ToggleButtons(
            options=[(run.label, i) for i, run in enumerate(self.runs)], value=0,
            description="replay", style={"button_width": "8.5em"})
        self.holder = widgets.VBox()
        self._steppers: dict[int, Stepper] = {}
        self.choice.observe(lambda change: self._select(change["new"]), names="value")
        self.children = [self.chart, self.choice, self.holder]
        self._select(0)

    @property
    def stepper(self) -> Stepper:
        """The stepper of the run being replayed."""
        return self._steppers[self.choice.value]

    def _select(self, index: int) -> None:
        if index not in self._steppers:
            run = self.runs[index]
            self._steppers[index] = Stepper(run.result.trace, self.draw, title=run.label,
                                            **self.stepper_options)
        self.holder.children = [self._steppers[index]]
