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
un-shades cells. The core restores domains through its trail and has no undo hook for a
constraint's own data, so the union-find keeps its own undo log (union by size, no path
compression, every union recorded) and a stack of the cells it has added, in order, each
with the cells the cut rule made unshaded right after it. Each time the constraint runs it
checks that stack against the domains (the only state the search restores):

1. while the top cell is no longer shaded, or a cell the cut rule unshaded after it is
   undecided again, pop it (the union-find rolls back). Under MAC a cell is added in the same
   node that shaded it, so the search undoes exactly a top slice of the stack; if the number
   of shaded cells shows that an older cell was undone too (possible under forward checking),
   it rolls back to the first such cell instead;
2. adds the newly shaded cells one by one: a new cell whose ring already closes a wall fails
   the branch ("shaded cell splits the unshaded cells");
3. re-tests only the cells whose answer may have changed: the undecided cells around the new
   cell and around every wall component that was merged into a larger one (small-to-large:
   a cell becomes a cut only when two of its wall stretches join, and one of the two was in
   the smaller component). Each cut cell found is made unshaded, named "cut rule".

So nothing is recomputed from scratch at a node: a call costs one C-speed pass over the
domains to list the shaded cells, plus work proportional to what changed. When every cell is
decided, a plain search over the unshaded cells checks the relation itself.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import lru_cache
from itertools import compress
from typing import Any

from ..core import Constraint, SearchState
from ..core.trace import show
from .rules import SHADED, UNSHADED

_ONLY_SHADED = frozenset({SHADED})
_ONLY_UNSHADED = frozenset({UNSHADED})

#: the 8 neighbours of a cell in ring order, starting north and turning clockwise
RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
ORTHOGONAL = (0, 2, 4, 6)  # ring positions of the 4 orthogonal neighbours


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
    is not the shared `csp_puzzles.unionfind.UnionFind`, whose path halving rewrites links
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


class Connected(Constraint):
    """The unshaded cells form one orthogonally connected region (with the cut rule)."""

    def __init__(self, height: int, width: int, name: str = "unshaded cells connected"):
        self.cells = [(r, c) for r in range(height) for c in range(width)]
        super().__init__(self.cells, name)
        self.height, self.width = height, width
        n = height * width
        #: for each cell, its 8 ring neighbours as numbers (n, the border, off the grid),
        #: and its orthogonal neighbours on the grid
        self.rings, self.orthogonal = grid_rings(height, width)
        self.walls = WallUnionFind(n)
        self._owner: SearchState | None = None  # the search the union-find describes
        self._forced: list[list[int]] = []  # cells the cut rule made unshaded, per added cell
        self._sets: list[set[Any]] = [set()]
        self._numbers = range(n)

    # -- the relation ----------------------------------------------------------------------
    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        white = [i for i, cell in enumerate(self.scope) if values[cell] != SHADED]
        return self._connected(set(white))

    def _connected(self, white: set[int]) -> bool:
        if not white:
            return True
        start = next(iter(white))
        seen = {start}
        todo = [start]
        while todo:
            for other in self.orthogonal[todo.pop()]:
                if other in white and other not in seen:
                    seen.add(other)
                    todo.append(other)
        return len(seen) == len(white)

    # -- the propagator --------------------------------------------------------------------
    def is_cut(self, cell: int) -> bool:
        """Would shading `cell` close a wall, splitting its open orthogonal neighbours?"""
        walls = self.walls
        blocked, ring = walls.blocked, self.rings[cell]
        start = next((p for p in ORTHOGONAL if not blocked[ring[p]]), None)
        if start is None:
            return False
        gap_of: dict[int, int] = {}
        gap = 0
        in_gap = False
        for step in range(1, 9):
            position = (start + step) % 8
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

    def propagate(self, state: SearchState) -> None:
        walls = self.walls
        cells = self.cells
        if self._owner is not state or self._sets[0] is not state.domains[cells[0]]:
            # a new search: start from an empty wall. The state changes its domain sets in
            # place, so one list of them, in cell order, is read much faster than the dict.
            walls.rollback(0)
            self._forced.clear()
            self._owner = state
            self._sets = [state.domains[cell] for cell in cells]
        sets = self._sets
        # 1. forget the added cells the search has un-shaded since, or whose cut-rule
        #    conclusions were undone (under chronological backtracking they are on top)
        added, forced = walls.added, self._forced
        while added and (sets[added[-1]] != _ONLY_SHADED
                         or any(sets[f] != _ONLY_UNSHADED for f in forced[-1])):
            walls.rollback(len(added) - 1)
            forced.pop()
        blocked = walls.blocked
        shaded = list(compress(self._numbers, map(_ONLY_SHADED.__eq__, sets)))
        new = [i for i in shaded if not blocked[i]]
        if len(shaded) - len(new) < len(added):  # an older cell was un-shaded (not LIFO)
            keep = next(j for j, i in enumerate(added) if sets[i] != _ONLY_SHADED)
            walls.rollback(keep)
            del forced[keep:]
            new = [i for i in shaded if not blocked[i]]
        fresh = not added
        # 2. add the newly shaded cells; a new cell that closes a wall fails the branch
        candidates: set[int] = set(range(len(cells))) if fresh else set()
        for index in new:
            if self.is_cut(index):
                cell = cells[index]
                state.fail(cell, f"cut: shaded {show(cell)} splits the unshaded cells")
            for root in walls.add(index, self.rings[index]):
                for member in walls.members[root]:
                    candidates.update(self.rings[member])
            candidates.update(self.rings[index])
            self._forced.append([])
        # 3. the cut rule, on the undecided cells whose answer may have changed
        candidates.discard(walls.border)
        for index in sorted(candidates):
            if len(sets[index]) == 2 and self.is_cut(index):
                cell = cells[index]
                state.remove(cell, SHADED,
                             f"cut rule: shading {show(cell)} would split the unshaded cells")
                if self._forced:
                    self._forced[-1].append(index)
        if state.unfixed == 0 or not any(len(domain) == 2 for domain in sets):
            # every cell is decided: check the relation itself
            white = {i for i, domain in enumerate(sets) if domain == _ONLY_UNSHADED}
            if not self._connected(white):
                state.fail(None, "unshaded cells are not connected")
