"""A bot that fails or hangs never stops a table (issue 4: bots fill empty seats online).

Before, a bot that raised left its seat to move for good (the table logged a failed
background task); now the levels below it play the move (``greenfelt.bots.steady``), a
bot that thinks past ``Settings.bot_timeout`` gives way to a random move, and the log
says which bot failed and where, without the error's message (it may name cards).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

import greenfelt.bots
from greenfelt.bots import Bot
from greenfelt.bots.base import Observation
from greenfelt.record import replay
from greenfelt.server.store import Store
from tests.server.helpers import CARD_TEXT, FAST, LiveServer, new_table, sqlite_url

REAL_TABLE_BOT = greenfelt.bots.table_bot
SECRET = "the hidden cards are K♠ Q♥ 7♦"


class Raises(Bot):
    """A bot with a bug whose message names cards, as an engine error's may."""

    level = "broken"

    def choose(self, obs: Observation) -> Any:
        raise KeyError(SECRET)  # the stack shows this line, the log never the message


class HangsOnce(Bot):
    """A bot whose first move never comes (until the test lets it go); then it plays."""

    level = "hangs"

    def __init__(self, release: threading.Event) -> None:
        super().__init__(1)
        self.release = release
        self.calls = 0

    def choose(self, obs: Observation) -> Any:
        self.calls += 1
        if self.calls == 1:
            self.release.wait(30)
        return obs.legal[0]


def swap_in(monkeypatch: pytest.MonkeyPatch, level: str, bot: Bot) -> None:
    """Tables ask ``greenfelt.bots.table_bot`` for their bots: ``level`` gets ``bot``."""

    def table_bot(game: str, asked: str, rng: Any = None) -> Bot:
        return bot if asked == level else REAL_TABLE_BOT(game, asked, rng)

    monkeypatch.setattr(greenfelt.bots, "table_bot", table_bot)


async def play_out(http: httpx.AsyncClient, table_id: str) -> dict[str, Any]:
    """Wait (bounded) for a bots-only table to finish; returns its record."""
    for _ in range(3000):
        if (await http.get(f"/api/tables/{table_id}")).json()["status"] == "over":
            record: dict[str, Any] = (await http.get(f"/api/tables/{table_id}/record")).json()
            return record
        await asyncio.sleep(0.01)
    raise AssertionError(f"table {table_id} never finished: a bot stopped it")


def table_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "greenfelt.tables"]


@pytest.mark.parametrize(
    "table",
    [("golf", "six-card", {"end": "holes:2"}), ("spades", "two-player", {"target": 100})],
    ids=["golf", "spades"],
)
async def test_a_bot_that_raises_gives_way_to_the_next_level_and_the_table_plays_on(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    table: tuple[str, str, dict[str, Any]],
) -> None:
    """G2/S4: every move of the broken greedy seat is the easy bot's, and the match ends."""
    game, preset, options = table
    caplog.set_level(logging.ERROR, logger="greenfelt.tables")
    swap_in(monkeypatch, "greedy", Raises())
    async with (
        LiveServer(Store(sqlite_url(tmp_path / "db")), FAST) as live,
        live.http() as http,
    ):
        table_id, _ = await new_table(http, game, preset, options, ["greedy", "random"])
        record = await play_out(http, table_id)
    assert replay(record).rounds_completed >= 1  # the stored game is whole and legal
    lines = table_lines(caplog)
    failed = f"table {table_id}, seat 0: the greedy bot failed (KeyError at "
    assert lines and all(line.startswith(failed) for line in lines), lines[:3]
    assert all(line.endswith("; its move is the easy bot's") for line in lines)
    assert __file__.rsplit("/", 1)[-1] in lines[0]  # where: the file and line that raised
    assert not any(CARD_TEXT.search(line) or "hidden" in line for line in lines), lines[:3]


async def test_a_bot_that_hangs_gives_way_to_a_random_move_after_the_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """G2.1: the hung expert's first move is a random legal one; its later moves are its own."""
    caplog.set_level(logging.ERROR, logger="greenfelt.tables")
    release = threading.Event()
    hangs = HangsOnce(release)
    swap_in(monkeypatch, "expert", hangs)
    settings = dataclasses.replace(FAST, bot_timeout=0.3)
    try:
        async with (
            LiveServer(Store(sqlite_url(tmp_path / "db")), settings) as live,
            live.http() as http,
        ):
            table_id, _ = await new_table(
                http, "golf", "six-card", {"end": "holes:1"}, ["expert", "random"]
            )
            record = await play_out(http, table_id)
    finally:
        release.set()
    assert replay(record).rounds_completed == 1
    assert table_lines(caplog) == [
        f"table {table_id}, seat 0: the expert bot thought over 0.3 s; its move is a random one"
    ]
    assert hangs.calls > 1  # it moved for itself after the hung move


async def test_when_no_bot_can_move_the_log_has_the_stack_but_no_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Even ``random`` failing (a broken round) is logged by kind and stack, not message."""
    caplog.set_level(logging.ERROR, logger="greenfelt.tables")
    broken = Raises()
    monkeypatch.setattr(greenfelt.bots, "table_bot", lambda *_args: broken)
    async with (
        LiveServer(Store(sqlite_url(tmp_path / "db")), FAST) as live,
        live.http() as http,
    ):
        table_id, _ = await new_table(http, "golf", "six-card", {}, ["greedy", "random"])
        for _ in range(1000):
            if any("background task failed" in line for line in table_lines(caplog)):
                break
            await asyncio.sleep(0.01)
        info = (await http.get(f"/api/tables/{table_id}")).json()
    lines = table_lines(caplog)
    assert lines[0].startswith(f"table {table_id}: background task failed (KeyError)\n")
    assert "steady.py" in lines[0] and "test_server_bots.py" in lines[0]  # the stack
    assert not any(CARD_TEXT.search(line) or "hidden" in line for line in lines), lines
    assert info["status"] == "playing"  # the stored table is untouched: nothing was applied
