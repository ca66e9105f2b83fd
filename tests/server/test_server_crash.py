"""Issue 5, item 3: nothing acknowledged is lost.

A real ``greenfelt serve`` plays bot games and games of random clients over real
WebSockets while the test SIGKILLs it at random points, several times, and starts it
again on the same data folder. The clients reconnect with their tokens and resend
any move that had no answer (same id, same number). Afterwards:

* every acknowledged move is in the stored log, at the number it was acknowledged
  with, by its seat, with its text, once;
* every frame any client ever received, before or after a crash, is exactly what the
  final log gives at that event (so each restart continued from exactly where the
  table was: nothing lost, nothing forked);
* every table finished, and its record replays to the totals the players saw
  (item 4: the final state is the replay of the stored record).
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx

from greenfelt.record import replay
from greenfelt.server.store import Store, database_url
from greenfelt.server.tables import Table
from tests.server.helpers import FAST, Client, ServerProcess, match_over, totals_of

# (game, preset, options, seats: None a person, else a bot level, matches to play)
TABLES: list[tuple[str, str, dict[str, Any], list[str | None], int]] = [
    ("golf", "six-card", {"end": "holes:9"}, [None, None, "random"], 1),
    ("golf", "four-card", {"end": "holes:9"}, [None, None], 1),
    ("golf", "four-in-hand", {"end": "holes:6"}, [None, "random", None, None], 1),
    ("spades", "two-player", {"target": 1, "discards": "face_down"}, [None, None], 4),
    ("spades", "two-player", {"target": 1}, [None, "random"], 4),
    ("golf", "nine-card", {"end": "holes:20"}, ["random", "random"], 1),
    ("golf", "four-card", {"end": "holes:30"}, ["random", "random", "random"], 1),
]
KILLS = 5


STALL = 60.0
"""Seconds without a single new frame to any client that count as stuck (a slow,
loaded machine only makes the games take longer; it does not stop them)."""


async def until_done(
    tasks: list[asyncio.Future[None]], clients: list[tuple[str, Client]]
) -> set[Any]:
    """Wait for every client to finish while the games make progress; returns the stuck."""
    seen, quiet = -1, 0.0
    while True:
        done, pending = await asyncio.wait(tasks, timeout=1.0, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            task.result()
        if not pending:
            return set()
        frames = sum(len(c.frames) for _, c in clients)
        quiet = 0.0 if frames != seen else quiet + 1.0
        seen = frames
        if quiet >= STALL:
            return pending


async def test_sigkill_loses_no_acknowledged_move(tmp_path: Path) -> None:
    rng = random.Random(11)
    data = tmp_path / "data"
    server = ServerProcess(data, "--bot-delay", "0", "--round-pause", "0")
    server.start()
    clients: list[tuple[str, Client]] = []
    table_ids: list[str] = []
    kills_mid_game = 0
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            for game, preset, options, seats, matches in TABLES:
                body = {
                    "game": game,
                    "preset": preset,
                    "options": options,
                    "seats": [{"bot": b} if b else {"name": f"P{i}"} for i, b in enumerate(seats)],
                }
                created = await http.post("/api/tables", json=body)
                assert created.status_code == 201, created.text
                table_id = created.json()["id"]
                table_ids.append(table_id)
                watcher = Client(
                    server.ws_base, table_id, None, rng, matches=matches, reconnect=True
                )
                clients.append((table_id, watcher))
                for seat, bot in enumerate(seats):
                    if bot is None:
                        joined = await http.post(
                            f"/api/tables/{table_id}/join", json={"name": f"P{seat}", "seat": seat}
                        )
                        assert joined.status_code == 200, joined.text
                        player = Client(
                            server.ws_base,
                            table_id,
                            joined.json()["token"],
                            random.Random(rng.random()),
                            seat=seat,
                            matches=matches,
                            rematcher=seat == 0,
                            reconnect=True,
                        )
                        clients.append((table_id, player))

        tasks = [asyncio.ensure_future(c.run()) for _, c in clients]
        for _ in range(KILLS):
            await asyncio.sleep(rng.uniform(0.1, 0.8))
            unfinished = sum(not c.done for _, c in clients if c.seat is not None)
            server.kill()
            kills_mid_game += unfinished > 0
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            await asyncio.to_thread(server.start)
        pending = await until_done(tasks, clients)
        assert not pending, (
            "tables did not finish after the restarts: "
            + "; ".join(
                f"{t} seat {c.seat} at {c.latest and c.latest['seq']}: {c.frames[-1:]}"
                for t, c in clients
                if not c.done
            )
            + f"\nserver log: {server.log_tail()}"
        )
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            records = {t: (await http.get(f"/api/tables/{t}/record")).json() for t in table_ids}
    finally:
        server.stop()
        for task in [t for t in locals().get("tasks", []) if not t.done()]:
            task.cancel()

    assert kills_mid_game >= 3, "the kills should fall in the middle of games"
    logs = "\n".join(p.read_text(errors="replace") for p in server.logs)
    assert "could not be restored" not in logs and "Traceback" not in logs, logs[-5000:]

    store = Store(database_url(None, data))
    try:
        acked = 0
        for table_id in table_ids:
            row = await store.table(table_id)
            assert row is not None and row.status == "over"
            events = await store.events(table_id)
            assert [e.seq for e in events] == list(range(1, len(events) + 1))
            ids = [e.move_id for e in events if e.move_id is not None]
            assert len(ids) == len(set(ids)), "a move was applied twice"
            mine = [c for t, c in clients if t == table_id]
            for client in mine:
                for move_id, (seq, action) in client.acked.items():
                    event = events[seq - 1]
                    assert (event.move_id, event.seat, event.payload["action"]) == (
                        move_id,
                        client.seat,
                        action,
                    ), (
                        f"acknowledged move {move_id} ({action!r} at {seq}) is not in the log: {event}"
                    )
                    acked += 1
            # Every frame received, before and after each crash, is what the final log gives.
            replica = Table(row, await store.seats(table_id), store, FAST)
            frames: dict[int, list[tuple[int | None, dict[str, Any]]]] = {}
            for client in mine:
                for raw in client.frames:
                    message = json.loads(raw)
                    if message.get("view") is not None:
                        frames.setdefault(message["seq"], []).append((client.seat, message))
            for event in events:
                replica._apply_event(event.kind, event.seat, event.payload)
                replica.seq = event.seq
                for seat, message in frames.pop(event.seq, []):
                    assert message["view"] == replica.message(seat)["view"], (
                        f"table {table_id}, seat {seat}, event {event.seq}: what the client was shown "
                        "is not what the stored log gives"
                    )
            assert not frames, f"frames at events the log does not have: {sorted(frames)}"
            # The record is the stored log, and it replays to the totals everyone saw.
            record = records[table_id]  # the current (last) match
            last_start = max(i for i, e in enumerate(events) if e.kind == "start")
            assert [a for r in record["rounds"] for a in r["actions"]] == [
                [e.seat, e.payload["action"]] for e in events[last_start:] if e.kind == "action"
            ]
            result = replay(record)
            assert result.match.is_over and result.totals == replica.match.totals
            last = [json.loads(r) for c in mine for r in c.frames if '"view"' in r][-1]
            assert match_over(last) and totals_of(last) == result.totals
        assert acked > 100
    finally:
        await store.close()
    players = [c for _, c in clients if c.seat is not None]
    assert sum(c.connects for c in players) >= 3 * len(players), "clients should have reconnected"
