"""A still picture: one picture description drawn at given domains, in the browser.

    Picture(puzzle.picture(), domains=puzzle.to_csp().domains, title="the puzzle")

The same front end as the explorer draws it (no matplotlib, no kernel round trip), so it is
accessible alike: each variable is named by its state ("cell (1,2): 2 values left: 3, 4")
and reachable with the keyboard. Setting `domains` redraws it.

`domains` maps variables (as the model names them, or as the description's keys) to their
values left. Without it, each variable shows the values its description lists: `values`
(a list of value keys, when the description gives it), else the values of a `places` or the
`layout` of a `digits` variable.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

import anywidget
import traitlets

from ..puzzle.picture import key
from .frontend import module
from .words import PHRASES

Domains = Mapping[Hashable, Iterable[Any]]


class Picture(anywidget.AnyWidget):
    """A picture description drawn at `domains`, with an optional `title`."""

    _esm = module()
    data = traitlets.Dict().tag(sync=True)

    def __init__(self, description: Mapping[str, Any], domains: Domains | None = None,
                 title: str = ""):
        self.description = dict(description)
        self.title = title
        self._words = {str(k): str(w) for k, w in
                       (self.description.get("value_words") or {}).items()}
        super().__init__(data=self._data(domains))

    @property
    def domains(self) -> dict[str, list[str]]:
        """The values shown, as value keys by variable key."""
        data = self.data
        return {k: [x for x, _ in values] for k, values in zip(data["keys"], data["domains"])}

    @domains.setter
    def domains(self, domains: Domains) -> None:
        self.data = self._data(domains)

    def _data(self, domains: Domains | None) -> dict[str, Any]:
        entries = self.description["variables"]
        keys = [entry["var"] for entry in entries]
        given = {key(var): [key(x) for x in values] for var, values in (domains or {}).items()}
        shown = []
        for entry in entries:
            values = given.get(entry["var"]) if domains is not None else listed_values(entry)
            if values is None:
                raise ValueError(f"Picture: no values for variable {entry['var']} (pass "
                                 "domains=..., or list them in the description)")
            shown.append([[x, self._words.get(x, x)] for x in values])
        return {"widget": "picture", "picture": self.description, "keys": keys,
                "names": [entry.get("name", entry["var"]) for entry in entries],
                "all": [all_values(entry, [x for x, _ in values])
                        for entry, values in zip(entries, shown)],
                "domains": shown, "phrases": PHRASES, "title": self.title}


def listed_values(entry: Mapping[str, Any]) -> list[str] | None:
    """The values a variable's description lists (None when it lists none)."""
    if "values" in entry:
        return [str(x) for x in entry["values"]]
    if "places" in entry:
        return list(entry["places"])
    if "layout" in entry:
        return list(entry["layout"])
    return None


def all_values(entry: Mapping[str, Any], shown: list[str]) -> list[str]:
    """Every value the variable could take, for the drawings that show the missing ones."""
    listed = listed_values(entry)
    return listed if listed is not None else shown
