"""Shared test fixtures: where the shared puzzle data lives (skipped cleanly when absent)."""

from __future__ import annotations

import json
import os
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("CSP_PUZZLES_SHARED", REPO.parent / "shared"))
DATA = SHARED / "data"


def shared_file(*parts: str) -> Path:
    """A file under ../shared/data, or skip the test when that folder is absent."""
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    return path


def janko(name: str) -> list[tuple[str, dict]]:
    """(puzzle id, {'problem', 'solution', ...}) pairs from ../shared/data/janko/NAME.json."""
    with open(shared_file("janko", f"{name}.json"), encoding="utf-8") as handle:
        return list(json.load(handle)["data"].items())


def tatham(name: str) -> list[dict]:
    """Rows of ../shared/data/tatham/NAME-solutions.jsonl: params, id, solve_move."""
    with open(shared_file("tatham", f"{name}-solutions.jsonl"), encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def data_available(*parts: str) -> bool:
    return DATA.joinpath(*parts).exists()


def decoded(puzzle: Any, domains: Mapping[Hashable, Sequence[Any]]) -> Any:
    """The solution a state of the search stands for once every domain holds one value."""
    return puzzle.decode({var: values[0] for var, values in domains.items()})
