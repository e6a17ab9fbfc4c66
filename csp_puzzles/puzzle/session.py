"""Sessions on puzzles: the core's `Session` with the puzzle's rules, orders and words.

`Session(puzzle)` drives the puzzle's own CSP (`to_csp()`) with its inference and orders;
its hints climb the puzzle's ladder of rules (`Puzzle.ladder()`), its sentences name
variables and values as the puzzle's picture does ("edge (2,0)-(2,5)", "2 bridges"), and
`mistakes` compares the decisions with the one solution of `to_csp(counting=True)`, and
`broken` checks the decisions against the puzzle's rules as a player states them
(`rules_csp()`), each broken one said in the puzzle's words.
`Session(csp, inference="fc")` is the core's session on a CSP of your own.
"""

from __future__ import annotations

from typing import Any

from ..core import CSP
from ..core.hints import Words
from ..core.session import Session as CoreSession
from .picture import key
from .protocol import Puzzle

__all__ = ["Session", "puzzle_words"]


class Session(CoreSession):
    """A search the student drives, on a CSP or on a puzzle (see `core.session`)."""

    def __init__(self, problem: CSP | Puzzle, inference: str | None = None,
                 after_move: str | None = None, **model_options: Any):
        self.puzzle: Puzzle | None = None
        if isinstance(problem, CSP):
            if model_options:
                raise ValueError(f"model options ({', '.join(sorted(model_options))}) are "
                                 "for puzzles; a CSP is its own model")
            super().__init__(problem, inference or "fc", after_move=after_move)
            return
        if not isinstance(problem, Puzzle):
            raise TypeError(f"a Session needs a CSP or a puzzle, not {type(problem).__name__}")
        inference = inference or problem.default_inference
        super().__init__(problem.to_csp(**model_options), inference,
                         problem.ladder(**model_options),
                         puzzle_words(problem),
                         reference=lambda: problem.to_csp(counting=True, **model_options),
                         rules=lambda: problem.rules_csp(**model_options),
                         after_move=after_move,
                         var_order=problem.var_order_for(inference),
                         val_order=problem.default_val_order)
        self.puzzle = problem


def puzzle_words(puzzle: Puzzle) -> Words:
    """Variables and values named as the puzzle's picture names them."""
    picture = puzzle.picture()
    names = {entry["var"]: entry["name"] for entry in picture["variables"] if "name" in entry}
    values = picture.get("value_words") or {}
    return Words(name=lambda var: names.get(key(var), key(var)),
                 value=lambda x: values.get(key(x), key(x)), verb=picture.get("verb"))
