"""A seeded mutation fuzzer over every parser and format, through Python and the command line.

Seeds are the repository's own puzzles written in every format each kind reads (grid text
with and without header, compact rows, Coelho header, Tatham IDs). Each mutation (a
deleted, inserted or replaced character, Unicode digits, a byte order mark, a NUL, a line
dropped, doubled or swapped, a huge number, a truncation) must give either a puzzle or a
`ParseError` located inside the text, within a per-input time limit; through the
command line, an exit status of the contract and, for bad input, one located line on
stderr, never a traceback. The same seed gives the same inputs on every run.
"""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from csp_puzzles import ParseError
from csp_puzzles.cli import main
from csp_puzzles.puzzle.registry import KINDS, puzzle_module
from tests.conftest import REPO

SEED = 14
MUTANTS_PER_SEED = 30
PER_INPUT_SECONDS = 5  # a hang guard, far above any real parse
ERROR_LINE = re.compile(r"^csp-puzzles: error: [^\n]+:\d+:\d+: [^\n]+\n$")
ODD_CHARACTERS = ["\u00b2", "\u0661", "\uff11", "\ufeff", "\x00", "\r", "\t", ":", ",", "/",
                  "_", "-", ".", "#", "x", "m", "L", "Z", "9", "0", " ", "\n", "é", "∞"]

SEED_FILES = {
    "hashi": ["hashi/easy-7x7.txt", "hashi/hard-7x7.txt"],
    "kakuro": ["kakuro/easy-8x8-seed1.txt", "kakuro/hard-8x8-seed1.txt"],
    "towers": ["towers/4x4-easy-1.txt", "towers/4x4-extreme-1.txt"],
    "singles": ["singles/easy-5x5-seed1.txt", "singles/easy-6x6-seed1.txt"],
}


def seed_texts(kind: str) -> list[str]:
    """Each seed puzzle in every format its kind writes or reads."""
    texts = []
    for name in SEED_FILES[kind]:
        puzzle = puzzle_module(kind).parse((REPO / "data" / name).read_text())
        native = puzzle.to_text()
        texts.append(native)
        try:
            texts.append(puzzle.to_tatham())
        except ValueError:  # a kind without game IDs
            pass
        rows = [line for line in native.splitlines() if line and not line.startswith("#")]
        if kind == "hashi":
            body = [row.replace(" ", "") for row in rows[-puzzle.height:]]
            texts.append("\n".join(body) + "\n")  # compact rows, no header
            islands = len(puzzle.islands)
            texts.append(f"{puzzle.width} {puzzle.height} {islands}\r\n" +
                         "\r\n".join(rows[-puzzle.height:]) + "\r\n")  # Coelho header, CRLF
    return texts


def mutate(text: str, rng: random.Random) -> str:
    """One or two random edits of `text`."""
    for _ in range(rng.choice((1, 1, 2))):
        lines = text.split("\n")
        where = rng.randrange(len(text) + 1)
        edit = rng.randrange(10)
        if edit == 0 and text:
            text = text[:where] + text[where + 1:]
        elif edit == 1:
            text = text[:where] + rng.choice(ODD_CHARACTERS) + text[where:]
        elif edit == 2 and text:
            text = text[:where] + rng.choice(ODD_CHARACTERS) + text[where + 1:]
        elif edit == 3 and len(lines) > 1:
            del lines[rng.randrange(len(lines))]
            text = "\n".join(lines)
        elif edit == 4:
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif edit == 5 and len(lines) > 1:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif edit == 6:
            text = text[:where] + rng.choice(("10", "99", "10000000", "9" * 5000)) + text[where:]
        elif edit == 7:
            text = text[:where]
        elif edit == 8:
            digits = rng.choice(("\u00b2\u00b3", "\u0661\u0662", "\uff11\uff12"))
            text = text[:where] + digits + text[where:]
        else:
            text = "\ufeff" + text if rng.random() < 0.5 else text.replace("\n", "\r\n")
    return text


def corpus() -> list[tuple[str, str]]:
    """(kind, text) pairs: every seed text and its mutants, the same on every run."""
    rng = random.Random(SEED)
    inputs = []
    for kind in KINDS:
        for text in seed_texts(kind):
            inputs.append((kind, text))
            inputs.extend((kind, mutate(text, rng)) for _ in range(MUTANTS_PER_SEED))
    return inputs


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Fail the input (instead of hanging the suite) past `seconds`."""
    def ring(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def assert_located(error: ParseError, text: str) -> None:
    assert error.line >= 1 and error.column >= 1, error
    assert error.line <= text.count("\n") + text.count("\r") + 2, (error, text)
    assert error.message and "\n" not in error.message, error


def classify(parse: Callable[..., object], text: str) -> str:
    with time_limit(PER_INPUT_SECONDS):
        try:
            parse(text, filename="fuzz")
        except ParseError as error:
            assert_located(error, text)
            return "located error"
    return "puzzle"


INPUTS = corpus()


def test_every_parser_answers_every_mutant():
    counts: Counter[tuple[str, str]] = Counter()
    for kind, text in INPUTS:
        counts[kind, classify(puzzle_module(kind).parse, text)] += 1
    summary = ", ".join(f"{kind} {what}: {n}" for (kind, what), n in sorted(counts.items()))
    print(f"\nfuzz: {len(INPUTS)} inputs through Python; {summary}")
    for kind in KINDS:  # the fuzzer reaches both sides of every parser
        assert counts[kind, "puzzle"] and counts[kind, "located error"], summary


#: characters every format uses, and some that none does
ALPHABET = st.sampled_from(list("0123456789 \n-.,:/_xmLabcdefzAGZ#") + ODD_CHARACTERS)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=150, deadline=None)
@given(text=st.text(ALPHABET, max_size=60))
def test_random_text_is_a_puzzle_or_a_located_error(kind, text):
    """Hypothesis's texts, beside the mutants: any string at all gets one of two answers."""
    classify(puzzle_module(kind).parse, text)


def run_cli(argv: list[str]) -> tuple[int, str]:
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue()


def test_the_command_line_answers_every_mutant(tmp_path: Path):
    counts: Counter[str] = Counter()
    for i, (kind, text) in enumerate(INPUTS):
        path = tmp_path / f"input-{i}.txt"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        with time_limit(PER_INPUT_SECONDS * 2):
            code, err = run_cli(["solve", kind, str(path), "--max-nodes", "30",
                                 "--timeout", "2"])
        assert code in (0, 2, 3, 4), (code, err)
        if code == 2:
            assert ERROR_LINE.match(err), err
        else:
            assert err == "", err
        counts[{0: "solved", 2: "located error", 3: "unsatisfiable", 4: "limit"}[code]] += 1
    print(f"\nfuzz: {len(INPUTS)} inputs through the command line: {dict(counts)}")
    assert counts["located error"] and counts["solved"]


@pytest.mark.parametrize("step", [0, 1])
def test_a_sample_through_real_processes(tmp_path: Path, step: int):
    """A few inputs in real processes: no traceback escapes main() at exit either."""
    sample = INPUTS[step::max(1, len(INPUTS) // 4)][:4]
    for i, (kind, text) in enumerate(sample):
        path = tmp_path / f"sample-{i}.txt"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        done = subprocess.run([sys.executable, "-m", "csp_puzzles", "solve", kind, str(path),
                               "--max-nodes", "30", "--timeout", "2"],
                              capture_output=True, text=True, cwd=REPO, timeout=60)
        assert done.returncode in (0, 2, 3, 4), done.stderr
        assert "Traceback" not in done.stderr
