"""Issue 5, item 1: no leak, whole payload.

Thousands of random games per game family run through the server's own tables and
message building (``Room``/``Table`` in-process, every connection a probe that sees
the exact dict the socket would send): every frame to every seat and to a spectator
(state, update, ack, error, seats) is checked at the moment it is sent by
:class:`~tests.server.helpers.LeakChecker`: each card in its bytes is one that viewer
may know, and the message is unchanged when every card the viewer cannot know is
resampled (every Golf message; a random half of the Spades ones, whose views are
costlier to rebuild). Lobby documents and records of unfinished tables are checked
along the way. The probes drop what was delivered after each game, so a run stays
near 200 MB.
The clients also make stale, duplicate, out-of-turn and illegal moves, so error
frames are covered too. A smaller number of games then runs through a real
``greenfelt serve`` over real WebSockets (``test_real_sockets_leak_nothing``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from greenfelt.server import app as app_module
from greenfelt.server.protocol import ProtocolError, error_message, parse
from greenfelt.server.room import Room
from greenfelt.server.store import Store, database_url
from greenfelt.server.tables import Connection, Table
from tests.server.helpers import (
    FAST,
    Client,
    LeakChecker,
    LeakError,
    MemoryStore,
    ServerProcess,
    allowed_cards,
    cards_in,
    choose,
    determinized,
    legal_of,
    match_over,
    swapped,
    wire,
)

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]


class Probe(Connection):
    """A connection whose every message is leak-checked when the table hands it over."""

    def __init__(self, checker: LeakChecker, seat: int | None) -> None:
        self.sent: list[dict[str, Any]] = []
        self.pushed: list[dict[str, Any]] = []
        self.typed: frozenset[str] = frozenset()
        self.latest: dict[str, Any] | None = None

        async def send(message: dict[str, Any]) -> None:
            self.sent.append(message)

        # (The memory store never yields, so the writer drains only between moves:
        # an outbox that never overflows keeps the probe from being dropped as slow.)
        super().__init__(send, seat, dataclasses.replace(FAST, outbox=10**9))
        self.checker = checker

    def push(self, message: dict[str, Any]) -> None:
        if not self.closed:
            self.checker.check(self.seat, message, self.typed)
            self.pushed.append(message)
            if message.get("type") in ("state", "update"):
                self.latest = message
        super().push(message)

    def last(self) -> dict[str, Any]:
        return self.pushed[-1]

    def forget(self) -> None:
        """Drop what was delivered (long runs); checks that delivery was exact first."""
        assert self.sent == self.pushed[: len(self.sent)]
        del self.pushed[: len(self.sent)]
        self.sent.clear()


async def send(table: Table, probe: Probe, message: dict[str, Any]) -> None:
    """What the socket does with one client frame (app._serve_socket's loop body)."""
    text = json.dumps(message, ensure_ascii=False)
    probe.typed = probe.typed | cards_in(text)
    try:
        await app_module._handle(table, probe, parse(text))
    except ProtocolError as error:
        probe.push(error_message(error.code, error.message, seq=table.seq))
        if error.code == "action/stale":
            probe.push(table.message(probe.seat, "state"))


checkers: dict[str, LeakChecker] = {}


async def settle(table: Table, seq: int) -> None:
    """Let the table's own timers (deals, bot moves) run until something happens."""
    for _ in range(100_000):
        if checkers.get(table.id) and checkers[table.id].failures:
            raise checkers[table.id].failures[0]
        if table.seq != seq or table.match.is_over:
            return
        await asyncio.sleep(0)
        if table.seq == seq and table.timers:
            await asyncio.wait(set(table.timers), timeout=5)
    raise AssertionError(f"table {table.id} is stuck at event {seq}")


@dataclass
class Tally:
    games: int = 0
    actions: int = 0
    frames: int = 0
    cards: int = 0
    resampled: int = 0
    abandoned: int = 0
    codes: dict[str, int] = field(default_factory=dict)

    def code(self, message: dict[str, Any]) -> None:
        key = message.get("code") or message["type"]
        self.codes[key] = self.codes.get(key, 0) + 1


ILLEGAL_GOLF = [
    "swap 11",
    "flip 17",
    "peek 9",
    "knock",
    "take",
    "discard",
    "draw",
    "pass",
    "swap 0",
]


def junk_text(game: str, rng: random.Random) -> str:
    if game == "golf":
        return rng.choice(ILLEGAL_GOLF)
    rank = rng.choice(["A", "2", "7", "10", "J", "Q", "K"])
    suit = rng.choice("♠♥♦♣")
    return rng.choice([f"play {rank}{suit}", "bid 14", "keep", "reject", "blind nil", "bid nil"])


async def junk(
    table: Table, probes: dict[int, Probe], spectator: Probe, rng: random.Random, tally: Tally
) -> None:
    """One bad or repeated message; each must answer with its code and change nothing."""
    seq = table.seq
    mover = table.match.to_move
    kind = rng.randrange(7)
    if kind == 0:  # a stale move: an old sequence number
        probe = probes[mover]
        text = rng.choice(legal_of(probe.latest or {}) or ["draw"])
        await send(
            table,
            probe,
            {
                "type": "action",
                "action": text,
                "seq": max(seq - 1 - rng.randrange(3), 0),
                "id": f"s{seq}",
            },
        )
        error, state = probe.pushed[-2:]
        assert error["code"] == "action/stale" and state["type"] == "state" and state["seq"] == seq
        tally.code(error)
    elif kind == 1:  # out of turn
        others = [s for s in probes if s != mover]
        probe = probes[rng.choice(others)]
        await send(
            table, probe, {"type": "action", "action": junk_text(table.game, rng), "seq": seq}
        )
        assert probe.last()["code"] in ("action/not_your_turn", "action/illegal"), probe.last()
        tally.code(probe.last())
    elif kind == 2:  # illegal for the mover (any phase)
        probe = probes[mover]
        text = junk_text(table.game, rng)
        if text in legal_of(probe.latest or {}):
            return
        await send(table, probe, {"type": "action", "action": text, "seq": seq})
        assert probe.last()["code"] == "action/illegal", probe.last()
        tally.code(probe.last())
    elif kind == 3:  # a spectator tries to play
        await send(table, spectator, {"type": "action", "action": "draw", "seq": seq})
        assert spectator.last()["code"] == "seat/spectator"
        tally.code(spectator.last())
    elif kind == 4:  # resync and ping from anyone
        probe = rng.choice([spectator, *probes.values()])
        await send(table, probe, {"type": rng.choice(["resync", "ping"])})
        assert probe.last()["type"] in ("state", "pong")
        tally.code(probe.last())
    elif kind == 5:  # a rematch or next while a round is in play
        probe = probes[rng.choice(list(probes))]
        await send(table, probe, {"type": rng.choice(["rematch", "next"])})
        if probe.pushed and probe.last().get("type") == "error":
            assert probe.last()["code"] == "action/illegal"
            tally.code(probe.last())
    else:  # a malformed message
        probe = rng.choice([spectator, *probes.values()])
        await send(table, probe, {"type": "action", "action": "", "seq": -1})
        assert probe.last()["code"] == "message/malformed"
        tally.code(probe.last())
    assert table.seq == seq, "a bad message changed the table"


MAX_ROUNDS = 25
"""Random play can sink a Spades match into endless hands (both sides ever further below
the target); a match that reaches this many rounds is left, and another table plays on."""


async def play_games(
    room: Room,
    game: str,
    preset: str | None,
    options: dict[str, Any],
    seats: list[str | None],
    *,
    games: int,
    rng: random.Random,
    tally: Tally,
    junk_rate: float = 0.05,
    resample: float = 1.0,
) -> None:
    """``games`` whole matches, all seats checked at every frame; tables rematch after
    each match, and a match longer than MAX_ROUNDS is left for a new table."""
    finished = 0
    while finished < games:
        finished += await play_table(
            room,
            game,
            preset,
            options,
            seats,
            games=games - finished,
            rng=rng,
            tally=tally,
            junk_rate=junk_rate,
            resample=resample,
        )


async def play_table(
    room: Room,
    game: str,
    preset: str | None,
    options: dict[str, Any],
    seats: list[str | None],
    *,
    games: int,
    rng: random.Random,
    tally: Tally,
    junk_rate: float,
    resample: float,
) -> int:
    """Up to ``games`` matches at one new table; returns how many were played to the end."""
    specs = [{"bot": bot} if bot else {"name": NAMES[i]} for i, bot in enumerate(seats)]
    table = await room.create(game, preset, options, specs)
    checker = checkers[table.id] = LeakChecker(table, rng, resample=resample)
    checker.check_public(table.info(), "the new table's lobby entry")
    humans = [i for i, bot in enumerate(seats) if not bot]
    probes = {s: Probe(checker, s) for s in humans}
    spectator = Probe(checker, None)
    everyone = [spectator, *probes.values()]
    for probe in everyone:
        table.attach(probe)
    for s in humans:
        _, seat, token = await room.join(table.id, s, NAMES[s])
        assert seat == s and token not in wire(table.info())
    ids = itertools.count()
    finished = 0
    while finished < games:
        if finished:
            await send(table, probes[rng.choice(humans)], {"type": "rematch"})
        while not table.match.is_over and len(table.match.rounds) <= MAX_ROUNDS:
            seq = table.seq
            mover = table.match.to_move
            if mover is None or mover not in probes:
                if mover is None:  # between rounds: what was delivered can go
                    for probe in everyone:
                        probe.forget()
                await settle(table, seq)  # a deal or a bot's move
                continue
            if rng.random() < junk_rate:
                await junk(table, probes, spectator, rng, tally)
            probe = probes[mover]
            assert probe.latest is not None and probe.latest["seq"] == seq
            legal = legal_of(probe.latest)
            assert legal, f"seat {mover} is to move but its view offers nothing: {probe.latest}"
            move_id = f"m{next(ids)}"
            message = {"type": "action", "action": choose(legal, rng), "seq": seq, "id": move_id}
            await send(table, probe, message)
            ack = probe.last()
            assert ack == {"type": "ack", "id": move_id, "seq": seq + 1}, ack
            assert not any(p.closed for p in everyone)
            await asyncio.sleep(0)  # the connections' writers deliver
            tally.actions += 1
            if rng.random() < 0.02:  # the same move again: applied once
                await send(table, probe, message)
                assert probe.last() == {**ack, "duplicate": True}
                tally.code(probe.last())
            if rng.random() < 0.05:
                checker.check_public(table.info(), "a table's lobby entry")
                checker.check_record(app_module._public_record(table))
        checker.check_record(app_module._public_record(table))
        if not table.match.is_over:
            tally.abandoned += 1
            break
        assert match_over(spectator.latest or {})
        finished += 1
        tally.games += 1
        for probe in everyone:
            await asyncio.sleep(0)
            probe.forget()
    for probe in everyone:
        await asyncio.sleep(0)
        assert probe.sent == probe.pushed, "a connection was not sent exactly what it was given"
    checker.check_public(await room.list_open(), "the table list")
    assert not checker.failures
    del checkers[table.id]
    tally.frames += checker.frames
    tally.cards += checker.cards_seen
    tally.resampled += checker.resampled
    await table.close()
    if table.match.is_over:  # (a left table stays: the table list would load it again)
        del room.tables[table.id]
    return finished


# (preset, seats (None: a person, else a bot level), options, games); 1,000 games in all.
GOLF = [
    ("six-card", [None, None], {"end": "holes:1"}, 120),
    ("six-card", [None, None, "random"], {"end": "holes:1", "flip_after_discard": "may"}, 60),
    ("four-card", [None, None, None], {"end": "holes:1"}, 120),  # closed + memory
    ("four-card", [None, None], {"end": "holes:2", "memory": False}, 80),
    ("four-in-hand", [None, None, None, None], {"end": "holes:1"}, 120),
    ("four-in-hand", [None, None], {"end": "holes:1", "tiebreak": "playoff"}, 100),
    ("nine-card", [None, None], {"end": "holes:1", "flip_instead_of_draw": True}, 60),
    ("bga", [None, "random", None], {"end": "holes:1"}, 50),
    ("ten-card", [None, None], {"end": "holes:1", "remove_matched_lines": True}, 50),
    ("eight-card", [None, None, None, None, None], {"end": "holes:1", "knock": "on"}, 30),
    ("four-card", [None, None], {"end": "holes:1", "tiebreak": "playoff"}, 50),
    ("cambio", [None, None, None], {"end": "holes:1"}, 80),  # closed, memory, powers (G7.2)
    ("cambio", [None] * 6, {"end": "holes:1", "decks": 1}, 20),  # powers and reshuffles (G2.5)
    ("six-card", [None, None], {"end": "holes:1", "powers": "bga"}, 40),  # G7.3
    ("six-card", [None] * 8, {"end": "holes:1", "decks": 1}, 20),  # a reshuffle every few turns
]
SPADES = [
    ({"target": 1}, 300),
    ({"target": 1, "discards": "face_down"}, 300),
    ({"target": 1, "discards": "face_down", "memory": False}, 200),
    ({"target": 1, "memory": False}, 180),
    ({"target": 60, "discards": "face_down"}, 10),
    ({"target": 60}, 10),
]


def test_the_configurations_cover_a_thousand_games_each() -> None:
    assert sum(games for *_, games in GOLF) >= 1000
    assert sum(games for _, games in SPADES) >= 1000
    assert {"four-card", "four-in-hand", "cambio"} <= {preset for preset, *_ in GOLF}
    assert {o.get("discards", "face_up") for o, _ in SPADES} == {"face_up", "face_down"}


@pytest.mark.parametrize(
    "index", range(len(GOLF)), ids=[f"{g[0]}-{len(g[1])}p-{i}" for i, g in enumerate(GOLF)]
)
async def test_golf_games_leak_nothing(index: int) -> None:
    preset, seats, options, games = GOLF[index]
    rng = random.Random(1000 + index)
    room = Room(MemoryStore(), FAST)  # type: ignore[arg-type]
    await room.start()
    tally = Tally()
    await play_games(room, "golf", preset, options, seats, games=games, rng=rng, tally=tally)
    assert tally.games == games and tally.frames > games * 10
    assert tally.cards > 0 and tally.resampled > 0
    await room.stop()


@pytest.mark.parametrize(
    "index", range(len(SPADES)), ids=[f"spades-{i}" for i in range(len(SPADES))]
)
async def test_spades_games_leak_nothing(index: int) -> None:
    options, games = SPADES[index]
    rng = random.Random(2000 + index)
    room = Room(MemoryStore(), FAST)  # type: ignore[arg-type]
    await room.start()
    tally = Tally()
    await play_games(
        room,
        "spades",
        "two-player",
        options,
        [None, None],
        games=games,
        rng=rng,
        tally=tally,
        resample=0.5,
    )
    assert tally.games == games and tally.cards > 0 and tally.resampled > 0
    assert tally.abandoned <= 2 + games // 20, (
        f"{tally.abandoned} matches ran past {MAX_ROUNDS} hands"
    )
    await room.stop()


# ---- the same through a real server and real sockets -----------------------------------

# (game, preset, options, seats, matches)
SOCKET_TABLES = [
    ("golf", "six-card", {"end": "holes:1"}, [None, None, "random"], 3),
    ("golf", "four-card", {"end": "holes:1"}, [None, None, None], 3),
    ("golf", "four-in-hand", {"end": "holes:2"}, [None, None], 3),
    ("golf", "nine-card", {"end": "holes:1", "flip_after_discard": "may"}, [None, "greedy"], 1),
    ("spades", "two-player", {"target": 1, "discards": "face_down"}, [None, None], 2),
    ("spades", "two-player", {"target": 1, "memory": False}, [None, "random"], 2),
    ("golf", "six-card", {"end": "holes:2"}, ["random", "random"], 1),
]


async def run_all(work: list[Any], clients: list[tuple[str, Client]], stall: float) -> None:
    """Run clients to the end while they make progress; when no client has received a
    frame for ``stall`` seconds, say who is stuck and what they saw last."""
    tasks = [asyncio.ensure_future(w) for w in work]
    seen, quiet = -1, 0.0
    while True:
        done, pending = await asyncio.wait(tasks, timeout=1.0, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            task.result()
        if not pending:
            return
        frames = sum(len(c.frames) for _, c in clients)
        quiet = 0.0 if frames != seen else quiet + 1.0
        seen = frames
        if quiet >= stall:
            break
    for task in pending:
        task.cancel()
    stuck = [
        f"{tid} seat {c.seat}: last frames {c.frames[-2:]}, errors {c.errors[-2:]}"
        for tid, c in clients
        if not c.done
    ]
    raise AssertionError("clients did not finish:\n" + "\n".join(stuck))


async def test_real_sockets_leak_nothing(tmp_path: Path) -> None:
    """Whole games through ``greenfelt serve``: every byte each socket and the lobby received.

    Afterwards the stored log is replayed event by event; each frame, taken at the
    event number it carries, may hold only cards its receiver could know then, and
    every view in it must survive the resampling of what that receiver cannot know.
    """
    rng = random.Random(5)
    server = ServerProcess(tmp_path / "data", "--bot-delay", "0", "--round-pause", "0")
    server.start()
    clients: list[tuple[str, Client]] = []
    lobby: list[tuple[str, str]] = []
    records: list[tuple[str, dict[str, Any]]] = []
    tokens: list[str] = []
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            for game, preset, options, seats, matches in SOCKET_TABLES:
                specs = [{"bot": b} if b else {"name": NAMES[i]} for i, b in enumerate(seats)]
                body = {"game": game, "preset": preset, "options": options, "seats": specs}
                response = await http.post("/api/tables", json=body)
                assert response.status_code == 201, response.text
                lobby.append(("create", response.text))
                table_id = response.json()["id"]
                watcher = Client(server.ws_base, table_id, None, rng, matches=matches)
                clients.append((table_id, watcher))
                humans = [i for i, b in enumerate(seats) if not b]
                for seat in humans:
                    joined = await http.post(
                        f"/api/tables/{table_id}/join", json={"name": NAMES[seat], "seat": seat}
                    )
                    assert joined.status_code == 200, joined.text
                    tokens.append(joined.json()["token"])
                    client = Client(
                        server.ws_base,
                        table_id,
                        joined.json()["token"],
                        random.Random(rng.random()),
                        seat=seat,
                        matches=matches,
                        rematcher=seat == humans[0],
                    )
                    clients.append((table_id, client))

            async def poll_lobby() -> None:
                while not all(c.done for _, c in clients):
                    response = await http.get("/api/tables")
                    lobby.append(("list", response.text))
                    for table_id in {t for t, _ in clients}:
                        info = await http.get(f"/api/tables/{table_id}")
                        lobby.append(("info", info.text))
                        record = await http.get(f"/api/tables/{table_id}/record")
                        records.append((table_id, record.json()))
                    await asyncio.sleep(0.02)

            await run_all([poll_lobby(), *(c.run() for _, c in clients)], clients, stall=60)
    finally:
        server.stop()

    for what, text in lobby:
        assert not cards_in(text), f"the lobby ({what}) showed cards: {text[:500]}"
        assert not any(token in text for token in tokens), "a seat token left the join response"
    store = Store(database_url(None, tmp_path / "data"))
    frames = 0
    try:
        for table_id in {t for t, _ in clients}:
            row = await store.table(table_id)
            assert row is not None
            replica = Table(row, await store.seats(table_id), store, FAST)
            events = await store.events(table_id)
            final = [e.seq for e in events]
            assert final == list(range(1, len(events) + 1))
            # every frame of every connection of this table, by the event number it carries
            by_seq: dict[int | None, list[tuple[int | None, str, frozenset[str]]]] = {}
            for tid, client in clients:
                if tid != table_id:
                    continue
                typed = frozenset(c for text in client.sent for c in cards_in(text))
                for raw in client.frames:
                    assert not any(token in raw for token in tokens), "a token was sent on a socket"
                    seq = json.loads(raw).get("seq")
                    by_seq.setdefault(seq, []).append((client.seat, raw, typed))
            for _seat, raw, _typed in by_seq.pop(None, []):  # seats frames: no cards at all
                assert not cards_in(raw), raw
            for event in [None, *events]:
                if event is not None:
                    replica._apply_event(event.kind, event.seat, event.payload)
                    replica.seq = event.seq
                for seat, raw, typed in by_seq.pop(replica.seq, []):
                    frames += 1
                    message = json.loads(raw)
                    for text in (raw, wire(message)):
                        bad = (
                            cards_in(text)
                            - allowed_cards(replica.game, replica.match, seat)
                            - typed
                        )
                        assert not bad, (
                            f"seat {seat} got {sorted(bad)} at event {replica.seq}: {raw}"
                        )
                    if message.get("view") is not None and replica.match.rounds:
                        assert message["view"] == replica.message(seat)["view"], raw
                        for _ in range(2):
                            other = determinized(replica.game, replica.match, seat, rng)
                            with swapped(replica, other):
                                again = replica.message(seat)["view"]
                            assert again == message["view"], (
                                f"seat {seat} could tell hidden cards apart: {raw}"
                            )
            assert not by_seq, f"frames at events the log does not have: {sorted(by_seq)}"
            # records taken during play: completed rounds only (the round in play is secret)
            for tid, record in records:
                if tid == table_id:
                    assert all("scores" in r for r in record["rounds"]), record
    finally:
        await store.close()
    assert frames > 500
    assert all(c.done for _, c in clients)


# ---- the detector itself -----------------------------------------------------------------


def _peek_shown_to_all(original: Any) -> Any:
    def leaky(self: Table, seat: int | None, event: dict[str, Any] | None) -> Any:
        if event and str(event.get("action", "")).startswith("peek "):
            return original(self, event.get("seat"), event)  # the peeker's event, to everyone
        return original(self, seat, event)

    return leaky


def _stock_top_added(original: Any) -> Any:
    def leaky(self: Table, *args: Any, **kwargs: Any) -> Any:
        message = original(self, *args, **kwargs)
        rnd = self.match.current if self.match is not None else None
        if rnd is not None and self.game == "golf" and rnd.stock:
            message = {**message, "debug": {"next": str(rnd.stock[-1])}}
        if rnd is not None and self.game == "spades" and rnd.stock:
            message = {**message, "debug": {"next": str(rnd.stock[0])}}
        return message

    return leaky


def _one_message_for_all(original: Any) -> Any:
    def leaky(self: Table, event: dict[str, Any] | None) -> None:
        shared = self.message(0, "update", event)
        for connection in list(self.connections):
            connection.push(shared)

    return leaky


@pytest.mark.parametrize(
    ("attribute", "wrapper", "game"),
    [
        ("_event_for", _peek_shown_to_all, "golf"),
        ("message", _stock_top_added, "golf"),
        ("message", _stock_top_added, "spades"),
        ("broadcast", _one_message_for_all, "golf"),
        ("broadcast", _one_message_for_all, "spades"),
    ],
)
async def test_the_detector_finds_planted_leaks(
    attribute: str, wrapper: Any, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Planted leaks of the kinds servers have had (a field nobody filtered, a message
    built once for everyone, a private event sent to all) are caught."""
    monkeypatch.setattr(Table, attribute, wrapper(getattr(Table, attribute)))
    room = Room(MemoryStore(), FAST)  # type: ignore[arg-type]
    await room.start()
    preset, options = (
        ("four-card", {"end": "holes:1"}) if game == "golf" else ("two-player", {"target": 1})
    )
    with pytest.raises(LeakError):
        await play_games(
            room,
            game,
            preset,
            options,
            [None, None, None][: 3 if game == "golf" else 2],
            games=50,
            rng=random.Random(3),
            tally=Tally(),
            junk_rate=0,
        )
    await room.stop()
