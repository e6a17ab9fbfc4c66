"""The unshaded cells must stay connected: the cut rule, computed incrementally.

Let R be the cells that are not shaded (unshaded or still undecided). Shading a cell `u`
forces its orthogonal neighbours to stay unshaded; if `u` is an articulation point of R
(removing it splits R), those neighbours end up in different pieces and the unshaded cells
cannot be connected. Hence the **cut rule**: a cell whose shading would split R stays
unshaded; and if a shaded cell already splits R, the branch fails.

How articulation points are found without a graph search at every node
-----------------------------------------------------------------------
On a grid there is a dual view (digital topology): R is 4-connected, and it is split exactly
when the shaded cells, joined diagonally as well as orthogonally (8-connectivity) and joined
to a virtual `BORDER` cell around the grid, form a closed wall. So `u` is a cut cell when two
stretches of wall around `u` (in the ring of its 8 neighbours, off-grid places counting as
`BORDER`), separated by open orthogonal neighbours of `u`, belong to the *same* wall
component: shading `u` closes a loop (or a border-to-border chain) through `u`.

The wall components live in a union-find. Shading a cell only ever *adds* to a wall, and
union-find is incremental for additions; what it cannot do is forget, and backtracking
un-shades cells. So each search keeps its own union-find (`state.data`), with union by size,
no path compression and every union logged, and each added cell registers an undo hook
(`state.on_undo`) that rolls the union-find back when the search backtracks past it. Each
time the constraint runs it

1. adds the newly shaded cells (shaded in the domains, not yet in the wall) one by one: a
   new cell whose ring already closes a wall fails the branch ("shaded cell splits the
   unshaded cells");
2. re-tests only the cells whose answer may have changed: the undecided cells around the new
   cell and around every wall component that was merged into a larger one (small-to-large:
   a cell becomes a cut only when two of its wall stretches join, and one of the two was in
   the smaller component). Each cut cell found is made unshaded, named "cut rule".

So nothing is recomputed from scratch at a node: a call reads only the cells the search's
trail names since its last call (`SearchState.changed_since`), and works in proportion to
what changed. When every cell is decided, a plain search over the unshaded cells checks the
relation itself.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import compress
from typing import TYPE_CHECKING, Any

from ..core import Constraint, Contradiction, Literal, SearchState
from ..core.checking import Breach, how_many
from ..core.constraints import Supposition
from ..core.trace import show
from ..puzzle.regions import regions
from .rules import SHADED, UNSHADED

if TYPE_CHECKING:
    from ..core.hints import Words

_ONLY_SHADED = frozenset({SHADED})
_ONLY_UNSHADED = frozenset({UNSHADED})

#: the 8 neighbours of a cell in ring order, starting north and turning clockwise
RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
ORTHOGONAL = (0, 2, 4, 6)  # ring positions of the 4 orthogonal neighbours
#: the ring positions once around, clockwise, from the one after `start` back to `start`
AROUND_FROM = tuple(tuple((start + step) % 8 for step in range(1, 9)) for start in range(8))


@lru_cache(maxsize=16)
def grid_rings(height: int, width: int) -> tuple[tuple[tuple[int, ...], ...],
                                                 tuple[tuple[int, ...], ...]]:
    """Ring and orthogonal neighbours of every cell, by number (shared, never changed)."""
    border = height * width
    rings, orthogonal = [], []
    for r in range(height):
        for c in range(width):
            ring = [(r + dr) * width + c + dc
                    if 0 <= r + dr < height and 0 <= c + dc < width else border
                    for dr, dc in RING]
            rings.append(tuple(ring))
            orthogonal.append(tuple(ring[i] for i in ORTHOGONAL if ring[i] != border))
    return tuple(rings), tuple(orthogonal)


class WallUnionFind:
    """Union-find over shaded cells (8-connected) plus `BORDER`, with rollback.

    Cells are numbered 0..n-1 and `BORDER` is n. Union by size without path compression keeps
    `find` logarithmic and every union undoable by resetting two entries. That is why this
    is not the shared `csp_puzzles.core.unionfind.UnionFind`, whose path halving rewrites links
    an undo would need.
    """

    def __init__(self, n: int):
        self.border = n
        self.parent = list(range(n + 1))
        # the border's wall is the largest from the start, so it is never walked through
        self.size = [1] * n + [2 * n + 2]
        self.members: list[list[int]] = [[i] for i in range(n + 1)]
        self.blocked = bytearray(n + 1)
        self.blocked[n] = 1
        self.added: list[int] = []  # cells added, in order
        self._log: list[tuple[int, int, int]] = []  # (child root, parent root, members before)
        self._log_marks: list[int] = []  # log length before each added cell

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            x = parent[x]
        return x

    def add(self, cell: int, ring: Sequence[int]) -> list[int]:
        """Add a shaded cell; return the roots of the wall components merged into others."""
        self._log_marks.append(len(self._log))
        self.added.append(cell)
        self.blocked[cell] = 1
        absorbed: list[int] = []
        root = cell
        for other in ring:
            if not self.blocked[other]:
                continue
            other_root = self.find(other)
            if other_root == root:
                continue
            small, large = (root, other_root) if self.size[root] < self.size[other_root] \
                else (other_root, root)
            self._log.append((small, large, len(self.members[large])))
            self.parent[small] = large
            self.size[large] += self.size[small]
            self.members[large].extend(self.members[small])
            absorbed.append(small)
            root = large
        return absorbed

    def rollback(self, keep: int) -> None:
        """Forget every cell added after the first `keep` ones."""
        while len(self.added) > keep:
            cell = self.added.pop()
            mark = self._log_marks.pop()
            while len(self._log) > mark:
                small, large, before = self._log.pop()
                self.parent[small] = small
                self.size[large] -= self.size[small]
                del self.members[large][before:]
            self.blocked[cell] = 0


@dataclass
class _SearchData:
    """What `Connected` keeps for one search: its wall union-find, the domains in cell
    order (the state changes its domain sets in place, so a list of them is read much
    faster than the dict), and the trail's length when it last read them (None: never)."""

    walls: WallUnionFind
    sets: list[set[Any]]
    seen_at: int | None = None


class Connected(Constraint):
    """The unshaded cells form one orthogonally connected region (with the cut rule)."""

    def __init__(self, height: int, width: int, name: str = "unshaded cells connected",
                 cut_rule: bool = True):
        self.cells = [(r, c) for r in range(height) for c in range(width)]
        super().__init__(self.cells, name)
        self.height, self.width = height, width
        #: False: only fail when the shaded cells split the rest (Tatham's easy level)
        self.cut_rule = cut_rule
        n = height * width
        #: for each cell, its 8 ring neighbours as numbers (n, the border, off the grid),
        #: and its orthogonal neighbours on the grid
        self.rings, self.orthogonal = grid_rings(height, width)
        self._numbers = range(n)
        self._number = {cell: i for i, cell in enumerate(self.cells)}

    # -- the relation ----------------------------------------------------------------------
    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        white = [i for i, cell in enumerate(self.scope) if values[cell] != SHADED]
        return self._connected(set(white))

    def _connected(self, white: set[int]) -> bool:
        """Are the cells of `white` one region? (None at all is no region: a grid of one
        cell has one solution, that cell unshaded, as in Tatham's game.)"""
        return len(regions(white, self.orthogonal.__getitem__)) == 1

    def breach(self, values: Mapping[Hashable, Any], words: Words) -> Breach:
        """"the white cells are split in two": the cells not shaded fall apart (each part
        touches a shaded cell, whose neighbours stay white); the smaller parts are marked."""
        height, width = self.height, self.width
        parts = regions((cell for cell in self.cells if values.get(cell) != SHADED),
                        lambda cell: ((cell[0] + dr, cell[1] + dc) for dr, dc in
                                      ((-1, 0), (1, 0), (0, -1), (0, 1))
                                      if 0 <= cell[0] + dr < height
                                      and 0 <= cell[1] + dc < width))
        if len(parts) < 2:
            return Breach("the white cells cannot all be joined")
        largest = max(parts, key=len)
        cut_off = tuple(sorted(cell for part in parts if part is not largest for cell in part))
        return Breach(f"the white cells are split in {how_many(len(parts))}", cut_off, ())

    # -- the propagator --------------------------------------------------------------------
    def is_cut(self, walls: WallUnionFind, cell: int) -> bool:
        """Would shading `cell` close a wall, splitting its open orthogonal neighbours?"""
        blocked, ring = walls.blocked, self.rings[cell]
        for start in ORTHOGONAL:  # an open orthogonal neighbour to start the walk from
            if not blocked[ring[start]]:
                break
        else:
            return False
        gap_of: dict[int, int] = {}
        gap = 0
        in_gap = False
        for position in AROUND_FROM[start]:
            other = ring[position]
            if blocked[other]:
                root = walls.find(other)
                seen_in = gap_of.setdefault(root, gap)
                if seen_in != gap:
                    return True
                in_gap = True
            elif position % 2 == 0 and in_gap:  # an open orthogonal side closes the gap
                gap += 1
                in_gap = False
        return False

    def _search_data(self, state: SearchState) -> _SearchData:
        """What this constraint keeps for the search `state` belongs to."""
        return state.data(self, lambda: _SearchData(WallUnionFind(len(self.scope)),
                                                    [state.domains[cell] for cell in self.scope]))

    def walls(self, state: SearchState) -> WallUnionFind:
        """The wall union-find of the search `state` belongs to."""
        return self._search_data(state).walls

    def _newly_shaded(self, state: SearchState, data: _SearchData) -> list[int]:
        """The cells shaded but not in the wall yet, in cell order.

        Only the cells the trail names since the last call can be such cells (every cell,
        at the first call): the last call added every shaded cell to the wall, and a
        backtrack that takes some of them out of it takes the last call back too (`_seen`).
        """
        sets, blocked = data.sets, data.walls.blocked
        if data.seen_at is None:
            shaded = compress(self._numbers, map(_ONLY_SHADED.__eq__, sets))
            return [i for i in shaded if not blocked[i]]
        number = self._number
        changed = sorted(number[var] for var in state.changed_since(data.seen_at)
                         if var in number)
        return [i for i in changed if not blocked[i] and sets[i] == _ONLY_SHADED]

    @staticmethod
    def _seen(state: SearchState, data: _SearchData) -> None:
        """Remember how far along the trail this call has read; a backtrack past this
        point puts back what the call before it had read."""
        before = data.seen_at

        def forget() -> None:
            data.seen_at = before

        state.on_undo(forget)
        data.seen_at = state.mark()

    def propagate(self, state: SearchState) -> None:
        data = self._search_data(state)
        walls, sets = data.walls, data.sets
        cells = self.cells
        candidates = self._add_shaded(state, data)
        # 2. the cut rule, on the undecided cells whose answer may have changed
        candidates.discard(walls.border)
        for index in sorted(candidates) if self.cut_rule else ():
            if len(sets[index]) == 2 and self.is_cut(walls, index):
                state.remove(cells[index], SHADED, self._cut_rule(cells[index]))
        if state.unfixed == 0 or 2 not in map(len, sets):
            # every cell is decided: check the relation itself
            white = {i for i, domain in enumerate(sets) if domain == _ONLY_UNSHADED}
            if not self._connected(white):
                state.fail(None, "unshaded cells are not connected")

    def _add_shaded(self, state: SearchState, data: _SearchData) -> set[int]:
        """1. Add the newly shaded cells to the wall (a new cell that closes a wall fails
        the branch); the cells whose answer to the cut rule may have changed."""
        walls = data.walls
        candidates: set[int] = set(self._numbers) if not walls.added else set()
        for index in self._newly_shaded(state, data):
            if self.is_cut(walls, index):
                cell = self.cells[index]
                if state.explaining:
                    state.reason = self._walls_read(state, walls, index)
                state.fail(cell, f"cut: shaded {show(cell)} splits the unshaded cells")
            state.on_undo(partial(walls.rollback, len(walls.added)))
            for root in walls.add(index, self.rings[index]):
                for member in walls.members[root]:
                    candidates.update(self.rings[member])
            candidates.update(self.rings[index])
        self._seen(state, data)
        return candidates

    def _walls_read(self, state: SearchState, walls: WallUnionFind, index: int
                    ) -> list[Literal]:
        """What a cut read (a reason): the cell, and the shaded cells of every wall that
        touches its ring (the wall it closes is one of them)."""
        roots = {walls.find(other) for other in self.rings[index] if walls.blocked[other]}
        shaded = [self.cells[member] for root in roots for member in walls.members[root]
                  if member != walls.border]
        return [literal for cell in (self.cells[index], *shaded)
                for literal in state.lost(cell)]

    @staticmethod
    def _cut_rule(cell: Hashable) -> str:
        return f"cut rule: shading {show(cell)} would split the unshaded cells"

    def suppositions(self, state: SearchState) -> list[Supposition] | None:
        """The cut rule supposes: every undecided cell whose shading would split the
        unshaded cells now (a hint zooms into each: shade it, and the rules find the
        unshaded cells split). None without the cut rule."""
        if not self.cut_rule:
            return None
        mark = state.mark()
        try:
            data = self._search_data(state)
            self._add_shaded(state, data)
            return [Supposition(cell, (SHADED,), self._cut_rule(cell))
                    for index, cell in enumerate(self.cells)
                    if len(data.sets[index]) == 2 and self.is_cut(data.walls, index)]
        except Contradiction:
            return []
        finally:
            state.undo(mark)
