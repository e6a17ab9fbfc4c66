"""The puzzle editor: click cells to enter your own grid, then solve it and step through.

Each click cycles a cell through what the puzzle allows there (its `editor_options`): water
and islands 1-8 for Hashiwokakero, the numbers for Singles, clues round the border and given
heights inside for Towers. `solve` turns the grid into the puzzle's native text
(`editor_text`), parses it with the puzzle's own `parse`, solves with a trace, counts
solutions (up to two) and shows a `Stepper` on the search.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from ..core.errors import ParseError
from ..puzzle.registry import KINDS, puzzle_class, puzzle_module
from .stepper import Stepper
from .views import puzzle_view

FRAME_COLOUR = "#dde8f5"


def editable_kinds() -> list[str]:
    """The puzzle kinds the editor can build."""
    return [kind for kind in KINDS if puzzle_class(kind).editable()]


class PuzzleEditor(widgets.VBox):
    """A grid of buttons for `kind` (see `editable_kinds()`), a solve button and a stepper
    for the last solve. `size` is (height, width) of the puzzle, without its frame of clues."""

    def __init__(self, kind: str, size: tuple[int, int] = (5, 5),
                 cells: list[list[str]] | None = None, timeout: float = 10.0):
        super().__init__()
        if kind not in KINDS or not puzzle_class(kind).editable():
            raise ValueError(f"the editor handles {', '.join(editable_kinds())}, not {kind!r}")
        self.kind = kind
        self.puzzle_class = puzzle_class(kind)
        self.timeout = timeout
        self.height, self.width = size
        frame = self.puzzle_class.editor_frame
        self.frame = frame
        self.rows, self.cols = self.height + 2 * frame, self.width + 2 * frame
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
                if options and not self._inside(r, c):
                    button.style.button_color = FRAME_COLOUR
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
        """An editor holding `puzzle` (of an editable kind), ready to change."""
        cells = puzzle.editor_cells()
        frame = puzzle.editor_frame
        size = (len(cells) - 2 * frame, len(cells[0]) - 2 * frame)
        return cls(puzzle.kind, size, cells, **options)

    # -- the cells -----------------------------------------------------------------------------
    def _inside(self, r: int, c: int) -> bool:
        return (self.frame <= r < self.rows - self.frame
                and self.frame <= c < self.cols - self.frame)

    def options(self, r: int, c: int) -> list[str]:
        """What a click cycles through at (r, c) (empty: a cell that cannot be edited)."""
        return self.puzzle_class.editor_options(self.height, self.width, r, c)

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
        return self.puzzle_class.editor_text(self.cells())

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
