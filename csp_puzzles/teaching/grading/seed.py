"""The grading seed: which instances the checks draw, kept from the student's code.

The instructor's seed comes in through the kernel's environment (`CSP_PUZZLES_GRADING_SEED`);
without one, checks draw the practice instances students see. Student code runs in the same
process as the checks, so the seed is taken away from everything it could read:

- it is read once, when the grader is imported, from the environment the process *started*
  with (on Linux `/proc/self/environ`, which no later `os.environ[...] = ...` changes: a cell
  above the import cannot switch a graded run to the practice instances);
- it is then blanked out of that start-up copy and removed from `os.environ`, so neither
  `/proc/self/environ`, `os.environ` nor a child process shows it;
- what the checks keep is a digest of it, never the seed itself.

The README says what an instructor does so that the import comes first (nbgrader starts the
kernel with the grader imported, before any cell) and why a new seed for every grading run
makes even a leaked digest worthless.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
from collections.abc import Iterator
from typing import Any

#: the environment variable holding the instructor's seed
SEED_VARIABLE = "CSP_PUZZLES_GRADING_SEED"
#: the seed when none is set: what students practise on
PRACTICE_SEED = "practice"


def _digest(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


#: the digest of the seed in use, and whether it is the instructor's
_key = {"digest": _digest(PRACTICE_SEED), "instructor": ""}


def _startup_value(name: str) -> str | None:
    """`name` in the environment this process started with (Linux), else in `os.environ`."""
    try:
        with open("/proc/self/environ", "rb") as handle:
            block = handle.read()
    except OSError:
        return os.environ.get(name)
    prefix = name.encode() + b"="
    for entry in block.split(b"\0"):
        if entry.startswith(prefix):
            return entry[len(prefix):].decode(errors="replace")
    return None


def _blank_startup_copy(name: str) -> None:
    """Overwrite the value of `name` in the process's start-up environment block (the memory
    `/proc/self/environ` reads, between the addresses /proc/self/stat gives) with `x`s.

    Best effort: where there is no /proc or no ctypes (Pyodide), nothing to do."""
    try:
        import ctypes

        with open("/proc/self/environ", "rb") as handle:
            block = handle.read()
        with open("/proc/self/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        start, end = int(fields[47]), int(fields[48])  # env_start, env_end (fields 50, 51)
    except (ImportError, OSError, IndexError, ValueError):
        return
    prefix = b"\0" + name.encode() + b"="
    found = (b"\0" + block).find(prefix)
    if found < 0:
        return
    value_at = start + found + len(prefix) - 1
    length = block.find(b"\0", found + len(prefix) - 1) - (found + len(prefix) - 1)
    if length <= 0 or value_at + length > end:
        return
    if ctypes.string_at(start, len(block)) != block:  # not the block we read: leave it
        return
    ctypes.memset(value_at, ord("x"), length)


def take_from_environment() -> None:
    """Read the instructor's seed (once, when the grader is imported), then hide it."""
    value = _startup_value(SEED_VARIABLE)
    if value is not None:
        _blank_startup_copy(SEED_VARIABLE)
    os.environ.pop(SEED_VARIABLE, None)
    if value is not None and value.strip():
        _key.update(digest=_digest(value.strip()), instructor="yes")


def is_instructors() -> bool:
    """Whether the checks draw from an instructor's seed (not the practice instances)."""
    return bool(_key["instructor"])


@contextlib.contextmanager
def seeded(seed: str | None) -> Iterator[None]:
    """Draw from `seed` (None: the practice seed) inside the block: for tests and for an
    instructor trying a seed in a notebook of their own."""
    before = dict(_key)
    _key.update(digest=_digest(seed or PRACTICE_SEED), instructor="yes" if seed else "")
    try:
        yield
    finally:
        _key.update(before)


def draw(check: str, seed: Any = None) -> random.Random:
    """The random source of one check (`seed` None: the grading seed).

    The same seed and check give the same instances; two checks never share a stream.
    """
    key = _key["digest"] if seed is None else _digest(str(seed))
    return random.Random(f"{key}/{check}")
