"""The load the notebooks run under (`tests/busy.py`) is real, and it never outlives its run.

No clock here: the spinners are checked by what they are (running, each in a session of its
own, so that they compete with a kernel's session), and by what happens to them when they
are stopped or their parent is killed (waited for, with generous limits).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.busy import PER_CORE, BusyCores, cores

REPO = Path(__file__).resolve().parent.parent


def _running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie that nobody waited for counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _wait_until(condition, limit: float = 60.0) -> bool:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def test_two_spinners_a_core_each_in_its_own_session_until_stopped():
    with BusyCores() as load:
        assert len(load.processes) == PER_CORE * cores() >= 2
        for process in load.processes:
            assert process.poll() is None and _running(process.pid)
            assert os.getsid(process.pid) == process.pid != os.getsid(0)
        pids = [process.pid for process in load.processes]
    assert load.processes == [] and not any(_running(pid) for pid in pids)


def test_spinners_stop_when_the_run_that_started_them_is_killed():
    starter = subprocess.Popen(
        [sys.executable, "-c", "from tests.busy import BusyCores\n"
         "load = BusyCores(2)\nload.start()\n"
         "print(*[p.pid for p in load.processes], flush=True)\n"
         "import time\ntime.sleep(600)\n"],
        cwd=REPO, stdout=subprocess.PIPE, text=True)
    pids = [int(pid) for pid in starter.stdout.readline().split()]
    assert len(pids) == 2 and all(_running(pid) for pid in pids)
    starter.kill()
    starter.wait()
    assert _wait_until(lambda: not any(_running(pid) for pid in pids))
