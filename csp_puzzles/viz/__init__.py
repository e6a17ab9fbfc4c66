"""Widgets and pictures for the notebooks. They only read traces and draw.

- `Stepper(trace, draw)`: replay a search event by event;
- `Picture(description, domains)`: one picture description drawn at given domains;
- `Playground(puzzle or session)`: a search the student drives, in the page;
- views (`queens_view`, `map_view`, `domain_grid_view`, `puzzle_view`): drawing functions;
- `Comparison(runs, view)`: several runs of one problem (`csp_puzzles.core.strategies.compare`),
  each run's search tree and node count, any run replayed;
- pictures as plain data: `node_chart`, `bar_chart`, `line_chart`, `implication_picture`
  (a conflict analysis of a learning search);
- `PuzzleEditor`: click cells to enter a puzzle, then solve and step;
- `CodeStepper(function, *args)`: your code, stepped: a function run once and replayed line
  by line beside the picture of its domains.

The pictures and views are plain data and import nothing else. The widgets need anywidget
and ipywidgets (the `widgets` extra), imported the first time one of them is asked for, so
that `import csp_puzzles.viz` stays quick and works without them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .charts import bar_chart, line_chart, node_chart, table
from .implication import implication_picture
from .views import (
    AUSTRALIA_POSITIONS,
    View,
    domain_grid_view,
    graph_view,
    map_view,
    puzzle_view,
    queens_view,
    sudoku_view,
)
from .words import LEGEND, event_sentence, plain_name

if TYPE_CHECKING:
    from .code_stepper import CodeStepper
    from .compare import Comparison
    from .editor import PuzzleEditor, editable_kinds
    from .export import export_notebook
    from .matplotlib_drawing import draw_png, draw_puzzle, figure_png
    from .playground import Playground
    from .stepper import Explorer, Stepper
    from .still import Picture

#: what is imported when first asked for: the widgets, and what needs their front end
LAZY = {"Stepper": "stepper", "Explorer": "stepper", "Comparison": "compare",
        "PuzzleEditor": "editor", "editable_kinds": "editor", "export_notebook": "export",
        "Picture": "still", "Playground": "playground", "draw_puzzle": "matplotlib_drawing",
        "draw_png": "matplotlib_drawing", "figure_png": "matplotlib_drawing",
        "CodeStepper": "code_stepper"}


def __getattr__(name: str) -> Any:
    module = LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "Stepper", "Explorer", "Picture", "Playground", "CodeStepper", "View", "PuzzleEditor",
    "editable_kinds",
    "export_notebook",
    "queens_view", "map_view", "domain_grid_view", "graph_view",
    "puzzle_view", "sudoku_view",
    "AUSTRALIA_POSITIONS", "Comparison", "node_chart", "table", "bar_chart", "line_chart",
    "implication_picture",
    "draw_png", "figure_png", "draw_puzzle", "event_sentence", "plain_name", "LEGEND",
]
