"""Generating Singles puzzles with exactly one solution, fast enough for 100x100.

1. Shade a *maximal* set of cells in random order: a cell is shaded when no neighbour is
   shaded and shading it keeps the unshaded cells connected (the wall test of
   `connectivity.py`). Maximal matters: an unshaded cell that could be shaded without
   breaking a rule would give a second solution whatever the numbers.
2. Fill every cell from a random Latin square of order max(W, H), so the unshaded cells never
   repeat a number in a line.
3. Give each shaded cell the number of an unshaded cell of its row or column, so that
   leaving it unshaded would repeat that number.
4. Repair: propagate the rules (no search) and look at the cells left undecided; each round
   renumbers the shaded cells at or next to them, copying a number that propagation already
   proved unshaded in their line, until propagation decides every cell. Only the puzzle's
   own deductions are re-run, so each round costs one propagation, not a search.
5. Prove uniqueness by counting solutions (with the uniqueness rule off) and grade.

Difficulties (Tatham's levels, `grade.py`): the repairs of step 4 run the rules of the
level asked (`tricky` for `fiendish`); a `tricky` puzzle is then renumbered at random, one
batch of shaded cells at a time, keeping only changes after which the tricky rules still
solve it, until the easy rules no longer do; a `fiendish` one the same way, keeping only
changes after which counting still finds one solution, until the tricky rules no longer
solve it. A walk that runs out of tries starts a new grid: the generator never gives up on
a size it offers (`SIZES`).
"""

from __future__ import annotations

import random

from ..puzzle import sizes
from ..puzzle.limits import GENERATE_SIDE
from ..puzzle.sizes import Sides
from .connectivity import Connected, WallUnionFind
from .grade import DIFFICULTIES, LEVELS, grade
from .model import Singles, first_undecided

MAX_SIDE = GENERATE_SIDE["singles"]
#: the sides each level offers. Easy stops at 12: without the cut rule, every unshaded
#: cell with no shaded neighbour must be reached by a pattern or "one way out", which
#: larger grids rarely allow (Tatham's own generator slows down there too); fiendish
#: hardening counts solutions at each step, which stays quick up to 20
SIZES: dict[str, Sides] = {"easy": (2, 12), "tricky": (4, MAX_SIDE), "fiendish": (5, 20)}


def generate(width: int = 8, height: int | None = None, difficulty: str = "easy",
             seed: int | None = None) -> Singles:
    """A puzzle with exactly one solution and grade `difficulty`; the same arguments give
    the same puzzle.

    Sides offered (rows and columns alike): easy 2-12, tricky 4-100, fiendish 5-20;
    other sizes are refused before any work, and at these the generator tries new grids
    until one has the grade.
    """
    height = width if height is None else height
    sizes.check("singles", SIZES, difficulty, width, height)
    rng = random.Random(seed)
    while True:
        puzzle = _attempt_once(width, height, difficulty, rng)
        if puzzle is not None:
            return puzzle


def _attempt_once(width: int, height: int, difficulty: str,
                  rng: random.Random) -> Singles | None:
    shaded = shade_maximal(width, height, rng)
    grid = latin_fill(width, height, rng)
    for r, c in sorted(shaded):
        grid[r][c] = _copy_from_line(grid, shaded, (r, c), rng, prefer=None)
    rules = "easy" if difficulty == "easy" else "tricky"
    for _round in range(40 + width + height):
        attempt = Singles(_freeze(grid))
        domains = attempt.deduce(rules)
        if domains is None:  # cannot happen with sound rules; start again if it does
            return None
        left = [cell for cell in attempt.cells() if len(domains[cell]) > 1]
        if not left:
            break
        _repair(grid, shaded, left, rng, width, height)
    else:
        return None
    if difficulty != "easy" and not _harden(grid, shaded, rng, difficulty):
        return None
    puzzle = Singles(_freeze(grid))
    counted = puzzle.count(limit=2, max_nodes=20_000)
    if counted.status != "solved" or counted.solutions != 1:
        return None
    return puzzle if grade(puzzle) == difficulty else None


def _harden(grid: list[list[int]], shaded: set[tuple[int, int]], rng: random.Random,
            difficulty: str) -> bool:
    """Renumber shaded cells at random, keeping the puzzle uniquely solvable, until the
    level below `difficulty` no longer solves it (True) or the tries run out (False).

    Steps renumber several cells at once (a twentieth of them at first); a step that loses
    what `difficulty` needs (tricky: the tricky rules solve it; fiendish: one solution) is
    undone and the next steps are half as big.
    """
    weaker = LEVELS[DIFFICULTIES.index(difficulty) - 1]
    height, width = len(grid), len(grid[0])
    cells = sorted(shaded)
    batch = max(1, len(cells) // 20)
    for _try in range(2 * len(cells)):
        changes = []
        for r, c in rng.sample(cells, batch):
            line = [(r, k) for k in range(width)] + [(k, c) for k in range(height)]
            values = sorted({grid[x][y] for x, y in line if (x, y) not in shaded}
                            - {grid[r][c]})
            if values:
                changes.append((r, c, grid[r][c]))
                grid[r][c] = rng.choice(values)
        puzzle = Singles(_freeze(grid))
        if puzzle.solved_by_rules(weaker):
            continue  # still too easy, and still unique: keep walking
        if _still_has(puzzle, difficulty):
            return True
        for r, c, old in reversed(changes):
            grid[r][c] = old
        batch = max(1, batch // 2)
    return False


def _still_has(puzzle: Singles, difficulty: str) -> bool:
    """What a puzzle of `difficulty` must keep while it is hardened."""
    if difficulty == "tricky":
        return puzzle.solved_by_rules("tricky") is True
    counted = puzzle.count(limit=2, max_nodes=2_000, var_order=first_undecided)
    return counted.status == "solved" and counted.solutions == 1


def shade_maximal(width: int, height: int, rng: random.Random) -> set[tuple[int, int]]:
    """A random maximal set of non-touching shaded cells leaving the rest connected."""
    connected = Connected(height, width)
    walls = WallUnionFind(width * height)
    order = list(range(width * height))
    rng.shuffle(order)
    shaded: set[tuple[int, int]] = set()
    for index in order:
        r, c = divmod(index, width)
        if any(n in shaded for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))):
            continue
        if connected.is_cut(walls, index):
            continue
        walls.add(index, connected.rings[index])
        shaded.add((r, c))
    return shaded


def latin_fill(width: int, height: int, rng: random.Random) -> list[list[int]]:
    """Rows and columns of a random Latin square of order max(width, height)."""
    n = max(width, height)
    rows, columns, symbols = list(range(n)), list(range(n)), list(range(1, n + 1))
    rng.shuffle(rows)
    rng.shuffle(columns)
    rng.shuffle(symbols)
    return [[symbols[(rows[r] + columns[c]) % n] for c in range(width)] for r in range(height)]


def _copy_from_line(grid: list[list[int]], shaded: set[tuple[int, int]], cell: tuple[int, int],
                    rng: random.Random, prefer: set[tuple[int, int]] | None) -> int:
    """A number of an unshaded cell in `cell`'s row or column (preferring `prefer` cells)."""
    r, c = cell
    line = [(r, k) for k in range(len(grid[0]))] + [(k, c) for k in range(len(grid))]
    whites = [x for x in line if x not in shaded and x != cell]
    if prefer:
        preferred = [x for x in whites if x in prefer]
        if preferred:
            whites = preferred
    choice = rng.choice(whites)
    return grid[choice[0]][choice[1]]


def _repair(grid: list[list[int]], shaded: set[tuple[int, int]],
            undecided: list[tuple[int, int]], rng: random.Random, width: int,
            height: int) -> None:
    """Renumber shaded cells at or beside undecided cells (a few per round, spread out)."""
    open_cells = set(undecided)
    decided_white = {(r, c) for r in range(height) for c in range(width)
                     if (r, c) not in shaded and (r, c) not in open_cells}
    targets: list[tuple[int, int]] = []
    for r, c in undecided:
        if (r, c) in shaded:
            targets.append((r, c))
        else:
            near = [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in shaded]
            if near:
                targets.append(rng.choice(near))
    rng.shuffle(targets)
    done: set[tuple[int, int]] = set()
    for cell in targets:
        r, c = cell
        if any((r + dr, c + dc) in done for dr in (-1, 0, 1) for dc in (-1, 0, 1)):
            continue
        done.add(cell)
        grid[r][c] = _copy_from_line(grid, shaded, cell, rng, prefer=decided_white)


def _freeze(grid: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(row) for row in grid)


__all__ = ["DIFFICULTIES", "MAX_SIDE", "SIZES", "generate", "grade", "shade_maximal",
           "latin_fill"]
