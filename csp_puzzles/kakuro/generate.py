"""Making Kakuro puzzles with exactly one solution, graded by what solving them needs.

1. **Pattern**: the first row and column are blocks (they hold the clues); other cells
   turn black with probability `density`, symmetrically under a half turn. Runs longer
   than `MAX_RUN` are cut, runs of a single cell grow or close, and only the largest
   connected group of white cells is kept.
2. **Filling**: random digits such that no run repeats one and no rectangle can swap its
   digits (a small CSP, solved with a random value order).
3. **Clues**: the sums of the filled runs.
4. **Uniqueness by hill climbing**: a random filling gives clues with many solutions. So
   digits change one at a time: an undecided cell (one that propagation at the root
   cannot fix) gets another digit free in its runs, and the change stays when no more
   cells are left undecided than before. Once none is, the solution is unique and found
   without search. A hard puzzle is taken earlier, when a few cells stay undecided and
   counting (up to 2) proves the solution unique, or made from a search-free one by a
   single change that keeps the solution unique but leaves cells undecided.
5. **Grade**: `easy` when combination reasoning alone (magic blocks, unique combinations,
   crossing runs, no placement step, no region sums) solves it with no search, `medium`
   when the full combined model does, `hard` when the solver has to search.

Everything random comes from one `random.Random(seed)`, so a seed always gives the same
puzzle.
"""

from __future__ import annotations

import random

from ..core import CSP, AllDifferent, Predicate, count, solve
from ..core.inference import propagate
from ..core.state import Contradiction, SearchState
from .model import BLOCK, WHITE, Clue, KakuroPuzzle

DIFFICULTIES = ("easy", "medium", "hard")
MAX_ATTEMPTS = 50
#: digit changes tried on one filling before starting again
CLIMB_STEPS = 600
#: a hard puzzle leaves at most this many cells to the search
HARD_OPEN_CELLS = 16
#: single changes tried to turn a puzzle propagation solves into a hard one
STEP_BACK_TRIES = 60
#: longer runs are cut (published grids rarely run longer: long runs allow many digit sets)
MAX_RUN = 6


def grade(puzzle: KakuroPuzzle) -> str:
    """`easy`, `medium` or `hard`: the weakest reasoning that solves it without search."""
    for level, strong in (("easy", False), ("medium", True)):
        result = solve(puzzle.to_csp(matching=strong, regions=strong), inference="mac",
                       var_order="mrv", max_nodes=1)
        if result.solved and result.stats.nodes == 0:
            return level
    return "hard"


def generate(width: int = 8, height: int = 8, difficulty: str = "medium",
             seed: int | None = None, density: float = 0.3,
             max_attempts: int = MAX_ATTEMPTS) -> KakuroPuzzle:
    """A puzzle of `height` rows and `width` columns (clue row and column included) with
    exactly one solution and the given difficulty. Raises ValueError when none is found
    within `max_attempts` tries (too small a grid for a hard puzzle, say)."""
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}, expected one of "
                         f"{', '.join(DIFFICULTIES)}")
    if width < 3 or height < 3:
        raise ValueError(f"a {width}x{height} grid is too small, expected at least 3x3 "
                         f"(the first row and column hold the clues)")
    if not 0 <= density < 0.7:
        raise ValueError(f"density {density} out of range, expected 0 <= density < 0.7")
    rng = random.Random(seed)
    for _ in range(max_attempts):
        white = _pattern(rng, width, height, density)
        digits = _fill(rng, white) if white is not None else None
        if digits is None:
            continue
        puzzle = _climb(rng, white, digits, difficulty)
        if puzzle is not None:
            return puzzle
    raise ValueError(f"no {difficulty} {width}x{height} kakuro found in {max_attempts} "
                     f"attempts, try another size, density or difficulty")


def _climb(rng: random.Random, white, digits: dict[tuple[int, int], int],
           difficulty: str) -> KakuroPuzzle | None:
    """Change digits of the filling one at a time until the clues pin the solution down.

    The score is how many cells propagation at the root leaves open (for `easy`, with
    combination reasoning only). A change (a new digit, free in the cell's two runs, for
    an open cell) is kept when the score does not get worse. A hard puzzle is taken as soon
    as a few cells stay open and counting proves the solution unique; the others when no
    cell stays open and the grade matches.
    """
    width, height = _size(white)
    runs_of = _runs_of(white, width, height)
    matching = difficulty != "easy"
    puzzle, open_cells = _open_cells(white, digits, matching)
    best = len(open_cells) + 1
    for _ in range(CLIMB_STEPS):
        if not open_cells:
            if difficulty == "hard":
                return _step_back(rng, white, digits, runs_of)
            return puzzle if grade(puzzle) == difficulty else None
        if difficulty == "hard" and len(open_cells) < best:
            best = len(open_cells)
            if best <= HARD_OPEN_CELLS and _unique(puzzle):
                return puzzle
        cell = rng.choice(open_cells)
        used = {digits[other] for run in runs_of[cell] for other in run}
        free = [d for d in range(1, 10) if d not in used]
        if not free:
            continue
        before = digits[cell]
        digits[cell] = rng.choice(free)
        changed, still_open = _open_cells(white, digits, matching)
        if len(still_open) <= len(open_cells):
            puzzle, open_cells = changed, still_open
        else:
            digits[cell] = before
    return None


def _step_back(rng: random.Random, white, digits: dict[tuple[int, int], int],
               runs_of) -> KakuroPuzzle | None:
    """From a puzzle propagation solves, look for one digit change that keeps the solution
    unique but leaves some cells to the search (a hard puzzle)."""
    cells = list(digits)
    for _ in range(STEP_BACK_TRIES):
        cell = rng.choice(cells)
        used = {digits[other] for run in runs_of[cell] for other in run}
        free = [d for d in range(1, 10) if d not in used]
        if not free:
            continue
        before = digits[cell]
        digits[cell] = rng.choice(free)
        puzzle, open_cells = _open_cells(white, digits, True)
        if open_cells and _unique(puzzle):
            return puzzle
        digits[cell] = before
    return None


def _open_cells(white, digits, matching: bool) -> tuple[KakuroPuzzle, list[tuple[int, int]]]:
    """The puzzle these digits give, and the cells root propagation leaves undecided."""
    puzzle = KakuroPuzzle(_clued_grid(white, digits))
    csp = puzzle.to_csp(matching=matching, regions=matching)
    state = SearchState(csp)
    try:
        propagate(state, csp.constraints)
    except Contradiction:  # cannot happen (the digits are a solution); keep every cell open
        return puzzle, list(csp.variables)
    return puzzle, [cell for cell in csp.variables if len(state.domains[cell]) > 1]


def _unique(puzzle: KakuroPuzzle) -> bool:
    counted = count(puzzle.to_csp(counting=True), limit=2, inference="mac", var_order="mrv",
                    max_nodes=2_000)
    return counted.complete and counted.count == 1


def _runs_of(white, width: int, height: int) -> dict[tuple[int, int], list[list]]:
    """Each white cell's across and down runs."""
    runs_of: dict[tuple[int, int], list[list]] = {}
    for line in _lines(width, height):
        for run in _white_runs(white, line):
            for cell in run:
                runs_of.setdefault(cell, []).append(run)
    return runs_of


def _pattern(rng: random.Random, width: int, height: int,
             density: float) -> dict[tuple[int, int], bool] | None:
    """Which cells are white: symmetric random blocks, repaired into a valid shape.

    None when too little is left: under half of the playing area white, or a whole row or
    column of it black (the grid would really be smaller)."""
    white = {(r, c): r > 0 and c > 0 for r in range(height) for c in range(width)}
    for r in range(1, height):
        for c in range(1, width):
            mirror = (height - r, width - c)  # the half-turn image inside the playing area
            if (r, c) <= mirror and rng.random() < density:
                white[(r, c)] = white[mirror] = False
    _repair(white, width, height, rng)
    if sum(white.values()) < max(4, (width - 1) * (height - 1) // 2):
        return None
    if (any(not any(white[(r, c)] for c in range(width)) for r in range(1, height))
            or any(not any(white[(r, c)] for r in range(height)) for c in range(1, width))):
        return None
    return white


def _repair(white: dict[tuple[int, int], bool], width: int, height: int,
            rng: random.Random | None = None) -> None:
    """Cut runs longer than `MAX_RUN`, mend single-cell runs, keep the largest white group.

    With `rng`, a single-cell run first tries to grow by whitening a block beside it in
    its line (for a while: whitening can make new short runs); otherwise it turns black.
    """
    rounds = 0
    changed = True
    while changed:
        changed = False
        rounds += 1
        for line in _lines(width, height):
            for run in _white_runs(white, line):
                if len(run) > MAX_RUN:
                    white[run[len(run) // 2]] = False
                    changed = True
                elif len(run) == 1:
                    changed = True
                    grow = [cell for cell in _beside(line, run[0])
                            if cell[0] > 0 and cell[1] > 0 and not white[cell]]
                    if rng is not None and grow and rounds < 4:
                        white[rng.choice(grow)] = True
                    else:
                        white[run[0]] = False
    groups = _groups(white)
    if groups:
        keep = max(groups, key=len)
        for cell in white:
            if white[cell] and cell not in keep:
                white[cell] = False


def _beside(line: list[tuple[int, int]], cell: tuple[int, int]) -> list[tuple[int, int]]:
    i = line.index(cell)
    return [line[j] for j in (i - 1, i + 1) if 0 <= j < len(line)]


def _lines(width: int, height: int) -> list[list[tuple[int, int]]]:
    rows = [[(r, c) for c in range(width)] for r in range(height)]
    columns = [[(r, c) for r in range(height)] for c in range(width)]
    return rows + columns


def _white_runs(white, line) -> list[list[tuple[int, int]]]:
    runs, current = [], []
    for cell in line:
        if white[cell]:
            current.append(cell)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


def _groups(white) -> list[set[tuple[int, int]]]:
    seen: set[tuple[int, int]] = set()
    groups = []
    for start, is_white in white.items():
        if not is_white or start in seen:
            continue
        group, stack = {start}, [start]
        seen.add(start)
        while stack:
            r, c = stack.pop()
            for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if white.get(near) and near not in seen:
                    seen.add(near)
                    group.add(near)
                    stack.append(near)
        groups.append(group)
    return groups


def _fill(rng: random.Random, white) -> dict[tuple[int, int], int] | None:
    """Random digits, all different within each run, and no swappable rectangle.

    A rectangle of cells whose rows lie in two across runs and whose columns lie in two
    down runs, filled `a b / b a`, can be swapped to `b a / a b` without changing any sum:
    a puzzle with one has two solutions. The filling forbids them from the start.
    """
    csp = CSP("kakuro filling")
    cells = [cell for cell, is_white in white.items() if is_white]
    for cell in cells:
        csp.add_variable(cell, rng.sample(range(1, 10), 9))
    for line in _lines(*_size(white)):
        for run in _white_runs(white, line):
            csp.add_constraint(AllDifferent(run))
    for corners in _rectangles(white):
        csp.add_constraint(Predicate(_not_swappable, corners))
    result = solve(csp, inference="mac", var_order="mrv", max_nodes=10_000)
    return result.solution


def _not_swappable(top_left: int, top_right: int, bottom_left: int, bottom_right: int) -> bool:
    return not (top_left == bottom_right and top_right == bottom_left)


def _size(white) -> tuple[int, int]:
    """(width, height) of the grid of a white-cell map."""
    return max(c for _, c in white) + 1, max(r for r, _ in white) + 1


def _rectangles(white) -> list[tuple[tuple[int, int], ...]]:
    """Corners (top left, top right, bottom left, bottom right) of every rectangle whose two
    rows are each inside one across run and whose two columns are each inside one down run."""
    width, height = _size(white)
    across, down = {}, {}
    for index, line in enumerate(_lines(width, height)):
        for number, run in enumerate(_white_runs(white, line)):
            for cell in run:
                (across if index < height else down)[cell] = (index, number)
    corners = []
    for line in _lines(width, height)[:height]:
        for run in _white_runs(white, line):
            for i, top_left in enumerate(run):
                for top_right in run[i + 1:]:
                    r = top_left[0] + 1
                    while white.get((r, top_left[1])):
                        bottom_left, bottom_right = (r, top_left[1]), (r, top_right[1])
                        if (white.get(bottom_right) and down[bottom_right] == down[top_right]
                                and across[bottom_left] == across[bottom_right]):
                            corners.append((top_left, top_right, bottom_left, bottom_right))
                        r += 1
    return corners


def _clued_grid(white, digits) -> list[list[object]]:
    """The puzzle grid: white cells, clues holding the sums of the filled runs, blocks."""
    width, height = _size(white)
    grid: list[list[object]] = [[WHITE if white[(r, c)] else BLOCK for c in range(width)]
                                for r in range(height)]
    for r in range(height):
        for c in range(width):
            if white[(r, c)]:
                continue
            down = _run_sum(white, digits, r, c, 1, 0)
            right = _run_sum(white, digits, r, c, 0, 1)
            if down is not None or right is not None:
                grid[r][c] = Clue(down, right)
    return grid


def _run_sum(white, digits, r: int, c: int, dr: int, dc: int) -> int | None:
    total, rr, cc = 0, r + dr, c + dc
    while white.get((rr, cc)):
        total += digits[(rr, cc)]
        rr, cc = rr + dr, cc + dc
    return total if (rr, cc) != (r + dr, c + dc) else None
