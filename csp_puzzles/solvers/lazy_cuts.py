"""The lazy cut loop that the SAT engine and the integer-programming engine share.

Some rules would take too many clauses or rows to write down at once: connectivity needs one
for every way of cutting a puzzle in two. An engine then solves without them, looks at the
answer, and adds only the few it breaks, the *cuts*:

1. solve; no answer means no (further) solution: stop;
2. ask for the cuts the answer breaks; if there are any, add them and go back to 1;
3. otherwise the answer is a solution: yield it, add a *block* that forbids exactly that
   answer, and go back to 1 for the next one.

Every cut holds in every solution, so no solution is ever lost; a block forbids only an
answer already given, so none is given twice. Counting to two this way is how a SAT or an
integer-programming solver checks that a puzzle has a single solution.

What a solver, a cut and a block are is the engine's business: clauses for the SAT engine
(`hashi/sat.py`), linear rows for HiGHS (`milp.py`). The loop only calls them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..core.unionfind import components

Answer = TypeVar("Answer")
Cut = TypeVar("Cut")


@dataclass
class LoopStats:
    """What the loop did: solver runs, cuts added, and the search nodes the solver reports
    (branch-and-bound nodes for HiGHS; the SAT engine reports none)."""

    runs: int = 0
    cuts: int = 0
    nodes: int = 0


def lazy_solutions(solve: Callable[[], Answer | None],
                   cuts: Callable[[Answer], Sequence[Cut]],
                   add: Callable[[Sequence[Cut]], None],
                   block: Callable[[Answer], Cut],
                   stats: LoopStats | None = None) -> Iterator[Answer]:
    """Every answer of `solve` that breaks no cut, one at a time.

    `solve()` runs the solver on everything added so far (None: no answer left);
    `cuts(answer)` lists what the answer breaks (empty: it is a solution); `add(items)`
    gives cuts or a block to the solver; `block(answer)` forbids that one answer.
    """
    stats = stats if stats is not None else LoopStats()
    while True:
        answer = solve()
        stats.runs += 1
        if answer is None:
            return
        broken = cuts(answer)
        if broken:
            stats.cuts += len(broken)
            add(broken)
            continue
        yield answer
        add([block(answer)])


def groups(count: int, links: Iterable[tuple[int, int]]) -> list[list[int]]:
    """The connected groups of items 0..count-1 joined by `links`, each as a list: what a
    connectivity cut reads from an answer (one group: connected, nothing to cut)."""
    by_root: dict[int, list[int]] = {}
    for item, root in enumerate(components(count, links)):
        by_root.setdefault(root, []).append(item)
    return list(by_root.values())
