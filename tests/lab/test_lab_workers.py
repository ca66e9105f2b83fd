"""`greenfelt sim --jobs N` leaves no worker behind, however its process ends.

Ctrl-C is the parent's to handle (it stops the workers); a parent killed
outright (SIGTERM, SIGKILL, a closed terminal) runs no clean-up at all, so each
worker watches its parent and ends with it. Linux process table (``/proc``):
the workers are the children of the ``greenfelt`` process that run
``spawn_main``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PROC = Path("/proc")
PATIENCE_S = 60.0  # a bound on waiting for a process to start or end, not a speed claim

pytestmark = pytest.mark.skipif(not PROC.is_dir(), reason="needs Linux's /proc")


def _parent_and_state(pid: int) -> tuple[int, str] | None:
    """(parent pid, state letter) of a live process; None once it is gone."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # after "pid (name)": state, ppid, ...
    return int(fields[1]), fields[0]


def _workers(parent: int) -> list[int]:
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        info = _parent_and_state(int(entry.name))
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if info is not None and info[0] == parent and b"spawn_main" in cmdline:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    info = _parent_and_state(pid)
    return info is not None and info[1] != "Z"  # a zombie has ended, only not been reaped


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGKILL"])
def test_workers_end_with_a_parent_killed_outright(signal_name: str) -> None:
    exe = Path(sys.executable).parent / "greenfelt"
    parent = subprocess.Popen(
        [str(exe), "sim", "golf", "--bots", "random", "--games", "2000000", "--jobs", "2",
         "--seed", "3", "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    workers: list[int] = []
    try:
        deadline = time.monotonic() + PATIENCE_S
        workers = _workers(parent.pid)
        while len(workers) < 2 and time.monotonic() < deadline and parent.poll() is None:
            time.sleep(0.2)
            workers = _workers(parent.pid)
        assert len(workers) == 2, "the simulation never started its two workers"
        os.kill(parent.pid, getattr(signal, signal_name))
        parent.wait(timeout=PATIENCE_S)
        deadline = time.monotonic() + PATIENCE_S
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in workers if _alive(pid)], "workers outlived their parent"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for pid in workers:  # only where the test failed: leave nothing running
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
