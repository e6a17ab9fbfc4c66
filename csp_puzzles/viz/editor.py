"""The puzzle editor: click cells to enter your own grid, then solve it and step through.

Each click cycles a cell through its possible contents: water and islands 1-8 for
Hashiwokakero, the numbers for Singles, clues round the border and given heights inside
for Towers. `solve` turns the grid into the puzzle's native text, parses it with the
puzzle's own `parse`, solves with a trace, counts solutions (up to two) and shows a
`Stepper` on the search.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..errors import ParseError
from ..registry import puzzle_module
from .stepper import Stepper
from .views import puzzle_view

EDITABLE = ("hashi", "singles", "towers")
NONE = "-"


class PuzzleEditor(widgets.VBox):
    """A grid of buttons for `kind` ("hashi", "singles" or "towers"), a solve button and
    a stepper for the last solve. `size` is (height, width); Towers is square."""

    def __init__(self, kind: str, size: tuple[int, int] = (5, 5),
                 cells: list[list[str]] | None = None, timeout: float = 10.0):
        super().__init__()
        if kind not in EDITABLE:
            raise ValueError(f"the editor handles {', '.join(EDITABLE)}, not {kind!r}")
        self.kind = kind
        self.timeout = timeout
        self.height, self.width = size
        if kind == "towers":
            self.width = self.height
        self.rows, self.cols = (self.height + 2, self.width + 2) if kind == "towers" else size
        self.puzzle: Any = None
        self.result: Any = None
        self.stepper: Stepper | None = None

        self.buttons: list[list[widgets.Button]] = []
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                options = self.options(r, c)
                label = cells[r][c] if cells else (options[0] if options else " ")
                button = widgets.Button(description=label, disabled=not options,
                                        layout=widgets.Layout(width="2.6em", height="2.6em"))
                if self.kind == "towers" and options and not self._inside(r, c):
                    button.style.button_color = "#dde8f5"
                button.on_click(self._cycler(r, c))
                row.append(button)
            self.buttons.append(row)
        grid = widgets.GridBox(
            [b for row in self.buttons for b in row],
            layout=widgets.Layout(grid_template_columns=f"repeat({self.cols}, 2.8em)"))
        self.solve_button = widgets.Button(description="solve and step", button_style="primary",
                                           icon="play")
        self.clear_button = widgets.Button(description="clear", icon="eraser")
        self.status = widgets.HTML()
        self.status.add_class("csp-editor-status")
        self.holder = widgets.VBox()
        self.solve_button.on_click(lambda _: self.solve())
        self.clear_button.on_click(lambda _: self.clear())
        self.children = [grid, widgets.HBox([self.solve_button, self.clear_button]),
                         self.status, self.holder]

    # -- constructors -------------------------------------------------------------------------
    @classmethod
    def from_puzzle(cls, puzzle: Any, **options: Any) -> PuzzleEditor:
        """An editor holding `puzzle` (a Hashi, Singles or Towers puzzle), ready to change."""
        kind = puzzle.kind
        if kind == "hashi":
            cells = [["." for _ in range(puzzle.width)] for _ in range(puzzle.height)]
            for island in puzzle.islands:
                cells[island.row][island.col] = str(island.value)
            return cls(kind, (puzzle.height, puzzle.width), cells, **options)
        if kind == "singles":
            cells = [[str(x) for x in row] for row in puzzle.grid]
            return cls(kind, (len(cells), len(cells[0])), cells, **options)
        if kind == "towers":
            n = puzzle.size

            def show(x: int) -> str:
                return str(x) if x else NONE

            cells = [[" "] * (n + 2) for _ in range(n + 2)]
            for i in range(n):
                cells[0][i + 1] = show(puzzle.top[i])
                cells[n + 1][i + 1] = show(puzzle.bottom[i])
                cells[i + 1][0] = show(puzzle.left[i])
                cells[i + 1][n + 1] = show(puzzle.right[i])
                for j in range(n):
                    cells[i + 1][j + 1] = show(puzzle.givens[i][j])
            return cls(kind, (n, n), cells, **options)
        raise ValueError(f"the editor handles {', '.join(EDITABLE)}, not {kind!r}")

    # -- the cells -----------------------------------------------------------------------------
    def _inside(self, r: int, c: int) -> bool:
        return 1 <= r <= self.height and 1 <= c <= self.width

    def options(self, r: int, c: int) -> list[str]:
        """What a click cycles through at (r, c) (empty: a cell that cannot be edited)."""
        if self.kind == "hashi":
            return ["."] + [str(k) for k in range(1, 9)]
        if self.kind == "singles":
            return [str(k) for k in range(1, max(self.height, self.width) + 1)]
        corner = r in (0, self.rows - 1) and c in (0, self.cols - 1)
        return [] if corner else [NONE] + [str(k) for k in range(1, self.height + 1)]

    def cells(self) -> list[list[str]]:
        """The labels of the grid, row by row."""
        return [[b.description for b in row] for row in self.buttons]

    def _cycler(self, r: int, c: int) -> Callable[[widgets.Button], None]:
        def cycle(button: widgets.Button) -> None:
            options = self.options(r, c)
            button.description = options[(options.index(button.description) + 1) % len(options)]
            self.status.value = "edited: press <b>solve and step</b>"

        return cycle

    def clear(self) -> None:
        """Every cell back to its first option (water, 1, no clue)."""
        for r, row in enumerate(self.buttons):
            for c, button in enumerate(row):
                options = self.options(r, c)
                if options:
                    button.description = options[0]
        self.holder.children = ()
        self.status.value = "cleared"

    def text(self) -> str:
        """The grid in the puzzle's native text format."""
        cells = self.cells()
        if self.kind == "hashi":
            return "\n".join("".join(row) for row in cells) + "\n"
        if self.kind == "singles":
            body = "\n".join(" ".join(row) for row in cells)
            return f"{self.height} {self.width}\n{body}\n"
        n = self.height
        inner = range(1, n + 1)
        lines = [f"{n} {n} {n}",
                 " ".join(cells[0][i] for i in inner),
                 " ".join(cells[n + 1][i] for i in inner),
                 " ".join(cells[i][0] for i in inner),
                 " ".join(cells[i][n + 1] for i in inner)]
        lines += [" ".join(cells[r][c] for c in inner) for r in inner]
        return "\n".join(lines) + "\n"

    # -- solving --------------------------------------------------------------------------------
    def solve(self) -> None:
        """Parse the grid, count its solutions (up to 2), solve with a trace and step."""
        self.holder.children = ()
        self.stepper = None
        try:
            self.puzzle = puzzle_module(self.kind).parse(self.text(), filename="<editor>")
        except (ParseError, ValueError) as err:
            self.status.value = f"<b>not a valid grid:</b> {html.escape(str(err))}"
            return
        counted = self.puzzle.count(limit=2, timeout=self.timeout)
        self.result = self.puzzle.solve(trace=True, timeout=self.timeout)
        if not self.result.solved:
            why = ("no solution" if self.result.status == "unsatisfiable"
                   else f"no answer within {self.timeout:g} s")
            self.status.value = f"<b>{why}</b>"
            return
        problems = self.puzzle.check(self.result.solution)
        if counted.status == "limit":
            uniqueness = "uniqueness unknown (limit reached)"
        else:
            uniqueness = ("a unique solution" if counted.solutions == 1
                          else "more than one solution: a proper puzzle has only one")
        note = f"; the checker objects: {'; '.join(problems)}" if problems else ""
        self.status.value = (f"<b>solved</b> with {self.result.stats.nodes} nodes; "
                             f"{uniqueness}{html.escape(note)}")
        self.stepper = Stepper(self.result.trace, puzzle_view(self.puzzle))
        self.holder.children = (self.stepper,)
