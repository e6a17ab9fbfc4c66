"""PicoSAT through `pycosat`, the SAT engine's former solver, kept as a benchmark peer.

`pycosat` is optional (a source archive only on the package index: it needs a C
compiler). It is not incremental: every call solves all the clauses again from scratch,
so in the lazy cut loop each round starts over. `PicoSat` has the methods of
`hashi.sat.SatBackend`, so `solve(engine="sat", solver=PicoSat)` runs the very loop the
engine runs, with PicoSAT underneath.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

from ..core.errors import LimitReached

#: propagations allowed to the first call under a time limit (tens of milliseconds)
FIRST_PROPAGATIONS = 1_000_000


def pycosat_available() -> bool:
    try:
        import pycosat  # noqa: F401
    except ImportError:
        return False
    return True


class PicoSat:
    """PicoSAT on a growing list of clauses; limits through propagation budgets."""

    def __init__(self, clauses: Iterable[Sequence[int]]) -> None:
        import pycosat

        self.pycosat = pycosat
        self.clauses = [list(clause) for clause in clauses]

    def add_clause(self, clause: Sequence[int]) -> None:
        self.clauses.append(list(clause))

    def solve(self, deadline: float | None) -> list[int] | None:
        if deadline is None:
            return self._answer(self.pycosat.solve(self.clauses))
        budget = FIRST_PROPAGATIONS
        while True:
            start = time.perf_counter()
            if start >= deadline:
                raise LimitReached("SAT solver: time limit reached")
            answer = self.pycosat.solve(self.clauses, prop_limit=budget)
            if answer != "UNKNOWN":
                return self._answer(answer)
            now = time.perf_counter()
            per_second = budget / max(now - start, 1e-6)
            budget = int(min(4 * budget, per_second * (deadline - now)))
            if budget < 1:
                raise LimitReached("SAT solver: time limit reached")

    @staticmethod
    def _answer(answer: list[int] | str) -> list[int] | None:
        return answer if isinstance(answer, list) else None  # "UNSAT"

    def close(self) -> None:
        self.clauses = []
