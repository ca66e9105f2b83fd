"""The terminal's bots think where a server's do: an expert in a worker process.

Issue 4 (people play greenfelt alone against bots): a search in the terminal's own
process would share the interpreter lock with the app that draws the table, and a
thread stuck in a bot's bug cannot be stopped (quitting waited on it). A worker
process is ended when its bot hangs, and with the game.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import SIZE, golf_choice, settle, shown, until

import greenfelt.bots
from greenfelt.bots import Bot
from greenfelt.bots.base import Observation
from greenfelt.golf import find_preset
from greenfelt.server.thinking import Thinkers
from greenfelt.tui.app import PlayApp
from greenfelt.tui.local import LocalSession

ONE_HOLE = find_preset("six-card").with_options({"end": "holes:1"})
STUCK = "GREENFELT_TEST_TUI_STUCK"
"""A file: the first planted expert to take it is stuck for good; the others are quick."""


class StuckOnce(Bot):
    """An expert stuck where the worker's timer cannot reach (as in C code that ignores
    it), once: the first to take the :data:`STUCK` file; the others move at once."""

    level = "stuck"

    def choose(self, obs: Observation) -> Any:
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        try:
            Path(os.environ[STUCK]).unlink()
        except FileNotFoundError:
            return obs.legal[0]
        while True:
            pass


def plant_stuck_expert() -> None:
    """Run in each worker as it starts: its expert is :class:`StuckOnce`, the rest real."""
    real = greenfelt.bots.table_bot

    def table_bot(game: str, level: str, rng: Any = None) -> Bot:
        return StuckOnce(rng) if level == "expert" else real(game, level, rng)

    greenfelt.bots.table_bot = table_bot


def stuck_expert_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, timeout: float
) -> tuple[Path, Thinkers, LocalSession]:
    """A one-hole game against an expert whose first move is stuck: the :data:`STUCK`
    file (set before the worker starts, which inherits it), the thinkers, the session."""
    stuck = tmp_path / "stuck"
    stuck.touch()
    monkeypatch.setenv(STUCK, str(stuck))
    thinkers = Thinkers(1, timeout=timeout, setup=plant_stuck_expert)
    session = LocalSession(
        "golf", ONE_HOLE, "Ann", ["expert"], seed=5, bot_delay=0, thinkers=thinkers
    )
    return stuck, thinkers, session


def gone(pid: int) -> bool:
    """The process has exited (a zombie nobody reaped yet has exited too)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


async def test_an_expert_thinks_in_a_worker_process_that_ends_with_the_game() -> None:
    session = LocalSession("golf", ONE_HOLE, "Ann", ["expert"], seed=3, bot_delay=0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(session.thinkers.worker_pids), "the expert's worker")
        [worker] = session.thinkers.worker_pids
        assert worker != os.getpid()
        for _ in range(3):  # a few turns each, the expert's moves thought in the worker
            await settle(session)
            if session.match.is_over:
                break
            await pilot.press(golf_choice(session.view))  # type: ignore[arg-type]
        await settle(session)
        assert app.failure is None
        assert not any("failed" in line or "random" in line for line in session.log)
        assert session.thinkers.worker_pids == [worker]  # the same worker, move after move
        await pilot.press("q")
        await until(pilot, lambda: gone(worker), "the worker to end with the game")


async def test_an_expert_stuck_past_the_timeout_is_ended_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """G2.1: an expert no timer stops plays a random move after ``bot_timeout``, and its
    worker is ended (its CPU freed); the next expert move comes from a new worker."""
    stuck, thinkers, session = stuck_expert_game(tmp_path, monkeypatch, timeout=1.0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(thinkers.worker_pids), "the expert's worker")
        [worker] = thinkers.worker_pids
        hung = "Bot 1 thought over 1 s; it played at random"
        await settle(session)
        while hung not in session.log:  # you may move first
            await pilot.press(golf_choice(session.view))  # type: ignore[arg-type]
            await settle(session)
        assert not stuck.exists() and hung in shown(app, "log")
        await until(pilot, lambda: gone(worker), "the stuck worker to be ended")
        for _ in range(2):
            await pilot.press(golf_choice(session.view))  # type: ignore[arg-type]
            await settle(session)
        assert session.log.count(hung) == 1  # the new worker's expert moved in time
        assert thinkers.worker_pids and worker not in thinkers.worker_pids
        assert app.failure is None
        await pilot.press("q")


async def _played(seed: int) -> list[Any]:
    """A hole against greedy, your moves chosen by one plain policy: every action."""
    session = LocalSession("golf", ONE_HOLE, "Ann", ["greedy"], seed=seed, bot_delay=0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(session)
        while not session.match.is_over:
            await pilot.press(golf_choice(session.view))  # type: ignore[arg-type]
            await settle(session)
        await pilot.press("q")
    return [action for rnd in session.match.rounds for action in rnd.actions]


async def test_a_seeded_game_plays_again_move_for_move() -> None:
    """``--seed`` is "a repeatable game": the deal and the bots' choices are seeded."""
    first = await _played(8)
    assert await _played(8) == first
    assert await _played(9) != first


async def test_leaving_while_an_expert_is_stuck_ends_its_worker_and_waits_for_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``q`` while the expert is stuck leaves at once (a thread could not be stopped, and
    the app waited on it at exit); its worker ends with the game."""
    stuck, thinkers, session = stuck_expert_game(tmp_path, monkeypatch, timeout=600.0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(thinkers.worker_pids), "the expert's worker")
        [worker] = thinkers.worker_pids
        if session.match.to_move == session.seat:  # the expert moves after you
            await settle(session)
            await pilot.press(golf_choice(session.view))  # type: ignore[arg-type]
        await until(pilot, lambda: not stuck.exists(), "the expert to be stuck")
        await pilot.press("q")
        await until(pilot, lambda: gone(worker), "the stuck worker to end with the game")
    assert app.failure is None
