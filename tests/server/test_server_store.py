"""Issue 5, item 8: storage, for real, on SQLite and on PostgreSQL.

Every test here runs against both databases. The PostgreSQL cases need a server:
``GREENFELT_TEST_PG`` names it (``.ci/run`` starts a throwaway cluster); without it
they fail with instructions, never skip. Each PostgreSQL case gets a database of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from greenfelt.record import replay
from greenfelt.server.app import _public_record
from greenfelt.server.protocol import ProtocolError
from greenfelt.server.room import LobbyError, Room
from greenfelt.server.store import EventRow, SeatRow, Store, StoreConflict, StoreError, tables_t
from greenfelt.server.tables import Settings, Table
from tests.server.helpers import (
    FAST,
    LiveServer,
    Sock,
    choose,
    free_port,
    fresh_pg_database,
    legal_of,
    new_table,
    pg_admin_url,
    sqlite_url,
    store_url,
)


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh, empty database of each kind (its SQLAlchemy URL)."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "db")
    else:
        async with fresh_pg_database() as url:
            yield store_url(url)


@contextlib.asynccontextmanager
async def opened(url: str) -> AsyncIterator[Store]:
    store = Store(url)
    await store.open()
    try:
        yield store
    finally:
        await store.close()


SEATS = [
    SeatRow(0, "Ann", None, None),
    SeatRow(1, "Greedy bot", "greedy", None),
    SeatRow(2, "Cy", None, "ab" * 32),
]


async def test_round_trip(db_url: str) -> None:
    payloads: list[dict[str, Any]] = [
        {},
        {"dealer": 1, "deck": ["Q♠", "10♥", "JK", "A♣"]},
        {"action": "swap 4", "chance": [["2♦", "K♣"], ["7♥"]]},
        {"action": "play 10♥", "note": "ünïcödé ✓", "n": [1, 2.5, None, True]},
    ]
    async with opened(db_url) as store:
        assert store.kind == ("sqlite" if db_url.startswith("sqlite") else "postgresql")
        await store.open()  # opening twice is harmless (the schema exists)
        await store.create_table("a1", "golf", {"rules": {"preset": "six-card"}}, SEATS)
        await store.create_table("b2", "spades", {"rules": {"preset": "two-player"}}, SEATS[:2])
        for seq, payload in enumerate(payloads, start=1):
            await store.append(
                "a1", seq, "action", payload, seat=seq % 3, move_id=f"m{seq}" if seq % 2 else None
            )
        await store.set_status("b2", "playing")
        assert await store.claim_seat("a1", 0, "Ann B.", "cd" * 32)
    async with opened(db_url) as store:  # a new process
        row = await store.table("a1")
        assert row is not None and (row.game, row.config, row.status) == (
            "golf",
            {"rules": {"preset": "six-card"}},
            "open",
        )
        assert await store.table("zz") is None
        assert [r.id for r in await store.tables(["playing"])] == ["b2"]
        assert {r.id for r in await store.tables()} == {"a1", "b2"}
        assert await store.seats("a1") == [
            SeatRow(0, "Ann B.", None, "cd" * 32),
            SEATS[1],
            SEATS[2],
        ]
        assert await store.events("a1") == [
            EventRow(seq, "action", seq % 3, payload, f"m{seq}" if seq % 2 else None)
            for seq, payload in enumerate(payloads, start=1)
        ]
        assert await store.events("b2") == []
        assert not await store.claim_seat("a1", 1, "X", "ef" * 32)  # a bot's seat
        assert not await store.claim_seat("a1", 2, "X", "ef" * 32)  # taken
        assert not await store.claim_seat("a1", 7, "X", "ef" * 32)  # no such seat


async def test_a_duplicate_seq_conflicts_and_changes_nothing(db_url: str) -> None:
    async with opened(db_url) as one, opened(db_url) as two:
        await one.create_table("c3", "golf", {"rules": {}}, SEATS)
        await one.append("c3", 1, "start", {})
        with pytest.raises(StoreConflict):
            await two.append("c3", 1, "deal", {"deck": ["A♠"]})
        assert isinstance(StoreConflict("x"), StoreError)
        # Two processes storing the next event of one table at once: exactly one wins.
        for seq in range(2, 32):
            results = await asyncio.gather(
                one.append("c3", seq, "action", {"action": "one"}, seat=0, move_id=f"a{seq}"),
                two.append("c3", seq, "action", {"action": "two"}, seat=1, move_id=f"b{seq}"),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["NoneType", "StoreConflict"], (
                results
            )
        # Events of several tables committed together (group commit): a taken number
        # fails that event alone.
        for n in range(5):
            await one.create_table(f"g{n}", "golf", {"rules": {}}, SEATS)
        results = await asyncio.gather(
            one.append("c3", 5, "action", {"action": "late"}),
            *(one.append(f"g{n}", 1, "start", {}) for n in range(5)),
            one.append("c3", 32, "action", {"action": "next"}, seat=0, move_id="a32"),
            return_exceptions=True,
        )
        assert isinstance(results[0], StoreConflict) and results[1:] == [None] * 6, results
        assert [len(await one.events(f"g{n}")) for n in range(5)] == [1] * 5
        events = await one.events("c3")
        assert [e.seq for e in events] == list(range(1, 33))
        assert events.pop().payload == {"action": "next"}
        assert events[0] == EventRow(1, "start", None, {}, None)
        for event in events[1:]:
            assert (event.seat, event.move_id) in ((0, f"a{event.seq}"), (1, f"b{event.seq}"))
            assert event.payload == {"action": "one" if event.seat == 0 else "two"}


async def test_a_join_and_a_bot_racing_for_one_seat_have_one_winner(db_url: str) -> None:
    """A person joining and a seated player giving the seat to a bot, at once."""
    async with opened(db_url) as one, opened(db_url) as two:
        for n in range(12):
            table_id = f"r{n}"
            await one.create_table(
                table_id,
                "golf",
                {"rules": {}},
                [SeatRow(0, "A", None, "aa" * 32), SeatRow(1, "Seat 2", None, None)],
            )
            joined, botted = await asyncio.gather(
                one.claim_seat(table_id, 1, "Bo", "11" * 32),
                two.seat_bot(table_id, 1, "greedy", "Greedy bot"),
            )
            assert joined != botted
            seat = (await one.seats(table_id))[1]
            expected = (
                SeatRow(1, "Bo", None, "11" * 32)
                if joined
                else SeatRow(1, "Greedy bot", "greedy", None)
            )
            assert seat == expected
            assert not await two.seat_bot(table_id, 1, "easy", "Easy bot")  # held now
            assert not await two.seat_bot(table_id, 0, "easy", "Easy bot")  # a person's


async def test_claim_seat_race(db_url: str) -> None:
    async with opened(db_url) as one, opened(db_url) as two:
        for n in range(20):
            table_id = f"d{n}"
            await one.create_table(
                table_id,
                "golf",
                {"rules": {}},
                [SeatRow(0, "A", None, None), SeatRow(1, "B", None, None)],
            )
            results = await asyncio.gather(
                one.claim_seat(table_id, 1, "one", "11" * 32),
                two.claim_seat(table_id, 1, "two", "22" * 32),
            )
            assert sorted(results) == [False, True]
            seat = (await one.seats(table_id))[1]
            assert (seat.name, seat.token_hash) == (
                ("one", "11" * 32) if results[0] else ("two", "22" * 32)
            )
    # Through two rooms (two server processes) sharing the database: one token.
    rooms = [Room(Store(db_url), FAST), Room(Store(db_url), FAST)]
    for room in rooms:
        await room.start()
    try:
        table = await rooms[0].create(
            "golf", "six-card", {}, [{"name": "A"}, {"name": "B"}, {"bot": "random"}]
        )
        await rooms[1].get(table.id)
        results = await asyncio.gather(
            rooms[0].join(table.id, 0, "Ann"),
            rooms[1].join(table.id, 0, "Bo"),
            return_exceptions=True,
        )
        won = [r for r in results if isinstance(r, tuple)]
        lost = [r for r in results if isinstance(r, LobbyError)]
        assert len(won) == 1 and len(lost) == 1 and lost[0].code == "seat/taken", results
    finally:
        for room in rooms:
            await room.stop()


async def play(
    table: Table, rng: random.Random, steps: int, prefix: str = "m"
) -> list[tuple[str, int]]:
    """``steps`` random moves at a table whose seats are all people; returns (id, seq) acks."""
    acks = []
    for _ in range(steps):
        for _ in range(1000):
            if table.match.current is not None or table.match.is_over:
                break
            await asyncio.sleep(0.001)  # the next deal
        if table.match.is_over:
            break
        seat = table.match.to_move
        legal = legal_of(table.message(seat))
        move_id = f"{prefix}{table.seq}"
        ack = await table.submit(seat, rng.choice(legal), table.seq, move_id)
        acks.append((move_id, ack["seq"]))
    return acks


async def test_two_servers_writing_one_table_conflict_into_a_resync(db_url: str) -> None:
    rooms = [Room(Store(db_url), FAST), Room(Store(db_url), FAST)]
    for room in rooms:
        await room.start()
    try:
        table = await rooms[0].create("golf", "four-card", {}, [{"name": "A"}, {"name": "B"}])
        for seat in (0, 1):
            await rooms[0].join(table.id, seat, f"P{seat}")
        await play(table, random.Random(1), 5)
        copy = await rooms[1].get(table.id)
        assert copy is not table and copy.seq == table.seq
        await play(table, random.Random(2), 3)  # the first server moves on
        seat = copy.match.to_move
        legal = legal_of(copy.message(seat))
        with pytest.raises(ProtocolError) as stale:
            await copy.submit(seat, legal[0], copy.seq, "late")
        assert stale.value.code == "action/stale"
        assert copy.seq == table.seq  # it reloaded the log
        for s in (0, 1, None):
            assert copy.message(s)["view"] == table.message(s)["view"]
    finally:
        for room in rooms:
            await room.stop()


async def test_restore_after_restart(db_url: str) -> None:
    rng = random.Random(3)
    slow = Settings(bot_delay=3600, round_pause=0, takeover_after=3600)
    room = Room(Store(db_url), slow)
    await room.start()
    specs = [
        ("golf", "six-card", {"end": "holes:2"}, [{"name": "A"}, {"name": "B"}]),
        ("golf", "four-in-hand", {"end": "holes:2"}, [{"name": "A"}, {"name": "B"}, {"name": "C"}]),
        ("spades", "two-player", {"target": 1}, [{"name": "A"}, {"name": "B"}]),
        ("golf", "four-card", {}, [{"name": "A"}, {"bot": "random"}]),  # waits for its person
    ]
    tables = []
    acks: dict[str, list[tuple[str, int]]] = {}
    for game, preset, options, seats in specs:
        table = await room.create(game, preset, options, seats)
        tables.append(table.id)
        if len(seats) == 2 and "bot" in seats[1]:
            continue
        for seat in range(len(seats)):
            await room.join(table.id, seat, f"P{seat}")
        acks[table.id] = await play(table, rng, rng.randrange(10, 40))
    before = {
        t: (
            room.tables[t].seq,
            [room.tables[t].message(s)["view"] for s in (None, 0, 1)],
            room.tables[t].status,
        )
        for t in tables
    }
    await room.stop()

    room = Room(Store(db_url), FAST)  # a new process: bots move at once now
    await room.start()
    try:
        unfinished = {t for t in tables if before[t][2] != "over"}
        assert len(unfinished) >= 3
        assert set(room.tables) == unfinished  # every unfinished table restored at start
        for table_id in tables:
            table = await room.get(table_id)
            seq, views, status = before[table_id]
            assert table.seq == seq and table.status == status
            assert [table.message(s)["view"] for s in (None, 0, 1)] == views
            for move_id, ack_seq in acks.get(table_id, []):  # remembered: a resend is not applied
                seat = (await room.store.events(table_id))[ack_seq - 1].seat
                again = await table.submit(seat, "draw", table.seq, move_id)
                assert again == {"type": "ack", "id": move_id, "seq": ack_seq, "duplicate": True}
            if table_id in acks:
                while not table.match.is_over:
                    await play(table, rng, 50)
                record = _public_record(table)
                result = replay(record)
                assert result.match.is_over and result.totals == table.match.totals
                assert table.status == "over"
        # The table waiting for its person is still waiting, seat free.
        waiting = room.tables[tables[3]]
        assert waiting.match is None and waiting.status == "open"
        assert [s.token_hash for s in waiting.seat_rows] == [None, None]
    finally:
        await room.stop()


async def test_status_follows_the_log_after_a_crash(db_url: str) -> None:
    """A crash between storing an event and updating the table's status: the log decides."""
    room = Room(Store(db_url), FAST)
    await room.start()
    over = await room.create(
        "golf", "four-card", {"end": "holes:1"}, [{"name": "A"}, {"name": "B"}]
    )
    for seat in (0, 1):
        await room.join(over.id, seat, f"P{seat}")
    while not over.match.is_over:
        await play(over, random.Random(4), 100)
    assert over.status == "over"
    rematched = await room.create(
        "golf", "four-card", {"end": "holes:1"}, [{"name": "A"}, {"name": "B"}]
    )
    for seat in (0, 1):
        await room.join(rematched.id, seat, f"P{seat}")
    while not rematched.match.is_over:
        await play(rematched, random.Random(5), 100)
    await rematched.record_event("start", {})  # a rematch's first event, then the crash
    await room.stop()
    async with opened(db_url) as store:  # the status writes that the crash lost
        await store.set_status(over.id, "playing")
        assert (await store.table(rematched.id)).status == "over"  # type: ignore[union-attr]

    room = Room(Store(db_url), FAST)
    await room.start()
    try:
        table = await room.get(over.id)
        assert table.status == "over" and table.match.is_over
        assert over.id not in [t["id"] for t in await room.list_open()]
        again = await room.get(rematched.id)
        assert again.status == "playing" and again.match_no == 2
        for _ in range(1000):  # the new match is dealt and goes on
            if again.match.current is not None:
                break
            await asyncio.sleep(0.001)
        assert again.match.current is not None
        assert (await room.store.table(rematched.id)).status == "playing"  # type: ignore[union-attr]
        assert (await room.store.table(over.id)).status == "over"  # type: ignore[union-attr]
    finally:
        await room.stop()


# ---- a database that goes away -------------------------------------------------------------


class Proxy:
    """A TCP relay in front of the database, which the test can cut and restore."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = free_port()
        self.server: asyncio.Server | None = None
        self.links: set[asyncio.StreamWriter] = set()
        self.pipes: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(
            self._link, "127.0.0.1", self.port, reuse_address=True
        )

    async def stop(self) -> None:
        """The database is away: no new connections, and every open one breaks."""
        assert self.server is not None
        self.server.close()
        for writer in list(self.links):
            writer.transport.abort()
        self.links.clear()
        await asyncio.sleep(0.05)

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.links |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                dst.transport.abort()

        for task in (
            asyncio.create_task(pipe(reader, up_writer)),
            asyncio.create_task(pipe(up_reader, writer)),
        ):
            self.pipes.add(task)
            task.add_done_callback(self.pipes.discard)

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in list(self.pipes):
            task.cancel()
        for writer in list(self.links):
            writer.transport.abort()


async def test_postgresql_away_gives_store_unavailable_and_loses_nothing() -> None:
    """PostgreSQL goes away mid-game (every connection cut, no new ones) and comes back."""
    pg_admin_url()
    async with fresh_pg_database() as url:
        parts = httpx.URL(url.replace("postgresql://", "http://"))
        proxy = Proxy(parts.host, parts.port or 5432)
        await proxy.start()
        proxied = store_url(url.replace(f"{parts.host}:{parts.port}", f"127.0.0.1:{proxy.port}"))
        try:
            async with LiveServer(Store(proxied), FAST) as live, live.http() as http:
                table_id, tokens = await new_table(http, "golf", "six-card", {"end": "holes:1"})
                socks = {s: await Sock.open(live.ws_base, table_id, t) for s, t in tokens.items()}
                table = live.room.tables[table_id]
                acked: list[tuple[str, int, str]] = []
                rng = random.Random(6)

                async def move(seat: int, move_id: str) -> dict[str, Any]:
                    await socks[seat].barrier()
                    latest = table.message(seat)
                    text = choose(legal_of(latest), rng)
                    await socks[seat].send(
                        type="action", action=text, seq=latest["seq"], id=move_id
                    )
                    answer = await socks[seat].until(lambda m: m["type"] in ("ack", "error"))
                    if answer["type"] == "ack":
                        acked.append((move_id, answer["seq"], text))
                    return answer

                for n in range(6):
                    assert (await move(table.match.to_move, f"before{n}"))["type"] == "ack"
                seq = table.seq
                await proxy.stop()
                seat = table.match.to_move
                answer = await move(seat, "during")
                assert answer["type"] == "error" and answer["code"] == "store/unavailable", answer
                assert table.seq == seq
                # the socket is still up and answers
                await socks[seat].barrier()
                # the lobby says so too, and creates nothing
                for method, path, body in [
                    ("POST", "/api/tables", {"seats": [{"name": "A"}, {"name": "B"}]}),
                    ("GET", "/api/tables", None),
                    ("GET", "/api/tables/0123456789ab", None),
                ]:
                    response = await http.request(method, path, json=body)
                    assert response.status_code == 503, response.text
                    assert response.json()["error"]["code"] == "store/unavailable"
                sock = await Sock.open(live.ws_base, "0123456789ab")
                await sock.send(type="watch")
                assert (await sock.next())["code"] == "store/unavailable"
                await proxy.start()
                answer = await move(seat, "during")  # the same move again, once it is back
                assert answer["type"] == "ack" and answer["seq"] == seq + 1, answer
                while not table.match.is_over:
                    seat = table.match.to_move
                    if seat is None:
                        await asyncio.sleep(0.001)
                        continue
                    assert (await move(seat, f"after{table.seq}"))["type"] == "ack"
                # A rematch while the database is away: refused with the code, socket alive.
                await socks[0].barrier()
                await proxy.stop()
                await socks[0].send(type="rematch")
                error = await socks[0].until(lambda m: m["type"] == "error")
                assert error["code"] == "store/unavailable", error
                assert (await socks[0].barrier()) == []
                assert table.match_no == 1 and table.match.is_over
                await proxy.start()
                await socks[0].send(type="rematch")
                await socks[0].until(lambda m: m.get("match") == 2)
                assert table.match_no == 2
                for sock in socks.values():
                    await sock.close()
        finally:
            await proxy.close()
        async with opened(store_url(url)) as store:
            events = await store.events(table_id)
            for move_id, ack_seq, text in acked:
                assert (events[ack_seq - 1].move_id, events[ack_seq - 1].payload["action"]) == (
                    move_id,
                    text,
                )
            assert [e.move_id for e in events].count("during") == 1
            assert (await store.table(table_id)).status == "playing"  # type: ignore[union-attr]
            async with store.engine.connect() as conn:
                count = (
                    await conn.execute(sa.select(sa.func.count()).select_from(tables_t))
                ).scalar()
            assert count == 1  # the request made while it was away created nothing


async def test_a_closed_port_is_a_clear_store_error(tmp_path: Path) -> None:
    store = Store(store_url(f"postgresql://postgres@127.0.0.1:{free_port()}/nothing"))
    with pytest.raises(StoreError, match="cannot open the database"):
        await store.open()
    with pytest.raises(StoreError, match="unavailable"):
        await store.tables()
    with pytest.raises(StoreError):
        await store.append("x", 1, "start", {})
    await store.close()
