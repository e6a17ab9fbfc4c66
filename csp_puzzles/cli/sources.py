"""Reading a puzzle SOURCE for the command line: a file, standard input or a game ID.

Any readable path works, not only regular files: `/dev/stdin`, a FIFO, or a shell's
process substitution `<(cat f)`. Reading stops one byte past the input cap, so an endless
source (`/dev/zero`) is refused at once instead of filling memory.
"""

from __future__ import annotations

import os
import sys
from typing import BinaryIO

from ..core.errors import ParseError
from ..puzzle.limits import INPUT_BYTES

STDIN_NAME = "<stdin>"
GAME_ID_NAME = "<game id>"


def read_source(source: str) -> tuple[str, str]:
    """Text and a display name for SOURCE: a path, `-` for stdin, or a Tatham game ID.

    Raises `ParseError` (located at the source's line 1, column 1 unless the text itself
    is at fault) when the source cannot be read.
    """
    if source == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream put in place of stdin (tests, notebooks)
            return _capped_text(sys.stdin.read(INPUT_BYTES + 1), STDIN_NAME), STDIN_NAME
        return read_capped(stream, STDIN_NAME), STDIN_NAME
    if os.path.isdir(source):
        raise ParseError("is a directory, expected a puzzle file", 1, 1, source)
    if os.path.exists(source):
        try:
            with open(source, "rb") as handle:
                return read_capped(handle, source), source
        except OSError as err:
            raise ParseError(f"cannot read the file ({err.strerror}), expected a readable "
                             "puzzle file", 1, 1, source) from None
    if ":" in source:
        return _capped_text(source, GAME_ID_NAME), GAME_ID_NAME
    raise ParseError("no such file, expected a path, '-' or a Tatham game ID", 1, 1, source)


def read_capped(stream: BinaryIO, name: str) -> str:
    """Decode at most `INPUT_BYTES` bytes of UTF-8 (a byte order mark is dropped)."""
    data = stream.read(INPUT_BYTES + 1)
    if len(data) > INPUT_BYTES:
        raise _too_big(name)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise ParseError(f"not UTF-8 text (byte 0x{data[err.start]:02x}), expected a text "
                         "file", line, column, name) from None


def _capped_text(text: str, name: str) -> str:
    if len(text) > INPUT_BYTES:
        raise _too_big(name)
    return text


def _too_big(name: str) -> ParseError:
    return ParseError(f"more than {INPUT_BYTES} bytes, the cap on puzzle input, expected a "
                      "smaller puzzle", 1, 1, name)
