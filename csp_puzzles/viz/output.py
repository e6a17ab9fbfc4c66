"""PNG pictures for widgets: draw with matplotlib, render to PNG.

Only a drawing that has no picture description needs this (a custom `draw(ax, domains,
event)` given to `Stepper`); every built-in view is drawn by the browser. matplotlib is
imported when a PNG is made, never before. Figures are built with
`matplotlib.figure.Figure`, not pyplot, so no figure is ever shown twice by the inline
backend and none is left open.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any


def figure_png(fig: Any, dpi: int = 80) -> bytes:
    """The matplotlib figure as PNG bytes."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    return buffer.getvalue()


def draw_png(draw: Callable[[Any], None], figsize: tuple[float, float] = (4.5, 4.5),
             dpi: int = 80) -> bytes:
    """Call `draw(ax)` on a fresh figure with one matplotlib axes and return the PNG."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize)
    draw(fig.add_subplot())
    return figure_png(fig, dpi)
