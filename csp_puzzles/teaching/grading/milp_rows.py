"""Exercise 13 (notebook 10): two row families of the Singles integer program.

The student writes `no_repeat_rows(puzzle, shade)` ("k equal numbers in a line: at least
k - 1 of them shaded") and `open_around(puzzle, shade, group)` (the lazy connectivity row
"one of the cells around this group is unshaded"). The first two checks need no solver: they
evaluate the rows on every shading of small grids, against the puzzle's own rules. The third
solves generated puzzles with HiGHS, the student's rows in the program and the student's
connectivity rows added lazily, and checks each answer with the puzzle. HiGHS (the `highspy`
package) may be missing, in a browser kernel for one: that check then says so and stops,
and the grader's environment, which has it, runs it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import product
from typing import Any

from ... import singles
from ...solvers.lazy_cuts import groups
from ...solvers.milp import IntegerProgram, Row, at_most, solutions
from . import GradingUnavailable, draw, fail, listed, own_work, unwatched

Cell = tuple[int, int]
Shade = dict[Cell, int]
RowsOf = Callable[[singles.Singles, Shade], Iterable[Row]]
OpenAround = Callable[[singles.Singles, Shade, set[Cell]], Row]
#: rounds of the lazy loop allowed; the drawn puzzles need a few
MAX_ROUNDS = 100
#: the watch's words and patterns: what the student's code may call in csp_puzzles
OWN = ("the two row families", "at_least, at_most, Row and the puzzle's cells, lines and "
       "neighbours", "solvers.milp:Row*", "solvers.milp:at_least", "solvers.milp:at_most",
       "singles.model:Singles.height", "singles.model:Singles.width",
       "singles.model:Singles.cells", "singles.model:Singles.lines",
       "singles.model:Singles.neighbours")


def holds(row: Row, values: Sequence[float]) -> bool:
    """Whether the values (indexed by variable) satisfy the row."""
    total = sum(coefficient * values[var] for var, coefficient in row.terms.items())
    return row.lower - 1e-9 <= total <= row.upper + 1e-9


def _shade(puzzle: singles.Singles) -> tuple[IntegerProgram, Shade]:
    program = IntegerProgram("singles")
    return program, {cell: program.binary(cell) for cell in puzzle.cells()}


def _repeats(puzzle: singles.Singles, shaded: set[Cell]) -> str | None:
    """The first line where a number repeats among the unshaded cells, in words."""
    for label, cells in puzzle.lines():
        seen: dict[int, Cell] = {}
        for cell in cells:
            if cell in shaded:
                continue
            number = puzzle.grid[cell[0]][cell[1]]
            if number in seen:
                return f"{number} twice in {label}, at {seen[number]} and {cell} unshaded"
            seen[number] = cell
    return None


def _grid_words(puzzle: singles.Singles) -> str:
    return " / ".join(" ".join(map(str, row)) for row in puzzle.grid)


def grid_of(rows: Sequence[Sequence[int]]) -> singles.Singles:
    return singles.Singles(tuple(tuple(row) for row in rows))


def random_grid(rng: random.Random, height: int, width: int) -> singles.Singles:
    """A grid of small numbers, so that lines repeat them."""
    return grid_of([[rng.randint(1, max(2, width - 1)) for _ in range(width)]
                    for _ in range(height)])


def verify_no_repeat(no_repeat_rows: RowsOf, puzzle: singles.Singles) -> None:
    __tracebackhide__ = True
    _, shade = _shade(puzzle)
    rows = [plain(row, "no_repeat_rows", "at_least")
            for row in listed(no_repeat_rows(puzzle, dict(shade)), "no_repeat_rows")]
    with unwatched():
        _every_shading(puzzle, shade, rows)


def plain(row: Any, who: str, maker: str) -> Row:
    """The student's row as plain numbers (read while the watch is on), or a verdict."""
    __tracebackhide__ = True
    if not isinstance(row, Row):
        fail(f"{who} gave {row!r}: each row is a Row ({maker} gives one)")
    return Row({int(var): float(c) for var, c in dict(row.terms).items()},
               float(row.lower), float(row.upper))


def _every_shading(puzzle: singles.Singles, shade: Shade, rows: list[Row]) -> None:
    """Every shading of the grid tried on the rows: exactly those that leave no number twice
    unshaded in a line may satisfy them all."""
    __tracebackhide__ = True
    cells = puzzle.cells()
    for bits in product((0, 1), repeat=len(cells)):
        shaded = {cell for cell, bit in zip(cells, bits) if bit}
        values = [bits[shade[cell]] for cell in cells]
        repeat = _repeats(puzzle, shaded)
        broken = next((row for row in rows if not holds(row, values)), None)
        shown = sorted(shaded) or "no cell"
        if repeat is None and broken is not None:
            fail(f"in the grid {_grid_words(puzzle)}, shading {shown} repeats no "
                 f"number, yet it breaks your row {broken}")
        if repeat is not None and broken is None:
            fail(f"in the grid {_grid_words(puzzle)}, shading {shown} leaves "
                 f"{repeat}, yet it satisfies all your rows")


@own_work(*OWN)
def check_no_repeat_rows(no_repeat_rows: RowsOf, seed: Any = None, trials: int = 8) -> None:
    """A 3x3 grid, then `trials` random grids up to 3x4: every shading is tried."""
    __tracebackhide__ = True
    verify_no_repeat(no_repeat_rows, grid_of([[1, 1, 2], [2, 1, 1], [1, 2, 2]]))
    rng = draw("milp no repeats", seed)
    for _ in range(trials):
        verify_no_repeat(no_repeat_rows, random_grid(rng, rng.randint(2, 3), rng.randint(2, 4)))


def _components(puzzle: singles.Singles, open_cells: set[Cell]) -> list[set[Cell]]:
    cells = puzzle.cells()
    index = {cell: i for i, cell in enumerate(cells)}
    links = [(index[a], index[b]) for a in open_cells for b in puzzle.neighbours(a)
             if b in open_cells and a < b]
    return [{cells[i] for i in group} for group in groups(len(cells), links)
            if cells[group[0]] in open_cells]


def _apart_shadings(puzzle: singles.Singles) -> Iterator[set[Cell]]:
    """Every shading with no two shaded cells touching, by brute force."""
    cells = puzzle.cells()
    for bits in product((0, 1), repeat=len(cells)):
        shaded = {cell for cell, bit in zip(cells, bits) if bit}
        if not any(other in shaded for cell in shaded for other in puzzle.neighbours(cell)):
            yield shaded


def _valid_shadings(puzzle: singles.Singles) -> list[set[Cell]]:
    """Every shading with no two shaded cells touching and the unshaded cells connected."""
    cells = set(puzzle.cells())
    return [shaded for shaded in _apart_shadings(puzzle)
            if len(_components(puzzle, cells - shaded)) <= 1]


def verify_open_around(open_around: OpenAround, puzzle: singles.Singles,
                       shaded: set[Cell], group: set[Cell], valid: list[set[Cell]]) -> None:
    __tracebackhide__ = True
    _, shade = _shade(puzzle)
    where = (f"the grid {_grid_words(puzzle)} shaded at {sorted(shaded)}, whose unshaded "
             f"group {sorted(group)} is walled in")
    row = plain(open_around(puzzle, dict(shade), set(group)), f"for {where}, open_around",
                "at_most")
    with unwatched():
        _cuts_off(row, puzzle, shade, shaded, where, valid)


def _cuts_off(row: Row, puzzle: singles.Singles, shade: Shade, shaded: set[Cell], where: str,
              valid: list[set[Cell]]) -> None:
    """The row must break the answer `shaded` and keep every shading in `valid`."""
    __tracebackhide__ = True
    cells = puzzle.cells()
    answer = [1 if cell in shaded else 0 for cell in cells]
    if holds(row, [answer[shade[cell]] for cell in cells]):
        fail(f"for {where}, your row {row} still allows this answer: the row must "
             f"cut it off")
    for other in valid:
        values = [1 if cell in other else 0 for cell in cells]
        if not holds(row, [values[shade[cell]] for cell in cells]):
            fail(f"for {where}, your row {row} also forbids the shading "
                 f"{sorted(other) or 'of no cell'}, whose unshaded cells are "
                 f"connected: a lazy row must keep every solution")


def _walled_in(rng: random.Random, puzzle: singles.Singles,
               valid: list[set[Cell]]) -> tuple[set[Cell], set[Cell]] | None:
    """A shading with no touching shaded cells whose unshaded cells fall apart, and one of
    their groups; None when the grid has no such shading."""
    cells = set(puzzle.cells())
    candidates = []
    for shaded in _apart_shadings(puzzle):
        parts = _components(puzzle, cells - shaded)
        if len(parts) > 1:
            candidates.append((shaded, rng.choice(parts)))
    return rng.choice(candidates) if candidates else None


@own_work(*OWN)
def check_open_around(open_around: OpenAround, seed: Any = None, trials: int = 8) -> None:
    """Notebook 06's corner on a 3x3 grid, then `trials` random small grids."""
    __tracebackhide__ = True
    grid = grid_of([[1, 2, 3], [2, 3, 1], [3, 1, 2]])
    with unwatched():
        valid = _valid_shadings(grid)
    verify_open_around(open_around, grid, {(0, 1), (1, 0)}, {(0, 0)}, valid)
    rng = draw("milp open around", seed)
    done = 0
    while done < trials:
        puzzle = random_grid(rng, rng.randint(2, 3), rng.randint(3, 4))
        with unwatched():
            valid = _valid_shadings(puzzle)
            drawn = _walled_in(rng, puzzle, valid)
        if drawn is not None:
            verify_open_around(open_around, puzzle, *drawn, valid)
            done += 1


# -- whole puzzles with HiGHS ------------------------------------------------------------------
def require_highs() -> None:
    """Raise `GradingUnavailable` (one clear sentence) when HiGHS cannot be imported."""
    try:
        import highspy  # noqa: F401
    except ImportError:
        raise GradingUnavailable(
            "HiGHS (the highspy package) is not installed in this kernel, as in the browser "
            "version of the course: this check cannot run here. Your grader runs it with "
            "HiGHS; to run it yourself, pip install highspy") from None


def program_with(puzzle: singles.Singles, no_repeat_rows: RowsOf) -> tuple[IntegerProgram,
                                                                            Shade]:
    """The student's no-repeat rows, and "neighbours are not both shaded"."""
    program, shade = _shade(puzzle)
    for row in listed(no_repeat_rows(puzzle, dict(shade)), "no_repeat_rows"):
        program.add(plain(row, "no_repeat_rows", "at_least"))
    for cell in puzzle.cells():
        for other in puzzle.neighbours(cell):
            if cell < other:
                program.add(at_most([shade[cell], shade[other]], 1))
    return program, shade


def solve_with(puzzle: singles.Singles, no_repeat_rows: RowsOf, open_around: OpenAround,
               limit: int = 2) -> list[set[Cell]]:
    """Up to `limit` solutions: HiGHS, with the student's connectivity rows added lazily."""
    program, shade = program_with(puzzle, no_repeat_rows)
    cells = puzzle.cells()

    rounds = 0

    def cuts(values: Sequence[int]) -> list[Row]:
        __tracebackhide__ = True
        nonlocal rounds
        parts = _components(puzzle, {cell for cell in cells if not values[shade[cell]]})
        if len(parts) < 2:
            return []
        rows = [plain(open_around(puzzle, dict(shade), part), "open_around", "at_most")
                for part in parts]
        for part, row in zip(parts, rows):
            if holds(row, values):
                fail(f"HiGHS returned a shading whose unshaded group {sorted(part)} "
                     f"is walled in, and your row {row} for it does not cut that "
                     f"answer off: the loop would get the same answer forever")
        rounds += 1
        if rounds > MAX_ROUNDS:
            fail(f"the lazy loop with your rows needed more than {MAX_ROUNDS} rounds")
        return rows

    found = []
    for values in solutions(program, cuts, list(shade.values())):
        found.append({cell for cell in cells if values[shade[cell]]})
        if len(found) >= limit:
            break
    return found


@own_work(*OWN)
def check_puzzles(no_repeat_rows: RowsOf, open_around: OpenAround, seed: Any = None,
                  trials: int = 4) -> None:
    """Generated puzzles up to 8x8: exactly one solution each, accepted by the puzzle."""
    __tracebackhide__ = True
    require_highs()
    rng = draw("milp puzzles", seed)
    for number in range(1, trials + 1):
        size = rng.randint(5, 8)
        with unwatched():
            puzzle = singles.generate(size, difficulty="easy", seed=rng.randrange(10**6))
        where = f"generated puzzle {number} ({puzzle.to_tatham()})"
        found = solve_with(puzzle, no_repeat_rows, open_around)
        if not found:
            fail(f"with your rows HiGHS finds no solution of {where}, which has one")
        for answer in found:
            problems = puzzle.check(frozenset(answer))
            if problems:
                fail(f"with your rows HiGHS answers {sorted(answer)} on {where}, "
                     f"which breaks a rule: {problems[0]}")
        if len(found) > 1:
            fail(f"with your rows HiGHS finds two solutions of {where}, which has "
                 f"one")
