"""One problem under several strategies: a solve per (inference, variable order), traced.

`compare(make_csp)` solves with `none`, `fc` and `mac` (input order) and with `fc` and `mac`
under MRV, recording a trace of each. The results are what `viz.Comparison` replays and
`viz.table` / `viz.node_chart` summarise; the pictures never run the solver themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import CSP, Result, solve

#: (inference, variable order) pairs compared by default
RUNS: tuple[tuple[str, str], ...] = (
    ("none", "input"), ("fc", "input"), ("mac", "input"), ("fc", "mrv"), ("mac", "mrv"),
)
#: the node budget of each run, so a hopeless strategy stops instead of running for hours
NODE_BUDGET = 200_000


@dataclass
class Run:
    """One strategy and what it did."""

    inference: str
    var_order: str
    result: Result
    look_back: str = "none"

    @property
    def label(self) -> str:
        looking = "" if self.look_back == "none" else f" + {self.look_back}"
        return f"{self.inference} / {self.var_order}{looking}"

    @property
    def nodes(self) -> int:
        return self.result.stats.nodes


def compare(make_csp: Callable[[], CSP] | CSP, runs: Sequence[tuple[str, ...]] = RUNS,
            val_order: str = "input", max_nodes: int | None = NODE_BUDGET,
            trace: bool = True) -> list[Run]:
    """Solve the problem once per (inference, variable order); a fresh CSP for each run.

    `make_csp` is a function building the problem (or a CSP, reused as is). A run may name a
    look-back as a third item: ("mac", "mrv", "learn").
    """
    done = []
    for inference, var_order, *looking in runs:
        look_back = looking[0] if looking else "none"
        csp = make_csp() if callable(make_csp) else make_csp
        result = solve(csp, inference=inference, var_order=var_order, val_order=val_order,
                       max_nodes=max_nodes, trace=trace, look_back=look_back)
        done.append(Run(inference, var_order, result, look_back))
    return done
