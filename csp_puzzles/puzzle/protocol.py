"""The one shape every puzzle has, so that learning one teaches all four.

A puzzle subpackage (`hashi`, `kakuro`, `towers`, `singles`) provides

- `model.py`: the puzzle class (a `Puzzle`: `Hashi`, `Kakuro`, `Towers`, `Singles`) with
  `to_csp()` and `decode()`, and the writers `to_text()` and `to_tatham()`;
- `rules.py`: its named deduction rules, as propagators on the core;
- `formats.py`: `parse(text)` for every accepted format (it imports the model; the model
  never imports it);
- `check.py`: an independent checker that never uses the solver;
- `picture.py`: `picture_of(puzzle)`, its picture as plain data (`csp_puzzles.puzzle.picture`),
  which the explorer draws in the browser and `viz.draw_puzzle` with matplotlib,
  `solution_domains(puzzle, solution)` and, for a kind the editor builds,
  `editor_cells(puzzle)`, `editor_options(height, width, row, col)` and `editor_text(cells)`:
  `Puzzle.picture()` and its other methods of the same names call them;
- `grade.py`: its levels, the rules of each as a rung of `puzzle.ladder()`, and
  `DIFFICULTIES` (also `puzzle.difficulties`); `grade(puzzle)` is `puzzle.grade()`, the
  weakest rules that solve it;
- `generate.py`: a generator of puzzles with exactly one solution, at a grade asked;

and its `__init__.py` exports `parse`, `generate`, `grade`, `DIFFICULTIES` and the puzzle
class. The command line and the notebooks only go through this interface.

Engines other than the core's search ("sat", "milp") live beside the model, in a module
named after the engine (`hashi/sat.py`, `towers/milp.py`), which exports
`solutions(puzzle, deadline, **rule_options)`: every solution, one at a time, raising
`LimitReached` past the deadline. `Puzzle.solve` and `Puzzle.count` run them all the same way.
"""

from __future__ import annotations

import inspect
import time
from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any, ClassVar

from ..core import CSP, Stats, Trace, count, solve
from ..core import ladder as ladders
from ..core.errors import LimitReached
from ..core.heuristics import ValueOrder, VariableOrder
from ..core.hints import Hint
from ..core.ladder import Rung
from ..core.options import check_count_limit, check_max_nodes, check_timeout
from ..core.search import LIMIT, SOLVED, UNSATISFIABLE, fewer_collections

__all__ = ["Puzzle", "PuzzleResult", "SOLVED", "UNSATISFIABLE", "LIMIT"]

#: the grade of a puzzle with more than one solution
AMBIGUOUS = "ambiguous"
#: search nodes the count behind a grade beyond the rules may take before giving up
GRADE_NODES = 200_000


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
    engine: str = "csp"  # another engine ("sat", "milp") fills in the seconds only

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def as_dict(self) -> dict[str, Any]:
        """Exactly the JSON object `csp-puzzles solve --json` prints."""
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
    #: chronological backtracking ("none"), backjumping ("cbj") or learning ("learn")
    default_look_back: ClassVar[str] = "none"
    #: keyword options of `to_csp` besides `counting` (the CLI checks flags against them)
    model_options: ClassVar[frozenset[str]] = frozenset()
    #: what can solve it: "csp" (the core's search) first and always, then the engines
    #: with a module of that name in the puzzle's package (see the module docstring)
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
        """The `solution` object of the JSON output (row and column count from 0)."""

    @abstractmethod
    def solution_to_text(self, solution: Any) -> str:
        """The solved grid as text for the terminal."""

    @abstractmethod
    def to_text(self) -> str:
        """The puzzle in the native text format (parse(to_text()) gives it back)."""

    # -- what its picture.py draws ----------------------------------------------------------
    def picture(self) -> dict[str, Any]:
        """The puzzle's picture as plain data (`csp_puzzles.puzzle.picture`): its fixed shapes, and
        for each variable of `to_csp()` where it sits and how its domain is shown."""
        return self._drawing().picture_of(self)

    def solution_domains(self, solution: Any) -> dict[Hashable, tuple[Any, ...]]:
        """A solution as one value per variable of `to_csp()`, to draw it as a search state."""
        return self._drawing().solution_domains(self, solution)

    @classmethod
    def _drawing(cls) -> ModuleType:
        """The kind's `picture.py`, beside its model (see the module docstring)."""
        return import_module(f"{cls.__module__.rpartition('.')[0]}.picture")

    # -- the editor: a grid of labels a click cycles through -------------------------------
    #: rows and columns of clues round the puzzle in the editor's grid (Towers: 1)
    editor_frame: ClassVar[int] = 0

    @classmethod
    def editable(cls) -> bool:
        """Whether the editor can build this kind of puzzle (its `picture.py` has the
        editor's functions)."""
        return hasattr(cls._drawing(), "editor_text")

    @classmethod
    def _editor(cls) -> ModuleType:
        if not cls.editable():
            raise ValueError(f"{cls.kind} puzzles cannot be edited cell by cell")
        return cls._drawing()

    def editor_cells(self) -> list[list[str]]:
        """The puzzle as the editor's grid of labels."""
        return self._editor().editor_cells(self)

    @classmethod
    def editor_options(cls, height: int, width: int, row: int, col: int) -> list[str]:
        """What a click cycles through at (row, col) of a `height` x `width` puzzle's editor
        grid (frame included); empty: a cell that cannot be edited."""
        return cls._editor().editor_options(height, width, row, col)

    @classmethod
    def editor_text(cls, cells: list[list[str]]) -> str:
        """The editor's grid of labels in the puzzle's native text format."""
        return cls._editor().editor_text(cells)

    def to_tatham(self) -> str:
        """The puzzle as a Tatham game ID (puzzles Tatham's collection does not have raise)."""
        raise ValueError(f"{self.kind} puzzles have no Tatham game ID format")

    def to_dimacs(self, three_sat: bool = False, **options: Any) -> str:
        """The puzzle as DIMACS CNF (puzzles without a SAT encoding raise ValueError)."""
        raise ValueError(f"{self.kind} puzzles have no CNF encoding")

    #: the grades `grade()` gives a uniquely solvable puzzle, easiest first
    difficulties: ClassVar[tuple[str, ...]] = ()

    def rules_csp(self, **options: Any) -> CSP:
        """The puzzle's rules as a player states them, one constraint a rule at a place
        (over the variables of `to_csp(**options)`): what `Session.broken` checks, each
        constraint saying in words how the board breaks it. By default the counting model
        (no rule that assumes a unique solution); a kind whose model holds deductions
        besides its rules gives its rules alone."""
        return self.to_csp(counting=True, **options)

    def ladder(self, **options: Any) -> list[Rung]:
        """The puzzle's rules as a ladder, easiest level first (`core.ladder`): what a
        person deduces without guessing. Grades and hints both read it. It takes the
        model's options (`model_options`), as `to_csp` does: each rung has the variables
        of `to_csp(**options)`, so a session on that model reads its hints. By default one
        rung, every rule of `to_csp(**options)`."""
        return [Rung("rules", self.to_csp(**options))]

    def grade(self) -> str:
        """How hard the puzzle is: the first rung of `ladder()` whose rules solve it without
        search (`core.ladder.grade`). When none does, a count of its solutions decides: the
        last of `difficulties` (the level beyond the rules) for one, `ambiguous` for more,
        `unsatisfiable` for none; `LimitReached` when that count needs more than
        `GRADE_NODES` nodes. A kind without difficulties raises ValueError, as for a format
        it lacks."""
        if not self.difficulties:
            raise ValueError(f"{self.kind} puzzles have no difficulty grades")
        found = ladders.grade(self.ladder())
        if found is not None:
            return found
        result = self.count(limit=2, max_nodes=GRADE_NODES)
        if result.unique is None:
            raise LimitReached(f"grading stopped after {GRADE_NODES} search nodes")
        if result.solutions == 0:
            return ladders.UNSATISFIABLE
        return self.difficulties[-1] if result.unique else AMBIGUOUS

    def explain(self, **model_options: Any) -> list[Hint]:
        """The whole solution as a sequence of hints from the start: those a `Session` on
        this puzzle gives, each applied before the next (`hint()`, then `apply()`), each
        with its cost and, when it supposes something, its zoom (`core.hints`). The
        sequence ends where the rules get stuck: beyond the ladder (a grade past its
        rungs) it leaves some variables open."""
        from .session import Session  # puzzle/session.py builds on this module

        session = Session(self, **model_options)
        hints = []
        while (hint := session.hint()) is not None:
            session.apply(hint)
            hints.append(hint)
        return hints

    def solved_by_rules(self, level: str) -> bool | None:
        """True if the rules of `level` (a rung of `ladder()`) alone decide every variable,
        False if they get stuck, None if they prove there is no solution."""
        return ladders.solved_by(self._rung(level))

    def deduce(self, level: str) -> dict[Hashable, tuple[Any, ...]] | None:
        """The domains left once the rules of `level` can deduce nothing more (no search);
        None when they find a contradiction."""
        state = ladders.fixpoint(self._rung(level))
        if state is None:
            return None
        return {var: tuple(state.values(var)) for var in state.csp.variables}

    def _rung(self, level: str) -> Rung:
        rungs = {rung.name: rung for rung in self.ladder()}
        if level not in rungs:
            raise ValueError(f"unknown {self.kind} level {level!r}, expected one of "
                             f"{', '.join(rungs)}")
        return rungs[level]

    def reject_options(self, options: dict[str, Any]) -> None:
        """Raise ValueError naming model options `to_csp` does not know."""
        if options:
            raise ValueError(f"unknown {self.kind} option(s): "
                             f"{', '.join(sorted(options))}")

    def check_model(self, model: str, models: tuple[str, ...]) -> None:
        """Raise ValueError when `model` is not one of the kind's `models`."""
        if model not in models:
            raise ValueError(f"unknown {self.kind} model {model!r}; expected one of "
                             f"{', '.join(models)}")

    def var_order_for(self, inference: str) -> str | VariableOrder:
        """The variable order `solve` and `count` use under `inference` when none is asked."""
        return self.default_var_order

    # -- what every puzzle shares ------------------------------------------------------------
    def solve(self, inference: str | None = None, var_order: str | VariableOrder | None = None,
              val_order: str | ValueOrder | None = None, timeout: float | None = None,
              max_nodes: int | None = None, trace: bool = False, engine: str = "csp",
              look_back: str | None = None, **model_options: Any) -> PuzzleResult:
        """Solve through the generic core; `result.solution` is in the puzzle's terms."""
        return self._search(False, None, engine, timeout, model_options, inference=inference,
                            var_order=var_order, val_order=val_order, max_nodes=max_nodes,
                            trace=trace, look_back=look_back)

    def count(self, limit: int = 2, inference: str | None = None,
              var_order: str | VariableOrder | None = None,
              val_order: str | ValueOrder | None = None, timeout: float | None = None,
              max_nodes: int | None = None, trace: bool = False, engine: str = "csp",
              look_back: str | None = None, **model_options: Any) -> PuzzleResult:
        """Count solutions up to `limit`; the result's status is `limit` if cut short."""
        check_count_limit(limit)
        return self._search(True, limit, engine, timeout, model_options, inference=inference,
                            var_order=var_order, val_order=val_order, max_nodes=max_nodes,
                            trace=trace, look_back=look_back)

    def _search(self, counting: bool, limit: int | None, engine: str, timeout: float | None,
                model_options: dict[str, Any], **searching: Any) -> PuzzleResult:
        """What `solve` and `count` (`counting`, up to `limit` solutions: None for all)
        share: the checks, then another engine, or the model and the core's search."""
        self._check_engine(engine)
        check_timeout(timeout)
        check_max_nodes(searching["max_nodes"])
        if engine != "csp":
            return self._run_engine(engine, counting, limit, timeout, searching, model_options)
        with fewer_collections():  # a model is many small objects too
            csp = self.to_csp(counting=counting, **model_options)
        options = self._search_options(searching)
        if not counting:
            result = solve(csp, timeout=timeout, **options)
            solution = self.decode(result.solution) if result.solution is not None else None
            return PuzzleResult(self.kind, result.status, solution, result.stats, result.trace,
                                self)
        counted = count(csp, limit=limit, keep=True, timeout=timeout, **options)
        first = self.decode(counted.solutions[0]) if counted.solutions else None
        if not counted.complete:
            status = LIMIT
        else:
            status = SOLVED if counted.count else UNSATISFIABLE
        return PuzzleResult(self.kind, status, first, counted.stats, counted.trace, self,
                            solutions=counted.count,
                            unique=(counted.count == 1) if counted.complete else None)

    def _search_options(self, searching: dict[str, Any]) -> dict[str, Any]:
        """The search options asked for, and this puzzle's defaults for those not asked."""
        inference = searching["inference"] or self.default_inference
        return {**searching, "inference": inference,
                "var_order": searching["var_order"] or self.var_order_for(inference),
                "val_order": searching["val_order"] or self.default_val_order,
                "look_back": searching["look_back"] or self.default_look_back}

    def _check_engine(self, engine: str) -> None:
        if engine not in self.engines:
            raise ValueError(f"unknown engine {engine!r} for {self.kind}; expected one of "
                             f"{', '.join(self.engines)}")

    def _run_engine(self, engine: str, counting: bool, limit: int | None,
                    timeout: float | None, searching: dict[str, Any],
                    model_options: dict[str, Any]) -> PuzzleResult:
        """Solve, or count (`counting`, up to `limit`: None for all), with the `solutions`
        of an engine's module.

        Such an engine has no search options and no trace, and counts no nodes: its
        statistics hold the seconds only. The options it takes are its function's keywords
        (Hashi's `adjacent`, say), never the CSP model's variants.
        """
        package = type(self).__module__.rpartition(".")[0]
        solutions = import_module(f"{package}.{engine}").solutions
        takes = set(inspect.signature(solutions).parameters) - {"puzzle", "deadline"}
        asked = [name for name, value in searching.items() if value]
        asked += sorted(set(model_options) - takes)
        if asked:
            raise ValueError(f"the {engine.upper()} engine takes only a timeout, "
                             f"not {', '.join(asked)}")
        start = time.perf_counter()
        deadline = None if timeout is None else start + timeout
        found: list[Any] = []
        status = UNSATISFIABLE
        try:
            for solution in solutions(self, deadline=deadline, **model_options):
                found.append(solution)
                if not counting or limit is not None and len(found) >= limit:
                    break
            if found:
                status = SOLVED
        except LimitReached:
            status = LIMIT
        stats = Stats(seconds=time.perf_counter() - start)
        first = found[0] if found else None
        if not counting:
            return PuzzleResult(self.kind, status, first, stats, None, self, engine=engine)
        complete = status != LIMIT
        return PuzzleResult(self.kind, status, first, stats, None, self, solutions=len(found),
                            unique=(len(found) == 1) if complete else None, engine=engine)

    def count_solutions(self, limit: int = 2, **options: Any) -> int:
        """0, 1 or up to `limit`: unsatisfiable, unique, ambiguous.

        Raises `LimitReached` if a node or time limit stopped the count first.
        """
        result = self.count(limit=limit, **options)
        if result.status == LIMIT or result.solutions is None:
            raise LimitReached(f"{self.kind}: limit reached after {result.solutions} solution(s)")
        return result.solutions
