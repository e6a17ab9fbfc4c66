"""PNG pictures for widgets: draw with matplotlib, render to PNG, put the PNG in an `Output`.

Only a drawing that has no picture description needs this (a custom `draw(ax, domains,
event)` given to `Stepper`); every built-in view is drawn by the browser. matplotlib,
IPython and ipywidgets are imported when a PNG is made or shown, never before.

Setting an `Output`'s outputs directly (instead of `with out: display(fig)`) behaves the
same in JupyterLab, under nbval and in plain pytest, where `out.outputs` can be asserted.
Figures are built with `matplotlib.figure.Figure`, not pyplot, so no figure is ever shown
twice by the inline backend and none is left open.
"""

from __future__ import annotations

import base64
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


def show_png(out: Any, png: bytes) -> None:
    """Replace whatever the ipywidgets `Output` `out` shows by the picture `png`."""
    from IPython.display import Image

    out.outputs = ()
    out.append_display_data(Image(png))


def shown_png(out: Any) -> bytes | None:
    """The PNG an `Output` currently shows (None if it shows none), for tests and checks."""
    for output in out.outputs:
        data = output.get("data", {}).get("image/png")
        if data is not None:
            return base64.b64decode(data) if isinstance(data, str) else data
    return None
