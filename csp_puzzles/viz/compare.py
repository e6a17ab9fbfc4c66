"""Several runs of one problem side by side, each run's search replayed.

The runs come from `csp_puzzles.core.strategies.compare` (or any list of `Run`s with traces);
`Comparison` is the explorer over all of them, each run's search tree drawn small so BT /
FC / MAC differ at a glance, one replayed in full (`charts.table` and `charts.node_chart`
summarise them without a widget).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.strategies import Run
from .stepper import Draw, Explorer


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
