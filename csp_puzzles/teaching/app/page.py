"""The app's page: a tab to explore the search on generated puzzles, a tab to edit one."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from ...puzzle.registry import KINDS, puzzle_module
from ...viz import PuzzleEditor, Stepper, puzzle_view

#: small sizes, so that generating and solving with a trace takes a moment in class
SIZES: dict[str, dict[str, Any]] = {
    "hashi": {"width": 7, "height": 7},
    "kakuro": {"width": 6, "height": 6},
    "towers": {"size": 5},
    "singles": {"width": 6},
}


def generated(kind: str, seed: int) -> Any:
    """A uniquely solvable puzzle of `kind` from the generator, easy and small."""
    return puzzle_module(kind).generate(seed=seed, difficulty="easy", **SIZES[kind])


class SearchTab(widgets.VBox):
    """Pick a puzzle kind and a seed, generate, solve with a trace, and step through it."""

    def __init__(self, kind: str = "hashi", seed: int = 1):
        super().__init__()
        self.kind = widgets.Dropdown(options=KINDS, value=kind, description="puzzle")
        self.seed = widgets.BoundedIntText(value=seed, min=0, max=10**6, description="seed",
                                           layout=widgets.Layout(width="12em"))
        self.go = widgets.Button(description="generate and solve", button_style="primary")
        self.status = widgets.HTML()
        self.status.add_class("csp-app-status")
        self.holder = widgets.VBox()
        self.stepper: Stepper | None = None
        self.puzzle: Any = None
        self.result: Any = None
        self.go.on_click(lambda _: self.show())
        self.children = [widgets.HBox([self.kind, self.seed, self.go]), self.status,
                         self.holder]
        self.show()

    def show(self) -> None:
        """Generate the chosen puzzle, solve it with a trace and put a stepper on it."""
        kind, seed = self.kind.value, self.seed.value
        self.puzzle = puzzle = generated(kind, seed)
        self.result = result = puzzle.solve(trace=True, timeout=30)
        if result.trace is None or not result.solved:
            self.status.value = html.escape(f"{kind} seed {seed}: {result.status}")
            self.holder.children = ()
            return
        self.status.value = html.escape(
            f"{kind} seed {seed}: solved with {result.stats.nodes} nodes, "
            f"{result.stats.backtracks} backtracks; {len(result.trace)} events to step through")
        self.stepper = Stepper(result.trace, puzzle_view(puzzle))
        self.holder.children = (self.stepper,)


class EditorTab(widgets.VBox):
    """A puzzle editor for the chosen kind, holding a generated puzzle to start from."""

    def __init__(self, kind: str = "hashi"):
        super().__init__()
        self.kind = widgets.Dropdown(options=KINDS, value=kind, description="puzzle")
        self.status = widgets.HTML()
        self.holder = widgets.VBox()
        self.editor: PuzzleEditor | None = None
        self.kind.observe(lambda _: self.show(), names="value")
        self.children = [self.kind, self.status, self.holder]
        self.show()

    def show(self) -> None:
        try:
            self.editor = PuzzleEditor.from_puzzle(generated(self.kind.value, 1))
        except ValueError as err:  # a kind the editor does not handle
            self.editor = None
            self.status.value = html.escape(str(err))
            self.holder.children = ()
            return
        self.status.value = "click a cell to change it, then solve and step"
        self.holder.children = (self.editor,)


class ClassApp(widgets.Tab):
    """The whole page: the search to step through first, then the editor."""

    def __init__(self) -> None:
        super().__init__()
        self.search = SearchTab()
        self.editor = EditorTab()
        self.children = [self.search, self.editor]
        self.titles = ("explore the search", "edit a puzzle")
        self.add_class("csp-app")
