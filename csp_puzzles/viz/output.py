"""Pictures for widgets: draw with matplotlib, render to PNG, put the PNG in an `Output`.

Setting an `Output`'s outputs directly (instead of `with out: display(fig)`) behaves the
same in JupyterLab, under nbval and in plain pytest, where `out.outputs` can be asserted.
Figures are built with `matplotlib.figure.Figure`, not pyplot, so no figure is ever shown
twice by the inline backend and none is left open.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from IPython.display import Image
from ipywidgets import Output
from matplotlib.axes import Axes
from matplotlib.figure import Figure


def figure_png(fig: Figure, dpi: int = 80) -> bytes:
    """The figure as PNG bytes."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    return buffer.getvalue()


def draw_png(draw: Callable[[Axes], None], figsize: tuple[float, float] = (4.5, 4.5),
             dpi: int = 80) -> bytes:
    """Call `draw(ax)` on a fresh figure with one axes and return the PNG."""
    fig = Figure(figsize=figsize)
    draw(fig.add_subplot())
    return figure_png(fig, dpi)


def show_png(out: Output, png: bytes) -> None:
    """Replace whatever `out` shows by the picture `png`."""
    out.outputs = ()
    out.append_display_data(Image(png))


def shown_png(out: Output) -> bytes | None:
    """The PNG an `Output` currently shows (None if it shows none), for tests and checks."""
    import base64

    for output in out.outputs:
        data = output.get("data", {}).get("image/png")
        if data is not None:
            return base64.b64decode(data) if isinstance(data, str) else data
    return None
