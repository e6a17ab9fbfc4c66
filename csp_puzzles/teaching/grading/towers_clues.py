"""Exercise 7 (notebook 05): a clue propagator for one line of Towers.

The student writes `ClueFilter(cells, size, front, back)`: keep a height in a cell only when
some ordering of the line (a permutation of 1..size, each cell's height from its candidates)
shows `front` towers from the front and `back` from the back (0: no clue). The checks
compare the heights left with the library's `towers.rules.line_supports`, which walks the
line cell by cell without listing permutations, on random lines; then the plain Towers
model gets a `ClueFilter` per clued line and solves generated puzzles, each answer checked
by the puzzle's own checker.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ... import towers
from ...core import CSP, AllDifferent, Constraint, Contradiction
from ...towers.rules import line_supports, visible
from . import (
    CSP_DATA,
    STATE,
    compare_line,
    draw,
    fail,
    line_state,
    own_work,
    solved_with,
    unwatched,
    values_text,
)

MakeClue = Callable[[Sequence[Hashable], int, int, int], Constraint]
#: nodes a puzzle may take with ClueFilter: the drawn puzzles need a handful at most
NODE_LIMIT = 100
#: the watch's words and patterns: what the student's code may call in csp_puzzles
OWN = ("the clue filter", "the state's methods", *CSP_DATA, *STATE, "towers.rules:visible")


def library_supports(size: int, front: int, back: int,
                     domains: list[set[int]]) -> list[set[int]] | None:
    masks = [sum(1 << h for h in d) for d in domains]
    supports = line_supports(size, front, back, masks)
    if supports is None:
        return None
    return [{h for h in range(1, size + 1) if mask >> h & 1} for mask in supports]


def _line_words(size: int, front: int, back: int, domains: list[set[int]]) -> str:
    clues = " and ".join(words for words in (f"front clue {front}" if front else "",
                                             f"back clue {back}" if back else "") if words)
    cells = ", ".join(values_text(d) for d in domains)
    return f"a line of {size} with {clues or 'no clue'} and candidates {cells}"


def verify_line(make: MakeClue, size: int, front: int, back: int,
                domains: list[set[int]]) -> None:
    __tracebackhide__ = True
    cells, state = line_state(domains)
    expected = library_supports(size, front, back, domains)
    where = _line_words(size, front, back, domains)
    try:
        make(cells, size, front, back).propagate(state)
    except Contradiction:
        if expected is not None:
            fail(f"ClueFilter failed on {where}, but some ordering fits it")
        return
    if expected is None:
        fail(f"ClueFilter did not fail on {where}, but no ordering of the line fits "
             f"its candidates and clues")
    compare_line("ClueFilter", where, state, cells, expected, "ordering that shows the clues")


def _random_line(rng: Any, both: bool) -> tuple[int, int, int, list[set[int]]]:
    """A line drawn around a real ordering: its clues, its heights among the candidates."""
    size = rng.randint(3, 6)
    order = rng.sample(range(1, size + 1), size)
    front = visible(order)
    back = visible(order[::-1]) if both else 0
    if both and rng.random() < 0.3:
        front = 0
    if rng.random() < 0.1:
        front = rng.randint(1, size)
    domains = []
    for height in order:
        domain = {h for h in range(1, size + 1) if rng.random() < 0.6} | {height}
        if rng.random() < 0.05:
            domain.discard(height)
        domains.append(domain or {height})
    return size, front, back, domains


@own_work(*OWN)
def check_front_clues(make: MakeClue, seed: Any = None, trials: int = 60) -> None:
    """Lines with a clue at the front only."""
    __tracebackhide__ = True
    verify_line(make, 4, 4, 0, [set(range(1, 5))] * 4)
    verify_line(make, 4, 1, 0, [set(range(1, 5))] * 4)
    verify_line(make, 5, 2, 0, [{1, 2, 3, 4, 5}, {5}, {1, 2, 3}, {1, 2, 3, 4}, {1, 4}])
    rng = draw("towers front clues", seed)
    for _ in range(trials):
        verify_line(make, *_random_line(rng, both=False))


@own_work(*OWN)
def check_both_clues(make: MakeClue, seed: Any = None, trials: int = 60) -> None:
    """Lines with clues at both ends (or at the back only)."""
    __tracebackhide__ = True
    verify_line(make, 4, 2, 2, [set(range(1, 5))] * 4)
    verify_line(make, 4, 0, 1, [set(range(1, 5))] * 4)
    rng = draw("towers both clues", seed)
    for _ in range(trials):
        verify_line(make, *_random_line(rng, both=True))


def clue_model(puzzle: towers.Towers, make: MakeClue) -> CSP:
    """Cells, all-different lines, and one `make(cells, size, front, back)` per clued line."""
    n = puzzle.size
    csp = CSP(f"towers {n}x{n}, your clues")
    givens = puzzle.given_cells()
    for r in range(n):
        for c in range(n):
            csp.add_variable((r, c), [givens[r, c]] if (r, c) in givens else range(1, n + 1))
    for line in puzzle.lines():
        csp.add_constraint(AllDifferent(line.cells, f"{line.label} all different"))
        if line.has_clue:
            csp.add_constraint(make(line.cells, n, line.front, line.back))
    return csp


def verify_puzzle(make: MakeClue, puzzle: towers.Towers, where: str) -> None:
    __tracebackhide__ = True
    solved_with("ClueFilter", clue_model(puzzle, make), puzzle, where, NODE_LIMIT,
                "with every clue's orderings filtered it needs a handful at most")


@own_work(*OWN)
def check_puzzles(make: MakeClue, seed: Any = None, trials: int = 4) -> None:
    """Generated 4x4 and 5x5 puzzles, solved with ClueFilter on every clued line."""
    __tracebackhide__ = True
    rng = draw("towers puzzles", seed)
    for number in range(1, trials + 1):
        with unwatched():
            puzzle = towers.generate(size=rng.choice((4, 5)), difficulty="hard",
                                     seed=rng.randrange(10**6))
        verify_puzzle(make, puzzle, f"generated puzzle {number} ({puzzle.to_tatham()})")
