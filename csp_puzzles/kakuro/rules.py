"""Kakuro's run constraint: the sum and the all-different of one run, reasoned about together.

The textbook model gives each run a `Sum` and an `AllDifferent`. Each propagates alone and
misses what a human sees at once: 3 in two cells can only be {1, 2}, so no other digit may
go there. `RunConstraint` reasons on digit *sets* instead (see `combinations.py`):

1. a digit set of the right length and sum still *fits* the run when the cells can be given
   its digits one each, every cell taking a digit from its own candidates (a perfect
   matching between cells and digits);
2. a candidate stays when some fitting set contains it *and* some such matching gives it to
   that cell; every other candidate goes.

That is the strongest pruning one run can do on its own (generalized arc consistency on
"n distinct digits with sum s"). To teach with it, each removal is named after the simplest
rule that explains it:

- **magic block**: the (length, sum) pair has a single digit set, like 16 in 2 = {7, 9};
- **unique combination**: several sets exist, but the candidates leave only one;
- **crossing-run intersection**: the digit is in no set that still fits this run (the other
  run through the cell already took away what these sets need);
- **required digit**: every fitting set contains d and only one cell can take it;
- **placement**: the digit is in a fitting set, but giving it to this cell leaves the other
  cells no way to take the rest of the set.

Candidates are bit masks, as in `combinations.py`: bit d is set when digit d is possible, so
a set of digits is one int and set operations are `&`, `|` and `& ~`.

`RegionSum` adds equations read off several runs at once (a run minus the runs crossing
it), which settle the few grids single runs leave open (named **region sum**).

With `matching=False` the constraint does what a beginner does: a decided cell's digit
leaves the other cells, and a set fits when every cell keeps a digit of it and the cells
together cover it; every digit of a fitting set stays. That is combination reasoning
without the placement step. The generator grades puzzles with it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any

from ..core import Constraint, SearchState
from ..core.checking import Breach, how_many, repeated
from ..core.trace import show

if TYPE_CHECKING:
    from ..core.hints import Words
from .combinations import DIGITS, combinations, digits_of, is_magic, mask_of

Cell = tuple[int, int]

MAGIC_BLOCK = "magic block"
UNIQUE_COMBINATION = "unique combination"
CROSSING_RUNS = "crossing-run intersection"
REQUIRED_DIGIT = "required digit"
PLACEMENT = "placement"
REGION_SUM = "region sum"
RULES = (MAGIC_BLOCK, UNIQUE_COMBINATION, CROSSING_RUNS, REQUIRED_DIGIT, PLACEMENT, REGION_SUM)


def _show_set(mask: int) -> str:
    return "{" + ",".join(map(str, digits_of(mask))) + "}"


def _bits(mask: int) -> list[int]:
    """The single-bit masks inside `mask`, lowest first."""
    bits = []
    while mask:
        low = mask & -mask  # in two's complement -mask shares only the lowest set bit
        bits.append(low)
        mask ^= low  # and that bit goes
    return bits


def matching_supports(domains: Sequence[int], digits: int) -> tuple[int, ...] | None:
    """Give each cell one digit of the set `digits` (as many cells as digits), all different.

    `domains` are the cells' candidate masks. Returns, for each cell, the digits it takes in
    at least one such assignment, or None when there is none. Computed by dynamic
    programming over the subsets of `digits`: `forward[k]` holds the digit subsets the first
    k cells can use between them, `backward[k]` those the cells from k on can use. Cell k
    can take d when some subset of the first k cells and some subset of the cells after k
    fit around d. At most 2^9 subsets, so this stays cheap.
    """
    n = len(domains)
    options = [_bits(domain & digits) for domain in domains]
    forward: list[set[int]] = [{0}]
    for k in range(n):
        forward.append({used | bit for used in forward[k] for bit in options[k]
                        if not used & bit})
    if digits not in forward[n]:
        return None
    backward: list[set[int]] = [set() for _ in range(n)] + [{0}]
    for k in range(n - 1, -1, -1):
        backward[k] = {used | bit for used in backward[k + 1] for bit in options[k]
                       if not used & bit}
    supports = []
    for k in range(n):
        keep = 0
        after = backward[k + 1]
        for before in forward[k]:
            rest = digits & ~before
            for bit in options[k]:
                if bit & rest and rest ^ bit in after:  # rest ^ bit: rest without d
                    keep |= bit
        supports.append(keep)
    return tuple(supports)


@lru_cache(maxsize=1 << 16)
def run_supports(domains: tuple[int, ...], total: int,
                 matching: bool = True) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """What one run allows: (kept candidate mask per cell, the digit sets that still fit).

    None when no digit set fits. Cached on the candidate masks: the same run states come
    back again and again during a search and across the runs of a grid.
    """
    return set_supports(domains, combinations(len(domains), total), matching)


def set_supports(domains: Sequence[int], sets: Sequence[int],
                 matching: bool = True) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Like `run_supports`, for cells that must take exactly the digits of one of `sets`."""
    kept = [0] * len(domains)
    fitting = []
    fixed = 0  # the digits of decided cells, which the other cells cannot take
    for domain in domains:
        if _is_single(domain):
            fixed |= domain
    for digits in sets:
        supports = (matching_supports(domains, digits) if matching
                    else _covering_supports(domains, digits, fixed))
        if supports is None:
            continue
        fitting.append(digits)
        kept = [k | s for k, s in zip(kept, supports)]
    if not fitting:
        return None
    return tuple(kept), tuple(fitting)


def _is_single(mask: int) -> bool:
    """At most one bit set (one candidate): `mask - 1` flips the lowest set bit and the
    zeros below it, so `mask & (mask - 1)` clears that bit and is 0 only if it was alone."""
    return mask & (mask - 1) == 0


def _covering_supports(domains: Sequence[int], digits: int,
                       fixed: int) -> tuple[int, ...] | None:
    """The beginner's test (`matching=False`): each cell keeps its candidates in `digits`,
    minus the digits decided elsewhere; the set fits when every cell keeps one and together
    they cover it. None when it does not fit."""
    supports = tuple(domain & digits if _is_single(domain) else domain & digits & ~fixed
                     for domain in domains)
    covered = 0
    for mask in supports:
        covered |= mask
    if not all(supports) or covered != digits:
        return None
    return supports


class RunConstraint(Constraint):
    """One Kakuro run: its cells hold distinct digits 1-9 adding up to `total`."""

    idempotent = True

    def __init__(self, cells: Sequence[Cell], total: int, label: str,
                 matching: bool = True):
        super().__init__(cells, f"run {label}")
        self.cells = tuple(cells)
        self.total = total
        self.label = label
        self.matching = matching
        #: without the placement step, a pass can decide a cell whose digit then leaves the
        #: others only on the next pass: the constraint runs again after its own prunings
        self.idempotent = matching
        self.magic = is_magic(len(self.scope), total)

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        digits = [values[cell] for cell in self.scope]
        return (all(d in DIGITS for d in digits) and len(set(digits)) == len(digits)
                and sum(digits) == self.total)

    def propagate(self, state: SearchState) -> None:
        domains = state.domains
        masks = tuple(mask_of(domains[cell]) for cell in self.scope)
        answer = run_supports(masks, self.total, self.matching)
        if answer is None:
            state.fail(None, f"{self.name}: no set of {len(masks)} different digits with sum "
                             f"{self.total} fits the candidates")
        kept, fitting = answer
        explain = state.trace is not None  # naming the rule costs more than applying it
        for i, (cell, before, keep) in enumerate(zip(self.scope, masks, kept)):
            if keep != before:
                for digit in digits_of(before & ~keep):
                    cause = self._why(i, digit, keep, masks, fitting) if explain else self.name
                    state.remove(cell, digit, cause)

    def breach(self, values: Mapping[Hashable, Any], words: Words) -> Breach:
        """"two 3s in the run across 18 at (1,4)", "the run ... adds up to 20; it needs
        18", or "the run ... cannot make 18 with 9, 8 placed"."""
        run = f"the run {self.label}"
        found = repeated(values)
        if found is not None:
            digit, cells = found
            return Breach(f"{how_many(len(cells))} {digit}s in {run}", tuple(cells),
                          tuple(cells))
        digits = [values[cell] for cell in self.scope if cell in values]
        if len(digits) == len(self.scope):
            return Breach(f"{run} adds up to {sum(digits)}; it needs {self.total}",
                          tuple(values))
        return Breach(f"{run} cannot make {self.total} with {', '.join(map(str, digits))} "
                      "placed", tuple(values))

    def _why(self, i: int, digit: int, keep: int, masks: tuple[int, ...],
             fitting: tuple[int, ...]) -> str:
        """Name the simplest rule that removes `digit` from cell `i` (see the module doc)."""
        n = len(self.cells)
        cell = self.cells[i]
        if self.magic:
            cells = "1 cell" if n == 1 else f"{n} cells"
            return f"{MAGIC_BLOCK}: {self.label} in {cells} is always {_show_set(fitting[0])}"
        if len(fitting) == 1:
            return f"{UNIQUE_COMBINATION}: only {_show_set(fitting[0])} still fits {self.label}"
        union = 0
        for digits in fitting:
            union |= digits
        if not union >> digit & 1:  # bit `digit` of the union is clear
            return (f"{CROSSING_RUNS}: {digit} is in no digit set of {self.label} that still "
                    f"fits ({' '.join(map(_show_set, fitting))})")
        everywhere = union
        for digits in fitting:
            everywhere &= digits
        others = 0
        for j, mask in enumerate(masks):
            if j != i:
                others |= mask
        needed = keep & everywhere & ~others
        if _is_single(keep) and needed:
            return (f"{REQUIRED_DIGIT}: every digit set of {self.label} contains "
                    f"{digits_of(needed)[0]} and only {show(cell)} can hold it")
        return (f"{PLACEMENT}: with {digit} at {show(cell)} the other cells of "
                f"{self.label} cannot take the rest of any digit set")


#: a region-sum constraint enumerates its cells' candidates only below this many combinations
REGION_ENUMERATION_LIMIT = 400


class RegionSum(Constraint):
    """A sum read off several runs at once: sum(plus) - sum(minus) == total.

    Take a run A and some runs crossing it. Their cells cover A's crossed cells twice, so
    subtracting A's sum from the crossing runs' sums leaves the cells of the crossing runs
    outside A (`plus`) minus the cells of A they do not cross (`minus`). When that leaves
    only a few cells, it is a strong equation of its own (killer-sudoku players call it
    "innies and outies"): it is implied by the runs, so it never changes the solutions.

    Propagation enumerates the candidates of its few cells (digits in a common run must
    differ) and keeps the values some combination uses; with too many combinations it waits.
    """

    idempotent = True

    def __init__(self, plus: Sequence[Cell], minus: Sequence[Cell], total: int,
                 distinct: Sequence[tuple[int, int]], label: str):
        self.plus, self.minus = tuple(plus), tuple(minus)
        terms = " + ".join(show(cell) for cell in self.plus)
        terms += "".join(f" - {show(cell)}" for cell in self.minus)
        super().__init__(self.plus + self.minus, f"{REGION_SUM}: {terms} = {total} ({label})")
        self.total = total
        self.signs = (1,) * len(self.plus) + (-1,) * len(self.minus)
        self.distinct = tuple(distinct)  # index pairs of scope cells sharing a run

    def is_satisfied(self, values: Mapping[Hashable, Any]) -> bool:
        return sum(s * values[v] for s, v in zip(self.signs, self.scope)) == self.total

    def propagate(self, state: SearchState) -> None:
        domains = [state.values(v) for v in self.scope]
        size = 1
        for domain in domains:
            size *= len(domain)
        if size > REGION_ENUMERATION_LIMIT:
            return
        supported: list[set[int]] = [set() for _ in self.scope]
        for combo in product(*domains):
            if (sum(s * x for s, x in zip(self.signs, combo)) == self.total
                    and all(combo[i] != combo[j] for i, j in self.distinct)):
                for seen, x in zip(supported, combo):
                    seen.add(x)
        if not supported[0]:
            state.fail(None, f"{self.name}: no candidates add up")
        for var, domain, keep in zip(self.scope, domains, supported):
            if len(keep) < len(domain):
                state.keep_only(var, keep, self.name)
