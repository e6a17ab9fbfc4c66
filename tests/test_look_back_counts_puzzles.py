"""Looking back never changes a count: small random puzzles of every kind, counted with
chronological backtracking, backjumping and learning, give the same number of solutions,
and every solution passes the puzzle's own checker."""

from __future__ import annotations

import random

import pytest

from csp_puzzles import hashi, kakuro, singles, towers
from csp_puzzles.core import count

#: each look-back under dom/wdeg, and learning branching on conflict activity
RUNS = (("none", "dom-wdeg"), ("cbj", "dom-wdeg"), ("learn", "dom-wdeg"),
        ("learn", "activity"))


def _hashi(rng: random.Random) -> str:
    """Islands on a 3x3 lattice joined by random bridges (a spanning tree of at least one
    each, 0-2 on the other links): solvable, and often in several ways."""
    links = [((r, c), (r, c + 1)) for r in range(3) for c in range(2)] + \
            [((r, c), (r + 1, c)) for r in range(2) for c in range(3)]
    rng.shuffle(links)
    group = {(r, c): (r, c) for r in range(3) for c in range(3)}

    def find(x):
        while group[x] != x:
            x = group[x]
        return x

    degree = dict.fromkeys(group, 0)
    for a, b in links:
        joins = find(a) != find(b)
        if joins:
            group[find(a)] = find(b)
        n = rng.randint(1, 2) if joins else rng.randint(0, 2)
        degree[a] += n
        degree[b] += n
    grid = [["0"] * 5 for _ in range(5)]
    for (r, c), n in degree.items():
        grid[2 * r][2 * c] = str(n)
    return "\n".join(" ".join(row) for row in grid) + "\n"


def _towers(rng: random.Random) -> str:
    clues = [str(rng.randint(1, 4)) if rng.random() < 0.3 else "" for _ in range(16)]
    return "4:" + "/".join(clues)


def _singles(rng: random.Random) -> str:
    rows = [" ".join(str(rng.randint(1, 6)) for _ in range(4)) for _ in range(4)]
    return "4 4\n" + "\n".join(rows) + "\n"


def _kakuro(rng: random.Random) -> str:
    """A generated puzzle with every sum moved by -1, 0 or +1 (so 0, 1 or more solutions)."""
    header, *rows = kakuro.generate(width=5, height=5, seed=rng.randrange(1000)).to_text() \
        .splitlines()

    def moved(token: str) -> str:
        if "," not in token:
            return token
        return ",".join(str(max(1, int(part) + rng.choice((-1, 0, 1)))) if part else ""
                        for part in token.split(","))

    return "\n".join([header] + [" ".join(map(moved, row.split())) for row in rows]) + "\n"


KINDS = {"hashi": (hashi, _hashi), "towers": (towers, _towers),
         "singles": (singles, _singles), "kakuro": (kakuro, _kakuro)}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_counts_agree_with_and_without_looking_back(kind):
    module, make = KINDS[kind]
    rng = random.Random(17)
    counts = []
    for _ in range(12):
        try:
            puzzle = module.parse(make(rng))
        except ValueError:  # a random text that is not a well-formed puzzle
            continue
        csp = puzzle.to_csp(counting=True)
        found = {}
        for look_back, var_order in RUNS:
            result = count(csp, keep=True, inference="mac", var_order=var_order,
                           look_back=look_back)
            assert result.complete
            for solution in result.solutions:
                assert not puzzle.check(puzzle.decode(solution)), (kind, look_back)
            found[look_back, var_order] = sorted(
                map(repr, (sorted(s.items()) for s in result.solutions)))
        assert len(set(map(tuple, found.values()))) == 1, (kind, found)
        counts.append(len(found["none", "dom-wdeg"]))
    assert len(counts) >= 6 and max(counts) >= 2, counts  # the sample is not all trivial
