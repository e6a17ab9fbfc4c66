"""Small random problems for the checks: binary CSPs whose constraints read as words."""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Hashable

from ...core import CSP, Predicate
from ...core.trace import show

#: binary relations a check may draw, each with the words the messages use ("A < B")
RELATIONS: dict[str, Callable[[int, int], bool]] = {
    "!=": operator.ne,
    "<": operator.lt,
    ">": operator.gt,
    "next to": lambda a, b: abs(a - b) == 1,
    "not next to": lambda a, b: abs(a - b) != 1,
    "same parity as": lambda a, b: (a - b) % 2 == 0,
}


def relation(x: Hashable, words: str, y: Hashable) -> Predicate:
    """The constraint `x words y` ("A < B"), named so."""
    return Predicate(RELATIONS[words], (x, y), name=f"{show(x)} {words} {show(y)}")


def random_binary_csp(rng: random.Random, variables: int = 5, values: int = 5,
                      density: float = 0.5) -> CSP:
    """Variables A, B, ... with random domains drawn from 0..values-1, and a random relation
    on each pair of variables with probability `density` (at least one constraint)."""
    names = [chr(ord("A") + i) for i in range(variables)]
    csp = CSP("random")
    for var in names:
        size = rng.randint(2, values - 1)
        csp.add_variable(var, sorted(rng.sample(range(values), size)))
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    chosen = [pair for pair in pairs if rng.random() < density] or [rng.choice(pairs)]
    for a, b in chosen:
        if rng.random() < 0.5:
            a, b = b, a
        csp.add_constraint(relation(a, rng.choice(list(RELATIONS)), b))
    return csp
