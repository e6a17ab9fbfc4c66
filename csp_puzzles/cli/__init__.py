"""The command line, `csp-puzzles` (CONTRACT section 1): reading sources, limits, outputs."""

from .commands import main

__all__ = ["main"]
