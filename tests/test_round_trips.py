"""Every writer round-trips: `parse(p.to_text()) == p` and `parse(p.to_tatham()) == p`
for every kind, on random puzzles.

Puzzles here are random, not solvable: the formats must carry any grid the parser accepts.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from csp_puzzles import hashi, kakuro, singles, towers
from csp_puzzles.kakuro.model import BLOCK, WHITE, Clue

FAST = settings(max_examples=60, deadline=None)


@st.composite
def hashi_puzzles(draw, maxb=None, loops=None):
    height = draw(st.integers(1, 7))
    width = draw(st.integers(1, 7))
    maxb = draw(st.integers(1, 4)) if maxb is None else maxb
    loops = draw(st.booleans()) if loops is None else loops
    cells = st.tuples(st.integers(0, height - 1), st.integers(0, width - 1))
    islands = draw(st.dictionaries(cells, st.integers(1, 4 * maxb), min_size=1))
    return hashi.Hashi(height, width, islands, maxb=maxb, loops=loops)


@FAST
@given(hashi_puzzles())
def test_hashi_text_and_tatham_round_trip(puzzle):
    assert hashi.parse(puzzle.to_text()) == puzzle
    assert hashi.parse(puzzle.to_tatham()) == puzzle


@FAST
@given(hashi_puzzles(maxb=2, loops=True))
def test_hashi_grid_text_round_trips(puzzle):
    text = puzzle.to_text()
    assert ":" not in text  # the grid text, not a game ID
    assert hashi.parse(text) == puzzle


def test_hashi_matrices_that_look_like_headers():
    for islands, height, width in (({(0, 0): 2, (0, 1): 2, (1, 0): 2, (1, 1): 2, (2, 0): 1,
                                     (2, 1): 1}, 3, 2),
                                   ({(0, 0): 3, (0, 1): 3, (0, 2): 1}, 4, 3)):
        puzzle = hashi.Hashi(height, width, islands)
        assert hashi.parse(puzzle.to_text()) == puzzle


@st.composite
def towers_puzzles(draw):
    n = draw(st.integers(1, 9))
    clue = st.integers(0, n)
    sides = [draw(st.lists(clue, min_size=n, max_size=n)) for _ in range(4)]
    # givens: a random Latin square, partly erased, so no row or column repeats
    shift = draw(st.integers(0, n - 1))
    keep = draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))
    givens = [[((r + c + shift) % n) + 1 if keep[r * n + c] else 0 for c in range(n)]
              for r in range(n)]
    return towers.Towers.from_sides(n, sides, givens)


@FAST
@given(towers_puzzles())
def test_towers_round_trips(puzzle):
    for text in (puzzle.to_text(), puzzle.to_tatham()):
        assert towers.parse(text) == puzzle, text


@st.composite
def singles_puzzles(draw):
    height = draw(st.integers(1, 8))
    width = draw(st.integers(1, 8))
    largest = draw(st.sampled_from([max(width, height), 40]))
    row = st.tuples(*[st.integers(1, largest)] * width)
    return singles.Singles(tuple(draw(row) for _ in range(height)))


@FAST
@given(singles_puzzles())
def test_singles_round_trips(puzzle):
    assert singles.parse(puzzle.to_text()) == puzzle
    if max(x for row in puzzle.grid for x in row) <= max(puzzle.width, puzzle.height):
        assert singles.parse(puzzle.to_tatham()) == puzzle


@st.composite
def kakuro_puzzles(draw):
    """A random layout with a possible sum on every run: distinct digits in L cells make
    every total from 1 + ... + L to 9 + ... + (10 - L)."""
    height = draw(st.integers(2, 8))
    width = draw(st.integers(2, 8))
    white = [[r > 0 and c > 0 and draw(st.booleans()) for c in range(width)]
             for r in range(height)]
    white[1][1] = True

    def total(r, c, dr, dc):
        length = 0
        r, c = r + dr, c + dc
        while r < height and c < width and white[r][c]:
            length, r, c = length + 1, r + dr, c + dc
        if not length:
            return None
        return draw(st.integers(length * (length + 1) // 2, length * (19 - length) // 2))

    grid: list[list] = []
    for r in range(height):
        row: list = []
        for c in range(width):
            clue = None if white[r][c] else Clue(total(r, c, 1, 0), total(r, c, 0, 1))
            row.append(WHITE if white[r][c] else clue if clue != (None, None) else BLOCK)
        grid.append(row)
    return kakuro.Kakuro(grid)


@FAST
@given(kakuro_puzzles())
def test_kakuro_round_trips(puzzle):
    assert kakuro.parse(puzzle.to_text()) == puzzle
