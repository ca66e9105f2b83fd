"""Shared tools of the server tests: servers (in-process and real processes), stores,
and the leak checker that knows what each seat may know.

Servers:

* :class:`LiveServer` runs the real app under uvicorn on a free loopback port inside
  the test's event loop, so a test can talk to it over real sockets *and* look at
  the room's tables directly;
* :class:`ThreadServer` does the same in a thread of its own, for synchronous tests
  (hypothesis drives those);
* :class:`ServerProcess` starts ``greenfelt serve`` as a real process that a test may
  SIGKILL and start again on the same data folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from greenfelt.server.app import create_app
from greenfelt.server.protocol import MAX_MESSAGE_BYTES
from greenfelt.server.room import Room
from greenfelt.server.store import EventRow, SeatRow, Store, StoreConflict, TableRow
from greenfelt.server.tables import Settings, Table

CARD_TEXT = re.compile(r"JK|(?:10|[2-9AJQK])[♠♥♦♣]")
"""Any card in output notation (C2): every byte sent is scanned for these."""

FAST = Settings(bot_delay=0.0, round_pause=0.0, takeover_after=3600.0, rate=1e6, burst=10**6)
"""Bots move at once, rounds follow at once, nobody is taken over, no rate limit."""

PG_HELP = (
    "GREENFELT_TEST_PG is not set, so the PostgreSQL half of the storage tests cannot run. "
    "Start a throwaway cluster and point the tests at it, e.g. as root:\n"
    "  D=$(mktemp -d); chown postgres:postgres $D; B=/usr/lib/postgresql/15/bin\n"
    '  su postgres -s /bin/sh -c "$B/initdb -D $D/data -A trust -U postgres --no-sync"\n'
    "  su postgres -s /bin/sh -c \"$B/pg_ctl -D $D/data -o '-c listen_addresses=127.0.0.1 "
    "-p 55432 -k $D' -l $D/log -w start\"\n"
    "  export GREENFELT_TEST_PG=postgresql://postgres@127.0.0.1:55432/postgres\n"
    "(.ci/run does exactly this.)"
)


def wire(message: Any) -> str:
    """A message as the socket sends it (Starlette's ``send_json``)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def cards_in(text: str) -> set[str]:
    return set(CARD_TEXT.findall(text))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def sqlite_url(folder: Path) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{(folder / 'greenfelt.sqlite3').resolve()}"


def pg_admin_url() -> str:
    """The PostgreSQL of the test run; a clear failure (never a skip) when there is none."""
    url = os.environ.get("GREENFELT_TEST_PG")
    if not url:
        pytest.fail(PG_HELP, pytrace=False)
    return url


@contextlib.asynccontextmanager
async def fresh_pg_database() -> AsyncIterator[str]:
    """A new, empty PostgreSQL database for one test (dropped afterwards); yields its URL."""
    import asyncpg

    admin = pg_admin_url()
    name = f"gf_test_{os.getpid()}_{random.getrandbits(40):x}"
    try:
        conn = await asyncpg.connect(admin)
    except OSError as error:
        pytest.fail(f"cannot reach GREENFELT_TEST_PG={admin}: {error}\n\n{PG_HELP}", pytrace=False)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    base, _, _ = admin.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        conn = await asyncpg.connect(admin)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()


def store_url(url: str) -> str:
    """The SQLAlchemy URL of a user URL (what ``--db`` does)."""
    from greenfelt.server.store import database_url

    return database_url(url, Path("."))


# ---- an in-memory store (for the long leak runs: storage is not what they test) ------------


class MemoryStore:
    """The Store interface in memory, with its conflict rule; nothing else of a database."""

    kind = "memory"
    url = "memory://"

    def __init__(self) -> None:
        self.rows: dict[str, TableRow] = {}
        self.seat_rows: dict[str, list[SeatRow]] = {}
        self.log: dict[str, list[EventRow]] = {}

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def create_table(
        self, table_id: str, game: str, config: dict[str, Any], seats: list[SeatRow]
    ) -> None:
        self.rows[table_id] = TableRow(table_id, game, config, "open", time.time())
        self.seat_rows[table_id] = list(seats)
        self.log[table_id] = []

    async def set_status(self, table_id: str, status: str) -> None:
        row = self.rows[table_id]
        self.rows[table_id] = TableRow(row.id, row.game, row.config, status, row.created_at)

    async def tables(self, statuses: list[str] | None = None) -> list[TableRow]:
        return [r for r in self.rows.values() if not statuses or r.status in statuses]

    async def table(self, table_id: str) -> TableRow | None:
        return self.rows.get(table_id)

    async def seats(self, table_id: str) -> list[SeatRow]:
        return list(self.seat_rows[table_id])

    async def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        return self._take_free_seat(table_id, SeatRow(seat, name, None, token_hash))

    async def seat_bot(self, table_id: str, seat: int, level: str, name: str) -> bool:
        return self._take_free_seat(table_id, SeatRow(seat, name, level, None))

    def _take_free_seat(self, table_id: str, new: SeatRow) -> bool:
        row = self.seat_rows[table_id][new.seat]
        if row.bot is not None or row.token_hash is not None:
            return False
        self.seat_rows[table_id][new.seat] = new
        return True

    async def append(
        self,
        table_id: str,
        seq: int,
        kind: str,
        payload: dict[str, Any],
        *,
        seat: int | None = None,
        move_id: str | None = None,
    ) -> None:
        log = self.log[table_id]
        if len(log) >= seq:
            raise StoreConflict(f"event {seq} of table {table_id} exists already")
        # A JSON round trip, as a database stores it.
        log.append(EventRow(seq, kind, seat, json.loads(json.dumps(payload)), move_id))

    async def events(self, table_id: str) -> list[EventRow]:
        return list(self.log[table_id])


# ---- what a seat may know --------------------------------------------------------------


def round_seat(game: str, match: Any, seat: int | None) -> int | None:
    """The seat's index in the round in play (Golf playoffs seat only the tied)."""
    if seat is None or match is None or not match.rounds:
        return None
    if game == "golf":
        seating = match.seating(len(match.rounds) - 1)
        return seating.index(seat) if seat in seating else None
    return seat


def allowed_cards(game: str, match: Any, seat: int | None) -> set[str]:
    """Every card ``seat`` (None: a spectator) may know now, from the engine's state.

    Golf (G8): face-up cards, face-down cards the seat has seen (peeked, drawn and
    kept, its own hand in hand4), the whole discard pile, and the card in hand when it
    came from the pile or the seat holds it. Spades (S2.4): its hand, every card
    played, the discards it saw, and the card it looks at while drawing.
    """
    if match is None or not match.rounds:
        return set()
    rnd = match.rounds[-1]
    r = round_seat(game, match, seat)
    if game == "golf":
        bit = 0 if r is None else 1 << r
        out = {
            str(card)
            for i, card in enumerate(rnd.cards)
            if card is not None and (rnd.up[i] or rnd.known[i] & bit)
        }
        out |= {str(card) for card in rnd.discard}
        if rnd.held is not None and (
            not rnd.held_from_stock or (r is not None and r == rnd.to_move)
        ):
            out.add(str(rnd.held))
        return out
    if r is None:
        out = {str(card) for card in rnd.played_cards}
        if rnd.rules.discards == "face_up":
            out |= {str(card) for card in rnd.discard_pile}
        return out
    return {str(card) for card in rnd.known_cards(r)}


def determinized(game: str, match: Any, seat: int | None, rng: random.Random) -> Any:
    """The match with its round in play replaced by one that ``seat`` cannot tell apart.

    Every card the seat may not know is resampled (the engine's ``determinize``). For a
    spectator (or a Golf seat sitting out a playoff) a random seat of the round is used:
    a spectator knows less than any seat, so whatever a seat cannot tell apart, neither
    can the spectator.
    """
    rnd = match.rounds[-1]
    r = round_seat(game, match, seat)
    if r is None:
        r = rng.randrange(rnd.n if game == "golf" else 2)
    other = copy.copy(match)
    other._rounds = [*match.rounds[:-1], rnd.determinize(r, rng)]
    return other


@contextlib.contextmanager
def swapped(table: Table, match: Any) -> Iterator[None]:
    real = table.match
    table.match = match
    try:
        yield
    finally:
        table.match = real


class LeakError(AssertionError):
    pass


class LeakChecker:
    """Checks one message (the exact dict a connection is sent) against what its seat may know.

    1. Every card anywhere in the message's bytes is one the viewer may know now
       (:func:`allowed_cards`), or one the viewer itself typed (an error may quote it).
    2. A message that carries a view is rebuilt by the table from a state where every
       card the viewer cannot know was resampled: it must come out byte for byte the same
       (STYLE 13's detector, applied to whole messages, not just views).
    """

    def __init__(self, table: Table, rng: random.Random, *, resample: float = 1.0) -> None:
        self.table = table
        self.rng = rng
        self.resample = resample
        self.frames = 0
        self.cards_seen = 0
        self.resampled = 0
        self.failures: list[LeakError] = []

    def check(
        self, seat: int | None, message: dict[str, Any], typed: frozenset[str] = frozenset()
    ) -> None:
        """Raises LeakError, and remembers it (a bot's move runs in a task that logs errors)."""
        try:
            self._check(seat, message, typed)
        except LeakError as error:
            self.failures.append(error)
            raise

    def _check(self, seat: int | None, message: dict[str, Any], typed: frozenset[str]) -> None:
        table = self.table
        text = wire(message)
        self.frames += 1
        found = cards_in(text)
        self.cards_seen += len(found)
        if found:
            allowed = allowed_cards(table.game, table.match, seat) | typed
            bad = found - allowed
            if bad:
                raise LeakError(
                    f"seat {seat} was sent {sorted(bad)} it may not know, in {text[:2000]}"
                )
        kind = message.get("type")
        if kind in ("state", "update") and table.match is not None and table.match.rounds:
            event = message.get("event") if kind == "update" else None
            if self.rng.random() < self.resample:
                self.resampled += 1
                other = determinized(table.game, table.match, seat, self.rng)
                with swapped(table, other):
                    again = wire(table.message(seat, kind, event))
                if again != text:
                    if wire(table.message(seat, kind, event)) != text:
                        raise LeakError(f"seat {seat}: the message is not reproducible:\n{text}")
                    raise LeakError(
                        f"seat {seat}'s message changes when cards it cannot know are "
                        f"resampled:\nreal: {text}\nresampled: {again}"
                    )

    def check_public(self, document: Any, what: str) -> None:
        """Lobby documents (table info, lists) carry no card at all."""
        text = wire(document)
        found = cards_in(text)
        if found:
            raise LeakError(f"{what} shows cards {sorted(found)}: {text[:2000]}")

    def check_record(self, record: dict[str, Any]) -> None:
        """A downloaded record holds completed rounds only: the round in play stays secret."""
        match = self.table.match
        if match is None:
            assert record["rounds"] == []
            return
        completed = [r for r in match.rounds if r.is_over]
        if len(record["rounds"]) != len(completed) or any(
            "scores" not in r for r in record["rounds"]
        ):
            raise LeakError(
                f"the record shows {len(record['rounds'])} rounds, "
                f"{len(completed)} are complete: {wire(record)[:2000]}"
            )
        assert bool(record.get("in_progress")) == (match.current is not None)


# ---- the random client's choices -------------------------------------------------------


def view_of(message: dict[str, Any]) -> dict[str, Any] | None:
    """The round view inside a state/update message (Golf round_view, Spades hand)."""
    view = message.get("view")
    if not view:
        return None
    inner = view.get("round_view") if view.get("game") == "golf" else view.get("hand")
    return inner if isinstance(inner, dict) else None


def legal_of(message: dict[str, Any]) -> list[str]:
    inner = view_of(message)
    return list(inner.get("legal") or []) if inner else []


def match_over(message: dict[str, Any]) -> bool:
    view = message.get("view") or {}
    if view.get("game") == "golf":
        return bool(view.get("over"))
    return bool(view.get("winners"))


def totals_of(message: dict[str, Any]) -> list[int]:
    return list((message.get("view") or {}).get("totals") or [])


def choose(legal: list[str], rng: random.Random) -> str:
    """A random legal move; in Spades nearly always a bid of 4 or 5 and no blind nil, so
    games end; in Golf mostly no knock, so rounds last long enough for powers and reshuffles.

    Random play takes about 6.5 tricks a hand, so a bid of 4 or 5 is mostly made with few
    bags (S5.1, S5.4): the seat's score climbs, and a game to a low target ends within a
    few hands. Lower bids collect bags whose penalties cancel the gains, and the game
    becomes a random walk that can last hundreds of hands (a match to target 1 against
    the random bot took over 95 hands on one run). Simulated over 5,000 such matches with
    these odds: 1.16 hands on average, 36 at most.
    """
    middling = [a for a in legal if a in ("bid 4", "bid 5", "pass")]
    if middling and rng.random() < 0.97:
        return rng.choice(middling)
    if "knock" in legal and len(legal) > 1 and rng.random() < 0.85:
        legal = [a for a in legal if a != "knock"]
    return rng.choice(legal)


class Client:
    """A random player (or a spectator, ``token=None``) over a real WebSocket.

    It decides only from the frames it receives: when its latest view offers legal
    actions it sends one with the view's ``seq`` and a fresh move id. With
    ``reconnect`` it survives the server going away: it reconnects with its token and
    resends the move it had no answer for (same id, same seq). ``matches`` is how many
    matches it stays for; the ``rematcher`` asks for each rematch.
    """

    def __init__(
        self,
        ws_base: str,
        table_id: str,
        token: str | None,
        rng: random.Random,
        *,
        seat: int | None = None,
        matches: int = 1,
        rematcher: bool = False,
        reconnect: bool = False,
    ) -> None:
        self.url = ws_base + table_id
        self.table_id = table_id
        self.token = token
        self.rng = rng
        self.seat = seat
        self.matches = matches
        self.rematcher = rematcher
        self.reconnect = reconnect
        self.frames: list[str] = []
        self.sent: list[str] = []
        self.acked: dict[str, tuple[int, str]] = {}
        self.duplicates: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.outstanding: dict[str, Any] | None = None
        self.latest: dict[str, Any] | None = None
        self.connects = 0
        self.rate_limited = 0
        self.asked_rematch: set[int] = set()
        self.done = False
        self._moves = 0

    async def run(self) -> None:
        import websockets

        while not self.done:
            try:
                async with websockets.connect(
                    self.url, open_timeout=10, max_size=None, max_queue=None
                ) as ws:
                    self.connects += 1
                    self.asked_rematch.clear()  # a request lost with the server is asked again
                    hello = (
                        {"type": "hello", "token": self.token} if self.token else {"type": "watch"}
                    )
                    await self._send(ws, hello)
                    if self.outstanding is not None:  # no answer came: ask again, same id
                        await self._send(ws, self.outstanding)
                    async for raw in ws:
                        assert isinstance(raw, str), "the server sends text frames"
                        self.frames.append(raw)
                        await self._on(ws, json.loads(raw))
                        if self.done:
                            return
            except (
                OSError,
                websockets.ConnectionClosed,
                websockets.InvalidHandshake,
                TimeoutError,
            ):
                if not self.reconnect:
                    raise
            if not self.reconnect and not self.done:
                raise AssertionError(
                    f"{self.url}: the server closed the socket: {self.frames[-3:]}"
                )
            await asyncio.sleep(0.05)

    async def _send(self, ws: Any, message: dict[str, Any]) -> None:
        text = json.dumps(message, ensure_ascii=False)
        self.sent.append(text)
        await ws.send(text)

    async def _on(self, ws: Any, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind in ("state", "update"):
            self.latest = message
            if match_over(message):
                number = int(message.get("match") or 0)
                if number >= self.matches:
                    self.done = True
                    return
                if self.rematcher and number not in self.asked_rematch:
                    self.asked_rematch.add(number)
                    await self._send(ws, {"type": "rematch"})
                return
        elif kind == "ack":
            out = self.outstanding
            if out is not None and message.get("id") == out["id"]:
                self.acked[out["id"]] = (int(message["seq"]), out["action"])
                if message.get("duplicate"):
                    self.duplicates.append(message)
                self.outstanding = None
        elif kind == "error":
            self.errors.append(message)
            if message.get("code") == "rate/limited":
                # Dropped unread: slow down and ask again (a move: same id, same seq).
                self.rate_limited += 1
                await asyncio.sleep(0.2)
                latest = self.latest or {}
                if self.outstanding is not None:
                    await self._send(ws, self.outstanding)
                elif self.rematcher and match_over(latest):
                    self.asked_rematch.discard(int(latest.get("match") or 0))
                    await self._on(ws, latest)
            else:
                self.outstanding = None
            return
        else:
            return
        await self._maybe_move(ws)

    async def _maybe_move(self, ws: Any) -> None:
        latest = self.latest
        if self.seat is None or self.outstanding is not None or latest is None:
            return
        legal = legal_of(latest)
        if not legal:
            return
        self._moves += 1
        move = {
            "type": "action",
            "action": choose(legal, self.rng),
            "seq": latest["seq"],
            "id": f"{self.table_id}-{self.seat}-{self._moves}",
        }
        self.outstanding = move
        await self._send(ws, move)


class Sock:
    """A test's hand on one WebSocket: send messages, read frames with a deadline."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []

    @classmethod
    async def open(cls, ws_base: str, table_id: str, token: str | None = None) -> Sock:
        import websockets

        ws = await websockets.connect(
            ws_base + table_id, open_timeout=10, max_size=None, max_queue=None
        )
        sock = cls(ws)
        if token is not None:
            await sock.send(type="hello", token=token)
        return sock

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message, ensure_ascii=False))

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def next(self, timeout: float = 20.0) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(raw, str), "the server sends text frames"
        self.raw.append(raw)
        message: dict[str, Any] = json.loads(raw)
        self.frames.append(message)
        return message

    async def until(self, predicate: Any, timeout: float = 20.0) -> dict[str, Any]:
        """Read until a frame satisfies ``predicate``; returns that frame."""
        deadline = time.monotonic() + timeout
        while True:
            message = await self.next(max(deadline - time.monotonic(), 0.01))
            if predicate(message):
                return message

    async def state(self) -> dict[str, Any]:
        return await self.until(lambda m: m.get("type") in ("state", "update"))

    async def barrier(self) -> list[dict[str, Any]]:
        """Every frame before the answer to a ping (all that this connection was given so far)."""
        await self.send(type="ping")
        out = []
        while True:
            message = await self.next()
            if message.get("type") == "pong":
                return out
            out.append(message)

    async def close(self) -> None:
        await self.ws.close()


async def new_table(
    http: httpx.AsyncClient,
    game: str = "golf",
    preset: str | None = None,
    options: dict[str, Any] | None = None,
    seats: list[str | None] | None = None,
    *,
    join: bool = True,
) -> tuple[str, dict[int, str]]:
    """Create a table (``seats``: None for a person, else a bot level); join every person.

    Returns the table id and each joined seat's token.
    """
    seats = seats if seats is not None else [None, None]
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
    body: dict[str, Any] = {
        "game": game,
        "seats": [{"bot": b} if b else {"name": names[i]} for i, b in enumerate(seats)],
        "options": options or {},
    }
    if preset:
        body["preset"] = preset
    response = await http.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    table_id: str = response.json()["id"]
    tokens: dict[int, str] = {}
    if join:
        for seat, bot in enumerate(seats):
            if bot is None:
                joined = await http.post(
                    f"/api/tables/{table_id}/join", json={"name": names[seat], "seat": seat}
                )
                assert joined.status_code == 200, joined.text
                tokens[seat] = joined.json()["token"]
    return table_id, tokens


# ---- servers ---------------------------------------------------------------------------


def loopback_socket() -> socket.socket:
    """A listening socket on a free loopback port, for uvicorn.

    Made with ``IPPROTO_TCP``: asyncio sets TCP_NODELAY only on sockets whose protocol
    says TCP, and without it every keep-alive request waits 40 ms for a delayed ACK.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    return sock


def _uvicorn_config(app: Any) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        log_level="warning",
        ws_max_size=4 * MAX_MESSAGE_BYTES,  # as greenfelt serve sets it
        access_log=False,
        lifespan="on",
    )


class LiveServer:
    """The real app on a loopback port, served in the running event loop."""

    def __init__(self, store: Any, settings: Settings = FAST) -> None:
        self.app = create_app(store, settings)
        self.room: Room = self.app.state.room
        self.store = store
        self._sock = loopback_socket()
        self.port: int = self._sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}/ws/tables/"
        self.server = uvicorn.Server(_uvicorn_config(self.app))
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> LiveServer:
        self._task = asyncio.create_task(self.server.serve(sockets=[self._sock]))
        while not self.server.started:
            if self._task.done():
                self._task.result()
                raise RuntimeError("the server stopped while starting")
            await asyncio.sleep(0.01)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.server.should_exit = True
        if self._task is not None:
            await self._task
        self._sock.close()

    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.url, timeout=30.0)


class ThreadServer:
    """The real app on a loopback port, served by a thread with its own event loop."""

    def __init__(self, url: str, settings: Settings = FAST) -> None:
        self.store = Store(url)
        self.app = create_app(self.store, settings)
        self.room: Room = self.app.state.room
        self._sock = loopback_socket()
        self.port: int = self._sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}/ws/tables/"
        self.server = uvicorn.Server(_uvicorn_config(self.app))
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        async def main() -> None:
            self.loop = asyncio.get_running_loop()
            await self.server.serve(sockets=[self._sock])

        asyncio.run(main())

    def call(self, coroutine: Any) -> Any:
        """Run a coroutine in the server's loop (to look at its tables safely)."""
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(30)

    def __enter__(self) -> ThreadServer:
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self._thread.join(30)
        self._sock.close()


GREENFELT = str(Path(sys.executable).with_name("greenfelt"))


class ServerProcess:
    """``greenfelt serve`` as a real process on a fixed port and data folder."""

    def __init__(self, data: Path, *args: str, port: int | None = None) -> None:
        self.data = data
        self.args = list(args)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}/ws/tables/"
        self.proc: subprocess.Popen[bytes] | None = None
        self.logs: list[Path] = []

    def start(self, timeout: float = 60.0) -> None:
        log = self.data.parent / f"{self.data.name}-server-{len(self.logs)}.log"
        self.logs.append(log)
        command = [
            GREENFELT,
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--data",
            str(self.data),
            *self.args,
        ]
        with log.open("wb") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"greenfelt serve exited: {self.log_tail()}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=2.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"greenfelt serve did not come up: {self.log_tail()}")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs (the crash that storage must survive)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()

    def log_tail(self) -> str:
        return "\n".join(p.read_text(errors="replace")[-3000:] for p in self.logs[-1:])

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
