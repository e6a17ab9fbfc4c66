"""What every benchmark's command line shares: a bad option is one line, found before any
clock starts (a benchmark can run for hours; it should not fail at the end on a typo)."""
from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import NoReturn


class BenchOptionError(ValueError):
    """A benchmark option the benchmark cannot take, phrased for one line."""


class BenchParser(argparse.ArgumentParser):
    """argparse, except that an error is raised for the command line to report in one line,
    not printed as a usage block followed by an exit."""

    def error(self, message: str) -> NoReturn:
        raise BenchOptionError(f"{self.prog.removeprefix('csp-puzzles ')}: {message}")


def names_from(allowed: Iterable[str]) -> Callable[[str], list[str]]:
    """An argparse type: a comma-separated list whose every name is one of `allowed`."""
    known = list(allowed)

    def parse(text: str) -> list[str]:
        names = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in names if name not in known]
        if unknown or not names:
            raise argparse.ArgumentTypeError(
                f"{text!r}: expected a comma-separated list of {', '.join(known)}")
        return names
    return parse


def whole_numbers(text: str) -> list[int]:
    """An argparse type: a comma-separated list of whole numbers of at least 1."""
    try:
        numbers = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        numbers = []
    if not numbers or min(numbers) < 1:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected comma-separated whole numbers of at least 1")
    return numbers



def at_least_one(text: str) -> int:
    """An argparse type: one whole number of at least 1."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number of at least 1")
    return int(text)
