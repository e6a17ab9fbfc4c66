"""The one shape every puzzle has, so that learning one teaches all four.

A puzzle subpackage (`hashi`, `kakuro`, `towers`, `singles`) provides

- `model.py`: the puzzle class (a `Puzzle`) with `to_csp()` and `decode()`;
- `rules.py`: its named deduction rules, as propagators on the core;
- `formats.py`: `parse(text)` for every accepted format, and writers back;
- `check.py`: an independent checker that never uses the solver;
- `render.py`: a matplotlib drawing of any state (a solution or a trace's domains);
- `generate.py`: a generator of puzzles with exactly one solution;

and its `__init__.py` exports `parse`, `generate`, `grade` (where the puzzle grades by
rules), `DIFFICULTIES` and the puzzle class. The command line and the notebooks only go
through this interface.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, ClassVar

from .core import CSP, Stats, Trace, count, solve
from .core.heuristics import ValueOrder, VariableOrder
from .core.search import LIMIT, SOLVED, UNSATISFIABLE
from .errors import LimitReached

__all__ = ["Puzzle", "PuzzleResult", "SOLVED", "UNSATISFIABLE", "LIMIT"]


@dataclass
class PuzzleResult:
    """A puzzle's answer: status, the solution in the puzzle's own terms, stats, trace."""

    kind: str
    status: str
    solution: Any
    stats: Stats
    trace: Trace | None = None
    puzzle: Puzzle | None = None
    solutions: int | None = None  # set by counting
    unique: bool | None = None
    engine: str = "csp"  # "sat": Hashi's SAT back end, whose stats hold the seconds only

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def as_dict(self) -> dict[str, Any]:
        """Exactly the JSON object of `csp-puzzles solve --json` (CONTRACT.md section 2)."""
        solution = None
        if self.solution is not None and self.puzzle is not None:
            solution = self.puzzle.solution_to_json(self.solution)
        return {
            "kind": self.kind,
            "status": self.status,
            "solution": solution,
            "solutions": self.solutions,
            "unique": self.unique,
            "stats": {
                "nodes": self.stats.nodes,
                "backtracks": self.stats.backtracks,
                "seconds": round(self.stats.seconds, 6),
            },
        }


class Puzzle(ABC):
    """A puzzle instance: turns itself into a CSP, reads solutions back, checks, draws."""

    kind: ClassVar[str]
    #: the inference `solve` uses when none is asked for (the strongest the model has)
    default_inference: ClassVar[str] = "mac"
    #: the variable order under any inference, unless `var_order_for` says otherwise
    default_var_order: ClassVar[str] = "mrv"
    default_val_order: ClassVar[str] = "input"
    #: keyword options of `to_csp` besides `counting` (the CLI checks flags against them)
    model_options: ClassVar[frozenset[str]] = frozenset()
    #: what can solve it: "csp" (the core's search) always; Hashi also has "sat"
    engines: ClassVar[tuple[str, ...]] = ("csp",)

    # -- what each puzzle writes -------------------------------------------------------------
    @abstractmethod
    def to_csp(self, counting: bool = False, **options: Any) -> CSP:
        """The CSP the solver runs on (options select model variants; unknown ones raise
        ValueError). `counting=True` leaves out rules that assume the solution is unique."""

    @abstractmethod
    def decode(self, assignment: dict[Hashable, Any]) -> Any:
        """A CSP solution in the puzzle's own terms (bridges, a grid, shaded cells)."""

    @abstractmethod
    def check(self, solution: Any) -> list[str]:
        """Human-readable violations of the rules by `solution` (empty when it is valid).

        Independent of the solver: it reads only the puzzle and the solution.
        """

    @abstractmethod
    def solution_to_json(self, solution: Any) -> dict[str, Any]:
        """The `solution` object of the JSON output (CONTRACT.md section 2)."""

    @abstractmethod
    def solution_to_text(self, solution: Any) -> str:
        """The solved grid as text for the terminal."""

    @abstractmethod
    def to_text(self) -> str:
        """The puzzle in the native text format (parse(to_text()) gives it back)."""

    @abstractmethod
    def render(self, ax: Any, solution: Any = None, domains: dict | None = None) -> None:
        """Draw the puzzle on a matplotlib `ax`: empty, solved, or at a trace state."""

    def to_tatham(self) -> str:
        """The puzzle as a Tatham game ID (puzzles Tatham's collection does not have raise)."""
        raise ValueError(f"{self.kind} puzzles have no Tatham game ID format")

    def to_dimacs(self, three_sat: bool = False, **options: Any) -> str:
        """The puzzle as DIMACS CNF (puzzles without a SAT encoding raise ValueError)."""
        raise ValueError(f"{self.kind} puzzles have no CNF encoding")

    def reject_options(self, options: dict[str, Any]) -> None:
        """Raise ValueError naming model options `to_csp` does not know."""
        if options:
            raise ValueError(f"unknown {self.kind} option(s): "
                             f"{', '.join(sorted(options))}")

    def var_order_for(self, inference: str) -> str | VariableOrder:
        """The variable order `solve` and `count` use under `inference` when none is asked."""
        return self.default_var_order

    def domains_to_solution(self, domains: dict[Hashable, Any]) -> Any:
        """Decode a trace state whose domains are all single values."""
        return self.decode({v: d[0] for v, d in domains.items() if len(d) == 1})

    # -- what every puzzle shares ------------------------------------------------------------
    def solve(self, inference: str | None = None, var_order: str | VariableOrder | None = None,
              val_order: str | ValueOrder | None = None, timeout: float | None = None,
              max_nodes: int | None = None, trace: bool = False, engine: str = "csp",
              **model_options: Any) -> PuzzleResult:
        """Solve through the generic core; `result.solution` is in the puzzle's terms."""
        self._check_engine(engine)
        csp = self.to_csp(**model_options)
        inference = inference or self.default_inference
        result = solve(csp, inference=inference,
                       var_order=var_order or self.var_order_for(inference),
                       val_order=val_order or self.default_val_order,
                       timeout=timeout, max_nodes=max_nodes, trace=trace)
        solution = self.decode(result.solution) if result.solution is not None else None
        return PuzzleResult(self.kind, result.status, solution, result.stats, result.trace, self)

    def count(self, limit: int = 2, inference: str | None = None,
              var_order: str | VariableOrder | None = None,
              val_order: str | ValueOrder | None = None, timeout: float | None = None,
              max_nodes: int | None = None, trace: bool = False, engine: str = "csp",
              **model_options: Any) -> PuzzleResult:
        """Count solutions up to `limit`; the result's status is `limit` if cut short."""
        self._check_engine(engine)
        csp = self.to_csp(counting=True, **model_options)
        inference = inference or self.default_inference
        counted = count(csp, limit=limit, keep=True, inference=inference,
                        var_order=var_order or self.var_order_for(inference),
                        val_order=val_order or self.default_val_order,
                        timeout=timeout, max_nodes=max_nodes, trace=trace)
        first = self.decode(counted.solutions[0]) if counted.solutions else None
        if not counted.complete:
            status = LIMIT
        else:
            status = SOLVED if counted.count else UNSATISFIABLE
        return PuzzleResult(self.kind, status, first, counted.stats, counted.trace, self,
                            solutions=counted.count,
                            unique=(counted.count == 1) if counted.complete else None)

    def _check_engine(self, engine: str) -> None:
        if engine not in self.engines:
            raise ValueError(f"unknown engine {engine!r} for {self.kind}; expected one of "
                             f"{', '.join(self.engines)}")

    def count_solutions(self, limit: int = 2, **options: Any) -> int:
        """0, 1 or up to `limit`: unsatisfiable, unique, ambiguous.

        Raises `LimitReached` if a node or time limit stopped the count first.
        """
        result = self.count(limit=limit, **options)
        if result.status == LIMIT or result.solutions is None:
            raise LimitReached(f"{self.kind}: limit reached after {result.solutions} solution(s)")
        return result.solutions
