"""The notebooks run on a busy machine: every `pytest --nbval-lax` run of a notebook (the
course's own check, `make test`, CI) happens while other processes keep every core busy
(`tests/busy.py`), so that an assert leaning on the clock fails at once, not now and then.
One spinning process a core in all: each of the run's pytest-xdist workers starts its share
(with two workers on two cores, one each), and a notebook's kernel gets half to two thirds
of a core. (Two a core per worker starved the other worker as much as the kernel, for
little more: CI went over its 15 minutes.)

The load starts with the first notebook cell and stops as soon as anything else runs; the
tests of `tests/` run on an idle machine as before.

Every notebook cell nbval runs is also read for a count printed as exact that stopped at
its limit (`tests/capped_counts.py`).
"""

from __future__ import annotations

import os

import pytest

from tests.busy import BusyCores, cores

pytest_plugins = ("tests.capped_counts",)

#: the workers of this run (pytest-xdist says how many; 1 without it)
_WORKERS = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
_LOAD = BusyCores(count=max(1, cores() // _WORKERS))


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.path.suffix == ".ipynb":
        _LOAD.start()
    else:
        _LOAD.stop()


def pytest_sessionfinish(session: pytest.Session) -> None:
    _LOAD.stop()
