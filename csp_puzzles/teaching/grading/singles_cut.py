"""Exercise 8 (notebook 06): Singles' connectivity rule, the cut rule.

The student writes `cut_cells(open_cells)` (the cells whose removal splits a connected set
of cells) and `ConnectedRule`, a constraint over a grid that fails when the cells not shaded
fall apart and keeps unshaded every undecided cell whose shading would split them. The
library's `singles.connectivity.Connected` does the same by another road (walls of shaded
cells in a union-find, never a search of the open cells), so each answer on a random grid
is compared with it; then puzzles are solved and counted with the student's rule in place
of the library's.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from ... import singles
from ...core import CSP, Constraint, Contradiction, SearchState, count
from ...core.trace import show
from ...singles.connectivity import Connected
from ...singles.rules import SHADED, UNSHADED
from . import CSP_DATA, STATE, draw, fail, listed, own_work, search_with, solved_with, unwatched

Cell = tuple[int, int]
CutCells = Callable[[set[Cell]], Iterable[Cell]]
MakeRule = Callable[[int, int], Constraint]
#: nodes a puzzle may take (solving, then counting) with the student's rule; the drawn
#: puzzles need a few dozen at most
NODE_LIMIT = 500
#: the watch's words and patterns: what the student's code may call in csp_puzzles
OWN = ("the cut rule", "the state's methods", *CSP_DATA, *STATE)


def _cells(cells: Iterable[Hashable]) -> str:
    return "{" + ", ".join(map(show, sorted(cells, key=str))) + "}"


def _grid(height: int, width: int, shaded: set[Cell], undecided: set[Cell]) -> str:
    """The state as rows of `#` shaded, `?` undecided, `.` unshaded."""
    rows = ["".join("#" if (r, c) in shaded else "?" if (r, c) in undecided else "."
                    for c in range(width)) for r in range(height)]
    return " / ".join(rows)


def _state(height: int, width: int, shaded: set[Cell], undecided: set[Cell]) -> SearchState:
    csp = CSP("grid")
    for r in range(height):
        for c in range(width):
            cell = (r, c)
            csp.add_variable(cell, [SHADED] if cell in shaded else
                             [UNSHADED, SHADED] if cell in undecided else [UNSHADED])
    return SearchState(csp)


def library_rule(height: int, width: int, shaded: set[Cell],
                 undecided: set[Cell]) -> set[Cell] | None:
    """The undecided cells the library's rule keeps unshaded; None when it fails."""
    state = _state(height, width, shaded, undecided)
    try:
        Connected(height, width).propagate(state)
    except Contradiction:
        return None
    return {cell for cell in undecided if SHADED not in state.domains[cell]}


def _random_shading(rng: Any, height: int, width: int, connected: bool) -> set[Cell]:
    """Shaded cells, no two touching; with `connected`, never splitting the others."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    shaded: set[Cell] = set()
    for cell in rng.sample(cells, len(cells)):
        if rng.random() < 0.35 and not any(_touch(cell, other) for other in shaded):
            if not connected or library_rule(height, width, shaded | {cell}, set()) is not None:
                shaded.add(cell)
    return shaded


def _touch(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def verify_cut_cells(cut_cells: CutCells, height: int, width: int, shaded: set[Cell]) -> None:
    __tracebackhide__ = True
    open_cells = {(r, c) for r in range(height) for c in range(width)} - shaded
    mine = set(listed(cut_cells(set(open_cells)), "cut_cells"))
    expected = library_rule(height, width, shaded, open_cells)
    assert expected is not None  # the shading is drawn so that the open cells hang together
    where = f"the open cells of {_grid(height, width, shaded, set())} (# shaded)"
    if mine - open_cells:
        fail(f"for {where}, cut_cells returned {_cells(mine - open_cells)}, which "
             f"are not open cells")
    if mine - expected:
        fail(f"for {where}, cut_cells says {_cells(mine - expected)} would split "
             f"them, but the others stay connected without it")
    if expected - mine:
        fail(f"for {where}, cut_cells missed {_cells(expected - mine)}: without it "
             f"the open cells fall apart")


@own_work(*OWN)
def check_cut_cells(cut_cells: CutCells, seed: Any = None, trials: int = 40) -> None:
    """A corridor, notebook 06's corner, then `trials` random grids."""
    __tracebackhide__ = True
    verify_cut_cells(cut_cells, 1, 4, set())
    verify_cut_cells(cut_cells, 3, 3, {(0, 1)})
    verify_cut_cells(cut_cells, 3, 3, {(1, 1)})
    rng = draw("singles cut cells", seed)
    for _ in range(trials):
        height, width = rng.randint(2, 6), rng.randint(2, 6)
        verify_cut_cells(cut_cells, height, width,
                         _random_shading(rng, height, width, connected=True))


def verify_rule(make: MakeRule, height: int, width: int, shaded: set[Cell],
                undecided: set[Cell]) -> None:
    __tracebackhide__ = True
    state = _state(height, width, shaded, undecided)
    expected = library_rule(height, width, shaded, undecided)
    where = f"the grid {_grid(height, width, shaded, undecided)} (# shaded, ? undecided)"
    try:
        make(height, width).propagate(state)
    except Contradiction:
        if expected is not None:
            fail(f"ConnectedRule failed on {where}, but the cells not shaded are "
                 f"connected")
        return
    if expected is None:
        fail(f"ConnectedRule did not fail on {where}, but the shaded cells split "
             f"the others")
    kept = {cell for cell in undecided if SHADED not in state.domains[cell]}
    if kept - expected:
        fail(f"on {where}, ConnectedRule kept {_cells(kept - expected)} unshaded, but "
             f"shading it would not split the cells not shaded")
    if expected - kept:
        fail(f"on {where}, ConnectedRule left {_cells(expected - kept)} undecided, but "
             f"shading it would split the cells not shaded (the unshaded and the undecided "
             f"ones): it must stay unshaded")
    others = [cell for cell in state.csp.variables if cell not in undecided
              and set(state.domains[cell]) != set(state.csp.domains[cell])]
    if others:
        fail(f"on {where}, ConnectedRule changed the decided cell {_cells(others)}")


@own_work(*OWN)
def check_rule(make: MakeRule, seed: Any = None, trials: int = 40) -> None:
    """Notebook 06's corner, a split grid, then `trials` random grids."""
    __tracebackhide__ = True
    everything = {(r, c) for r in range(3) for c in range(3)}
    verify_rule(make, 3, 3, {(0, 1)}, everything - {(0, 1), (0, 0)})
    verify_rule(make, 3, 3, {(0, 1), (1, 0)}, everything - {(0, 1), (1, 0)})
    rng = draw("singles connected rule", seed)
    for _ in range(trials):
        height, width = rng.randint(2, 6), rng.randint(2, 6)
        shaded = _random_shading(rng, height, width, connected=rng.random() < 0.8)
        undecided = {(r, c) for r in range(height) for c in range(width)
                     if (r, c) not in shaded and rng.random() < 0.6}
        verify_rule(make, height, width, shaded, undecided)


def with_your_rule(csp: CSP, rule: Constraint) -> CSP:
    """The same CSP with the library's connectivity constraint replaced by `rule`."""
    mine = CSP(csp.name + ", your connectivity")
    for var in csp.variables:
        mine.add_variable(var, csp.domains[var])
    for constraint in csp.constraints:
        if not isinstance(constraint, Connected):
            mine.add_constraint(constraint)
    mine.add_constraint(rule)
    return mine


def verify_puzzle(make: MakeRule, puzzle: singles.Singles, where: str) -> None:
    __tracebackhide__ = True
    rule = make(puzzle.height, puzzle.width)
    solved_with("ConnectedRule", with_your_rule(puzzle.to_csp(), rule), puzzle, where,
                NODE_LIMIT, "with the cut rule it needs a few dozen at most")
    counting = with_your_rule(puzzle.to_csp(counting=True), make(puzzle.height, puzzle.width))
    counted = search_with("ConnectedRule", where, lambda: count(
        counting, limit=2, inference="mac", max_nodes=NODE_LIMIT))
    found = counted.count
    if counted.status == "limit":
        fail(f"counting the solutions of {where} with ConnectedRule took more than "
             f"{NODE_LIMIT} nodes; with the cut rule it needs a few dozen at most")
    if found != 1:
        fail(f"with ConnectedRule, counting finds {found} solution(s) of {where}, "
             f"which has exactly one")


@own_work(*OWN)
def check_puzzles(make: MakeRule, seed: Any = None, trials: int = 4) -> None:
    """Generated puzzles of 5x5 to 7x7, solved and counted with ConnectedRule."""
    __tracebackhide__ = True
    rng = draw("singles puzzles", seed)
    for number in range(1, trials + 1):
        size = rng.randint(5, 7)
        with unwatched():
            puzzle = singles.generate(size, difficulty="easy", seed=rng.randrange(10**6))
        verify_puzzle(make, puzzle, f"generated puzzle {number} ({puzzle.to_tatham()})")
