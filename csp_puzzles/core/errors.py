"""Errors the library reports to its users.

A `ParseError` always knows where the problem is (file, line, column) so that the command
line can print one clear line instead of a traceback.
"""

from __future__ import annotations


class CspPuzzlesError(Exception):
    """Base class of every error this library raises on purpose."""


class ParseError(CspPuzzlesError, ValueError):
    """Bad puzzle input: says where (line and column count from 1) and what was expected."""

    def __init__(self, message: str, line: int = 1, column: int = 1, filename: str | None = None):
        self.message = message
        self.line = line
        self.column = column
        self.filename = filename
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.filename or '<input>'}:{self.line}:{self.column}: {self.message}"

    def in_file(self, filename: str | None) -> ParseError:
        """The same error, naming `filename` (used when the caller knows the file)."""
        if filename is not None and self.filename is None:
            self.filename = filename
        return self


class LimitReached(CspPuzzlesError):
    """A node or time limit stopped a search (or a command) before it could give a
    definite answer: the one exception for running out, whoever runs out."""


class MissingExtra(CspPuzzlesError, ImportError):
    """An optional engine was asked for but its package is not installed (names the extra)."""
