"""The table socket's messages: parsed strictly at the boundary, errors as stable codes.

Client to server (JSON text frames):

- ``{"type": "hello", "token": "..."}``: take your seat (first message), or
  ``{"type": "watch"}`` to watch as a spectator.
- ``{"type": "action", "action": "swap 4", "seq": 17, "id": "c1-42"}``: a move in the
  engine's text form, made against event ``seq``; ``id`` (optional) makes a resend
  apply once.
- ``{"type": "next"}``: ready for the next round; ``{"type": "rematch"}``: same
  seats, new match; ``{"type": "leave"}``: a bot takes your seat until you return;
  ``{"type": "resync"}``; ``{"type": "ping"}``.
- ``{"type": "bot", "seat": 2, "level": "greedy"}``: while the table waits, a seated
  player gives an open seat to a bot (a friend who did not come); the table starts
  once every seat is filled.

Server to client: ``state`` (a full resync), ``update`` (after every event, with
a redacted ``event``), ``ack``, ``error`` (``code`` + ``message``), ``pong``.
Every view in a message is the engine's ``view(seat)`` for the receiving seat.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_MESSAGE_BYTES", "ClientMessage", "ProtocolError", "error_message", "parse"]

MAX_MESSAGE_BYTES = 4096
"""Larger frames are refused: no legal message comes near it."""

TYPES = ("hello", "watch", "action", "next", "rematch", "leave", "resync", "ping", "bot")

# Stable error codes (STYLE 8), each with the human message beside it.
CODES = (
    "message/malformed",
    "message/too_large",
    "message/unknown_type",
    "auth/required",
    "auth/denied",
    "seat/spectator",
    "seat/invalid",
    "seat/taken",
    "table/not_found",
    "table/not_started",
    "table/over",
    "action/illegal",
    "action/not_your_turn",
    "action/stale",
    "rate/limited",
    "store/unavailable",
)


class ProtocolError(Exception):
    """A message that cannot be accepted, with its stable code."""

    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class ClientMessage:
    type: str
    token: str | None = None
    action: str | None = None
    seq: int | None = None
    id: str | None = None
    seat: int | None = None
    level: str | None = None


def parse(text: str | bytes) -> ClientMessage:
    """Parse one client frame; raises ProtocolError with the code and what was wrong."""
    if isinstance(text, bytes):
        if len(text) > MAX_MESSAGE_BYTES:
            raise ProtocolError(
                "message/too_large", f"frames are limited to {MAX_MESSAGE_BYTES} bytes"
            )
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("message/malformed", "frames must be UTF-8 JSON text") from None
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("message/too_large", f"frames are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("message/malformed", "a message is one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("message/malformed", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    if kind not in TYPES:
        raise ProtocolError(
            "message/unknown_type",
            f"unknown message type {str(kind)[:40]!r}; known: {', '.join(TYPES)}",
        )
    token = _optional_str(data, "token", 200)
    if kind == "hello" and not token:
        raise ProtocolError("auth/required", "hello needs the seat token you got when joining")
    action = _optional_str(data, "action", 100)
    seq = data.get("seq")
    if kind == "action":
        if not action:
            raise ProtocolError(
                "message/malformed", "an action message needs 'action', e.g. 'draw'"
            )
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise ProtocolError(
                "message/malformed", "an action message needs 'seq': the last event number you saw"
            )
    seat = data.get("seat")
    level = _optional_str(data, "level", 16)
    if kind == "bot":
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
            raise ProtocolError("message/malformed", "a bot message needs 'seat': a seat number")
        if not level:
            raise ProtocolError("message/malformed", "a bot message needs 'level', e.g. 'greedy'")
    move_id = data.get("id")
    if move_id is not None and not (isinstance(move_id, str | int) and len(str(move_id)) <= 64):
        raise ProtocolError("message/malformed", "'id' must be a short string")
    return ClientMessage(
        kind,
        token=token,
        action=action,
        seq=seq if isinstance(seq, int) and not isinstance(seq, bool) else None,
        id=None if move_id is None else str(move_id),
        seat=seat if kind == "bot" else None,
        level=level if kind == "bot" else None,
    )


def _optional_str(data: dict[str, Any], key: str, limit: int) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise ProtocolError(
            "message/malformed", f"'{key}' must be text of at most {limit} characters"
        )
    return value


def error_message(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """An error frame: the stable code and a short human message."""
    return {"type": "error", "code": code, "message": message, **extra}
