"""Issue 5, item 7: reconnect, and a bot standing in for a player who is gone.

A client that drops (closing, or just vanishing) and returns with its token gets a
full state frame: exactly what a connection that never dropped shows at that moment.
A seat gone longer than ``--takeover-after`` is played by a stand-in bot, and the
player takes it back by coming back.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from greenfelt.server.store import Store
from greenfelt.server.tables import Settings, Table
from tests.server.helpers import (
    LiveServer,
    ServerProcess,
    Sock,
    choose,
    legal_of,
    new_table,
    sqlite_url,
)


def seen_at(sock: Sock, seq: int) -> dict[str, Any]:
    """The last state or update ``sock`` was sent at event ``seq``."""
    frames = [f for f in sock.frames if f.get("type") in ("state", "update") and f["seq"] == seq]
    assert frames, f"the socket saw nothing at event {seq}"
    return frames[-1]


def latest_view(sock: Sock) -> dict[str, Any]:
    return [f for f in sock.frames if f.get("type") in ("state", "update")][-1]


async def move(table: Table, sock: Sock, seat: int, rng: random.Random) -> None:
    """Seat ``seat`` makes a random legal move from what its socket shows."""
    await sock.barrier()
    frame = latest_view(sock)
    assert frame["seq"] == table.seq
    await sock.send(type="action", action=choose(legal_of(frame), rng), seq=frame["seq"])
    answer = await sock.until(lambda m: m["type"] in ("ack", "error"))
    assert answer["type"] == "ack", answer


async def wait_for(condition: Any, what: str, tries: int = 3000) -> None:
    for _ in range(tries):
        if condition():
            return
        await asyncio.sleep(0.002)
    raise AssertionError(f"never happened: {what}")


@pytest.mark.parametrize(
    ("game", "preset", "options"),
    [
        ("golf", "four-card", {"end": "holes:3"}),  # closed: a seat's own peeks are private
        ("golf", "six-card", {"end": "holes:2", "memory": False}),
        ("spades", "two-player", {"target": 1, "discards": "face_down"}),
    ],
)
@pytest.mark.parametrize("how", ["close", "vanish"])
async def test_a_client_that_drops_gets_a_full_resync(
    live: LiveServer,
    http: httpx.AsyncClient,
    *,
    game: str,
    preset: str,
    options: dict[str, Any],
    how: str,
) -> None:
    rng = random.Random(8)
    table_id, tokens = await new_table(http, game, preset, options, [None, None])
    table = live.room.tables[table_id]
    stay = await Sock.open(live.ws_base, table_id, tokens[0])  # seat 0, never drops
    drop = await Sock.open(live.ws_base, table_id, tokens[0])  # seat 0, drops and returns
    other = await Sock.open(live.ws_base, table_id, tokens[1])
    socks = {0: stay, 1: other}
    for round_trip in range(4):
        for _ in range(rng.randrange(3, 12)):  # the table moves on while it is away
            seat = table.match.to_move
            if seat is None:
                if table.match.is_over:
                    break
                await asyncio.sleep(0.002)
                continue
            await move(table, socks[seat], seat, rng)
        if how == "close":
            await drop.close()
        else:
            drop.ws.transport.abort()  # no close frame: the network just went away
        for _ in range(rng.randrange(1, 6)):
            seat = table.match.to_move
            if seat is None:
                break
            await move(table, socks[seat], seat, rng)
        drop = await Sock.open(live.ws_base, table_id, tokens[0])
        state = await drop.next()
        assert state["type"] == "state", state
        assert state["seat"] == 0 and state["match"] == table.match_no
        # What the connection that never dropped was shown at that same event:
        await stay.barrier()
        assert state["view"] == seen_at(stay, state["seq"])["view"]
        await drop.send(type="resync")
        again = await drop.until(lambda m: m["type"] == "state")
        await stay.barrier()
        assert again["view"] == seen_at(stay, again["seq"])["view"], round_trip
    for sock in (stay, drop, other):
        await sock.close()


@pytest.mark.parametrize(("game", "preset"), [("golf", "six-card"), ("spades", "two-player")])
async def test_a_seat_gone_too_long_gets_a_stand_in_and_is_reclaimed(
    tmp_path: Path, game: str, preset: str
) -> None:
    settings = Settings(bot_delay=0.0, round_pause=0.0, takeover_after=0.2)
    async with (
        LiveServer(Store(sqlite_url(tmp_path / "db")), settings) as live,
        live.http() as http,
    ):
        rng = random.Random(9)
        options = {"end": "holes:9"} if game == "golf" else {}
        table_id, tokens = await new_table(http, game, preset, options, [None, None])
        table = live.room.tables[table_id]
        watcher = await Sock.open(live.ws_base, table_id)
        await watcher.send(type="watch")
        socks = {s: await Sock.open(live.ws_base, table_id, t) for s, t in tokens.items()}
        gone = table.match.to_move
        stays = 1 - gone
        seq = table.seq
        await socks[gone].close()  # gone on its own turn
        # The stand-in plays for it once takeover_after has passed...
        frame = await watcher.until(
            lambda m: m.get("type") == "update" and (m.get("event") or {}).get("seat") == gone,
            timeout=30,
        )
        assert frame["seq"] > seq
        stand_in = next(s for s in frame["seats"] if s["seat"] == gone)
        assert stand_in["stand_in"] and not stand_in["connected"]
        # ... and the others play on.
        for _ in range(6):
            if table.match.to_move == stays:
                await move(table, socks[stays], stays, rng)
            await wait_for(lambda: table.match.to_move in (stays, None), "the stand-in's move")
        # The player returns: the seat is theirs again, and nobody moves for them.
        socks[gone] = await Sock.open(live.ws_base, table_id, tokens[gone])
        state = await socks[gone].next()
        assert state["type"] == "state"
        mine = next(s for s in state["seats"] if s["seat"] == gone)
        assert mine["connected"] and not mine["stand_in"] and table.bot_controls(gone) is None
        await wait_for(lambda: table.match.to_move in (gone, stays), "a seat to move")
        if table.match.to_move == stays:
            await move(table, socks[stays], stays, rng)
        assert table.match.to_move == gone
        waiting_at = table.seq
        await asyncio.sleep(3 * settings.takeover_after)  # a wrongly active stand-in moves now
        assert table.seq == waiting_at, "a stand-in moved for a player who had come back"
        await move(table, socks[gone], gone, rng)
        # Leaving on purpose hands the seat to a stand-in at once; coming back takes it.
        await socks[gone].send(type="leave")
        await wait_for(lambda: table.bot_controls(gone) is not None, "the stand-in after leave")
        await socks[gone].close()
        socks[gone] = await Sock.open(live.ws_base, table_id, tokens[gone])
        await socks[gone].next()
        assert table.bot_controls(gone) is None
        for sock in [watcher, *socks.values()]:
            await sock.close()


async def test_a_stand_in_about_to_move_yields_to_the_returning_player(tmp_path: Path) -> None:
    """The stand-in's move is scheduled (bot delay); the player returns before it is made."""
    settings = Settings(bot_delay=0.5, round_pause=0.0, takeover_after=0.05)
    async with (
        LiveServer(Store(sqlite_url(tmp_path / "db")), settings) as live,
        live.http() as http,
    ):
        table_id, tokens = await new_table(http, "golf", "six-card", {}, [None, None])
        table = live.room.tables[table_id]
        gone = table.match.to_move
        sock = await Sock.open(live.ws_base, table_id, tokens[gone])
        await sock.barrier()
        await sock.close()
        await wait_for(lambda: table.bot_controls(gone) is not None, "the takeover")
        await asyncio.sleep(settings.bot_delay / 2)  # the stand-in's move is now scheduled
        seq = table.seq
        sock = await Sock.open(live.ws_base, table_id, tokens[gone])
        assert (await sock.next())["type"] == "state"
        await asyncio.sleep(3 * settings.bot_delay)  # when the scheduled stand-in move would come
        assert table.seq == seq, "the stand-in moved after the player had come back"
        await sock.close()


async def test_greenfelt_serve_takeover_after(tmp_path: Path) -> None:
    """The command line's --takeover-after: a real process hands an absent seat to a bot."""
    server = ServerProcess(
        tmp_path / "data", "--bot-delay", "0", "--round-pause", "0", "--takeover-after", "0.3"
    )
    server.start()
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            for game, preset in (("golf", "four-card"), ("spades", "two-player")):
                table_id, tokens = await new_table(http, game, preset, {}, [None, "random"])
                watcher = await Sock.open(server.ws_base, table_id)
                await watcher.send(type="watch")
                seat = await Sock.open(server.ws_base, table_id, tokens[0])
                first = await seat.state()
                await seat.close()  # never plays: the stand-in must
                frame = await watcher.until(
                    lambda m: m.get("type") == "update" and (m.get("event") or {}).get("seat") == 0,
                    timeout=30,
                )
                assert frame["seq"] > first["seq"]
                assert next(s for s in frame["seats"] if s["seat"] == 0)["stand_in"]
                await watcher.close()
    finally:
        server.stop()
