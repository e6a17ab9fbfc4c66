"""Hashi puzzles with exactly one solution, graded by the rules they need.

The simple generator grows a random network of islands and bridges and reads the island
numbers off it: every puzzle has a solution, but often several. Here that growth is only
the first step:

1. *Grow a solution.* Start from a random island; again and again pick an island and a
   direction, walk over free water and found a new island there (never touching another
   island) joined by 1..maxb bridges, or now and then, when loops are allowed, bridge to
   the island met on the way. Bridges never cross, so this is a valid solution; each
   island's number is its bridge count. Few loops and about one island in 4 (small
   grids) to 11 (40x40) cells keep ambiguity rare.
2. *Repair it until the rules of the requested level solve it.* Propagate those rules
   (`Puzzle.deduce`); where edges stay undecided, take their freedom away while keeping
   the grown solution valid: block an unused sight line with a new island bridged to one
   end, split a used bridge with a new island in the middle, or add a bridge (both end
   numbers grow). Repeat. Puzzles the rules solve are unique: no rule assumes uniqueness.
3. *Check the grade:* the next weaker level must get stuck (a `hard` puzzle really needs
   the connectivity rules), or the candidate is thrown away and a new one grown: a
   rejection sampler, like Tatham's Bridges generator. `fiendish` puzzles are repaired
   with search instead: two solutions are found, and an edge where they differ is
   repaired, until one solution is left and the `hard` rules still get stuck.
4. *Prove uniqueness* with the solver: `puzzle.count_solutions(limit=2) == 1`.

Everything random comes from one `random.Random(seed)`, so a seed always gives the same
puzzle.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field

from ..core import count
from ..puzzle import sizes
from ..puzzle.limits import GENERATE_SIDE
from ..puzzle.sizes import Sides
from .grade import DIFFICULTIES, grade
from .model import MAX_BRIDGES, Hashi

__all__ = ["DIFFICULTIES", "SIZES", "generate", "grade"]

_DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))
#: the weaker rule level a puzzle of each grade must resist
_WEAKER = {"medium": "easy", "hard": "medium"}
#: search budget of the count that proves a fiendish candidate unique
_FIENDISH_NODES = 20_000
#: chance of bridging to an island met on the way (a loop): few loops, few ambiguities
_JOIN = 0.03


@dataclass
class _Network:
    """A growing solution: islands, bridges, and the water cells the bridges cover."""

    height: int
    width: int
    islands: list[tuple[int, int]] = field(default_factory=list)
    island_set: set[tuple[int, int]] = field(default_factory=set)
    bridges: dict[tuple[tuple[int, int], tuple[int, int]], int] = field(default_factory=dict)
    covered: set[tuple[int, int]] = field(default_factory=set)

    def free(self, r: int, c: int) -> bool:
        return (0 <= r < self.height and 0 <= c < self.width
                and (r, c) not in self.island_set and (r, c) not in self.covered)

    def touches_island(self, r: int, c: int) -> bool:
        return any((r + dr, c + dc) in self.island_set for dr, dc in _DIRECTIONS)

    def add_island(self, pos: tuple[int, int]) -> None:
        self.islands.append(pos)
        self.island_set.add(pos)

    def add_bridges(self, a: tuple[int, int], b: tuple[int, int], n: int,
                    cells: list[tuple[int, int]]) -> None:
        key = (min(a, b), max(a, b))
        self.bridges[key] = self.bridges.get(key, 0) + n
        self.covered.update(cells)

    def puzzle(self, maxb: int, loops: bool) -> Hashi:
        degree = dict.fromkeys(self.islands, 0)
        for (a, b), n in self.bridges.items():
            degree[a] += n
            degree[b] += n
        return Hashi(self.height, self.width, degree, maxb=maxb, loops=loops)


def _grow(rng: random.Random, height: int, width: int, target: int, maxb: int,
          loops: bool, join: float = _JOIN) -> _Network:
    """Grow a random connected network of `target` islands or more (step 1 above).

    Once `target` is reached, growth goes on towards any border row or column that is
    still empty (as far as the water allows), so the puzzle fills the grid it was asked
    for.
    """
    net = _Network(height, width)
    net.add_island((rng.randrange(height), rng.randrange(width)))
    misses = 0
    while misses < 30 + 4 * target:
        outwards = len(net.islands) >= target
        if outwards:
            empty = _empty_borders(net)
            if not empty:
                break
            dr, dc = rng.choice(empty)
            r, c = rng.choice(net.islands)
        else:
            r, c = rng.choice(net.islands)
            dr, dc = rng.choice(_DIRECTIONS)
        cells: list[tuple[int, int]] = []
        spots: list[int] = []  # indexes into cells where a new island may stand
        met = None
        rr, cc = r + dr, c + dc
        while True:
            if (rr, cc) in net.island_set:
                met = (rr, cc)
                break
            if not net.free(rr, cc):
                break
            if cells and not net.touches_island(rr, cc):
                spots.append(len(cells))
            cells.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if met is not None and not outwards and (not spots or rng.random() < join):
            key = (min(met, (r, c)), max(met, (r, c)))
            had = net.bridges.get(key, 0)
            if had < maxb and (loops or had):  # a new pair would close a loop
                net.add_bridges((r, c), met, rng.randint(1, maxb - had), cells)
                misses = 0
                continue
        if not spots:
            misses += 1
            continue
        if outwards:
            k = spots[-1]  # as far as possible
        else:
            k = spots[min(rng.randrange(len(spots)), rng.randrange(len(spots)))]  # short: likelier
        net.add_island(cells[k])
        net.add_bridges((r, c), cells[k], rng.randint(1, maxb), cells[:k])
        misses = 0
    return net


def _empty_borders(net: _Network) -> list[tuple[int, int]]:
    """Directions (up, down, left, right) of the border lines that have no island yet."""
    rows = [r for r, _ in net.islands]
    cols = [c for _, c in net.islands]
    empty = []
    if min(rows) > 0:
        empty.append((-1, 0))
    if max(rows) < net.height - 1:
        empty.append((1, 0))
    if min(cols) > 0:
        empty.append((0, -1))
    if max(cols) < net.width - 1:
        empty.append((0, 1))
    return empty


def _line(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells strictly between two islands of one row or column."""
    (r1, c1), (r2, c2) = a, b
    if r1 == r2:
        return [(r1, c) for c in range(min(c1, c2) + 1, max(c1, c2))]
    return [(r, c1) for r in range(min(r1, r2) + 1, max(r1, r2))]


def _block(rng: random.Random, net: _Network, a: tuple[int, int], b: tuple[int, int],
           maxb: int) -> bool:
    """Cut the unused sight line a-b with a new island bridged to a or b.

    The new island stands on free water of the line, at least two cells from the island it
    joins and touching no island; the solution stays a solution (one more leaf island).
    """
    cells = _line(a, b)
    options = []
    for near, path in ((a, cells), (b, cells[::-1])):
        for k, cell in enumerate(path):
            if not net.free(*cell):
                break
            if k >= 1 and not net.touches_island(*cell):
                options.append((near, cell, path[:k]))
    if not options:
        return False
    near, cell, between = rng.choice(options)
    net.add_island(cell)
    net.add_bridges(near, cell, rng.randint(1, maxb), between)
    return True


def _split(rng: random.Random, net: _Network, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Put a new island in the middle of the bridges a-b: a-x and x-b carry them now."""
    key = (min(a, b), max(a, b))
    n = net.bridges[key]
    cells = _line(a, b)
    options = [k for k in range(1, len(cells) - 1)
               if not net.touches_island(*cells[k])]
    if not options:
        return False
    k = rng.choice(options)
    x = cells[k]
    del net.bridges[key]
    net.covered.discard(x)
    net.add_island(x)
    net.bridges[(min(a, x), max(a, x))] = n
    net.bridges[(min(x, b), max(x, b))] = n
    return True


def _add_bridge(net: _Network, a: tuple[int, int], b: tuple[int, int], maxb: int,
                loops: bool) -> bool:
    """One more bridge on a-b (a new one only when loops are allowed and the line is free)."""
    key = (min(a, b), max(a, b))
    n = net.bridges.get(key, 0)
    if n == 0:
        cells = _line(a, b)
        if not loops or not all(net.free(*cell) for cell in cells):
            return False
        net.add_bridges(a, b, 1, cells)
        return True
    if n >= maxb:
        return False
    net.bridges[key] = n + 1
    return True


def _change(rng: random.Random, net: _Network, change: str, a: tuple[int, int],
            b: tuple[int, int], maxb: int, loops: bool) -> bool:
    if change == "add":
        return _add_bridge(net, a, b, maxb, loops)
    if change == "split":
        return _split(rng, net, a, b)
    return _block(rng, net, a, b, maxb)


def _repair(rng: random.Random, net: _Network, edges: list[tuple[int, int, int, int]],
            maxb: int, loops: bool, count: int = 1) -> bool:
    """Take away the freedom of up to `count` of `edges` (undecided or disputed lines).

    Three changes keep the grown solution a solution: block an unused line with a new
    island bridged to one end, split used bridges with a new island in the middle, or add
    one bridge to the line (the two end numbers grow). False when none applies.
    """
    order = list(edges)
    rng.shuffle(order)
    done = 0
    for r1, c1, r2, c2 in order:
        a, b = (r1, c1), (r2, c2)
        changes = ["add", "split" if (a, b) in net.bridges else "block"]
        rng.shuffle(changes)
        if any(_change(rng, net, change, a, b, maxb, loops) for change in changes):
            done += 1
            if done == count:
                break
    return done > 0


def _solved_by_rules(rng: random.Random, net: _Network, level: str, maxb: int, loops: bool,
                     max_repairs: int) -> Hashi | None:
    """Repair the network until the rules of `level` solve its puzzle (None: gave up)."""
    for _ in range(max_repairs + 1):
        puzzle = net.puzzle(maxb, loops)
        domains = puzzle.deduce(level)
        if domains is None:
            return None
        stuck = [e.key for e in puzzle.edges if len(domains[e.key]) > 1]
        if not stuck:
            return puzzle
        if not _repair(rng, net, stuck, maxb, loops, count=1 + len(stuck) // 10):
            return None
    return None


def _unique_by_search(rng: random.Random, net: _Network, maxb: int, loops: bool,
                      max_repairs: int) -> Hashi | None:
    """Repair the network until its puzzle has one solution (for `fiendish`).

    Each round counts up to two solutions with search and repairs an edge where they
    differ, which usually rules the second solution out.
    """
    for _ in range(max_repairs + 1):
        puzzle = net.puzzle(maxb, loops)
        counted = count(puzzle.to_csp(counting=True), limit=2, keep=True,
                        var_order=puzzle.default_var_order, max_nodes=_FIENDISH_NODES)
        if not counted.complete or counted.count == 0:
            return None
        if counted.count == 1:
            return puzzle
        first, second = (puzzle.decode(s) for s in counted.solutions)
        disputed = sorted(key for key in {*first, *second}
                          if first.get(key, 0) != second.get(key, 0))
        if not _repair(rng, net, disputed, maxb, loops):
            return None
    return None


def default_islands(width: int, height: int) -> int:
    """The island count aimed at when none is given.

    Small grids are dense (one island in four cells at 5x5), large ones sparse (one in
    eight at 25x25, like Tatham's puzzles): a sparse network has fewer loops, and loops
    are what make a puzzle ambiguous.
    """
    cells = width * height
    return max(2, round(cells / (3 + math.sqrt(cells) / 5)))


#: the sides each level offers for the classic puzzle (maxb 2, loops allowed; see
#: `sizes_for` for the others): a level offered at a size is always found
SIZES: dict[str, Sides] = {"easy": (3, GENERATE_SIDE["hashi"]),
                           "medium": (5, GENERATE_SIDE["hashi"]),
                           "hard": (5, GENERATE_SIDE["hashi"]),
                           "fiendish": (7, GENERATE_SIDE["hashi"])}


def sizes_for(maxb: int, loops: bool) -> dict[str, Sides]:
    """The levels and sides offered for puzzles with `maxb` and `loops`.

    With one bridge per pair, medium adds nothing to easy when loops are allowed (its edge
    minimum is then saturation: Tatham's generator has no such puzzles either), and no
    puzzle beyond hard has been found.
    """
    sizes = dict(SIZES)
    if maxb == 1:
        del sizes["fiendish"]
        if loops:
            del sizes["medium"]
        else:
            sizes["hard"] = (10, GENERATE_SIDE["hashi"])
    return sizes


#: candidates tried when the island count is given (it may leave no room for a level)
ISLAND_ATTEMPTS = 2000


def generate(width: int = 7, height: int = 7, islands: int | None = None, maxb: int = 2,
             loops: bool = True, difficulty: str = "medium", seed: int | None = None) -> Hashi:
    """A puzzle with exactly one solution and grade `difficulty` (see `grade.py`).

    Sides offered by level (rows and columns alike): easy 3-100, medium and hard 5-100,
    fiendish 7-100; with `maxb=1`, no fiendish, no medium when loops are allowed, hard
    from 10 when they are not (`sizes_for`). Other sizes are refused before any work. At
    those sizes the generator never gives up: it grows candidates until one has the grade.
    `islands` is how many islands to grow (by default one cell in 4 to 11, see
    `default_islands`; the repairs that make the solution unique add a few more); with it,
    `ISLAND_ATTEMPTS` candidates are tried at most, since few islands may leave no room for
    a level. `maxb` is the most
    bridges a pair may carry (1-4) and `loops=False` makes a no-loops (Tatham `L`) puzzle.
    The same `seed` gives the same puzzle.
    """
    if not 1 <= maxb <= MAX_BRIDGES:
        raise ValueError(f"maxb must be between 1 and {MAX_BRIDGES}, not {maxb}")
    sizes.check("hashi", sizes_for(maxb, loops), difficulty, width, height)
    if islands is not None and not 2 <= islands <= (width * height + 1) // 2:
        raise ValueError(f"{islands} islands cannot fit a {width}x{height} grid "
                         f"(expected 2 to {(width * height + 1) // 2})")
    rng = random.Random(seed)
    target = islands if islands is not None else default_islands(width, height)
    attempts = itertools.count() if islands is None else range(ISLAND_ATTEMPTS)
    for _ in attempts:
        puzzle = _candidate(rng, height, width, target, islands is not None, maxb, loops,
                            difficulty)
        if puzzle is not None and puzzle.count_solutions(limit=2) == 1:
            return puzzle
    raise ValueError(f"no {difficulty} {width}x{height} puzzle with {islands} islands found "
                     f"in {ISLAND_ATTEMPTS} attempts (seed {seed}); try more islands")


def _candidate(rng: random.Random, height: int, width: int, target: int, exact: bool,
               maxb: int, loops: bool, difficulty: str) -> Hashi | None:
    """One grown and repaired candidate of grade `difficulty`, or None."""
    net = _grow(rng, height, width, target, maxb, loops)
    if len(net.islands) < (target if exact else 2) or _empty_borders(net):
        return None  # the grid filled up first, or the network left a border line empty
    max_repairs = max(10, target // 2)
    if difficulty == "fiendish":
        if net.puzzle(maxb, loops).solved_by_rules("hard") is not False:
            return None
        puzzle = _unique_by_search(rng, net, maxb, loops, max_repairs)
        if puzzle is None or puzzle.solved_by_rules("hard") is not False:
            return None
        return puzzle
    puzzle = _solved_by_rules(rng, net, difficulty, maxb, loops, max_repairs)
    weaker = _WEAKER.get(difficulty)
    if puzzle is None or (weaker is not None and puzzle.solved_by_rules(weaker) is not False):
        return None
    return puzzle
