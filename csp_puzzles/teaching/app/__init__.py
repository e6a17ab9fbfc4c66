"""A small web app for a class: the puzzle explorer and the puzzle editor on one page.

`csp-puzzles app` serves `puzzles.ipynb` with Voilà (the `app` extra) on 127.0.0.1: no code
cells, no kernel menu, just the widgets. The page is built by `ClassApp` from the public
`Stepper` and `PuzzleEditor`, so it shows whatever those widgets become.
"""

from .launch import NOTEBOOK, serve, voila_command
from .page import ClassApp, SearchTab

__all__ = ["ClassApp", "SearchTab", "NOTEBOOK", "serve", "voila_command"]
