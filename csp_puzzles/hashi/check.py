"""An independent Hashi checker: reads the grid and the bridges, never the solver's model.

It recomputes everything from the island positions (what lies between two islands, which
bridges cross), so a bug in the model's geometry or propagators cannot hide here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import Hashi

Pair = tuple[int, int, int, int]
Cell = tuple[int, int]
#: the two islands a bridge joins, in reading order
Link = tuple[Cell, Cell]


def bridges_of(solution: Any) -> list[tuple[Pair, Any]]:
    """(pair, count) items of a solution: a dict {(r1,c1,r2,c2): n}, the JSON object
    {"bridges": [[r1,c1,r2,c2,n], ...]} or that list alone."""
    if isinstance(solution, Mapping) and "bridges" in solution:
        solution = solution["bridges"]
    if isinstance(solution, Mapping):
        return [(tuple(key), n) for key, n in solution.items()]
    items: Iterable[Any] = solution
    return [(tuple(entry[:4]), entry[4]) for entry in items]


def check(puzzle: Hashi, solution: Any, adjacent: bool = True) -> list[str]:
    """Every broken rule, in words; an empty list means `solution` solves `puzzle`."""
    if solution is None:
        return ["no solution given"]
    value_at = {(i.row, i.col): i.value for i in puzzle.islands}
    problems: list[str] = []
    listed: set[Link] = set()
    covered: dict[Cell, tuple[bool, str]] = {}  # cell -> (horizontal, the bridge over it)
    links: dict[Link, int] = {}  # the bridges that lie straight and clear: how many
    for pair, n in bridges_of(solution):
        link = _read_entry(pair, n, listed, problems)
        if link is not None and _lies_clear(link, n, puzzle.maxb, adjacent, value_at,
                                            covered, problems):
            links[link] = n
    degree = dict.fromkeys(value_at, 0)
    for (p, q), n in links.items():
        degree[p] += n
        degree[q] += n
    for pos, value in value_at.items():
        if degree[pos] != value:
            problems.append(f"island ({pos[0]},{pos[1]}) has {degree[pos]} bridges, "
                            f"its number is {value}")
    problems.extend(_connection_problems(puzzle, list(value_at), list(links)))
    return problems


def _name(link: Link) -> str:
    (p, q) = link
    return f"({p[0]},{p[1]})-({q[0]},{q[1]})"


def _read_entry(pair: tuple[Any, ...], n: Any, listed: set[Link],
                problems: list[str]) -> Link | None:
    """The two ends of an entry of the solution, in order; None for an entry that is
    malformed, listed twice (both said in `problems`) or of no bridge."""
    if len(pair) != 4 or not all(isinstance(x, int) for x in pair):
        problems.append(f"bad bridge entry {pair!r}, expected (r1, c1, r2, c2)")
        return None
    p, q = sorted([pair[:2], pair[2:]])
    link = (p, q)
    if not isinstance(n, int) or n < 0:
        problems.append(f"{_name(link)}: {n!r} bridges, expected a whole number")
        return None
    if n == 0:
        return None
    if link in listed:
        problems.append(f"{_name(link)} is listed twice")
        return None
    listed.add(link)
    return link


def _lies_clear(link: Link, n: int, maxb: int, adjacent: bool, value_at: dict[Cell, int],
                covered: dict[Cell, tuple[bool, str]], problems: list[str]) -> bool:
    """Whether the bridges of `link` join two islands along a row or a column without
    passing over a third; what else they break (too many, touching islands, crossing a
    bridge `covered` holds) goes to `problems`, and the cells they pass over to `covered`."""
    p, q = link
    name = _name(link)
    for end in link:
        if end not in value_at:
            problems.append(f"{name}: no island at ({end[0]},{end[1]})")
    if p not in value_at or q not in value_at:
        return False
    if p == q or (p[0] != q[0] and p[1] != q[1]):
        problems.append(f"{name}: bridges run along a row or a column between two islands")
        return False
    if n > maxb:
        problems.append(f"{name}: {n} bridges, at most {maxb} join two islands")
    horizontal = p[0] == q[0]
    cells = ([(p[0], c) for c in range(p[1] + 1, q[1])] if horizontal
             else [(r, p[1]) for r in range(p[0] + 1, q[0])])
    if not cells and not adjacent:
        problems.append(f"{name}: touching islands may not be joined (no-adjacent rule)")
    over = [cell for cell in cells if cell in value_at]
    if over:
        problems.append(f"{name}: passes over the island at ({over[0][0]},{over[0][1]})")
        return False
    for cell in cells:
        if cell in covered and covered[cell][0] != horizontal:
            problems.append(f"{name} crosses {covered[cell][1]} at ({cell[0]},{cell[1]})")
        covered[cell] = (horizontal, name)
    return True


def _connection_problems(puzzle: Hashi, islands: list[Cell], links: list[Link]) -> list[str]:
    """Connectivity (and no cycle in the no-loops variant), by a union-find.

    Its own few lines rather than the shared `csp_puzzles.core.unionfind`, which the solver's
    connectivity rule uses: a bug there must not be able to hide here too.
    """
    parent = {pos: pos for pos in islands}

    def find(x: Cell) -> Cell:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    problems = []
    for p, q in links:
        rp, rq = find(p), find(q)
        if rp == rq:
            if not puzzle.loops:
                problems.append(f"({p[0]},{p[1]})-({q[0]},{q[1]}) closes a loop, "
                                "this puzzle forbids loops")
            continue
        parent[rp] = rq
    groups = {find(pos) for pos in islands}
    if len(groups) > 1:
        problems.append(f"the islands form {len(groups)} separate groups, expected one")
    return problems
