"""Issue 5, item 6: bad input gets a clear, stable error code, never a crash or a change.

The protocol parser and the table socket are fuzzed with hypothesis (random JSON
values, random text and bytes); the lobby is fuzzed with generated bodies; and the
named cases (malformed JSON, unknown types, wrong phase, huge frames, binary frames,
floods, unknown tables, bad lobby bodies, unknown presets and options) each have a test.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from greenfelt.server.protocol import (
    CODES,
    MAX_MESSAGE_BYTES,
    TYPES,
    ClientMessage,
    ProtocolError,
    parse,
)
from greenfelt.server.store import Store
from greenfelt.server.tables import Settings
from tests.server.helpers import LiveServer, Sock, ThreadServer, legal_of, new_table, sqlite_url

# The server under test runs in a thread of this process, and its websocket
# keepalive pings draw from the global ``random`` module (uvicorn, websockets).
# When a ping lands while hypothesis draws an example, hypothesis takes it for a
# strategy using ``random`` and warns; the strategies here do not.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Do not use the `random` module inside strategies"
    ":hypothesis.errors.HypothesisDeprecationWarning"
)

QUIET = Settings(bot_delay=3600, round_pause=3600, takeover_after=3600, rate=1e6, burst=10**6)
"""Bots never move, nobody is taken over, no rate limit: a table that stands still."""

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
known_types = st.sampled_from([*TYPES, "Action", "", "act ion", "hello "])
action_texts = st.sampled_from(
    [
        "draw",
        "take",
        "swap 0",
        "swap 99",
        "flip -1",
        "peek 3",
        "knock",
        "discard",
        "pass",
        "play Q♠",
        "play 10h",
        "bid 14",
        "bid nil",
        "blind nil",
        "keep",
        "reject",
        "",
        " ",
        "swap",
        "♠",
    ]
) | st.text(max_size=30)
messages = st.fixed_dictionaries(
    {"type": known_types},
    optional={
        "action": action_texts | json_values,
        "seq": st.integers(-3, 10**6) | json_values,
        "id": st.text(max_size=70) | st.integers() | json_values,
        "token": st.text(max_size=40) | json_values,
        "seat": json_values,
    },
)
frames = (
    messages.map(lambda m: json.dumps(m, ensure_ascii=False))
    | json_values.map(json.dumps)
    | st.text(max_size=200)
    | st.binary(max_size=200)
    | st.sampled_from(
        ["{", "}", "[]", "null", "1", '"ping"', '{"type":', "{}", "\x00", "{'type': 'ping'}"]
    )
)


# ---- the parser ---------------------------------------------------------------------------


@settings(max_examples=1500, deadline=None)
@given(frames)
def test_the_parser_answers_everything_with_a_message_or_a_code(frame: str | bytes) -> None:
    try:
        message = parse(frame)
    except ProtocolError as error:
        assert error.code in CODES and error.message
        return
    assert isinstance(message, ClientMessage) and message.type in TYPES
    if message.type == "action":
        assert message.action and isinstance(message.seq, int) and message.seq >= 0
    if message.type == "hello":
        assert message.token


def test_the_parser_refuses_each_kind_of_bad_frame_by_name() -> None:
    cases: list[tuple[str | bytes, str]] = [
        ("{", "message/malformed"),
        ("", "message/malformed"),
        ("[1, 2]", "message/malformed"),
        ('"ping"', "message/malformed"),
        ("null", "message/malformed"),
        (b"\xff\xfe\x00", "message/malformed"),
        ("{}", "message/unknown_type"),
        ('{"type": "dance"}', "message/unknown_type"),
        ('{"type": ["ping"]}', "message/unknown_type"),
        ('{"type": "hello"}', "auth/required"),
        ('{"type": "action", "action": "draw"}', "message/malformed"),
        ('{"type": "action", "action": "draw", "seq": -1}', "message/malformed"),
        ('{"type": "action", "action": "draw", "seq": true}', "message/malformed"),
        ('{"type": "action", "action": "draw", "seq": "3"}', "message/malformed"),
        ('{"type": "action", "action": 5, "seq": 3}', "message/malformed"),
        ('{"type": "action", "action": "draw", "seq": 3, "id": [1]}', "message/malformed"),
        ('{"type": "ping", "token": 5}', "message/malformed"),
        ("x" * (MAX_MESSAGE_BYTES + 1), "message/too_large"),
        (b"x" * (MAX_MESSAGE_BYTES + 1), "message/too_large"),
        ('{"type": "ping", "pad": "' + "é" * (MAX_MESSAGE_BYTES // 2) + '"}', "message/too_large"),
        ('{"type": ' + "[" * 5000 + "]" * 5000 + "}", "message/too_large"),
        ('{"type": ' + "[" * 2000 + "]" * 2000 + "}", "message/malformed"),
    ]
    for frame, code in cases:
        with pytest.raises(ProtocolError) as error:
            parse(frame)
        assert error.value.code == code, (frame[:60], error.value.code)
    assert parse('{"type": "action", "action": "swap 4", "seq": 17, "id": 3}') == ClientMessage(
        "action", action="swap 4", seq=17, id="3"
    )


# ---- the socket, fuzzed -------------------------------------------------------------------


@pytest.fixture(scope="module")
def quiet_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    folder = tmp_path_factory.mktemp("fuzz")
    with ThreadServer(sqlite_url(folder), QUIET) as server:
        server.db = folder / "greenfelt.sqlite3"  # type: ignore[attr-defined]
        yield server


def count_tables(server: ThreadServer) -> int:
    with sqlite3.connect(server.db) as db:  # type: ignore[attr-defined]
        return int(db.execute("select count(*) from gf_tables").fetchone()[0])


def barrier(ws: ClientConnection) -> list[dict[str, Any]]:
    """Every frame the server sent before answering a ping."""
    ws.send('{"type": "ping"}')
    out = []
    while True:
        raw = ws.recv(timeout=20)
        assert isinstance(raw, str)
        message = json.loads(raw)
        if message["type"] == "pong":
            return out
        out.append(message)


@pytest.fixture(scope="module")
def fuzz_table(quiet_server: ThreadServer) -> Iterator[dict[str, Any]]:
    """A golf table with two people, where it is seat 1's turn; seat 0 and a spectator fuzz."""
    with httpx.Client(base_url=quiet_server.url) as http:
        body = {"game": "golf", "preset": "four-card", "seats": [{"name": "Ann"}, {"name": "Bob"}]}
        table_id = http.post("/api/tables", json=body).json()["id"]
        tokens = [
            http.post(f"/api/tables/{table_id}/join", json={"name": n, "seat": s}).json()["token"]
            for s, n in enumerate(["Ann", "Bob"])
        ]
    base = quiet_server.ws_base + table_id
    stack = contextlib.ExitStack()
    socks = [stack.enter_context(connect(base, max_size=None)) for _ in range(3)]
    socks[0].send(json.dumps({"type": "hello", "token": tokens[0]}))
    socks[1].send(json.dumps({"type": "hello", "token": tokens[1]}))
    socks[2].send('{"type": "watch"}')
    for ws in socks:
        barrier(ws)
    table = quiet_server.room.tables[table_id]
    # play until it is seat 1's turn: seat 0 then has no legal move at all
    while table.match.to_move != 1:
        seat = table.match.to_move
        state = json.loads(json.dumps(quiet_server.call(_message(table, seat))))
        socks[seat].send(
            json.dumps({"type": "action", "action": legal_of(state)[0], "seq": state["seq"]})
        )
        barrier(socks[seat])
    with stack:
        yield {"id": table_id, "socks": socks, "table": table}


async def _message(table: Any, seat: int) -> dict[str, Any]:
    return dict(table.message(seat))


@settings(
    max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(frame=frames, who=st.sampled_from([0, 2]))
def test_the_socket_answers_every_frame_cleanly_and_the_table_stands_still(
    quiet_server: ThreadServer, fuzz_table: dict[str, Any], frame: str | bytes, who: int
) -> None:
    table = fuzz_table["table"]
    ws = fuzz_table["socks"][who]
    seq = table.seq
    before = quiet_server.call(_message(table, 1))["view"]
    ws.send(frame)
    answers = barrier(ws)
    for answer in answers:
        kind = answer["type"]
        assert kind in ("error", "state", "seats", "update"), answer
        if kind == "error":
            assert answer["code"] in CODES and answer["message"], answer
    assert table.seq == seq
    assert quiet_server.call(_message(table, 1))["view"] == before
    assert count_tables(quiet_server) >= 1


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(first=frames)
def test_a_bad_first_frame_is_refused_and_closed(
    quiet_server: ThreadServer, fuzz_table: dict[str, Any], first: str | bytes
) -> None:
    with connect(quiet_server.ws_base + fuzz_table["id"], max_size=None) as ws:
        ws.send(first)
        raw = ws.recv(timeout=20)
        answer = json.loads(raw)
        if answer["type"] == "error":
            assert answer["code"] in CODES
            with pytest.raises(websockets.ConnectionClosed):
                ws.recv(timeout=20)
        else:  # a valid watch (or, by chance, a hello with a real token: not generated)
            assert answer["type"] == "state" and answer["seat"] is None


# ---- the lobby, fuzzed ----------------------------------------------------------------------

seat_specs = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "name": st.text(max_size=40) | json_values,
            "bot": st.sampled_from(["random", "easy", "greedy", "expert", "godlike", "", None])
            | json_values,
        },
    ),
    json_values,
)
bodies = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "game": st.sampled_from(["golf", "spades", "chess", "", "GOLF"]) | json_values,
            "preset": st.sampled_from(
                ["six-card", "four-card", "four-in-hand", "two-player", "bga", "seven-card", ""]
            )
            | json_values,
            "options": st.dictionaries(
                st.sampled_from(
                    [
                        "end",
                        "layout",
                        "decks",
                        "memory",
                        "knock",
                        "target",
                        "discards",
                        "powers",
                        "values",
                        "tiebreak",
                        "bogus",
                    ]
                ),
                st.sampled_from(
                    ["holes:1", "2x2", "hand4", "off", "on", "face_down", "9x9", "8", "playoff"]
                )
                | json_values,
                max_size=3,
            )
            | json_values,
            "seats": st.lists(seat_specs, max_size=9) | json_values,
        },
    ),
    json_values,
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=bodies, raw=st.booleans())
def test_the_lobby_answers_every_body_with_a_table_or_a_code(
    quiet_server: ThreadServer, body: Any, raw: bool
) -> None:
    before = count_tables(quiet_server)
    with httpx.Client(base_url=quiet_server.url, timeout=30) as http:
        if raw:
            response = http.post(
                "/api/tables",
                content=json.dumps(body)[:-1] or "{",
                headers={"content-type": "application/json"},
            )
        else:
            response = http.post("/api/tables", json=body)
    after = count_tables(quiet_server)
    if response.status_code == 201:
        table = response.json()
        assert after == before + 1 and table["status"] in ("open", "playing")
        return
    assert response.status_code in (400, 422), response.text
    error = response.json()["error"]
    assert (
        error["code"] in ("request/invalid", "table/invalid", "rules/invalid") and error["message"]
    )
    assert after == before


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    table_id=st.text(alphabet=string.hexdigits + "xz-./%", min_size=1, max_size=40),
    body=st.fixed_dictionaries(
        {},
        optional={
            "name": st.text(max_size=40) | json_values,
            "seat": st.integers(-2, 10) | json_values,
        },
    )
    | json_values,
    known=st.booleans(),
)
def test_the_join_and_table_routes_answer_every_request_with_a_code(
    quiet_server: ThreadServer, fuzz_table: dict[str, Any], table_id: str, body: Any, known: bool
) -> None:
    before = count_tables(quiet_server)
    loaded = len(quiet_server.room.tables)
    target = fuzz_table["id"] if known else quote(table_id, safe="")
    with httpx.Client(base_url=quiet_server.url, timeout=30) as http:
        for response in (
            http.post(f"/api/tables/{target}/join", json=body),
            http.get(f"/api/tables/{target}"),
            http.get(f"/api/tables/{target}/record"),
        ):
            assert response.status_code < 500, response.text  # 3xx/405: the router's own answers
            if (
                response.status_code >= 400
                and response.headers.get("content-type") == "application/json"
                and "error" in response.json()
            ):
                assert response.json()["error"]["code"] in (
                    "table/not_found",
                    "seat/taken",
                    "seat/invalid",
                    "request/invalid",
                )
    assert count_tables(quiet_server) == before
    assert len(quiet_server.room.tables) == loaded
    assert (
        not getattr(quiet_server.room, "_loading", {})
        or len(quiet_server.room._loading) <= loaded + 1
    )


# ---- the named cases, on a live table ---------------------------------------------------------


async def two_seats(
    live: LiveServer, http: httpx.AsyncClient, game: str = "golf", preset: str = "six-card"
) -> tuple[str, dict[int, Sock]]:
    table_id, tokens = await new_table(http, game, preset, seats=[None, None])
    live.tokens = {**getattr(live, "tokens", {}), table_id: tokens}  # type: ignore[attr-defined]
    socks = {s: await Sock.open(live.ws_base, table_id, t) for s, t in tokens.items()}
    table = live.room.tables[table_id]
    while not all(table.connected(s) for s in socks):
        await asyncio.sleep(0.001)
    for sock in socks.values():
        await sock.barrier()
    return table_id, socks


async def test_malformed_and_unknown_messages_get_codes_and_change_nothing(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    table_id, socks = await two_seats(live, http)
    table = live.room.tables[table_id]
    seq, views = table.seq, [table.message(s)["view"] for s in (0, 1, None)]
    cases: list[tuple[str | bytes, str]] = [
        ("{", "message/malformed"),
        ("not json at all", "message/malformed"),
        ("[]", "message/malformed"),
        ("42", "message/malformed"),
        ('"action"', "message/malformed"),
        ("null", "message/malformed"),
        ("{}", "message/unknown_type"),
        ('{"type": "dance"}', "message/unknown_type"),
        ('{"type": null}', "message/unknown_type"),
        ('{"type": "action"}', "message/malformed"),
        ('{"type": "action", "action": "draw", "seq": "x"}', "message/malformed"),
        ('{"type": "hello", "token": "again"}', "message/malformed"),
        ('{"type": "watch"}', "message/malformed"),
        (b"\xff\xfe\xfd", "message/malformed"),
        (b"", "message/malformed"),
        ("x" * (MAX_MESSAGE_BYTES + 10), "message/too_large"),
        ('{"type": "ping", "pad": "' + "x" * 3 * MAX_MESSAGE_BYTES + '"}', "message/too_large"),
    ]
    for depth in (
        100,
        500,
        900,
        950,
        980,
        990,
        1000,
        1200,
    ):  # deep nesting, near the recursion limit
        cases.append(('{"type": ' + "[" * depth + "]" * depth + "}", "message/"))
        cases.append(("[" * depth + "]" * depth, "message/malformed"))
    for who in (0, 1):
        for frame, code in cases:
            await socks[who].send_raw(frame)
            answers = await socks[who].barrier()
            assert len(answers) == 1 and answers[0]["type"] == "error", (frame[:50], answers)
            assert answers[0]["code"].startswith(code) and answers[0]["code"] in CODES
            assert answers[0]["message"]
    assert table.seq == seq and [table.message(s)["view"] for s in (0, 1, None)] == views
    # binary frames that hold a message are read as that message (UTF-8 JSON either way)
    await socks[0].send_raw(b'{"type": "resync"}')
    assert [m["type"] for m in await socks[0].barrier()] == ["state"]


async def test_wrong_phase_and_illegal_actions_say_why(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    table_id, socks = await two_seats(live, http, "golf", "six-card")
    table = live.room.tables[table_id]
    seat = table.match.to_move
    seq = table.seq
    expectations = [
        ("swap 3", "reveal"),  # holding nothing, in the reveal step
        ("flip 9", "outside"),
        ("peek 1", ""),
        ("jump", "jump"),
        ("play Q♠", ""),
    ]
    for text, words in expectations:
        await socks[seat].send(type="action", action=text, seq=seq)
        error = (await socks[seat].barrier())[0]
        assert error["code"] == "action/illegal", error
        assert words.lower() in error["message"].lower(), error
    for text in (
        "rematch",
        "next",
        "leave",
    ):  # rematch mid-match, next mid-round: refused or no-ops
        await socks[1 - seat].send(type=text) if text != "leave" else None
    answers = await socks[1 - seat].barrier()
    assert [a["code"] for a in answers if a["type"] == "error"] == ["action/illegal"]
    assert table.seq == seq
    spades_id, spades = await two_seats(live, http, "spades", "two-player")
    spades_table = live.room.tables[spades_id]
    mover = spades_table.match.to_move
    for text in ("play A♠", "bid 4", "keep"):  # it is the blind nil step
        await spades[mover].send(type="action", action=text, seq=spades_table.seq)
        error = (await spades[mover].barrier())[0]
        assert error["code"] == "action/illegal" and "blind" in error["message"], error


async def test_huge_frames_are_refused_and_the_table_is_unharmed(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    table_id, socks = await two_seats(live, http)
    table = live.room.tables[table_id]
    seq = table.seq
    await socks[0].send_raw("y" * (2 * MAX_MESSAGE_BYTES))
    assert (await socks[0].barrier())[0]["code"] == "message/too_large"
    await socks[0].send_raw("z" * (64 * MAX_MESSAGE_BYTES))  # past what the socket reads at all
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await socks[0].barrier()
    # 1009 (message too big), or the connection dropped while the client was still sending
    assert closed.value.rcvd is None or closed.value.rcvd.code == 1009, closed.value
    for _ in range(100):  # the server notices the closed socket
        if not table.connected(0):
            break
        await asyncio.sleep(0.01)
    again = await Sock.open(live.ws_base, table_id, None)
    await again.send(type="watch")
    assert (await again.next())["type"] == "state"
    assert table.seq == seq
    mover = table.match.to_move
    if mover == 1:
        state = table.message(1)
        await socks[1].send(type="action", action=legal_of(state)[0], seq=state["seq"])
        assert any(m["type"] == "ack" for m in await socks[1].barrier())


async def test_floods_are_rate_limited_and_the_table_is_unharmed(tmp_path: Path) -> None:
    limited = Settings(bot_delay=0, round_pause=0, takeover_after=3600)  # the real rate limit
    async with LiveServer(Store(sqlite_url(tmp_path / "db")), limited) as live, live.http() as http:
        table_id, socks = await two_seats(live, http)
        table = live.room.tables[table_id]
        seq = table.seq
        # A short flood read as it comes: the first burst is served, then rate/limited.
        answers: list[dict[str, Any]] = []
        flood = limited.burst + 20
        for _ in range(flood):
            await socks[0].send(type="ping")
        while len(answers) < flood:
            answers.append(await socks[0].next())
        pongs = sum(a["type"] == "pong" for a in answers)
        refused = sum(a.get("code") == "rate/limited" for a in answers)
        assert limited.burst - 5 <= pongs <= limited.burst + 5 and pongs + refused == flood
        await asyncio.sleep(0.3)  # the bucket refills: the connection survived
        await socks[0].send(type="ping")
        assert (await socks[0].next())["type"] == "pong"
        # A long flood is cut off, with a close frame that says why.
        for _ in range(200):
            await socks[0].send(type="ping")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                answer = await socks[0].next()
                assert answer["type"] == "pong" or answer["code"] == "rate/limited"
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008, closed.value
        # A flood never read is cut off too.
        flooder = await Sock.open(live.ws_base, table_id, None)
        await flooder.send(type="watch")
        with pytest.raises(websockets.ConnectionClosed):
            for _ in range(5000):
                await flooder.send(type="resync")
            for _ in range(100_000):
                await flooder.next()
        assert not table.connected(0)
        socks[0] = await Sock.open(live.ws_base, table_id, live.tokens[table_id][0])  # comes back
        # The table is unharmed: the seats still play.
        assert table.seq == seq
        mover = table.match.to_move
        await socks[mover].barrier()
        state = table.message(mover)
        await socks[mover].send(
            type="action", action=legal_of(state)[0], seq=state["seq"], id="after"
        )
        assert (await socks[mover].until(lambda m: m["type"] in ("ack", "error")))["type"] == "ack"


async def test_a_client_that_slows_down_when_told_is_not_cut_off(tmp_path: Path) -> None:
    """Over the limit again and again, but never a flood that lets up not at all: every
    excess message is refused, the connection stays."""
    limited = Settings(bot_delay=0, round_pause=0, takeover_after=3600, rate=20.0, burst=2)
    async with LiveServer(Store(sqlite_url(tmp_path / "db")), limited) as live, live.http() as http:
        _, socks = await two_seats(live, http)
        sock = socks[1]
        await asyncio.sleep(0.2)  # a full bucket
        for _ in range(150):  # several times the allowed rate, for seconds
            await sock.send(type="ping")
            await asyncio.sleep(0.01)
        answers = [await sock.next() for _ in range(150)]
        refused = sum(a.get("code") == "rate/limited" for a in answers)
        assert refused > 51 and all(
            a["type"] == "pong" or a.get("code") == "rate/limited" for a in answers
        )
        await asyncio.sleep(0.2)
        await sock.send(type="ping")
        assert (await sock.next())["type"] == "pong"  # still connected


UNKNOWN_IDS = [
    "0123456789ab",
    "ffffffffffff",
    "abc",
    "0" * 32,
    "0" * 33,
    "ZZZ",
    "not-a-table",
    "..%2F..",
    "%00",
]


async def test_unknown_tables_are_404_and_nothing_is_created(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    await new_table(http)  # one real table
    count = len(await live.store.tables())
    for table_id in UNKNOWN_IDS:
        for method, path, body in [
            ("GET", f"/api/tables/{table_id}", None),
            ("GET", f"/api/tables/{table_id}/record", None),
            ("POST", f"/api/tables/{table_id}/join", {"name": "Ann"}),
        ]:
            response = await http.request(method, path, json=body)
            assert response.status_code == 404, (path, response.text)
            if "error" in response.json():
                assert response.json()["error"]["code"] == "table/not_found"
        try:
            sock = await Sock.open(live.ws_base, table_id)
        except websockets.InvalidStatus:
            continue  # the URL itself is not a table route (404 before any socket)
        error = await sock.next()  # refused at once, before any hello
        assert error == {"type": "error", "code": "table/not_found", "message": error["message"]}
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await sock.next()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    for n in range(500):  # many made-up ids leave nothing behind, in the database or in memory
        await http.get(f"/api/tables/{n:012x}")
    assert len(await live.store.tables()) == count
    assert len(live.room.tables) == count
    assert not live.room._loading


BAD_BODIES: list[tuple[Any, str]] = [
    ({}, "seats"),
    ({"seats": []}, "seats"),
    ({"seats": "two"}, "seats"),
    ({"game": "chess", "seats": [{}, {}]}, "game"),
    ({"seats": [{"bot": "godlike"}, {}]}, "bot"),
    ({"seats": [{"name": "x" * 33}, {}]}, "name"),
    ({"seats": [{}] * 9}, "seats"),
    ({"seats": [{}, {}], "options": []}, "options"),
    ({"seats": [{}, {}], "options": {"end": ["holes", 1]}}, "options"),
    ({"seats": [{}, {}], "preset": "p" * 41}, "preset"),
    ([1, 2], ""),
    ("golf", ""),
]


async def test_bad_lobby_bodies_are_422_with_a_clear_message(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    count = len(await live.store.tables())
    for body, field in BAD_BODIES:
        response = await http.post("/api/tables", json=body)
        assert response.status_code == 422, (body, response.text)
        error = response.json()["error"]
        assert error["code"] == "request/invalid" and field in error["message"], (body, error)
    for raw in ("{", "", "not json", '{"seats": [{}, {}]'):
        response = await http.post(
            "/api/tables", content=raw, headers={"content-type": "application/json"}
        )
        assert response.status_code == 422 and response.json()["error"]["code"] == "request/invalid"
    table_id, _ = await new_table(http, seats=[None, "random"], join=False)
    count += 1
    for body, status, code in [
        ({}, 422, "request/invalid"),
        ({"name": ""}, 422, "request/invalid"),
        ({"name": "   "}, 400, "seat/invalid"),
        ({"name": "Ann", "seat": 9}, 422, "request/invalid"),
        ({"name": "Ann", "seat": -1}, 422, "request/invalid"),
        ({"name": "Ann", "seat": 5}, 400, "seat/invalid"),
        ({"name": "Ann", "seat": 1}, 409, "seat/taken"),
        ({"name": "Ann", "seat": "one"}, 422, "request/invalid"),
    ]:
        response = await http.post(f"/api/tables/{table_id}/join", json=body)
        assert response.status_code == status, (body, response.text)
        assert response.json()["error"]["code"] == code and response.json()["error"]["message"]
    assert len(await live.store.tables()) == count


async def test_unknown_presets_and_options_are_rules_invalid(
    live: LiveServer, http: httpx.AsyncClient
) -> None:
    count = len(await live.store.tables())
    two = [{"name": "A"}, {"name": "B"}]
    for body, words in [
        ({"preset": "seven-card", "seats": two}, "seven-card"),
        ({"options": {"bogus": 1}, "seats": two}, "bogus"),
        ({"options": {"layout": "9x9"}, "seats": two}, "layout"),
        ({"options": {"end": "holes:0"}, "seats": two}, "end"),
        ({"options": {"decks": "many"}, "seats": two}, "decks"),
        ({"game": "spades", "preset": "four-player", "seats": two}, "four-player"),
        ({"game": "spades", "options": {"target": 0}, "seats": two}, "target"),
        ({"game": "spades", "options": {"discards": "sideways"}, "seats": two}, "discards"),
        (
            {
                "options": {"layout": "2x5", "decks": 1},
                "seats": [{"name": str(i)} for i in range(8)],
            },
            "decks",
        ),
    ]:
        response = await http.post("/api/tables", json=body)
        assert response.status_code == 400, (body, response.text)
        error = response.json()["error"]
        assert error["code"] == "rules/invalid" and words in error["message"], (body, error)
    for body, words in [
        ({"game": "spades", "seats": [*two, {"name": "C"}]}, "2 to 2"),
        ({"seats": [{"name": "A"}]}, "2 to 8"),
    ]:
        response = await http.post("/api/tables", json=body)
        assert response.status_code == 400 and response.json()["error"]["code"] == "table/invalid"
        assert words in response.json()["error"]["message"]
    assert len(await live.store.tables()) == count
