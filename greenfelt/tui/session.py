"""What the terminal app plays through: a local game against bots, or a seat at a server.

The app only knows :class:`Session`: the latest match view for its seat, a
way to send an action's text, the next round, and a background ``run`` loop
(bots moving, or the table's socket). Both kinds of session hand the app the
same match view, so it renders a local game exactly like a remote seat.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Any

from greenfelt.errors import GreenfeltError

__all__ = ["Listener", "PlayError", "Session"]

Listener = Callable[[str | None, bool], None]
"""Called on every change: ``(message or None, is_error)``."""


class PlayError(GreenfeltError):
    """``greenfelt play``: bad arguments, an unreachable server, or a request refused now."""


class Session(abc.ABC):
    """One seat's connection to a game; see the module docstring."""

    game: str
    rules: Any
    seat: int | None

    def __init__(self) -> None:
        self.listener: Listener | None = None
        self.log: list[str] = []

    @property
    @abc.abstractmethod
    def view(self) -> dict[str, Any] | None:
        """The latest match view of this seat (None before the match starts)."""

    @property
    def labels(self) -> list[str]:
        """A short note per seat (its bot level, ``away``), shown beside the names."""
        return []

    @property
    def waiting(self) -> str | None:
        """What the table waits for before its match starts (None: nothing to add)."""
        return None

    @property
    def players(self) -> int | None:
        view = self.view
        return None if view is None else len(view["names"])

    @abc.abstractmethod
    async def run(self) -> None:
        """The background loop (bots, or the socket) until :meth:`close`."""

    @abc.abstractmethod
    async def act(self, text: str) -> None:
        """Make a move by its text; raises a GreenfeltError when it is refused at once."""

    @abc.abstractmethod
    async def next_round(self) -> None:
        """Ready for the next round once a round is over."""

    def save(self, path: str | None = None) -> str:
        """Write the game as a record; returns where. Only a local game can."""
        raise PlayError(
            "only a local game is saved from here; a server table's record is at "
            "/api/tables/ID/record"
        )

    @abc.abstractmethod
    async def close(self) -> None:
        """Stop the background loop and let go of any connection."""

    def changed(self, message: str | None = None, error: bool = False) -> None:
        """Tell the app to render again (and show ``message``)."""
        if message is not None and not error:
            self.log.append(message)
            del self.log[:-200]
        if self.listener is not None:
            self.listener(message, error)
