"""Which grid sizes a generator offers at each level, said once for the docstrings, the
command line's help and the errors.

A generator that offers a level at a size never gives up there: it tries until it finds
a puzzle. Sizes it does not offer are refused before any work, with one line that says
which sizes it has.
"""

from __future__ import annotations

from collections.abc import Mapping

#: a level's smallest and largest side (rows and columns alike)
Sides = tuple[int, int]


def sides_offered(sizes: Mapping[str, Sides]) -> str:
    """"easy 3-100, hard 4-9": each level and the sides it offers."""
    return ", ".join(f"{level} {low}-{high}" if low != high else f"{level} {low}"
                     for level, (low, high) in sizes.items())


def check(kind: str, sizes: Mapping[str, Sides], difficulty: str, width: int,
          height: int) -> None:
    """Raise ValueError (one line) unless `difficulty` is offered at `width` x `height`."""
    if difficulty not in sizes:
        raise ValueError(f"unknown difficulty {difficulty!r} for {kind}, expected one of "
                         f"{', '.join(sizes)}")
    cap = max(high for _, high in sizes.values())
    if max(width, height) > cap:
        raise ValueError(f"a {width}x{height} grid is above the cap of {cap}x{cap} on "
                         f"generated {kind} puzzles, expected smaller sides")
    low, high = sizes[difficulty]
    if not (low <= width <= high and low <= height <= high):
        raise ValueError(f"{kind} puzzles of difficulty {difficulty} have sides {low} to "
                         f"{high}, not {width}x{height} (sizes: {sides_offered(sizes)})")
