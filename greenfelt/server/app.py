"""The HTTP lobby (JSON, OpenAPI at /docs) and the table WebSocket.

Errors have one shape everywhere: ``{"error": {"code": "...", "message": "..."}}``
with a stable code (STYLE 8).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from greenfelt.record import match_record
from greenfelt.server.protocol import ProtocolError, error_message, parse
from greenfelt.server.room import LobbyError, Room
from greenfelt.server.store import Store, StoreError
from greenfelt.server.tables import Connection, Settings, Table

__all__ = ["create_app"]

log = logging.getLogger("greenfelt.server")
WEB = Path(__file__).resolve().parent.parent / "web"
HELLO_TIMEOUT = 10.0


class SeatSpec(BaseModel):
    """One seat of a new table: a person (no bot) or a bot level."""

    bot: Literal["random", "easy", "greedy", "expert"] | None = None
    name: str | None = Field(default=None, max_length=32)


class CreateTable(BaseModel):
    """A new table: the game, a preset plus option overrides, and its seats."""

    game: Literal["golf", "spades"] = "golf"
    preset: str | None = Field(default=None, max_length=40, examples=["six-card"])
    options: dict[str, str | int | bool | None] = Field(
        default_factory=dict, examples=[{"closer_rule": "penalty_10", "end": "holes:9"}]
    )
    seats: list[SeatSpec] = Field(
        min_length=1, max_length=8, examples=[[{"name": "Ann"}, {"bot": "greedy"}]]
    )


class JoinTable(BaseModel):
    """Take a seat: a display name, and a seat number (the first free one if omitted)."""

    name: str = Field(min_length=1, max_length=32)
    seat: int | None = Field(default=None, ge=0, le=7)


class Joined(BaseModel):
    table: str
    seat: int
    token: str = Field(description="secret: send it in the socket's hello; shown only once")


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def create_app(
    store: Store, settings: Settings | None = None, shard: tuple[int, int] = (0, 1)
) -> FastAPI:
    """The greenfelt server over ``store`` (a Room of tables)."""
    room = Room(store, settings, shard)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await room.start()
        yield
        await room.stop()

    app = FastAPI(
        title="greenfelt",
        summary="A card room for Golf in every variant and two-player Spades.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.room = room

    @app.exception_handler(LobbyError)
    async def lobby_error(_request: Request, error: LobbyError) -> JSONResponse:
        return _error(error.status, error.code, error.message)

    @app.exception_handler(StoreError)
    async def store_error(_request: Request, error: StoreError) -> JSONResponse:
        return _error(
            503, "store/unavailable", f"storage is unavailable; nothing was changed ({error})"
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(422, "request/invalid", f"{where}: {first.get('msg', 'invalid request')}")

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """Liveness, which database this process uses, and its bot workers (how many,
        and how many expert moves wait for one)."""
        bots = {"processes": room.thinkers.processes, "waiting": room.thinkers.waiting}
        return {
            "ok": True,
            "store": store.kind,
            "tables": len(room.tables),
            "shard": list(shard),
            "bots": bots,
        }

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        """Presets and options of each game, with a line of explanation each."""
        return _catalogue()

    @app.post("/api/tables", status_code=201)
    async def create_table(spec: CreateTable) -> dict[str, Any]:
        """Create a table; bots take the seats that ask for one, people join the others."""
        table = await room.create(
            spec.game,
            spec.preset,
            {k: v for k, v in spec.options.items()},
            [s.model_dump() for s in spec.seats],
        )
        return table.info()

    @app.get("/api/tables")
    async def list_tables() -> list[dict[str, Any]]:
        """Tables waiting for players or in play."""
        return await room.list_open()

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        return (await room.get(table_id)).info()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable) -> Joined:
        """Take a seat; returns the seat token (keep it: it is how you reconnect)."""
        table, seat, token = await room.join(table_id, body.seat, body.name)
        return Joined(table=table.id, seat=seat, token=token)

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        """The table's current match as a record; an unfinished round is left out (its deck is secret)."""
        table = await room.get(table_id)
        return _public_record(table)

    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        try:
            table = await room.get(table_id)
        except LobbyError as error:
            await websocket.send_json(error_message(error.code, error.message))
            await websocket.close(code=4404)
            return
        except StoreError as error:
            await websocket.send_json(error_message("store/unavailable", str(error)))
            await websocket.close(code=1011)
            return
        await _serve_socket(websocket, table, room.settings)

    if (WEB / "index.html").exists():
        app.mount("/static", StaticFiles(directory=WEB), name="static")

        @app.get("/", include_in_schema=False)
        async def index() -> FileResponse:
            return FileResponse(WEB / "index.html")
    else:

        @app.get("/", include_in_schema=False)
        async def about() -> HTMLResponse:
            return HTMLResponse(
                "<!doctype html><title>greenfelt</title><h1>greenfelt</h1>"
                "<p>The card room's API is running: <a href='/docs'>API documentation</a>, "
                "<a href='/api/tables'>open tables</a>.</p>"
            )

    return app


async def _serve_socket(websocket: WebSocket, table: Table, settings: Settings) -> None:
    """One client: hello (seat or spectator), then messages until it goes."""
    try:
        raw = await asyncio.wait_for(_receive(websocket), HELLO_TIMEOUT)
        first = parse(raw)
    except TimeoutError:
        await _close(websocket, "auth/required", "say hello (with your token) or watch")
        return
    except ProtocolError as error:
        await _close(websocket, error.code, error.message)
        return
    except WebSocketDisconnect:
        return
    seat: int | None = None
    if first.type == "hello":
        seat = table.seat_for_token(first.token or "")
        if seat is None:
            await _close(websocket, "auth/denied", "that token seats nobody at this table")
            return
    elif first.type != "watch":
        await _close(websocket, "auth/required", "the first message is hello or watch")
        return

    connection = Connection(websocket.send_json, seat, settings)
    table.attach(connection)
    strikes = 0
    # Why the server ends the connection itself (None: the client left).
    ending: tuple[int, str] | None = (1013, "too slow to keep up; reconnect to resync")
    try:
        while not connection.closed:
            raw = await _receive(websocket)
            if not connection.allow():
                strikes += 1
                connection.push(error_message("rate/limited", "too many messages; slow down"))
                if strikes > 50:
                    ending = (1008, "too many messages")
                    break
                continue
            strikes = 0  # it slowed down: only a flood that never lets up is cut off
            try:
                await _handle(table, connection, parse(raw))
            except ProtocolError as error:
                connection.push(error_message(error.code, error.message, seq=table.seq))
                if error.code == "action/stale":  # resync: the client's picture is old
                    connection.push(table.message(seat, "state"))
            except StoreError as error:  # next, rematch, bot: nothing was changed
                connection.push(
                    error_message(
                        "store/unavailable", f"nothing was changed: {error}", seq=table.seq
                    )
                )
    except WebSocketDisconnect:
        ending = None
    finally:
        table.detach(connection)
    if ending is not None:
        # A close frame with a reason, not a dropped connection: the client knows why.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(connection.writer), 1.0)
        with contextlib.suppress(Exception):
            await websocket.close(code=ending[0], reason=ending[1])


async def _receive(websocket: WebSocket) -> str | bytes:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is not None:
        return str(text)
    return bytes(message.get("bytes") or b"")


async def _handle(table: Table, connection: Connection, message: Any) -> None:
    seat = connection.seat
    kind = message.type
    if kind == "ping":
        connection.push({"type": "pong", "seq": table.seq})
        return
    if kind == "resync":
        connection.push(table.message(seat, "state"))
        return
    if kind in ("hello", "watch"):
        raise ProtocolError("message/malformed", "already connected; send resync for a fresh state")
    if seat is None:
        raise ProtocolError("seat/spectator", "spectators watch; join a seat to play")
    if kind == "action":
        ack = await table.submit(seat, message.action, message.seq, message.id)
        connection.push(ack)
    elif kind == "next":
        await table.next_round(seat)
    elif kind == "rematch":
        await table.rematch()
    elif kind == "leave":
        table.leave(seat)
    elif kind == "bot":
        await table.seat_bot(message.seat, message.level)


async def _close(websocket: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json(error_message(code, message))
        await websocket.close(code=4401 if code.startswith("auth") else 4400)


def _public_record(table: Table) -> dict[str, Any]:
    match = table.match
    if match is None:
        return {
            "format": "greenfelt-record/1",
            "game": table.game,
            "seats": table.names,
            "rounds": [],
        }
    record = match_record(table.game, match)
    if match.current is not None:  # the round in play: its deck and reshuffles are secret
        record["rounds"] = record["rounds"][:-1]
        record["in_progress"] = True
    return record


def _catalogue() -> dict[str, Any]:
    from greenfelt.golf.rules import OPTIONS, PRESET_NOTES, PRESETS
    from greenfelt.spades import PRESETS as SPADES_PRESETS
    from greenfelt.spades import rules_to_json as spades_json

    golf = {
        "presets": {
            name: {"note": PRESET_NOTES[name], "options": rules.options()}
            for name, rules in PRESETS.items()
        },
        "options": [
            {"name": o.name, "rule": o.rule, "help": o.help, "choices": list(o.choices)}
            for o in OPTIONS
        ],
    }
    from greenfelt.spades import OPTION_HELP as SPADES_HELP

    spades = {
        "presets": {name: spades_json(rules) for name, rules in SPADES_PRESETS.items()},
        "options": [{"name": name, "help": text} for name, text in SPADES_HELP.items()],
    }
    catalogue: dict[str, Any] = json.loads(json.dumps({"golf": golf, "spades": spades}))
    return catalogue
