"""Several runs of one problem side by side: node counts, and each run's search replayed.

The runs come from `csp_puzzles.strategies.compare` (or any list of `Run`s with traces):
`table` and `node_chart` summarise them, and `Comparison` is the explorer over all of them,
each run's search tree drawn small so BT / FC / MAC differ at a glance, one replayed in full.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import picture as pic
from ..strategies import Run
from .charts import bar_chart
from .stepper import Draw, Explorer

#: bar colours of the node chart, by inference
INFERENCE_COLOURS = {"none": "#c0504d", "fc": "#f79646", "mac": "#4f81bd"}


def table(runs: Sequence[Run]) -> str:
    """A plain-text table of the runs (no timings, so it reads the same every time)."""
    lines = [f"{'strategy':<14}{'status':<15}{'nodes':>8}{'backtracks':>12}{'prunings':>10}"]
    for run in runs:
        stats = run.result.stats
        lines.append(f"{run.label:<14}{run.result.status:<15}{stats.nodes:>8}"
                     f"{stats.backtracks:>12}{stats.prunings:>10}")
    return "\n".join(lines)


def node_chart(runs: Sequence[Run], log: bool = False) -> pic.Picture:
    """Bars of node counts, one per run, coloured by inference, with the count written on
    each bar (a picture description: show it, or draw it as a PNG)."""
    return bar_chart([run.label for run in runs], [run.nodes for run in runs],
                     [INFERENCE_COLOURS.get(run.inference, "grey") for run in runs],
                     scale="log" if log else "linear", ylabel="nodes (assignments tried)")


class Comparison(Explorer):
    """Every run's node count and search tree; a click on a run replays it.

    `runs` are traced `Run`s (`compare(make_csp)`); `draw` is the view of the problem.
    """

    def __init__(self, runs: Sequence[Run], draw: Draw, **options: Any):
        if not runs or callable(runs):
            raise TypeError("Comparison needs the runs: Comparison(compare(make_csp), view)")
        self.runs = list(runs)
        traces = [(run.label, run.result.trace, run.nodes) for run in self.runs]
        missing = [label for label, trace, _ in traces if trace is None]
        if missing:
            raise TypeError(f"runs without a trace: {', '.join(missing)}; "
                            "compare(..., trace=True) records them")
        super().__init__([(label, trace, nodes) for label, trace, nodes in traces
                          if trace is not None], draw, **options)

    @property
    def stepper(self) -> Comparison:
        """The explorer itself (it replays the chosen run, `self.run`)."""
        return self
