"""Where the command line and the notebooks find each puzzle kind, by name."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

KINDS = ("hashi", "kakuro", "towers", "singles")


def puzzle_module(kind: str) -> ModuleType:
    """The subpackage of a kind; it exports `parse`, `generate`, `DIFFICULTIES`."""
    if kind not in KINDS:
        raise ValueError(f"unknown puzzle kind {kind!r}, expected one of {', '.join(KINDS)}")
    return import_module(f"csp_puzzles.{kind}")
