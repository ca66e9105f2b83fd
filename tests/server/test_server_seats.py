"""A waiting table's open seat given to a bot (a friend who did not come)."""

from __future__ import annotations

import httpx
import pytest

from tests.server.helpers import LiveServer, Sock, new_table


async def _waiting(http: httpx.AsyncClient, seats: int) -> tuple[str, str]:
    """A Golf table of ``seats`` people where only Ann (seat 0) has come; her token."""
    table_id, _ = await new_table(http, "golf", "six-card", {}, [None] * seats, join=False)
    joined = await http.post(f"/api/tables/{table_id}/join", json={"name": "Ann", "seat": 0})
    assert joined.status_code == 200, joined.text
    return table_id, joined.json()["token"]


async def test_open_seats_given_to_bots_start_the_table_and_are_stored(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    table_id, token = await _waiting(http, 3)
    sock = await Sock.open(live.ws_base, table_id, token)
    await sock.state()
    await sock.send(type="bot", seat=1, level="greedy")
    seats = (
        await sock.until(lambda m: m.get("type") == "seats" and m["seats"][1]["bot"] is not None)
    )["seats"]
    assert [(s["name"], s["bot"], s["taken"]) for s in seats] == [
        ("Ann", None, True),
        ("Greedy bot", "greedy", True),
        ("Cy", None, False),
    ]
    info = (await http.get(f"/api/tables/{table_id}")).json()
    assert info["status"] == "open"  # seat 3 is still open: nobody is dealt in yet
    await sock.send(type="bot", seat=2, level="expert")
    started = await sock.until(lambda m: (m.get("event") or {}).get("kind") == "start")
    assert started["status"] == "playing" and started["view"] is not None
    stored = await live.store.seats(table_id)
    assert [(r.name, r.bot) for r in stored] == [
        ("Ann", None),
        ("Greedy bot", "greedy"),
        ("Expert bot", "expert"),
    ]
    await sock.close()


@pytest.mark.parametrize(
    ("message", "code", "says"),
    [
        ({"seat": 1, "level": "grandmaster"}, "seat/invalid", "unknown bot level 'grandmaster'"),
        ({"seat": 5, "level": "easy"}, "seat/invalid", "seat 5 does not exist (0-2)"),
        ({"seat": 0, "level": "easy"}, "seat/taken", "seat 0 is already taken (Ann)"),
        ({"seat": "1", "level": "easy"}, "message/malformed", "needs 'seat'"),
        ({"seat": 1}, "message/malformed", "needs 'level'"),
        ({"seat": 1, "level": ["easy"]}, "message/malformed", "'level' must be text"),
    ],
)
async def test_a_bad_bot_request_says_why_and_changes_nothing(
    live: LiveServer, http: httpx.AsyncClient, message: dict, code: str, says: str
) -> None:
    table_id, token = await _waiting(http, 3)
    before = await live.store.seats(table_id)
    sock = await Sock.open(live.ws_base, table_id, token)
    await sock.state()
    await sock.send(type="bot", **message)
    error = await sock.until(lambda m: m.get("type") == "error")
    assert error["code"] == code and says in error["message"], error
    assert await live.store.seats(table_id) == before
    assert [s.bot for s in live.room.tables[table_id].seat_rows] == [None, None, None]
    await sock.close()


async def test_spectators_and_started_tables_cannot_seat_bots(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    table_id, token = await _waiting(http, 2)
    watcher = await Sock.open(live.ws_base, table_id)
    await watcher.send(type="watch")
    await watcher.state()
    await watcher.send(type="bot", seat=1, level="easy")
    assert (await watcher.until(lambda m: m.get("type") == "error"))["code"] == "seat/spectator"
    joined = await http.post(f"/api/tables/{table_id}/join", json={"name": "Bob", "seat": 1})
    assert joined.status_code == 200  # the table starts with two people
    sock = await Sock.open(live.ws_base, table_id, token)
    await sock.state()
    await sock.send(type="bot", seat=1, level="easy")
    error = await sock.until(lambda m: m.get("type") == "error")
    assert error["code"] == "seat/taken" and "(Bob)" in error["message"]
    bob = live.room.tables[table_id].seat_rows[1]
    assert (bob.name, bob.bot) == ("Bob", None) and bob.token_hash is not None
    for s in (watcher, sock):
        await s.close()
