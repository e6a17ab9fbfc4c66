"""Size caps: what the library refuses to read, build or generate, so bad input fails fast.

A cap reached is an error that names the cap (exit 2 on the command line), never a slow
death. The caps sit far above every published puzzle (janko.at, Tatham, Coelho et al.):

- input: at most `INPUT_BYTES` bytes of puzzle text;
- grids read: at most `GRID_SIDE[kind]` rows and columns (Towers: the size n);
- grids generated: at most `GENERATE_SIDE[kind]` rows and columns;
- the core: a variable has at most `MAX_DOMAIN_SIZE` values (see `core.csp`).
"""

from __future__ import annotations

from ..core.csp import MAX_DOMAIN_SIZE

INPUT_BYTES = 256 * 1024
GRID_SIDE = {"hashi": 100, "kakuro": 50, "towers": 9, "singles": 100}
GENERATE_SIDE = {"hashi": 100, "kakuro": 30, "towers": 9, "singles": 100}

__all__ = ["INPUT_BYTES", "GRID_SIDE", "GENERATE_SIDE", "MAX_DOMAIN_SIZE", "caps_text"]


def caps_text() -> str:
    """The caps in one paragraph, for `--help` and the README."""
    read = ", ".join(f"{kind} {side}" for kind, side in GRID_SIDE.items())
    made = ", ".join(f"{kind} {side}" for kind, side in GENERATE_SIDE.items())
    return (f"Size caps: input at most {INPUT_BYTES} bytes; grid sides read: {read} "
            f"(towers: the size n); generated: {made}; at most {MAX_DOMAIN_SIZE} values "
            "per variable in the core. A cap reached is an error naming it (exit 2).")
