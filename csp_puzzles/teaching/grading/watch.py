"""Marks for the student's own work: what the student's code calls while a check runs.

An answer that hands its work to the grader's reference (`grading.nogoods.expected`) or to
the library's own version of the exercise (`core.textbook.revise`) would pass every check.
So each check runs under a `Watch` (Python's trace hook, `sys.settrace`, in this thread and
in the threads started meanwhile), which sorts all code by where it lives:

- **csp_puzzles**: the library and the grader;
- **Python's own library and installed packages** (and code made by `exec` inside them,
  `<string>`, as dataclasses make theirs): it only passes calls on;
- **everything else is the student's**: a notebook cell, a module of their own.

A call into csp_puzzles whose nearest caller outside Python's own code is the student's code
must be one the exercise allows (`allowed`: the state's methods, `constraint.is_satisfied`,
what the exercise hands out); the first one that is not is recorded, and the check then fails
with a sentence naming it. Calls the library makes on its own (the search calling the
student's propagator, which calls `state.remove`, which records the trace) are never judged.
So the library's REVISE is refused whether the student calls it directly, through
`map`, through `copy.deepcopy` or from a thread. The student's code turning the watch off
(`sys.settrace`, `sys.setprofile` and their `threading` versions) or starting a bare
`_thread` is refused and recorded the same way.

A function the library caches (`functools.cache`) answers a repeated call in C without
running: such caches are emptied while a check runs, so that the student's calls run them.

What it cannot see (the README and the instructor's guide say so): code copied out of the
library into the answer, work done in another process, a reference to `sys.settrace` taken
before the check started, and a submission that rewrites the grader itself before the
graded cells run.
"""

from __future__ import annotations

import _thread
import contextlib
import fnmatch
import os
import site
import sys
import sysconfig
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

#: the folder of the csp_puzzles package, as code objects may name it
_PACKAGE = Path(__file__).resolve().parents[2]
_PACKAGE_PREFIXES = tuple({str(_PACKAGE) + os.sep,
                           os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
                           + os.sep})
#: the grader's own folder, inside the package
_GRADER = "teaching.grading"

LIBRARY, STUDENT, PASSING = "library", "student", "passing"
#: library code the student's code may always call: the watch's own guards
ALWAYS = ("teaching.grading.watch",)


def _python_prefixes() -> tuple[str, ...]:
    """Where Python's own library and the installed packages live."""
    places = set(sysconfig.get_paths().get(key, "") for key in
                 ("stdlib", "platstdlib", "purelib", "platlib"))
    places.update(getattr(site, "getsitepackages", lambda: [])())
    places.add(getattr(site, "getusersitepackages", lambda: "")())
    found = {os.path.realpath(p) + os.sep for p in places if p}
    found.update(p + os.sep for p in places if p)
    return tuple(sorted(found))


_PYTHON = _python_prefixes()


def origin(code: CodeType) -> str:
    """LIBRARY, PASSING (Python's own code, installed packages, `<string>`) or STUDENT."""
    name = code.co_filename
    if name.startswith(_PACKAGE_PREFIXES):
        return LIBRARY
    if name.startswith(("<frozen", "<string>")) or name.startswith(_PYTHON):
        return PASSING
    return STUDENT


def dotted(code: CodeType) -> tuple[str, str]:
    """(module inside csp_puzzles, qualified name) of library code: ("core.textbook",
    "revise")."""
    name = code.co_filename
    prefix = next(p for p in _PACKAGE_PREFIXES if name.startswith(p))
    parts = list(Path(name[len(prefix):]).with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts), getattr(code, "co_qualname", code.co_name)


def allows(patterns: Iterable[str], module: str, qualname: str) -> bool:
    """Whether one of `patterns` ("core.state", "core.constraints:*.is_satisfied")
    covers this function."""
    for pattern in patterns:
        where, _, what = pattern.partition(":")
        if fnmatch.fnmatchcase(module, where) and (not what or
                                                   fnmatch.fnmatchcase(qualname, what)):
            return True
    return False


@dataclass(frozen=True)
class HandOver:
    """The first call the student's code should not have made."""

    caller: str  # the student's function that made it
    called: str  # "csp_puzzles.core.textbook.revise", or "sys.setprofile"
    kind: str  # "grader", "library", "hook" (the watch switched off) or "thread"


class Watch:
    """A context manager: while it is on, the student's calls into csp_puzzles outside
    `allowed` are recorded (`found`, the first one).

    It listens with `sys.settrace` (in this thread and in the threads `threading` starts
    meanwhile), on function calls only: its trace function returns None, so no line is
    traced, and calls of built-in functions cost nothing. The functions that would switch
    it off (`sys.settrace`, `sys.setprofile`, their `threading` versions) and the bare
    `_thread.start_new_thread` are swapped for guards meanwhile, which refuse the student's
    code and record the attempt."""

    #: (module, attribute, what a call from the student's code is) of each guarded function
    GUARDED = ((sys, "settrace", "hook"), (sys, "setprofile", "hook"),
               (threading, "settrace", "hook"), (threading, "setprofile", "hook"),
               (_thread, "start_new_thread", "thread"))

    def __init__(self, allowed: Iterable[str] = ()):
        self.allowed = tuple(allowed)
        self.found: HandOver | None = None
        self._judged: dict[CodeType, bool] = {}  # code -> may the student call it
        self._before: tuple[Any, Any, Any] = (None, None, None)
        self._originals: list[tuple[Any, str, Any]] = []
        self._bound = self._make_hook()

    def __enter__(self) -> Watch:
        global _cold
        _cold = [f for f in cached_functions()
                 if not allows(self.allowed, *dotted(f.__wrapped__.__code__))]
        keep_cold()
        self._before = (sys.gettrace(), threading.gettrace(), sys.getprofile())
        # a profiler runs untraced: one the student's code set earlier could call anything
        # unseen, so none runs meanwhile
        sys.setprofile(None)
        threading.settrace(self._bound)
        sys.settrace(self._bound)
        for module, attribute, kind in self.GUARDED:
            original = getattr(module, attribute)
            self._originals.append((module, attribute, original))
            setattr(module, attribute, self._guard(original, kind))
        return self

    def __exit__(self, *exc: object) -> None:
        _cold.clear()
        for module, attribute, original in self._originals:
            setattr(module, attribute, original)
        self._originals.clear()
        still = sys.gettrace() is self._bound
        sys.settrace(self._before[0])
        threading.settrace(self._before[1])
        sys.setprofile(self._before[2])
        if not still and self.found is None:
            self.found = HandOver("your code", "sys.settrace", "hook")

    def _guard(self, original: Any, kind: str) -> Any:
        """`original`, refused to the student's code (the attempt is recorded)."""
        def guarded(*args: Any, **kwargs: Any) -> Any:
            code = sys._getframe(1).f_code  # threading's own calls pass: only the
            if origin(code) != STUDENT:     # student's direct ones are refused
                return original(*args, **kwargs)
            if self.found is None:
                caller = getattr(code, "co_qualname", code.co_name).split(".<locals>")[0]
                self.found = HandOver(caller, f"{original.__module__}.{original.__name__}",
                                      kind)
            return None

        return guarded

    def _make_hook(self) -> Any:
        """The trace function: called at every function call (and no line, since it returns
        None), so it is kept short."""
        judged = self._judged

        def hook(frame: FrameType, event: str, arg: Any) -> None:
            code = frame.f_code
            free = judged.get(code)
            if free is None:
                free = judged[code] = (origin(code) != LIBRARY
                                       or allows(self.allowed + ALWAYS, *dotted(code)))
            if not free and self.found is None:
                self._judge(frame, code)

        return hook

    def _judge(self, frame: FrameType, code: CodeType) -> None:
        caller = self._student_caller(frame.f_back)
        if caller is not None:
            module, qualname = dotted(code)
            kind = "grader" if module.startswith(_GRADER) else "library"
            self.found = HandOver(caller, f"csp_puzzles.{module}.{qualname}", kind)

    @staticmethod
    def _student_caller(frame: FrameType | None) -> str | None:
        """The student's function behind `frame`, skipping Python's own code; None when
        the library made the call. A stack of Python's own code alone (a thread the
        student started) counts as the student's."""
        while frame is not None:
            where = origin(frame.f_code)
            if where == STUDENT:
                qualname = getattr(frame.f_code, "co_qualname", frame.f_code.co_name)
                return qualname.split(".<locals>")[0]  # the function the student wrote
            if where == LIBRARY:
                return None
            frame = frame.f_back
        return "a thread of your code"


@contextlib.contextmanager
def unwatched() -> Iterator[None]:
    """The grader's own work, which runs no code of the student's (generating a puzzle,
    solving it with the library): without the watch, at full speed. The watch in force, if
    any, comes back at the end, with the cached functions cold again."""
    hook = sys.gettrace()
    if getattr(hook, "__qualname__", "") != "Watch._make_hook.<locals>.hook":
        yield
        return
    sys.settrace(None)
    try:
        yield
    finally:
        keep_cold()
        sys.settrace(hook)


# -- cached functions ----------------------------------------------------------------------
# A function cached with functools (`run_supports`) answers a repeated call from its cache,
# in C, without running any Python: the watch would not see a student's call that hits it.
# So the caches of the library's cached functions the student may not call are emptied when
# a watch starts and after each `unwatched` block: a call from the student's code then runs
# the function, and is seen. (The grader's own calls to them go through `__wrapped__`.)

#: the cached functions the running watch keeps cold
_cold: list[Any] = []
_found: dict[int, list[Any]] = {}  # number of csp_puzzles modules loaded -> their cached ones


def cached_functions() -> list[Any]:
    """Every functools-cached function defined in the loaded modules of csp_puzzles."""
    modules = [m for name, m in list(sys.modules.items())
               if name.startswith("csp_puzzles") and m is not None]
    if len(modules) not in _found:
        found: dict[int, Any] = {}
        for module in modules:
            for value in list(vars(module).values()):
                code = getattr(getattr(value, "__wrapped__", None), "__code__", None)
                if hasattr(value, "cache_clear") and code is not None \
                        and origin(code) == LIBRARY:
                    found[id(value)] = value
        _found.clear()
        _found[len(modules)] = list(found.values())
    return _found[len(modules)]


def keep_cold() -> None:
    """Empty the caches the running watch keeps cold."""
    for function in _cold:
        function.cache_clear()
