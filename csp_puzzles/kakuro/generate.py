"""Making Kakuro puzzles with exactly one solution, graded by what solving them needs.

1. **Layout** (layout.py): blocks added one at a time, symmetric under a half turn, each
   kept only if every run still has 2 to 6 cells and the white cells hang together.
2. **Filling**: the solver itself fills the white cells, trying digits in a seeded random
   order, so no run repeats a digit and no rectangle can swap its digits (`a b / b a`
   would give a second solution with the same sums).
3. **Clues**: the sums of the filled runs. They usually allow many solutions.
4. **Repair**: the cells that root propagation leaves undecided show where the clues are
   too weak. At a cell of one of their runs, a few moves are tried (a digit free in the
   cell's two runs, or swapping digits with a cell of one of its runs, which keeps that
   run's sum) and the best kept if it is no worse: fewest candidates left, then fewest
   digit sets over all runs (so runs drift towards "magic" sums like 4 in 2 = {1, 3}).
   After `STALL` steps without progress the best move is taken anyway, to leave a local
   minimum. Scoring uses a lean copy of the run propagation (the cached `run_supports` on
   bit masks, no trace, no region sums): a try costs about a millisecond, not tens.
5. **Difficulty**: `easy` repairs with combination reasoning alone, `medium` and `hard`
   with the full run propagator. If the grade is not the one asked, a random walk of
   single moves among unique puzzles looks for one that needs more: for `medium`, one
   combination reasoning no longer solves; for `hard`, one where a few cells stay open,
   a small search (the core's, on the run constraints) shows the solution is still unique,
   and the real model has to search.
6. **Proof**: the real model counts the solutions (up to 2) and `grade` checks the level.

Everything random comes from one `random.Random(seed)`, so a seed always gives the same
puzzle.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Hashable

from ..core import CSP, AllDifferent, Predicate, count, solve
from ..core.state import SearchState
from ..puzzle.limits import GENERATE_SIDE
from .combinations import ALL_DIGITS, DIGITS, combinations
from .grade import DIFFICULTIES, grade
from .layout import Cell, Layout, random_layout
from .model import BLOCK, WHITE, Clue, Kakuro
from .rules import run_supports

MAX_ATTEMPTS = 50
#: random layouts drawn per attempt until one is valid (a long run may resist cutting)
LAYOUT_TRIES = 20
#: repair steps tried on one filling before starting again
REPAIR_STEPS = 400
#: a hard puzzle leaves at most this many cells to the search
HARD_OPEN_CELLS = 16
#: single moves tried to make a puzzle harder (medium from easy, hard from search-free)
STEP_BACK_TRIES = 300
#: search nodes allowed when a small search checks a hard candidate for uniqueness
COUNT_NODES = 500
#: repair steps without fewer candidates before the best move is taken even if worse
STALL = 15
#: moves tried (at most) at each repair step; the best one is taken
MOVES_PER_STEP = 8
#: how often the walk towards a harder puzzle picks a swap (keeps a run's sum) when it can
SWAP_SHARE = 0.5


def generate(width: int = 8, height: int = 8, difficulty: str = "medium",
             seed: int | None = None, density: float = 0.3,
             max_attempts: int = MAX_ATTEMPTS) -> Kakuro:
    """A puzzle of `height` rows and `width` columns (clue row and column included) with
    exactly one solution and the given difficulty. Raises ValueError when none is found
    within `max_attempts` tries (too small a grid for a hard puzzle, say)."""
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}, expected one of "
                         f"{', '.join(DIFFICULTIES)}")
    if width < 3 or height < 3:
        raise ValueError(f"a {width}x{height} grid is too small, expected at least 3x3 "
                         f"(the first row and column hold the clues)")
    cap = GENERATE_SIDE["kakuro"]
    if width > cap or height > cap:
        raise ValueError(f"a {width}x{height} grid is above the cap of {cap}x{cap} on "
                         "generated kakuro puzzles, expected smaller sides")
    if not 0 <= density < 0.7:
        raise ValueError(f"density {density} out of range, expected 0 <= density < 0.7")
    rng = random.Random(seed)
    for _ in range(max_attempts):
        layout = next(filter(None, (random_layout(rng, width, height, density)
                                    for _ in range(LAYOUT_TRIES))), None)
        if layout is None:
            continue
        digits = _fill(rng, layout)
        if digits is None:
            continue
        puzzle = _make(rng, layout, digits, difficulty)
        if puzzle is not None:
            return puzzle
    raise ValueError(f"no {difficulty} {width}x{height} kakuro found in {max_attempts} "
                     f"attempts, try another size, density or difficulty")


# -- filling --------------------------------------------------------------------------------
def _fill(rng: random.Random, layout: Layout) -> dict[Cell, int] | None:
    """Digits for every white cell: all different in each run, no swappable rectangle.

    A small CSP solved by the core, trying each cell's digits in a seeded random order.
    """
    csp = CSP("kakuro filling")
    for cell in layout.cells:
        csp.add_variable(cell, DIGITS)
    for run in layout.runs:
        csp.add_constraint(AllDifferent(run))
    for corners in layout.rectangles():
        csp.add_constraint(Predicate(_not_swappable, corners))

    def shuffled(state: SearchState, var: Hashable) -> list[int]:
        return rng.sample(sorted(state.domains[var]), len(state.domains[var]))

    result = solve(csp, inference="mac", var_order="mrv", val_order=shuffled, max_nodes=10_000)
    if result.solution is None:
        return None
    return {cell: result.solution[cell] for cell in layout.cells}


def _not_swappable(top_left: int, top_right: int, bottom_left: int, bottom_right: int) -> bool:
    return not (top_left == bottom_right and top_right == bottom_left)


# -- lean propagation (scoring only; the real model has the last word) ----------------------
def _totals(layout: Layout, digits: dict[Cell, int]) -> list[int]:
    return [sum(digits[cell] for cell in run) for run in layout.runs]


def _candidates(layout: Layout, totals: list[int], matching: bool,
                domains: dict[Cell, int] | None = None,
                start: list[int] | None = None) -> dict[Cell, int] | None:
    """Root propagation of the run constraints on candidate bit masks (None: a wipeout).

    The same reasoning as `RunConstraint` (it calls the same cached `run_supports`),
    without the core's bookkeeping: the generator asks this thousands of times. From given
    `domains` already at a fixpoint, only the runs in `start` need a first look.
    """
    cells = layout.cells
    masks = [ALL_DIGITS] * len(cells) if domains is None else [domains[cell] for cell in cells]
    runs, runs_of = layout.run_numbers, layout.runs_of_number
    queue = deque(range(len(runs)) if start is None else start)
    queued = [start is None] * len(runs)
    for index in queue:
        queued[index] = True
    while queue:
        index = queue.popleft()
        queued[index] = False
        run = runs[index]
        before = tuple([masks[i] for i in run])
        answer = run_supports(before, totals[index], matching)
        if answer is None:
            return None
        for i, old, keep in zip(run, before, answer[0]):
            if keep != old:
                masks[i] = keep
                for other in runs_of[i]:  # itself too without matching, as RunConstraint
                    if not queued[other] and (other != index or not matching):
                        queued[other] = True
                        queue.append(other)
    return dict(zip(cells, masks))


def _open(domains: dict[Cell, int]) -> list[Cell]:
    """The cells with more than one candidate left, in reading order."""
    return [cell for cell, mask in domains.items() if mask & (mask - 1)]


def _score(domains: dict[Cell, int] | None) -> int:
    """Candidates beyond one per cell: 0 when propagation decides every cell."""
    if domains is None:
        return 1 << 30
    return sum(bin(mask).count("1") - 1 for mask in domains.values())


def _spread(layout: Layout, totals: list[int]) -> int:
    """Digit sets beyond one per run: the tie-break that steers runs towards magic sums."""
    return sum(len(combinations(len(run), total)) - 1 for run, total in zip(layout.runs, totals))


def _count(layout: Layout, digits: dict[Cell, int], limit: int = 2,
           max_nodes: int = COUNT_NODES) -> int | None:
    """Solutions of the clues of `digits` (up to `limit`), counted by the core's search on
    the run constraints (no region sums, like the scoring).

    None when `max_nodes` were not enough to tell."""
    puzzle = Kakuro(_clued_grid(layout, digits))
    counted = count(puzzle.to_csp(counting=True, regions=False), limit=limit,
                    inference="mac", var_order="mrv", max_nodes=max_nodes)
    return counted.count if counted.complete else None


# -- repair ---------------------------------------------------------------------------------
def _make(rng: random.Random, layout: Layout, digits: dict[Cell, int],
          difficulty: str) -> Kakuro | None:
    """Repair the filling's clues until they give one solution at the difficulty asked."""
    if not _repair(rng, layout, digits, difficulty != "easy", difficulty == "hard"):
        return None
    puzzle = Kakuro(_clued_grid(layout, digits))
    if grade(puzzle) != difficulty:
        wanted = _needs_search if difficulty == "hard" else _needs_matching
        if difficulty == "easy" or not _step_back(rng, layout, digits, wanted):
            return None
        puzzle = Kakuro(_clued_grid(layout, digits))
    if _unique(puzzle) and grade(puzzle) == difficulty:
        return puzzle
    return None


def _repair(rng: random.Random, layout: Layout, digits: dict[Cell, int], matching: bool,
            hard: bool) -> bool:
    """Change digits of undecided cells until propagation decides every cell (True).

    For a hard puzzle, also stop (True) as soon as a few cells stay open and a small search
    shows the solution is unique anyway.
    """
    totals = _totals(layout, digits)
    domains = _candidates(layout, totals, matching)
    score = (_score(domains), _spread(layout, totals))
    checked = None  # the last score checked for a unique solution (hard puzzles)
    stalled = 0
    for _ in range(REPAIR_STEPS):
        if score[0] == 0:
            return True
        assert domains is not None, "a filling always fits the clues read off it"
        undecided = _open(domains)
        if hard and score != checked and len(undecided) <= HARD_OPEN_CELLS:
            checked = score
            if _count(layout, digits) == 1:
                return True
        near = rng.choice(undecided)
        cell = rng.choice(layout.runs[rng.choice(layout.runs_of[near])])
        choices = []
        moves = _moves(layout, digits, cell)
        for move in rng.sample(moves, min(len(moves), MOVES_PER_STEP)):
            moved = _moved_totals(layout, digits, totals, move)
            changed = _candidates(layout, moved, matching)
            choices.append(((_score(changed), _spread(layout, moved)), rng.random(), move,
                            changed, moved))
        if not choices:
            continue
        new_score, _, move, changed, moved = min(choices, key=lambda choice: choice[:2])
        stalled = stalled + 1 if new_score[0] >= score[0] else 0
        if new_score <= score or stalled >= STALL:
            digits.update(move)
            score, domains, totals = new_score, changed, moved
            if stalled >= STALL:
                stalled = 0
    return score[0] == 0


def _moved_totals(layout: Layout, digits: dict[Cell, int], totals: list[int],
                  move: dict[Cell, int]) -> list[int]:
    """The run sums after `move` (only the runs through moved cells change)."""
    moved = list(totals)
    for cell, digit in move.items():
        for index in layout.runs_of[cell]:
            moved[index] += digit - digits[cell]
    return moved


def _free_digits(layout: Layout, digits: dict[Cell, int], cell: Cell) -> list[int]:
    """Digits `cell` could take instead of its own without repeating one in its runs."""
    used = {digits[other] for index in layout.runs_of[cell] for other in layout.runs[index]}
    return [d for d in DIGITS if d not in used]


def _moves(layout: Layout, digits: dict[Cell, int], cell: Cell) -> list[dict[Cell, int]]:
    """The changes tried at `cell`: a free digit, or swapping digits with a cell of one of
    its runs (that run keeps its sum; the two crossing runs change). In a dense grid a cell
    often has no free digit left, so the swaps matter."""
    moves = [{cell: digit} for digit in _free_digits(layout, digits, cell)]
    for index in layout.runs_of[cell]:
        for other in layout.runs[index]:
            if other == cell:
                continue
            swap = {cell: digits[other], other: digits[cell]}
            if all(_fits(layout, digits, moved, digit, index) for moved, digit in swap.items()):
                moves.append(swap)
    return moves


def _fits(layout: Layout, digits: dict[Cell, int], cell: Cell, digit: int,
          shared: int) -> bool:
    """`digit` is not used elsewhere in the run of `cell` other than run `shared`."""
    return all(digits[other] != digit for index in layout.runs_of[cell] if index != shared
               for other in layout.runs[index] if other != cell)


def _step_back(rng: random.Random, layout: Layout, digits: dict[Cell, int],
               judge: Callable[[Layout, dict[Cell, int], dict[Cell, int] | None], str]) -> bool:
    """Random moves from a unique puzzle until `judge` calls one `done` (True).

    Swaps are favoured: keeping one run's sum, they disturb the puzzle less, so it more
    often stays unique. A move judged `keep` (the puzzle stays unique) is kept, so the
    walk goes on from there; one judged `undo` is undone.
    """
    for _ in range(STEP_BACK_TRIES):
        moves = _moves(layout, digits, rng.choice(layout.cells))
        if not moves:
            continue
        swaps = [move for move in moves if len(move) == 2]
        move = rng.choice(swaps if swaps and rng.random() < SWAP_SHARE else moves)
        before = {moved: digits[moved] for moved in move}
        digits.update(move)
        verdict = judge(layout, digits, _candidates(layout, _totals(layout, digits), True))
        if verdict == "done":
            return True
        if verdict == "undo":
            digits.update(before)
    return False


def _needs_matching(layout: Layout, digits: dict[Cell, int],
                    domains: dict[Cell, int] | None) -> str:
    """`done` when the full run propagator decides every cell and combination reasoning alone
    does not; `keep` when both do."""
    if _score(domains) != 0:
        return "undo"
    return "done" if _score(_candidates(layout, _totals(layout, digits), False)) else "keep"


def _needs_search(layout: Layout, digits: dict[Cell, int],
                  domains: dict[Cell, int] | None) -> str:
    """`done` when a few cells stay open, the solution is unique and the real model has to
    search; `keep` when the solution is unique anyway."""
    if domains is None:
        return "undo"
    undecided = len(_open(domains))
    if not undecided:
        return "keep"
    if undecided > HARD_OPEN_CELLS or _count(layout, digits) != 1:
        return "undo"
    solved = Kakuro(_clued_grid(layout, digits)).solved_by_rules("medium")
    return "keep" if solved else "done"


def _unique(puzzle: Kakuro) -> bool:
    """Exactly one solution, proved by counting on the real (combined) model."""
    counted = count(puzzle.to_csp(counting=True), limit=2, inference="mac", var_order="mrv",
                    max_nodes=5_000)
    return counted.complete and counted.count == 1


def _clued_grid(layout: Layout, digits: dict[Cell, int]) -> list[list[object]]:
    """The puzzle grid: white cells, clues holding the sums of the filled runs, blocks."""
    grid: list[list[object]] = [[WHITE if layout.white[(r, c)] else BLOCK
                                 for c in range(layout.width)] for r in range(layout.height)]
    sums: dict[Cell, dict[str, int]] = {}
    for run in layout.runs:
        (r, c), (r2, _) = run[0], run[-1]
        direction, clue = ("across", (r, c - 1)) if r == r2 else ("down", (r - 1, c))
        sums.setdefault(clue, {})[direction] = sum(digits[cell] for cell in run)
    for (r, c), total in sums.items():
        grid[r][c] = Clue(total.get("down"), total.get("across"))
    return grid
