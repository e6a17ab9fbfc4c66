"""Checking the command line's output paths before any work is done.

A run that solved for a minute and then cannot write its trace has wasted the minute, so
`--trace` and `--png` are checked first: the folder exists, the path is not a folder, it
can be opened for writing, and a picture's name ends in `.png`.
"""

from __future__ import annotations

import os

from ..core.errors import CspPuzzlesError


class OutputError(CspPuzzlesError):
    """An output path that cannot be written, phrased as `FILE:1:1: message`."""


def check_output(path: str, flag: str, suffix: str | None = None) -> None:
    """Raise `OutputError` unless `path` can receive the output of `flag`."""
    if path == "" or os.path.isdir(path):
        raise OutputError(f"{path or '<empty>'}:1:1: {flag} is given a folder, expected a "
                          f"file path{f' ending in {suffix}' if suffix else ''}")
    if suffix is not None and not path.lower().endswith(suffix):
        raise OutputError(f"{path}:1:1: {flag} writes {suffix[1:].upper()}, expected a file "
                          f"name ending in {suffix}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(folder):
        raise OutputError(f"{path}:1:1: {flag}: the folder {folder} does not exist, expected "
                          "an existing folder")
    if not os.path.isdir(folder):
        raise OutputError(f"{path}:1:1: {flag}: {folder} is a file, not a folder, expected "
                          "a path inside a folder")
    existed = os.path.exists(path)
    if existed and not os.path.isfile(path):
        return  # a device or a FIFO (/dev/stdout): opening it to try could block
    try:
        with open(path, "ab"):
            pass
    except OSError as err:
        raise OutputError(f"{path}:1:1: {flag}: cannot write ({err.strerror}), expected a "
                          "writable path") from None
    if not existed:
        try:
            os.remove(path)
        except OSError:
            pass


def write_failed(path: str, flag: str, err: OSError) -> OutputError:
    """The one-line error for a write that failed after all (a full disk, say)."""
    return OutputError(f"{path}:1:1: {flag}: writing failed ({err.strerror}), expected room "
                       "to write")
