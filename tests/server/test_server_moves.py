"""Issue 5, items 2 (stale or duplicate moves), 4 (concurrency) and 5 (seats bound to tokens).

Everything goes through the real app on real sockets (``live``: uvicorn in the test's
loop over SQLite), and the stored log is read back to see what was really applied.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import json
import random
import re
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import websockets

from greenfelt.record import replay
from greenfelt.server import tables as tables_module
from greenfelt.server.protocol import ProtocolError
from greenfelt.server.store import events_t, seats_t
from greenfelt.server.tables import Table
from tests.server.helpers import LiveServer, Sock, legal_of, match_over, new_table


def table_of(live: LiveServer, table_id: str) -> Table:
    return live.room.tables[table_id]


async def stored(live: LiveServer, table_id: str) -> list[Any]:
    return await live.store.events(table_id)


async def seat_sockets(live: LiveServer, table_id: str, tokens: dict[int, str]) -> dict[int, Sock]:
    socks = {seat: await Sock.open(live.ws_base, table_id, token) for seat, token in tokens.items()}
    for sock in socks.values():
        await sock.until(lambda m: m["type"] == "state")
    return socks


async def to_move_with_legal(
    live: LiveServer, table_id: str, socks: dict[int, Sock]
) -> tuple[int, dict[str, Any]]:
    """The seat to move and its own latest frame (read from its socket)."""
    table = table_of(live, table_id)
    seat = table.match.to_move
    assert seat is not None
    frames = await socks[seat].barrier()
    latest = [f for f in [*socks[seat].frames] if f.get("type") in ("state", "update")][-1]
    assert latest["seq"] == table.seq, (latest["seq"], table.seq, frames)
    return seat, latest


# ---- 2. stale or duplicate moves ---------------------------------------------------------


async def test_a_stale_move_is_rejected_with_a_resync_and_changes_nothing(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    table_id, tokens = await new_table(http, "golf", "six-card", seats=[None, None])
    socks = await seat_sockets(live, table_id, tokens)
    watcher = await Sock.open(live.ws_base, table_id)
    await watcher.send(type="watch")
    await watcher.barrier()
    table = table_of(live, table_id)
    for _ in range(5):  # a few steps, so that there are old numbers to send
        seat, latest = await to_move_with_legal(live, table_id, socks)
        await socks[seat].send(type="action", action=legal_of(latest)[0], seq=latest["seq"])
        await socks[seat].until(lambda m: m["type"] == "ack")
    seat, latest = await to_move_with_legal(live, table_id, socks)
    for sock in [*socks.values(), watcher]:
        await sock.barrier()
    before = await stored(live, table_id)
    view_before = table.message(seat)["view"]
    for old in (latest["seq"] - 1, latest["seq"] - 3, 0):
        await socks[seat].send(type="action", action=legal_of(latest)[0], seq=old, id=f"old{old}")
        error = await socks[seat].next()
        assert error["type"] == "error" and error["code"] == "action/stale", error
        assert error["seq"] == latest["seq"] and str(latest["seq"]) in error["message"]
        resync = await socks[seat].next()
        assert resync["type"] == "state" and resync["seq"] == latest["seq"]
        assert resync["view"] == latest["view"]
    # A move from the future is stale too: the client's picture is not the table's.
    await socks[seat].send(type="action", action=legal_of(latest)[0], seq=latest["seq"] + 5)
    assert (await socks[seat].next())["code"] == "action/stale"
    assert (await socks[seat].next())["type"] == "state"
    assert await stored(live, table_id) == before
    assert table.seq == latest["seq"] and table.message(seat)["view"] == view_before
    for other in [*socks.values(), watcher]:  # nobody saw anything happen
        assert all(f["type"] != "update" for f in await other.barrier())
    # ... and the rejected ids were not remembered as applied: the move can still be made.
    await socks[seat].send(type="action", action=legal_of(latest)[0], seq=latest["seq"], id="old0")
    ack = await socks[seat].until(lambda m: m["type"] in ("ack", "error"))
    assert ack == {"type": "ack", "id": "old0", "seq": latest["seq"] + 1}


async def test_the_same_move_id_is_applied_once(live: LiveServer, http: httpx.AsyncClient) -> None:
    table_id, tokens = await new_table(http, "golf", "six-card", seats=[None, None])
    socks = await seat_sockets(live, table_id, tokens)
    seat, latest = await to_move_with_legal(live, table_id, socks)
    move = {"type": "action", "action": legal_of(latest)[0], "seq": latest["seq"], "id": "move-1"}
    await socks[seat].send(**move)
    ack = await socks[seat].until(lambda m: m["type"] in ("ack", "error"))
    assert ack == {"type": "ack", "id": "move-1", "seq": latest["seq"] + 1}
    count = len(await stored(live, table_id))
    # Resent as is (a client that lost the ack), and resent after more moves were made:
    await socks[seat].send(**move)
    again = await socks[seat].until(lambda m: m["type"] in ("ack", "error"))
    assert again == {**ack, "duplicate": True}
    seat2, latest2 = await to_move_with_legal(live, table_id, socks)
    await socks[seat2].send(
        type="action", action=legal_of(latest2)[0], seq=latest2["seq"], id="move-2"
    )
    await socks[seat2].until(lambda m: m["type"] == "ack")
    await socks[seat].send(**{**move, "action": "draw"})  # same id, other text: still the first
    third = await socks[seat].until(lambda m: m["type"] in ("ack", "error"))
    assert third == {**ack, "duplicate": True}
    events = await stored(live, table_id)
    assert len(events) == count + 1
    assert [e.move_id for e in events].count("move-1") == 1
    assert events[ack["seq"] - 1].payload["action"] == move["action"]
    # The id belongs to the seat: another seat's "move-1" is its own move.
    other = 1 - seat
    if table_of(live, table_id).match.to_move == other:
        _, latest3 = await to_move_with_legal(live, table_id, socks)
        await socks[other].send(
            type="action", action=legal_of(latest3)[0], seq=latest3["seq"], id="move-1"
        )
        mine = await socks[other].until(lambda m: m["type"] in ("ack", "error"))
        assert mine["type"] == "ack" and "duplicate" not in mine


# ---- 4. concurrency ------------------------------------------------------------------------


async def test_simultaneous_moves_are_serialised_and_the_log_replays(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    """Every step of a match, each seat's move is sent at once on several sockets (and
    straight to the table): exactly one wins each number, the others are stale."""
    rng = random.Random(4)
    table_id, tokens = await new_table(
        http, "golf", "four-card", {"end": "holes:2"}, [None, None, "random"]
    )
    socks = {
        seat: [await Sock.open(live.ws_base, table_id, tokens[seat]) for _ in range(4)]
        for seat in tokens
    }
    for group in socks.values():
        for sock in group:
            await sock.until(lambda m: m["type"] == "state")
    table = table_of(live, table_id)
    wins = 0
    while not table.match.is_over:
        seat = table.match.to_move
        if seat not in socks:
            await asyncio.sleep(0.001)  # the bot's move, or the next deal
            continue
        seq = table.seq
        legal = [str(a) for a in table.match.legal_actions()]
        group = socks[seat]
        moves = [rng.choice(legal) for _ in group]
        await asyncio.gather(
            *(
                sock.send(type="action", action=m, seq=seq, id=f"{seq}-{i}")
                for i, (sock, m) in enumerate(zip(group, moves, strict=True))
            )
        )
        direct = await asyncio.gather(
            *(table.submit(seat, rng.choice(legal), seq, f"direct-{seq}-{i}") for i in range(8)),
            return_exceptions=True,
        )
        answers = [await sock.until(lambda m: m["type"] in ("ack", "error")) for sock in group]
        acks = [a for a in answers if a["type"] == "ack"] + [
            d for d in direct if isinstance(d, dict)
        ]
        stale = [a for a in answers if a["type"] == "error"] + [
            d for d in direct if isinstance(d, ProtocolError)
        ]
        assert len(acks) == 1 and acks[0]["seq"] == seq + 1, (answers, direct)
        assert len(stale) == len(group) + len(direct) - 1
        assert all((s["code"] if isinstance(s, dict) else s.code) == "action/stale" for s in stale)
        wins += 1
        for sock in group:  # the resync frames of the losers
            await sock.barrier()
    assert wins > 10
    events = await stored(live, table_id)
    assert [e.seq for e in events] == list(range(1, table.seq + 1))
    response = await http.get(f"/api/tables/{table_id}/record")
    record = response.json()
    assert "in_progress" not in record
    result = replay(record)
    assert result.match.is_over and result.totals == table.match.totals
    assert [a for r in record["rounds"] for a in r["actions"]] == [
        [e.seat, e.payload["action"]] for e in events if e.kind == "action"
    ]
    for group in socks.values():
        for sock in group:
            await sock.close()


async def test_two_joins_of_one_seat_give_one_token(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    for attempts in (2, 8):
        table_id, _ = await new_table(
            http, "golf", "six-card", seats=[None, None, None], join=False
        )
        responses = await asyncio.gather(
            *(
                http.post(f"/api/tables/{table_id}/join", json={"name": f"P{i}", "seat": 1})
                for i in range(attempts)
            )
        )
        codes = sorted(r.status_code for r in responses)
        assert codes == [200] + [409] * (attempts - 1), [r.text for r in responses]
        assert all(
            r.json()["error"]["code"] == "seat/taken" for r in responses if r.status_code == 409
        )
        winner = next(r.json() for r in responses if r.status_code == 200)
        async with live.store.engine.connect() as conn:
            rows = (
                await conn.execute(sa.select(seats_t).where(seats_t.c.table_id == table_id))
            ).fetchall()
        hashes = {r.seat: r.token_hash for r in rows}
        assert hashes[1] == hashlib.sha256(winner["token"].encode()).hexdigest()
        assert hashes[0] is None and hashes[2] is None
    # The last free seats, taken at once without naming them: each person gets a different one.
    table_id, _ = await new_table(
        http, "golf", "six-card", seats=[None, None, None, None], join=False
    )
    responses = await asyncio.gather(
        *(http.post(f"/api/tables/{table_id}/join", json={"name": f"P{i}"}) for i in range(6))
    )
    seats = sorted(r.json()["seat"] for r in responses if r.status_code == 200)
    assert seats == [0, 1, 2, 3]
    assert sorted(r.status_code for r in responses) == [200] * 4 + [409] * 2


# ---- 5. seats are bound to tokens -----------------------------------------------------------


TOKEN = re.compile(r"^[A-Za-z0-9_-]{32,}$")


async def test_tokens_are_random_stored_hashed_and_never_echoed(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    tokens: list[str] = []
    lobby: list[str] = []
    table_ids = []
    for _ in range(12):
        table_id, joined = await new_table(http, "golf", "six-card", seats=[None, None, "random"])
        table_ids.append(table_id)
        tokens += joined.values()
        socks = [await Sock.open(live.ws_base, table_id, t) for t in joined.values()]
        watcher = await Sock.open(live.ws_base, table_id)
        await watcher.send(type="watch")
        for sock in [*socks, watcher]:
            await sock.send(type="resync")
            await sock.send(type="action", action="draw", seq=0)
            await sock.send(type="bogus")
            await sock.barrier()
        for sock in [*socks, watcher]:
            await sock.close()
        for path in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/record", "/api/tables"):
            lobby.append((await http.get(path)).text)
        raw = [r for sock in [*socks, watcher] for r in sock.raw]
        assert raw and not any(t in r for t in joined.values() for r in raw), "a token was sent"
    assert len(set(tokens)) == len(tokens) == 24
    assert all(TOKEN.match(t) for t in tokens), tokens[:3]
    assert not any(t in text for t in tokens for text in lobby)
    # Stored hashed: the database holds SHA-256 digests, and no token anywhere.
    async with live.store.engine.connect() as conn:
        rows = (await conn.execute(sa.select(seats_t))).fetchall()
        events = (await conn.execute(sa.select(events_t))).fetchall()
    digests = {r.token_hash for r in rows if r.token_hash}
    assert digests == {hashlib.sha256(t.encode()).hexdigest() for t in tokens}
    dump = json.dumps([list(map(str, r)) for r in [*rows, *events]])
    assert not any(t in dump for t in tokens)
    # Compared in constant time (code inspection: hmac.compare_digest over every seat).
    source = inspect.getsource(tables_module.Table.seat_for_token)
    assert "hmac.compare_digest" in source and "return row.seat" not in source


async def test_a_connection_acts_only_for_its_own_seat(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    table_id, tokens = await new_table(http, "golf", "six-card", seats=[None, None])
    other_table, other_tokens = await new_table(http, "golf", "six-card", seats=[None, None])
    socks = await seat_sockets(live, table_id, tokens)
    table = table_of(live, table_id)
    seat, latest = await to_move_with_legal(live, table_id, socks)
    intruder = socks[1 - seat]
    await intruder.barrier()
    before = await stored(live, table_id)
    # Seat 1-s sends exactly the move seat s may make now, with the right number.
    for text in legal_of(latest):
        await intruder.send(type="action", action=text, seq=latest["seq"], id=f"x-{text}")
        error = await intruder.next()
        assert error["type"] == "error" and error["code"] == "action/not_your_turn", error
    # A seat field in the message is no way around it (it is not part of the protocol).
    await intruder.send(type="action", action=legal_of(latest)[0], seq=latest["seq"], seat=seat)
    assert (await intruder.next())["code"] == "action/not_your_turn"
    watcher = await Sock.open(live.ws_base, table_id)
    await watcher.send(type="watch")
    await watcher.barrier()
    await watcher.send(type="action", action=legal_of(latest)[0], seq=latest["seq"])
    assert (await watcher.until(lambda m: m["type"] == "error"))["code"] == "seat/spectator"
    assert await stored(live, table_id) == before and table.seq == latest["seq"]
    # Wrong tokens: denied, and the socket is closed.
    for token in ["", "x" * 32, other_tokens[0], tokens[seat] + "x", tokens[seat].upper()]:
        sock = await Sock.open(live.ws_base, table_id)
        await sock.send(type="hello", token=token)
        error = await sock.next()
        expected = "auth/required" if not token else "auth/denied"
        assert error["type"] == "error" and error["code"] == expected, (token, error)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await sock.next()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    # Another table's token seats nobody here, and this table's token nobody there.
    sock = await Sock.open(live.ws_base, other_table)
    await sock.send(type="hello", token=tokens[0])
    assert (await sock.next())["code"] == "auth/denied"
    # A message before hello is refused too.
    sock = await Sock.open(live.ws_base, table_id)
    await sock.send(type="action", action="draw", seq=0)
    assert (await sock.next())["code"] == "auth/required"
    assert await stored(live, table_id) == before
    # The rightful seat still plays.
    await socks[seat].send(type="action", action=legal_of(latest)[0], seq=latest["seq"], id="mine")
    assert (await socks[seat].until(lambda m: m["type"] in ("ack", "error")))["type"] == "ack"
    assert not match_over(latest)
