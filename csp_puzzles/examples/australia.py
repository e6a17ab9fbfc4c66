"""Map colouring of Australia (AIMA's first example): neighbours get different colours."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..core import CSP, Predicate

AUSTRALIA: dict[str, list[str]] = {
    "WA": ["NT", "SA"],
    "NT": ["WA", "SA", "Q"],
    "SA": ["WA", "NT", "Q", "NSW", "V"],
    "Q": ["NT", "SA", "NSW"],
    "NSW": ["Q", "SA", "V"],
    "V": ["SA", "NSW"],
    "T": [],
}


def map_colouring(neighbours: Mapping[str, Iterable[str]] = AUSTRALIA,
                  colours: Iterable[str] = ("red", "green", "blue")) -> CSP:
    """One variable per region; one `!=` constraint per border."""
    colours = tuple(colours)
    csp = CSP("map colouring")
    for region in neighbours:
        csp.add_variable(region, colours)
    seen: set[frozenset[str]] = set()
    for region, others in neighbours.items():
        for other in others:
            border = frozenset((region, other))
            if border not in seen:
                seen.add(border)
                csp.add_constraint(
                    Predicate(_different, (region, other), name=f"{region} != {other}"))
    return csp


def _different(a: str, b: str) -> bool:
    return a != b
