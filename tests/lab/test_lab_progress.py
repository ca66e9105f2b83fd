"""The lab's progress bar: on a terminal, with the time left; never in a pipe or a file.

Issue 4: "A progress bar with an estimate of the time left". The bar goes to stderr
only when stderr is a terminal, so the runs here give it a pseudo-terminal
(``os.openpty``) and read what it drew.
"""

from __future__ import annotations

import fcntl
import os
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")

GREENFELT = str(Path(sys.executable).parent / "greenfelt")
PATIENCE_S = 120.0  # a bound on waiting for the run, not a speed claim


def _stderr_on_a_terminal(*argv: str) -> tuple[int, str, str]:
    """Run ``greenfelt`` with stderr on a pseudo-terminal: (status, stdout, what stderr drew)."""
    leader, follower = os.openpty()
    # A new pseudo-terminal is 0 columns wide, where the bar draws nothing; a window is wider.
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 160, 0, 0))
    try:
        run = subprocess.Popen([GREENFELT, *argv], stdout=subprocess.PIPE, stderr=follower)
        os.close(follower)
        drawn = bytearray()
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the run ended and closed its end
                break
            if not chunk:
                break
            drawn += chunk
        out, _ = run.communicate(timeout=PATIENCE_S)
    finally:
        os.close(leader)
    return run.returncode, out.decode(), drawn.decode(errors="replace")


def test_sim_draws_a_bar_with_the_time_left_on_a_terminal() -> None:
    status, out, drawn = _stderr_on_a_terminal(
        "sim", "golf", "--bots", "greedy,random", "--games", "2000", "--jobs", "1"
    )
    assert status == 0
    assert "greedy      1   2000" in out  # the table is on stdout, not in the bar
    played = [int(n) for n in re.findall(r"(\d+)/2000 ", drawn)]  # holes played of the total
    assert played[0] == 0 and max(played) > 0, drawn
    assert re.search(r"\d\d:\d\d<\d\d:\d\d", drawn), drawn  # time spent < time left
    assert "hole/s" in drawn or "s/hole" in drawn


def test_compare_names_each_rule_set_and_its_place_in_the_bar() -> None:
    status, _, drawn = _stderr_on_a_terminal(
        "sim", "compare", "golf", "--rules", "six-card,four-card", "--bots", "random",
        "--games", "36", "--jobs", "1",
    )  # fmt: skip
    assert status == 0
    assert "six-card (1/2)" in drawn and "four-card (2/2)" in drawn


def test_quiet_or_not_a_terminal_draws_no_bar() -> None:
    status, _, drawn = _stderr_on_a_terminal(
        "sim", "golf", "--bots", "random", "--games", "40", "--jobs", "1", "--quiet"
    )
    assert status == 0 and drawn == ""
    piped = subprocess.run(
        [GREENFELT, "sim", "golf", "--bots", "random", "--games", "40", "--jobs", "1"],
        capture_output=True,
        text=True,
        timeout=PATIENCE_S,
        check=True,
    )
    assert piped.stderr == ""
