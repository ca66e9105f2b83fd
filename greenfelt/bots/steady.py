"""A bot's move that always comes: a bot that fails gives way to the levels below it.

A bot is code, and code can have bugs. At a table with people (the server, the
terminal) one bot raising must not stop the game, so its seat plays the move of
the strongest weaker level that does not fail (``expert`` gives way to
``greedy``, then ``easy``, then ``random``), and each failure is kept for the
log. A failure is told by its kind and where it happened, never by its message:
an engine error may name cards that the bot's seat does not know.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from greenfelt.bots import LEVELS
from greenfelt.bots.base import Bot

__all__ = [
    "BOT_TIMEOUT_S",
    "Failure",
    "SteadyMove",
    "fallback_levels",
    "place",
    "steady_move",
]

BOT_TIMEOUT_S = 30.0
"""Seconds a table waits on a bot before its seat plays a random move instead. The
expert at a table thinks 0.2 s at most (``TABLE_TIME_MS``), greedy far less. A
server's worker process stops a hung bot sooner (``greenfelt.server.thinking``); a
thread cannot be stopped, so there a bot that hangs is left behind, its answer dropped."""

_PACKAGE = Path(__file__).resolve().parent.parent


def place(filename: str, line: int | None) -> str:
    """``greenfelt/bots/ismcts.py:120``: a line of code, named from the package's folder."""
    path = Path(filename)
    if path.is_relative_to(_PACKAGE):
        path = path.relative_to(_PACKAGE.parent)
    return f"{path}:{line}"


@dataclass(frozen=True, slots=True)
class Failure:
    """One bot that failed to move: its level, the error's kind and where it was raised."""

    level: str
    kind: str
    where: str

    @classmethod
    def of(cls, level: str, error: BaseException) -> Failure:
        """The failure of ``error``: where it was raised, or where it says it was (a
        timer's exception, raised by its handler, names the line it interrupted)."""
        where = getattr(error, "where", None)
        if not isinstance(where, str):
            frames = traceback.extract_tb(error.__traceback__)
            where = place(frames[-1].filename, frames[-1].lineno) if frames else "?"
        return cls(level, type(error).__name__, where)

    def __str__(self) -> str:
        return f"the {self.level} bot failed ({self.kind} at {self.where})"


@dataclass(frozen=True, slots=True)
class SteadyMove:
    """The move played, the level that chose it, and the levels that failed before it."""

    action: Any
    level: str
    failures: tuple[Failure, ...]


def fallback_levels(level: str) -> tuple[str, ...]:
    """``level`` and every weaker level, strongest first, ending with ``random``."""
    level = level.strip().lower()
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    below = LEVELS[: LEVELS.index(level) + 1]  # LEVELS is weakest first
    return tuple(reversed(below))


def steady_move(level: str, state: Any, seat: int, bot_for: Callable[[str], Bot]) -> SteadyMove:
    """The move for ``seat`` of the strongest level, from ``level`` down, that does not fail.

    ``bot_for(level)`` makes (or returns) the bot of a level. A bot fails when it
    raises or chooses an action that is not legal. Raises only when even ``random``
    fails, which means the round itself is broken.
    """
    failures: list[Failure] = []
    for tried in fallback_levels(level):
        try:
            action = bot_for(tried).act(state, seat)
        except Exception as error:
            failures.append(Failure.of(tried, error))
            if tried == "random":
                raise
            continue
        if action not in state.legal_actions(seat):
            # Not named: an action's text may hold a card of the seat's hand.
            failures.append(Failure(tried, "IllegalAction", "the move it chose"))
            continue
        return SteadyMove(action, tried, tuple(failures))
    raise RuntimeError("not even the random bot found a legal move: the round is broken")
