"""A seat at a server's table, through the public protocol the browser uses.

Join over HTTP (``POST /api/tables/{id}/join`` returns the seat token), then
the table's WebSocket: ``hello`` with the token, ``state``/``update`` frames
carrying this seat's view, ``action`` frames made against the ``seq`` last
seen. A stale move (``action/stale``) is answered with a fresh state; a dropped
connection is reopened with the same token, and a move not yet acknowledged is
sent again with its id, so the server applies it at most once.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

from greenfelt.tui.news import event_text, round_over_text, seat_news
from greenfelt.tui.session import PlayError, Session

__all__ = ["RemoteSession", "fetch_table", "join_table", "server_url"]

RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)
"""Seconds between reconnection attempts (the last one repeats)."""

_FATAL = ("auth/denied", "auth/required", "table/not_found", "table/other_shard")


def server_url(text: str) -> str:
    """``http://HOST:PORT`` checked and without a trailing slash; raises PlayError."""
    parts = urllib.parse.urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise PlayError(f"--server {text!r} is not a server address such as http://HOST:PORT")
    return text.strip().rstrip("/")


def _request(server: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """One JSON request to the lobby; raises PlayError with the server's one-line reason."""
    url = server + path
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            answer: Any = json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        try:
            detail = json.loads(error.read().decode("utf-8"))["error"]
            reason = f"{detail['message']} ({detail['code']})"
        except (ValueError, KeyError, TypeError):
            reason = f"HTTP {error.code} {error.reason}"
        raise PlayError(f"the server at {server} refused: {reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        why = getattr(error, "reason", error)
        raise PlayError(f"cannot reach the server at {server}: {why}") from None
    if not isinstance(answer, dict):
        raise PlayError(f"the server at {server} answered {path} with something unexpected")
    return answer


def fetch_table(server: str, table_id: str) -> dict[str, Any]:
    """The lobby's public information about a table (game, rules, seats)."""
    return _request(server, f"/api/tables/{urllib.parse.quote(table_id, safe='')}")


def join_table(server: str, table_id: str, name: str, seat: int | None) -> dict[str, Any]:
    """Take a seat: ``{"table", "seat", "token"}``."""
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    return _request(server, f"/api/tables/{urllib.parse.quote(table_id, safe='')}/join", body)


class RemoteSession(Session):
    """One seat at a server table; see the module docstring."""

    def __init__(
        self,
        server: str,
        table_id: str,
        seat: int,
        token: str,
        info: dict[str, Any],
        *,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
    ) -> None:
        super().__init__()
        self.server = server
        self.table_id = table_id
        self.seat = seat
        self.token = token
        self.game = str(info["game"])
        self.rules = _rules(self.game, info["rules"])
        self.seats: list[dict[str, Any]] = list(info.get("seats") or [])
        self.retry_delays = retry_delays
        self.latest: dict[str, Any] | None = None
        self.seq = int(info.get("seq") or 0)
        self.ws: Any = None
        self.connects = 0
        self.pending: dict[str, Any] | None = None
        self.fatal: str | None = None
        self._ids = 0
        self._prefix = f"tui-{secrets.token_hex(4)}"
        self._closed = False
        self._round_told: str | None = None

    @classmethod
    def join(
        cls,
        server: str,
        table_id: str,
        name: str,
        seat: int | None = None,
        *,
        ready: Callable[[], None] | None = None,
    ) -> RemoteSession:
        """Check the table, take a seat over HTTP; raises PlayError (one line) if either fails.

        ``ready`` runs between the two and may raise: what must hold before a seat is
        taken (``greenfelt play`` needs a terminal), so a refusal leaves the seat free."""
        server = server_url(server)
        if not name.strip():
            raise PlayError("--name must not be empty")
        info = fetch_table(server, table_id)
        if ready is not None:
            ready()
        joined = join_table(server, table_id, name, seat)
        return cls(server, str(joined["table"]), int(joined["seat"]), str(joined["token"]), info)

    @property
    def ws_url(self) -> str:
        parts = urllib.parse.urlsplit(self.server)
        scheme = "wss" if parts.scheme == "https" else "ws"
        path = f"{parts.path}/ws/tables/{urllib.parse.quote(self.table_id, safe='')}"
        return urllib.parse.urlunsplit((scheme, parts.netloc, path, "", ""))

    # ---- what the app reads -----------------------------------------------------------

    @property
    def view(self) -> dict[str, Any] | None:
        if self.latest is None:
            return None
        view: dict[str, Any] | None = self.latest.get("view")
        return view

    @property
    def labels(self) -> list[str]:
        out = []
        for seat in self.seats:
            if seat.get("bot"):
                out.append(f"{seat['bot']} bot")
            elif seat.get("stand_in"):
                out.append("a bot stands in")
            elif not seat.get("connected"):
                out.append("away" if seat.get("taken") else "free seat")
            else:
                out.append("")
        return out

    @property
    def waiting(self) -> str | None:
        """The seats, and how to give an open one to a bot (``bot SEAT LEVEL``)."""
        if not self.seats or all(seat.get("taken") for seat in self.seats):
            return None
        lines = []
        for seat in self.seats:
            number = int(seat.get("seat", 0)) + 1
            if not seat.get("taken"):
                who = "open"
            else:
                who = str(seat.get("name")) + (" (you)" if number - 1 == self.seat else "")
            lines.append(f"  seat {number}: {who}")
        first = next(int(s.get("seat", 0)) + 1 for s in self.seats if not s.get("taken"))
        hint = f"A friend not coming? Type :bot {first} greedy to give seat {first} to a bot"
        return "\n".join(["Seats:", *lines, "", hint + " (easy, greedy or expert)."])

    @property
    def connected(self) -> bool:
        return self.ws is not None

    # ---- the socket -------------------------------------------------------------------------

    async def run(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        attempt = 0
        while not self._closed:
            reason = "closed by the server"
            try:
                async with connect(self.ws_url, open_timeout=10, close_timeout=2) as ws:
                    self.ws = ws
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    self.connects += 1
                    attempt = 0
                    self.changed(
                        "Reconnected." if self.connects > 1 else f"Joined as seat {self.seat}."
                    )
                    async for raw in ws:
                        self._receive(raw)
            except (OSError, TimeoutError, WebSocketException) as error:
                reason = str(error) or type(error).__name__
            finally:
                self.ws = None
            if self._closed or self.fatal is not None:
                break
            delay = self.retry_delays[min(attempt, len(self.retry_delays) - 1)]
            attempt += 1
            self.changed(f"Connection lost ({reason}); reconnecting in {delay:g} s…", True)
            await asyncio.sleep(delay)

    def _receive(self, raw: str | bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        kind = message.get("type")
        if kind in ("state", "update"):
            self.latest = message
            self.seq = int(message.get("seq") or 0)
            self._tell_seats(message.get("seats"))
            line = None
            view = message.get("view")
            ended = None
            try:  # the log's words; a frame they cannot be read from still renders
                if kind == "update" and view is not None:
                    line = event_text(message.get("event"), view, self.seat)
                ended = round_over_text(view)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                pass
            if kind == "state" and self.pending is not None:
                self._resend()
            self.changed(line)
            if ended is not None and ended != self._round_told:
                self._round_told = ended  # once per round, however many frames show it
                if kind == "update":
                    self.changed(ended)
        elif kind == "seats":
            self._tell_seats(message.get("seats"))
            self.changed()
        elif kind == "ack":
            self.pending = None
        elif kind == "error":
            self._error(str(message.get("code")), str(message.get("message")))

    def _tell_seats(self, seats: Any) -> None:
        """Take the table's seats from a frame, and log what changed at them."""
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            return
        try:
            lines = seat_news(self.seats, seats, self.seat)
        except (TypeError, ValueError):
            lines = []
        self.seats = list(seats)
        for line in lines:
            self.changed(line)

    def _error(self, code: str, text: str) -> None:
        if code.startswith(("action/", "table/")):
            self.pending = None
        if code == "action/stale":
            self.changed(f"The table moved on before your move arrived ({text}); try again.", True)
            self._send_later({"type": "resync"})
            return
        if code in _FATAL:
            self.fatal = text
        self.changed(f"{text} ({code})", True)

    def _resend(self) -> None:
        """After a reconnection: send the unacknowledged move again if it can still apply."""
        pending = self.pending
        if pending is None:
            return
        if pending["seq"] != self.seq:
            self.pending = None  # it was applied (or the table moved on): the state shows which
            return
        self._send_later(pending)

    def _send_later(self, frame: dict[str, Any]) -> None:
        ws = self.ws
        if ws is not None:
            task = asyncio.ensure_future(ws.send(json.dumps(frame)))
            task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def _send(self, frame: dict[str, Any]) -> None:
        if self.ws is None:
            raise PlayError("not connected to the table (reconnecting); try again in a moment")
        from websockets.exceptions import WebSocketException

        try:
            await self.ws.send(json.dumps(frame))
        except (OSError, WebSocketException):
            raise PlayError("the connection dropped; reconnecting") from None

    # ---- what you do -------------------------------------------------------------------------

    async def act(self, text: str) -> None:
        if self.view is None:
            words = text.split()
            if len(words) == 3 and words[0] == "bot" and words[1].isdigit():
                # Seats are numbered from 1 here, as the waiting list shows them.
                seat = int(words[1]) - 1
                if seat < 0:
                    raise PlayError("seats are numbered from 1, as the list of seats shows")
                await self._send({"type": "bot", "seat": seat, "level": words[2].lower()})
                return
            raise PlayError(
                "the match has not started: waiting for every seat to be taken "
                "(bot SEAT LEVEL gives an open seat to a bot)"
            )
        self._ids += 1
        frame = {
            "type": "action",
            "action": text,
            "seq": self.seq,
            "id": f"{self._prefix}-{self._ids}",
        }
        self.pending = frame
        await self._send(frame)

    async def next_round(self) -> None:
        view = self.view
        over = view is not None and (
            view.get("over") if view.get("game") == "golf" else bool(view.get("winners"))
        )
        await self._send({"type": "rematch" if over else "next"})

    async def close(self) -> None:
        self._closed = True
        ws = self.ws
        if ws is not None:
            await ws.close()


def _rules(game: str, data: Any) -> Any:
    if game == "golf":
        from greenfelt.golf import rules_from_json

        return rules_from_json(data)
    if game == "spades":
        from greenfelt.spades import rules_from_json as spades_rules

        return spades_rules(data)
    raise PlayError(f"the table plays {game!r}, which this client does not know")
