"""Server bots think in worker processes, so people's moves never wait on their search.

Issue 4 (bots fill empty seats online): a thread of the server's process shares the
interpreter lock with the loop that serves people (``bench_server_bots``); a worker
process does not. A worker gets a pickled copy of the round and decides from its
seat's view (G8), stops a level that hangs and lets the next one play, and a worker
that dies is replaced.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import os
import pickle
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import greenfelt.bots
from greenfelt.bots import Bot
from greenfelt.bots.base import Observation
from greenfelt.golf import PRESETS as GOLF_PRESETS
from greenfelt.golf import GolfMatch
from greenfelt.record import replay
from greenfelt.server import thinking
from greenfelt.server.store import Store
from greenfelt.server.thinking import Thinkers
from greenfelt.spades import PRESETS as SPADES_PRESETS
from greenfelt.spades import SpadesMatch
from tests.server.helpers import FAST, LiveServer, Sock, new_table, sqlite_url

IN_PROCESSES = dataclasses.replace(FAST, bot_processes=1)


def _rounds() -> list[tuple[str, Any]]:
    """A fresh round of every preset, dealt as a table deals: from its ``SystemRandom``."""
    table_rng = random.SystemRandom()
    rounds: list[tuple[str, Any]] = []
    for name, rules in GOLF_PRESETS.items():
        match = GolfMatch(rules, ["Ann", "Bob"])
        rounds.append((f"golf {name}", match.start_round(rng=table_rng)))
    for name, rules in SPADES_PRESETS.items():
        rounds.append((f"spades {name}", SpadesMatch(rules, ["A", "B"]).start_round(rng=table_rng)))
    return rounds


@pytest.mark.parametrize(("name", "rnd"), _rounds(), ids=lambda v: v if isinstance(v, str) else "")
def test_a_round_of_every_preset_travels_pickled_and_shows_each_seat_the_same(
    name: str, rnd: Any
) -> None:
    """G8: at every move, the copy a worker gets shows each seat exactly what the round
    shows it, with the same legal moves; the table's generator stays behind (G2.5)."""
    moves = random.Random(name)
    while rnd.to_move is not None:
        copy = pickle.loads(pickle.dumps(rnd.clone()))
        for seat in range(2):
            assert copy.view(seat) == rnd.view(seat), (name, seat)
        assert copy.to_move == rnd.to_move
        assert copy.legal_actions(rnd.to_move) == rnd.legal_actions(rnd.to_move)
        rnd.apply(moves.choice(rnd.legal_actions(rnd.to_move)), rnd.to_move)


class Hangs(Bot):
    """A bot stuck in a loop of its own, as a bug would leave it."""

    level = "hangs"

    def choose(self, obs: Observation) -> Any:
        while True:
            pass


STUCK = "GREENFELT_TEST_STUCK"
"""A file: while it exists, the planted expert is stuck where no timer reaches it."""


class Stuck(Bot):
    """A bot stuck where the worker's timer cannot reach (as in C code that ignores it)."""

    level = "stuck"

    def choose(self, obs: Observation) -> Any:
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while Path(os.environ[STUCK]).exists():
            pass
        return obs.legal[0]


class StuckOnceSlowAfter(Bot):
    """The first of these to claim the STUCK file is stuck; the others think 2.5 s. Both
    ignore the worker's timer, so only the whole timeout (and a new worker) ends them."""

    level = "stuck-once"

    def choose(self, obs: Observation) -> Any:
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        try:
            claimed = Path(os.environ[STUCK]).rename(os.environ[STUCK] + ".claimed")
        except FileNotFoundError:  # another bot claimed it: this one is only slow
            time.sleep(2.5)
            return obs.legal[0]
        while claimed.exists():
            pass
        return obs.legal[0]


def plant_expert(kind: type[Bot]) -> None:
    """Run in each worker as it starts (``setup=functools.partial(plant_expert, Hangs)``):
    its expert is a ``kind``, the other levels are real."""
    real = greenfelt.bots.table_bot

    def table_bot(game: str, level: str, rng: Any = None) -> Bot:
        return kind() if level == "expert" else real(game, level, rng)

    greenfelt.bots.table_bot = table_bot


def fail_to_start() -> None:
    """Run in each worker as it starts: the worker cannot start (a broken install)."""
    raise ImportError("a module the bots need is missing")


def _gone(pid: int) -> bool:
    """The process has exited (a zombie that nobody reaped has exited too)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):  # gone before, or while, it was read
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


async def _ends(pid: int) -> bool:
    """Whether the process exits within 30 s (polled in /proc, whoever reaps it)."""
    for _ in range(3000):
        if _gone(pid):
            return True
        await asyncio.sleep(0.01)
    return _gone(pid)


def six_card_round() -> Any:
    match = GolfMatch(GOLF_PRESETS["six-card"], ["Ann", "Bob"])
    return match.start_round(rng=random.SystemRandom())


async def test_a_worker_stops_a_hung_level_and_the_level_below_plays() -> None:
    """G2.1: the hung expert is stopped after its share of the timeout (half of 2 s,
    shared by four levels) and greedy moves; the worker lives on for the next move."""
    thinkers = Thinkers(1, timeout=2.0, setup=functools.partial(plant_expert, Hangs))
    rnd = six_card_round()
    try:
        for seq in range(2):
            thinking = thinkers.move("golf", "expert", f"t:{seq}", rnd.clone(), rnd.to_move)
            move = await asyncio.wait_for(thinking, 60)  # a hang fails, not stalls, the test
            assert move.level == "greedy"
            assert move.action in rnd.legal_actions(rnd.to_move)
            [failure] = move.failures
            assert (failure.level, failure.kind) == ("expert", "BotHung")
            # Where it hung: the bot's own loop, not the timer's handler.
            assert "test_server_thinking.py:" in failure.where, failure
            rnd.apply(move.action, rnd.to_move)
    finally:
        thinkers.close()


async def test_a_worker_that_dies_is_replaced_and_the_move_still_comes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """G2.1: a worker killed mid-game (out of memory, an operator) costs no move."""
    caplog.set_level(logging.ERROR, logger="greenfelt.thinking")
    thinkers = Thinkers(1, timeout=30.0)
    rnd = six_card_round()
    try:
        first = await thinkers.move("golf", "expert", "t:0", rnd.clone(), rnd.to_move)
        workers = thinkers.worker_pids
        assert workers  # the move was thought in a worker process
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        again = await thinkers.move("golf", "expert", "t:0", rnd.clone(), rnd.to_move)
    finally:
        thinkers.close()
    legal = rnd.legal_actions(rnd.to_move)
    assert first.action in legal and again.action in legal
    assert again.level == "expert"  # from a new worker, not a fallback
    assert [r.getMessage() for r in caplog.records] == [
        "a bot worker process died; starting new workers"
    ]


async def test_a_worker_stuck_past_the_timeout_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """G2.1: a bot no timer stops times out (its table plays a random move), and its
    worker is ended and replaced, so the CPU it held is free and the next move comes."""
    caplog.set_level(logging.ERROR, logger="greenfelt.thinking")
    stuck = tmp_path / "stuck"
    stuck.touch()
    monkeypatch.setenv(STUCK, str(stuck))  # before the workers start: they inherit it
    thinkers = Thinkers(1, timeout=1.0, setup=functools.partial(plant_expert, Stuck))
    rnd = six_card_round()
    try:
        thinkers.start()
        [worker] = thinkers.worker_pids
        with pytest.raises(TimeoutError):
            await thinkers.move("golf", "expert", "t:0", rnd.clone(), rnd.to_move)
        assert await _ends(worker)  # the stuck worker was ended
        stuck.unlink()  # a new worker's expert is not stuck
        move = await thinkers.move("golf", "expert", "t:1", rnd.clone(), rnd.to_move)
    finally:
        thinkers.close()
    assert [r.getMessage() for r in caplog.records] == [
        "a bot worker did not answer in 1 s; starting new workers"
    ]
    assert move.level == "expert" and move.action in rnd.legal_actions(rnd.to_move)


async def test_a_move_in_thought_when_a_stuck_worker_is_replaced_is_thought_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Two workers: one is stuck, the other thinks a slow move. Ending the stuck one's
    pool ends the slow move's worker too; that move is thought again on the new pool
    (one replacement, logged once, not counted as a second failure) and comes."""
    caplog.set_level(logging.ERROR, logger="greenfelt.thinking")
    stuck = tmp_path / "stuck"
    stuck.touch()
    monkeypatch.setenv(STUCK, str(stuck))
    thinkers = Thinkers(2, timeout=4.0, setup=functools.partial(plant_expert, StuckOnceSlowAfter))
    rnd = six_card_round()

    async def slow_move_later() -> Any:
        await asyncio.sleep(2.5)  # in thought (until 5 s) when the stuck one times out at 4 s
        return await thinkers.move("golf", "expert", "slow", rnd.clone(), rnd.to_move)

    try:
        thinkers.start()
        stuck_move, slow = await asyncio.gather(
            thinkers.move("golf", "expert", "stuck", rnd.clone(), rnd.to_move),
            slow_move_later(),
            return_exceptions=True,
        )
    finally:
        Path(str(stuck) + ".claimed").unlink(missing_ok=True)
        thinkers.close()
    assert isinstance(stuck_move, TimeoutError)
    assert slow.level == "expert" and slow.action in rnd.legal_actions(rnd.to_move)
    assert thinkers.processes == 2  # still workers: one replacement is not "cannot start"
    assert [r.getMessage() for r in caplog.records] == [
        "a bot worker did not answer in 4 s; starting new workers"
    ]


async def test_moves_of_tables_where_people_wait_go_first() -> None:
    """Bots-only tables' moves queue behind those of tables with a person, then in turn."""
    thinkers = Thinkers(1, timeout=30.0)
    rnd = six_card_round()
    finished: list[str] = []

    async def move(name: str, urgent: bool) -> None:
        await thinkers.move("golf", "expert", name, rnd.clone(), rnd.to_move, urgent=urgent)
        finished.append(name)

    try:
        # All four queue before the one worker takes any.
        await asyncio.gather(
            move("bots 1", False), move("bots 2", False), move("bots 3", False), move("Ann", True)
        )
    finally:
        thinkers.close()
    assert finished == ["Ann", "bots 1", "bots 2", "bots 3"]


async def test_the_log_says_once_when_moves_queue_for_the_workers(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """More than four moves waiting per worker: the operator reads it once, not per move."""
    caplog.set_level(logging.WARNING, logger="greenfelt.thinking")
    thinkers = Thinkers(1, timeout=30.0)
    rnd = six_card_round()
    try:
        await asyncio.gather(
            *(
                thinkers.move("golf", "expert", f"t:{n}", rnd.clone(), rnd.to_move, urgent=False)
                for n in range(7)
            )
        )
        assert thinkers.waiting == 0
    finally:
        thinkers.close()
    assert [r.getMessage() for r in caplog.records] == [
        "5 expert moves wait for 1 bot worker(s): tables without people play slower; "
        "--bot-processes sets how many think at once"
    ]


async def test_quick_levels_stay_in_threads_and_a_failed_worker_start_leaves_threads(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A greedy move never waits in a worker's queue (behind experts' searches): it is
    thought at once in a thread, and the (broken) workers are not even started. An
    expert's move finds they cannot start (twice), says so once, and moves from a thread."""
    caplog.set_level(logging.ERROR, logger="greenfelt.thinking")
    thinkers = Thinkers(1, timeout=30.0, setup=fail_to_start)
    rnd = six_card_round()
    legal = rnd.legal_actions(rnd.to_move)
    try:
        quick = await thinkers.move("golf", "greedy", "t:0", rnd.clone(), rnd.to_move)
        assert quick.level == "greedy" and quick.action in legal
        assert not caplog.records and not thinkers.worker_pids
        searched = await thinkers.move("golf", "expert", "t:0", rnd.clone(), rnd.to_move)
    finally:
        thinkers.close()
    assert searched.level == "expert" and searched.action in legal
    assert thinkers.processes == 0
    assert [r.getMessage() for r in caplog.records] == [
        "a bot worker process died; starting new workers",
        "bot worker processes cannot start; bots think in threads",
    ]


def _refuse_tracker() -> None:
    raise ValueError("bad value(s) in fds_to_keep")  # as spawning said under a full-screen app


class _NoProcesses:
    """A pool that cannot make a process (the system out of them, a sandbox)."""

    def __init__(self, *_args: Any, **_kwargs: Any) -> None:
        pass

    def submit(self, *_args: Any) -> Any:
        raise OSError(11, "Resource temporarily unavailable")

    def shutdown(self, *_args: Any, **_kwargs: Any) -> None:
        pass


@pytest.mark.parametrize(
    ("where", "replacement"),
    [("start_tracker", _refuse_tracker), ("ProcessPoolExecutor", _NoProcesses)],
    ids=["tracker", "spawn"],
)
async def test_workers_that_cannot_be_made_leave_the_bots_in_threads(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, where: str, replacement: Any
) -> None:
    """G2.1: where no worker process can be made at all, starting them is no error: the
    expert's moves are thought in threads, and the log says why, once."""
    caplog.set_level(logging.ERROR, logger="greenfelt.thinking")
    monkeypatch.setattr(thinking, where, replacement)
    thinkers = Thinkers(1, timeout=30.0)
    rnd = six_card_round()
    try:
        thinkers.start()
        for seq in range(2):
            move = await thinkers.move("golf", "expert", f"t:{seq}", rnd.clone(), rnd.to_move)
            assert move.level == "expert" and move.action in rnd.legal_actions(rnd.to_move)
            rnd.apply(move.action, rnd.to_move)
    finally:
        thinkers.close()
    assert thinkers.processes == 0 and not thinkers.worker_pids
    [record] = caplog.records
    assert record.getMessage().startswith("bot worker processes cannot be made (")
    assert record.getMessage().endswith("); bots think in threads")


@pytest.mark.parametrize(
    ("game", "preset", "options", "seats"),
    [
        ("golf", "six-card", {"end": "holes:2"}, ["expert", "greedy"]),
        ("spades", "two-player", {"target": 100}, ["greedy", "easy"]),
    ],
    ids=["golf", "spades"],
)
async def test_a_bots_only_table_plays_to_the_end_with_bots_in_worker_processes(
    tmp_path: Path, game: str, preset: str, options: dict[str, Any], seats: list[str]
) -> None:
    """G9/S6: the whole match, every move thought in a worker, is a record that replays."""
    async with (
        LiveServer(Store(sqlite_url(tmp_path / "db")), IN_PROCESSES) as live,
        live.http() as http,
    ):
        assert live.room.thinkers.processes == 1
        table_id, _ = await new_table(http, game, preset, options, list(seats))
        for _ in range(6000):
            if (await http.get(f"/api/tables/{table_id}")).json()["status"] == "over":
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError(f"table {table_id} never finished")
        record = (await http.get(f"/api/tables/{table_id}/record")).json()
    assert replay(record).match.is_over


async def test_closing_stops_a_worker_even_while_its_bot_hangs() -> None:
    """A stopping server does not wait on a bot: close() ends its workers, busy or not."""
    thinkers = Thinkers(1, timeout=600.0, setup=functools.partial(plant_expert, Hangs))
    rnd = six_card_round()
    thinking = asyncio.ensure_future(
        thinkers.move("golf", "expert", "t:0", rnd.clone(), rnd.to_move)
    )
    for _ in range(3000):  # until the worker has started (it then hangs on the move)
        if thinkers.worker_pids:
            break
        await asyncio.sleep(0.01)
    [worker] = thinkers.worker_pids
    thinkers.close()
    assert await _ends(worker)
    thinking.cancel()


SERVER = """
import asyncio, multiprocessing
from greenfelt.server import thinking
from greenfelt.server.thinking import Thinkers
from tests.server.test_server_thinking import six_card_round

async def main():
    thinkers = Thinkers(1, 30.0)
    rnd = six_card_round()
    await thinkers.move("golf", "expert", "s", rnd.clone(), rnd.to_move)
    print(*[p.pid for p in multiprocessing.active_children()], flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def test_a_worker_ends_when_its_server_is_killed_outright() -> None:
    """SIGKILL gives the server no chance to stop its workers: each sees it go and exits."""
    root = Path(__file__).resolve().parents[2]
    # stderr is dropped: the killed server's resource tracker warns of its semaphores.
    with subprocess.Popen(
        [sys.executable, "-c", SERVER],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as server:
        try:
            assert server.stdout is not None
            workers = [int(pid) for pid in server.stdout.readline().split()]
            assert workers and not any(_gone(pid) for pid in workers)
        finally:
            server.kill()
    for _ in range(3000):
        if all(_gone(pid) for pid in workers):
            break
        time.sleep(0.01)
    assert all(_gone(pid) for pid in workers), workers


async def test_a_table_asks_first_while_a_seated_person_is_connected(tmp_path: Path) -> None:
    """A person at the table makes its bots' moves urgent; spectators and bots do not."""
    async with (
        LiveServer(Store(sqlite_url(tmp_path / "db")), IN_PROCESSES) as live,
        live.http() as http,
    ):
        table_id, tokens = await new_table(http, "golf", "six-card", {}, [None, "expert"])
        watcher = await Sock.open(live.ws_base, table_id)
        await watcher.send(type="watch")
        await watcher.state()
        table = live.room.tables[table_id]
        assert not table.people_here()  # a spectator only
        ann = await Sock.open(live.ws_base, table_id, tokens[0])
        await ann.state()
        assert table.people_here()
        await ann.close()
        for _ in range(3000):
            if not table.people_here():
                break
            await asyncio.sleep(0.01)
        assert not table.people_here()
        await watcher.close()
