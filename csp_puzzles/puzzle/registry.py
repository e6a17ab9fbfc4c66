"""Where the command line and the notebooks find each puzzle kind, by name."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from .protocol import Puzzle

KINDS = ("hashi", "kakuro", "towers", "singles")


def puzzle_module(kind: str) -> ModuleType:
    """The subpackage of a kind; it exports `parse`, `generate`, `DIFFICULTIES`."""
    if kind not in KINDS:
        raise ValueError(f"unknown puzzle kind {kind!r}, expected one of {', '.join(KINDS)}")
    return import_module(f"csp_puzzles.{kind}")


def puzzle_class(kind: str) -> type[Puzzle]:
    """The puzzle class of a kind (the `Puzzle` its subpackage exports)."""
    module = puzzle_module(kind)
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, Puzzle) and value.kind == kind:
            return value
    raise ValueError(f"the {kind} package exports no Puzzle class")
