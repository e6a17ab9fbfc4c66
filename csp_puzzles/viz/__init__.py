"""Widgets and pictures for the notebooks. They only read traces and draw.

- `Stepper(trace, draw)`: replay a search event by event;
- `Picture(description, domains)`: one picture description drawn at given domains;
- `Playground(puzzle or session)`: a search the student drives, in the page;
- views (`queens_view`, `map_view`, `domain_grid_view`, `puzzle_view`): drawing functions;
- `Comparison(runs, view)`: several runs of one problem (`csp_puzzles.strategies.compare`),
  each run's search tree and node count, any run replayed;
- `PuzzleEditor`: click cells to enter a puzzle, then solve and step.
"""

from .compare import Comparison, node_chart, table
from .editor import PuzzleEditor, editable_kinds
from .export import export_notebook
from .output import draw_png, figure_png, show_png, shown_png
from .playground import Playground
from .stepper import Explorer, Stepper
from .still import Picture
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
from .words import LEGEND, describe, plain_name

__all__ = [
    "Stepper", "Explorer", "Picture", "Playground", "View", "PuzzleEditor", "editable_kinds",
    "export_notebook",
    "queens_view", "map_view", "domain_grid_view", "graph_view",
    "puzzle_view", "sudoku_view",
    "AUSTRALIA_POSITIONS", "Comparison", "node_chart", "table",
    "draw_png", "figure_png", "show_png", "shown_png", "describe", "plain_name", "LEGEND",
]
