"""A verdict as a student reads it: the sentence alone, no grader code above it.

IPython prints a failed cell's traceback, every frame from the cell down to the `raise`;
for a verdict those frames are the grader's, and the sentence at the bottom is all that
matters. `show_verdicts_alone()` (called when the grader is imported) asks IPython to print
the verdicts' exceptions as `Mismatch: the sentence`, in red as IPython writes exception
names, in the notebook and in nbgrader's feedback alike. Any other exception (the
`NotImplementedError` of an unwritten answer, an error inside the student's code) keeps its
full traceback, which then points into the student's own code.
"""

from __future__ import annotations

from typing import Any

RED, RESET = "\x1b[31m", "\x1b[39m"


def _sentence_alone(shell: Any, etype: type, value: BaseException, tb: Any,
                    tb_offset: int | None = None) -> list[str]:
    """IPython's custom exception handler: show the verdict and nothing else."""
    lines = [f"{RED}{etype.__name__}{RESET}: {value}"]
    shell._showtraceback(etype, value, lines)
    return lines


def show_verdicts_alone(*verdicts: type[BaseException]) -> None:
    """In an IPython kernel, print the exceptions `verdicts` as their sentence alone.

    Does nothing outside IPython, or when another custom handler is in place already."""
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None or not hasattr(shell, "_showtraceback"):
        return
    mine = getattr(shell, "custom_exceptions", ())
    if mine and not set(mine) <= set(verdicts):
        return
    shell.set_custom_exc(tuple(verdicts), _sentence_alone)
