"""`csp-puzzles bench walks`: how much code a student reads to follow a search.

Two walks, whose reading order ARCHITECTURE.md gives:

- **forward checking**: `solve(map_colouring(), inference="fc", var_order="mrv")`, from the
  call of `solve` (the map built before) to its answer;
- **a wipe-out to a learnt nogood**: in `solve(queens(8), inference="fc",
  var_order="input", look_back="learn")`, from the loop hearing of the first wipe-out
  (`Search._failed`) to the nogood stored (`NogoodStore.add` returning).

Each walk is counted by profiling it (`sys.setprofile`): the package's named functions that
run (a comprehension, a generator expression or a lambda is part of the function it stands
in), the files they are in, and their lines (each function's source, its decorators and
docstring included). The problem's own code (the map's `!=`, in `examples/`) is the
student's, not the package's walk, and is left out. The counts depend on the code only,
never on the machine.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

from .options import BenchParser
from .report import table

PACKAGE = Path(__file__).resolve().parent.parent
#: where a walk starts and ends: (file in the package, function name)
Place = tuple[str, str]


@dataclass(frozen=True)
class Step:
    """One function of a walk: its file (relative to the package) and qualified name."""

    file: str
    name: str
    lines: int


@dataclass(frozen=True)
class Walk:
    """The functions a walk runs through, in the order they are first called."""

    title: str
    steps: tuple[Step, ...]

    @property
    def files(self) -> list[str]:
        """The files, in the order the walk first enters them."""
        return list(dict.fromkeys(step.file for step in self.steps))

    @property
    def lines(self) -> int:
        return sum(step.lines for step in self.steps)

    def reading_order(self) -> str:
        """The walk as ARCHITECTURE.md lists it: each file, then its functions, in order."""
        return "\n".join(f"{number}. `{file}`: " + ", ".join(
            f"`{step.name}`" for step in self.steps if step.file == file)
            for number, file in enumerate(self.files, 1))


def profiled(title: str, run: Callable[[], Any], start: Place | None = None,
             end: Place | None = None) -> Walk:
    """The package's functions `run` calls, from a call of `start` (None: from the first)
    until `end` returns (None: to the last), the problem's own code (`examples/`) left out."""
    seen: dict[CodeType, None] = {}
    on, done = start is None, False

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal on, done
        code = frame.f_code
        if done or not code.co_filename.startswith(str(PACKAGE)):
            return
        if not on and event == "call" and _at(code, start):
            on = True
        if on and event == "call" and not code.co_name.startswith("<"):
            seen.setdefault(code)
        if on and event == "return" and _at(code, end):
            done = True

    sys.setprofile(hook)
    try:
        run()
    finally:
        sys.setprofile(None)
    steps = [Step(Path(code.co_filename).relative_to(PACKAGE).as_posix(), _qualified(code),
                  len(inspect.getsourcelines(code)[0])) for code in seen]
    return Walk(title, tuple(step for step in steps if not step.file.startswith("examples/")))


def _at(code: CodeType, place: Place | None) -> bool:
    return place is not None and code.co_name == place[1] and \
        code.co_filename.endswith(place[0])


def _qualified(code: CodeType) -> str:
    """The function's qualified name (`Search._loop`), as Python 3.11 gives it."""
    return getattr(code, "co_qualname", code.co_name)


def forward_checking() -> Walk:
    from csp_puzzles.core import solve
    from csp_puzzles.examples import map_colouring

    csp = map_colouring()
    return profiled("forward checking, the Australia map",
                    lambda: solve(csp, inference="fc", var_order="mrv"))


def wipeout_to_nogood() -> Walk:
    from csp_puzzles.core import solve
    from csp_puzzles.examples import queens

    csp = queens(8)
    return profiled("a wipe-out to a learnt nogood, 8 queens",
                    lambda: solve(csp, inference="fc", var_order="input", look_back="learn"),
                    start=("core/search.py", "_failed"), end=("core/nogoods.py", "add"))


WALKS = {"fc": forward_checking, "nogood": wipeout_to_nogood}


def main(argv: list[str] | None = None) -> int:
    parser = BenchParser(prog="csp-puzzles bench walks", description=__doc__,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--order", action="store_true",
                        help="also print each walk's reading order (as ARCHITECTURE.md has it)")
    args = parser.parse_args(argv)
    walks = [make() for make in WALKS.values()]
    print(table(("walk", "files", "functions", "lines"),
                [(w.title, len(w.files), len(w.steps), w.lines) for w in walks]))
    print("counted by profiling the walk: the package's named functions that run, their "
          "files, and their lines (source, docstring included); the problem's own code "
          "left out")
    if args.order:
        for walk in walks:
            print(f"\n{walk.title}:\n{walk.reading_order()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
