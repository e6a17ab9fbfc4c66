"""The deduction rules of Towers, each a propagator on the generic core.

A *line* is a row or a column, read away from its *front* clue (left of a row, top of a
column) towards its *back* clue (right, bottom). Every rule below names itself in the
trace, so a student stepping through a search sees which deduction removed which height.

- `ClueRules`: Tatham's "easy" clue reasoning. From the clues alone: clue 1 puts the
  tallest tower next to it, clue n makes the line rise 1, 2, ..., n, facing clues summing
  to n + 1 place the tallest tower, and the distance bound "the cell at distance d from
  clue c holds at most n - c + 1 + d". With placed towers (`dynamic`): the same bound
  skipping hidden towers ("room to rise"), and "tallest in view" (clue - 1 of the tallest
  towers already visible: the first cell must hide the cells before them).
- `LatinSingles`: the Latin square by hand: a placed height leaves the rest of its line
  (naked single), a height with one place left in a line goes there (hidden single).
- `LineClues`: every ordering of the line consistent with its clues and current domains,
  enumerated by dynamic programming over (heights used, towers seen) states remembered
  across calls; keeps exactly the heights some ordering uses (Tatham's "hard" per-clue
  enumeration). Lines with no clue never get one: no table of n! orderings is ever built.
- `ValuePositions`: for one height, the cells holding it form a permutation: keep only the
  cells that lie on some such permutation (positional sets, X-wings and swordfish).
- `ForcingChains`: Tatham's forcing chains on the Latin square (see the class).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core import AllDifferent, Constraint, SearchState
from ..core.checking import Breach, how_many, repeated
from ..core.constraints import Supposition
from ..core.matching import alldifferent_supports
from ..core.trace import plural, show

if TYPE_CHECKING:
    from ..core.hints import Words


def visible(heights: Sequence[int]) -> int:
    """How many towers one sees looking along `heights` from its start."""
    seen, tallest = 0, 0
    for h in heights:
        if h > tallest:
            seen, tallest = seen + 1, h
    return seen


def _cells(k: int) -> str:
    return "cell" if k == 1 else f"{k} cells"


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


class Line:
    """A row or column with its two clues (0 = no clue), as the rules see it."""

    def __init__(self, label: str, cells: Sequence[Hashable], front: int, back: int,
                 front_side: str, back_side: str):
        self.label = label  # "row 2" or "column 0"
        self.cells = tuple(cells)
        self.front, self.back = front, back
        self.front_side, self.back_side = front_side, back_side  # "left"/"top", "right"/"bottom"

    @property
    def has_clue(self) -> bool:
        return bool(self.front or self.back)

    def from_side(self, side: str) -> tuple[int, tuple[Hashable, ...]]:
        """The clue on `side` ("front"/"back") and the cells in order away from it."""
        if side == "front":
            return self.front, self.cells
        return self.back, self.cells[::-1]

    def side_name(self, side: str) -> str:
        return self.front_side if side == "front" else self.back_side

    def one_side(self, side: str) -> Line:
        """The same line with the clue of `side` ("front"/"back") only."""
        front = self.front if side == "front" else 0
        back = self.back if side == "back" else 0
        return Line(self.label, self.cells, front, back, self.front_side, self.back_side)

    def holds(self, heights: Sequence[int]) -> bool:
        """Do these heights (front to back) show the clues?"""
        return ((not self.front or visible(heights) == self.front)
                and (not self.back or visible(heights[::-1]) == self.back))


class ClueRules(Constraint):
    """What the clues of one line say with little or no look at the cells (Tatham's easy)."""

    def __init__(self, line: Line, size: int, dynamic: bool = True):
        super().__init__(line.cells, f"{line.label} clue rules")
        self.line, self.size = line, size
        self.bounds = self._bounds()
        #: False: only the rules that read clues alone (for models where `LineClues`
        #: already does everything the placed-tower rules could)
        self.dynamic = dynamic
        self.idempotent = not dynamic

    def _bounds(self) -> list[tuple[Hashable, frozenset[int], str]]:
        """(cell, heights allowed, rule) triples, in the order a student would apply them."""
        n, line = self.size, self.line
        rules: list[tuple[Hashable, frozenset[int], str]] = []
        for side in ("front", "back"):
            clue, cells = line.from_side(side)
            where = f"clue {clue} {line.side_name(side)} of {line.label}"
            if clue == 1:
                rules.append((cells[0], frozenset({n}),
                              f"{where}: the tallest tower ({n}) stands next to it"))
            elif clue == n:
                for d, cell in enumerate(cells):
                    rules.append((cell, frozenset({d + 1}),
                                  f"{where}: every tower is visible, heights rise 1 to {n}"))
            elif clue:
                for d, cell in enumerate(cells):
                    bound = n - clue + 1 + d
                    if bound < n:
                        rules.append((cell, frozenset(range(1, bound + 1)),
                                      f"{where}: its {_ordinal(d + 1)} cell holds at most "
                                      f"{bound}"))
        if line.front and line.back and line.front + line.back == n + 1:
            cell = line.cells[line.front - 1]
            rules.append((cell, frozenset({n}),
                          f"clues {line.front} and {line.back} facing in {line.label} sum to "
                          f"{n + 1}: the tallest tower is {_ordinal(line.front)} from the "
                          f"{line.front_side}"))
        return rules

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return all(values[cell] in allowed for cell, allowed, _ in self.bounds)

    def propagate(self, state: SearchState) -> None:
        for cell, allowed, rule in self.bounds:
            if not state.domains[cell] <= allowed:
                state.keep_only(cell, allowed, rule)
        if not self.dynamic:
            return
        for side in ("front", "back"):
            clue, cells = self.line.from_side(side)
            if clue > 1:
                where = self._placed(state, cells)
                self._tallest_in_view(state, clue, cells, side, where)
                self._room_to_rise(state, clue, cells, side, where)

    @staticmethod
    def _placed(state: SearchState, cells: tuple[Hashable, ...]) -> dict[int, int]:
        """Placed height -> its distance from the clue."""
        return {state.value(cell): d for d, cell in enumerate(cells)
                if len(state.domains[cell]) == 1}

    def _room_to_rise(self, state: SearchState, clue: int, cells: tuple[Hashable, ...],
                      side: str, where: dict[int, int]) -> None:
        """The distance bound, aware of placed towers.

        The tallest height cannot stand in the first clue - 1 cells (no room left for the
        towers seen before it), the next tallest not in the first clue - 2, and so on; a
        height placed behind a taller placed one is hidden and does not count. As in
        Tatham's solver (whose Easy level this rule is), a height counts as hidden only
        behind a tower at least two taller: the grades then agree with his.
        """
        n, rank = self.size, 0
        for h in range(n, 0, -1):
            if h in where and any(where.get(t, n) < where[h] for t in range(h + 2, n + 1)):
                continue
            reach = clue - rank - 1
            if reach <= 0:
                return
            for d in range(reach):
                if h in state.domains[cells[d]]:
                    state.remove(cells[d], h,
                                 f"clue {clue} {self.line.side_name(side)} of "
                                 f"{self.line.label}: {h}, the {_ordinal(rank + 1)} tallest "
                                 f"it can see, has no room in the first {_cells(reach)}")
            rank += 1

    def _tallest_in_view(self, state: SearchState, clue: int, cells: tuple[Hashable, ...],
                         side: str, where: dict[int, int]) -> None:
        """Placed tallest towers already show clue - 1 towers: the first cell hides the rest.

        Walk down from height n while heights are placed; each one nearer the clue than the
        ones before is in view. If that makes clue - 1 towers and the nearest of them is
        `nearest` cells in, the first cell is the last tower in view: it is taller than the
        `nearest - 1` cells between, so it cannot be one of the `nearest - 1` smallest
        heights that may stand there. (Clue 1 next to n, and clue 2 facing clue 1 next to
        n - 1, are the simplest cases.)
        """
        n = self.size
        in_view, nearest = 0, n
        for h in range(n, 0, -1):
            if h not in where:
                break
            if where[h] < nearest:
                nearest, in_view = where[h], in_view + 1
        if clue != in_view + 1 or nearest <= 1:
            return
        small = [h for h in range(1, n + 1) if not (h in where and where[h] >= nearest)]
        doomed = small[:nearest - 1]
        if any(h in state.domains[cells[0]] for h in doomed):
            tallest = "the tallest" if in_view == 1 else f"the {in_view} tallest"
            rule = (f"clue {clue} {self.line.side_name(side)} of {self.line.label}: "
                    f"{tallest} already show {in_view} of {clue}, so its 1st cell hides the "
                    f"next {_cells(nearest - 1)}")
            for h in doomed:
                if h in state.domains[cells[0]]:
                    state.remove(cells[0], h, rule)


class LineVisibility(Constraint):
    """The `plain` model's clue check: once a line is fully placed, it must show its clues."""

    idempotent = True

    def __init__(self, line: Line):
        super().__init__(line.cells, f"{line.label} shows its clues")
        self.line = line

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return self.line.holds([values[c] for c in self.scope])

    def propagate(self, state: SearchState) -> None:
        if all(len(state.domains[c]) == 1 for c in self.scope):
            if not self.line.holds([state.value(c) for c in self.scope]):
                state.fail(None, f"{self.name}: the clues are not shown")


class LatinSingles(Constraint):
    """Each height once per line, by naked and hidden singles only (no subsets)."""

    idempotent = True

    def __init__(self, cells: Sequence[Hashable], size: int, label: str):
        super().__init__(cells, f"{label} singles")
        self.size, self.label = size, label

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return len({values[c] for c in self.scope}) == len(self.scope)

    def propagate(self, state: SearchState) -> None:
        domains = state.domains
        done: set[Hashable] = set()
        changed = True
        while changed:
            changed = False
            for cell in self.scope:
                if cell in done or len(domains[cell]) != 1:
                    continue
                done.add(cell)
                value = state.value(cell)
                for other in self.scope:
                    if other != cell and value in domains[other]:
                        state.remove(other, value,
                                     f"{self.label}: {value} is placed at {show(cell)} "
                                     "(naked single)")
                        changed = True
            for value in range(1, self.size + 1):
                places = [c for c in self.scope if value in domains[c]]
                if not places:
                    state.fail(None, f"{self.label}: no place left for {value}")
                if len(places) == 1 and len(domains[places[0]]) > 1:
                    state.fix(places[0], value,
                              f"{self.label}: {value} fits only at {show(places[0])} "
                              "(hidden single)")
                    changed = True


# -- per-line enumeration ---------------------------------------------------------------------
# (suffix number, heights used, seen from front, seen from back) -> supports of the rest
_MEMO: dict[tuple[int, int, int, int], tuple[int, ...] | None] = {}
_SUFFIXES: dict[tuple[int, ...], int] = {}
_MEMO_LIMIT = 200_000  # about 50 MB at most, then start afresh
_ONES = [bin(m).count("1") for m in range(1 << 11)]  # bits set, for masks of heights 1..10
_HEIGHTS = [[h for h in range(1, 11) if m >> h & 1] for m in range(1 << 11)]


def line_supports(size: int, front: int, back: int,
                  masks: Sequence[int]) -> tuple[int, ...] | None:
    """For each cell, the heights (a bit mask, bit h = height h) some valid ordering uses.

    An ordering is valid when it is a permutation of 1..size, takes each cell's height from
    its mask, and shows `front` towers from the front and `back` from the back (0 = no
    clue). None when no ordering is valid. The enumeration walks the cells front to back;
    its state is (heights used, towers seen from the front, towers seen from the back so
    far), so equal states are explored once. A height h placed now is seen from the back
    exactly when every taller height is already placed (the rest all come after it).
    States are remembered across calls (keyed on the cells still ahead), which is what
    makes repeated calls during a search cheap; no table of permutations is ever built.
    """
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
        _SUFFIXES.clear()
    return _LineWalk(size, front, back, masks).walk(0, 0, 0, 0, 0)


class _LineWalk:
    """One enumeration of `line_supports`, with what every step of it reads."""

    def __init__(self, size: int, front: int, back: int, masks: Sequence[int]):
        self.size, self.front, self.back, self.masks = size, front, back, masks
        # a state's answer depends only on the cells from its position on: name each suffix
        # (clues and masks) by a number, so that later calls reuse what earlier ones found
        self.suffix = [_SUFFIXES.setdefault((size, front, back, *masks[pos:]), len(_SUFFIXES))
                       for pos in range(size)]
        self.full = (1 << (size + 1)) - 2
        self.taller = [self.full & ~((1 << (h + 1)) - 1) for h in range(size + 1)]
        self.reachable = [0] * (size + 1)  # heights some cell from pos onwards may hold
        for pos in range(size - 1, -1, -1):
            self.reachable[pos] = self.reachable[pos + 1] | masks[pos]

    def walk(self, pos: int, used: int, tallest: int, seen_front: int,
             seen_back: int) -> tuple[int, ...] | None:
        """The supports of the cells from `pos` on, after heights `used` (None: none fits)."""
        if pos == self.size:
            ok = (not self.front or seen_front == self.front) and \
                (not self.back or seen_back == self.back)
            return () if ok else None
        state = (self.suffix[pos], used, seen_front, seen_back)
        if state in _MEMO:
            return _MEMO[state]
        later = self.reachable[pos + 1]
        found: list[int] | None = None
        for h in _HEIGHTS[self.masks[pos] & ~used]:
            now_used = used | 1 << h
            if self.full & ~now_used & ~later:
                continue  # some height still to place fits in no later cell
            counts = self._seen(pos, h, now_used, tallest, seen_front, seen_back)
            if counts is None:
                continue
            rest = self.walk(pos + 1, now_used, max(h, tallest), *counts)
            if rest is None:
                continue
            if found is None:
                found = [1 << h, *rest]
            else:
                found[0] |= 1 << h
                for i, m in enumerate(rest, 1):
                    found[i] |= m
        result = tuple(found) if found is not None else None
        _MEMO[state] = result
        return result

    def _seen(self, pos: int, h: int, now_used: int, tallest: int, seen_front: int,
              seen_back: int) -> tuple[int, int] | None:
        """The towers seen from each side once height h stands at `pos`, or None when the
        clues can no longer be met. A side without a clue keeps its count at 0 (fewer
        states)."""
        left = self.size - pos - 1  # cells after this one
        f = b = 0
        if self.front:
            # still to be seen from the front: at least the tallest (if not yet placed), at
            # most the unused heights taller than every placed one
            f = seen_front + (h > tallest)
            rising = _ONES[self.taller[max(h, tallest)] & ~now_used]
            if f + (rising > 0) > self.front or f + min(left, rising) < self.front:
                return None
        if self.back:
            # seen from the back: h when every taller height is placed; later, at least the
            # tallest height still to place, at most one per cell
            b = seen_back + (not (self.taller[h] & ~now_used))
            if b + (left > 0) > self.back or b + left < self.back:
                return None
        return f, b


class LineClues(Constraint):
    """A clued line: keep exactly the heights used by some ordering that shows its clues.

    Generalized arc consistency for "this line is a permutation showing these clues"; it
    also does the line's all-different reasoning. The enumeration remembers its states
    across calls (see `line_supports`). Tatham enumerates one clue at a time:
    `LineClues(line.one_side("front"), n)` reads the front clue only.
    """

    idempotent = True

    def __init__(self, line: Line, size: int):
        clues = []
        if line.front:
            clues.append(f"{line.front_side} {line.front}")
        if line.back:
            clues.append(f"{line.back_side} {line.back}")
        super().__init__(line.cells, f"{line.label} orderings showing {', '.join(clues)}")
        self.line, self.size = line, size

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        heights = [values[c] for c in self.scope]
        return sorted(heights) == list(range(1, self.size + 1)) and self.line.holds(heights)

    def propagate(self, state: SearchState) -> None:
        domains = [state.domains[c] for c in self.scope]
        masks = [sum(1 << h for h in d) for d in domains]
        supports = line_supports(self.size, self.line.front, self.line.back, masks)
        state.stats.checks += 1
        if supports is None:
            state.fail(None, f"{self.name}: no ordering of the line fits")
        for cell, domain, mask, keep in zip(self.scope, domains, masks, supports):
            if keep != mask:
                for h in [h for h in domain if not keep >> h & 1]:
                    state.remove(cell, h, self.name)


class ValuePositions(Constraint):
    """Height `value` stands once in every row and column: keep the cells of some layout.

    Rows are matched to columns through the cells that may still hold `value`; a cell on
    no perfect matching loses it. This is the positional-sets reasoning (X-wing,
    swordfish: k rows whose `value` fits only in the same k columns).
    """

    idempotent = True

    def __init__(self, value: int, size: int):
        self.cells = [(r, c) for r in range(size) for c in range(size)]
        super().__init__(self.cells, f"positional sets of height {value}")
        self.value, self.size = value, size

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        places = [cell for cell in self.cells if values[cell] == self.value]
        return (len({r for r, _ in places}) == self.size == len(places)
                and len({c for _, c in places}) == self.size)

    def propagate(self, state: SearchState) -> None:
        n, v, domains = self.size, self.value, state.domains
        columns = [{c for c in range(n) if v in domains[(r, c)]} for r in range(n)]
        supported = alldifferent_supports(columns)
        if supported is None:
            state.fail(None, f"{self.name}: no row/column layout for {v} is left")
        for r in range(n):
            for c in columns[r] - supported[r]:
                state.remove((r, c), v, self.name)


class ForcingChains(Constraint):
    """Tatham's forcing chains: a chain of two-candidate cells shows that a height is in one
    of two cells, so a third cell in line with both loses it.

    Start at a cell with two candidates {a, b} and suppose it is not a: then it is b, every
    two-candidate cell in its row or column holding b is its other candidate, and so on
    along the chain (breadth first). If a cell of the chain comes out as a, then a is
    either at the start or there, and a cell in line with both loses a. One deduction per
    call, the first in Tatham's order (start cells row by row, smallest candidate first,
    each chain cell's column before its row).

    A supposition: a hint zooms into it (`core.hints`), supposing the third cell holds a;
    then the start is not a, and the Latin singles walk the chain to a cell left with no
    height. `suppositions` lists every deduction the chains make now.
    """

    priority = 1  # a search over chains: after the line rules have settled

    def __init__(self, size: int):
        self.cells = [(r, c) for r in range(size) for c in range(size)]
        super().__init__(self.cells, "forcing chains")
        self.size = size

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return True  # a rule, not a relation: the Latin square is checked elsewhere

    def explain(self, cause: str, removals: Mapping[Hashable, Sequence[Any]],
                read: Mapping[Hashable, Sequence[Any]], words: Words) -> str | None:
        """"forcing chain: 2 is at (0,2) or (2,1), so cell (2,2) cannot be 2"."""
        return f"{cause.rsplit(', so ', 1)[0]}, so {words.removals(removals)}"

    def propagate(self, state: SearchState) -> None:
        for cell, values, cause in self._deductions(state.domains):
            state.remove(cell, values[0], cause)
            return

    def suppositions(self, state: SearchState) -> list[Supposition]:
        return list(self._deductions(state.domains))

    def _deductions(self, domains: Mapping[Hashable, Any]) -> Iterator[Supposition]:
        """Every deduction of the chains, in Tatham's order."""
        for start in self.cells:
            if len(domains[start]) != 2:
                continue
            for excluded in sorted(domains[start]):
                for cell, end in self._chain(domains, start, excluded):
                    yield Supposition(cell, (excluded,), f"forcing chain: {excluded} is at "
                                      f"{show(start)} or {show(end)}, so not at {show(cell)}")

    def _chain(self, domains: Mapping[Hashable, Any], start: tuple[int, int],
               excluded: int) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        """Each (cell that loses `excluded`, the chain's end that holds it)."""
        n = self.size
        start_row, start_col = start
        (other,) = set(domains[start]) - {excluded}
        value_at = {start: other}  # each chain cell's value when the start is not `excluded`
        queue = [start]
        for cell in queue:
            row, col = cell
            value = value_at[cell]
            for near in [(r, col) for r in range(n)] + [(row, c) for c in range(n)]:
                if near in value_at or value not in domains[near]:
                    continue
                if len(domains[near]) == 2:
                    (value_at[near],) = set(domains[near]) - {value}
                    queue.append(near)
                if value == excluded and (near[0] == start_row or near[1] == start_col):
                    yield near, cell


# -- the rules as a player states them (what `Session.broken` checks) ------------------------
class LineDifferent(AllDifferent):
    """The Latin rule of one line, said as a player says it when broken: "two 3s in row 2"."""

    proven_when_fixed = True

    def __init__(self, cells: Sequence[Hashable], label: str):
        super().__init__(cells, f"{label} all different")
        self.label = label

    def breach(self, values: Mapping[Hashable, Any], words: Words) -> Breach | None:
        found = repeated(values)
        if found is None:
            return None
        height, cells = found
        return Breach(f"{how_many(len(cells))} {height}s in {self.label}", tuple(cells),
                      tuple(cells))


class ClueSeen(LineClues):
    """One clue of a line, as the player reads it: the line holds each height once and,
    from the clue's side, shows `clue` towers (Tatham enumerates one clue at a time too).
    When it is broken by two equal heights, it says so as `LineDifferent` does (one error,
    said once)."""

    proven_when_fixed = True

    def __init__(self, line: Line, side: str, size: int):
        super().__init__(line.one_side(side), size)
        self.clue, self.cells = line.from_side(side)
        self.name = f"{line.label}'s {line.side_name(side)} clue {self.clue}"
        self.label = line.label

    def breach(self, values: Mapping[Hashable, Any], words: Words) -> Breach:
        """"column 4's top clue 3 sees 2 towers", or "... cannot be seen with the heights
        placed" (or "two 3s in row 2")."""
        found = repeated(values)
        if found is not None:
            height, cells = found
            return Breach(f"{how_many(len(cells))} {height}s in {self.label}", tuple(cells),
                          tuple(cells))
        if len(values) == len(self.scope):
            seen = visible([values[c] for c in self.cells])
            return Breach(f"{self.name} sees {plural(seen, 'tower')}", self.cells)
        return Breach(f"{self.name} cannot be seen with the heights placed",
                      tuple(c for c in self.cells if c in values))
