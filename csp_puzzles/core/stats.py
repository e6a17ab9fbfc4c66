"""Counters a search keeps, so that students can compare strategies by numbers."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass
class Stats:
    """What a search did.

    - `nodes`: assignments tried;
    - `backtracks`: failed assignments undone;
    - `checks`: constraint checks and propagator calls;
    - `prunings`: values removed from domains;
    - `seconds`: wall-clock time;
    - `backjumps`: returns past at least one level, looking back (`look_back="cbj"`);
    - `learnt`: nogoods learnt (`look_back="learn"`);
    - `learnt_literals`: the literals (`x = v`, `x ≠ w`) in them, all told (over `learnt`:
      the mean length; a short nogood fires often, a long one almost never).
    """

    nodes: int = 0
    backtracks: int = 0
    checks: int = 0
    prunings: int = 0
    seconds: float = 0.0
    backjumps: int = 0
    learnt: int = 0
    learnt_literals: int = 0

    def as_dict(self) -> dict[str, float]:
        return asdict(self)

    def minus(self, earlier: Stats) -> Stats:
        """What was done since `earlier` (a copy of these counters taken then)."""
        return Stats(**{name: value - getattr(earlier, name)
                        for name, value in asdict(self).items()})
